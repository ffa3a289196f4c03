//! Benchmark driver: `pvm_bench [--cycles N] FILE.py` runs FILE in the PVM with metering on
//! and a cycle budget of N (default 10^12), prints the program's stdout exactly, and exits 1
//! (with `Type: message` on stderr) if the program failed. Used by `bench/pvm/run.py`.
//!
//! It uses mimalloc like the addon (crates/napi/src/runtime.rs), so it measures the allocator
//! the product runs with; allocation never influences results (the PVM's heap accounting
//! counts object sizes, not allocator bytes).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut cycles: u64 = 1_000_000_000_000;
    let mut path = None;
    while let Some(arg) = args.next() {
        if arg == "--cycles" {
            cycles = match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => n,
                None => {
                    eprintln!("pvm_bench: --cycles needs a number");
                    std::process::exit(2);
                }
            };
        } else {
            path = Some(arg);
        }
    }
    let Some(path) = path else {
        eprintln!("usage: pvm_bench [--cycles N] FILE.py");
        std::process::exit(2);
    };
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pvm_bench: cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let limits = pvm_core::Limits {
        cycles,
        ..pvm_core::Limits::default()
    };
    let out = pvm_core::run_program(&source, &path, &limits);
    print!("{}", out.stdout);
    if let Some(e) = out.error {
        eprintln!("{}: {}", e.type_name, e.message);
        std::process::exit(1);
    }
    eprintln!("cycles={} cells={}", out.cycles_used, out.cells_used);
}
