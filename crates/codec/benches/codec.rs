//! Release-mode throughput of the codec and signatures (no external harness):
//! `cargo bench -p cowboy-codec`. Prints wall and CPU ns/op (CPU time stays meaningful when
//! other processes share the cores) and ops/s.

use cowboy_codec::*;
use std::hint::black_box;
use std::time::Instant;

fn transfer(nonce: u64, from: Address) -> Transaction {
    Transaction {
        chain_id: 42,
        nonce,
        instruction: Instruction::Transfer {
            to: Address([0x22; 20]),
            amount: 1,
        },
        cycles_limit: 50_000,
        cells_limit: 50_000,
        max_fee_per_cycle: 1,
        max_fee_per_cell: 1,
        max_priority_fee_per_cycle: 0,
        max_priority_fee_per_cell: 0,
        from,
        access_list: None,
        metadata: vec![],
        origin_tx_hash: None,
        origin_remaining_cycles: None,
        origin_remaining_cells: None,
        signature: ZERO_SIGNATURE,
        additional_signers: vec![],
    }
}

/// CPU time (user + system) of this process in nanoseconds, from /proc (Linux; 10 ms ticks).
/// Robust against other processes sharing the cores, unlike wall time.
fn cpu_ns() -> Option<u128> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u128 = f.get(11)?.parse::<u128>().ok()? + f.get(12)?.parse::<u128>().ok()?;
    Some(ticks * 10_000_000)
}

fn report(name: &str, ops: usize, wall: std::time::Duration, cpu0: Option<u128>) {
    let wall_ns = wall.as_nanos() as f64 / ops as f64;
    let cpu = match (cpu0, cpu_ns()) {
        (Some(a), Some(b)) => format!("{:>10.0}", (b - a) as f64 / ops as f64),
        _ => format!("{:>10}", "n/a"),
    };
    println!(
        "| {name:<38} | {wall_ns:>10.0} | {cpu} | {:>12.0} |",
        1e9 / wall_ns
    );
}

fn time(name: &str, iters: usize, mut f: impl FnMut(usize)) {
    for i in 0..iters.min(100) {
        f(i);
    }
    let cpu0 = cpu_ns();
    let t = Instant::now();
    for i in 0..iters {
        f(i);
    }
    report(name, iters, t.elapsed(), cpu0);
}

fn main() {
    let key = SecretKey::from_bytes(&[0x11; 32]).unwrap();
    let from = key.address();
    let txs: Vec<Transaction> = (0..4096)
        .map(|n| sign(&transfer(n, from), &key).unwrap())
        .collect();
    let encoded: Vec<Vec<u8>> = txs.iter().map(Canonical::encode).collect();
    let n = txs.len();
    println!(
        "| operation (transfer tx, {} B)         | wall ns/op |  CPU ns/op |  ops/s (wall) |",
        encoded[0].len()
    );
    println!("|----------------------------------------|-----------:|-----------:|-------------:|");
    time("encode", 3_000_000, |i| {
        black_box(txs[i % n].encode());
    });
    time("decode (strict)", 2_000_000, |i| {
        black_box(Transaction::decode(&encoded[i % n]).unwrap());
    });
    time("signing_hash", 600_000, |i| {
        black_box(txs[i % n].signing_hash());
    });
    time("sign", 4_000, |i| {
        black_box(sign(&txs[i % n], &key).unwrap());
    });
    time("recover_signer", 12_000, |i| {
        black_box(recover_signer(&txs[i % n]).unwrap());
    });
    time("verify", 12_000, |i| {
        assert!(black_box(verify(&txs[i % n])).is_ok());
    });
    time("decode + verify", 12_000, |i| {
        let tx = Transaction::decode(&encoded[i % n]).unwrap();
        assert!(black_box(verify(&tx)).is_ok());
    });
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let rounds = 5;
    let cpu0 = cpu_ns();
    let t = Instant::now();
    for _ in 0..rounds {
        let r = verify_batch(&txs);
        assert!(r.iter().all(Result::is_ok));
    }
    report(
        &format!("verify_batch ({cores} cores, per tx)"),
        rounds * n,
        t.elapsed(),
        cpu0,
    );
    let cpu0 = cpu_ns();
    let t = Instant::now();
    for _ in 0..rounds {
        black_box(recover_batch(&txs));
    }
    report(
        &format!("recover_batch ({cores} cores, per tx)"),
        rounds * n,
        t.elapsed(),
        cpu0,
    );
    let leaves: Vec<Hash32> = txs.iter().map(Transaction::digest).collect();
    time("merkle_root of 4096 digests", 50, |_| {
        black_box(merkle_root(&leaves));
    });
}
