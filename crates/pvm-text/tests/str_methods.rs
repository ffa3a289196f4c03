//! Replays CPython 3.11 reference cases for the `str` methods and per-character Unicode data.

mod common;

use common::*;
use pvm_text::{repr, str_methods as sm, unicode};
use serde_json::{Value, json};

fn charinfo(c: char) -> Value {
    let mut up = String::new();
    let mut lo = String::new();
    let mut ti = String::new();
    let mut fo = String::new();
    unicode::push_upper(c, &mut up);
    unicode::push_lower(c, &mut lo);
    unicode::push_title(c, &mut ti);
    unicode::push_fold(c, &mut fo);
    let one = c.to_string();
    json!([
        unicode::is_alpha(c),
        unicode::is_decimal(c),
        unicode::is_digit(c),
        unicode::is_numeric(c),
        unicode::is_space(c),
        unicode::is_printable(c),
        sm::islower(&one),
        sm::isupper(&one),
        sm::istitle(&one),
        sm::isidentifier(&one),
        sm::isidentifier(&format!("a{c}")),
        up,
        // str.lower() of a lone Σ is σ (not final: nothing cased before it).
        sm::lower(&one),
        ti,
        fo,
        repr::str_repr(&one),
    ])
}

fn dispatch(f: &str, a: &[Value]) -> Option<Outcome> {
    let st = || s(&a[0]);
    let r: Outcome = match f {
        "upper" => Ok(json!(sm::upper(st()))),
        "lower" => Ok(json!(sm::lower(st()))),
        "casefold" => Ok(json!(sm::casefold(st()))),
        "swapcase" => Ok(json!(sm::swapcase(st()))),
        "title" => Ok(json!(sm::title(st()))),
        "capitalize" => Ok(json!(sm::capitalize(st()))),
        "isalpha" => Ok(json!(sm::isalpha(st()))),
        "isalnum" => Ok(json!(sm::isalnum(st()))),
        "isdecimal" => Ok(json!(sm::isdecimal(st()))),
        "isdigit" => Ok(json!(sm::isdigit(st()))),
        "isnumeric" => Ok(json!(sm::isnumeric(st()))),
        "isspace" => Ok(json!(sm::isspace(st()))),
        "isupper" => Ok(json!(sm::isupper(st()))),
        "islower" => Ok(json!(sm::islower(st()))),
        "istitle" => Ok(json!(sm::istitle(st()))),
        "isidentifier" => Ok(json!(sm::isidentifier(st()))),
        "isprintable" => Ok(json!(sm::isprintable(st()))),
        "isascii" => Ok(json!(sm::isascii(st()))),
        "splitlines" => Ok(json!(sm::splitlines(st(), bl(&a[1])))),
        "split" => sm::split(st(), os(&a[1]), i(&a[2]))
            .map(|v| json!(v))
            .map_err(err),
        "rsplit" => sm::rsplit(st(), os(&a[1]), i(&a[2]))
            .map(|v| json!(v))
            .map_err(err),
        "strip" => Ok(json!(sm::strip(st(), os(&a[1])))),
        "lstrip" => Ok(json!(sm::lstrip(st(), os(&a[1])))),
        "rstrip" => Ok(json!(sm::rstrip(st(), os(&a[1])))),
        "zfill" => Ok(json!(sm::zfill(st(), i(&a[1])))),
        "center" | "ljust" | "rjust" => {
            let fill = s(&a[2]).chars().next().expect("fill");
            let g = match f {
                "center" => sm::center,
                "ljust" => sm::ljust,
                _ => sm::rjust,
            };
            Ok(json!(g(st(), i(&a[1]), fill)))
        }
        "expandtabs" => Ok(json!(sm::expandtabs(st(), i(&a[1])))),
        "partition" => sm::partition(st(), s(&a[1]))
            .map(|(x, y, z)| json!([x, y, z]))
            .map_err(err),
        "rpartition" => sm::rpartition(st(), s(&a[1]))
            .map(|(x, y, z)| json!([x, y, z]))
            .map_err(err),
        "removeprefix" => Ok(json!(sm::removeprefix(st(), s(&a[1])))),
        "removesuffix" => Ok(json!(sm::removesuffix(st(), s(&a[1])))),
        "replace" => Ok(json!(sm::replace(st(), s(&a[1]), s(&a[2]), i(&a[3])))),
        "find" => Ok(jopt(sm::find(st(), s(&a[1]), oi(&a[2]), oi(&a[3])))),
        "rfind" => Ok(jopt(sm::rfind(st(), s(&a[1]), oi(&a[2]), oi(&a[3])))),
        "count" => Ok(json!(sm::count(st(), s(&a[1]), oi(&a[2]), oi(&a[3])))),
        "startswith" => Ok(json!(sm::startswith(st(), s(&a[1]), oi(&a[2]), oi(&a[3])))),
        "endswith" => Ok(json!(sm::endswith(st(), s(&a[1]), oi(&a[2]), oi(&a[3])))),
        "translate" => {
            let r: Result<String, ()> = sm::translate(st(), |c| {
                Ok(match c {
                    'a' => sm::Translation::Replace("xy".into()),
                    'b' => sm::Translation::Delete,
                    'Σ' => sm::Translation::Replace("σ".into()),
                    '😀' => sm::Translation::Replace(String::new()),
                    ' ' => sm::Translation::Replace("_".into()),
                    'ß' => sm::Translation::Replace("ss".into()),
                    _ => sm::Translation::Keep,
                })
            });
            Ok(json!(r.expect("infallible")))
        }
        "maketrans" => sm::maketrans(st(), s(&a[1]), a.get(2).and_then(os))
            .map(|v| {
                json!(
                    v.iter()
                        .map(|(k, r)| json!([*k as u32, r.map(|c| c as u32)]))
                        .collect::<Vec<_>>()
                )
            })
            .map_err(err),
        "charinfo" => Ok(charinfo(st().chars().next().expect("char"))),
        _ => return None,
    };
    Some(r)
}

#[test]
fn str_methods_match_cpython() {
    let n = replay("str_methods", dispatch);
    assert!(n > 10_000);
}
