//! `execute` over a real (temp-dir) state store: deploy + calls, rollback of failed calls,
//! balance from the account record, timer ids, the signature host calls, quota and depth.

use cowboy_cbor as cbor;
use cowboy_qmdb::{Config, Db, keys};
use cowboy_runtime::{Effect, ExecContext, ExecKind, ExecRequest, ExecResult, execute};
use ed25519_dalek::Signer;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

const ACTOR: [u8; 20] = [0xac; 20];

struct TempDb {
    db: Option<Db>,
    dir: PathBuf,
}

impl TempDb {
    fn new() -> TempDb {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "cowboy-runtime-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let db = Db::open(&dir, Config::default()).expect("open");
        TempDb { db: Some(db), dir }
    }
    fn db(&mut self) -> &mut Db {
        self.db.as_mut().expect("open")
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        drop(self.db.take());
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn ctx() -> ExecContext {
    ExecContext {
        sender: [0x11; 20],
        origin: [0x11; 20],
        value: 0,
        height: 10,
        timestamp: 1_000,
        chain_id: 1,
        beacon: [7; 32],
        invocation_id: [9; 32],
        depth: 0,
    }
}

fn args(v: Vec<cbor::Value>) -> Vec<u8> {
    cbor::encode(&cbor::Value::Array(v)).unwrap()
}

fn req(kind: ExecKind, a: Vec<cbor::Value>) -> ExecRequest {
    ExecRequest {
        kind,
        actor: ACTOR,
        args: args(a),
        context: ctx(),
        cycles_limit: 1_000_000,
        cells_limit: 2_000_000,
    }
}

fn deploy(db: &mut Db, code: &str) -> ExecResult {
    let r = execute(
        db,
        &req(
            ExecKind::Deploy {
                code: code.to_string(),
            },
            vec![],
        ),
    );
    assert!(r.ok, "deploy failed: {:?}", r.error);
    r
}

fn call(db: &mut Db, handler: &str, a: Vec<cbor::Value>) -> ExecResult {
    execute(
        db,
        &req(
            ExecKind::Call {
                handler: handler.to_string(),
            },
            a,
        ),
    )
}

fn value(r: &ExecResult) -> cbor::Value {
    assert!(r.ok, "call failed: {:?}", r.error);
    cbor::decode(r.result.as_ref().unwrap()).unwrap()
}

const COUNTER: &str = "from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage[\"count\"] = 0

    def increment(self):
        self.storage[\"count\"] += 1
        return self.storage[\"count\"]
";

#[test]
fn counter_over_qmdb() {
    let mut t = TempDb::new();
    let db = t.db();
    let d = deploy(db, COUNTER);
    assert_eq!(d.result.as_deref(), Some(&[0xf6][..]));
    assert_eq!(
        db.get(&keys::actor_code(&ACTOR)).unwrap().as_deref(),
        Some(COUNTER.as_bytes())
    );
    for i in 1..=3u64 {
        assert_eq!(value(&call(db, "increment", vec![])), cbor::Value::Uint(i));
    }
    let k = keys::actor_storage(
        keys::VM_NS_PVM,
        &ACTOR,
        &cbor::encode(&cbor::Value::Text("count".into())).unwrap(),
    )
    .unwrap();
    assert_eq!(db.get(&k).unwrap(), Some(vec![3]));
    let before = db.root();
    db.commit().unwrap();
    assert_ne!(db.root(), before);
    // deterministic: same calls, same cycles
    let a = call(db, "increment", vec![]);
    let b = call(db, "increment", vec![]);
    assert_eq!(a.cycles_used, b.cycles_used);
    assert_eq!(a.cells_used, b.cells_used);
}

const FAILING: &str = "from cowboy_sdk import actor, send, emit

@actor
class A:
    def __init__(self):
        self.storage[\"x\"] = 1

    def bad(self):
        self.storage[\"x\"] = 2
        self.storage[\"y\"] = 3
        send(b\"\\x01\" * 20, \"ping\")
        emit(\"Bad\", 1)
        raise ValueError(\"no\")

    def get(self):
        return [self.storage[\"x\"], self.storage.get(\"y\")]

    def _private(self):
        return 1
";

#[test]
fn failed_call_leaves_nothing() {
    let mut t = TempDb::new();
    let db = t.db();
    deploy(db, FAILING);
    db.commit().unwrap();
    let root = db.root();
    let r = call(db, "bad", vec![]);
    assert!(!r.ok);
    let e = r.error.unwrap();
    assert_eq!(e.kind, "ValueError");
    assert_eq!(e.message, "no");
    assert!(e.traceback.last().unwrap().contains("in bad"));
    assert!(r.effects.is_empty());
    assert_eq!(db.pending_len(), 0);
    assert_eq!(
        value(&call(db, "get", vec![])),
        cbor::Value::Array(vec![cbor::Value::Uint(1), cbor::Value::Null])
    );
    // a read-only call writes nothing either
    assert_eq!(db.pending_len(), 0);
    assert_eq!(db.root(), root);
}

#[test]
fn typed_failures() {
    let mut t = TempDb::new();
    let db = t.db();
    let r = call(db, "get", vec![]);
    assert_eq!(r.error.unwrap().kind, "ActorNotFound");
    deploy(db, FAILING);
    let r = execute(
        db,
        &req(
            ExecKind::Deploy {
                code: FAILING.into(),
            },
            vec![],
        ),
    );
    assert_eq!(r.error.unwrap().kind, "ActorExists");
    assert_eq!(
        call(db, "_private", vec![]).error.unwrap().kind,
        "HandlerNotFound"
    );
    assert_eq!(
        call(db, "nope", vec![]).error.unwrap().kind,
        "HandlerNotFound"
    );
    let r = execute(
        db,
        &ExecRequest {
            args: vec![0x01],
            ..req(
                ExecKind::Call {
                    handler: "get".into(),
                },
                vec![],
            )
        },
    );
    assert_eq!(r.error.unwrap().kind, "InvalidArguments");
    let mut deep = req(
        ExecKind::Call {
            handler: "get".into(),
        },
        vec![],
    );
    deep.context.depth = 33;
    let e = execute(db, &deep).error.unwrap();
    assert_eq!(e.kind, "ReentrancyError");
    deep.context.depth = 32;
    assert!(execute(db, &deep).ok);
}

#[test]
fn failed_deploy_stores_no_code() {
    let mut t = TempDb::new();
    let db = t.db();
    let r = execute(
        db,
        &req(
            ExecKind::Deploy {
                code: "class Actor:\n    def __init__(self):\n        self.x = 1 // 0\n".into(),
            },
            vec![],
        ),
    );
    assert_eq!(r.error.unwrap().kind, "ZeroDivisionError");
    assert_eq!(db.get(&keys::actor_code(&ACTOR)).unwrap(), None);
    assert_eq!(db.pending_len(), 0);
}

const CTX: &str = "from cowboy_sdk import actor, ctx, set_timer, set_interval, cancel_timer

@actor
class C:
    def __init__(self):
        pass

    def info(self):
        return [ctx.sender, ctx.value, ctx.balance, ctx.block_height, ctx.chain_id, ctx.address]

    def timers(self):
        a = set_timer(20, \"tick\", {\"n\": 1})
        b = set_interval(5, \"tick\")
        cancel_timer(a)
        return [a, b]

    def tick(self, data):
        return data
";

#[test]
fn context_balance_and_timer_ids() {
    let mut t = TempDb::new();
    let db = t.db();
    let acc = keys::Account {
        balance: 5_000,
        nonce: 0,
        code_hash: [0; 32],
        metadata: vec![],
    };
    db.put(&keys::account(&ACTOR), &acc.encode()).unwrap();
    deploy(db, CTX);
    let v = value(&call(db, "info", vec![]));
    assert_eq!(
        v,
        cbor::Value::Array(vec![
            cbor::Value::Bytes(vec![0x11; 20]),
            cbor::Value::Uint(0),
            cbor::Value::Uint(5_000),
            cbor::Value::Uint(10),
            cbor::Value::Uint(1),
            cbor::Value::Bytes(ACTOR.to_vec()),
        ])
    );
    let r = call(db, "timers", vec![]);
    let id = |i: u32| {
        cowboy_codec::hash::keccak256_concat(&[b"cowboy-timer", &[9; 32], &i.to_be_bytes()])
    };
    let (a, b) = (id(0), id(1));
    assert_eq!(
        value(&r),
        cbor::Value::Array(vec![
            cbor::Value::Bytes(a.to_vec()),
            cbor::Value::Bytes(b.to_vec())
        ])
    );
    assert_eq!(
        r.effects,
        vec![
            Effect::SetTimer {
                id: a,
                fire_at: 20,
                interval: None,
                handler: "tick".into(),
                data: cbor::encode(&cbor::Value::Map(vec![(
                    cbor::Value::Text("n".into()),
                    cbor::Value::Uint(1)
                )]))
                .unwrap(),
            },
            Effect::SetTimer {
                id: b,
                fire_at: 15,
                interval: Some(5),
                handler: "tick".into(),
                data: vec![0xf6],
            },
            Effect::CancelTimer { id: a },
        ]
    );
}

const QUOTA: &str = "from cowboy_sdk import actor

@actor
class Q:
    def __init__(self):
        pass

    def fill(self, n):
        for i in range(n):
            self.storage[i] = b\"x\" * 60000

    def clear(self, n):
        for i in range(n):
            del self.storage[i]
";

#[test]
fn storage_quota_is_enforced_across_calls() {
    let mut t = TempDb::new();
    let db = t.db();
    deploy(db, QUOTA);
    let big = |n: u64| {
        let mut r = req(
            ExecKind::Call {
                handler: "fill".into(),
            },
            vec![cbor::Value::Uint(n)],
        );
        r.cycles_limit = 50_000_000;
        r.cells_limit = 50_000_000;
        r
    };
    assert!(execute(db, &big(10)).ok);
    // 10 + 8 cells of ~60 kB exceed 1 MiB
    let r = execute(db, &{
        let mut r = big(18);
        r.kind = ExecKind::Call {
            handler: "fill".into(),
        };
        r
    });
    assert_eq!(r.error.unwrap().kind, "StorageQuotaExceeded");
    // freeing space makes room again
    let mut c = big(10);
    c.kind = ExecKind::Call {
        handler: "clear".into(),
    };
    assert!(execute(db, &c).ok);
    assert!(execute(db, &big(17)).ok);
}

const SIGS: &str = "from cowboy_sdk import actor, ecrecover, verify_ed25519, verify_bls, verify_secp256k1, verify_eip712, keccak256

@actor
class S:
    def __init__(self):
        pass

    def recover(self, h, sig):
        return ecrecover(h, sig)

    def secp(self, pk, h, sig):
        return verify_secp256k1(pk, h, sig)

    def ed(self, pk, m, sig):
        return verify_ed25519(pk, m, sig)

    def bls(self, pk, m, sig, ns):
        return verify_bls(pk, m, sig, ns)

    def eip712(self, signer, dom, sh, sig):
        return verify_eip712(signer, dom, sh, sig)
";

fn b(x: &[u8]) -> cbor::Value {
    cbor::Value::Bytes(x.to_vec())
}

#[test]
fn signature_host_calls() {
    let mut t = TempDb::new();
    let db = t.db();
    deploy(db, SIGS);
    // secp256k1 (the transaction key type)
    let sk = cowboy_codec::signing::SecretKey::from_bytes(&[3u8; 32]).unwrap();
    let h = cowboy_codec::hash::keccak256(b"hello");
    let sig = sk.sign_hash(&h);
    let addr = sk.address();
    let r = call(db, "recover", vec![b(&h), b(&sig)]);
    assert_eq!(value(&r), b(&addr.0));
    assert!(r.cycles_used > 10_000);
    let mut bad = sig;
    bad[10] ^= 1;
    let r = call(db, "recover", vec![b(&h), b(&bad)]);
    assert_ne!(value(&r), b(&addr.0));
    let skey = secp256k1::SecretKey::from_secret_bytes([3u8; 32]).unwrap();
    let pk = secp256k1::PublicKey::from_secret_key(&skey);
    let r = call(db, "secp", vec![b(&pk.serialize()), b(&h), b(&sig[..64])]);
    assert_eq!(value(&r), cbor::Value::Bool(true));
    let r = call(db, "secp", vec![b(&pk.serialize()), b(&h), b(&bad[..64])]);
    assert_eq!(value(&r), cbor::Value::Bool(false));
    // EIP-712 against an Ethereum address
    let dom = [1u8; 32];
    let sh = [2u8; 32];
    let digest = cowboy_codec::hash::keccak256_concat(&[b"\x19\x01", &dom, &sh]);
    let s712 = sk.sign_hash(&digest);
    let r = call(db, "eip712", vec![b(&addr.0), b(&dom), b(&sh), b(&s712)]);
    assert_eq!(value(&r), cbor::Value::Bool(true));
    let r = call(db, "eip712", vec![b(&[0; 20]), b(&dom), b(&sh), b(&s712)]);
    assert_eq!(value(&r), cbor::Value::Bool(false));
    // Ed25519
    let ek = ed25519_dalek::SigningKey::from_bytes(&[5u8; 32]);
    let esig = ek.sign(b"msg").to_bytes();
    let epk = ek.verifying_key().to_bytes();
    let r = call(db, "ed", vec![b(&epk), b(b"msg"), b(&esig)]);
    assert_eq!(value(&r), cbor::Value::Bool(true));
    let r = call(db, "ed", vec![b(&epk), b(b"msh"), b(&esig)]);
    assert_eq!(value(&r), cbor::Value::Bool(false));
    // BLS12-381 MinPk
    let bk = cowboy_bls::PrivateKey::from_ikm(&[6u8; 32]).unwrap();
    let bsig = bk.sign(b"ns", b"msg");
    let bpk = bk.public_key();
    let r = call(
        db,
        "bls",
        vec![b(bpk.as_bytes()), b(b"msg"), b(bsig.as_bytes()), b(b"ns")],
    );
    assert_eq!(value(&r), cbor::Value::Bool(true));
    let r = call(
        db,
        "bls",
        vec![
            b(bpk.as_bytes()),
            b(b"msg"),
            b(bsig.as_bytes()),
            b(b"other"),
        ],
    );
    assert_eq!(value(&r), cbor::Value::Bool(false));
}
