use std::time::Instant;
fn t(name: &str, src: &str) {
    let n = 200;
    let s = Instant::now();
    for _ in 0..n { let _ = pvm_core::compile::compile_module(src, "x").unwrap(); }
    println!("{name}: {} lines {:.1} us", src.lines().count(), s.elapsed().as_secs_f64() / n as f64 * 1e6);
}
fn main() {
    let sdk = pvm_core::host::COWBOY_SDK_SOURCE;
    t("sdk", sdk);
    let half: String = sdk.lines().take(150).collect::<Vec<_>>().join("\n");
    t("half", &half);
    let defs: String = (0..100).map(|i| format!("def f{i}(x):\n    return x\n")).collect();
    t("100 defs", &defs);
    let classes: String = (0..20).map(|i| format!("class C{i}:\n    def a(self):\n        return 1\n    def b(self):\n        return 2\n")).collect();
    t("20 classes", &classes);
    let props: String = (0..20).map(|i| format!("class C{i}:\n    @property\n    def a(self):\n        return 1\n")).collect();
    t("20 props", &props);
}
