//! Exact cycles and cells of the documented handler examples. Every number here is derived
//! line by line in docs/metering.md; a change to any cost is a consensus change and must
//! update both.

use pvm_core::actor::{ActorOutcome, Entry, Invocation, execute};
use pvm_core::host::{CallContext, MemoryHost};

/// docs/metering.md, "Host calls one by one".
const HOST_CALLS: &str = r#"import pvm_host


class Actor:
    def noop(self):
        pass

    def put(self):
        pvm_host.storage_set(b"k", b"v")

    def get(self):
        return pvm_host.storage_get(b"k")

    def log(self):
        pvm_host.emit([b"T"], b"data")

    def ping(self, to):
        pvm_host.send(to, "pong", [], 0)

    def digest(self):
        return pvm_host.sha256(b"")
"#;

/// docs/metering.md, "The spec-04 counter" (spec 04 §3 verbatim).
const COUNTER: &str = r#"from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        return self.storage["count"]
"#;

fn run(h: &mut MemoryHost, src: &str, entry: Entry, args: Vec<u8>) -> ActorOutcome {
    let o = execute(
        h,
        &Invocation {
            entry,
            source: src.into(),
            args,
            ctx: CallContext::default(),
            cycles: 1_000_000,
            cells: 1_000_000,
        },
    );
    assert!(o.ok(), "{:?}", o.error);
    o
}

fn call(h: &mut MemoryHost, src: &str, handler: &str, args: Vec<u8>) -> (u64, u64) {
    let o = run(h, src, Entry::Call(handler.into()), args);
    (o.cycles_used, o.cells_used)
}

const NO_ARGS: u8 = 0x80; // CBOR []

#[test]
fn host_calls_one_by_one() {
    let mut h = MemoryHost::default();
    let d = run(&mut h, HOST_CALLS, Entry::Deploy, vec![NO_ARGS]);
    // module body 244 + decode [] 11 + encode None 11
    assert_eq!((d.cycles_used, d.cells_used), (266, 0));
    // fixed part of a call = module 244 + args 11 + state read 100 + handler call 10 + result 11
    assert_eq!(call(&mut h, HOST_CALLS, "noop", vec![NO_ARGS]), (378, 0));
    assert_eq!(call(&mut h, HOST_CALLS, "put", vec![NO_ARGS]), (603, 2));
    assert_eq!(call(&mut h, HOST_CALLS, "get", vec![NO_ARGS]), (501, 0));
    assert_eq!(call(&mut h, HOST_CALLS, "log", vec![NO_ARGS]), (931, 3));
    let mut to = vec![0x81, 0x54]; // [20-byte string]
    to.extend([7u8; 20]);
    assert_eq!(call(&mut h, HOST_CALLS, "ping", to), (518, 1));
    assert_eq!(call(&mut h, HOST_CALLS, "digest", vec![NO_ARGS]), (933, 0));
    // same input, same cost, every time
    assert_eq!(call(&mut h, HOST_CALLS, "put", vec![NO_ARGS]), (603, 2));
}

#[test]
fn spec04_counter() {
    let mut h = MemoryHost::default();
    let d = run(&mut h, COUNTER, Entry::Deploy, vec![NO_ARGS]);
    assert_eq!((d.cycles_used, d.cells_used), (533, 7));
    for _ in 0..3 {
        assert_eq!(call(&mut h, COUNTER, "increment", vec![NO_ARGS]), (965, 7));
    }
    // a missing handler costs the module body, the arguments and the state read
    let o = execute(
        &mut h,
        &Invocation {
            entry: Entry::Call("nope".into()),
            source: COUNTER.into(),
            args: vec![NO_ARGS],
            ctx: CallContext::default(),
            cycles: 1_000_000,
            cells: 1_000_000,
        },
    );
    assert_eq!(o.error.unwrap().type_name, "HandlerNotFound");
    assert_eq!((o.cycles_used, o.cells_used), (339, 0));
}
