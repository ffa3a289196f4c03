use pvm_core::bytecode::Code;
use pvm_core::value::Value;
fn dump(c: &Code, ind: usize) {
    println!("{}== {} ==", " ".repeat(ind), c.name);
    for (i, ins) in c.instrs.iter().enumerate() {
        println!("{}{:3} L{} {:?}  cost={}", " ".repeat(ind), i, c.lines[i], ins, pvm_core::cost::instr_cost(ins));
    }
    for k in &c.consts { if let Value::Code(cc) = k { dump(cc, ind + 2); } }
}
#[test]
fn dis() {
    let src = std::fs::read_to_string("/tmp/dis/src.py").unwrap();
    let c = pvm_core::compile::compile_module(&src, "actor.py").unwrap();
    dump(&c, 0);
}
