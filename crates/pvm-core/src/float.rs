//! Glue between Python values and the deterministic soft float of `pvm-float`.
//! No hardware floating point is used anywhere in the PVM.

use num_bigint::{BigInt, BigUint, Sign};
pub use pvm_float::{F64, FloatError};

/// Parse a float literal from source text (underscores already removed).
pub fn parse_literal(s: &str) -> Option<F64> {
    F64::parse(s)
}

/// int -> float (correctly rounded); errors with OverflowError text when too large.
pub fn from_bigint(b: &BigInt) -> Result<F64, FloatError> {
    let (sign, digits) = b.to_u64_digits();
    F64::from_bigint_parts(sign == Sign::Minus, &digits)
}

/// float -> int (truncating). Errors for inf / nan.
pub fn to_bigint(f: F64) -> Result<BigInt, FloatError> {
    let (neg, limbs) = f.trunc_to_int_parts()?;
    let mag = BigUint::from_slice(
        &limbs
            .iter()
            .flat_map(|l| [*l as u32, (*l >> 32) as u32])
            .collect::<Vec<u32>>(),
    );
    Ok(BigInt::from_biguint(
        if neg { Sign::Minus } else { Sign::Plus },
        mag,
    ))
}
