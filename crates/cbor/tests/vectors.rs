//! The same vectors as ts/sdk/test/cbor.test.ts and python/tests/test_cbor.py.

use cowboy_cbor::{CborError, Value, decode, encode};

fn h(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn text(s: &str) -> Value {
    Value::Text(s.to_owned())
}

#[test]
fn known_encodings() {
    let cases: Vec<(Value, &str)> = vec![
        (Value::int(0), "00"),
        (Value::int(23), "17"),
        (Value::int(24), "1818"),
        (Value::int(100), "1864"),
        (Value::int(1000), "1903e8"),
        (Value::int(1_000_000), "1a000f4240"),
        (Value::int(1_000_000_000_000), "1b000000e8d4a51000"),
        (Value::int(u64::MAX as i128), "1bffffffffffffffff"),
        (Value::int(1i128 << 64), "c249010000000000000000"),
        (Value::int(-(1i128 << 64)), "3bffffffffffffffff"),
        (Value::int(-(1i128 << 64) - 1), "c349010000000000000000"),
        (Value::int(-1), "20"),
        (Value::int(-1000), "3903e7"),
        (Value::float(0x3ff1_9999_9999_999a), "fb3ff199999999999a"),
        (Value::float(0x7ff8_0000_0000_0001), "fb7ff8000000000000"),
        (Value::Bool(false), "f4"),
        (Value::Bool(true), "f5"),
        (Value::Null, "f6"),
        (Value::Bytes(vec![]), "40"),
        (Value::Bytes(vec![1, 2, 3, 4]), "4401020304"),
        (text(""), "60"),
        (text("a"), "6161"),
        (text("ü"), "62c3bc"),
        (Value::Array(vec![]), "80"),
        (
            Value::Array(vec![Value::int(1), Value::int(2), Value::int(3)]),
            "83010203",
        ),
        (
            Value::Map(vec![
                (text("b"), Value::Array(vec![Value::int(2), Value::int(3)])),
                (text("a"), Value::int(1)),
            ]),
            "a26161016162820203",
        ),
        (
            Value::Map(vec![
                (text("a"), Value::int(1)),
                (Value::int(-1), Value::int(2)),
                (Value::int(100), Value::int(3)),
                (Value::int(10), Value::int(4)),
            ]),
            "a40a041864032002616101",
        ),
        (
            Value::Set(vec![Value::int(3), Value::int(1), Value::int(2)]),
            "d9010283010203",
        ),
    ];
    for (value, want) in cases {
        let got = encode(&value).unwrap();
        assert_eq!(got, h(want), "{value:?}");
        assert_eq!(encode(&decode(&got).unwrap()).unwrap(), got);
    }
}

#[test]
fn refuses_every_other_form() {
    let bad = [
        ("1817", "CBOR_NON_CANONICAL"),
        ("190017", "CBOR_NON_CANONICAL"),
        ("1b0000000000000001", "CBOR_NON_CANONICAL"),
        ("c24101", "CBOR_NON_CANONICAL"),
        ("c249000000000000000001", "CBOR_NON_CANONICAL"),
        ("5f4101ff", "CBOR_INDEFINITE_LENGTH"),
        ("9f01ff", "CBOR_INDEFINITE_LENGTH"),
        ("f93c00", "CBOR_UNSUPPORTED"),
        ("fa3f800000", "CBOR_UNSUPPORTED"),
        ("fb7ff8000000000001", "CBOR_NON_CANONICAL"),
        ("f7", "CBOR_UNSUPPORTED"),
        ("c11a514b67b0", "CBOR_UNSUPPORTED"),
        ("a2616201616102", "CBOR_UNSORTED_KEYS"),
        ("a2616101616102", "CBOR_DUPLICATE_KEY"),
        ("d901028202", "CBOR_UNEXPECTED_EOF"),
        ("d90102820201", "CBOR_UNSORTED_KEYS"),
        ("62c3", "CBOR_UNEXPECTED_EOF"),
        ("62c328", "CBOR_INVALID_UTF8"),
        ("0000", "CBOR_TRAILING_BYTES"),
        ("", "CBOR_UNEXPECTED_EOF"),
        ("9a7fffffff", "CBOR_UNEXPECTED_EOF"),
        ("9b00000000ffffffff", "CBOR_NON_CANONICAL"),
        ("1c", "CBOR_UNSUPPORTED"),
    ];
    for (input, code) in bad {
        let err: CborError = decode(&h(input)).unwrap_err();
        assert_eq!(err.code, code, "{input}");
    }
    let deep = h(&format!("{}00", "81".repeat(70)));
    assert_eq!(decode(&deep).unwrap_err().code, "CBOR_TOO_DEEP");
    assert_eq!(
        encode(&Value::BigUint(vec![1; 600])).unwrap_err().code,
        "CBOR_TOO_LARGE"
    );
    assert_eq!(
        encode(&Value::BigUint(vec![0, 1, 2, 3, 4, 5, 6, 7, 8]))
            .unwrap_err()
            .code,
        "CBOR_NOT_ENCODABLE"
    );
}

/// A small deterministic generator (xorshift) for property tests.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_value(rng: &mut Rng, depth: u32) -> Value {
    match rng.below(if depth > 3 { 7 } else { 10 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 1),
        2 => Value::int(rng.next() as i64 as i128 * if rng.below(2) == 0 { 1 } else { 1 << 40 }),
        3 => Value::float(rng.next()),
        4 => Value::Text(
            (0..rng.below(6))
                .map(|_| char::from_u32(32 + rng.below(1200) as u32).unwrap_or('x'))
                .collect(),
        ),
        5 => Value::Bytes((0..rng.below(9)).map(|_| rng.next() as u8).collect()),
        6 => {
            let mut m = vec![0x80u8 | (rng.below(8) as u8 + 1)];
            m.extend((0..9 + rng.below(4)).map(|_| rng.next() as u8));
            if rng.below(2) == 0 {
                Value::BigUint(m)
            } else {
                Value::BigNint(m)
            }
        }
        7 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        8 => {
            let mut keys: Vec<u64> = (0..rng.below(4)).map(|_| rng.below(50)).collect();
            keys.sort_unstable();
            keys.dedup();
            Value::Map(
                keys.into_iter()
                    .map(|k| (Value::Text(format!("k{k}")), random_value(rng, depth + 1)))
                    .collect(),
            )
        }
        _ => {
            let mut items: Vec<u64> = (0..rng.below(4)).map(|_| rng.below(100)).collect();
            items.sort_unstable();
            items.dedup();
            Value::Set(items.into_iter().map(|i| Value::int(i as i128)).collect())
        }
    }
}

#[test]
fn round_trips_and_mutations() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    for _ in 0..5000 {
        let v = random_value(&mut rng, 0);
        let b = encode(&v).unwrap();
        let d = decode(&b).unwrap();
        assert_eq!(encode(&d).unwrap(), b);
        for _ in 0..8 {
            let mut m = b.clone();
            match rng.below(3) {
                0 => {
                    let i = rng.below(m.len() as u64) as usize;
                    m[i] ^= 1 << rng.below(8);
                }
                1 => m.truncate(rng.below(m.len() as u64 + 1) as usize),
                _ => m.insert(rng.below(m.len() as u64 + 1) as usize, rng.next() as u8),
            }
            if let Ok(d) = decode(&m) {
                accepted += 1;
                assert_eq!(encode(&d).unwrap(), m, "accepted a non-canonical encoding");
            }
        }
    }
    assert!(accepted > 0);
}
