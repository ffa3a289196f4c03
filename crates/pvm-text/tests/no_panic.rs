//! Deterministic pseudo-random inputs through every parser and renderer: nothing may panic.

use num_bigint::BigInt;
use pvm_float::F64;
use pvm_text::{
    bytes_methods, codec, format_float, format_spec, format_string, int_text, percent, repr,
    str_methods,
};

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() as usize) % xs.len()]
    }
}

const ALPHABET: &[char] = &[
    '{', '}', '[', ']', '!', ':', '.', '%', '(', ')', '*', '#', '0', '1', '9', '-', '+', ' ', ',',
    '_', '<', '>', '^', '=', 'z', 'x', 'X', 'b', 'c', 'd', 'e', 'f', 'g', 'n', 's', 'r', 'a', 'o',
    'é', 'ß', 'Σ', '😀', '\u{0}', '\u{301}', '٣', 'İ', '\t', '\n',
];

fn text(rng: &mut Lcg) -> String {
    let n = rng.next() % 12;
    (0..n).map(|_| rng.pick(ALPHABET)).collect()
}

#[test]
fn parsers_and_renderers_never_panic() {
    let mut rng = Lcg(42);
    let n = BigInt::from(-1234567);
    let x = F64((-1234.5678f64).to_bits());
    for _ in 0..20_000 {
        let t = text(&mut rng);
        let u = text(&mut rng);
        let k = (rng.next() % 40) as i64 - 20;
        let _ = format_spec::format_str_spec(&t, &u);
        let _ = format_float::format_int_any(&n, &u);
        let _ = format_float::format_float_spec(x, &u);
        for piece in percent::parse_percent(&t) {
            if let percent::PercentPiece::Conversion(spec) = piece
                && let Ok(f) = spec.resolve(Some(&BigInt::from(k)), Some(&BigInt::from(k)))
            {
                let f = percent::PercentFormat {
                    width: f.width.map(|w| w.min(64)),
                    precision: f.precision.map(|p| p.min(64)),
                    ..f
                };
                let _ = percent::format_percent_int(&n, &f);
                let _ = percent::format_percent_float(x, &f);
                let _ = percent::format_percent_str(&u, &f);
                let _ = percent::format_percent_bytes(u.as_bytes(), &f);
            }
        }
        let _ = percent::parse_percent_bytes(t.as_bytes());
        let _ = format_string::parse_format_string(&t);
        let _ = format_string::parse_field_name(&t);
        let _ = int_text::parse_int(&t, (rng.next() % 38) as u32);
        let _ = int_text::parse_int_bytes(t.as_bytes(), (rng.next() % 38) as u32);
        let _ = bytes_methods::fromhex(&t);
        let _ = bytes_methods::hex(t.as_bytes(), Some(&u), k);
        let _ = codec::decode(t.as_bytes(), "utf-8", "strict");
        let _ = codec::decode(t.as_bytes(), "ascii", "replace");
        let _ = codec::encode(&t, "latin-1", "backslashreplace");
        let _ = repr::str_repr(&t);
        let _ = repr::bytes_repr(t.as_bytes(), "b");
        let _ = str_methods::split(&t, Some(&u), k);
        let _ = str_methods::find(&t, &u, Some(k), Some(-k));
        let _ = str_methods::count(&t, &u, Some(-k), None);
        let _ = str_methods::replace(&t, &u, "-", k);
        let _ = str_methods::center(&t, k, '*');
        let _ = str_methods::expandtabs(&t, k);
        let _ = str_methods::title(&t);
        let _ = str_methods::swapcase(&t);
        let _ = bytes_methods::split(t.as_bytes(), Some(u.as_bytes()), k);
        let _ = bytes_methods::rfind(t.as_bytes(), u.as_bytes(), Some(k), None);
    }
}
