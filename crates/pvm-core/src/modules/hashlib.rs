//! Native half of `hashlib`: one-shot digests, metered per whitepaper §3.5.
//!
//! The Python half (`pvm-stdlib/lib/hashlib.py`) keeps the bytes fed to a hash object and
//! calls [`call`]`("digest", ..)` when a digest is asked for. Costs:
//! * `sha256`: 500 + 8 per started 64-byte block of input (§3.5);
//! * `sha3_256` and `keccak_256`: 6 per started 32 bytes (§3.5 Keccak-256; SHA3-256 is the
//!   same permutation with a different padding byte);
//! * `blake2b`: 500 + 8 per started 128-byte block of input and key block (our definition:
//!   the SHA-256 schedule applied to BLAKE2b's block size).
//!
//! SHA-256 and Keccak come from the pinned `sha2` / `sha3` crates; BLAKE2b (RFC 7693, with
//! digest size, key, salt and personalisation) is implemented here.

use crate::value::*;
use crate::vm::{PyResult, Vm};

/// Module name of the native helper (injected into `hashlib` as `_native`).
pub const NATIVE: &str = "_pvm_hashlib";

const FUNCS: &[&str] = &["digest"];

/// The helper module object.
pub fn native_module() -> Value {
    super::native_helper(NATIVE, FUNCS)
}

/// Cycle cost of hashing `len` bytes with `algo` (`key_len` bytes of BLAKE2b key).
pub fn digest_cost(algo: &str, len: usize, key_len: usize) -> u64 {
    let len = len as u64;
    match algo {
        "sha256" => 500 + 8 * len.div_ceil(64),
        "blake2b" => 500 + 8 * (len.div_ceil(128) + u64::from(key_len > 0)),
        _ => 6 * len.div_ceil(32),
    }
}

fn bytes_arg(vm: &Vm, v: Option<&Value>, what: &str) -> PyResult<Vec<u8>> {
    match v {
        Some(Value::Bytes(b)) => Ok(b.b.to_vec()),
        Some(Value::ByteArray(b)) => Ok(b.b.borrow().clone()),
        _ => Err(vm.type_err(format!("{what} must be bytes"))),
    }
}

/// `_native.digest(algo, data, digest_size, key, salt, person) -> bytes`.
pub fn call(vm: &mut Vm, name: &str, args: Vec<Value>) -> PyResult<Value> {
    if name != "digest" || args.len() != 6 {
        return Err(vm.exc(
            "AttributeError",
            format!("module '{NATIVE}' has no attribute '{name}'"),
        ));
    }
    let algo = match &args[0] {
        Value::Str(s) => s.s.to_string(),
        _ => return Err(vm.type_err("algorithm name must be str")),
    };
    let data = bytes_arg(vm, args.get(1), "data")?;
    let size = vm.to_index(&args[2])?;
    let key = bytes_arg(vm, args.get(3), "key")?;
    let salt = bytes_arg(vm, args.get(4), "salt")?;
    let person = bytes_arg(vm, args.get(5), "person")?;
    vm.charge(digest_cost(&algo, data.len(), key.len()))?;
    let out = match algo.as_str() {
        "sha256" => {
            use sha2::Digest;
            sha2::Sha256::digest(&data).to_vec()
        }
        "sha3_256" => {
            use sha3::Digest;
            sha3::Sha3_256::digest(&data).to_vec()
        }
        "keccak_256" => {
            use sha3::Digest;
            sha3::Keccak256::digest(&data).to_vec()
        }
        "blake2b" => {
            if !(1..=64).contains(&size) {
                return Err(vm.exc("ValueError", "digest_size must be between 1 and 64 bytes"));
            }
            if key.len() > 64 {
                return Err(vm.exc("ValueError", "maximum key length is 64 bytes"));
            }
            if salt.len() > 16 {
                return Err(vm.exc("ValueError", "maximum salt length is 16 bytes"));
            }
            if person.len() > 16 {
                return Err(vm.exc("ValueError", "maximum person length is 16 bytes"));
            }
            blake2b(&data, size as usize, &key, &salt, &person)
        }
        other => {
            return Err(vm.exc("ValueError", format!("unsupported hash type {other}")));
        }
    };
    Ok(Value::bytes(out))
}

const IV: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

const SIGMA: [[usize; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

fn compress(h: &mut [u64; 8], block: &[u8; 128], t: u128, last: bool) {
    let mut m = [0u64; 16];
    for (i, w) in m.iter_mut().enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(&block[8 * i..8 * i + 8]);
        *w = u64::from_le_bytes(b);
    }
    let mut v = [0u64; 16];
    v[..8].copy_from_slice(h);
    v[8..].copy_from_slice(&IV);
    v[12] ^= t as u64;
    v[13] ^= (t >> 64) as u64;
    if last {
        v[14] = !v[14];
    }
    fn g(v: &mut [u64; 16], a: usize, b: usize, c: usize, d: usize, x: u64, y: u64) {
        v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
        v[d] = (v[d] ^ v[a]).rotate_right(32);
        v[c] = v[c].wrapping_add(v[d]);
        v[b] = (v[b] ^ v[c]).rotate_right(24);
        v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
        v[d] = (v[d] ^ v[a]).rotate_right(16);
        v[c] = v[c].wrapping_add(v[d]);
        v[b] = (v[b] ^ v[c]).rotate_right(63);
    }
    for round in 0..12 {
        let s = &SIGMA[round % 10];
        g(&mut v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
        g(&mut v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
        g(&mut v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
        g(&mut v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
        g(&mut v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
        g(&mut v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
        g(&mut v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
        g(&mut v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for i in 0..8 {
        h[i] ^= v[i] ^ v[i + 8];
    }
}

/// BLAKE2b (RFC 7693) of `data` with an `out_len`-byte digest (1..=64), an optional key
/// (≤ 64 bytes), salt and personalisation (≤ 16 bytes each, zero-padded).
pub fn blake2b(data: &[u8], out_len: usize, key: &[u8], salt: &[u8], person: &[u8]) -> Vec<u8> {
    let mut h = IV;
    h[0] ^= 0x0101_0000 ^ ((key.len() as u64) << 8) ^ out_len as u64;
    let word = |b: &[u8], i: usize| -> u64 {
        let mut w = [0u8; 8];
        for (j, x) in w.iter_mut().enumerate() {
            *x = b.get(8 * i + j).copied().unwrap_or(0);
        }
        u64::from_le_bytes(w)
    };
    h[4] ^= word(salt, 0);
    h[5] ^= word(salt, 1);
    h[6] ^= word(person, 0);
    h[7] ^= word(person, 1);
    let mut input = Vec::with_capacity(data.len() + 128);
    if !key.is_empty() {
        let mut kb = [0u8; 128];
        kb[..key.len()].copy_from_slice(key);
        input.extend_from_slice(&kb);
    }
    input.extend_from_slice(data);
    let nblocks = input.len().div_ceil(128).max(1);
    let mut t: u128 = 0;
    for i in 0..nblocks {
        let chunk = &input[(128 * i).min(input.len())..(128 * i + 128).min(input.len())];
        let mut block = [0u8; 128];
        block[..chunk.len()].copy_from_slice(chunk);
        t += chunk.len() as u128;
        compress(&mut h, &block, t, i + 1 == nblocks);
    }
    let mut out = Vec::with_capacity(64);
    for w in h {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.truncate(out_len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn blake2b_known_answers() {
        // RFC 7693 appendix A
        assert_eq!(
            hex(&blake2b(b"abc", 64, b"", b"", b"")),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1\
             7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"
        );
        // CPython: hashlib.blake2b(b'', digest_size=32).hexdigest()
        assert_eq!(
            hex(&blake2b(b"", 32, b"", b"", b"")),
            "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
        );
    }

    #[test]
    fn costs_follow_the_schedule() {
        assert_eq!(digest_cost("sha256", 0, 0), 500);
        assert_eq!(digest_cost("sha256", 64, 0), 508);
        assert_eq!(digest_cost("sha256", 65, 0), 516);
        assert_eq!(digest_cost("keccak_256", 32, 0), 6);
        assert_eq!(digest_cost("keccak_256", 33, 0), 12);
        assert_eq!(digest_cost("sha3_256", 0, 0), 0);
        assert_eq!(digest_cost("blake2b", 128, 0), 508);
        assert_eq!(digest_cost("blake2b", 1, 5), 516);
    }

    #[test]
    fn blake2b_long_input_has_no_trailing_empty_block() {
        // 128 bytes exactly: one block, flagged last
        let a = blake2b(&[7u8; 128], 64, b"", b"", b"");
        let b = blake2b(&[7u8; 129], 64, b"", b"", b"");
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
    }
}
