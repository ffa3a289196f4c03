//! The example actors of `examples/` run against a real state store: a token with
//! allowances, an escrow, an auction closed by its timer, a DCA bot that reschedules itself
//! and a lottery drawn with the beacon.

use cowboy_cbor::{self as cbor, Value as V};
use cowboy_qmdb::{Config, Db, keys};
use cowboy_runtime::{Effect, ExecContext, ExecKind, ExecRequest, ExecResult, execute};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

const TOKEN: &str = include_str!("../../../examples/token.py");
const ESCROW: &str = include_str!("../../../examples/escrow.py");
const AUCTION: &str = include_str!("../../../examples/auction.py");
const DCA: &str = include_str!("../../../examples/dca.py");
const LOTTERY: &str = include_str!("../../../examples/lottery.py");

const ACTOR: [u8; 20] = [0xac; 20];
const ALICE: [u8; 20] = [0xa1; 20];
const BOB: [u8; 20] = [0xb0; 20];
const CAROL: [u8; 20] = [0xc0; 20];

struct Env {
    db: Option<Db>,
    dir: PathBuf,
    height: u64,
    invocations: u32,
}

impl Env {
    fn new() -> Env {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "cowboy-runtime-examples-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let db = Db::open(&dir, Config::default()).expect("open");
        Env {
            db: Some(db),
            dir,
            height: 100,
            invocations: 0,
        }
    }

    fn db(&mut self) -> &mut Db {
        self.db.as_mut().expect("open")
    }

    fn balance(&mut self) -> u128 {
        match self.db().get(&keys::account(&ACTOR)).unwrap() {
            Some(raw) => keys::Account::decode(&raw).unwrap().balance,
            None => 0,
        }
    }

    /// Credit the actor the way the state transition does before running a message with value.
    fn credit(&mut self, amount: u64) {
        let bal = self.balance() + amount as u128;
        let acc = keys::Account {
            balance: bal,
            ..Default::default()
        };
        self.db()
            .put(&keys::account(&ACTOR), &acc.encode())
            .unwrap();
    }

    /// Apply the value of `send` effects (what the state transition does on delivery).
    fn debit_sends(&mut self, r: &ExecResult) {
        let out: u64 = r
            .effects
            .iter()
            .map(|e| match e {
                Effect::Send { value, .. } => *value,
                _ => 0,
            })
            .sum();
        let bal = self.balance() - out as u128;
        let acc = keys::Account {
            balance: bal,
            ..Default::default()
        };
        self.db()
            .put(&keys::account(&ACTOR), &acc.encode())
            .unwrap();
    }

    fn run(&mut self, kind: ExecKind, sender: [u8; 20], value: u64, args: Vec<V>) -> ExecResult {
        if value > 0 {
            self.credit(value);
        }
        self.invocations += 1;
        let mut inv = [0u8; 32];
        inv[..4].copy_from_slice(&self.invocations.to_be_bytes());
        let req = ExecRequest {
            kind,
            actor: ACTOR,
            args: cbor::encode(&V::Array(args)).unwrap(),
            context: ExecContext {
                sender,
                origin: sender,
                value,
                height: self.height,
                timestamp: self.height * 2,
                chain_id: 1,
                beacon: [self.height as u8; 32],
                invocation_id: inv,
                depth: 0,
            },
            cycles_limit: 5_000_000,
            cells_limit: 1_000_000,
        };
        let r = execute(self.db(), &req);
        if r.ok {
            self.debit_sends(&r);
            self.db().commit().unwrap();
        }
        r
    }

    fn deploy(&mut self, code: &str, sender: [u8; 20], value: u64, args: Vec<V>) -> ExecResult {
        let r = self.run(
            ExecKind::Deploy {
                code: code.to_string(),
            },
            sender,
            value,
            args,
        );
        assert!(r.ok, "deploy failed: {:?}", r.error);
        r
    }

    fn call(&mut self, h: &str, sender: [u8; 20], value: u64, args: Vec<V>) -> ExecResult {
        self.run(ExecKind::Call { handler: h.into() }, sender, value, args)
    }

    fn ok(&mut self, h: &str, sender: [u8; 20], value: u64, args: Vec<V>) -> (V, ExecResult) {
        let r = self.call(h, sender, value, args);
        assert!(r.ok, "{h} failed: {:?}", r.error);
        (cbor::decode(r.result.as_ref().unwrap()).unwrap(), r)
    }

    fn fails(&mut self, h: &str, sender: [u8; 20], value: u64, args: Vec<V>) -> String {
        let r = self.call(h, sender, value, args);
        assert!(!r.ok, "{h} should fail");
        assert!(r.effects.is_empty());
        r.error.unwrap().kind
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        drop(self.db.take());
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn b(a: &[u8]) -> V {
    V::Bytes(a.to_vec())
}

fn u(n: u64) -> V {
    V::Uint(n)
}

fn t(s: &str) -> V {
    V::Text(s.into())
}

fn sends(r: &ExecResult) -> Vec<(Vec<u8>, String, u64)> {
    r.effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send {
                to, handler, value, ..
            } => Some((to.to_vec(), handler.clone(), *value)),
            _ => None,
        })
        .collect()
}

#[test]
fn token_with_allowances() {
    let mut e = Env::new();
    let d = e.deploy(
        TOKEN,
        ALICE,
        0,
        vec![t("Cowboy Dollar"), t("CBD"), u(1_000)],
    );
    assert_eq!(d.effects.len(), 1);
    assert_eq!(e.ok("balance_of", BOB, 0, vec![b(&ALICE)]).0, u(1_000));
    assert_eq!(
        e.ok("transfer", ALICE, 0, vec![b(&BOB), u(300)]).0,
        V::Bool(true)
    );
    assert_eq!(e.ok("balance_of", BOB, 0, vec![b(&ALICE)]).0, u(700));
    assert_eq!(e.ok("balance_of", BOB, 0, vec![b(&BOB)]).0, u(300));
    assert_eq!(
        e.fails("transfer", BOB, 0, vec![b(&CAROL), u(301)]),
        "InsufficientFunds"
    );
    assert_eq!(
        e.fails("transfer", BOB, 0, vec![b(&CAROL), u(0)]),
        "InvalidArgument"
    );
    assert_eq!(
        e.fails("transfer", BOB, 0, vec![b(&[1, 2]), u(1)]),
        "InvalidArgument"
    );
    // allowances
    e.ok("approve", ALICE, 0, vec![b(&CAROL), u(100)]);
    assert_eq!(
        e.ok("allowance", BOB, 0, vec![b(&ALICE), b(&CAROL)]).0,
        u(100)
    );
    assert_eq!(
        e.fails(
            "transfer_from",
            CAROL,
            0,
            vec![b(&ALICE), b(&CAROL), u(101)]
        ),
        "InsufficientFunds"
    );
    e.ok("transfer_from", CAROL, 0, vec![b(&ALICE), b(&CAROL), u(60)]);
    assert_eq!(
        e.ok("allowance", BOB, 0, vec![b(&ALICE), b(&CAROL)]).0,
        u(40)
    );
    assert_eq!(e.ok("balance_of", BOB, 0, vec![b(&CAROL)]).0, u(60));
    assert_eq!(e.ok("balance_of", BOB, 0, vec![b(&ALICE)]).0, u(640));
    assert_eq!(
        e.fails("transfer_from", BOB, 0, vec![b(&ALICE), b(&BOB), u(1)]),
        "InsufficientFunds"
    );
    assert_eq!(e.ok("total_supply", BOB, 0, vec![]).0, u(1_000));
    assert_eq!(e.fails("_move", ALICE, 0, vec![]), "HandlerNotFound");
    let (_, r) = e.ok("transfer", CAROL, 0, vec![b(&BOB), u(60)]);
    assert!(
        matches!(&r.effects[0], Effect::Event { topics, .. } if topics == &vec![b"Transfer".to_vec()])
    );
}

#[test]
fn escrow_release_and_refund() {
    let mut e = Env::new();
    // deploying without the payment fails
    let r = e.run(
        ExecKind::Deploy {
            code: ESCROW.into(),
        },
        ALICE,
        0,
        vec![b(&BOB), b(&CAROL)],
    );
    assert_eq!(r.error.unwrap().kind, "InvalidArgument");
    e.deploy(ESCROW, ALICE, 500, vec![b(&BOB), b(&CAROL)]);
    assert_eq!(e.fails("release", BOB, 0, vec![]), "Unauthorized");
    assert_eq!(e.fails("refund", ALICE, 0, vec![]), "Unauthorized");
    let (_, r) = e.ok("release", CAROL, 0, vec![]);
    assert_eq!(sends(&r), vec![(BOB.to_vec(), "receive".to_string(), 500)]);
    assert_eq!(e.balance(), 0);
    assert_eq!(e.fails("refund", CAROL, 0, vec![]), "ActorError");
    let (s, _) = e.ok("status", ALICE, 0, vec![]);
    let V::Map(m) = s else { panic!() };
    assert!(m.contains(&(t("state"), t("released"))));
}

#[test]
fn auction_closes_at_its_timer() {
    let mut e = Env::new();
    let d = e.deploy(AUCTION, ALICE, 0, vec![t("painting"), u(10), u(50)]);
    let Effect::SetTimer {
        fire_at, handler, ..
    } = &d.effects[0]
    else {
        panic!("no timer: {:?}", d.effects)
    };
    assert_eq!((*fire_at, handler.as_str()), (110, "close"));
    assert_eq!(e.fails("bid", BOB, 40, vec![]), "InvalidArgument");
    // the failed bid's value stays with the actor here; the state transition refunds it
    let before = e.balance();
    let (_, r) = e.ok("bid", BOB, 60, vec![]);
    assert!(sends(&r).is_empty());
    let (_, r) = e.ok("bid", CAROL, 80, vec![]);
    assert_eq!(sends(&r), vec![(BOB.to_vec(), "refund".to_string(), 60)]);
    assert_eq!(e.balance(), before + 80);
    assert_eq!(e.fails("close", ALICE, 0, vec![]), "ActorError");
    e.height = 110;
    assert_eq!(e.fails("bid", BOB, 90, vec![]), "ActorError");
    // the timer fires: a call of `close` with the timer's data
    let (w, r) = e.ok("close", ACTOR, 0, vec![V::Null]);
    assert_eq!(w, b(&CAROL));
    assert_eq!(
        sends(&r),
        vec![(ALICE.to_vec(), "proceeds".to_string(), 80)]
    );
    assert_eq!(e.fails("close", ACTOR, 0, vec![V::Null]), "ActorError");
}

#[test]
fn dca_bot_reschedules_itself() {
    let mut e = Env::new();
    let exchange = [0xee; 20];
    e.credit(1_000);
    let d = e.deploy(DCA, ALICE, 0, vec![b(&exchange), u(5), u(100), u(3)]);
    let fire = |r: &ExecResult| -> u64 {
        r.effects
            .iter()
            .find_map(|x| match x {
                Effect::SetTimer { fire_at, .. } => Some(*fire_at),
                _ => None,
            })
            .expect("a timer")
    };
    let mut next = fire(&d);
    assert_eq!(next, 105);
    assert_eq!(e.fails("buy", ACTOR, 0, vec![V::Null]), "ActorError");
    for round in 1..=3u64 {
        e.height = next;
        let (v, r) = e.ok("buy", ACTOR, 0, vec![V::Null]);
        assert_eq!(v, u(round));
        assert_eq!(
            sends(&r),
            vec![(exchange.to_vec(), "swap".to_string(), 100)]
        );
        if round < 3 {
            next = fire(&r);
            assert_eq!(next, e.height + 5);
        } else {
            assert!(
                !r.effects
                    .iter()
                    .any(|x| matches!(x, Effect::SetTimer { .. }))
            );
        }
    }
    assert_eq!(e.balance(), 700);
    let (p, _) = e.ok("progress", ALICE, 0, vec![]);
    assert_eq!(p, V::Map(vec![(t("done"), u(3)), (t("left"), u(0))]));
}

#[test]
fn dca_bot_stop_cancels_its_timer() {
    let mut e = Env::new();
    let d = e.deploy(DCA, ALICE, 0, vec![b(&[0xee; 20]), u(5), u(100), u(3)]);
    let Effect::SetTimer { id, .. } = d.effects[0].clone() else {
        panic!()
    };
    assert_eq!(e.fails("stop", BOB, 0, vec![]), "Unauthorized");
    let (_, r) = e.ok("stop", ALICE, 0, vec![]);
    assert_eq!(r.effects, vec![Effect::CancelTimer { id }]);
    e.height = 105;
    assert_eq!(e.ok("buy", ACTOR, 0, vec![V::Null]).0, u(0));
}

#[test]
fn lottery_draws_with_the_beacon() {
    let mut e = Env::new();
    e.deploy(LOTTERY, ALICE, 0, vec![u(10), u(120)]);
    assert_eq!(e.ok("enter", ALICE, 10, vec![]).0, u(1));
    assert_eq!(e.ok("enter", BOB, 10, vec![]).0, u(2));
    assert_eq!(e.fails("enter", BOB, 10, vec![]), "InvalidArgument");
    assert_eq!(e.fails("enter", CAROL, 5, vec![]), "InvalidArgument");
    assert_eq!(e.ok("enter", CAROL, 10, vec![]).0, u(3));
    assert_eq!(e.fails("draw", ALICE, 0, vec![]), "ActorError");
    e.height = 120;
    let (w, r) = e.ok("draw", BOB, 0, vec![]);
    let V::Bytes(w) = w else { panic!() };
    assert!([ALICE, BOB, CAROL].iter().any(|p| p[..] == w[..]));
    assert_eq!(sends(&r), vec![(w.clone(), "prize".to_string(), 30)]);
    assert_eq!(e.fails("draw", ALICE, 0, vec![]), "ActorError");
}

const ORACLE: &str = include_str!("../../../examples/oracle.py");

#[test]
fn oracle_consumer_with_a_runner_job_and_a_timeout() {
    let mut e = Env::new();
    let verifier = {
        let mut a = [0u8; 20];
        a[19] = 3;
        a
    };
    e.deploy(
        ORACLE,
        ALICE,
        0,
        vec![t("https://prices.example/cby"), u(50)],
    );
    // the job's max price is escrowed from the actor's balance: none yet
    assert_eq!(e.fails("request", ALICE, 0, vec![]), "ValueError");
    e.credit(200);
    assert_eq!(e.fails("request", BOB, 0, vec![]), "Unauthorized");
    let (job, r) = e.ok("request", ALICE, 0, vec![]);
    let V::Bytes(job) = job else { panic!() };
    let Effect::Job {
        id,
        job_type,
        spec,
        callback,
        max_price,
        tip,
        timeout_blocks,
    } = r.effects[0].clone()
    else {
        panic!("{:?}", r.effects)
    };
    assert_eq!(id.to_vec(), job);
    assert_eq!(
        (
            job_type.as_str(),
            callback.as_str(),
            max_price,
            tip,
            timeout_blocks
        ),
        ("http", "on_price", 50, 0, 20)
    );
    let V::Map(spec) = cbor::decode(&spec).unwrap() else {
        panic!()
    };
    assert!(spec.contains(&(t("url"), t("https://prices.example/cby"))));
    let Effect::SetTimer {
        id: timer, fire_at, ..
    } = r.effects[1].clone()
    else {
        panic!()
    };
    assert_eq!(fire_at, e.height + 30);
    assert_eq!(e.fails("request", ALICE, 0, vec![]), "ActorError");
    let result = V::Map(vec![(t("price"), u(1234))]);
    // only the Result Verifier delivers results, only for a pending job
    assert_eq!(
        e.fails("on_price", BOB, 0, vec![b(&job), result.clone()]),
        "Unauthorized"
    );
    assert_eq!(
        e.fails("on_price", verifier, 0, vec![b(&[0; 32]), result.clone()]),
        "NotFound"
    );
    e.height += 3;
    let (p, r) = e.ok("on_price", verifier, 0, vec![b(&job), result.clone()]);
    assert_eq!(p, u(1234));
    assert_eq!(r.effects[0], Effect::CancelTimer { id: timer });
    assert_eq!(
        e.ok("price", BOB, 0, vec![]).0,
        V::Array(vec![u(1234), u(e.height)])
    );
    assert_eq!(
        e.fails("on_price", verifier, 0, vec![b(&job), result]),
        "NotFound"
    );
    // a request that times out
    let (job2, r) = e.ok("request", ALICE, 0, vec![]);
    let Effect::SetTimer { fire_at, .. } = r.effects[1].clone() else {
        panic!()
    };
    assert_eq!(
        e.fails("on_timeout", BOB, 0, vec![job2.clone()]),
        "ActorError"
    );
    e.height = fire_at;
    assert_eq!(
        e.ok("on_timeout", ACTOR, 0, vec![job2.clone()]).0,
        V::Bool(true)
    );
    assert_eq!(e.ok("on_timeout", ACTOR, 0, vec![job2]).0, V::Bool(false));
}
