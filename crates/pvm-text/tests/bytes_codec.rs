//! Replays CPython 3.11 reference cases for `bytes` methods and the utf-8/ascii/latin-1 codecs.

mod common;

use common::*;
use pvm_text::{bytes_methods as bm, codec};
use serde_json::{Value, json};

fn ob(v: &Value) -> Option<Vec<u8>> {
    if v.is_null() { None } else { Some(b(v)) }
}

fn list(v: Vec<&[u8]>) -> Value {
    Value::Array(v.into_iter().map(jb).collect())
}

fn dispatch(f: &str, a: &[Value]) -> Option<Outcome> {
    if f == "fromhex" {
        return Some(bm::fromhex(s(&a[0])).map(|v| jb(&v)).map_err(err));
    }
    if f == "maketrans" {
        return Some(
            bm::maketrans(&b(&a[0]), &b(&a[1]))
                .map(|t| jb(&t))
                .map_err(err),
        );
    }
    let x = b(&a[0]);
    let x = x.as_slice();
    let r: Outcome = match f {
        "upper" => Ok(jb(&bm::upper(x))),
        "lower" => Ok(jb(&bm::lower(x))),
        "swapcase" => Ok(jb(&bm::swapcase(x))),
        "title" => Ok(jb(&bm::title(x))),
        "capitalize" => Ok(jb(&bm::capitalize(x))),
        "isalpha" => Ok(json!(bm::isalpha(x))),
        "isalnum" => Ok(json!(bm::isalnum(x))),
        "isdigit" => Ok(json!(bm::isdigit(x))),
        "isspace" => Ok(json!(bm::isspace(x))),
        "isupper" => Ok(json!(bm::isupper(x))),
        "islower" => Ok(json!(bm::islower(x))),
        "istitle" => Ok(json!(bm::istitle(x))),
        "isascii" => Ok(json!(bm::isascii(x))),
        "splitlines" => Ok(list(bm::splitlines(x, bl(&a[1])))),
        "split" => bm::split(x, ob(&a[1]).as_deref(), i(&a[2]))
            .map(list)
            .map_err(err),
        "rsplit" => bm::rsplit(x, ob(&a[1]).as_deref(), i(&a[2]))
            .map(list)
            .map_err(err),
        "strip" => Ok(jb(bm::strip(x, ob(&a[1]).as_deref()))),
        "lstrip" => Ok(jb(bm::lstrip(x, ob(&a[1]).as_deref()))),
        "rstrip" => Ok(jb(bm::rstrip(x, ob(&a[1]).as_deref()))),
        "zfill" => Ok(jb(&bm::zfill(x, i(&a[1])))),
        "center" => Ok(jb(&bm::center(x, i(&a[1]), b(&a[2])[0]))),
        "ljust" => Ok(jb(&bm::ljust(x, i(&a[1]), b(&a[2])[0]))),
        "rjust" => Ok(jb(&bm::rjust(x, i(&a[1]), b(&a[2])[0]))),
        "expandtabs" => Ok(jb(&bm::expandtabs(x, i(&a[1])))),
        "hex" => bm::hex(x, os(&a[1]), i(&a[2]))
            .map(|v| json!(v))
            .map_err(err),
        "translate" => {
            let t = bm::maketrans(b"abc", b"xyz").expect("table");
            Ok(jb(&bm::translate(x, Some(&t), b" ,")))
        }
        "translate_none" => Ok(jb(&bm::translate(x, None, b"a\xff"))),
        "partition" => bm::partition(x, &b(&a[1]))
            .map(|(p, q, r)| json!([jb(p), jb(q), jb(r)]))
            .map_err(err),
        "rpartition" => bm::rpartition(x, &b(&a[1]))
            .map(|(p, q, r)| json!([jb(p), jb(q), jb(r)]))
            .map_err(err),
        "removeprefix" => Ok(jb(bm::removeprefix(x, &b(&a[1])))),
        "removesuffix" => Ok(jb(bm::removesuffix(x, &b(&a[1])))),
        "replace" => Ok(jb(&bm::replace(x, &b(&a[1]), &b(&a[2]), i(&a[3])))),
        "find" => Ok(jopt(bm::find(x, &b(&a[1]), oi(&a[2]), oi(&a[3])))),
        "rfind" => Ok(jopt(bm::rfind(x, &b(&a[1]), oi(&a[2]), oi(&a[3])))),
        "count" => Ok(json!(bm::count(x, &b(&a[1]), oi(&a[2]), oi(&a[3])))),
        "startswith" => Ok(json!(bm::startswith(x, &b(&a[1]), oi(&a[2]), oi(&a[3])))),
        "endswith" => Ok(json!(bm::endswith(x, &b(&a[1]), oi(&a[2]), oi(&a[3])))),
        _ => return None,
    };
    Some(r)
}

#[test]
fn bytes_methods_match_cpython() {
    replay("bytes_methods", dispatch);
}

#[test]
fn codecs_match_cpython() {
    replay("codec", |f, a| {
        Some(match f {
            "encode" => codec::encode(s(&a[0]), s(&a[1]), s(&a[2]))
                .map(|v| jb(&v))
                .map_err(err),
            "decode" => codec::decode(&b(&a[0]), s(&a[1]), s(&a[2]))
                .map(|v| json!(v))
                .map_err(err),
            _ => return None,
        })
    });
}
