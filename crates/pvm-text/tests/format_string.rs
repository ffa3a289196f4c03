//! Replays CPython 3.11 `str.format` template / field-name parsing cases.

mod common;

use common::*;
use pvm_text::format_string::{
    self as fs, AutoNumber, Conversion, FieldAccess, FieldFirst, FormatPiece,
};
use pvm_text::{TextError, repr};
use serde_json::{Value, json};

fn pieces(t: &str) -> Outcome {
    let mut out = Vec::new();
    for p in fs::parse_format_string(t) {
        match p {
            FormatPiece::Literal(l) => out.push(json!(["L", l])),
            FormatPiece::Field(f) => out.push(json!([
                "F",
                f.name,
                f.spec,
                f.conversion.map(|c| c.to_string())
            ])),
            FormatPiece::Error(e) => return Err(err(e)),
        }
    }
    Ok(Value::Array(out))
}

fn name(n: &str) -> Outcome {
    let f = fs::parse_field_name(n).map_err(err)?;
    let first = match f.first {
        FieldFirst::Auto => json!(""),
        FieldFirst::Index(i) => json!(i),
        FieldFirst::Name(s) => json!(s),
    };
    let rest: Vec<Value> = f
        .rest
        .iter()
        .map(|a| match a {
            FieldAccess::Attr(s) => json!([true, s]),
            FieldAccess::Index(i) => json!([false, i]),
            FieldAccess::Key(s) => json!([false, s]),
        })
        .collect();
    let e = f.rest_error.map(|e| {
        let (k, m) = err(e);
        json!([k, m])
    });
    Ok(json!([first, rest, e]))
}

/// Renders `t.format(*range(5), a="A", b="B")` with only plain fields.
fn auto(t: &str) -> Result<String, TextError> {
    let mut numbering = AutoNumber::new();
    let mut out = String::new();
    for p in fs::parse_format_string(t) {
        match p {
            FormatPiece::Literal(l) => out.push_str(&l),
            FormatPiece::Error(e) => return Err(e),
            FormatPiece::Field(f) => {
                let name = fs::parse_field_name(&f.name)?;
                match numbering.resolve(&name.first)? {
                    Some(i) if i < 5 => out.push_str(&i.to_string()),
                    Some(i) => return Err(fs::replacement_index_out_of_range(i)),
                    None => match name.first {
                        FieldFirst::Name(k) => out.push_str(&k.to_uppercase()),
                        _ => unreachable!("names only"),
                    },
                }
            }
        }
    }
    Ok(out)
}

#[derive(Clone)]
enum Obj {
    Int(i64),
    Str(String),
}

fn positional() -> Vec<Obj> {
    vec![
        Obj::Int(7),
        Obj::Int(-1234),
        Obj::Str("abc".into()),
        Obj::Int(255),
        Obj::Str("éß".into()),
    ]
}

fn keyword(k: &str) -> Option<Obj> {
    Some(match k {
        "w" => Obj::Int(10),
        "name" => Obj::Str("Zoë".into()),
        "p" => Obj::Int(3),
        "n" => Obj::Int(1234567),
        _ => return None,
    })
}

/// A miniature `str.format` following the order documented in `pvm_text::format_string`.
fn render(t: &str, depth: u32, numbering: &mut AutoNumber) -> Result<String, TextError> {
    if depth == 0 {
        return Err(fs::max_recursion_exceeded());
    }
    let mut out = String::new();
    for piece in fs::parse_format_string(t) {
        match piece {
            FormatPiece::Literal(l) => out.push_str(&l),
            FormatPiece::Error(e) => return Err(e),
            FormatPiece::Field(f) => {
                let name = fs::parse_field_name(&f.name)?;
                let obj = match numbering.resolve(&name.first)? {
                    Some(i) => positional()
                        .get(i)
                        .cloned()
                        .ok_or_else(|| fs::replacement_index_out_of_range(i))?,
                    None => match &name.first {
                        FieldFirst::Name(k) => keyword(k).ok_or_else(|| {
                            TextError::new(pvm_text::ErrorKind::Key, repr::str_repr(k))
                        })?,
                        _ => unreachable!("names only"),
                    },
                };
                assert!(name.rest.is_empty() && name.rest_error.is_none());
                let obj = match f
                    .conversion
                    .map(Conversion::from_char)
                    .transpose()?
                    .flatten()
                {
                    None | Some(Conversion::Str) => obj,
                    Some(Conversion::Repr) => match obj {
                        Obj::Str(s) => Obj::Str(repr::str_repr(&s)),
                        Obj::Int(n) => Obj::Str(n.to_string()),
                    },
                    Some(Conversion::Ascii) => match obj {
                        Obj::Str(s) => Obj::Str(repr::str_ascii(&s)),
                        Obj::Int(n) => Obj::Str(n.to_string()),
                    },
                };
                let spec = if f.spec_needs_expanding {
                    render(&f.spec, depth - 1, numbering)?
                } else {
                    f.spec
                };
                out.push_str(&match obj {
                    Obj::Int(n) => {
                        pvm_text::format_float::format_int_any(&num_bigint::BigInt::from(n), &spec)?
                    }
                    Obj::Str(s) => pvm_text::format_spec::format_str_spec(&s, &spec)?,
                });
            }
        }
    }
    Ok(out)
}

#[test]
fn format_string_matches_cpython() {
    replay("format_string", |f, a| {
        Some(match f {
            "parse_format_string" => pieces(s(&a[0])),
            "parse_field_name" => name(s(&a[0])),
            "auto_number" => auto(s(&a[0])).map(|v| json!(v)).map_err(err),
            "render" => render(s(&a[0]), fs::MAX_RECURSION, &mut AutoNumber::new())
                .map(|v| json!(v))
                .map_err(err),
            "conversion" => {
                let c = s(&a[0]).chars().next().expect("char");
                Conversion::from_char(c)
                    .map(|cv| match cv {
                        None | Some(Conversion::Str) => json!("v"),
                        Some(Conversion::Repr | Conversion::Ascii) => json!(repr::str_repr("v")),
                    })
                    .map_err(err)
            }
            _ => return None,
        })
    });
}
