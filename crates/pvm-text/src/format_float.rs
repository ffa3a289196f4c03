//! `format(x, spec)` for floats (`format_float_internal` in CPython 3.11), and float
//! presentation types applied to ints (`format(5, '.2f')`).
//!
//! Digit generation comes from `pvm-float` (deterministic soft float); this module applies
//! sign, `z`, `#`, `%`, grouping, fill and alignment.

use crate::error::{TextError, TextResult};
use crate::format_spec::{
    FormatSpec, NumberParts, parse_format_spec, render_number, separator, sign_str,
    unknown_format_code,
};
use num_bigint::{BigInt, Sign as BigSign};
use pvm_float::F64;

/// Converts an int to a float like `float(n)` (correctly rounded, half-even).
/// Error: `OverflowError("int too large to convert to float")`.
pub fn bigint_to_f64(n: &BigInt) -> TextResult<F64> {
    let (sign, limbs) = n.to_u64_digits();
    F64::from_bigint_parts(sign == BigSign::Minus, &limbs)
        .map_err(|e| TextError::overflow(e.message()))
}

/// True when the mantissa (before any exponent) of `body` has only zero digits.
fn is_zero_text(body: &str) -> bool {
    let mant = body.split(['e', 'E']).next().unwrap_or("");
    mant.bytes().any(|b| b.is_ascii_digit())
        && mant.bytes().all(|b| matches!(b, b'0' | b'.' | b'%'))
}

/// `format(x, '#.<p>')`: CPython's `g` with both `Py_DTSF_ALT` and `Py_DTSF_ADD_DOT_0`,
/// which switches to exponent notation once the decimal exponent reaches `p - 1`.
fn alt_no_type(x: F64, p: usize) -> String {
    if x.is_nan() || x.is_infinite() {
        return x.format_no_type(Some(p));
    }
    let p = p.max(1);
    let e_form = x.format_exp_alt(p - 1, true, false);
    let exp: i64 = e_form
        .rsplit('e')
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    if exp < -4 || exp >= p as i64 - 1 {
        e_form
    } else {
        x.format_fixed_alt(usize::try_from(p as i64 - 1 - exp).unwrap_or(0), true)
    }
}

/// The unpadded text CPython's `PyOS_double_to_string` produces for `x` under `spec`
/// (with `%` appended for the percent type), including a leading `-`.
fn float_body(x: F64, spec: &FormatSpec, kind: Option<char>) -> String {
    let alt = spec.alternate;
    let p = spec.precision;
    match kind {
        None => match p {
            None => {
                let r = x.repr();
                if alt && !r.contains('.') && !x.is_nan() && !x.is_infinite() {
                    match r.find('e') {
                        Some(i) => format!("{}.{}", &r[..i], &r[i..]),
                        None => format!("{r}."),
                    }
                } else {
                    r
                }
            }
            Some(p) if alt => alt_no_type(x, p),
            Some(p) => x.format_no_type(Some(p)),
        },
        Some('e') => x.format_exp_alt(p.unwrap_or(6), alt, false),
        Some('E') => x.format_exp_alt(p.unwrap_or(6), alt, true),
        Some('f') => x.format_fixed_alt(p.unwrap_or(6), alt),
        Some('F') => x.format_fixed_alt(p.unwrap_or(6), alt).to_ascii_uppercase(),
        Some('G') => x.format_general(p.unwrap_or(6), alt, true),
        Some('%') => {
            let mut s = x
                .mul(F64::from_i64(100))
                .format_fixed_alt(p.unwrap_or(6), alt);
            s.push('%');
            s
        }
        // 'g' and 'n' (no locale in the PVM: 'n' is 'g').
        _ => x.format_general(p.unwrap_or(6), alt, false),
    }
}

/// `format(x, spec)` for a float with a parsed spec. Types: none, `e E f F g G n %`
/// (`\0` counts as none, as in CPython). Errors: unknown format code for other types,
/// "precision too big".
pub fn format_float(x: F64, spec: &FormatSpec, type_name: &str) -> TextResult<String> {
    let kind = match spec.kind {
        None | Some('\0') => None,
        Some(k) if "eEfFgGn%".contains(k) => Some(k),
        Some(k) => return Err(unknown_format_code(k, type_name)),
    };
    if spec.precision.is_some_and(|p| p > i32::MAX as usize) {
        return Err(TextError::value("precision too big"));
    }
    let body = float_body(x, spec, kind);
    let (mut negative, unsigned) = match body.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, body.as_str()),
    };
    if negative && spec.no_neg_zero && is_zero_text(unsigned) {
        negative = false;
    }
    let split = unsigned
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(unsigned.len());
    let parts = NumberParts {
        sign: sign_str(negative, spec.sign),
        prefix: "",
        digits: unsigned[..split].to_owned(),
        rest: unsigned[split..].to_owned(),
    };
    Ok(render_number(&parts, spec, separator(spec), 3))
}

/// `format(x, spec_text)` for a float; the empty spec is `str(x)` (= `repr(x)`).
pub fn format_float_spec(x: F64, spec: &str) -> TextResult<String> {
    if spec.is_empty() {
        return Ok(x.repr());
    }
    let f = parse_format_spec(spec, "float")?;
    format_float(x, &f, "float")
}

/// `format(n, spec)` for an int whose spec has a float type (`e E f F g G %`): the int is
/// converted with `float(n)` first (`OverflowError("int too large to convert to float")`).
pub fn format_int_as_float(n: &BigInt, spec: &FormatSpec, type_name: &str) -> TextResult<String> {
    let x = bigint_to_f64(n)?;
    format_float(x, spec, type_name)
}

/// `format(n, spec_text)` for an int with any spec: integer types via
/// [`crate::format_spec::format_int`], float types via [`format_int_as_float`].
pub fn format_int_any(n: &BigInt, spec: &str) -> TextResult<String> {
    if spec.is_empty() {
        return crate::int_text::int_to_decimal(n);
    }
    let f = parse_format_spec(spec, "int")?;
    match f.kind {
        Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') => format_int_as_float(n, &f, "int"),
        _ => crate::format_spec::format_int(n, &f, "int"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ff(x: f64, spec: &str) -> String {
        format_float_spec(F64(x.to_bits()), spec).unwrap_or_else(|e| e.message)
    }

    #[test]
    fn floats() {
        assert_eq!(ff(1234.5, ",.2f"), "1,234.50");
        assert_eq!(ff(-0.0001, "z.2f"), "0.00");
        assert_eq!(ff(f64::INFINITY, "010"), "0000000inf");
        assert_eq!(ff(0.5, "%"), "50.000000%");
        assert_eq!(ff(1e16, "#"), "1.e+16");
        assert_eq!(
            ff(1.0, "d"),
            "Unknown format code 'd' for object of type 'float'"
        );
    }

    #[test]
    fn int_as_float() {
        assert_eq!(format_int_any(&BigInt::from(5), ".2f").unwrap(), "5.00");
        assert!(format_int_any(&(BigInt::from(1) << 1100), "f").is_err());
    }
}
