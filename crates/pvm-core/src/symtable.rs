//! Scope analysis: which names are fast locals, cells, free variables or globals in each scope.

use ruff_python_ast::{self as ast, Expr, Stmt};
use std::collections::{BTreeSet, HashMap};

/// Scope kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// Module top level.
    Module,
    /// def / lambda / comprehension.
    Function,
    /// Class body.
    Class,
}

/// How a name is accessed in a scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// Fast local slot.
    Local,
    /// Cell owned by this scope.
    Cell,
    /// Free variable from an enclosing scope.
    Free,
    /// Global (explicit or implicit).
    Global,
    /// Class-body / module name lookup.
    Name,
}

/// Analysis result of one scope.
#[derive(Debug, Default)]
pub struct Scope {
    /// Kind.
    pub kind: Option<ScopeKind>,
    /// Parameters in order.
    pub params: Vec<String>,
    /// Names bound here (in first-binding order).
    pub bound: Vec<String>,
    bound_set: BTreeSet<String>,
    /// Names referenced.
    pub used: BTreeSet<String>,
    /// `global` declarations.
    pub globals: BTreeSet<String>,
    /// `nonlocal` declarations.
    pub nonlocals: BTreeSet<String>,
    /// Cells owned (sorted).
    pub cells: BTreeSet<String>,
    /// Free variables (sorted).
    pub frees: BTreeSet<String>,
    /// Contains yield.
    pub generator: bool,
    /// Children scope keys.
    pub children: Vec<usize>,
    /// Comprehension scope (walrus binds in the enclosing scope).
    pub comprehension: bool,
}

impl Scope {
    fn bind(&mut self, n: &str) {
        if self.bound_set.insert(n.to_string()) {
            self.bound.push(n.to_string());
        }
    }
    /// Kind of a name in this scope.
    pub fn name_kind(&self, n: &str) -> NameKind {
        let kind = self.kind.unwrap_or(ScopeKind::Module);
        if self.globals.contains(n) {
            return NameKind::Global;
        }
        match kind {
            ScopeKind::Module => NameKind::Global,
            ScopeKind::Class => {
                if self.frees.contains(n) && !self.bound_set.contains(n) {
                    NameKind::Free
                } else {
                    NameKind::Name
                }
            }
            ScopeKind::Function => {
                if self.cells.contains(n) {
                    NameKind::Cell
                } else if self.frees.contains(n) {
                    NameKind::Free
                } else if self.bound_set.contains(n) {
                    NameKind::Local
                } else {
                    NameKind::Global
                }
            }
        }
    }
    /// Whether `n` is bound in this scope (excluding global / nonlocal declarations).
    pub fn binds(&self, n: &str) -> bool {
        self.bound_set.contains(n) && !self.globals.contains(n) && !self.nonlocals.contains(n)
    }
}

/// All scopes of a module, keyed by the address of their AST node (the module key is 0).
#[derive(Debug, Default)]
pub struct SymTable {
    /// Scopes by key.
    pub scopes: HashMap<usize, Scope>,
}

/// Key for an AST node.
pub fn key<T>(node: &T) -> usize {
    node as *const T as usize
}

struct Builder {
    scopes: HashMap<usize, Scope>,
    stack: Vec<usize>,
    err: Option<String>,
}

/// Analyse a module.
pub fn analyse(body: &[Stmt]) -> Result<SymTable, String> {
    let mut b = Builder {
        scopes: HashMap::new(),
        stack: vec![0],
        err: None,
    };
    b.scopes.insert(
        0,
        Scope {
            kind: Some(ScopeKind::Module),
            ..Default::default()
        },
    );
    for s in body {
        b.stmt(s);
    }
    if let Some(e) = b.err {
        return Err(e);
    }
    let mut st = SymTable { scopes: b.scopes };
    resolve(&mut st, 0, &BTreeSet::new());
    Ok(st)
}

fn resolve(st: &mut SymTable, k: usize, enclosing: &BTreeSet<String>) -> BTreeSet<String> {
    // Returns the free names this scope needs from its parents.
    let (kind, children) = {
        let s = &st.scopes[&k];
        (s.kind.unwrap_or(ScopeKind::Module), s.children.clone())
    };
    let mut bound_here: BTreeSet<String> = BTreeSet::new();
    {
        let s = st.scopes.get_mut(&k).expect("scope");
        if kind == ScopeKind::Function {
            for n in &s.bound {
                if !s.globals.contains(n) && !s.nonlocals.contains(n) {
                    bound_here.insert(n.clone());
                }
            }
            let mut frees = BTreeSet::new();
            for n in s.nonlocals.iter() {
                frees.insert(n.clone());
            }
            for n in s.used.iter() {
                if !bound_here.contains(n) && !s.globals.contains(n) && enclosing.contains(n) {
                    frees.insert(n.clone());
                }
            }
            s.frees = frees;
        } else if kind == ScopeKind::Class {
            let mut frees = BTreeSet::new();
            for n in s.used.iter() {
                if !s.globals.contains(n) && enclosing.contains(n) {
                    frees.insert(n.clone());
                }
            }
            s.frees = frees;
        }
    }
    let mut child_enclosing = enclosing.clone();
    if kind == ScopeKind::Function {
        child_enclosing.extend(bound_here.iter().cloned());
        let s = &st.scopes[&k];
        child_enclosing.extend(s.frees.iter().cloned());
        for g in &s.globals {
            child_enclosing.remove(g);
        }
    } else if kind == ScopeKind::Class {
        let s = &st.scopes[&k];
        for g in &s.globals {
            child_enclosing.remove(g);
        }
    }
    for c in children {
        let need = resolve(st, c, &child_enclosing);
        let s = st.scopes.get_mut(&k).expect("scope");
        for n in need {
            if kind == ScopeKind::Function && bound_here.contains(&n) {
                s.cells.insert(n);
            } else if kind != ScopeKind::Module {
                s.frees.insert(n);
            }
        }
    }
    let s = &st.scopes[&k];
    s.frees.clone()
}

impl Builder {
    fn cur(&mut self) -> &mut Scope {
        let k = *self.stack.last().expect("scope stack");
        self.scopes.get_mut(&k).expect("scope")
    }
    fn bind(&mut self, n: &str) {
        self.cur().bind(n);
    }
    fn use_name(&mut self, n: &str) {
        self.cur().used.insert(n.to_string());
    }
    fn push_scope(&mut self, k: usize, kind: ScopeKind) {
        let parent = *self.stack.last().expect("scope stack");
        self.scopes
            .get_mut(&parent)
            .expect("scope")
            .children
            .push(k);
        self.scopes.insert(
            k,
            Scope {
                kind: Some(kind),
                ..Default::default()
            },
        );
        self.stack.push(k);
    }
    fn pop_scope(&mut self) {
        self.stack.pop();
    }
    fn params(&mut self, p: &ast::Parameters) {
        for a in p.posonlyargs.iter().chain(p.args.iter()) {
            let n = a.parameter.name.id.as_str().to_string();
            self.cur().params.push(n.clone());
            self.bind(&n);
        }
        if let Some(v) = &p.vararg {
            let n = v.name.id.as_str().to_string();
            self.cur().params.push(n.clone());
            self.bind(&n);
        }
        for a in p.kwonlyargs.iter() {
            let n = a.parameter.name.id.as_str().to_string();
            self.cur().params.push(n.clone());
            self.bind(&n);
        }
        if let Some(v) = &p.kwarg {
            let n = v.name.id.as_str().to_string();
            self.cur().params.push(n.clone());
            self.bind(&n);
        }
    }
    fn param_defaults(&mut self, p: &ast::Parameters) {
        for a in p
            .posonlyargs
            .iter()
            .chain(p.args.iter())
            .chain(p.kwonlyargs.iter())
        {
            if let Some(d) = &a.default {
                self.expr(d);
            }
            if let Some(an) = &a.parameter.annotation {
                self.expr(an);
            }
        }
        for v in p.vararg.iter().chain(p.kwarg.iter()) {
            if let Some(an) = &v.annotation {
                self.expr(an);
            }
        }
    }
    fn body(&mut self, b: &[Stmt]) {
        for s in b {
            self.stmt(s);
        }
    }
    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::FunctionDef(f) => {
                for d in &f.decorator_list {
                    self.expr(&d.expression);
                }
                self.param_defaults(&f.parameters);
                if let Some(r) = &f.returns {
                    self.expr(r);
                }
                self.bind(f.name.id.as_str());
                self.push_scope(key(f), ScopeKind::Function);
                self.params(&f.parameters);
                self.body(&f.body);
                self.pop_scope();
            }
            Stmt::ClassDef(c) => {
                for d in &c.decorator_list {
                    self.expr(&d.expression);
                }
                if let Some(a) = &c.arguments {
                    for e in a.args.iter() {
                        self.expr(e);
                    }
                    for k in a.keywords.iter() {
                        self.expr(&k.value);
                    }
                }
                self.bind(c.name.id.as_str());
                self.push_scope(key(c), ScopeKind::Class);
                self.body(&c.body);
                self.pop_scope();
            }
            Stmt::Return(r) => {
                if let Some(v) = &r.value {
                    self.expr(v);
                }
            }
            Stmt::Delete(d) => {
                for t in &d.targets {
                    self.target(t);
                }
            }
            Stmt::Assign(a) => {
                self.expr(&a.value);
                for t in &a.targets {
                    self.target(t);
                }
            }
            Stmt::AugAssign(a) => {
                self.expr(&a.value);
                if let Expr::Name(n) = &*a.target {
                    self.use_name(n.id.as_str());
                }
                self.target(&a.target);
            }
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    self.expr(v);
                    self.target(&a.target);
                } else if let Expr::Name(n) = &*a.target {
                    if self.cur().kind != Some(ScopeKind::Module) {
                        self.bind(n.id.as_str());
                    }
                } else {
                    self.target(&a.target);
                }
                if self.cur().kind != Some(ScopeKind::Function) {
                    self.expr(&a.annotation);
                }
            }
            Stmt::TypeAlias(_) => {
                self.err
                    .get_or_insert("SyntaxError: 'type' statements need Python 3.12".into());
            }
            Stmt::For(f) => {
                self.expr(&f.iter);
                self.target(&f.target);
                self.body(&f.body);
                self.body(&f.orelse);
            }
            Stmt::While(w) => {
                self.expr(&w.test);
                self.body(&w.body);
                self.body(&w.orelse);
            }
            Stmt::If(i) => {
                self.expr(&i.test);
                self.body(&i.body);
                for c in &i.elif_else_clauses {
                    if let Some(t) = &c.test {
                        self.expr(t);
                    }
                    self.body(&c.body);
                }
            }
            Stmt::With(w) => {
                for it in &w.items {
                    self.expr(&it.context_expr);
                    if let Some(v) = &it.optional_vars {
                        self.target(v);
                    }
                }
                self.body(&w.body);
            }
            Stmt::Match(m) => {
                self.expr(&m.subject);
                for c in &m.cases {
                    self.pattern(&c.pattern);
                    if let Some(g) = &c.guard {
                        self.expr(g);
                    }
                    self.body(&c.body);
                }
            }
            Stmt::Raise(r) => {
                if let Some(e) = &r.exc {
                    self.expr(e);
                }
                if let Some(e) = &r.cause {
                    self.expr(e);
                }
            }
            Stmt::Try(t) => {
                self.body(&t.body);
                for h in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    if let Some(ty) = &h.type_ {
                        self.expr(ty);
                    }
                    if let Some(n) = &h.name {
                        self.bind(n.id.as_str());
                    }
                    self.body(&h.body);
                }
                self.body(&t.orelse);
                self.body(&t.finalbody);
            }
            Stmt::Assert(a) => {
                self.expr(&a.test);
                if let Some(m) = &a.msg {
                    self.expr(m);
                }
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    let n = match &a.asname {
                        Some(x) => x.id.as_str().to_string(),
                        None => a
                            .name
                            .id
                            .as_str()
                            .split('.')
                            .next()
                            .unwrap_or("")
                            .to_string(),
                    };
                    self.bind(&n);
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    let n = match &a.asname {
                        Some(x) => x.id.as_str(),
                        None => a.name.id.as_str(),
                    };
                    if n != "*" {
                        self.bind(n);
                    }
                }
            }
            Stmt::Global(g) => {
                for n in &g.names {
                    self.cur().globals.insert(n.id.as_str().to_string());
                }
            }
            Stmt::Nonlocal(g) => {
                for n in &g.names {
                    let n = n.id.as_str().to_string();
                    self.cur().nonlocals.insert(n.clone());
                    self.cur().bind(&n);
                }
            }
            Stmt::Expr(e) => self.expr(&e.value),
            Stmt::Pass(_) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::IpyEscapeCommand(_) => {}
        }
    }
    fn pattern(&mut self, p: &ast::Pattern) {
        use ast::Pattern as P;
        match p {
            P::MatchValue(v) => self.expr(&v.value),
            P::MatchSingleton(_) => {}
            P::MatchSequence(s) => {
                for p in &s.patterns {
                    self.pattern(p);
                }
            }
            P::MatchMapping(m) => {
                for k in m.keys.iter() {
                    self.expr(k);
                }
                for p in m.patterns.iter() {
                    self.pattern(p);
                }
                if let Some(r) = &m.rest {
                    self.bind(r.id.as_str());
                }
            }
            P::MatchClass(c) => {
                self.expr(&c.cls);
                for p in c.arguments.patterns.iter() {
                    self.pattern(p);
                }
                for k in c.arguments.keywords.iter() {
                    self.pattern(&k.pattern);
                }
            }
            P::MatchStar(s) => {
                if let Some(n) = &s.name {
                    self.bind(n.id.as_str());
                }
            }
            P::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p);
                }
                if let Some(n) = &a.name {
                    self.bind(n.id.as_str());
                }
            }
            P::MatchOr(o) => {
                for p in &o.patterns {
                    self.pattern(p);
                }
            }
        }
    }
    fn target(&mut self, t: &Expr) {
        match t {
            Expr::Name(n) => self.bind(n.id.as_str()),
            Expr::Tuple(t) => {
                for e in &t.elts {
                    self.target(e);
                }
            }
            Expr::List(t) => {
                for e in &t.elts {
                    self.target(e);
                }
            }
            Expr::Starred(s) => self.target(&s.value),
            Expr::Attribute(a) => self.expr(&a.value),
            Expr::Subscript(s) => {
                self.expr(&s.value);
                self.expr(&s.slice);
            }
            other => self.expr(other),
        }
    }
    fn comprehension(&mut self, k: usize, gens: &[ast::Comprehension], elts: &[&Expr]) {
        if let Some(first) = gens.first() {
            self.expr(&first.iter);
        }
        self.push_scope(k, ScopeKind::Function);
        self.cur().comprehension = true;
        self.cur().params.push(".0".into());
        self.bind(".0");
        for (i, g) in gens.iter().enumerate() {
            if i > 0 {
                self.expr(&g.iter);
            }
            self.target(&g.target);
            for c in &g.ifs {
                self.expr(c);
            }
        }
        for e in elts {
            self.expr(e);
        }
        self.pop_scope();
    }
    fn walrus_target(&mut self, n: &str) {
        // Bind in the nearest non-comprehension scope; comprehension scopes see it as free.
        let mut idx = self.stack.len() - 1;
        while idx > 0 && self.scopes[&self.stack[idx]].comprehension {
            let k = self.stack[idx];
            let s = self.scopes.get_mut(&k).expect("scope");
            s.nonlocals.insert(n.to_string());
            s.bind(n);
            idx -= 1;
        }
        let k = self.stack[idx];
        let s = self.scopes.get_mut(&k).expect("scope");
        s.bind(n);
        if s.kind == Some(ScopeKind::Module) && idx < self.stack.len() - 1 {
            // comprehension at module level: the name is a global for the comprehension scopes.
            for j in idx + 1..self.stack.len() {
                let kk = self.stack[j];
                let s = self.scopes.get_mut(&kk).expect("scope");
                s.nonlocals.remove(n);
                s.globals.insert(n.to_string());
            }
        }
    }
    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::BoolOp(b) => {
                for v in &b.values {
                    self.expr(v);
                }
            }
            Expr::Named(n) => {
                self.expr(&n.value);
                if let Expr::Name(t) = &*n.target {
                    self.walrus_target(t.id.as_str());
                }
            }
            Expr::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            Expr::UnaryOp(u) => self.expr(&u.operand),
            Expr::Lambda(l) => {
                if let Some(p) = &l.parameters {
                    self.param_defaults(p);
                }
                self.push_scope(key(l), ScopeKind::Function);
                if let Some(p) = &l.parameters {
                    self.params(p);
                }
                self.expr(&l.body);
                self.pop_scope();
            }
            Expr::If(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            Expr::Dict(d) => {
                for it in &d.items {
                    if let Some(k) = &it.key {
                        self.expr(k);
                    }
                    self.expr(&it.value);
                }
            }
            Expr::Set(s) => {
                for e in &s.elts {
                    self.expr(e);
                }
            }
            Expr::ListComp(c) => self.comprehension(key(c), &c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.comprehension(key(c), &c.generators, &[&c.elt]),
            Expr::DictComp(c) => {
                let mut v: Vec<&Expr> = Vec::new();
                if let Some(k) = &c.key {
                    v.push(k);
                }
                v.push(&c.value);
                self.comprehension(key(c), &c.generators, &v)
            }
            Expr::Generator(c) => {
                self.comprehension(key(c), &c.generators, &[&c.elt]);
                self.scopes.get_mut(&key(c)).expect("scope").generator = true;
            }
            Expr::Await(a) => self.expr(&a.value),
            Expr::Yield(y) => {
                self.cur().generator = true;
                if let Some(v) = &y.value {
                    self.expr(v);
                }
            }
            Expr::YieldFrom(y) => {
                self.cur().generator = true;
                self.expr(&y.value);
            }
            Expr::Compare(c) => {
                self.expr(&c.left);
                for x in c.comparators.iter() {
                    self.expr(x);
                }
            }
            Expr::Call(c) => {
                self.expr(&c.func);
                if let Expr::Name(n) = &*c.func
                    && n.id.as_str() == "super"
                {
                    // zero-arg super() reads the first parameter; make sure it is visible.
                }
                for a in c.arguments.args.iter() {
                    self.expr(a);
                }
                for k in c.arguments.keywords.iter() {
                    self.expr(&k.value);
                }
            }
            Expr::FString(f) => {
                for el in f.value.elements() {
                    self.fstring_element(el);
                }
            }
            Expr::TString(_) => {
                self.err
                    .get_or_insert("SyntaxError: t-strings need Python 3.14".into());
            }
            Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::NumberLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_)
            | Expr::EllipsisLiteral(_)
            | Expr::IpyEscapeCommand(_) => {}
            Expr::Attribute(a) => self.expr(&a.value),
            Expr::Subscript(s) => {
                self.expr(&s.value);
                self.expr(&s.slice);
            }
            Expr::Starred(s) => self.expr(&s.value),
            Expr::Name(n) => match n.ctx {
                ast::ExprContext::Load => self.use_name(n.id.as_str()),
                _ => self.bind(n.id.as_str()),
            },
            Expr::List(l) => {
                for e in &l.elts {
                    self.expr(e);
                }
            }
            Expr::Tuple(l) => {
                for e in &l.elts {
                    self.expr(e);
                }
            }
            Expr::Slice(s) => {
                for x in [&s.lower, &s.upper, &s.step].into_iter().flatten() {
                    self.expr(x);
                }
            }
        }
    }
    fn fstring_element(&mut self, el: &ast::InterpolatedStringElement) {
        if let ast::InterpolatedStringElement::Interpolation(i) = el {
            self.expr(&i.expression);
            if let Some(spec) = &i.format_spec {
                for e in spec.elements.iter() {
                    self.fstring_element(e);
                }
            }
        }
    }
}
