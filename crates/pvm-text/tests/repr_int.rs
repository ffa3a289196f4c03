//! Replays CPython 3.11 reference cases for reprs and int <-> text conversions.

mod common;

use common::*;
use num_bigint::BigInt;
use pvm_text::{int_text, repr};
use serde_json::{Value, json};

fn big(v: &Value) -> BigInt {
    s(v).parse().expect("decimal int")
}

#[test]
fn reprs_match_cpython() {
    replay("repr", |f, a| {
        Some(Ok(json!(match f {
            "str_repr" => repr::str_repr(s(&a[0])),
            "str_ascii" => repr::str_ascii(s(&a[0])),
            "bytes_repr" => repr::bytes_repr(&b(&a[0]), "b"),
            "bytearray_repr" => repr::bytearray_repr(&b(&a[0])),
            _ => return None,
        })))
    });
}

#[test]
fn int_text_matches_cpython() {
    replay("int_text", |f, a| {
        let base = || u32::try_from(i(&a[1])).expect("base");
        Some(match f {
            "parse_int" => int_text::parse_int(s(&a[0]), base())
                .map(|v| json!(int_text::int_to_prefixed(&v, 16)))
                .map_err(err),
            "parse_int_bytes" => int_text::parse_int_bytes(&b(&a[0]), base())
                .map(|v| json!(int_text::int_to_prefixed(&v, 16)))
                .map_err(err),
            "int_to_decimal" => int_text::int_to_decimal(&big(&a[0]))
                .map(|v| json!(v))
                .map_err(err),
            "int_to_prefixed" => Ok(json!(int_text::int_to_prefixed(&big(&a[0]), base()))),
            _ => return None,
        })
    });
}
