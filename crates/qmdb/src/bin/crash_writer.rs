//! Writer process for the crash tests (`tests/crash.rs`): opens the store at `<dir>`, continues
//! the deterministic workload of `<seed>` from the store's current version up to `<last>`,
//! printing `<version> <root hex>` after every durable commit. The test kills it with SIGKILL
//! at random moments and checks recovery.
//!
//! With a fifth argument `rewind`, every version `v` with `workload::has_junk(v)` is first
//! committed as a junk block (printed `junk <v> <root>`) and rewound (`rewound <v-1> <root>`)
//! before the real block; a store found at a junk head on open is rewound first (printed
//! `reverted <v-1> <root>`; the junk block is then committed and rewound again).

#[path = "../../tests/common/workload.rs"]
#[allow(dead_code)]
mod workload;

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 && !(args.len() == 5 && args[4] == "rewind") {
        eprintln!("usage: qmdb-crash-writer <dir> <seed> <last-version> [rewind]");
        std::process::exit(2);
    }
    let seed: u64 = args[2].parse().expect("seed");
    let last: u64 = args[3].parse().expect("last version");
    let rewind = args.len() == 5;
    let mut db = match cowboy_qmdb::Db::open(&args[1], workload::crash_config()) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("open failed: {e}");
            std::process::exit(1);
        }
    };
    let mut out = std::io::stdout().lock();
    let mut say = |tag: &str, info: cowboy_qmdb::CommitInfo| {
        writeln!(
            out,
            "{tag}{} {}",
            info.version,
            cowboy_qmdb::to_hex(&info.root)
        )
        .expect("stdout");
        out.flush().expect("stdout");
    };
    say("opened ", db.commit_info(db.version()).expect("latest"));
    if rewind
        && db
            .get_committed(workload::JUNK_KEY)
            .expect("read")
            .is_some()
    {
        let info = db.rewind(db.version() - 1).expect("rewind");
        say("reverted ", info);
    }
    while db.version() < last {
        let v = db.version() + 1;
        if rewind && workload::has_junk(v) {
            workload::apply_db(&mut db, &workload::junk(seed, v));
            say("junk ", db.commit().expect("commit"));
            say("rewound ", db.rewind(v - 1).expect("rewind"));
        }
        workload::apply_db(&mut db, &workload::block(seed, v));
        say("", db.commit().expect("commit"));
    }
}
