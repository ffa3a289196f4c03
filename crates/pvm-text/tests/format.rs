//! Replays CPython 3.11 reference cases for `format()` with int, str and float values.

mod common;

use common::*;
use num_bigint::BigInt;
use pvm_float::F64;
use pvm_text::{format_float, format_spec};
use serde_json::{Value, json};

fn fmt_case(f: &str, a: &[Value]) -> Option<Outcome> {
    Some(match f {
        "format_int" => {
            let n: BigInt = s(&a[0]).parse().expect("int");
            format_float::format_int_any(&n, s(&a[1]))
                .map(|v| json!(v))
                .map_err(err)
        }
        "format_str" => format_spec::format_str_spec(s(&a[0]), s(&a[1]))
            .map(|v| json!(v))
            .map_err(err),
        "format_float" => {
            let bits = u64::from_str_radix(s(&a[0]), 16).expect("bits");
            format_float::format_float_spec(F64(bits), s(&a[1]))
                .map(|v| json!(v))
                .map_err(err)
        }
        _ => return None,
    })
}

#[test]
fn format_spec_matches_cpython() {
    replay("format_spec", fmt_case);
}

#[test]
fn format_float_matches_cpython() {
    replay("format_float", fmt_case);
}
