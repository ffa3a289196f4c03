//! The JSON form of transactions (`TxJson`, docs/codec.md §8) shared by the native addon,
//! the TypeScript SDK and the CLI.
//!
//! u64 values are canonical decimal strings; byte fields are `0x`-hex (lowercase on output,
//! any case on input); optional values are `null`. Parsing is strict: unknown keys, wrong
//! types, non-canonical decimals and wrong fixed widths are [`JsonError`]s naming the field.

use crate::address::Address;
use crate::block::{Block, BlockHeader, Certificate, CertificateKind, Round};
use crate::hash::Hash32;
use crate::hex;
use crate::instruction::Instruction;
use crate::receipt::{Event, Receipt, ReceiptStatus};
use crate::transaction::{
    AccessListEntry, AdditionalSigner, SignatureBytes, Transaction, ZERO_SIGNATURE,
};
use core::fmt;
use serde_json::{Map, Value, json};

/// A JSON field that is missing, of the wrong type or malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// Dotted path of the field (e.g. `instruction.amount`, `additionalSigners[1].address`).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl JsonError {
    /// Stable error code (`TX_JSON_FIELD`).
    pub const fn code(&self) -> &'static str {
        "TX_JSON_FIELD"
    }

    fn new(field: &str, message: impl Into<String>) -> Self {
        Self {
            field: field.to_owned(),
            message: message.into(),
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for JsonError {}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

/// A JSON object being read; tracks its path for errors.
struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Obj<'a> {
    fn new(v: &'a Value, path: &str) -> Result<Self, JsonError> {
        match v {
            Value::Object(map) => Ok(Self {
                map,
                path: path.to_owned(),
            }),
            _ => Err(JsonError::new(
                if path.is_empty() { "$" } else { path },
                "expected an object",
            )),
        }
    }

    fn only(&self, allowed: &[&str]) -> Result<(), JsonError> {
        for k in self.map.keys() {
            if !allowed.contains(&k.as_str()) {
                return Err(JsonError::new(&join(&self.path, k), "unknown field"));
            }
        }
        Ok(())
    }

    fn field(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// The value, treating a missing key as `null`.
    fn opt(&self, key: &str) -> Option<&'a Value> {
        match self.map.get(key) {
            None | Some(Value::Null) => None,
            Some(v) => Some(v),
        }
    }

    fn req(&self, key: &str) -> Result<&'a Value, JsonError> {
        self.opt(key)
            .ok_or_else(|| JsonError::new(&self.field(key), "missing required field"))
    }

    fn u64(&self, key: &str) -> Result<u64, JsonError> {
        parse_u64(self.req(key)?, &self.field(key))
    }

    fn opt_u64(&self, key: &str) -> Result<Option<u64>, JsonError> {
        self.opt(key)
            .map(|v| parse_u64(v, &self.field(key)))
            .transpose()
    }

    fn str(&self, key: &str) -> Result<&'a str, JsonError> {
        as_str(self.req(key)?, &self.field(key))
    }

    fn bytes(&self, key: &str) -> Result<Vec<u8>, JsonError> {
        parse_hex(self.req(key)?, &self.field(key))
    }

    fn fixed<const N: usize>(&self, key: &str) -> Result<[u8; N], JsonError> {
        parse_fixed(self.req(key)?, &self.field(key))
    }

    fn address(&self, key: &str) -> Result<Address, JsonError> {
        self.fixed::<20>(key).map(Address)
    }
}

fn as_str<'a>(v: &'a Value, field: &str) -> Result<&'a str, JsonError> {
    v.as_str()
        .ok_or_else(|| JsonError::new(field, "expected a string"))
}

/// Parses a canonical decimal u64 string: `0` or `[1-9][0-9]*`, at most `u64::MAX`.
pub fn parse_u64_str(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 20 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if b.len() > 1 && b[0] == b'0' {
        return None;
    }
    s.parse::<u64>().ok()
}

fn parse_u64(v: &Value, field: &str) -> Result<u64, JsonError> {
    let s = as_str(v, field).map_err(|_| JsonError::new(field, "expected a decimal u64 string"))?;
    parse_u64_str(s).ok_or_else(|| {
        JsonError::new(
            field,
            "expected a decimal u64 string (0..=18446744073709551615, no sign, no leading zeros)",
        )
    })
}

fn parse_hex(v: &Value, field: &str) -> Result<Vec<u8>, JsonError> {
    let s =
        as_str(v, field).map_err(|_| JsonError::new(field, "expected a 0x-prefixed hex string"))?;
    hex::parse_prefixed(s).map_err(|e| JsonError::new(field, e.to_string()))
}

fn parse_fixed<const N: usize>(v: &Value, field: &str) -> Result<[u8; N], JsonError> {
    let s =
        as_str(v, field).map_err(|_| JsonError::new(field, "expected a 0x-prefixed hex string"))?;
    hex::parse_prefixed_fixed::<N>(s).map_err(|e| JsonError::new(field, e.to_string()))
}

fn u(v: u64) -> Value {
    Value::String(v.to_string())
}

fn hx(b: &[u8]) -> Value {
    Value::String(hex::encode_prefixed(b))
}

fn opt_u(v: Option<u64>) -> Value {
    v.map_or(Value::Null, u)
}

/// The JSON form of an instruction.
pub fn instruction_to_json(ins: &Instruction) -> Value {
    match ins {
        Instruction::Transfer { to, amount } => {
            json!({ "kind": "transfer", "to": to.to_string(), "amount": u(*amount) })
        }
        Instruction::RegisterValidator {
            bls_key,
            proof_of_possession,
            stake,
        } => json!({
            "kind": "registerValidator", "blsKey": hx(bls_key),
            "proofOfPossession": hx(proof_of_possession), "stake": u(*stake)
        }),
        Instruction::ExitValidator => json!({ "kind": "exitValidator" }),
        Instruction::WithdrawStake => json!({ "kind": "withdrawStake" }),
        Instruction::UnjailValidator => json!({ "kind": "unjailValidator" }),
        Instruction::SubmitEvidence { evidence } => json!({
            "kind": "submitEvidence", "evidence": hx(evidence)
        }),
        Instruction::SysCancelTimer {
            actor,
            timer_id,
            epoch,
            signers,
            signature,
        } => json!({
            "kind": "sysCancelTimer", "actor": actor.to_string(), "timerId": hx(timer_id),
            "epoch": u(*epoch), "signers": hx(signers), "signature": hx(signature)
        }),
        Instruction::DkgLog { ceremony, log } => json!({
            "kind": "dkgLog", "ceremony": u(*ceremony), "log": hx(log)
        }),
        Instruction::Deploy {
            source,
            salt,
            init_args,
            value,
        } => json!({
            "kind": "deploy", "source": hx(source), "salt": hx(salt),
            "initArgs": hx(init_args), "value": u(*value)
        }),
        Instruction::Call {
            to,
            handler,
            args,
            value,
        } => json!({
            "kind": "call", "to": to.to_string(), "handler": handler,
            "args": hx(args), "value": u(*value)
        }),
        Instruction::ScheduleTimer {
            actor,
            fire_at_height,
            handler,
            data,
            interval,
        } => json!({
            "kind": "scheduleTimer", "actor": actor.to_string(),
            "fireAtHeight": u(*fire_at_height), "handler": handler,
            "data": hx(data), "interval": opt_u(*interval)
        }),
        Instruction::CancelTimer { actor, timer_id } => json!({
            "kind": "cancelTimer", "actor": actor.to_string(), "timerId": hx(timer_id)
        }),
        Instruction::Custom { sub_type, payload } => json!({
            "kind": "custom", "subType": sub_type, "payload": hx(payload)
        }),
        Instruction::PublishLibrary {
            name,
            version,
            source,
        } => json!({
            "kind": "publishLibrary", "name": name, "version": u(*version), "source": hx(source)
        }),
    }
}

/// Parses the JSON form of an instruction (structure only; field rules such as handler
/// names are checked by [`Transaction::validate`]).
pub fn instruction_from_json(v: &Value, path: &str) -> Result<Instruction, JsonError> {
    let o = Obj::new(v, path)?;
    let kind = o.str("kind")?;
    let ins = match kind {
        "transfer" => {
            o.only(&["kind", "to", "amount"])?;
            Instruction::Transfer {
                to: o.address("to")?,
                amount: o.u64("amount")?,
            }
        }
        "registerValidator" => {
            o.only(&["kind", "blsKey", "proofOfPossession", "stake"])?;
            Instruction::RegisterValidator {
                bls_key: o.fixed::<48>("blsKey")?,
                proof_of_possession: o.fixed::<96>("proofOfPossession")?,
                stake: o.u64("stake")?,
            }
        }
        "exitValidator" => {
            o.only(&["kind"])?;
            Instruction::ExitValidator
        }
        "withdrawStake" => {
            o.only(&["kind"])?;
            Instruction::WithdrawStake
        }
        "unjailValidator" => {
            o.only(&["kind"])?;
            Instruction::UnjailValidator
        }
        "submitEvidence" => {
            o.only(&["kind", "evidence"])?;
            Instruction::SubmitEvidence {
                evidence: o.bytes("evidence")?,
            }
        }
        "sysCancelTimer" => {
            o.only(&["kind", "actor", "timerId", "epoch", "signers", "signature"])?;
            Instruction::SysCancelTimer {
                actor: o.address("actor")?,
                timer_id: o.fixed::<32>("timerId")?,
                epoch: o.u64("epoch")?,
                signers: o.bytes("signers")?,
                signature: o.fixed::<96>("signature")?,
            }
        }
        "dkgLog" => {
            o.only(&["kind", "ceremony", "log"])?;
            Instruction::DkgLog {
                ceremony: o.u64("ceremony")?,
                log: o.bytes("log")?,
            }
        }
        "deploy" => {
            o.only(&["kind", "source", "salt", "initArgs", "value"])?;
            Instruction::Deploy {
                source: o.bytes("source")?,
                salt: o.fixed::<32>("salt")?,
                init_args: o.bytes("initArgs")?,
                value: o.u64("value")?,
            }
        }
        "call" => {
            o.only(&["kind", "to", "handler", "args", "value"])?;
            Instruction::Call {
                to: o.address("to")?,
                handler: o.str("handler")?.to_owned(),
                args: o.bytes("args")?,
                value: o.u64("value")?,
            }
        }
        "scheduleTimer" => {
            o.only(&[
                "kind",
                "actor",
                "fireAtHeight",
                "handler",
                "data",
                "interval",
            ])?;
            if !o.map.contains_key("interval") {
                return Err(JsonError::new(
                    &o.field("interval"),
                    "missing required field (use null for a one-shot timer)",
                ));
            }
            Instruction::ScheduleTimer {
                actor: o.address("actor")?,
                fire_at_height: o.u64("fireAtHeight")?,
                handler: o.str("handler")?.to_owned(),
                data: o.bytes("data")?,
                interval: o.opt_u64("interval")?,
            }
        }
        "cancelTimer" => {
            o.only(&["kind", "actor", "timerId"])?;
            Instruction::CancelTimer {
                actor: o.address("actor")?,
                timer_id: o.fixed::<32>("timerId")?,
            }
        }
        "custom" => {
            o.only(&["kind", "subType", "payload"])?;
            let st = o.req("subType")?;
            let sub_type =
                st.as_u64().filter(|n| *n <= 255).ok_or_else(|| {
                    JsonError::new(&o.field("subType"), "expected a number 0..=255")
                })? as u8;
            Instruction::Custom {
                sub_type,
                payload: o.bytes("payload")?,
            }
        }
        "publishLibrary" => {
            o.only(&["kind", "name", "version", "source"])?;
            Instruction::PublishLibrary {
                name: o.str("name")?.to_owned(),
                version: o.u64("version")?,
                source: o.bytes("source")?,
            }
        }
        other => {
            return Err(JsonError::new(
                &o.field("kind"),
                format!(
                    "unknown instruction kind {other:?} (expected transfer, registerValidator, \
                     exitValidator, withdrawStake, unjailValidator, submitEvidence, \
                     sysCancelTimer, dkgLog, deploy, call, scheduleTimer, cancelTimer, custom or \
                     publishLibrary)"
                ),
            ));
        }
    };
    Ok(ins)
}

/// The JSON form of a transaction, including the computed `signingHash`.
pub fn tx_to_json(tx: &Transaction) -> Value {
    let access_list = match &tx.access_list {
        None => Value::Null,
        Some(list) => Value::Array(
            list.iter()
                .map(|e| {
                    json!({
                        "address": e.address.to_string(),
                        "storageKeys": e.storage_keys.iter().map(|k| hx(k)).collect::<Vec<_>>(),
                    })
                })
                .collect(),
        ),
    };
    json!({
        "chainId": u(tx.chain_id),
        "nonce": u(tx.nonce),
        "instruction": instruction_to_json(&tx.instruction),
        "cyclesLimit": u(tx.cycles_limit),
        "cellsLimit": u(tx.cells_limit),
        "maxFeePerCycle": u(tx.max_fee_per_cycle),
        "maxFeePerCell": u(tx.max_fee_per_cell),
        "maxPriorityFeePerCycle": u(tx.max_priority_fee_per_cycle),
        "maxPriorityFeePerCell": u(tx.max_priority_fee_per_cell),
        "from": tx.from.to_string(),
        "accessList": access_list,
        "metadata": hx(&tx.metadata),
        "originTxHash": tx.origin_tx_hash.map_or(Value::Null, |h| hx(&h)),
        "originRemainingCycles": opt_u(tx.origin_remaining_cycles),
        "originRemainingCells": opt_u(tx.origin_remaining_cells),
        "signature": hx(&tx.signature),
        "additionalSigners": tx.additional_signers.iter().map(|s| json!({
            "address": s.address.to_string(),
            "signature": hx(&s.signature),
        })).collect::<Vec<_>>(),
        "signingHash": hx(&tx.signing_hash()),
    })
}

const TX_KEYS: &[&str] = &[
    "chainId",
    "nonce",
    "instruction",
    "cyclesLimit",
    "cellsLimit",
    "maxFeePerCycle",
    "maxFeePerCell",
    "maxPriorityFeePerCycle",
    "maxPriorityFeePerCell",
    "from",
    "accessList",
    "metadata",
    "originTxHash",
    "originRemainingCycles",
    "originRemainingCells",
    "signature",
    "additionalSigners",
    "signingHash",
];

/// Parses `TxJson` (docs/codec.md §8). `signingHash` is ignored. Omitted optional fields
/// take their defaults (`null`, `"0x"`, zero signature, `[]`). Field rules of the codec
/// (handler names, canonical source, signer order, size) are *not* checked here: call
/// [`Transaction::validate`] on the result.
pub fn tx_from_json(v: &Value) -> Result<Transaction, JsonError> {
    let o = Obj::new(v, "")?;
    o.only(TX_KEYS)?;
    let access_list = match o.opt("accessList") {
        None => None,
        Some(Value::Array(items)) => {
            let mut list = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let path = format!("accessList[{i}]");
                let e = Obj::new(item, &path)?;
                e.only(&["address", "storageKeys"])?;
                let keys = match e.req("storageKeys")? {
                    Value::Array(ks) => ks
                        .iter()
                        .enumerate()
                        .map(|(j, k)| parse_hex(k, &format!("{path}.storageKeys[{j}]")))
                        .collect::<Result<Vec<_>, _>>()?,
                    _ => {
                        return Err(JsonError::new(
                            &e.field("storageKeys"),
                            "expected an array of hex strings",
                        ));
                    }
                };
                list.push(AccessListEntry {
                    address: e.address("address")?,
                    storage_keys: keys,
                });
            }
            Some(list)
        }
        Some(_) => {
            return Err(JsonError::new("accessList", "expected an array or null"));
        }
    };
    let additional_signers = match o.opt("additionalSigners") {
        None => vec![],
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let s = Obj::new(item, &format!("additionalSigners[{i}]"))?;
                s.only(&["address", "signature"])?;
                Ok(AdditionalSigner {
                    address: s.address("address")?,
                    signature: s.fixed::<65>("signature")?,
                })
            })
            .collect::<Result<Vec<_>, JsonError>>()?,
        Some(_) => {
            return Err(JsonError::new("additionalSigners", "expected an array"));
        }
    };
    let signature: SignatureBytes = match o.opt("signature") {
        None => ZERO_SIGNATURE,
        Some(v) => parse_fixed::<65>(v, "signature")?,
    };
    let origin_tx_hash: Option<Hash32> = o
        .opt("originTxHash")
        .map(|v| parse_fixed::<32>(v, "originTxHash"))
        .transpose()?;
    Ok(Transaction {
        chain_id: o.u64("chainId")?,
        nonce: o.u64("nonce")?,
        instruction: instruction_from_json(o.req("instruction")?, "instruction")?,
        cycles_limit: o.u64("cyclesLimit")?,
        cells_limit: o.u64("cellsLimit")?,
        max_fee_per_cycle: o.u64("maxFeePerCycle")?,
        max_fee_per_cell: o.u64("maxFeePerCell")?,
        max_priority_fee_per_cycle: o.u64("maxPriorityFeePerCycle")?,
        max_priority_fee_per_cell: o.u64("maxPriorityFeePerCell")?,
        from: o.address("from")?,
        access_list,
        metadata: match o.opt("metadata") {
            None => vec![],
            Some(v) => parse_hex(v, "metadata")?,
        },
        origin_tx_hash,
        origin_remaining_cycles: o.opt_u64("originRemainingCycles")?,
        origin_remaining_cells: o.opt_u64("originRemainingCells")?,
        signature,
        additional_signers,
    })
}

fn round_to_json(r: &Round) -> Value {
    json!({ "epoch": u(r.epoch), "view": u(r.view) })
}

fn round_from_json(o: &Obj<'_>, key: &str) -> Result<Round, JsonError> {
    let r = Obj::new(o.req(key)?, &o.field(key))?;
    r.only(&["epoch", "view"])?;
    Ok(Round {
        epoch: r.u64("epoch")?,
        view: r.u64("view")?,
    })
}

/// The JSON form of a block header, including the computed `hash` (output only).
pub fn header_to_json(h: &BlockHeader) -> Value {
    json!({
        "parent": hx(&h.parent),
        "height": u(h.height),
        "round": round_to_json(&h.round),
        "proposer": h.proposer.to_string(),
        "timestampMs": u(h.timestamp_ms),
        "stateRoot": hx(&h.state_root),
        "txRoot": hx(&h.tx_root),
        "receiptsRoot": hx(&h.receipts_root),
        "cycleBasefee": u(h.cycle_basefee),
        "cellBasefee": u(h.cell_basefee),
        "cyclesUsed": u(h.cycles_used),
        "cellsUsed": u(h.cells_used),
        "parentSeed": hx(&h.parent_seed),
        "hash": hx(&h.hash()),
    })
}

/// Parses the JSON form of a block header (`hash` is ignored; every other key required).
pub fn header_from_json(v: &Value, path: &str) -> Result<BlockHeader, JsonError> {
    let o = Obj::new(v, path)?;
    o.only(&[
        "parent",
        "height",
        "round",
        "proposer",
        "timestampMs",
        "stateRoot",
        "txRoot",
        "receiptsRoot",
        "cycleBasefee",
        "cellBasefee",
        "cyclesUsed",
        "cellsUsed",
        "parentSeed",
        "hash",
    ])?;
    Ok(BlockHeader {
        parent: o.fixed::<32>("parent")?,
        height: o.u64("height")?,
        round: round_from_json(&o, "round")?,
        proposer: o.address("proposer")?,
        timestamp_ms: o.u64("timestampMs")?,
        state_root: o.fixed::<32>("stateRoot")?,
        tx_root: o.fixed::<32>("txRoot")?,
        receipts_root: o.fixed::<32>("receiptsRoot")?,
        cycle_basefee: o.u64("cycleBasefee")?,
        cell_basefee: o.u64("cellBasefee")?,
        cycles_used: o.u64("cyclesUsed")?,
        cells_used: o.u64("cellsUsed")?,
        parent_seed: o.bytes("parentSeed")?,
    })
}

/// The JSON form of a block: `{ header, transactions, hash }` (`hash` output only).
pub fn block_to_json(b: &Block) -> Value {
    json!({
        "header": header_to_json(&b.header),
        "transactions": b.transactions.iter().map(tx_to_json).collect::<Vec<_>>(),
        "hash": hx(&b.hash()),
    })
}

/// Parses the JSON form of a block. Transactions are parsed like [`tx_from_json`] (field
/// rules are checked by encoding + strict decoding, see the addon's `blockEncode`).
pub fn block_from_json(v: &Value) -> Result<Block, JsonError> {
    let o = Obj::new(v, "")?;
    o.only(&["header", "transactions", "hash"])?;
    let header = header_from_json(o.req("header")?, "header")?;
    let transactions = match o.req("transactions")? {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, t)| {
                tx_from_json(t).map_err(|mut e| {
                    e.field = if e.field == "$" {
                        format!("transactions[{i}]")
                    } else {
                        format!("transactions[{i}].{}", e.field)
                    };
                    e
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err(JsonError::new("transactions", "expected an array")),
    };
    Ok(Block {
        header,
        transactions,
    })
}

const STATUS_NAMES: [&str; 5] = [
    "success",
    "reverted",
    "outOfCycles",
    "outOfCells",
    "invalid",
];

/// The JSON form of a receipt, including the computed `hash` (output only).
pub fn receipt_to_json(r: &Receipt) -> Value {
    json!({
        "txHash": hx(&r.tx_hash),
        "status": STATUS_NAMES[r.status as usize],
        "cyclesUsed": u(r.cycles_used),
        "cellsUsed": u(r.cells_used),
        "feePaid": u(r.fee_paid),
        "returnData": hx(&r.return_data),
        "error": r.error,
        "events": r.events.iter().map(|e| json!({
            "emitter": e.emitter.to_string(),
            "topic": hx(&e.topic),
            "data": hx(&e.data),
        })).collect::<Vec<_>>(),
        "hash": hx(&r.hash()),
    })
}

/// Parses the JSON form of a receipt (`hash` is ignored; `error` may be null).
pub fn receipt_from_json(v: &Value) -> Result<Receipt, JsonError> {
    let o = Obj::new(v, "")?;
    o.only(&[
        "txHash",
        "status",
        "cyclesUsed",
        "cellsUsed",
        "feePaid",
        "returnData",
        "error",
        "events",
        "hash",
    ])?;
    let st = o.str("status")?;
    let status = STATUS_NAMES
        .iter()
        .position(|n| *n == st)
        .and_then(|i| ReceiptStatus::from_u8(i as u8))
        .ok_or_else(|| {
            JsonError::new(
                "status",
                "expected success, reverted, outOfCycles, outOfCells or invalid",
            )
        })?;
    let events = match o.req("events")? {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let e = Obj::new(e, &format!("events[{i}]"))?;
                e.only(&["emitter", "topic", "data"])?;
                Ok(Event {
                    emitter: e.address("emitter")?,
                    topic: e.bytes("topic")?,
                    data: e.bytes("data")?,
                })
            })
            .collect::<Result<Vec<_>, JsonError>>()?,
        _ => return Err(JsonError::new("events", "expected an array")),
    };
    Ok(Receipt {
        tx_hash: o.fixed::<32>("txHash")?,
        status,
        cycles_used: o.u64("cyclesUsed")?,
        cells_used: o.u64("cellsUsed")?,
        fee_paid: o.u64("feePaid")?,
        return_data: o.bytes("returnData")?,
        error: o
            .opt("error")
            .map(|v| as_str(v, "error").map(str::to_owned))
            .transpose()?,
        events,
    })
}

const KIND_NAMES: [&str; 3] = ["notarize", "nullify", "finalize"];

/// The JSON form of a certificate.
pub fn certificate_to_json(c: &Certificate) -> Value {
    json!({
        "kind": KIND_NAMES[c.kind as usize],
        "blockHash": hx(&c.block_hash),
        "height": u(c.height),
        "round": round_to_json(&c.round),
        "aggregatedSignature": hx(&c.aggregated_signature),
        "signerBitmap": hx(&c.signer_bitmap),
    })
}

/// Parses the JSON form of a certificate.
pub fn certificate_from_json(v: &Value) -> Result<Certificate, JsonError> {
    let o = Obj::new(v, "")?;
    o.only(&[
        "kind",
        "blockHash",
        "height",
        "round",
        "aggregatedSignature",
        "signerBitmap",
    ])?;
    let k = o.str("kind")?;
    let kind = KIND_NAMES
        .iter()
        .position(|n| *n == k)
        .and_then(|i| CertificateKind::from_u8(i as u8))
        .ok_or_else(|| JsonError::new("kind", "expected notarize, nullify or finalize"))?;
    Ok(Certificate {
        kind,
        block_hash: o.fixed::<32>("blockHash")?,
        height: o.u64("height")?,
        round: round_from_json(&o, "round")?,
        aggregated_signature: o.bytes("aggregatedSignature")?,
        signer_bitmap: o.bytes("signerBitmap")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector2_json() -> Value {
        json!({
            "chainId": "42", "nonce": "0",
            "instruction": { "kind": "transfer", "to": "0x2222222222222222222222222222222222222222", "amount": "1" },
            "cyclesLimit": "50000", "cellsLimit": "50000", "maxFeePerCycle": "1", "maxFeePerCell": "1",
            "maxPriorityFeePerCycle": "0", "maxPriorityFeePerCell": "0",
            "from": "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a", "accessList": null, "metadata": "0x",
            "originTxHash": null, "originRemainingCycles": null, "originRemainingCells": null,
            "signature": "0xf0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b01",
            "additionalSigners": [],
            "signingHash": "0x203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a"
        })
    }

    #[test]
    fn documented_example_round_trips() {
        use crate::wire::Canonical;
        let v = vector2_json();
        let tx = tx_from_json(&v).unwrap();
        assert_eq!(tx_to_json(&tx), v);
        assert!(hex::encode(&tx.encode()).ends_with("3035b0100"));
    }

    #[test]
    fn validator_instructions_round_trip_and_are_strict() {
        let all = [
            Instruction::RegisterValidator {
                bls_key: [0x77; 48],
                proof_of_possession: [0x88; 96],
                stake: 10_000,
            },
            Instruction::ExitValidator,
            Instruction::WithdrawStake,
            Instruction::UnjailValidator,
            Instruction::SubmitEvidence {
                evidence: vec![1, 2, 3],
            },
            Instruction::SysCancelTimer {
                actor: Address([0x55; 20]),
                timer_id: [0x66; 32],
                epoch: 7,
                signers: vec![0x0b],
                signature: [0x99; 96],
            },
            Instruction::DkgLog {
                ceremony: 9,
                log: vec![0xab, 0xcd],
            },
        ];
        for ins in &all {
            let v = instruction_to_json(ins);
            assert_eq!(&instruction_from_json(&v, "instruction").unwrap(), ins);
        }
        assert_eq!(
            instruction_to_json(&all[0]),
            json!({
                "kind": "registerValidator", "blsKey": format!("0x{}", "77".repeat(48)),
                "proofOfPossession": format!("0x{}", "88".repeat(96)), "stake": "10000"
            })
        );
        assert_eq!(
            instruction_to_json(&all[6]),
            json!({ "kind": "dkgLog", "ceremony": "9", "log": "0xabcd" })
        );
        let bad: Vec<(Value, &str)> = vec![
            (json!({"kind": "exitValidator", "x": 1}), "instruction.x"),
            (
                json!({"kind": "registerValidator", "blsKey": "0x77", "proofOfPossession": format!("0x{}", "88".repeat(96)), "stake": "1"}),
                "instruction.blsKey",
            ),
            (
                json!({"kind": "registerValidator", "blsKey": format!("0x{}", "77".repeat(48)), "proofOfPossession": format!("0x{}", "88".repeat(95)), "stake": "1"}),
                "instruction.proofOfPossession",
            ),
            (
                json!({"kind": "sysCancelTimer", "actor": format!("0x{}", "55".repeat(20)), "timerId": format!("0x{}", "66".repeat(32)), "epoch": "01", "signers": "0x0b", "signature": format!("0x{}", "99".repeat(96))}),
                "instruction.epoch",
            ),
            (json!({"kind": "submitEvidence"}), "instruction.evidence"),
            (
                json!({"kind": "dkgLog", "ceremony": 9, "log": "0xabcd"}),
                "instruction.ceremony",
            ),
            (
                json!({"kind": "dkgLog", "ceremony": "9", "log": "abcd"}),
                "instruction.log",
            ),
            (
                json!({"kind": "dkgLog", "ceremony": "9", "log": "0xab", "x": 0}),
                "instruction.x",
            ),
        ];
        for (v, field) in bad {
            assert_eq!(
                instruction_from_json(&v, "instruction").unwrap_err().field,
                field,
                "{v}"
            );
        }
    }

    #[test]
    fn defaults_for_omitted_optionals() {
        let mut v = vector2_json();
        let m = v.as_object_mut().unwrap();
        for k in [
            "accessList",
            "metadata",
            "originTxHash",
            "originRemainingCycles",
            "originRemainingCells",
            "signature",
            "additionalSigners",
            "signingHash",
        ] {
            m.remove(k);
        }
        let tx = tx_from_json(&v).unwrap();
        assert_eq!(tx.signature, ZERO_SIGNATURE);
        assert!(tx.metadata.is_empty() && tx.additional_signers.is_empty());
    }

    #[test]
    fn errors_name_the_field() {
        let cases: Vec<(&str, Value, &str)> = vec![
            ("nonce", json!("01"), "nonce"),
            ("nonce", json!(1), "nonce"),
            ("nonce", json!("18446744073709551616"), "nonce"),
            ("nonce", json!("-1"), "nonce"),
            ("from", json!("0x1234"), "from"),
            (
                "from",
                json!("19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"),
                "from",
            ),
            ("bogus", json!(1), "bogus"),
            ("signature", json!("0x00"), "signature"),
            ("metadata", json!("0xabc"), "metadata"),
            (
                "instruction",
                json!({"kind": "transfer", "to": "0x2222222222222222222222222222222222222222"}),
                "instruction.amount",
            ),
            (
                "instruction",
                json!({"kind": "teleport"}),
                "instruction.kind",
            ),
            (
                "instruction",
                json!({"kind": "custom", "subType": 256, "payload": "0x"}),
                "instruction.subType",
            ),
            (
                "instruction",
                json!({"kind": "transfer", "to": "0x2222222222222222222222222222222222222222", "amount": "1", "x": 1}),
                "instruction.x",
            ),
            (
                "accessList",
                json!([{"address": "0x2222222222222222222222222222222222222222", "storageKeys": ["0xzz"]}]),
                "accessList[0].storageKeys[0]",
            ),
            (
                "additionalSigners",
                json!([{"address": "0x22", "signature": "0x"}]),
                "additionalSigners[0].address",
            ),
        ];
        for (key, val, field) in cases {
            let mut v = vector2_json();
            v.as_object_mut().unwrap().insert(key.into(), val.clone());
            let e = tx_from_json(&v).unwrap_err();
            assert_eq!(e.field, field, "{key}={val}: {e}");
            assert_eq!(e.code(), "TX_JSON_FIELD");
        }
        let mut v = vector2_json();
        v.as_object_mut().unwrap().remove("chainId");
        assert_eq!(tx_from_json(&v).unwrap_err().field, "chainId");
        assert_eq!(tx_from_json(&json!([])).unwrap_err().field, "$");
    }

    #[test]
    fn every_instruction_kind_round_trips() {
        let kinds = vec![
            Instruction::Deploy {
                source: b"x = 1\n".to_vec(),
                salt: [3; 32],
                init_args: vec![0xa0],
                value: u64::MAX,
            },
            Instruction::Call {
                to: Address([4; 20]),
                handler: "go".into(),
                args: vec![],
                value: 0,
            },
            Instruction::ScheduleTimer {
                actor: Address([5; 20]),
                fire_at_height: 9,
                handler: "tick".into(),
                data: vec![1],
                interval: None,
            },
            Instruction::ScheduleTimer {
                actor: Address([5; 20]),
                fire_at_height: 9,
                handler: "tick".into(),
                data: vec![1],
                interval: Some(3),
            },
            Instruction::CancelTimer {
                actor: Address([6; 20]),
                timer_id: [7; 32],
            },
            Instruction::Custom {
                sub_type: 255,
                payload: vec![1, 2],
            },
            Instruction::PublishLibrary {
                name: "lib".into(),
                version: 2,
                source: b"def f():\n    return 1\n".to_vec(),
            },
        ];
        for ins in kinds {
            let j = instruction_to_json(&ins);
            assert_eq!(instruction_from_json(&j, "instruction").unwrap(), ins);
        }
    }

    #[test]
    fn decimal_rules() {
        assert_eq!(parse_u64_str("0"), Some(0));
        assert_eq!(parse_u64_str("18446744073709551615"), Some(u64::MAX));
        for bad in [
            "",
            "00",
            "01",
            "+1",
            " 1",
            "1 ",
            "1e3",
            "0x1",
            "18446744073709551616",
        ] {
            assert_eq!(parse_u64_str(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn other_types_round_trip() {
        let h = BlockHeader {
            parent: [1; 32],
            height: 2,
            round: Round { epoch: 3, view: 4 },
            proposer: Address([5; 20]),
            timestamp_ms: 6,
            state_root: [7; 32],
            tx_root: [8; 32],
            receipts_root: [9; 32],
            cycle_basefee: 10_000,
            cell_basefee: 10_001,
            cycles_used: 11,
            cells_used: 12,
            parent_seed: vec![13],
        };
        assert_eq!(header_from_json(&header_to_json(&h), "").unwrap(), h);
        let tx = tx_from_json(&vector2_json()).unwrap();
        let b = Block {
            header: h,
            transactions: vec![tx],
        };
        assert_eq!(block_from_json(&block_to_json(&b)).unwrap(), b);
        let r = Receipt {
            tx_hash: [1; 32],
            status: ReceiptStatus::OutOfCells,
            cycles_used: 1,
            cells_used: 2,
            fee_paid: 3,
            return_data: vec![4],
            error: Some("boom".into()),
            events: vec![Event {
                emitter: Address([6; 20]),
                topic: vec![7],
                data: vec![],
            }],
        };
        let rj = receipt_to_json(&r);
        assert_eq!(rj["status"], "outOfCells");
        assert_eq!(receipt_from_json(&rj).unwrap(), r);
        let c = Certificate {
            kind: CertificateKind::Nullify,
            block_hash: [2; 32],
            height: 3,
            round: Round { epoch: 0, view: 1 },
            aggregated_signature: vec![9; 96],
            signer_bitmap: vec![1],
        };
        assert_eq!(certificate_from_json(&certificate_to_json(&c)).unwrap(), c);
        let mut bad = certificate_to_json(&c);
        bad["kind"] = json!("vote");
        assert_eq!(certificate_from_json(&bad).unwrap_err().field, "kind");
        let mut bad = block_to_json(&b);
        bad["transactions"][0]["nonce"] = json!("x");
        assert_eq!(
            block_from_json(&bad).unwrap_err().field,
            "transactions[0].nonce"
        );
        let mut bad = header_to_json(&b.header);
        bad["round"]["view"] = json!(1);
        assert_eq!(
            header_from_json(&bad, "header").unwrap_err().field,
            "header.round.view"
        );
    }
}
