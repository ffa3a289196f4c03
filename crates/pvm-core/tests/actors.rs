//! Actor model: deploy + call over the in-memory host, both spec-04 programming styles,
//! persistence, privacy of `_` names, canonical arguments/results, failure rollback,
//! effects, quota and depth limits, and exact costs of documented handlers.

use cowboy_cbor as cbor;
use pvm_core::actor::{ActorOutcome, Entry, Invocation, execute};
use pvm_core::host::{CallContext, Effect, MemoryHost, STATE_KEY, USAGE_KEY};

fn ctx() -> CallContext {
    CallContext {
        actor: [0xaa; 20],
        sender: [0x11; 20],
        origin: [0x11; 20],
        value: 0,
        height: 100,
        timestamp: 1_700_000_000,
        chain_id: 7,
        beacon: [0x42; 32],
        invocation_id: [0x01; 32],
        depth: 0,
    }
}

fn args(vals: Vec<cbor::Value>) -> Vec<u8> {
    cbor::encode(&cbor::Value::Array(vals)).unwrap()
}

fn run(host: &mut MemoryHost, src: &str, entry: Entry, a: Vec<u8>) -> ActorOutcome {
    execute(
        host,
        &Invocation {
            entry,
            source: src.to_string(),
            args: a,
            ctx: ctx(),
            cycles: 1_000_000,
            cells: 1_000_000,
        },
    )
}

fn deploy(host: &mut MemoryHost, src: &str, a: Vec<cbor::Value>) -> ActorOutcome {
    let o = run(host, src, Entry::Deploy, args(a));
    assert!(o.ok(), "deploy failed: {:?}", o.error);
    o
}

fn call(host: &mut MemoryHost, src: &str, h: &str, a: Vec<cbor::Value>) -> ActorOutcome {
    run(host, src, Entry::Call(h.into()), args(a))
}

fn result(o: &ActorOutcome) -> cbor::Value {
    assert!(o.ok(), "call failed: {:?}", o.error);
    cbor::decode(o.result.as_ref().unwrap()).unwrap()
}

/// spec 04 §3, first example, verbatim.
const PLAIN: &str = r#"# actors/hello/main.py
class Actor:
    """A Cowboy actor deployed on-chain."""

    def __init__(self):
        self.counter = 0

    def increment(self):
        self.counter += 1
        return self.counter

    def get_count(self):
        return self.counter
"#;

/// spec 04 §3, second example, verbatim.
const SDK: &str = r#"from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        return self.storage["count"]
"#;

#[test]
fn spec04_plain_actor_keeps_attributes() {
    let mut h = MemoryHost::default();
    deploy(&mut h, PLAIN, vec![]);
    assert!(h.storage.contains_key(STATE_KEY));
    for i in 1..=3u64 {
        let o = call(&mut h, PLAIN, "increment", vec![]);
        assert_eq!(result(&o), cbor::Value::Uint(i));
    }
    let o = call(&mut h, PLAIN, "get_count", vec![]);
    assert_eq!(result(&o), cbor::Value::Uint(3));
}

#[test]
fn spec04_sdk_actor_uses_storage() {
    let mut h = MemoryHost::default();
    deploy(&mut h, SDK, vec![]);
    for i in 1..=3u64 {
        let o = call(&mut h, SDK, "increment", vec![]);
        assert_eq!(result(&o), cbor::Value::Uint(i));
    }
    // the value lives under the canonical encoding of the key "count"
    let key = cbor::encode(&cbor::Value::Text("count".into())).unwrap();
    assert_eq!(h.storage.get(&key).unwrap(), &vec![0x03]);
    assert!(!h.storage.contains_key(STATE_KEY));
}

fn err(o: &ActorOutcome) -> (String, String) {
    let e = o.error.clone().expect("should fail");
    assert!(o.effects.is_empty());
    assert!(o.result.is_none());
    (e.type_name, e.message)
}

const VALUES: &str = r#"from cowboy_sdk import actor

@actor
class V:
    def __init__(self, seed):
        self.storage["seed"] = seed

    def echo(self, *args):
        return list(args)

    def keys(self):
        d = {(1, "a"): b"x", "s": {3, 1, 2}, "f": 1.5, "big": 2 ** 100, "neg": -2 ** 70}
        self.storage[("k", 1)] = d
        return self.storage[("k", 1)]

    def seed(self):
        return self.storage["seed"]

    def bad_result(self):
        return object()

    def bad_store(self):
        self.storage["x"] = lambda: 1

    @property
    def prop(self):
        return 1

    @staticmethod
    def stat():
        return 1
"#;

#[test]
fn canonical_arguments_and_results() {
    let mut h = MemoryHost::default();
    deploy(&mut h, VALUES, vec![cbor::Value::Text("s".into())]);
    assert_eq!(
        result(&call(&mut h, VALUES, "seed", vec![])),
        cbor::Value::Text("s".into())
    );
    let vals = vec![
        cbor::Value::Null,
        cbor::Value::Bool(true),
        cbor::Value::int(-5),
        cbor::Value::BigUint(vec![1, 0, 0, 0, 0, 0, 0, 0, 0]),
        cbor::Value::float(0x3ff8_0000_0000_0000),
        cbor::Value::Bytes(vec![1, 2]),
        cbor::Value::Array(vec![cbor::Value::Text("x".into())]),
        cbor::Value::Map(vec![(cbor::Value::Uint(1), cbor::Value::Null)]),
        cbor::Value::Set(vec![cbor::Value::Uint(1), cbor::Value::Uint(2)]),
    ];
    let o = call(&mut h, VALUES, "echo", vals.clone());
    assert_eq!(result(&o), cbor::Value::Array(vals));
    // tuple keys, sets, floats and big ints survive a storage round trip
    let o = call(&mut h, VALUES, "keys", vec![]);
    let cbor::Value::Map(m) = result(&o) else {
        panic!()
    };
    assert_eq!(m.len(), 5);
    assert!(m.contains(&(
        cbor::Value::Array(vec![cbor::Value::Uint(1), cbor::Value::Text("a".into())]),
        cbor::Value::Bytes(b"x".to_vec())
    )));
    assert!(m.contains(&(
        cbor::Value::Text("s".into()),
        cbor::Value::Set(vec![
            cbor::Value::Uint(1),
            cbor::Value::Uint(2),
            cbor::Value::Uint(3)
        ])
    )));
    assert!(m.contains(&(
        cbor::Value::Text("neg".into()),
        cbor::Value::BigNint(vec![0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
    )));
}

#[test]
fn unencodable_values_and_private_names_fail_clearly() {
    let mut h = MemoryHost::default();
    deploy(&mut h, VALUES, vec![cbor::Value::Uint(1)]);
    let (t, m) = err(&call(&mut h, VALUES, "bad_result", vec![]));
    assert_eq!(t, "EncodingError");
    assert!(m.contains("'object'"), "{m}");
    let (t, m) = err(&call(&mut h, VALUES, "bad_store", vec![]));
    assert_eq!(t, "TypeError");
    assert!(m.contains("'function'"), "{m}");
    for h2 in ["_x", "__init__", "prop", "stat", "missing", "", "1a"] {
        assert_eq!(
            err(&call(&mut h, VALUES, h2, vec![])).0,
            "HandlerNotFound",
            "{h2}"
        );
    }
    let o = run(&mut h, VALUES, Entry::Call("seed".into()), vec![0xa0]);
    assert_eq!(err(&o).0, "InvalidArguments");
    let o = run(&mut h, VALUES, Entry::Call("seed".into()), vec![0x18]);
    assert_eq!(err(&o).0, "InvalidArguments");
    let o = call(&mut h, VALUES, "seed", vec![cbor::Value::Uint(1)]);
    assert_eq!(err(&o).0, "TypeError");
}

const PLAIN_BAD: &str = "class Actor:\n    def __init__(self):\n        self.n = 1\n    def keep(self):\n        self.f = print\n    def inc(self):\n        self.n += 1\n        return self.n\n";

#[test]
fn unencodable_attribute_fails_and_reverts() {
    let mut h = MemoryHost::default();
    deploy(&mut h, PLAIN_BAD, vec![]);
    let before = h.storage.clone();
    let (t, m) = err(&call(&mut h, PLAIN_BAD, "keep", vec![]));
    assert_eq!(t, "EncodingError");
    assert!(m.contains("attribute 'f'"), "{m}");
    assert_eq!(h.storage, before);
    assert_eq!(
        result(&call(&mut h, PLAIN_BAD, "inc", vec![])),
        cbor::Value::Uint(2)
    );
}

const WRITER: &str = r#"from cowboy_sdk import actor, send, emit, set_timer

@actor
class W:
    def __init__(self):
        self.storage["a"] = 1

    def fail_after_writes(self):
        self.storage["a"] = 2
        self.storage["b"] = b"x" * 100
        del self.storage["a"]
        emit("E")
        set_timer(1000, "t")
        raise RuntimeError("late")

    def spin(self):
        self.storage["a"] = 3
        while True:
            pass

    def big(self, n):
        self.storage["big"] = b"x" * n

    def get(self):
        return [self.storage.get("a"), self.storage.get("b")]

    def forward(self, to, v):
        send(to, "h", value=v)
"#;

#[test]
fn failures_undo_writes_and_effects() {
    let mut h = MemoryHost::default();
    deploy(&mut h, WRITER, vec![]);
    let before = h.storage.clone();
    let (t, m) = err(&call(&mut h, WRITER, "fail_after_writes", vec![]));
    assert_eq!((t.as_str(), m.as_str()), ("RuntimeError", "late"));
    assert_eq!(h.storage, before);
    let o = execute(
        &mut h,
        &Invocation {
            entry: Entry::Call("spin".into()),
            source: WRITER.into(),
            args: args(vec![]),
            ctx: ctx(),
            cycles: 50_000,
            cells: 1_000_000,
        },
    );
    assert_eq!(err(&o).0, "OutOfCycles");
    assert_eq!(o.cycles_used, 50_000);
    assert_eq!(h.storage, before);
    let o = execute(
        &mut h,
        &Invocation {
            entry: Entry::Call("big".into()),
            source: WRITER.into(),
            args: args(vec![cbor::Value::Uint(5_000)]),
            ctx: ctx(),
            cycles: 1_000_000,
            cells: 1_000,
        },
    );
    assert_eq!(err(&o).0, "OutOfCells");
    assert_eq!(h.storage, before);
    assert_eq!(
        result(&call(&mut h, WRITER, "get", vec![])),
        cbor::Value::Array(vec![cbor::Value::Uint(1), cbor::Value::Null])
    );
}

#[test]
fn quota_counts_key_and_value_bytes() {
    let mut h = MemoryHost::default();
    deploy(&mut h, WRITER, vec![]);
    // "a" → 1: key 2 bytes (CBOR "a") + value 1 byte
    assert_eq!(h.storage.get(USAGE_KEY), Some(&3u64.to_be_bytes().to_vec()));
    let big = |n: u64| vec![cbor::Value::Uint(n)];
    let limit = 1u64 << 20;
    // key "big" = 4 bytes, value = bytes header (5) + n; total with "a" must stay ≤ 1 MiB
    let n = limit - 3 - 4 - 5;
    let o = execute(
        &mut h,
        &Invocation {
            entry: Entry::Call("big".into()),
            source: WRITER.into(),
            args: args(big(n)),
            ctx: ctx(),
            cycles: 20_000_000,
            cells: 2_000_000,
        },
    );
    assert!(o.ok(), "{:?}", o.error);
    assert_eq!(
        h.storage.get(USAGE_KEY),
        Some(&limit.to_be_bytes().to_vec())
    );
    let o = execute(
        &mut h,
        &Invocation {
            entry: Entry::Call("big".into()),
            source: WRITER.into(),
            args: args(big(n + 1)),
            ctx: ctx(),
            cycles: 20_000_000,
            cells: 2_000_000,
        },
    );
    assert_eq!(err(&o).0, "StorageQuotaExceeded");
    assert_eq!(
        h.storage.get(USAGE_KEY),
        Some(&limit.to_be_bytes().to_vec())
    );
}

#[test]
fn depth_and_balance_limits() {
    let mut h = MemoryHost::default();
    deploy(&mut h, WRITER, vec![]);
    let fwd = |v: u64| vec![cbor::Value::Bytes(vec![2; 20]), cbor::Value::Uint(v)];
    h.balance = 10;
    let o = call(&mut h, WRITER, "forward", fwd(10));
    assert!(o.ok());
    assert_eq!(
        o.effects,
        vec![Effect::Send {
            to: [2; 20],
            handler: "h".into(),
            args: vec![0x80],
            value: 10
        }]
    );
    assert_eq!(
        err(&call(&mut h, WRITER, "forward", fwd(11))).0,
        "ValueError"
    );
    let mut c = ctx();
    c.depth = 32;
    let inv = |c: CallContext, h: &str, a: Vec<u8>| Invocation {
        entry: Entry::Call(h.into()),
        source: WRITER.into(),
        args: a,
        ctx: c,
        cycles: 1_000_000,
        cells: 1_000_000,
    };
    let o = execute(&mut h, &inv(c.clone(), "forward", args(fwd(1))));
    assert_eq!(err(&o).0, "ReentrancyError");
    assert!(execute(&mut h, &inv(c.clone(), "get", args(vec![]))).ok());
    c.depth = 33;
    let o = execute(&mut h, &inv(c, "get", args(vec![])));
    assert_eq!(err(&o).0, "ReentrancyError");
}

const GUARD: &str = r#"from cowboy_sdk import actor, nonreentrant, ReentrancyGuard, vrf, vrf_int, OrderedSet
import pvm_host

@actor
class G:
    def __init__(self):
        pass

    @nonreentrant
    def outer(self, again):
        if again:
            return self.outer(False)
        return "done"

    def hold(self):
        ReentrancyGuard("cb").acquire()

    def hold_again(self):
        ReentrancyGuard("cb").acquire()

    def randomness(self):
        return [vrf("a"), vrf("a"), vrf("b"), vrf_int("c", 10)]

    def ordered(self):
        s = OrderedSet([3, 1, 3, 2])
        s.add(1)
        s.discard(3)
        return s.to_list()

    def reserved(self):
        pvm_host.storage_set(b"\xffs", b"x")

    def main_guard(self):
        return ran
"#;

#[test]
fn guards_randomness_and_collections() {
    let mut h = MemoryHost::default();
    deploy(&mut h, GUARD, vec![]);
    assert_eq!(
        result(&call(
            &mut h,
            GUARD,
            "outer",
            vec![cbor::Value::Bool(false)]
        )),
        cbor::Value::Text("done".into())
    );
    assert_eq!(
        err(&call(&mut h, GUARD, "outer", vec![cbor::Value::Bool(true)])).0,
        "ReentrancyError"
    );
    assert!(call(&mut h, GUARD, "hold", vec![]).ok());
    assert_eq!(
        err(&call(&mut h, GUARD, "hold_again", vec![])).0,
        "ReentrancyError"
    );
    let r = result(&call(&mut h, GUARD, "randomness", vec![]));
    let cbor::Value::Array(v) = r else { panic!() };
    assert_eq!(v[0], v[1]);
    assert_ne!(v[0], v[2]);
    let expected = pvm_core::host::vrf(&[0x42; 32], &[0xaa; 20], b"a");
    assert_eq!(v[0], cbor::Value::Bytes(expected.to_vec()));
    assert!(matches!(v[3], cbor::Value::Uint(n) if n < 10));
    assert_eq!(
        result(&call(&mut h, GUARD, "ordered", vec![])),
        cbor::Value::Array(vec![cbor::Value::Uint(1), cbor::Value::Uint(2)])
    );
    assert_eq!(
        err(&call(&mut h, GUARD, "reserved", vec![])).0,
        "ValueError"
    );
}

#[test]
fn module_main_block_does_not_run_and_pvm_host_needs_an_actor() {
    let src = "ran = 'module'\nif __name__ == '__main__':\n    ran = 'main'\nclass Actor:\n    def get(self):\n        return ran\n";
    let mut h = MemoryHost::default();
    deploy(&mut h, src, vec![]);
    assert_eq!(
        result(&call(&mut h, src, "get", vec![])),
        cbor::Value::Text("module".into())
    );
    let o = pvm_core::run_program(
        "import pvm_host\npvm_host.sender()\n",
        "t.py",
        &pvm_core::Limits::default(),
    );
    assert_eq!(o.error.unwrap().type_name, "RuntimeError");
    // the SDK itself imports fine outside an actor (for local tests of actor classes)
    let o = pvm_core::run_program(
        "from cowboy_sdk import actor, OrderedSet\n@actor\nclass C:\n    pass\nprint(C.__cowboy_actor__, len(OrderedSet([1, 1])))\n",
        "t.py",
        &pvm_core::Limits::default(),
    );
    assert_eq!(o.error, None);
    assert_eq!(o.stdout, "True 1\n");
}

#[test]
fn actor_class_selection() {
    let mut h = MemoryHost::default();
    let two =
        "from cowboy_sdk import actor\n@actor\nclass A:\n    pass\n@actor\nclass B:\n    pass\n";
    assert_eq!(
        err(&run(&mut h, two, Entry::Deploy, args(vec![]))).0,
        "NoActorClass"
    );
    let none = "x = 1\n";
    assert_eq!(
        err(&run(&mut h, none, Entry::Deploy, args(vec![]))).0,
        "NoActorClass"
    );
    let helpers = "class Helper:\n    pass\nclass Actor:\n    def who(self):\n        return type(self).__name__\n";
    deploy(&mut h, helpers, vec![]);
    assert_eq!(
        result(&call(&mut h, helpers, "who", vec![])),
        cbor::Value::Text("Actor".into())
    );
    let syntax = "class Actor(:\n";
    assert_eq!(
        err(&run(&mut h, syntax, Entry::Deploy, args(vec![]))).0,
        "SyntaxError"
    );
}

const STORE: &str = r#"from cowboy_sdk import actor, storage, emit, encode, decode, sha256, keccak256

@actor
class S:
    def __init__(self):
        self.storage.set("a", [1, 2])

    def ops(self):
        out = []
        out.append("a" in self.storage)
        out.append(self.storage.get("zz", "dflt"))
        out.append(self.storage.setdefault("b", {"x": 1}))
        out.append(self.storage.setdefault("b", "ignored"))
        out.append(self.storage.pop("a"))
        out.append(self.storage.pop("a", None))
        self.storage.delete("never-there")
        try:
            del self.storage["a"]
        except KeyError as e:
            out.append("KeyError")
        try:
            self.storage["missing"]
        except KeyError:
            out.append("KeyError")
        out.append(storage is self.storage)
        out.append(decode(encode({"k": (1, 2)})))
        emit("Ev", {"n": 1}, b"t2")
        return out

    def hashes(self):
        return [sha256(b"abc"), keccak256(b"")]
"#;

#[test]
fn sdk_storage_mapping_events_and_hashes() {
    let mut h = MemoryHost::default();
    deploy(&mut h, STORE, vec![]);
    let o = call(&mut h, STORE, "ops", vec![]);
    let t = |s: &str| cbor::Value::Text(s.into());
    let m = cbor::Value::Map(vec![(t("x"), cbor::Value::Uint(1))]);
    assert_eq!(
        result(&o),
        cbor::Value::Array(vec![
            cbor::Value::Bool(true),
            t("dflt"),
            m.clone(),
            m,
            cbor::Value::Array(vec![cbor::Value::Uint(1), cbor::Value::Uint(2)]),
            cbor::Value::Null,
            t("KeyError"),
            t("KeyError"),
            cbor::Value::Bool(true),
            cbor::Value::Map(vec![(
                t("k"),
                cbor::Value::Array(vec![cbor::Value::Uint(1), cbor::Value::Uint(2)])
            )]),
        ])
    );
    assert_eq!(
        o.effects,
        vec![Effect::Event {
            topics: vec![b"Ev".to_vec(), b"t2".to_vec()],
            data: cbor::encode(&cbor::Value::Map(vec![(t("n"), cbor::Value::Uint(1))])).unwrap(),
        }]
    );
    let hex = |v: &cbor::Value| match v {
        cbor::Value::Bytes(b) => b.iter().map(|x| format!("{x:02x}")).collect::<String>(),
        _ => panic!(),
    };
    let cbor::Value::Array(hs) = result(&call(&mut h, STORE, "hashes", vec![])) else {
        panic!()
    };
    assert_eq!(
        hex(&hs[0]),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex(&hs[1]),
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    );
}
