use std::time::Instant;
const SDK: &str = include_str!("../../pvm-core/src/sdk/cowboy_sdk.py");
fn main() {
    let n = 300;
    let t = Instant::now();
    for _ in 0..n { let _ = pvm_core::compile::compile_uncached(SDK, "s.py").unwrap(); }
    println!("compile_uncached sdk: {:.1} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let c = pvm_core::compile::compile_uncached(SDK, "s.py").unwrap();
    let f = pvm_core::codecache::freeze(&c).unwrap();
    drop(c);
    let t = Instant::now();
    for _ in 0..n { let _ = pvm_core::codecache::thaw(&f, "s.py"); }
    println!("thaw sdk: {:.1} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let t = Instant::now();
    for _ in 0..n { let _ = pvm_core::compile::compile_module(SDK, "s.py").unwrap(); }
    println!("cached compile sdk: {:.1} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let l = pvm_core::Limits::default();
    let t = Instant::now();
    for _ in 0..n { let _ = pvm_core::run_program_here("x = 1\n", "m.py", &l); }
    println!("run_program_here x=1: {:.1} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let t = Instant::now();
    for _ in 0..n { let _ = pvm_core::vm::Vm::new(&l); }
    println!("Vm::new+drop: {:.1} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let t = Instant::now();
    for _ in 0..n { let _ = pvm_core::worker::run(|| 1); }
    println!("worker::run noop: {:.1} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    for src in ["x = 1\n", "import cowboy_sdk\n", "import json\n", "import decimal\n"] {
        let _ = pvm_core::run_program(src, "m.py", &l);
        let t = Instant::now();
        for _ in 0..n { let o = pvm_core::run_program(src, "m.py", &l); assert!(o.error.is_none() || src.contains("cowboy"), "{:?}", o.error); }
        println!("run_program {src:?}: {:.1} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
}
#[allow(dead_code)]
fn unused() {}
