//! Run a Python file on the PVM and print its output; on an uncaught error print the traceback
//! and a final `!! Type: message` line (the corpus format). Cycles and cells go to stderr.
//!
//! Usage: `pvm_run [--cycles N] file.py` (default budget: `Limits::default()`).

fn main() {
    let mut args = std::env::args().skip(1);
    let mut limits = pvm_core::Limits::default();
    let mut path = String::new();
    while let Some(a) = args.next() {
        if a == "--cycles" {
            limits.cycles = args
                .next()
                .and_then(|n| n.replace('_', "").parse().ok())
                .unwrap_or(limits.cycles);
        } else {
            path = a;
        }
    }
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let out = pvm_core::run_program(&src, &path, &limits);
    print!("{}", out.stdout);
    if let Some(e) = &out.error {
        eprintln!("Traceback (most recent call last):");
        for l in &e.traceback {
            eprintln!("  {l}");
        }
        if e.message.is_empty() {
            println!("!! {}", e.type_name);
        } else {
            println!("!! {}: {}", e.type_name, e.message);
        }
    }
    eprintln!("cycles={} cells={}", out.cycles_used, out.cells_used);
}
