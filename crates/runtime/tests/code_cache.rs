//! The compiled-code cache is invisible to consensus: one invocation sequence run with a cold
//! cache before every invocation, with a warm cache, and with caching disabled gives identical
//! results, cycles, cells, effects, output and state roots. (One test in its own binary, so no other test
//! touches the process-wide cache while it runs.)

use cowboy_cbor as cbor;
use cowboy_qmdb::{Config, Db};
use cowboy_runtime::{ExecContext, ExecKind, ExecRequest, ExecResult, execute};
use pvm_core::codecache;

const COUNTER: &str = "from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage[\"count\"] = 0

    def increment(self):
        self.storage[\"count\"] += 1
        return self.storage[\"count\"]
";

const LIBS: &str = "import json
from decimal import Decimal
import collections

class Actor:
    def __init__(self):
        self.log = []

    def run(self, n):
        d = {'k' + str(i): i * i for i in range(n)}
        s = json.dumps(d, sort_keys=True)
        total = Decimal('1.10') * n + Decimal(json.loads(s).get('k3', 0))
        self.log.append(str(total))
        c = collections.Counter('abracadabra')
        print(s[:20], total, c.most_common(2))
        return [str(total), len(s), 'k1' in d]

    def boom(self):
        return {'a': 1}['b']

    def hog(self):
        a = []
        while True:
            a.append('x' * 1000)

    def spin(self):
        while True:
            pass
";

const ADDR_A: [u8; 20] = [0xa1; 20];
const ADDR_B: [u8; 20] = [0xb2; 20];

fn args(v: Vec<cbor::Value>) -> Vec<u8> {
    cbor::encode(&cbor::Value::Array(v)).expect("encodes")
}

fn req(actor: [u8; 20], kind: ExecKind, a: Vec<cbor::Value>, cycles: u64) -> ExecRequest {
    ExecRequest {
        kind,
        actor,
        args: args(a),
        context: ExecContext {
            sender: [0x11; 20],
            origin: [0x11; 20],
            height: 5,
            timestamp: 1_000,
            chain_id: 1,
            invocation_id: [3; 32],
            ..ExecContext::default()
        },
        cycles_limit: cycles,
        cells_limit: 1_000_000,
    }
}

fn call(actor: [u8; 20], h: &str, a: Vec<cbor::Value>, cycles: u64) -> ExecRequest {
    req(actor, ExecKind::Call { handler: h.into() }, a, cycles)
}

fn sequence() -> Vec<ExecRequest> {
    let deploy = |actor, code: &str| {
        req(
            actor,
            ExecKind::Deploy { code: code.into() },
            vec![],
            10_000_000,
        )
    };
    vec![
        deploy(ADDR_A, COUNTER),
        call(ADDR_A, "increment", vec![], 1_000_000),
        call(ADDR_A, "increment", vec![], 1_000_000),
        deploy(ADDR_B, LIBS),
        call(ADDR_B, "run", vec![cbor::Value::Uint(7)], 10_000_000),
        call(ADDR_A, "increment", vec![], 1_000_000),
        call(ADDR_B, "run", vec![cbor::Value::Uint(40)], 10_000_000),
        call(ADDR_B, "boom", vec![], 10_000_000),
        call(ADDR_B, "hog", vec![], 100_000_000),
        call(ADDR_B, "spin", vec![], 200_000),
        // out of cycles while the module body / imports run
        call(ADDR_B, "run", vec![cbor::Value::Uint(3)], 5_000),
        call(ADDR_A, "increment", vec![], 1_000_000),
    ]
}

/// Run the sequence on a fresh store; `cold` clears the cache before every invocation.
fn run(tag: &str, cold: bool) -> (Vec<ExecResult>, Vec<cowboy_qmdb::Hash>) {
    let dir = std::env::temp_dir().join(format!(
        "cowboy-code-cache-test-{}-{tag}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let mut db = Db::open(&dir, Config::default()).expect("open");
    let mut results = Vec::new();
    let mut roots = Vec::new();
    for r in sequence() {
        if cold {
            codecache::clear();
        }
        results.push(execute(&mut db, &r));
        roots.push(db.commit().expect("commit").root);
    }
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
    (results, roots)
}

#[test]
fn cold_and_warm_cache_give_identical_outcomes() {
    let (cold, cold_roots) = run("cold", true);
    // sanity: the sequence exercises successes and each kind of failure
    let kinds: Vec<Option<&str>> = cold
        .iter()
        .map(|r| r.error.as_ref().map(|e| e.kind.as_str()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            Some("KeyError"),
            Some("MemoryError"),
            Some("OutOfCycles"),
            Some("OutOfCycles"),
            None,
        ]
    );
    let before = codecache::stats();
    let (warm, warm_roots) = run("warm", false);
    let after = codecache::stats();
    assert!(
        after.hits > before.hits + 10,
        "the warm run hit the cache: {before:?} -> {after:?}"
    );
    for (i, (c, w)) in cold.iter().zip(&warm).enumerate() {
        assert_eq!(
            c, w,
            "invocation {i} differs between a cold and a warm cache"
        );
    }
    assert_eq!(cold.len(), warm.len());
    assert_eq!(cold_roots, warm_roots);
    // and a third run, cold again, after the warm one
    let (again, again_roots) = run("again", true);
    assert_eq!(cold, again);
    assert_eq!(cold_roots, again_roots);
    // with caching disabled every compile is the compiler's own output (the behaviour before
    // the cache existed): still identical
    let cap = codecache::capacity();
    codecache::set_capacity(0);
    let (off, off_roots) = run("off", false);
    codecache::set_capacity(cap);
    assert_eq!(codecache::stats().entries, 0);
    assert_eq!(cold, off);
    assert_eq!(cold_roots, off_roots);
}
