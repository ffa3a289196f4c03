//! Replays CPython 3.11 reference cases for `format()` with int and str values.

mod common;

use common::*;
use num_bigint::BigInt;
use pvm_text::format_spec;
use serde_json::json;

#[test]
fn format_spec_matches_cpython() {
    replay("format_spec", |f, a| {
        Some(match f {
            "format_int" => {
                let n: BigInt = s(&a[0]).parse().expect("int");
                format_spec::format_int_spec(&n, s(&a[1]))
                    .map(|v| json!(v))
                    .map_err(err)
            }
            "format_str" => format_spec::format_str_spec(s(&a[0]), s(&a[1]))
                .map(|v| json!(v))
                .map_err(err),
            _ => return None,
        })
    });
}
