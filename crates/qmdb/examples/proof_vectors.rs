//! Prints state-proof test vectors as JSON. The vectors are copied into
//! `ts/sdk/test/state-proof.test.ts` and turned into `python/tests/vectors/state-proofs.json` by
//! `python/tests/vectors/gen_state_proofs.ts` (its header has the commands).
//! The store content is deterministic, so the output is identical on every run.

use cowboy_qmdb::{Config, Db, empty_root, keys, to_hex};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn main() {
    let dir = std::env::temp_dir().join(format!("qmdb-vectors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut db = Db::open(&dir, Config::default()).expect("open");
    let mut out: Vec<String> = Vec::new();
    let mut case = |db: &Db, name: &str, key: &[u8]| {
        let p = db.prove(key).expect("prove");
        let v = p.verify(&db.root(), key).expect("verify");
        out.push(format!(
            "    {{\"name\": \"{name}\", \"root\": \"{}\", \"key\": \"{}\", \"proof\": \"{}\", \"value\": {}}}",
            to_hex(&db.root()),
            hex(key),
            hex(&p.encode()),
            v.map(|v| format!("\"{}\"", hex(&v))).unwrap_or_else(|| "null".into())
        ));
    };
    case(&db, "empty store (no operations)", b"anything");
    assert_eq!(db.root(), empty_root());
    db.put(b"solo", b"1").expect("put");
    db.commit().expect("commit");
    case(&db, "single key inclusion", b"solo");
    case(&db, "single key exclusion below", b"a");
    case(&db, "single key exclusion above", b"z");
    db.delete(b"solo").expect("delete");
    db.commit().expect("commit");
    case(&db, "emptied store (commit witness)", b"solo");
    for i in 0..700u64 {
        let mut a = [0u8; 20];
        a[..8].copy_from_slice(&(i * 2654435761).to_le_bytes());
        db.put(
            &keys::account(&a),
            &keys::Account {
                balance: u128::from(i) * 1000,
                nonce: i,
                ..Default::default()
            }
            .encode(),
        )
        .expect("put");
        db.put(
            &keys::actor_storage(keys::VM_NS_PVM, &a, b"count").expect("key"),
            &i.to_le_bytes(),
        )
        .expect("put");
        if i % 100 == 99 {
            db.commit().expect("commit");
        }
    }
    for i in 0..700u64 {
        if i % 3 == 0 {
            let mut a = [0u8; 20];
            a[..8].copy_from_slice(&(i * 2654435761).to_le_bytes());
            db.delete(&keys::actor_storage(keys::VM_NS_PVM, &a, b"count").expect("key"))
                .expect("delete");
        }
    }
    db.commit().expect("commit");
    let mut a = [0u8; 20];
    a[..8].copy_from_slice(&(5u64 * 2654435761).to_le_bytes());
    case(&db, "account inclusion", &keys::account(&a));
    case(
        &db,
        "storage inclusion",
        &keys::actor_storage(keys::VM_NS_PVM, &a, b"count").expect("key"),
    );
    case(
        &db,
        "storage exclusion (other key)",
        &keys::actor_storage(keys::VM_NS_PVM, &a, b"other").expect("key"),
    );
    a[..8].copy_from_slice(&(6u64 * 2654435761).to_le_bytes());
    case(
        &db,
        "storage exclusion (deleted key)",
        &keys::actor_storage(keys::VM_NS_PVM, &a, b"count").expect("key"),
    );
    case(&db, "exclusion before the smallest key", &[0x00]);
    case(&db, "exclusion after the largest key (wrap)", &[0xff, 0xff]);
    case(
        &db,
        "governance exclusion",
        &keys::governance(b"basefee_alpha").expect("key"),
    );
    println!("{{\n  \"vectors\": [\n{}\n  ]\n}}", out.join(",\n"));
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}
