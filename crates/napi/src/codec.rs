//! JavaScript bindings of `cowboy-codec` (contract: docs/codec.md).
//!
//! Errors thrown to JS carry a `code`: `ERR_CODEC_<CODE>` for decoder / field-rule
//! violations, `ERR_SIG_<CODE>` for signature and key errors, `ERR_TX_JSON_FIELD` for
//! malformed JSON input; the message names the field and the violated rule.

use cowboy_codec::json::{self, JsonError};
use cowboy_codec::signing::{par_map, recover_hash};
use cowboy_codec::{
    Address, Block, BlockHeader, Canonical, Certificate, CodecError, Receipt, SecretKey, SigError,
    SourceError, Transaction,
};
use napi::bindgen_prelude::{AsyncTask, Buffer};
use napi::{Env, Task};
use napi_derive::napi;
use serde_json::Value;

/// A JS error with a string `code`.
type JsResult<T> = napi::Result<T, String>;

fn codec_err(e: CodecError) -> napi::Error<String> {
    napi::Error::new(format!("ERR_CODEC_{}", e.code()), e.to_string())
}

fn sig_err(e: SigError) -> napi::Error<String> {
    napi::Error::new(format!("ERR_SIG_{}", e.code()), e.to_string())
}

fn json_err(e: JsonError) -> napi::Error<String> {
    napi::Error::new(format!("ERR_{}", e.code()), e.to_string())
}

fn source_err(field: &str, e: SourceError) -> napi::Error<String> {
    codec_err(CodecError::Source {
        field: field.to_owned(),
        error: e,
    })
}

fn arg_err(field: &str, message: &str) -> napi::Error<String> {
    napi::Error::new("ERR_INVALID_ARG".to_owned(), format!("{field}: {message}"))
}

fn fixed<const N: usize>(b: &[u8], field: &str) -> JsResult<[u8; N]> {
    b.try_into()
        .map_err(|_| arg_err(field, &format!("expected {N} bytes, got {}", b.len())))
}

fn decode_tx(bytes: &[u8]) -> napi::Result<Transaction, String> {
    Transaction::decode(bytes).map_err(codec_err)
}

fn parse_secret_key(b: &[u8]) -> napi::Result<SecretKey, String> {
    SecretKey::from_bytes(b).map_err(sig_err)
}

/// Encodes `value` and strictly decodes the result again, so that an encoder never returns
/// bytes the decoder (and every other node) would reject.
fn encode_checked<T: Canonical>(value: &T) -> napi::Result<Buffer, String> {
    let bytes = value.encode();
    T::decode(&bytes).map_err(codec_err)?;
    Ok(bytes.into())
}

/// Encodes a `TxJson` object to its canonical bytes. `signingHash` is ignored. Throws
/// `ERR_TX_JSON_FIELD` for malformed JSON and `ERR_CODEC_*` when a field rule fails.
#[napi(ts_args_type = "tx: Record<string, unknown>")]
pub fn tx_encode(tx: Value) -> napi::Result<Buffer, String> {
    let tx = json::tx_from_json(&tx).map_err(json_err)?;
    tx.validate().map_err(codec_err)?;
    encode_checked(&tx)
}

/// Strictly decodes transaction bytes to `TxJson` (with the computed `signingHash`).
#[napi(ts_return_type = "Record<string, unknown>")]
pub fn tx_decode(bytes: Buffer) -> napi::Result<Value, String> {
    Ok(json::tx_to_json(&decode_tx(&bytes)?))
}

/// The 32-byte signing hash (= transaction digest) of encoded transaction bytes.
#[napi]
pub fn tx_signing_hash(bytes: Buffer) -> napi::Result<Buffer, String> {
    Ok(decode_tx(&bytes)?.signing_hash().to_vec().into())
}

/// Signs encoded transaction bytes as the primary signer; returns the signed encoding.
/// Throws `ERR_SIG_FROM_MISMATCH` if the key's address is not the transaction's `from`.
#[napi]
pub fn tx_sign(bytes: Buffer, secret_key: Buffer) -> napi::Result<Buffer, String> {
    let tx = decode_tx(&bytes)?;
    let key = parse_secret_key(&secret_key)?;
    let signed = cowboy_codec::sign(&tx, &key).map_err(sig_err)?;
    Ok(signed.encode().into())
}

/// Fills in the signature of the `additionalSigners` entry belonging to the key; returns
/// the new encoding. Throws `ERR_SIG_NOT_A_SIGNER` if the key's address is not listed.
#[napi]
pub fn tx_sign_additional(bytes: Buffer, secret_key: Buffer) -> napi::Result<Buffer, String> {
    let tx = decode_tx(&bytes)?;
    let key = parse_secret_key(&secret_key)?;
    let signed = cowboy_codec::sign_additional(&tx, &key).map_err(sig_err)?;
    Ok(signed.encode().into())
}

/// The 20-byte address recovered from the primary signature (not compared with `from`).
#[napi]
pub fn tx_recover_signer(bytes: Buffer) -> napi::Result<Buffer, String> {
    let tx = decode_tx(&bytes)?;
    let a = cowboy_codec::recover_signer(&tx).map_err(sig_err)?;
    Ok(a.0.to_vec().into())
}

/// True if every signature is valid (primary recovers to `from`, each additional signer to
/// its address). Throws `ERR_CODEC_*` if the bytes do not decode.
#[napi]
pub fn tx_verify(bytes: Buffer) -> napi::Result<bool, String> {
    Ok(cowboy_codec::verify(&decode_tx(&bytes)?).is_ok())
}

/// Why verification fails, as an error code (`ERR_SIG_*` / `ERR_CODEC_*`), or `null` when
/// the transaction verifies.
#[napi]
pub fn tx_verify_reason(bytes: Buffer) -> Option<String> {
    match Transaction::decode(&bytes) {
        Err(e) => Some(format!("ERR_CODEC_{}", e.code())),
        Ok(tx) => cowboy_codec::verify(&tx)
            .err()
            .map(|e| format!("ERR_SIG_{}", e.code())),
    }
}

fn verify_many<B: AsRef<[u8]> + Sync>(items: &[B]) -> Vec<bool> {
    par_map(items, |b| {
        Transaction::decode(b.as_ref()).is_ok_and(|tx| cowboy_codec::verify(&tx).is_ok())
    })
}

fn recover_many<B: AsRef<[u8]> + Sync>(items: &[B]) -> Vec<Option<Address>> {
    par_map(items, |b| {
        Transaction::decode(b.as_ref())
            .ok()
            .and_then(|tx| cowboy_codec::recover_signer(&tx).ok())
    })
}

fn addresses_to_js(found: Vec<Option<Address>>) -> Vec<Option<Buffer>> {
    found
        .into_iter()
        .map(|a| a.map(|a| Buffer::from(a.0.to_vec())))
        .collect()
}

/// [`tx_verify`] for many encodings, on all cores; undecodable entries are `false`.
/// Blocks the calling JS thread; see [`tx_verify_batch_async`].
#[napi]
pub fn tx_verify_batch(list: Vec<Buffer>) -> Vec<bool> {
    let slices: Vec<&[u8]> = list.iter().map(|b| &b[..]).collect();
    verify_many(&slices)
}

/// [`tx_recover_signer`] for many encodings, on all cores; failures are `null`.
#[napi]
pub fn tx_recover_batch(list: Vec<Buffer>) -> Vec<Option<Buffer>> {
    let slices: Vec<&[u8]> = list.iter().map(|b| &b[..]).collect();
    addresses_to_js(recover_many(&slices))
}

/// Background task of [`tx_verify_batch_async`] (owns copies of the inputs).
#[derive(Debug)]
pub struct VerifyBatchTask {
    items: Vec<Vec<u8>>,
}

#[napi]
impl Task for VerifyBatchTask {
    type Output = Vec<bool>;
    type JsValue = Vec<bool>;

    fn compute(&mut self) -> napi::Result<Vec<bool>> {
        Ok(verify_many(&self.items))
    }

    fn resolve(&mut self, _env: Env, output: Vec<bool>) -> napi::Result<Vec<bool>> {
        Ok(output)
    }
}

/// Like [`tx_verify_batch`] but runs off the JS thread (libuv pool, then all cores);
/// resolves to `boolean[]`.
#[napi(ts_return_type = "Promise<boolean[]>")]
pub fn tx_verify_batch_async(list: Vec<Buffer>) -> AsyncTask<VerifyBatchTask> {
    AsyncTask::new(VerifyBatchTask {
        items: list.iter().map(|b| b.to_vec()).collect(),
    })
}

/// Background task of [`tx_recover_batch_async`] (owns copies of the inputs).
#[derive(Debug)]
pub struct RecoverBatchTask {
    items: Vec<Vec<u8>>,
}

#[napi]
impl Task for RecoverBatchTask {
    type Output = Vec<Option<Address>>;
    type JsValue = Vec<Option<Buffer>>;

    fn compute(&mut self) -> napi::Result<Vec<Option<Address>>> {
        Ok(recover_many(&self.items))
    }

    fn resolve(
        &mut self,
        _env: Env,
        output: Vec<Option<Address>>,
    ) -> napi::Result<Vec<Option<Buffer>>> {
        Ok(addresses_to_js(output))
    }
}

/// Like [`tx_recover_batch`] but runs off the JS thread; resolves to
/// `Array<Buffer | null>`.
#[napi(ts_return_type = "Promise<Array<Buffer | null>>")]
pub fn tx_recover_batch_async(list: Vec<Buffer>) -> AsyncTask<RecoverBatchTask> {
    AsyncTask::new(RecoverBatchTask {
        items: list.iter().map(|b| b.to_vec()).collect(),
    })
}

/// The EOA address (20 bytes) of a 32-byte secp256k1 secret key.
#[napi]
pub fn address_from_secret_key(secret_key: Buffer) -> napi::Result<Buffer, String> {
    Ok(parse_secret_key(&secret_key)?.address().0.to_vec().into())
}

/// Signs a 32-byte hash: RFC 6979, low-S, returns 65 bytes `r ‖ s ‖ v` (v ∈ {0, 1}).
#[napi]
pub fn sign_hash(hash: Buffer, secret_key: Buffer) -> napi::Result<Buffer, String> {
    let h = fixed::<32>(&hash, "hash")?;
    Ok(parse_secret_key(&secret_key)?.sign_hash(&h).to_vec().into())
}

/// Recovers the 20-byte address that signed a 32-byte hash (65-byte `r ‖ s ‖ v`, low-S).
#[napi]
pub fn recover_hash_signer(hash: Buffer, signature: Buffer) -> napi::Result<Buffer, String> {
    let h = fixed::<32>(&hash, "hash")?;
    let s = fixed::<65>(&signature, "signature")?;
    Ok(recover_hash(&h, &s, "signature")
        .map_err(sig_err)?
        .0
        .to_vec()
        .into())
}

/// Actor address: last 20 bytes of keccak256(creator ‖ salt ‖ keccak256(source)). The
/// source must be canonical (throws `ERR_CODEC_SOURCE_*` otherwise; never fixed silently).
#[napi]
pub fn actor_address(
    creator: Buffer,
    salt: Buffer,
    source: Buffer,
) -> napi::Result<Buffer, String> {
    let creator = Address(fixed::<20>(&creator, "creator")?);
    let salt = fixed::<32>(&salt, "salt")?;
    let src = cowboy_codec::canonical_source(&source).map_err(|e| source_err("source", e))?;
    let ch = cowboy_codec::code_hash(src);
    Ok(cowboy_codec::actor_address(&creator, &salt, &ch)
        .0
        .to_vec()
        .into())
}

/// keccak256 of canonical source bytes (throws `ERR_CODEC_SOURCE_*` if not canonical).
#[napi]
pub fn code_hash(source: Buffer) -> napi::Result<Buffer, String> {
    let src = cowboy_codec::canonical_source(&source).map_err(|e| source_err("source", e))?;
    Ok(cowboy_codec::code_hash(src).to_vec().into())
}

/// Throws `ERR_CODEC_SOURCE_*` unless `source` is canonical Python source.
#[napi]
pub fn check_source(source: Buffer) -> napi::Result<(), String> {
    cowboy_codec::canonical_source(&source)
        .map(|_| ())
        .map_err(|e| source_err("source", e))
}

/// Rewrites text into canonical source (strip BOM, CRLF/CR → LF, NFC). For tools only.
#[napi]
pub fn canonicalize_source(text: String) -> String {
    cowboy_codec::canonicalize_source(&text)
}

/// keccak256 of arbitrary bytes.
#[napi]
pub fn keccak256(data: Buffer) -> Buffer {
    cowboy_codec::keccak256(&data).to_vec().into()
}

/// Binary keccak Merkle root of 32-byte items (docs/codec.md §5).
#[napi]
pub fn merkle_root(items: Vec<Buffer>) -> napi::Result<Buffer, String> {
    let leaves = items
        .iter()
        .enumerate()
        .map(|(i, b)| fixed::<32>(b, &format!("items[{i}]")))
        .collect::<JsResult<Vec<_>>>()?;
    Ok(cowboy_codec::merkle_root(&leaves).to_vec().into())
}

/// Encodes a block-header JSON object (docs/codec.md §8).
#[napi(ts_args_type = "header: Record<string, unknown>")]
pub fn header_encode(header: Value) -> napi::Result<Buffer, String> {
    let h = json::header_from_json(&header, "").map_err(json_err)?;
    encode_checked(&h)
}

/// Strictly decodes block-header bytes to JSON (with the computed `hash`).
#[napi(ts_return_type = "Record<string, unknown>")]
pub fn header_decode(bytes: Buffer) -> napi::Result<Value, String> {
    Ok(json::header_to_json(
        &BlockHeader::decode(&bytes).map_err(codec_err)?,
    ))
}

/// Block hash = keccak256 of the encoded header (strictly decoded first).
#[napi]
pub fn header_hash(bytes: Buffer) -> napi::Result<Buffer, String> {
    Ok(BlockHeader::decode(&bytes)
        .map_err(codec_err)?
        .hash()
        .to_vec()
        .into())
}

/// Encodes a block JSON object `{ header, transactions }`.
#[napi(ts_args_type = "block: Record<string, unknown>")]
pub fn block_encode(block: Value) -> napi::Result<Buffer, String> {
    let b = json::block_from_json(&block).map_err(json_err)?;
    encode_checked(&b)
}

/// Strictly decodes block bytes to JSON.
#[napi(ts_return_type = "Record<string, unknown>")]
pub fn block_decode(bytes: Buffer) -> napi::Result<Value, String> {
    Ok(json::block_to_json(
        &Block::decode(&bytes).map_err(codec_err)?,
    ))
}

/// Merkle root of the digests of the transactions of an encoded block.
#[napi]
pub fn block_tx_root(bytes: Buffer) -> napi::Result<Buffer, String> {
    let b = Block::decode(&bytes).map_err(codec_err)?;
    Ok(b.compute_tx_root().to_vec().into())
}

/// Encodes a receipt JSON object.
#[napi(ts_args_type = "receipt: Record<string, unknown>")]
pub fn receipt_encode(receipt: Value) -> napi::Result<Buffer, String> {
    let r = json::receipt_from_json(&receipt).map_err(json_err)?;
    encode_checked(&r)
}

/// Strictly decodes receipt bytes to JSON (with the computed `hash`).
#[napi(ts_return_type = "Record<string, unknown>")]
pub fn receipt_decode(bytes: Buffer) -> napi::Result<Value, String> {
    Ok(json::receipt_to_json(
        &Receipt::decode(&bytes).map_err(codec_err)?,
    ))
}

/// Encodes a certificate JSON object.
#[napi(ts_args_type = "certificate: Record<string, unknown>")]
pub fn certificate_encode(certificate: Value) -> napi::Result<Buffer, String> {
    let c = json::certificate_from_json(&certificate).map_err(json_err)?;
    encode_checked(&c)
}

/// Strictly decodes certificate bytes to JSON.
#[napi(ts_return_type = "Record<string, unknown>")]
pub fn certificate_decode(bytes: Buffer) -> napi::Result<Value, String> {
    Ok(json::certificate_to_json(
        &Certificate::decode(&bytes).map_err(codec_err)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const VECTOR2: &str = "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b0100";

    fn unsigned_json() -> Value {
        json!({ "chainId": "42", "nonce": "0",
          "instruction": { "kind": "transfer", "to": "0x2222222222222222222222222222222222222222", "amount": "1" },
          "cyclesLimit": "50000", "cellsLimit": "50000", "maxFeePerCycle": "1", "maxFeePerCell": "1",
          "maxPriorityFeePerCycle": "0", "maxPriorityFeePerCell": "0",
          "from": "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a" })
    }

    fn err<T>(r: napi::Result<T, String>) -> napi::Error<String> {
        match r {
            Ok(_) => panic!("expected an error"),
            Err(e) => e,
        }
    }

    fn b(x: &Buffer) -> Buffer {
        x.to_vec().into()
    }

    fn hex(b: &[u8]) -> String {
        cowboy_codec::hex::encode(b)
    }

    #[test]
    fn encode_sign_verify_vector2() {
        let unsigned = tx_encode(unsigned_json()).unwrap();
        assert_eq!(
            hex(&tx_signing_hash(b(&unsigned)).unwrap()),
            "203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a"
        );
        let signed = tx_sign(b(&unsigned), vec![0x11; 32].into()).unwrap();
        assert_eq!(hex(&signed), VECTOR2);
        assert!(tx_verify(b(&signed)).unwrap());
        assert!(!tx_verify(b(&unsigned)).unwrap());
        assert_eq!(
            tx_verify_reason(b(&unsigned)).as_deref(),
            Some("ERR_SIG_INVALID_SIGNATURE")
        );
        assert_eq!(tx_verify_reason(b(&signed)), None);
        assert_eq!(
            tx_verify_batch(vec![b(&signed), b(&unsigned), vec![1u8].into()]),
            vec![true, false, false]
        );
        let rec = tx_recover_batch(vec![b(&signed), vec![].into()]);
        assert_eq!(
            hex(rec[0].as_ref().unwrap()),
            "19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
        );
        assert!(rec[1].is_none());
        let decoded = tx_decode(signed).unwrap();
        assert_eq!(
            decoded["signingHash"],
            "0x203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a"
        );
    }

    #[test]
    fn errors_carry_codes() {
        let mut bad = unsigned_json();
        bad["nonce"] = json!("01");
        assert_eq!(err(tx_encode(bad)).status, "ERR_TX_JSON_FIELD");
        let mut bad = unsigned_json();
        bad["instruction"] = json!({"kind": "call", "to": "0x2222222222222222222222222222222222222222",
            "handler": "no-dash", "args": "0x", "value": "0"});
        let e = err(tx_encode(bad));
        assert_eq!(e.status, "ERR_CODEC_INVALID_HANDLER");
        assert!(e.reason.starts_with("instruction.handler:"));
        let e = err(tx_decode(vec![0x2a, 0x80, 0x00].into()));
        assert_eq!(e.status, "ERR_CODEC_NON_MINIMAL_VARINT");
        let unsigned = tx_encode(unsigned_json()).unwrap();
        let e = err(tx_sign(b(&unsigned), vec![0x22; 32].into()));
        assert_eq!(e.status, "ERR_SIG_FROM_MISMATCH");
        let e = err(tx_sign(unsigned, vec![0; 32].into()));
        assert_eq!(e.status, "ERR_SIG_INVALID_SECRET_KEY");
        let e = err(code_hash(b"x\r\n".to_vec().into()));
        assert_eq!(e.status, "ERR_CODEC_SOURCE_HAS_CR");
        let e = err(actor_address(
            vec![0; 19].into(),
            vec![0; 32].into(),
            vec![].into(),
        ));
        assert_eq!(e.status, "ERR_INVALID_ARG");
    }

    #[test]
    fn addresses_and_hashes() {
        assert_eq!(
            hex(&address_from_secret_key(vec![0x11; 32].into()).unwrap()),
            "19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
        );
        let creator =
            cowboy_codec::hex::decode("19e7e376e7c213b7e7e7e46cc70a5dd086daff2a").unwrap();
        assert_eq!(
            hex(&actor_address(
                creator.into(),
                vec![0x33; 32].into(),
                b"x = 1\n".to_vec().into()
            )
            .unwrap()),
            "51f216abb5ec08973e09cb5402ffb448379be37e"
        );
        let h = keccak256(b"abc".to_vec().into());
        let sig = sign_hash(b(&h), vec![0x11; 32].into()).unwrap();
        assert_eq!(
            hex(&recover_hash_signer(h, sig).unwrap()),
            "19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
        );
        assert_eq!(merkle_root(vec![]).unwrap().to_vec(), vec![0u8; 32]);
        assert_eq!(
            err(merkle_root(vec![vec![1u8; 31].into()])).status,
            "ERR_INVALID_ARG"
        );
    }

    #[test]
    fn other_json_forms_round_trip() {
        let header = json!({ "parent": format!("0x{}", "01".repeat(32)), "height": "7",
            "round": { "epoch": "0", "view": "9" }, "proposer": format!("0x{}", "02".repeat(20)),
            "timestampMs": "1700000000000", "stateRoot": format!("0x{}", "03".repeat(32)),
            "txRoot": format!("0x{}", "04".repeat(32)), "receiptsRoot": format!("0x{}", "05".repeat(32)),
            "cycleBasefee": "10000", "cellBasefee": "10000", "cyclesUsed": "0", "cellsUsed": "0",
            "parentSeed": "0x" });
        let hb = header_encode(header.clone()).unwrap();
        let back = header_decode(b(&hb)).unwrap();
        assert_eq!(back["height"], "7");
        assert_eq!(
            back["hash"],
            format!("0x{}", hex(&header_hash(hb).unwrap()))
        );
        let block = json!({ "header": header, "transactions": [unsigned_json()] });
        let bb = block_encode(block).unwrap();
        assert_eq!(
            block_decode(b(&bb)).unwrap()["transactions"][0]["nonce"],
            "0"
        );
        assert_eq!(block_tx_root(bb).unwrap().len(), 32);
        let receipt = json!({ "txHash": format!("0x{}", "01".repeat(32)), "status": "reverted",
            "cyclesUsed": "1", "cellsUsed": "2", "feePaid": "3", "returnData": "0x", "error": "boom",
            "events": [] });
        let rb = receipt_encode(receipt).unwrap();
        assert_eq!(receipt_decode(rb).unwrap()["status"], "reverted");
        let cert = json!({ "kind": "finalize", "blockHash": format!("0x{}", "01".repeat(32)),
            "height": "3", "round": { "epoch": "1", "view": "2" }, "aggregatedSignature": "0x",
            "signerBitmap": "0x05" });
        let cb = certificate_encode(cert.clone()).unwrap();
        assert_eq!(certificate_decode(cb).unwrap(), cert);
    }
}
