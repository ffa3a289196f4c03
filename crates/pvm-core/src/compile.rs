//! Compiler: Python 3.11 AST (from `ruff_python_parser`) to PVM bytecode.

use crate::bytecode::{BinOp, CmpOp, Code, CodeKind, Instr, UnOp};
use crate::symtable::{self, NameKind, Scope, ScopeKind, SymTable};
use crate::value::Value;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use std::collections::HashMap;
use std::rc::Rc;

/// A compile-time error (reported as SyntaxError).
#[derive(Debug, Clone)]
pub struct CompileError {
    /// Message.
    pub msg: String,
    /// 1-based line.
    pub line: u32,
}

/// Maximum nesting of expressions/statements the compiler accepts.
const MAX_NEST: u32 = 400;

/// Parse and compile a module, through the process-wide [`crate::codecache`]: repeated
/// sources skip parsing and compiling. The result is a fresh code tree (own constants, empty
/// inline caches) indistinguishable from [`compile_uncached`]'s.
pub fn compile_module(source: &str, filename: &str) -> Result<Rc<Code>, CompileError> {
    crate::codecache::compile(source, filename)
}

/// Compiler options for embedders (test runners). The default is what actors get; it is the
/// only setting [`compile_module`] and the code cache ever use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompileOptions {
    /// Assertion introspection (pytest style): a failing `assert a OP b` raises
    /// `AssertionError("assert <repr(a)> OP <repr(b)>")` with each operand evaluated exactly
    /// once; any other failing `assert e` raises `AssertionError("assert <repr(e)>")`. A
    /// user message comes first, on its own line.
    pub assert_introspection: bool,
}

/// [`compile_module`] with `opts`; non-default options bypass the code cache.
pub fn compile_module_with(
    source: &str,
    filename: &str,
    opts: CompileOptions,
) -> Result<Rc<Code>, CompileError> {
    if opts == CompileOptions::default() {
        compile_module(source, filename)
    } else {
        compile_uncached_with(source, filename, opts)
    }
}

/// Parse and compile a module without consulting the cache.
pub fn compile_uncached(source: &str, filename: &str) -> Result<Rc<Code>, CompileError> {
    compile_uncached_with(source, filename, CompileOptions::default())
}

/// [`compile_uncached`] with `opts`.
pub fn compile_uncached_with(
    source: &str,
    filename: &str,
    options: CompileOptions,
) -> Result<Rc<Code>, CompileError> {
    let line_starts: Vec<u32> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i as u32 + 1))
        .collect();
    let line_of = |off: u32| -> u32 {
        match line_starts.binary_search(&off) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    };
    let opts = ruff_python_parser::ParseOptions::from(ast::PySourceType::Python)
        .with_target_version(ast::PythonVersion::PY311);
    let parsed = ruff_python_parser::parse(source, opts).map_err(|e| CompileError {
        msg: e.error.to_string(),
        line: line_of(e.location.start().to_u32()),
    })?;
    if let Some(u) = parsed.unsupported_syntax_errors().first() {
        return Err(CompileError {
            msg: u.to_string(),
            line: line_of(u.range.start().to_u32()),
        });
    }
    let module = match parsed.into_syntax() {
        ast::Mod::Module(m) => m,
        ast::Mod::Expression(_) => {
            return Err(CompileError {
                msg: "expected a module".into(),
                line: 1,
            });
        }
    };
    let st = symtable::analyse(&module.body).map_err(|m| CompileError { msg: m, line: 1 })?;
    let mut c = Compiler {
        source,
        line_starts: &line_starts,
        filename: Rc::from(filename),
        st: &st,
        units: Vec::new(),
        depth: 0,
        opts: options,
        future_annotations: crate::annotations::future_features(&module.body).map_err(
            |(msg, off)| CompileError {
                msg,
                line: line_of(off),
            },
        )?,
    };
    c.push_unit(0, "<module>".into(), "<module>".into(), CodeKind::Module, 1);
    if has_annotations(&module.body) {
        c.emit(Instr::SetupAnnotations);
    }
    c.stmts(&module.body)?;
    let k = c.const_(Value::None);
    c.emit(Instr::LoadConst(k));
    c.emit(Instr::ReturnValue);
    Ok(c.pop_unit())
}

enum FBlock<'a> {
    Loop {
        cont: usize,
        brk: usize,
        is_for: bool,
    },
    Try,
    Finally(&'a [Stmt]),
    With,
    Handler(Option<String>),
}

struct Unit<'a> {
    scope_key: usize,
    name: Rc<str>,
    qualname: Rc<str>,
    kind: CodeKind,
    instrs: Vec<Instr>,
    lines: Vec<u32>,
    consts: Vec<Value>,
    names: Vec<Rc<str>>,
    name_map: HashMap<String, u32>,
    varnames: Vec<Rc<str>>,
    var_map: HashMap<String, u32>,
    cellnames: Vec<Rc<str>>,
    cell_map: HashMap<String, u32>,
    ncells: usize,
    labels: Vec<Option<u32>>,
    fixups: Vec<(usize, usize)>,
    fblocks: Vec<FBlock<'a>>,
    line: u32,
    firstline: u32,
    argcount: u32,
    posonly: u32,
    kwonly: u32,
    varargs: bool,
    varkw: bool,
    doc: Option<Rc<str>>,
}

struct Compiler<'a> {
    source: &'a str,
    line_starts: &'a [u32],
    filename: Rc<str>,
    st: &'a SymTable,
    units: Vec<Unit<'a>>,
    depth: u32,
    opts: CompileOptions,
    /// `from __future__ import annotations`: annotations are stored as strings (PEP 563).
    future_annotations: bool,
}

type R = Result<(), CompileError>;

fn binop(op: ast::Operator) -> BinOp {
    use ast::Operator as O;
    match op {
        O::Add => BinOp::Add,
        O::Sub => BinOp::Sub,
        O::Mult => BinOp::Mul,
        O::MatMult => BinOp::MatMul,
        O::Div => BinOp::TrueDiv,
        O::Mod => BinOp::Mod,
        O::Pow => BinOp::Pow,
        O::LShift => BinOp::LShift,
        O::RShift => BinOp::RShift,
        O::BitOr => BinOp::Or,
        O::BitXor => BinOp::Xor,
        O::BitAnd => BinOp::And,
        O::FloorDiv => BinOp::FloorDiv,
    }
}

fn cmpop(op: ast::CmpOp) -> CmpOp {
    use ast::CmpOp as C;
    match op {
        C::Eq => CmpOp::Eq,
        C::NotEq => CmpOp::Ne,
        C::Lt => CmpOp::Lt,
        C::LtE => CmpOp::Le,
        C::Gt => CmpOp::Gt,
        C::GtE => CmpOp::Ge,
        C::Is => CmpOp::Is,
        C::IsNot => CmpOp::IsNot,
        C::In => CmpOp::In,
        C::NotIn => CmpOp::NotIn,
    }
}

impl<'a> Compiler<'a> {
    fn line_of(&self, off: u32) -> u32 {
        match self.line_starts.binary_search(&off) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    }
    fn err(&self, msg: impl Into<String>) -> CompileError {
        CompileError {
            msg: msg.into(),
            line: self.units.last().map_or(1, |u| u.line),
        }
    }
    fn u(&mut self) -> &mut Unit<'a> {
        self.units.last_mut().expect("unit")
    }
    fn scope(&self) -> &'a Scope {
        let k = self.units.last().expect("unit").scope_key;
        &self.st.scopes[&k]
    }
    fn push_unit(
        &mut self,
        key: usize,
        name: Rc<str>,
        qualname: Rc<str>,
        kind: CodeKind,
        line: u32,
    ) {
        let scope = &self.st.scopes[&key];
        let mut cellnames: Vec<Rc<str>> = Vec::new();
        let mut cell_map = HashMap::new();
        for c in &scope.cells {
            cell_map.insert(c.clone(), cellnames.len() as u32);
            cellnames.push(Rc::from(c.as_str()));
        }
        let ncells = cellnames.len();
        for f in &scope.frees {
            if !cell_map.contains_key(f) {
                cell_map.insert(f.clone(), cellnames.len() as u32);
                cellnames.push(Rc::from(f.as_str()));
            }
        }
        self.units.push(Unit {
            scope_key: key,
            name,
            qualname,
            kind,
            instrs: Vec::new(),
            lines: Vec::new(),
            consts: Vec::new(),
            names: Vec::new(),
            name_map: HashMap::new(),
            varnames: Vec::new(),
            var_map: HashMap::new(),
            cellnames,
            cell_map,
            ncells,
            labels: Vec::new(),
            fixups: Vec::new(),
            fblocks: Vec::new(),
            line,
            firstline: line,
            argcount: 0,
            posonly: 0,
            kwonly: 0,
            varargs: false,
            varkw: false,
            doc: None,
        });
    }
    fn pop_unit(&mut self) -> Rc<Code> {
        let mut u = self.units.pop().expect("unit");
        for &(at, label) in &u.fixups {
            let t = u.labels[label].expect("label bound");
            u.instrs[at] = match u.instrs[at] {
                Instr::Jump(_) => Instr::Jump(t),
                Instr::PopJumpIfFalse(_) => Instr::PopJumpIfFalse(t),
                Instr::PopJumpIfTrue(_) => Instr::PopJumpIfTrue(t),
                Instr::JumpIfFalseOrPop(_) => Instr::JumpIfFalseOrPop(t),
                Instr::JumpIfTrueOrPop(_) => Instr::JumpIfTrueOrPop(t),
                Instr::ForIter(_) => Instr::ForIter(t),
                Instr::SetupExcept(_) => Instr::SetupExcept(t),
                Instr::JumpIfNotExcMatch(_) => Instr::JumpIfNotExcMatch(t),
                other => other,
            };
        }
        let scope = &self.st.scopes[&u.scope_key];
        let mut cell_params = Vec::new();
        for (ci, name) in u.cellnames.iter().enumerate().take(u.ncells) {
            if let Some(&li) = u.var_map.get(&**name)
                && (li as usize) < scope.params.len()
            {
                cell_params.push((ci as u32, li));
            }
        }
        let caches = (0..u.instrs.len())
            .map(|_| std::cell::Cell::new(crate::bytecode::InlineCache::default()))
            .collect();
        Rc::new(Code {
            caches,
            name: u.name,
            qualname: u.qualname,
            filename: self.filename.clone(),
            kind: u.kind,
            instrs: u.instrs,
            lines: u.lines,
            consts: u.consts,
            name_hashes: u.names.iter().map(|n| crate::dict::str_hash(n)).collect(),
            names: u.names,
            varnames: u.varnames,
            cellnames: u.cellnames,
            ncells: u.ncells,
            cell_params,
            argcount: u.argcount,
            posonlycount: u.posonly,
            kwonlycount: u.kwonly,
            varargs: u.varargs,
            varkw: u.varkw,
            firstline: u.firstline,
            doc: u.doc,
        })
    }
    fn emit(&mut self, i: Instr) -> usize {
        let u = self.u();
        let line = u.line;
        u.instrs.push(i);
        u.lines.push(line);
        u.instrs.len() - 1
    }
    fn label(&mut self) -> usize {
        let u = self.u();
        u.labels.push(None);
        u.labels.len() - 1
    }
    fn bind(&mut self, l: usize) {
        let u = self.u();
        u.labels[l] = Some(u.instrs.len() as u32);
    }
    fn jump(&mut self, i: Instr, l: usize) {
        let at = self.emit(i);
        self.u().fixups.push((at, l));
    }
    fn const_(&mut self, v: Value) -> u32 {
        let u = self.u();
        // Dedupe simple constants.
        for (i, c) in u.consts.iter().enumerate() {
            let same = match (c, &v) {
                (Value::None, Value::None) => true,
                (Value::Bool(a), Value::Bool(b)) => a == b,
                (Value::Int(a), Value::Int(b)) => a == b,
                (Value::Str(a), Value::Str(b)) => a.s == b.s,
                _ => false,
            };
            if same {
                return i as u32;
            }
        }
        u.consts.push(v);
        (u.consts.len() - 1) as u32
    }
    fn str_const(&mut self, s: &str) -> u32 {
        self.const_(Value::str(s))
    }
    fn name(&mut self, n: &str) -> u32 {
        let u = self.u();
        if let Some(&i) = u.name_map.get(n) {
            return i;
        }
        let i = u.names.len() as u32;
        u.names.push(Rc::from(n));
        u.name_map.insert(n.to_string(), i);
        i
    }
    fn var(&mut self, n: &str) -> u32 {
        let u = self.u();
        if let Some(&i) = u.var_map.get(n) {
            return i;
        }
        let i = u.varnames.len() as u32;
        u.varnames.push(Rc::from(n));
        u.var_map.insert(n.to_string(), i);
        i
    }
    fn cell(&mut self, n: &str) -> Result<u32, CompileError> {
        match self.u().cell_map.get(n) {
            Some(&i) => Ok(i),
            None => Err(self.err(format!("internal: no cell for {n}"))),
        }
    }
    fn set_line(&mut self, r: ruff_text_size::TextRange) -> u32 {
        let l = self.line_of(r.start().to_u32());
        let u = self.u();
        std::mem::replace(&mut u.line, l)
    }
    fn enter(&mut self) -> R {
        self.depth += 1;
        if self.depth > MAX_NEST {
            return Err(self.err("too many nested expressions or statements"));
        }
        Ok(())
    }

    // ---- names ----
    fn load_name(&mut self, n: &str) -> R {
        let kind = self.scope().name_kind(n);
        match kind {
            NameKind::Local => {
                let i = self.var(n);
                self.emit(Instr::LoadFast(i));
            }
            NameKind::Cell | NameKind::Free => {
                let i = self.cell(n)?;
                self.emit(Instr::LoadDeref(i));
            }
            NameKind::Global => {
                let i = self.name(n);
                self.emit(Instr::LoadGlobal(i));
            }
            NameKind::Name => {
                let i = self.name(n);
                self.emit(Instr::LoadName(i));
            }
        }
        Ok(())
    }
    fn store_name(&mut self, n: &str) -> R {
        let scope = self.scope();
        let kind = if scope.kind == Some(ScopeKind::Class) && scope.nonlocals.contains(n) {
            NameKind::Free
        } else if scope.kind == Some(ScopeKind::Class) && !scope.globals.contains(n) {
            NameKind::Name
        } else {
            scope.name_kind(n)
        };
        match kind {
            NameKind::Local => {
                let i = self.var(n);
                self.emit(Instr::StoreFast(i));
            }
            NameKind::Cell | NameKind::Free => {
                let i = self.cell(n)?;
                self.emit(Instr::StoreDeref(i));
            }
            NameKind::Global => {
                let i = self.name(n);
                self.emit(Instr::StoreGlobal(i));
            }
            NameKind::Name => {
                let i = self.name(n);
                self.emit(Instr::StoreName(i));
            }
        }
        Ok(())
    }
    fn delete_name(&mut self, n: &str) -> R {
        let kind = self.scope().name_kind(n);
        match kind {
            NameKind::Local => {
                let i = self.var(n);
                self.emit(Instr::DeleteFast(i));
            }
            NameKind::Cell | NameKind::Free => {
                let k = self.const_(Value::None);
                self.emit(Instr::LoadConst(k));
                let i = self.cell(n)?;
                self.emit(Instr::StoreDeref(i));
            }
            NameKind::Global => {
                let i = self.name(n);
                self.emit(Instr::DeleteGlobal(i));
            }
            NameKind::Name => {
                let i = self.name(n);
                self.emit(Instr::DeleteName(i));
            }
        }
        Ok(())
    }

    // ---- statements ----
    fn stmts(&mut self, b: &'a [Stmt]) -> R {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &'a Stmt) -> R {
        self.enter()?;
        self.set_line(s.range());
        let r = self.stmt_inner(s);
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self, s: &'a Stmt) -> R {
        match s {
            Stmt::Expr(e) => {
                self.expr(&e.value)?;
                self.emit(Instr::Pop);
            }
            Stmt::Assign(a) => {
                self.expr(&a.value)?;
                let n = a.targets.len();
                for (i, t) in a.targets.iter().enumerate() {
                    if i + 1 < n {
                        self.emit(Instr::Dup);
                    }
                    self.assign(t)?;
                }
            }
            Stmt::AugAssign(a) => self.aug_assign(a)?,
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    self.expr(v)?;
                    self.assign(&a.target)?;
                }
                // In class bodies and at module level, `name: ann` records the evaluated
                // annotation in `__annotations__` (set up by `SetupAnnotations`).
                if let Expr::Name(n) = &*a.target
                    && a.simple
                    && matches!(self.u().kind, CodeKind::Module | CodeKind::Class)
                {
                    self.annotation_value(&a.annotation)?;
                    let ni = self.name("__annotations__");
                    self.emit(Instr::LoadName(ni));
                    let k = self.str_const(n.id.as_str());
                    self.emit(Instr::LoadConst(k));
                    self.emit(Instr::StoreSubscr);
                }
            }
            Stmt::Pass(_) => {}
            Stmt::Return(r) => {
                if self.u().kind == CodeKind::Module || self.u().kind == CodeKind::Class {
                    return Err(self.err("'return' outside function"));
                }
                match &r.value {
                    Some(v) => self.expr(v)?,
                    None => {
                        let k = self.const_(Value::None);
                        self.emit(Instr::LoadConst(k));
                    }
                }
                self.unwind_fblocks(true, None)?;
                self.emit(Instr::ReturnValue);
            }
            Stmt::If(i) => {
                let end = self.label();
                let mut next = self.label();
                self.cond_jump(&i.test, false, next)?;
                self.stmts(&i.body)?;
                if !i.elif_else_clauses.is_empty() {
                    self.jump(Instr::Jump(0), end);
                }
                let n = i.elif_else_clauses.len();
                for (ci, c) in i.elif_else_clauses.iter().enumerate() {
                    self.bind(next);
                    next = self.label();
                    self.set_line(c.range());
                    if let Some(t) = &c.test {
                        self.cond_jump(t, false, next)?;
                    }
                    self.stmts(&c.body)?;
                    if ci + 1 < n {
                        self.jump(Instr::Jump(0), end);
                    }
                }
                self.bind(next);
                self.bind(end);
            }
            Stmt::While(w) => {
                let top = self.label();
                let orelse = self.label();
                let brk = self.label();
                self.bind(top);
                self.cond_jump(&w.test, false, orelse)?;
                self.u().fblocks.push(FBlock::Loop {
                    cont: top,
                    brk,
                    is_for: false,
                });
                self.stmts(&w.body)?;
                self.u().fblocks.pop();
                self.jump(Instr::Jump(0), top);
                self.bind(orelse);
                self.stmts(&w.orelse)?;
                self.bind(brk);
            }
            Stmt::For(f) => {
                if f.is_async {
                    return Err(self.err("async for is not supported"));
                }
                self.expr(&f.iter)?;
                self.emit(Instr::GetIter);
                let top = self.label();
                let end = self.label();
                let brk = self.label();
                self.bind(top);
                self.jump(Instr::ForIter(0), end);
                self.assign(&f.target)?;
                self.u().fblocks.push(FBlock::Loop {
                    cont: top,
                    brk,
                    is_for: true,
                });
                self.stmts(&f.body)?;
                self.u().fblocks.pop();
                self.jump(Instr::Jump(0), top);
                self.bind(end);
                self.stmts(&f.orelse)?;
                self.bind(brk);
            }
            Stmt::Break(_) => {
                self.unwind_fblocks(false, Some(true))?;
            }
            Stmt::Continue(_) => {
                self.unwind_fblocks(false, Some(false))?;
            }
            Stmt::FunctionDef(f) => self.function_def(f)?,
            Stmt::ClassDef(c) => self.class_def(c)?,
            Stmt::Delete(d) => {
                for t in &d.targets {
                    self.delete(t)?;
                }
            }
            Stmt::Raise(r) => {
                let mut n = 0;
                if let Some(e) = &r.exc {
                    self.expr(e)?;
                    n = 1;
                    if let Some(c) = &r.cause {
                        self.expr(c)?;
                        n = 2;
                    }
                }
                self.emit(Instr::Raise(n));
            }
            Stmt::Assert(a) if self.opts.assert_introspection => self.assert_introspected(a)?,
            Stmt::Assert(a) => {
                let ok = self.label();
                self.cond_jump(&a.test, true, ok)?;
                let i = self.name("AssertionError");
                self.emit(Instr::LoadGlobal(i));
                if let Some(m) = &a.msg {
                    self.expr(m)?;
                    self.emit(Instr::Call(1));
                }
                self.emit(Instr::Raise(1));
                self.bind(ok);
            }
            Stmt::Try(t) => {
                if t.is_star {
                    return Err(self.err("except* is not supported in Python 3.11 subset"));
                }
                if t.finalbody.is_empty() {
                    self.try_except(t)?;
                } else {
                    self.try_finally(t)?;
                }
            }
            Stmt::With(w) => {
                if w.is_async {
                    return Err(self.err("async with is not supported"));
                }
                self.with(&w.items, &w.body)?;
            }
            Stmt::Global(_) | Stmt::Nonlocal(_) => {}
            Stmt::Import(i) => {
                for a in &i.names {
                    let full = a.name.id.as_str();
                    let k = self.str_const(full);
                    self.emit(Instr::Import(k));
                    match &a.asname {
                        Some(n) => self.store_name(n.id.as_str())?,
                        None => {
                            let top = full.split('.').next().unwrap_or(full);
                            if top != full {
                                self.emit(Instr::Pop);
                                let k = self.str_const(top);
                                self.emit(Instr::Import(k));
                            }
                            self.store_name(top)?
                        }
                    }
                }
            }
            // a compiler directive, checked by `annotations::future_features`
            Stmt::ImportFrom(i)
                if i.level == 0 && i.module.as_ref().is_some_and(|m| m.id == "__future__") =>
            {
                if self.u().kind != CodeKind::Module {
                    return Err(
                        self.err("from __future__ imports must occur at the beginning of the file")
                    );
                }
            }
            Stmt::ImportFrom(i) => {
                if i.level > 0 {
                    return Err(self.err("relative imports are not supported"));
                }
                let m = i.module.as_ref().map(|m| m.id.as_str()).unwrap_or("");
                let k = self.str_const(m);
                self.emit(Instr::Import(k));
                for a in &i.names {
                    let n = a.name.id.as_str();
                    if n == "*" {
                        self.emit(Instr::Dup);
                        self.emit(Instr::ImportStar);
                        continue;
                    }
                    let ni = self.name(n);
                    self.emit(Instr::ImportFrom(ni));
                    let target = a.asname.as_ref().map(|x| x.id.as_str()).unwrap_or(n);
                    self.store_name(target)?;
                }
                self.emit(Instr::Pop);
            }
            Stmt::Match(m) => self.match_stmt(m)?,
            Stmt::TypeAlias(_) => return Err(self.err("'type' statements need Python 3.12")),
            Stmt::IpyEscapeCommand(_) => return Err(self.err("invalid syntax")),
        }
        Ok(())
    }

    /// Emit unwinding code for return (ret=true) or break/continue (brk=Some(is_break)).
    fn unwind_fblocks(&mut self, ret: bool, brk: Option<bool>) -> R {
        let n = self.u().fblocks.len();
        let mut i = n;
        let mut popped: Vec<FBlock<'a>> = Vec::new();
        let mut result = Ok(());
        while i > 0 {
            i -= 1;
            let fb = self.u().fblocks.pop().expect("fblock");
            match &fb {
                FBlock::Loop {
                    cont,
                    brk: b,
                    is_for,
                } => {
                    if let Some(is_break) = brk {
                        let (cont, b, is_for) = (*cont, *b, *is_for);
                        popped.push(fb);
                        if is_break {
                            if is_for {
                                self.emit(Instr::Pop);
                            }
                            self.jump(Instr::Jump(0), b);
                        } else {
                            self.jump(Instr::Jump(0), cont);
                        }
                        while let Some(f) = popped.pop() {
                            self.u().fblocks.push(f);
                        }
                        return Ok(());
                    }
                    if *is_for && ret {
                        self.emit(Instr::Rot2);
                        self.emit(Instr::Pop);
                    }
                }
                FBlock::Try => {
                    self.emit(Instr::PopBlock);
                }
                FBlock::Finally(body) => {
                    self.emit(Instr::PopBlock);
                    let body = *body;
                    if let Err(e) = self.stmts(body) {
                        result = Err(e);
                    }
                }
                FBlock::With => {
                    self.emit(Instr::PopBlock);
                    if ret {
                        self.emit(Instr::Rot2);
                    }
                    let k = self.const_(Value::None);
                    self.emit(Instr::LoadConst(k));
                    self.emit(Instr::WithExit);
                }
                FBlock::Handler(name) => {
                    self.emit(Instr::PopExcept);
                    if let Some(nm) = name.clone() {
                        let k = self.const_(Value::None);
                        self.emit(Instr::LoadConst(k));
                        self.store_name(&nm)?;
                        self.delete_name(&nm)?;
                    }
                }
            }
            popped.push(fb);
        }
        while let Some(f) = popped.pop() {
            self.u().fblocks.push(f);
        }
        if brk.is_some() {
            return Err(self.err("'break' outside loop"));
        }
        result
    }

    fn try_except(&mut self, t: &'a ast::StmtTry) -> R {
        let handler = self.label();
        let end = self.label();
        self.jump(Instr::SetupExcept(0), handler);
        self.u().fblocks.push(FBlock::Try);
        self.stmts(&t.body)?;
        self.u().fblocks.pop();
        self.emit(Instr::PopBlock);
        self.stmts(&t.orelse)?;
        self.jump(Instr::Jump(0), end);
        self.bind(handler);
        for h in &t.handlers {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            self.set_line(h.range);
            let next = self.label();
            if let Some(ty) = &h.type_ {
                self.expr(ty)?;
                self.jump(Instr::JumpIfNotExcMatch(0), next);
            }
            let name = h.name.as_ref().map(|n| n.id.as_str().to_string());
            match &name {
                Some(n) => self.store_name(n)?,
                None => {
                    self.emit(Instr::Pop);
                }
            }
            self.u().fblocks.push(FBlock::Handler(name.clone()));
            self.stmts(&h.body)?;
            self.u().fblocks.pop();
            self.emit(Instr::PopExcept);
            if let Some(n) = &name {
                let k = self.const_(Value::None);
                self.emit(Instr::LoadConst(k));
                self.store_name(n)?;
                self.delete_name(n)?;
            }
            self.jump(Instr::Jump(0), end);
            self.bind(next);
        }
        self.emit(Instr::Reraise);
        self.bind(end);
        Ok(())
    }

    fn try_finally(&mut self, t: &'a ast::StmtTry) -> R {
        let fin = self.label();
        let end = self.label();
        self.jump(Instr::SetupExcept(0), fin);
        self.u().fblocks.push(FBlock::Finally(&t.finalbody));
        if t.handlers.is_empty() {
            self.stmts(&t.body)?;
            self.stmts(&t.orelse)?;
        } else {
            self.try_except(t)?;
        }
        self.u().fblocks.pop();
        self.emit(Instr::PopBlock);
        self.stmts(&t.finalbody)?;
        self.jump(Instr::Jump(0), end);
        self.bind(fin);
        self.u().fblocks.push(FBlock::Handler(None));
        self.stmts(&t.finalbody)?;
        self.u().fblocks.pop();
        self.emit(Instr::Reraise);
        self.bind(end);
        Ok(())
    }

    fn with(&mut self, items: &'a [ast::WithItem], body: &'a [Stmt]) -> R {
        let Some((first, rest)) = items.split_first() else {
            return self.stmts(body);
        };
        self.expr(&first.context_expr)?;
        self.emit(Instr::WithEnter);
        let exc = self.label();
        let end = self.label();
        self.jump(Instr::SetupExcept(0), exc);
        match &first.optional_vars {
            Some(t) => self.assign(t)?,
            None => {
                self.emit(Instr::Pop);
            }
        }
        self.u().fblocks.push(FBlock::With);
        self.with(rest, body)?;
        self.u().fblocks.pop();
        self.emit(Instr::PopBlock);
        let k = self.const_(Value::None);
        self.emit(Instr::LoadConst(k));
        self.emit(Instr::WithExit);
        self.jump(Instr::Jump(0), end);
        self.bind(exc);
        self.emit(Instr::WithExit);
        self.bind(end);
        Ok(())
    }

    fn aug_assign(&mut self, a: &'a ast::StmtAugAssign) -> R {
        let op = binop(a.op);
        match &*a.target {
            Expr::Name(n) => {
                self.load_name(n.id.as_str())?;
                self.expr(&a.value)?;
                self.emit(Instr::InplaceOp(op));
                self.store_name(n.id.as_str())?;
            }
            Expr::Attribute(at) => {
                self.expr(&at.value)?;
                self.emit(Instr::Dup);
                let i = self.name(at.attr.id.as_str());
                self.emit(Instr::LoadAttr(i));
                self.expr(&a.value)?;
                self.emit(Instr::InplaceOp(op));
                self.emit(Instr::Rot2);
                self.emit(Instr::StoreAttr(i));
            }
            Expr::Subscript(s) => {
                self.expr(&s.value)?;
                self.subscript_key(&s.slice)?;
                self.emit(Instr::Dup2);
                self.emit(Instr::Subscr);
                self.expr(&a.value)?;
                self.emit(Instr::InplaceOp(op));
                self.emit(Instr::Rot3);
                self.emit(Instr::StoreSubscr);
            }
            _ => return Err(self.err("illegal expression for augmented assignment")),
        }
        Ok(())
    }

    fn assign(&mut self, t: &'a Expr) -> R {
        match t {
            Expr::Name(n) => self.store_name(n.id.as_str())?,
            Expr::Attribute(a) => {
                self.expr(&a.value)?;
                let i = self.name(a.attr.id.as_str());
                self.emit(Instr::StoreAttr(i));
            }
            Expr::Subscript(s) => {
                self.expr(&s.value)?;
                self.subscript_key(&s.slice)?;
                self.emit(Instr::StoreSubscr);
            }
            Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => {
                let star = elts.iter().position(|e| matches!(e, Expr::Starred(_)));
                match star {
                    None => {
                        self.emit(Instr::UnpackSequence(elts.len() as u32));
                    }
                    Some(p) => {
                        if elts
                            .iter()
                            .filter(|e| matches!(e, Expr::Starred(_)))
                            .count()
                            > 1
                        {
                            return Err(self.err("multiple starred expressions in assignment"));
                        }
                        self.emit(Instr::UnpackEx(p as u32, (elts.len() - p - 1) as u32));
                    }
                }
                for e in elts {
                    match e {
                        Expr::Starred(s) => self.assign(&s.value)?,
                        e => self.assign(e)?,
                    }
                }
            }
            Expr::Starred(_) => {
                return Err(self.err("starred assignment target must be in a list or tuple"));
            }
            _ => return Err(self.err("cannot assign to expression")),
        }
        Ok(())
    }

    fn delete(&mut self, t: &'a Expr) -> R {
        match t {
            Expr::Name(n) => self.delete_name(n.id.as_str())?,
            Expr::Attribute(a) => {
                self.expr(&a.value)?;
                let i = self.name(a.attr.id.as_str());
                self.emit(Instr::DeleteAttr(i));
            }
            Expr::Subscript(s) => {
                self.expr(&s.value)?;
                self.subscript_key(&s.slice)?;
                self.emit(Instr::DeleteSubscr);
            }
            Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => {
                for e in elts {
                    self.delete(e)?;
                }
            }
            _ => return Err(self.err("cannot delete expression")),
        }
        Ok(())
    }

    fn subscript_key(&mut self, e: &'a Expr) -> R {
        self.expr(e)
    }

    /// Compile params' defaults; returns MakeFunction flags.
    fn defaults(&mut self, p: Option<&'a ast::Parameters>) -> Result<u32, CompileError> {
        let mut flags = 0;
        let Some(p) = p else { return Ok(0) };
        let defs: Vec<&Expr> = p
            .posonlyargs
            .iter()
            .chain(p.args.iter())
            .filter_map(|a| a.default.as_deref())
            .collect();
        if !defs.is_empty() {
            for d in &defs {
                self.expr(d)?;
            }
            self.emit(Instr::BuildTuple(defs.len() as u32));
            flags |= 1;
        }
        let kw: Vec<(&str, &Expr)> = p
            .kwonlyargs
            .iter()
            .filter_map(|a| {
                a.default
                    .as_deref()
                    .map(|d| (a.parameter.name.id.as_str(), d))
            })
            .collect();
        if !kw.is_empty() {
            for (n, d) in &kw {
                let k = self.str_const(n);
                self.emit(Instr::LoadConst(k));
                self.expr(d)?;
            }
            self.emit(Instr::BuildMap(kw.len() as u32));
            flags |= 2;
        }
        Ok(flags)
    }

    /// Compile a `def`'s annotations as a tuple `(name, value, name, value, …)` in CPython
    /// 3.11 order (regular, then positional-only parameters, `*args`, keyword-only
    /// parameters, `**kwargs`, `return`); returns MakeFunction flag 8, or 0 (nothing
    /// emitted) when there are none.
    fn annotations(
        &mut self,
        p: &'a ast::Parameters,
        returns: Option<&'a Expr>,
    ) -> Result<u32, CompileError> {
        let mut anns: Vec<(&str, &Expr)> = Vec::new();
        let mut add = |a: &'a ast::Parameter| {
            if let Some(e) = a.annotation.as_deref() {
                anns.push((a.name.id.as_str(), e));
            }
        };
        p.args.iter().for_each(|a| add(&a.parameter));
        p.posonlyargs.iter().for_each(|a| add(&a.parameter));
        p.vararg.as_deref().into_iter().for_each(&mut add);
        p.kwonlyargs.iter().for_each(|a| add(&a.parameter));
        p.kwarg.as_deref().into_iter().for_each(&mut add);
        if let Some(r) = returns {
            anns.push(("return", r));
        }
        if anns.is_empty() {
            return Ok(0);
        }
        for (n, e) in &anns {
            let k = self.str_const(n);
            self.emit(Instr::LoadConst(k));
            self.annotation_value(e)?;
        }
        self.emit(Instr::BuildTuple(2 * anns.len() as u32));
        Ok(8)
    }

    /// Push the value of annotation `e`: evaluated, or its source text (CPython's rendering)
    /// under `from __future__ import annotations`.
    fn annotation_value(&mut self, e: &'a Expr) -> R {
        if !self.future_annotations {
            return self.expr(e);
        }
        let text = crate::unparse::annotation(e, self.source).map_err(|m| self.err(m))?;
        let k = self.str_const(&text);
        self.emit(Instr::LoadConst(k));
        Ok(())
    }

    fn setup_params(&mut self, p: Option<&'a ast::Parameters>) {
        let Some(p) = p else { return };
        for a in p.posonlyargs.iter().chain(p.args.iter()) {
            self.var(a.parameter.name.id.as_str());
        }
        for a in p.kwonlyargs.iter() {
            self.var(a.parameter.name.id.as_str());
        }
        if let Some(v) = &p.vararg {
            self.var(v.name.id.as_str());
        }
        if let Some(v) = &p.kwarg {
            self.var(v.name.id.as_str());
        }
        let u = self.u();
        u.argcount = (p.posonlyargs.len() + p.args.len()) as u32;
        u.posonly = p.posonlyargs.len() as u32;
        u.kwonly = p.kwonlyargs.len() as u32;
        u.varargs = p.vararg.is_some();
        u.varkw = p.kwarg.is_some();
    }

    fn qualname(&self, name: &str) -> Rc<str> {
        match self.units.last() {
            Some(u) if u.kind != CodeKind::Module => {
                if u.kind == CodeKind::Class {
                    Rc::from(format!("{}.{}", u.qualname, name))
                } else {
                    Rc::from(format!("{}.<locals>.{}", u.qualname, name))
                }
            }
            _ => Rc::from(name),
        }
    }

    /// Push closure cells for `code` and emit MakeFunction.
    fn make_function(&mut self, code: Rc<Code>, mut flags: u32) -> R {
        let frees: Vec<Rc<str>> = code.cellnames[code.ncells..].to_vec();
        if !frees.is_empty() {
            for f in &frees {
                let i = self.cell(f)?;
                self.emit(Instr::LoadCell(i));
            }
            self.emit(Instr::BuildTuple(frees.len() as u32));
            flags |= 4;
        }
        let k = self.const_(Value::Code(code));
        self.emit(Instr::MakeFunction(k, flags));
        Ok(())
    }

    fn function_def(&mut self, f: &'a ast::StmtFunctionDef) -> R {
        if f.is_async {
            return Err(self.err("async def is not supported"));
        }
        if f.type_params.is_some() {
            return Err(self.err("type parameter lists need Python 3.12"));
        }
        for d in &f.decorator_list {
            self.expr(&d.expression)?;
        }
        let flags = self.defaults(Some(&f.parameters))?
            | self.annotations(&f.parameters, f.returns.as_deref())?;
        let name = f.name.id.as_str();
        let qn = self.qualname(name);
        let key = symtable::key(f);
        let is_gen = self.st.scopes[&key].generator;
        let line = self.line_of(f.range.start().to_u32());
        self.push_unit(
            key,
            Rc::from(name),
            qn,
            if is_gen {
                CodeKind::Generator
            } else {
                CodeKind::Function
            },
            line,
        );
        self.setup_params(Some(&f.parameters));
        for n in &self.st.scopes[&key].bound {
            if self.scope().name_kind(n) == NameKind::Local {
                self.var(n);
            }
        }
        if is_gen {
            self.emit(Instr::GenStart);
        }
        if let Some(Stmt::Expr(e)) = f.body.first()
            && let Expr::StringLiteral(s) = &*e.value
        {
            self.u().doc = Some(Rc::from(s.value.to_str()));
        }
        self.stmts(&f.body)?;
        let k = self.const_(Value::None);
        self.emit(Instr::LoadConst(k));
        self.emit(Instr::ReturnValue);
        let code = self.pop_unit();
        self.make_function(code, flags)?;
        for _ in &f.decorator_list {
            self.emit(Instr::Call(1));
        }
        self.store_name(name)
    }

    fn class_def(&mut self, c: &'a ast::StmtClassDef) -> R {
        if c.type_params.is_some() {
            return Err(self.err("type parameter lists need Python 3.12"));
        }
        for d in &c.decorator_list {
            self.expr(&d.expression)?;
        }
        let name = c.name.id.as_str();
        let qn = self.qualname(name);
        let key = symtable::key(c);
        let line = self.line_of(c.range.start().to_u32());
        self.push_unit(key, Rc::from(name), qn.clone(), CodeKind::Class, line);
        if let Some(Stmt::Expr(e)) = c.body.first()
            && let Expr::StringLiteral(s) = &*e.value
        {
            let k = self.str_const(s.value.to_str());
            self.emit(Instr::LoadConst(k));
            let ni = self.name("__doc__");
            self.emit(Instr::StoreName(ni));
        }
        if has_annotations(&c.body) {
            self.emit(Instr::SetupAnnotations);
        }
        self.stmts(&c.body)?;
        let k = self.const_(Value::None);
        self.emit(Instr::LoadConst(k));
        self.emit(Instr::ReturnValue);
        let code = self.pop_unit();
        self.make_function(code, 0)?;
        let k = self.str_const(&qn);
        self.emit(Instr::LoadConst(k));
        let mut flags = 0;
        match &c.arguments {
            Some(a) => {
                let mut n = 0;
                for b in a.args.iter() {
                    if matches!(b, Expr::Starred(_)) {
                        return Err(self.err("starred class bases are not supported"));
                    }
                    self.expr(b)?;
                    n += 1;
                }
                self.emit(Instr::BuildTuple(n));
                if !a.keywords.is_empty() {
                    let mut m = 0;
                    for kw in a.keywords.iter() {
                        let Some(arg) = &kw.arg else {
                            return Err(self.err("** in class keywords is not supported"));
                        };
                        let k = self.str_const(arg.id.as_str());
                        self.emit(Instr::LoadConst(k));
                        self.expr(&kw.value)?;
                        m += 1;
                    }
                    self.emit(Instr::BuildMap(m));
                    flags |= 1;
                }
            }
            None => {
                self.emit(Instr::BuildTuple(0));
            }
        }
        self.emit(Instr::BuildClass(flags));
        for _ in &c.decorator_list {
            self.emit(Instr::Call(1));
        }
        self.store_name(name)
    }

    /// Jump to `l` when `e` is truthy == `when`.
    /// `assert` with introspection ([`CompileOptions::assert_introspection`]). For a single
    /// comparison the stack holds `[a, b]` (evaluated once); on failure the message is built as
    /// `"assert %r OP %r" % (a, b)`, preceded by `"%s\n" % msg` when there is a message.
    fn assert_introspected(&mut self, a: &'a ast::StmtAssert) -> R {
        let ok = self.label();
        let fail = self.label();
        let (fmt, n) = match &*a.test {
            Expr::Compare(c) if c.ops.len() == 1 => {
                let op = c.ops[0];
                self.expr(&c.left)?;
                self.expr(&c.comparators[0])?;
                self.emit(Instr::Dup2);
                self.emit(Instr::Compare(cmpop(op)));
                self.jump(Instr::PopJumpIfFalse(0), fail);
                self.emit(Instr::Pop);
                self.emit(Instr::Pop);
                self.jump(Instr::Jump(0), ok);
                (format!("assert %r {} %r", op.as_str()), 2)
            }
            test => {
                self.expr(test)?;
                self.emit(Instr::Dup);
                self.jump(Instr::PopJumpIfFalse(0), fail);
                self.emit(Instr::Pop);
                self.jump(Instr::Jump(0), ok);
                if matches!(test, Expr::Name(_)) || test.is_literal_expr() {
                    ("assert %r".to_string(), 1)
                } else {
                    let (start, end) = (
                        test.range().start().to_usize(),
                        test.range().end().to_usize(),
                    );
                    let src = self.source.get(start..end).unwrap_or("?");
                    let src = src.replace('%', "%%");
                    (format!("assert %r\n +  where %r = {src}"), 0)
                }
            }
        };
        self.bind(fail);
        // `n == 0`: one value on the stack that the message shows twice
        let mut n = n;
        if n == 0 {
            self.emit(Instr::Dup);
            n = 2;
        }
        let fmt = if let Some(m) = &a.msg {
            self.expr(m)?;
            if n == 2 {
                self.emit(Instr::Rot3);
            } else {
                self.emit(Instr::Rot2);
            }
            n += 1;
            format!("%s\n{fmt}")
        } else {
            fmt
        };
        let parts = n;
        self.emit(Instr::BuildTuple(parts));
        let k = self.str_const(&fmt);
        self.emit(Instr::LoadConst(k));
        self.emit(Instr::Rot2);
        self.emit(Instr::BinaryOp(BinOp::Mod));
        let i = self.name("AssertionError");
        self.emit(Instr::LoadGlobal(i));
        self.emit(Instr::Rot2);
        self.emit(Instr::Call(1));
        self.emit(Instr::Raise(1));
        self.bind(ok);
        Ok(())
    }

    fn cond_jump(&mut self, e: &'a Expr, when: bool, l: usize) -> R {
        match e {
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::Not => {
                return self.cond_jump(&u.operand, !when, l);
            }
            Expr::BoolOp(b) => {
                let is_and = b.op == ast::BoolOp::And;
                let n = b.values.len();
                if is_and != when {
                    // (and, jump-if-false) or (or, jump-if-true): any operand decides.
                    for v in &b.values {
                        self.cond_jump(v, when, l)?;
                    }
                } else {
                    let skip = self.label();
                    for (i, v) in b.values.iter().enumerate() {
                        if i + 1 < n {
                            self.cond_jump(v, !when, skip)?;
                        } else {
                            self.cond_jump(v, when, l)?;
                        }
                    }
                    self.bind(skip);
                }
                return Ok(());
            }
            _ => {}
        }
        self.expr(e)?;
        if when {
            self.jump(Instr::PopJumpIfTrue(0), l);
        } else {
            self.jump(Instr::PopJumpIfFalse(0), l);
        }
        Ok(())
    }

    // ---- expressions ----
    fn expr(&mut self, e: &'a Expr) -> R {
        self.enter()?;
        let old = self.set_line(e.range());
        let r = self.expr_inner(e);
        self.u().line = old;
        self.depth -= 1;
        r
    }

    fn number(&mut self, n: &'a ast::ExprNumberLiteral) -> Result<Value, CompileError> {
        match &n.value {
            ast::Number::Int(i) => {
                if let Some(v) = i.as_i64() {
                    return Ok(Value::Int(v));
                }
                let b = big_int_literal(i).ok_or_else(|| self.err("invalid integer literal"))?;
                if b.bits() > crate::int::MAX_BITS {
                    return Err(self.err("integer literal too large (over 4096 bits)"));
                }
                Ok(crate::int::from_big(b))
            }
            ast::Number::Float(_) => {
                let r = n.range;
                let text = &self.source[r.start().to_usize()..r.end().to_usize()];
                let text: String = text.chars().filter(|c| *c != '_').collect();
                match crate::float::parse_literal(&text) {
                    Some(f) => Ok(Value::Float(f)),
                    None => Err(self.err("invalid float literal")),
                }
            }
            ast::Number::Complex { .. } => {
                Err(self.err("complex numbers are not supported in the PVM"))
            }
        }
    }

    fn expr_inner(&mut self, e: &'a Expr) -> R {
        match e {
            Expr::NumberLiteral(n) => {
                let v = self.number(n)?;
                let k = self.const_(v);
                self.emit(Instr::LoadConst(k));
            }
            Expr::StringLiteral(s) => {
                let k = self.str_const(s.value.to_str());
                self.emit(Instr::LoadConst(k));
            }
            Expr::BytesLiteral(b) => {
                let v: Vec<u8> = b.value.bytes().collect();
                let k = self.const_(Value::bytes(v));
                self.emit(Instr::LoadConst(k));
            }
            Expr::BooleanLiteral(b) => {
                let k = self.const_(Value::Bool(b.value));
                self.emit(Instr::LoadConst(k));
            }
            Expr::NoneLiteral(_) => {
                let k = self.const_(Value::None);
                self.emit(Instr::LoadConst(k));
            }
            Expr::EllipsisLiteral(_) => {
                let k = self.const_(Value::Ellipsis);
                self.emit(Instr::LoadConst(k));
            }
            Expr::Name(n) => self.load_name(n.id.as_str())?,
            Expr::BinOp(b) => {
                self.expr(&b.left)?;
                self.expr(&b.right)?;
                self.emit(Instr::BinaryOp(binop(b.op)));
            }
            Expr::UnaryOp(u) => {
                self.expr(&u.operand)?;
                match u.op {
                    ast::UnaryOp::Not => self.emit(Instr::Not),
                    ast::UnaryOp::USub => self.emit(Instr::Unary(UnOp::Neg)),
                    ast::UnaryOp::UAdd => self.emit(Instr::Unary(UnOp::Pos)),
                    ast::UnaryOp::Invert => self.emit(Instr::Unary(UnOp::Invert)),
                };
            }
            Expr::BoolOp(b) => {
                let end = self.label();
                let n = b.values.len();
                for (i, v) in b.values.iter().enumerate() {
                    self.expr(v)?;
                    if i + 1 < n {
                        if b.op == ast::BoolOp::And {
                            self.jump(Instr::JumpIfFalseOrPop(0), end);
                        } else {
                            self.jump(Instr::JumpIfTrueOrPop(0), end);
                        }
                    }
                }
                self.bind(end);
            }
            Expr::Compare(c) => {
                self.expr(&c.left)?;
                let n = c.ops.len();
                if n == 1 {
                    self.expr(&c.comparators[0])?;
                    self.emit(Instr::Compare(cmpop(c.ops[0])));
                } else {
                    let cleanup = self.label();
                    let end = self.label();
                    for i in 0..n {
                        self.expr(&c.comparators[i])?;
                        if i + 1 < n {
                            self.emit(Instr::Dup);
                            self.emit(Instr::Rot3);
                            self.emit(Instr::Compare(cmpop(c.ops[i])));
                            self.jump(Instr::JumpIfFalseOrPop(0), cleanup);
                        } else {
                            self.emit(Instr::Compare(cmpop(c.ops[i])));
                        }
                    }
                    self.jump(Instr::Jump(0), end);
                    self.bind(cleanup);
                    self.emit(Instr::Rot2);
                    self.emit(Instr::Pop);
                    self.bind(end);
                }
            }
            Expr::If(i) => {
                let els = self.label();
                let end = self.label();
                self.cond_jump(&i.test, false, els)?;
                self.expr(&i.body)?;
                self.jump(Instr::Jump(0), end);
                self.bind(els);
                self.expr(&i.orelse)?;
                self.bind(end);
            }
            Expr::Named(n) => {
                self.expr(&n.value)?;
                self.emit(Instr::Dup);
                self.assign(&n.target)?;
            }
            Expr::Attribute(a) => {
                self.expr(&a.value)?;
                let i = self.name(a.attr.id.as_str());
                self.emit(Instr::LoadAttr(i));
            }
            Expr::Subscript(s) => {
                self.expr(&s.value)?;
                self.subscript_key(&s.slice)?;
                self.emit(Instr::Subscr);
            }
            Expr::Slice(s) => {
                let mut n = 2;
                for (i, x) in [&s.lower, &s.upper, &s.step].into_iter().enumerate() {
                    match x {
                        Some(x) => self.expr(x)?,
                        None => {
                            if i == 2 {
                                break;
                            }
                            let k = self.const_(Value::None);
                            self.emit(Instr::LoadConst(k));
                        }
                    }
                    if i == 2 {
                        n = 3;
                    }
                }
                self.emit(Instr::BuildSlice(n));
            }
            Expr::Tuple(t) => self.sequence(&t.elts, 0)?,
            Expr::List(t) => self.sequence(&t.elts, 1)?,
            Expr::Set(t) => self.sequence(&t.elts, 2)?,
            Expr::Dict(d) => {
                let has_star = d.items.iter().any(|i| i.key.is_none());
                if !has_star {
                    for it in &d.items {
                        if let Some(k) = &it.key {
                            self.expr(k)?;
                        }
                        self.expr(&it.value)?;
                    }
                    self.emit(Instr::BuildMap(d.items.len() as u32));
                } else {
                    self.emit(Instr::BuildMap(0));
                    for it in &d.items {
                        match &it.key {
                            Some(k) => {
                                self.expr(k)?;
                                self.expr(&it.value)?;
                                self.emit(Instr::MapAdd(1));
                            }
                            None => {
                                self.expr(&it.value)?;
                                self.emit(Instr::DictUpdate(1));
                            }
                        }
                    }
                }
            }
            Expr::Call(c) => self.call(c)?,
            Expr::Lambda(l) => {
                let flags = self.defaults(l.parameters.as_deref())?;
                let key = symtable::key(l);
                let qn = self.qualname("<lambda>");
                let line = self.line_of(l.range.start().to_u32());
                let is_gen = self.st.scopes[&key].generator;
                self.push_unit(
                    key,
                    Rc::from("<lambda>"),
                    qn,
                    if is_gen {
                        CodeKind::Generator
                    } else {
                        CodeKind::Function
                    },
                    line,
                );
                self.setup_params(l.parameters.as_deref());
                for n in &self.st.scopes[&key].bound {
                    if self.scope().name_kind(n) == NameKind::Local {
                        self.var(n);
                    }
                }
                self.expr(&l.body)?;
                self.emit(Instr::ReturnValue);
                let code = self.pop_unit();
                self.make_function(code, flags)?;
            }
            Expr::ListComp(c) => self.comprehension(
                symtable::key(c),
                "<listcomp>",
                &c.generators,
                1,
                &c.elt,
                None,
            )?,
            Expr::SetComp(c) => self.comprehension(
                symtable::key(c),
                "<setcomp>",
                &c.generators,
                2,
                &c.elt,
                None,
            )?,
            Expr::DictComp(c) => {
                let Some(k) = &c.key else {
                    return Err(self.err("invalid dict comprehension"));
                };
                self.comprehension(
                    symtable::key(c),
                    "<dictcomp>",
                    &c.generators,
                    3,
                    k,
                    Some(&c.value),
                )?
            }
            Expr::Generator(c) => self.comprehension(
                symtable::key(c),
                "<genexpr>",
                &c.generators,
                0,
                &c.elt,
                None,
            )?,
            Expr::Yield(y) => {
                if self.u().kind != CodeKind::Generator {
                    return Err(self.err("'yield' outside function"));
                }
                match &y.value {
                    Some(v) => self.expr(v)?,
                    None => {
                        let k = self.const_(Value::None);
                        self.emit(Instr::LoadConst(k));
                    }
                }
                self.emit(Instr::Yield);
            }
            Expr::YieldFrom(y) => {
                if self.u().kind != CodeKind::Generator {
                    return Err(self.err("'yield' outside function"));
                }
                self.expr(&y.value)?;
                self.emit(Instr::GetIter);
                let k = self.const_(Value::None);
                self.emit(Instr::LoadConst(k));
                self.emit(Instr::YieldFrom);
            }
            Expr::Await(_) => return Err(self.err("'await' is not supported")),
            Expr::FString(f) => {
                let mut n = 0;
                for el in f.value.elements() {
                    n += self.fstring_element(el)?;
                }
                if n != 1 {
                    self.emit(Instr::BuildString(n));
                }
            }
            Expr::TString(_) => return Err(self.err("t-strings need Python 3.14")),
            Expr::Starred(_) => return Err(self.err("can't use starred expression here")),
            Expr::IpyEscapeCommand(_) => return Err(self.err("invalid syntax")),
        }
        Ok(())
    }

    fn fstring_element(
        &mut self,
        el: &'a ast::InterpolatedStringElement,
    ) -> Result<u32, CompileError> {
        match el {
            ast::InterpolatedStringElement::Literal(l) => {
                let k = self.str_const(&l.value);
                self.emit(Instr::LoadConst(k));
                Ok(1)
            }
            ast::InterpolatedStringElement::Interpolation(i) => {
                let mut n = 0;
                let mut conv = match i.conversion {
                    ast::ConversionFlag::None => 0,
                    ast::ConversionFlag::Str => 1,
                    ast::ConversionFlag::Repr => 2,
                    ast::ConversionFlag::Ascii => 3,
                };
                if let Some(d) = &i.debug_text {
                    let r = i.expression.range();
                    let expr_src = &self.source[r.start().to_usize()..r.end().to_usize()];
                    let text = format!("{}{}{}", d.leading(), expr_src, d.trailing());
                    let k = self.str_const(&text);
                    self.emit(Instr::LoadConst(k));
                    n += 1;
                    if conv == 0 && i.format_spec.is_none() {
                        conv = 2;
                    }
                }
                self.expr(&i.expression)?;
                let mut flags = conv;
                if let Some(spec) = &i.format_spec {
                    let mut m = 0;
                    for e in spec.elements.iter() {
                        m += self.fstring_element(e)?;
                    }
                    if m != 1 {
                        self.emit(Instr::BuildString(m));
                    }
                    flags |= 4;
                }
                self.emit(Instr::FormatValue(flags));
                Ok(n + 1)
            }
        }
    }

    /// kind: 0 tuple, 1 list, 2 set.
    fn sequence(&mut self, elts: &'a [Expr], kind: u32) -> R {
        let has_star = elts.iter().any(|e| matches!(e, Expr::Starred(_)));
        if !has_star {
            for e in elts {
                self.expr(e)?;
            }
            let n = elts.len() as u32;
            self.emit(match kind {
                0 => Instr::BuildTuple(n),
                1 => Instr::BuildList(n),
                _ => Instr::BuildSet(n),
            });
            return Ok(());
        }
        self.emit(if kind == 2 {
            Instr::BuildSet(0)
        } else {
            Instr::BuildList(0)
        });
        for e in elts {
            match e {
                Expr::Starred(s) => {
                    self.expr(&s.value)?;
                    self.emit(if kind == 2 {
                        Instr::SetUpdate(1)
                    } else {
                        Instr::ListExtend(1)
                    });
                }
                e => {
                    self.expr(e)?;
                    self.emit(if kind == 2 {
                        Instr::SetAdd(1)
                    } else {
                        Instr::ListAppend(1)
                    });
                }
            }
        }
        if kind == 0 {
            self.emit(Instr::ListToTuple);
        }
        Ok(())
    }

    fn call(&mut self, c: &'a ast::ExprCall) -> R {
        let args = &c.arguments;
        let has_star = args.args.iter().any(|a| matches!(a, Expr::Starred(_)))
            || args.keywords.iter().any(|k| k.arg.is_none());
        // zero-arg super()
        if let Expr::Name(n) = &*c.func
            && n.id.as_str() == "super"
            && args.args.is_empty()
            && args.keywords.is_empty()
            && self.scope().name_kind("super") == NameKind::Global
            && self.u().kind != CodeKind::Module
        {
            self.emit(Instr::LoadSuper);
            return Ok(());
        }
        if !has_star && let Expr::Attribute(a) = &*c.func {
            self.expr(&a.value)?;
            for x in args.args.iter() {
                self.expr(x)?;
            }
            let ni = self.name(a.attr.id.as_str());
            let line = self.line_of(a.attr.range.start().to_u32());
            let old = std::mem::replace(&mut self.u().line, line);
            if args.keywords.is_empty() {
                self.emit(Instr::CallMethod(ni, args.args.len() as u32));
            } else {
                self.kw_values(args)?;
                self.u().line = line;
                self.emit(Instr::CallMethodKw(
                    ni,
                    (args.args.len() + args.keywords.len()) as u32,
                ));
            }
            self.u().line = old;
            return Ok(());
        }
        self.expr(&c.func)?;
        if !has_star {
            for x in args.args.iter() {
                self.expr(x)?;
            }
            if args.keywords.is_empty() {
                self.emit(Instr::Call(args.args.len() as u32));
            } else {
                self.kw_values(args)?;
                self.emit(Instr::CallKw(
                    (args.args.len() + args.keywords.len()) as u32,
                ));
            }
            return Ok(());
        }
        // General form: build args tuple and kwargs dict.
        self.emit(Instr::BuildList(0));
        for x in args.args.iter() {
            match x {
                Expr::Starred(s) => {
                    self.expr(&s.value)?;
                    self.emit(Instr::ListExtend(1));
                }
                x => {
                    self.expr(x)?;
                    self.emit(Instr::ListAppend(1));
                }
            }
        }
        self.emit(Instr::ListToTuple);
        if args.keywords.is_empty() {
            let k = self.const_(Value::None);
            self.emit(Instr::LoadConst(k));
        } else {
            self.emit(Instr::BuildMap(0));
            for kw in args.keywords.iter() {
                match &kw.arg {
                    Some(n) => {
                        let k = self.str_const(n.id.as_str());
                        self.emit(Instr::LoadConst(k));
                        self.expr(&kw.value)?;
                        self.emit(Instr::BuildMap(1));
                        self.emit(Instr::DictMerge(1));
                    }
                    None => {
                        self.expr(&kw.value)?;
                        self.emit(Instr::DictMerge(1));
                    }
                }
            }
        }
        self.emit(Instr::CallEx);
        Ok(())
    }

    fn kw_values(&mut self, args: &'a ast::Arguments) -> R {
        let mut names = Vec::new();
        for kw in args.keywords.iter() {
            self.expr(&kw.value)?;
            let n = kw.arg.as_ref().map(|a| a.id.as_str()).unwrap_or("");
            names.push(Value::str(n));
        }
        let k = self.const_(Value::tuple(names));
        self.emit(Instr::LoadConst(k));
        Ok(())
    }

    /// kind: 0 generator, 1 list, 2 set, 3 dict.
    fn comprehension(
        &mut self,
        key: usize,
        name: &str,
        gens: &'a [ast::Comprehension],
        kind: u32,
        elt: &'a Expr,
        value: Option<&'a Expr>,
    ) -> R {
        let qn = self.qualname(name);
        let line = self.u().line;
        let code_kind = if kind == 0 {
            CodeKind::Generator
        } else {
            CodeKind::Function
        };
        self.push_unit(key, Rc::from(name), qn, code_kind, line);
        self.var(".0");
        self.u().argcount = 1;
        for n in &self.st.scopes[&key].bound {
            if self.scope().name_kind(n) == NameKind::Local {
                self.var(n);
            }
        }
        if kind == 0 {
            self.emit(Instr::GenStart);
        }
        match kind {
            1 => {
                self.emit(Instr::BuildList(0));
            }
            2 => {
                self.emit(Instr::BuildSet(0));
            }
            3 => {
                self.emit(Instr::BuildMap(0));
            }
            _ => {}
        }
        let mut ends = Vec::new();
        for (i, g) in gens.iter().enumerate() {
            if g.is_async {
                return Err(self.err("async comprehensions are not supported"));
            }
            if i == 0 {
                self.emit(Instr::LoadFast(0));
            } else {
                self.expr(&g.iter)?;
                self.emit(Instr::GetIter);
            }
            let top = self.label();
            let end = self.label();
            self.bind(top);
            self.jump(Instr::ForIter(0), end);
            self.assign(&g.target)?;
            for cond in &g.ifs {
                self.cond_jump(cond, false, top)?;
            }
            ends.push((top, end));
        }
        let depth = gens.len() as u32 + 1;
        match kind {
            0 => {
                self.expr(elt)?;
                self.emit(Instr::Yield);
                self.emit(Instr::Pop);
            }
            1 => {
                self.expr(elt)?;
                self.emit(Instr::ListAppend(depth));
            }
            2 => {
                self.expr(elt)?;
                self.emit(Instr::SetAdd(depth));
            }
            _ => {
                self.expr(elt)?;
                if let Some(v) = value {
                    self.expr(v)?;
                }
                self.emit(Instr::MapAdd(depth));
            }
        }
        while let Some((top, end)) = ends.pop() {
            self.jump(Instr::Jump(0), top);
            self.bind(end);
        }
        if kind == 0 {
            let k = self.const_(Value::None);
            self.emit(Instr::LoadConst(k));
        }
        self.emit(Instr::ReturnValue);
        let code = self.pop_unit();
        self.make_function(code, 0)?;
        let first = gens
            .first()
            .ok_or_else(|| self.err("empty comprehension"))?;
        self.expr(&first.iter)?;
        self.emit(Instr::GetIter);
        self.emit(Instr::Call(1));
        Ok(())
    }

    // ---- match statement ----
    fn match_stmt(&mut self, m: &'a ast::StmtMatch) -> R {
        self.expr(&m.subject)?;
        let end = self.label();
        for case in &m.cases {
            self.set_line(case.range);
            let fail = self.label();
            // Stack: [subject]. Pattern consumes a copy.
            self.emit(Instr::Dup);
            self.pattern(&case.pattern, fail)?;
            if let Some(g) = &case.guard {
                self.cond_jump(g, false, fail)?;
            }
            self.emit(Instr::Pop);
            self.stmts(&case.body)?;
            self.jump(Instr::Jump(0), end);
            self.bind(fail);
        }
        self.emit(Instr::Pop);
        self.bind(end);
        Ok(())
    }

    /// Match TOS against `p`, consuming it; on failure jump to `fail` with TOS consumed.
    fn pattern(&mut self, p: &'a ast::Pattern, fail: usize) -> R {
        use ast::Pattern as P;
        match p {
            P::MatchValue(v) => {
                self.expr(&v.value)?;
                self.emit(Instr::Compare(CmpOp::Eq));
                self.jump(Instr::PopJumpIfFalse(0), fail);
            }
            P::MatchSingleton(s) => {
                let v = match s.value {
                    ast::Singleton::None => Value::None,
                    ast::Singleton::True => Value::Bool(true),
                    ast::Singleton::False => Value::Bool(false),
                };
                let k = self.const_(v);
                self.emit(Instr::LoadConst(k));
                self.emit(Instr::Compare(CmpOp::Is));
                self.jump(Instr::PopJumpIfFalse(0), fail);
            }
            P::MatchAs(a) => match &a.pattern {
                None => match &a.name {
                    Some(n) => self.store_name(n.id.as_str())?,
                    None => {
                        self.emit(Instr::Pop);
                    }
                },
                Some(sub) => {
                    if let Some(n) = &a.name {
                        let f2 = self.label();
                        let ok = self.label();
                        self.emit(Instr::Dup);
                        self.pattern(sub, f2)?;
                        self.store_name(n.id.as_str())?;
                        self.jump(Instr::Jump(0), ok);
                        self.bind(f2);
                        self.emit(Instr::Pop);
                        self.jump(Instr::Jump(0), fail);
                        self.bind(ok);
                    } else {
                        self.pattern(sub, fail)?;
                    }
                }
            },
            P::MatchOr(o) => {
                let ok = self.label();
                let n = o.patterns.len();
                for (i, sub) in o.patterns.iter().enumerate() {
                    let next = self.label();
                    if i + 1 < n {
                        self.emit(Instr::Dup);
                        self.pattern(sub, next)?;
                        self.emit(Instr::Pop);
                        self.jump(Instr::Jump(0), ok);
                        self.bind(next);
                    } else {
                        self.pattern(sub, fail)?;
                    }
                }
                self.bind(ok);
            }
            P::MatchSequence(s) => {
                let f2 = self.label();
                let ok = self.label();
                self.emit(Instr::Dup);
                self.emit(Instr::MatchSequence(0));
                self.jump(Instr::PopJumpIfFalse(0), f2);
                let star = s.patterns.iter().position(|p| matches!(p, P::MatchStar(_)));
                let n = s.patterns.len() as u32;
                self.emit(Instr::Dup);
                self.emit(Instr::GetLen);
                let k = self.const_(Value::Int(if star.is_some() {
                    n as i64 - 1
                } else {
                    n as i64
                }));
                self.emit(Instr::LoadConst(k));
                self.emit(Instr::Compare(if star.is_some() {
                    CmpOp::Ge
                } else {
                    CmpOp::Eq
                }));
                self.jump(Instr::PopJumpIfFalse(0), f2);
                match star {
                    None => {
                        self.emit(Instr::UnpackSequence(n));
                    }
                    Some(p) => {
                        self.emit(Instr::UnpackEx(p as u32, n - p as u32 - 1));
                    }
                }
                // Items are now on the stack, first on top. Match each; on failure pop the rest.
                for (i, sub) in s.patterns.iter().enumerate() {
                    let remaining = n as usize - i - 1;
                    let fi = self.label();
                    let next = self.label();
                    match sub {
                        P::MatchStar(st) => match &st.name {
                            Some(nm) => self.store_name(nm.id.as_str())?,
                            None => {
                                self.emit(Instr::Pop);
                            }
                        },
                        sub => self.pattern(sub, fi)?,
                    }
                    self.jump(Instr::Jump(0), next);
                    self.bind(fi);
                    for _ in 0..remaining {
                        self.emit(Instr::Pop);
                    }
                    self.jump(Instr::Jump(0), fail);
                    self.bind(next);
                }
                self.jump(Instr::Jump(0), ok);
                self.bind(f2);
                self.emit(Instr::Pop);
                self.jump(Instr::Jump(0), fail);
                self.bind(ok);
            }
            P::MatchMapping(m) => {
                let f2 = self.label();
                let ok = self.label();
                self.emit(Instr::MatchMapping);
                self.jump(Instr::PopJumpIfFalse(0), f2);
                for k in m.keys.iter() {
                    self.expr(k)?;
                }
                self.emit(Instr::BuildTuple(m.keys.len() as u32));
                self.emit(Instr::MatchKeys);
                // Stack: [subject, values-or-None]
                self.emit(Instr::Dup);
                let k = self.const_(Value::None);
                self.emit(Instr::LoadConst(k));
                self.emit(Instr::Compare(CmpOp::IsNot));
                let f3 = self.label();
                self.jump(Instr::PopJumpIfFalse(0), f3);
                let n = m.patterns.len();
                self.emit(Instr::UnpackSequence(n as u32));
                for (i, sub) in m.patterns.iter().enumerate() {
                    let remaining = n - i - 1;
                    let fi = self.label();
                    let next = self.label();
                    self.pattern(sub, fi)?;
                    self.jump(Instr::Jump(0), next);
                    self.bind(fi);
                    for _ in 0..remaining {
                        self.emit(Instr::Pop);
                    }
                    self.jump(Instr::Jump(0), f2);
                    self.bind(next);
                }
                match &m.rest {
                    Some(r) => {
                        // subject still on stack: build rest dict
                        self.emit(Instr::Dup);
                        for k in m.keys.iter() {
                            self.expr(k)?;
                        }
                        self.emit(Instr::BuildTuple(m.keys.len() as u32));
                        let ni = self.name("__pvm_mapping_rest__");
                        self.emit(Instr::CallMethod(ni, 1));
                        self.store_name(r.id.as_str())?;
                        self.emit(Instr::Pop);
                    }
                    None => {
                        self.emit(Instr::Pop);
                    }
                }
                self.jump(Instr::Jump(0), ok);
                self.bind(f3);
                self.emit(Instr::Pop);
                self.bind(f2);
                self.emit(Instr::Pop);
                self.jump(Instr::Jump(0), fail);
                self.bind(ok);
            }
            P::MatchClass(c) => {
                let f2 = self.label();
                let ok = self.label();
                self.expr(&c.cls)?;
                for _ in c.arguments.patterns.iter() {}
                let names: Vec<Value> = c
                    .arguments
                    .keywords
                    .iter()
                    .map(|k| Value::str(k.attr.id.as_str()))
                    .collect();
                let k = self.const_(Value::tuple(names));
                self.emit(Instr::LoadConst(k));
                let npos = c.arguments.patterns.len();
                self.emit(Instr::MatchClass(npos as u32));
                // Stack: [attrs-tuple or None]
                self.emit(Instr::Dup);
                let kn = self.const_(Value::None);
                self.emit(Instr::LoadConst(kn));
                self.emit(Instr::Compare(CmpOp::IsNot));
                self.jump(Instr::PopJumpIfFalse(0), f2);
                let subs: Vec<&'a ast::Pattern> = c
                    .arguments
                    .patterns
                    .iter()
                    .chain(c.arguments.keywords.iter().map(|k| &k.pattern))
                    .collect();
                let n = subs.len();
                self.emit(Instr::UnpackSequence(n as u32));
                for (i, sub) in subs.into_iter().enumerate() {
                    let remaining = n - i - 1;
                    let fi = self.label();
                    let next = self.label();
                    self.pattern(sub, fi)?;
                    self.jump(Instr::Jump(0), next);
                    self.bind(fi);
                    for _ in 0..remaining {
                        self.emit(Instr::Pop);
                    }
                    self.jump(Instr::Jump(0), fail);
                    self.bind(next);
                }
                self.jump(Instr::Jump(0), ok);
                self.bind(f2);
                self.emit(Instr::Pop);
                self.jump(Instr::Jump(0), fail);
                self.bind(ok);
            }
            P::MatchStar(_) => return Err(self.err("can't use starred pattern here")),
        }
        Ok(())
    }
}

/// The value of integer literal `i` (decimal, `0x`, `0o` or `0b`, with `_` separators) as a
/// big integer; `None` if its text is not a valid literal.
pub(crate) fn big_int_literal(i: &ast::Int) -> Option<num_bigint::BigInt> {
    let text: String = i.to_string().chars().filter(|c| *c != '_').collect();
    let lower = text.to_ascii_lowercase();
    let (digits, radix) = if let Some(r) = lower.strip_prefix("0x") {
        (r, 16)
    } else if let Some(r) = lower.strip_prefix("0o") {
        (r, 8)
    } else if let Some(r) = lower.strip_prefix("0b") {
        (r, 2)
    } else {
        (lower.as_str(), 10)
    };
    num_bigint::BigInt::parse_bytes(digits.as_bytes(), radix)
}

/// True if `body` (not counting nested functions and classes) has a `name: annotation`
/// statement, so its namespace needs `__annotations__`.
fn has_annotations(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::AnnAssign(a) => a.simple && matches!(&*a.target, Expr::Name(_)),
        Stmt::If(i) => {
            has_annotations(&i.body) || i.elif_else_clauses.iter().any(|c| has_annotations(&c.body))
        }
        Stmt::For(f) => has_annotations(&f.body) || has_annotations(&f.orelse),
        Stmt::While(w) => has_annotations(&w.body) || has_annotations(&w.orelse),
        Stmt::With(w) => has_annotations(&w.body),
        Stmt::Try(t) => {
            has_annotations(&t.body)
                || has_annotations(&t.orelse)
                || has_annotations(&t.finalbody)
                || t.handlers.iter().any(|h| match h {
                    ast::ExceptHandler::ExceptHandler(h) => has_annotations(&h.body),
                })
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_newer_syntax_and_bad_targets() {
        assert!(compile_module("type X = int\n", "t.py").is_err());
        assert!(compile_module("def f[T](x): pass\n", "t.py").is_err());
        assert!(compile_module("1 = x\n", "t.py").is_err());
        assert!(compile_module("return 1\n", "t.py").is_err());
        assert!(compile_module("x = (\n", "t.py").is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = format!("x = {}1{}\n", "[".repeat(5000), "]".repeat(5000));
        let r = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || compile_module(&src, "t.py").is_err())
            .expect("thread")
            .join()
            .expect("join");
        assert!(r);
    }

    #[test]
    fn closures_get_cells() {
        let code = compile_module(
            "def f():\n    x = 1\n    def g():\n        return x\n    return g\n",
            "t.py",
        )
        .expect("compile");
        let f = code
            .consts
            .iter()
            .find_map(|c| {
                if let Value::Code(c) = c {
                    Some(c.clone())
                } else {
                    None
                }
            })
            .expect("f");
        assert_eq!(f.ncells, 1);
        assert_eq!(&*f.cellnames[0], "x");
    }
}
