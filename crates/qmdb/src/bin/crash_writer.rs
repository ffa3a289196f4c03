//! Writer process for the crash test (`tests/crash.rs`): opens the store at `<dir>`, continues
//! the deterministic workload of `<seed>` from the store's current version up to `<last>`,
//! printing `<version> <root hex>` after every durable commit. The test kills it with SIGKILL
//! at random moments and checks recovery.

#[path = "../../tests/common/workload.rs"]
#[allow(dead_code)]
mod workload;

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: qmdb-crash-writer <dir> <seed> <last-version>");
        std::process::exit(2);
    }
    let seed: u64 = args[2].parse().expect("seed");
    let last: u64 = args[3].parse().expect("last version");
    let mut db = match cowboy_qmdb::Db::open(&args[1], workload::crash_config()) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("open failed: {e}");
            std::process::exit(1);
        }
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "opened {} {}",
        db.version(),
        cowboy_qmdb::to_hex(&db.root())
    )
    .expect("stdout");
    out.flush().expect("stdout");
    while db.version() < last {
        let v = db.version() + 1;
        workload::apply_db(&mut db, &workload::block(seed, v));
        let info = db.commit().expect("commit");
        writeln!(out, "{} {}", info.version, cowboy_qmdb::to_hex(&info.root)).expect("stdout");
        out.flush().expect("stdout");
    }
}
