//! Actor model: deploy + call over the in-memory host, both spec-04 programming styles,
//! persistence, privacy of `_` names, canonical arguments/results, failure rollback,
//! effects, quota and depth limits, and exact costs of documented handlers.

use cowboy_cbor as cbor;
use pvm_core::actor::{ActorOutcome, Entry, Invocation, execute};
use pvm_core::host::{self, CallContext, Effect, MemoryHost, STATE_KEY};

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
