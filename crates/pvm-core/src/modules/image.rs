//! Pre-initialised module images: `import cowboy_sdk` without re-running the module body.
//!
//! Running the body of `cowboy_sdk` (eleven classes, sixty functions) was most of the host
//! time of a small handler call. Its outcome is a pure function of the module source: the body
//! reads nothing but the built-ins and binds `pvm_host`. So each PVM thread runs the body once,
//! in a scratch VM, and records the object graph it leaves behind as a *plan* ([`Plan`]); an
//! import then rebuilds that graph from the plan, object for object, for the importing
//! invocation alone.
//!
//! Nothing observable changes, because the rebuilt graph is the graph the body would have
//! built in that invocation:
//! * every object an actor could reach or mutate (module, classes, functions, instances,
//!   strings, lists, tuples, dicts, cells, properties) is a fresh object of the invocation, so
//!   no mutation leaks into another call; only objects that are immutable *and* carry no heap
//!   accounting are shared: native functions of `pvm_host`, big ints, and code objects whose
//!   constants are all such values (code with `str`/`bytes`/`tuple` constants is copied, since
//!   those constants are charged to the heap and cache their hash);
//! * strings keep their cached-hash state and every accounted object charges exactly the bytes
//!   the original charged (lists keep their capacity), so heap accounting is identical, then
//!   and when parts of the SDK are later freed;
//! * object ids (hashes and reprs of classes, functions and instances) are those the body
//!   would have assigned: ids are shifted to start at the VM's next id, and the VM's id
//!   counter advances by as many ids as the body consumes;
//! * dict layouts and version tags are the recorded ones, so interpreter inline caches stay
//!   valid; built-in classes and functions are the importing VM's own.
//!
//! The body could only have behaved differently by failing: on the heap cap, the recursion
//! limit or the native recursion limit. [`calibration`] measures, once per process, exactly
//! how much heap headroom, frame depth and native depth the body needs (by bisection over
//! real runs of it); an import with less headroom than that, or with generator frames waiting
//! to be closed, runs the real body instead, which then fails exactly as before. Cycles are
//! unaffected either way: the body runs on its own budget ([`super::MODULE_INIT_BUDGET`]).
//!
//! Building an image runs in [`crate::heap::isolated`], so it charges nothing to the invocation
//! that triggers it. A thread whose image cannot be built or verified (see [`build`]) simply
//! keeps running the body; [`stats`] reports it.

use crate::bytecode::Code;
use crate::dict::Dict;
use crate::heap::{self, Acct, Tracked};
use crate::value::*;
use crate::vm::{MAX_NATIVE_DEPTH, Vm};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// How an instantiation obtains one value of the graph.
#[derive(Debug, Clone)]
enum Ref {
    /// Shared by every instantiation: an immediate, or an immutable object without heap
    /// accounting (big int, native function without receiver, code without accounted constants).
    Shared(Value),
    /// The object created for node `i`.
    Node(u32),
    /// The importing VM's built-in named `externals[i]`.
    Builtin(u32),
    /// Module `i` supplied by the caller (`pvm_host`).
    Link(u32),
}

/// A namespace: the recorded dict with every key and value replaced by `None` (hashes, slots
/// and version tag kept), and the live slots with their keys and values.
#[derive(Debug)]
struct DictPlan {
    template: Dict,
    entries: Box<[(u32, Ref, Ref)]>,
}

#[derive(Debug)]
enum Node {
    Str {
        text: Box<str>,
        nchars: usize,
        hash: u64,
        acct: usize,
    },
    Bytes {
        b: Box<[u8]>,
        acct: usize,
    },
    Tuple {
        items: Box<[Ref]>,
        acct: usize,
    },
    List {
        items: Box<[Ref]>,
        cap: usize,
        acct: usize,
    },
    Dict(DictPlan),
    Module {
        name: Rc<str>,
        dict: DictPlan,
    },
    Class {
        name: Rc<str>,
        qualname: Rc<str>,
        bases: Box<[Ref]>,
        mro: Box<[Ref]>,
        dict: DictPlan,
        kind: TypeKind,
        slots: Option<Vec<Rc<str>>>,
        id: u64,
        flags: u8,
    },
    Function {
        code: Ref,
        globals: Ref,
        defaults: Box<[Ref]>,
        kwdefaults: Box<[(Rc<str>, Ref)]>,
        closure: Box<[Ref]>,
        class: Option<Ref>,
        dict: Option<DictPlan>,
        annotations: Ref,
        name: Rc<str>,
        id: u64,
    },
    Instance {
        class: Ref,
        dict: Ref,
        id: u64,
    },
    Cell(Option<Ref>),
    Property {
        fget: Ref,
        fset: Ref,
        fdel: Ref,
    },
    ClassMethod(Ref),
    StaticMethod(Ref),
    Code {
        template: Rc<Code>,
        consts: Box<[Ref]>,
    },
}

/// A recorded object graph. Nodes are in creation order: the immutable parts of a node
/// (tuple items, class bases, a function's code, globals and closure, an instance's class and
/// dict, property functions, code constants) only refer to earlier nodes; mutable contents
/// (dict entries, list items, function defaults, cell contents) may refer to any node and are
/// filled in after every node exists.
#[derive(Debug)]
pub(crate) struct Plan {
    nodes: Vec<Node>,
    externals: Vec<Rc<str>>,
    root: u32,
    /// First id the recorded body assigned, and how many ids it consumed.
    id_base: u64,
    id_span: u64,
}

// ------------------------------------------------------------------ capture

struct Capture<'a> {
    nodes: Vec<Node>,
    memo: HashMap<usize, u32>,
    builtins: &'a HashMap<usize, Rc<str>>,
    externals: Vec<Rc<str>>,
    links: &'a [usize],
    ids: std::ops::Range<u64>,
    todo: Vec<(u32, Value)>,
}

fn ptr_of(v: &Value) -> Option<usize> {
    Some(match v {
        Value::BigInt(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Str(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Bytes(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::ByteArray(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::List(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Tuple(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Dict(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Set(x) | Value::FrozenSet(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Range(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Slice(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Function(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::BoundMethod(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Builtin(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Class(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Instance(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Generator(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Iter(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Module(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Cell(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Code(x) => Rc::as_ptr(x) as *const u8 as usize,
        Value::Wrapper(x) => Rc::as_ptr(x) as *const u8 as usize,
        _ => return None,
    })
}

/// True if every constant of `c` (recursively) is shareable: no heap accounting, no cached
/// hash, no identity an actor could observe across invocations.
fn clean_code(c: &Code) -> bool {
    c.consts.iter().all(|k| match k {
        Value::None
        | Value::Bool(_)
        | Value::Int(_)
        | Value::Float(_)
        | Value::BigInt(_)
        | Value::Ellipsis => true,
        Value::Code(n) => clean_code(n),
        _ => false,
    })
}

impl Capture<'_> {
    fn push(&mut self, key: usize, n: Node) -> Ref {
        let i = self.nodes.len() as u32;
        self.nodes.push(n);
        self.memo.insert(key, i);
        Ref::Node(i)
    }

    fn id(&self, id: u64) -> Result<u64, String> {
        if self.ids.contains(&id) {
            Ok(id)
        } else {
            Err(format!("object id {id} predates the module body"))
        }
    }

    fn visit(&mut self, v: &Value) -> Result<Ref, String> {
        let Some(key) = ptr_of(v) else {
            return match v {
                Value::None
                | Value::Bool(_)
                | Value::Int(_)
                | Value::Float(_)
                | Value::Ellipsis
                | Value::NotImplemented => Ok(Ref::Shared(v.clone())),
                _ => Err("unsupported immediate".into()),
            };
        };
        if let Some(name) = self.builtins.get(&key) {
            let i = match self.externals.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    self.externals.push(name.clone());
                    self.externals.len() - 1
                }
            };
            return Ok(Ref::Builtin(i as u32));
        }
        if let Some(i) = self.links.iter().position(|&l| l == key) {
            return Ok(Ref::Link(i as u32));
        }
        if let Some(&i) = self.memo.get(&key) {
            return Ok(Ref::Node(i));
        }
        Ok(match v {
            Value::BigInt(_) => Ref::Shared(v.clone()),
            Value::Builtin(b) if b.recv.is_none() => Ref::Shared(v.clone()),
            Value::Str(s) => self.push(
                key,
                Node::Str {
                    text: Box::from(&*s.s),
                    nchars: s.nchars,
                    hash: s.hash.get(),
                    acct: s.acct.bytes(),
                },
            ),
            Value::Bytes(b) => self.push(
                key,
                Node::Bytes {
                    b: b.b.clone(),
                    acct: b.acct.bytes(),
                },
            ),
            Value::Tuple(t) => {
                let items =
                    t.v.iter()
                        .map(|x| self.visit(x))
                        .collect::<Result<_, _>>()?;
                self.push(
                    key,
                    Node::Tuple {
                        items,
                        acct: t.acct.bytes(),
                    },
                )
            }
            Value::List(l) => {
                let r = self.push(
                    key,
                    Node::List {
                        items: Box::new([]),
                        cap: l.v.borrow().capacity(),
                        acct: l.acct.bytes(),
                    },
                );
                self.later(&r, v);
                r
            }
            Value::Dict(_) => {
                let r = self.push(key, Node::Dict(empty_plan()));
                self.later(&r, v);
                r
            }
            Value::Module(m) => {
                let r = self.push(
                    key,
                    Node::Module {
                        name: m.name.clone(),
                        dict: empty_plan(),
                    },
                );
                self.later(&r, v);
                r
            }
            Value::Class(c) => {
                if c.builtin {
                    return Err(format!(
                        "built-in class '{}' is not a built-in name",
                        c.name
                    ));
                }
                let bases = c
                    .bases
                    .iter()
                    .map(|b| self.visit(&Value::Class(b.clone())))
                    .collect::<Result<_, _>>()?;
                let mro = c
                    .mro
                    .iter()
                    .map(|b| self.visit(&Value::Class(b.clone())))
                    .collect::<Result<_, _>>()?;
                let id = self.id(c.id)?;
                let r = self.push(
                    key,
                    Node::Class {
                        name: c.name.clone(),
                        qualname: c.qualname.clone(),
                        bases,
                        mro,
                        dict: empty_plan(),
                        kind: c.kind,
                        slots: c.slots.clone(),
                        id,
                        flags: c.flags.get(),
                    },
                );
                self.later(&r, v);
                r
            }
            Value::Function(f) => {
                let code = self.visit(&Value::Code(f.code.clone()))?;
                let globals = self.visit(&Value::Module(f.globals.clone()))?;
                let closure = f
                    .closure
                    .iter()
                    .map(|c| self.visit(&Value::Cell(c.clone())))
                    .collect::<Result<_, _>>()?;
                let id = self.id(f.id)?;
                let r = self.push(
                    key,
                    Node::Function {
                        code,
                        globals,
                        defaults: Box::new([]),
                        kwdefaults: Box::new([]),
                        closure,
                        class: None,
                        dict: None,
                        annotations: Ref::Shared(Value::None),
                        name: f.name.borrow().clone(),
                        id,
                    },
                );
                self.later(&r, v);
                r
            }
            Value::Instance(i) => {
                if i.exc.is_some() || i.native.borrow().is_some() {
                    return Err("instance with native state".into());
                }
                let class = self.visit(&Value::Class(i.class.borrow().clone()))?;
                let dict = self.visit(&Value::Dict(i.dict.clone()))?;
                let id = self.id(i.id)?;
                self.push(key, Node::Instance { class, dict, id })
            }
            Value::Cell(_) => {
                let r = self.push(key, Node::Cell(None));
                self.later(&r, v);
                r
            }
            Value::Wrapper(w) => {
                let n = match &**w {
                    Wrapper::Property { fget, fset, fdel } => Node::Property {
                        fget: self.visit(fget)?,
                        fset: self.visit(fset)?,
                        fdel: self.visit(fdel)?,
                    },
                    Wrapper::ClassMethod(f) => Node::ClassMethod(self.visit(f)?),
                    Wrapper::StaticMethod(f) => Node::StaticMethod(self.visit(f)?),
                    Wrapper::Super { .. } => return Err("super object".into()),
                    // a union the body kept makes the SDK run its body (not recorded)
                    Wrapper::Union(_) => return Err("union object".into()),
                };
                self.push(key, n)
            }
            Value::Code(c) => {
                if clean_code(c) {
                    return Ok(Ref::Shared(v.clone()));
                }
                let consts = c
                    .consts
                    .iter()
                    .map(|k| self.visit(k))
                    .collect::<Result<_, _>>()?;
                let template = crate::codecache::with_consts(c, vec![Value::None; c.consts.len()]);
                self.push(key, Node::Code { template, consts })
            }
            other => return Err(format!("unsupported object {other:?}")),
        })
    }

    fn later(&mut self, r: &Ref, v: &Value) {
        if let Ref::Node(i) = r {
            self.todo.push((*i, v.clone()));
        }
    }

    fn dict_plan(&mut self, d: &Dict) -> Result<DictPlan, String> {
        let mut template = d.clone();
        let mut entries = Vec::with_capacity(d.len());
        for i in 0..d.slots() {
            if let Some(e) = d.slot(i) {
                let (k, v) = (e.key.clone(), e.value.clone());
                entries.push((i as u32, self.visit(&k)?, self.visit(&v)?));
                template.replace_slot(i, Value::None, Value::None);
            }
        }
        Ok(DictPlan {
            template,
            entries: entries.into_boxed_slice(),
        })
    }

    /// Record the mutable contents of every container met so far (and of those they reach).
    fn drain(&mut self) -> Result<(), String> {
        while let Some((i, v)) = self.todo.pop() {
            let i = i as usize;
            match &v {
                Value::List(l) => {
                    let items: Box<[Ref]> =
                        l.v.borrow()
                            .clone()
                            .iter()
                            .map(|x| self.visit(x))
                            .collect::<Result<_, _>>()?;
                    if let Node::List { items: slot, .. } = &mut self.nodes[i] {
                        *slot = items;
                    }
                }
                Value::Dict(d) => {
                    let p = self.dict_plan(&d.d.borrow().clone())?;
                    self.nodes[i] = Node::Dict(p);
                }
                Value::Module(m) => {
                    let p = self.dict_plan(&m.dict.borrow().clone())?;
                    if let Node::Module { dict, .. } = &mut self.nodes[i] {
                        *dict = p;
                    }
                }
                Value::Class(c) => {
                    let p = self.dict_plan(&c.dict.borrow().clone())?;
                    if let Node::Class { dict, .. } = &mut self.nodes[i] {
                        *dict = p;
                    }
                }
                Value::Cell(c) => {
                    let inner = c.v.borrow().clone();
                    let r = match inner {
                        Some(x) => Some(self.visit(&x)?),
                        None => None,
                    };
                    self.nodes[i] = Node::Cell(r);
                }
                Value::Function(f) => {
                    let d: Box<[Ref]> = f
                        .defaults
                        .borrow()
                        .clone()
                        .iter()
                        .map(|x| self.visit(x))
                        .collect::<Result<_, _>>()?;
                    let kw: Box<[(Rc<str>, Ref)]> = f
                        .kwdefaults
                        .borrow()
                        .clone()
                        .iter()
                        .map(|(k, x)| Ok((k.clone(), self.visit(x)?)))
                        .collect::<Result<_, String>>()?;
                    let cls = f.class.borrow().clone();
                    let cls = match cls {
                        Some(c) => Some(self.visit(&Value::Class(c))?),
                        None => None,
                    };
                    let fd = f.dict.borrow().clone();
                    let fd = match fd {
                        Some(d) => Some(self.dict_plan(&d)?),
                        None => None,
                    };
                    let an = f.annotations.borrow().clone();
                    let an = self.visit(&an)?;
                    if let Node::Function {
                        defaults,
                        kwdefaults,
                        class,
                        dict,
                        annotations,
                        ..
                    } = &mut self.nodes[i]
                    {
                        *defaults = d;
                        *kwdefaults = kw;
                        *class = cls;
                        *dict = fd;
                        *annotations = an;
                    }
                }
                _ => return Err("internal: unexpected deferred object".into()),
            }
        }
        Ok(())
    }
}

fn empty_plan() -> DictPlan {
    DictPlan {
        template: Dict::new(),
        entries: Box::new([]),
    }
}

/// Pointer → name of every heap object in `vm`'s built-ins namespace.
fn builtin_names(vm: &Vm) -> HashMap<usize, Rc<str>> {
    let mut out = HashMap::new();
    for e in vm.builtins.dict.borrow().iter() {
        if let (Value::Str(k), Some(p)) = (&e.key, ptr_of(&e.value)) {
            out.entry(p).or_insert_with(|| Rc::from(&*k.s));
        }
    }
    out
}

/// Record the graph reachable from `root`; `links` are modules to leave to the caller.
fn capture(
    root: &Value,
    builtins: &HashMap<usize, Rc<str>>,
    links: &[usize],
    ids: std::ops::Range<u64>,
) -> Result<Plan, String> {
    let mut c = Capture {
        nodes: Vec::new(),
        memo: HashMap::new(),
        builtins,
        externals: Vec::new(),
        links,
        ids: ids.clone(),
        todo: Vec::new(),
    };
    let r = c.visit(root)?;
    c.drain()?;
    let Ref::Node(root) = r else {
        return Err("root is not a recorded object".into());
    };
    let plan = Plan {
        nodes: c.nodes,
        externals: c.externals,
        root,
        id_base: ids.start,
        id_span: ids.end - ids.start,
    };
    plan.validate()?;
    Ok(plan)
}

// ------------------------------------------------------------------ instantiate

/// What a [`Ref`] must resolve to.
#[derive(PartialEq, Eq, Clone, Copy, Debug)]
enum Want {
    Any,
    Class,
    Module,
    Cell,
    Code,
    Dict,
}

impl Plan {
    fn node_kind(&self, i: u32) -> Option<Want> {
        Some(match self.nodes.get(i as usize)? {
            Node::Class { .. } => Want::Class,
            Node::Module { .. } => Want::Module,
            Node::Cell(_) => Want::Cell,
            Node::Code { .. } => Want::Code,
            Node::Dict(_) => Want::Dict,
            _ => Want::Any,
        })
    }

    /// Check the ordering and typing invariants [`Plan::instantiate`] relies on.
    fn validate(&self) -> Result<(), String> {
        let check = |r: &Ref, before: usize, want: Want| -> Result<(), String> {
            let ok = match r {
                Ref::Node(i) => {
                    (*i as usize) < before
                        && (want == Want::Any || self.node_kind(*i) == Some(want))
                }
                Ref::Shared(v) => match want {
                    Want::Any => true,
                    Want::Code => matches!(v, Value::Code(_)),
                    _ => false,
                },
                Ref::Builtin(i) => {
                    (*i as usize) < self.externals.len() && matches!(want, Want::Any | Want::Class)
                }
                Ref::Link(_) => matches!(want, Want::Any | Want::Module),
            };
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "plan invariant broken at node {before}: {r:?} as {want:?}"
                ))
            }
        };
        let all = self.nodes.len();
        for (n, node) in self.nodes.iter().enumerate() {
            let dict = |p: &DictPlan| -> Result<(), String> {
                for (slot, k, v) in p.entries.iter() {
                    check(k, all, Want::Any)?;
                    check(v, all, Want::Any)?;
                    if p.template.slot(*slot as usize).is_none() {
                        return Err("dict plan slot missing".into());
                    }
                }
                Ok(())
            };
            match node {
                Node::Str { .. } | Node::Bytes { .. } | Node::Cell(None) => {}
                Node::Tuple { items, .. } => {
                    for x in items.iter() {
                        check(x, n, Want::Any)?;
                    }
                }
                Node::List { items, cap, .. } => {
                    if items.len() > *cap {
                        return Err("list longer than its capacity".into());
                    }
                    for x in items.iter() {
                        check(x, all, Want::Any)?;
                    }
                }
                Node::Dict(p) | Node::Module { dict: p, .. } => dict(p)?,
                Node::Class {
                    bases,
                    mro,
                    dict: p,
                    ..
                } => {
                    for b in bases.iter().chain(mro.iter()) {
                        check(b, n, Want::Class)?;
                    }
                    dict(p)?;
                }
                Node::Function {
                    code,
                    globals,
                    defaults,
                    kwdefaults,
                    closure,
                    class,
                    dict: fd,
                    annotations,
                    ..
                } => {
                    check(annotations, all, Want::Any)?;
                    check(code, n, Want::Code)?;
                    check(globals, n, Want::Module)?;
                    for c in closure.iter() {
                        check(c, n, Want::Cell)?;
                    }
                    for d in defaults.iter().chain(kwdefaults.iter().map(|(_, r)| r)) {
                        check(d, all, Want::Any)?;
                    }
                    if let Some(c) = class {
                        check(c, all, Want::Class)?;
                    }
                    if let Some(p) = fd {
                        dict(p)?;
                    }
                }
                Node::Instance { class, dict: d, .. } => {
                    check(class, n, Want::Class)?;
                    check(d, n, Want::Dict)?;
                }
                Node::Cell(Some(r)) => check(r, all, Want::Any)?,
                Node::Property { fget, fset, fdel } => {
                    for r in [fget, fset, fdel] {
                        check(r, n, Want::Any)?;
                    }
                }
                Node::ClassMethod(r) | Node::StaticMethod(r) => check(r, n, Want::Any)?,
                Node::Code { template, consts } => {
                    if template.consts.len() != consts.len() {
                        return Err("code constants".into());
                    }
                    for r in consts.iter() {
                        check(r, n, Want::Any)?;
                    }
                }
            }
        }
        if self.node_kind(self.root).is_none() {
            return Err("root".into());
        }
        Ok(())
    }

    /// Build the recorded graph for `vm` and return its root, with `links[i]` for every
    /// [`Ref::Link`]. Object ids continue from the VM's counter, which advances by the ids the
    /// recorded body consumed. `None` (having created nothing lasting) if a built-in the plan
    /// names is missing or a link is not a module.
    fn instantiate(&self, vm: &Vm, links: &[Value]) -> Option<Value> {
        let externals: Vec<Value> = {
            let b = vm.builtins.dict.borrow();
            self.externals
                .iter()
                .map(|n| b.get_str(n).cloned())
                .collect::<Option<_>>()?
        };
        if links.iter().any(|l| !matches!(l, Value::Module(_))) {
            return None;
        }
        let next = vm.next_id.get();
        let shift = |id: u64| id - self.id_base + next;
        let mut objs: Vec<Value> = Vec::with_capacity(self.nodes.len());
        let get = |objs: &Vec<Value>, r: &Ref| -> Value {
            match r {
                Ref::Shared(v) => v.clone(),
                Ref::Node(i) => objs.get(*i as usize).cloned().unwrap_or_default(),
                Ref::Builtin(i) => externals.get(*i as usize).cloned().unwrap_or_default(),
                Ref::Link(i) => links.get(*i as usize).cloned().unwrap_or_default(),
            }
        };
        let class_of = |objs: &Vec<Value>, r: &Ref| -> Option<Rc<Class>> {
            match get(objs, r) {
                Value::Class(c) => Some(c),
                _ => None,
            }
        };
        // phase 1: every object, with its immutable parts
        for node in &self.nodes {
            let v = match node {
                Node::Str {
                    text,
                    nchars,
                    hash,
                    acct,
                } => Value::Str(Rc::new(PyStr {
                    s: StrBuf::from(&**text),
                    nchars: *nchars,
                    hash: Cell::new(*hash),
                    acct: Acct::new(*acct),
                })),
                Node::Bytes { b, acct } => Value::Bytes(Rc::new(PyBytes {
                    b: b.clone(),
                    acct: Acct::new(*acct),
                })),
                Node::Tuple { items, acct } => Value::Tuple(Rc::new(PyTuple {
                    v: items.iter().map(|r| get(&objs, r)).collect(),
                    acct: Acct::new(*acct),
                })),
                Node::List { cap, acct, .. } => {
                    let l = Rc::new(PyList {
                        v: RefCell::new(Vec::with_capacity(*cap)),
                        acct: Acct::new(*acct),
                    });
                    heap::register(Tracked::List(Rc::downgrade(&l)));
                    Value::List(l)
                }
                Node::Dict(_) => {
                    let d = Rc::new(PyDict {
                        d: RefCell::new(Dict::new()),
                    });
                    heap::register(Tracked::Dict(Rc::downgrade(&d)));
                    Value::Dict(d)
                }
                Node::Module { name, .. } => {
                    let m = Rc::new(Module {
                        name: name.clone(),
                        dict: RefCell::new(Dict::new()),
                    });
                    heap::register(Tracked::Module(Rc::downgrade(&m)));
                    Value::Module(m)
                }
                Node::Class {
                    name,
                    qualname,
                    bases,
                    mro,
                    kind,
                    slots,
                    id,
                    flags,
                    ..
                } => {
                    let c = Rc::new(Class {
                        name: name.clone(),
                        qualname: qualname.clone(),
                        bases: bases.iter().filter_map(|b| class_of(&objs, b)).collect(),
                        mro: mro.iter().filter_map(|b| class_of(&objs, b)).collect(),
                        dict: RefCell::new(Dict::new()),
                        kind: *kind,
                        builtin: false,
                        slots: slots.clone(),
                        id: shift(*id),
                        flags: Cell::new(*flags),
                        flags_epoch: Cell::new(0),
                    });
                    heap::register(Tracked::Class(Rc::downgrade(&c)));
                    Value::Class(c)
                }
                Node::Function {
                    code,
                    globals,
                    closure,
                    name,
                    id,
                    ..
                } => {
                    let (Value::Code(code), Value::Module(globals)) =
                        (get(&objs, code), get(&objs, globals))
                    else {
                        return None;
                    };
                    let f = Rc::new(Function {
                        code,
                        globals,
                        defaults: RefCell::new(Vec::new()),
                        kwdefaults: RefCell::new(Vec::new()),
                        closure: closure
                            .iter()
                            .filter_map(|c| match get(&objs, c) {
                                Value::Cell(c) => Some(c),
                                _ => None,
                            })
                            .collect(),
                        class: RefCell::new(None),
                        dict: RefCell::new(None),
                        annotations: RefCell::new(Value::None),
                        name: RefCell::new(name.clone()),
                        id: shift(*id),
                    });
                    heap::register(Tracked::Function(Rc::downgrade(&f)));
                    Value::Function(f)
                }
                Node::Instance { class, dict, id } => {
                    let (Some(class), Value::Dict(dict)) =
                        (class_of(&objs, class), get(&objs, dict))
                    else {
                        return None;
                    };
                    let i = Rc::new(Instance {
                        class: RefCell::new(class),
                        dict,
                        exc: None,
                        native: RefCell::new(None),
                        id: shift(*id),
                    });
                    heap::register(Tracked::Instance(Rc::downgrade(&i)));
                    Value::Instance(i)
                }
                Node::Cell(_) => {
                    let c = Rc::new(PyCell::default());
                    heap::register(Tracked::Cell(Rc::downgrade(&c)));
                    Value::Cell(c)
                }
                Node::Property { fget, fset, fdel } => Value::Wrapper(Rc::new(Wrapper::Property {
                    fget: get(&objs, fget),
                    fset: get(&objs, fset),
                    fdel: get(&objs, fdel),
                })),
                Node::ClassMethod(f) => {
                    Value::Wrapper(Rc::new(Wrapper::ClassMethod(get(&objs, f))))
                }
                Node::StaticMethod(f) => {
                    Value::Wrapper(Rc::new(Wrapper::StaticMethod(get(&objs, f))))
                }
                Node::Code { template, consts } => Value::Code(crate::codecache::with_consts(
                    template,
                    consts.iter().map(|r| get(&objs, r)).collect(),
                )),
            };
            objs.push(v);
        }
        // phase 2: mutable contents (may close cycles)
        let fill = |objs: &Vec<Value>, p: &DictPlan| -> Dict {
            let mut d = p.template.clone();
            for (slot, k, v) in p.entries.iter() {
                d.replace_slot(*slot as usize, get(objs, k), get(objs, v));
            }
            d
        };
        for (node, obj) in self.nodes.iter().zip(objs.iter()) {
            match (node, obj) {
                (Node::List { items, .. }, Value::List(l)) => {
                    l.v.borrow_mut().extend(items.iter().map(|r| get(&objs, r)));
                }
                (Node::Dict(p), Value::Dict(d)) => *d.d.borrow_mut() = fill(&objs, p),
                (Node::Module { dict, .. }, Value::Module(m)) => {
                    *m.dict.borrow_mut() = fill(&objs, dict)
                }
                (Node::Class { dict, .. }, Value::Class(c)) => {
                    *c.dict.borrow_mut() = fill(&objs, dict)
                }
                (
                    Node::Function {
                        defaults,
                        kwdefaults,
                        class,
                        dict,
                        annotations,
                        ..
                    },
                    Value::Function(f),
                ) => {
                    *f.annotations.borrow_mut() = get(&objs, annotations);
                    *f.defaults.borrow_mut() = defaults.iter().map(|r| get(&objs, r)).collect();
                    *f.kwdefaults.borrow_mut() = kwdefaults
                        .iter()
                        .map(|(k, r)| (k.clone(), get(&objs, r)))
                        .collect();
                    *f.class.borrow_mut() = class.as_ref().and_then(|r| class_of(&objs, r));
                    *f.dict.borrow_mut() = dict.as_ref().map(|p| fill(&objs, p));
                }
                (Node::Cell(Some(r)), Value::Cell(c)) => *c.v.borrow_mut() = Some(get(&objs, r)),
                _ => {}
            }
        }
        vm.next_id.set(next + self.id_span);
        objs.get(self.root as usize).cloned()
    }
}

// ------------------------------------------------------------------ cowboy_sdk

/// What the body of `cowboy_sdk` needs to run to completion (see the module docs): it
/// succeeds exactly when `heap_limit - used >= heap`, `frames + depth <= max_depth` and
/// `native_depth <= native`. One per variant: `pvm_host` not yet imported, or imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Headroom {
    /// Heap bytes above the current use.
    pub heap: usize,
    /// Frames above the current stack.
    pub depth: usize,
    /// Largest native depth at which the body still runs.
    pub native: u32,
}

/// The measured headroom of the body: without and with `pvm_host` already imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calibration {
    /// `pvm_host` not imported yet (the body imports it).
    pub fresh: Headroom,
    /// `pvm_host` imported before `cowboy_sdk`.
    pub linked: Headroom,
}

/// A scratch VM as an invocation has it: default limits, `pvm_host` imported if `linked`.
fn scratch(linked: bool) -> Vm {
    let mut vm = Vm::new(&crate::Limits::default());
    if linked {
        let m = super::native_helper("pvm_host", crate::host::PVM_HOST_FUNCS);
        vm.modules.push((Rc::from("pvm_host"), m));
    }
    vm
}

/// Run the real body in a fresh scratch VM after `setup`; true if it completed.
fn body_runs(linked: bool, setup: impl FnOnce(&mut Vm)) -> bool {
    let mut vm = scratch(linked);
    setup(&mut vm);
    let ok = crate::host::run_sdk_body(&mut vm).is_ok();
    vm.frames.clear();
    drop(vm);
    heap::release_all();
    ok
}

/// Smallest `x` in `lo..=hi` with `ok(x)`, for `ok` monotone (false then true); `None` if
/// `ok(hi)` is false.
fn least(mut lo: usize, mut hi: usize, ok: impl Fn(usize) -> bool) -> Option<usize> {
    if !ok(hi) {
        return None;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(hi)
}

fn headroom(linked: bool) -> Option<Headroom> {
    let heap = least(0, 16 << 20, |l| {
        body_runs(linked, |vm| vm.heap_limit = heap::used() + l)
    })?;
    let depth = least(1, 4096, |d| body_runs(linked, |vm| vm.max_depth = d))?;
    // native depth: the largest start depth that still runs (no bound if the body never
    // enters native code deeper than the limit allows from any start)
    let native = match least(0, MAX_NATIVE_DEPTH as usize + 1, |s| {
        !body_runs(linked, |vm| vm.native_depth = s as u32)
    }) {
        None => u32::MAX,
        Some(0) => return None,
        Some(f) => f as u32 - 1,
    };
    Some(Headroom {
        heap,
        depth,
        native,
    })
}

static CALIBRATION: OnceLock<Option<Calibration>> = OnceLock::new();

/// The headroom the body of `cowboy_sdk` needs, measured once per process by running it
/// (isolated from any running invocation's accounting). `None` if it could not be measured.
pub fn calibration() -> Option<Calibration> {
    *CALIBRATION.get_or_init(|| {
        let (c, _) = heap::isolated(|| {
            Some(Calibration {
                fresh: headroom(false)?,
                linked: headroom(true)?,
            })
        });
        c
    })
}

/// The per-thread image of `cowboy_sdk`: its plan and that of a fresh `pvm_host`.
#[derive(Debug)]
struct SdkImage {
    sdk: Plan,
    pvm_host: Plan,
    calibration: Calibration,
}

/// Record the body's graph in a scratch VM and verify it: instantiating the plan must charge
/// exactly the heap bytes and consume exactly the ids the body did, in both variants.
fn build() -> Result<SdkImage, String> {
    let calibration = calibration().ok_or("could not calibrate the module body")?;
    // record (variant without pvm_host: the body creates it)
    let mut vm = scratch(false);
    let builtins = builtin_names(&vm);
    let (used0, id0) = (heap::used(), vm.next_id.get());
    let module = crate::host::run_sdk_body(&mut vm).map_err(|_| "the module body failed")?;
    let (fresh_bytes, id1) = (heap::used() - used0, vm.next_id.get());
    // the body must leave no trace in the VM beyond the module, `pvm_host` and the ids: no
    // other import, no metaclass registration, no lazily created class, no output
    let names: Vec<&str> = vm.modules.iter().map(|(n, _)| &**n).collect();
    if names != ["pvm_host"]
        || !vm.stdlib.metaclasses.is_empty()
        || vm.file_class.is_some()
        || vm.view_classes.iter().any(Option::is_some)
        || !vm.stdout.is_empty()
        || vm.meter.cells != 0
    {
        return Err(format!(
            "the module body changed the VM beyond its module ({names:?})"
        ));
    }
    let host = vm
        .modules
        .iter()
        .find(|(n, _)| &**n == "pvm_host")
        .map(|(_, m)| m.clone())
        .ok_or("the body did not import pvm_host")?;
    let host_ptr = ptr_of(&host).ok_or("pvm_host")?;
    let sdk = capture(&module, &builtins, &[host_ptr], id0..id1)?;
    let pvm_host = capture(&host, &builtins, &[], id1..id1)?;
    drop((module, host));
    vm.frames.clear();
    drop(vm);
    heap::release_all();
    // the body with pvm_host imported first
    let mut vm = scratch(true);
    let (used0, id0) = (heap::used(), vm.next_id.get());
    let m = crate::host::run_sdk_body(&mut vm).map_err(|_| "the module body failed")?;
    let (linked_bytes, linked_ids) = (heap::used() - used0, vm.next_id.get() - id0);
    drop(m);
    vm.frames.clear();
    drop(vm);
    heap::release_all();
    let image = SdkImage {
        sdk,
        pvm_host,
        calibration,
    };
    // verify both variants
    for linked in [false, true] {
        let mut vm = scratch(linked);
        let (used0, id0) = (heap::used(), vm.next_id.get());
        let m = image.instantiate(&mut vm).ok_or("instantiation failed")?;
        let (bytes, ids) = (heap::used() - used0, vm.next_id.get() - id0);
        let want = if linked {
            (linked_bytes, linked_ids)
        } else {
            (fresh_bytes, id1 - id0)
        };
        if (bytes, ids) != want {
            return Err(format!(
                "image charges {bytes} bytes and {ids} ids, the body {} and {} (linked: {linked})",
                want.0, want.1
            ));
        }
        drop(m);
        vm.frames.clear();
        drop(vm);
        heap::release_all();
    }
    Ok(image)
}

impl SdkImage {
    /// The SDK module for `vm`, linking its `pvm_host` (created and registered in the VM's
    /// module list first if the VM has not imported it yet, as the body would).
    fn instantiate(&self, vm: &mut Vm) -> Option<Value> {
        let host = vm
            .modules
            .iter()
            .find(|(n, _)| &**n == "pvm_host")
            .map(|(_, m)| m.clone());
        let (host, created) = match host {
            Some(h) => (h, false),
            None => (self.pvm_host.instantiate(vm, &[])?, true),
        };
        let sdk = self.sdk.instantiate(vm, std::slice::from_ref(&host))?;
        if created {
            vm.modules.push((Rc::from("pvm_host"), host));
        }
        Some(sdk)
    }
}

enum Slot {
    Unbuilt,
    Failed,
    Ready(Rc<SdkImage>),
}

thread_local! {
    static SDK: RefCell<Slot> = const { RefCell::new(Slot::Unbuilt) };
}

static HITS: AtomicU64 = AtomicU64::new(0);
static FALLBACKS: AtomicU64 = AtomicU64::new(0);
static BUILD_ERROR: Mutex<Option<String>> = Mutex::new(None);

/// Counters of the image (all threads).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Imports served from an image.
    pub hits: u64,
    /// Imports that ran the module body (no image, or not enough headroom).
    pub fallbacks: u64,
    /// Why the last failed image build failed.
    pub build_error: Option<String>,
}

/// Current counters.
pub fn stats() -> Stats {
    Stats {
        hits: HITS.load(Ordering::Relaxed),
        fallbacks: FALLBACKS.load(Ordering::Relaxed),
        build_error: BUILD_ERROR
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone(),
    }
}

fn image() -> Option<Rc<SdkImage>> {
    SDK.with(|s| {
        let mut s = s.borrow_mut();
        if let Slot::Unbuilt = *s {
            let (built, leaked) = heap::isolated(build);
            *s = match built {
                Ok(img) if leaked == 0 => Slot::Ready(Rc::new(img)),
                Ok(img) => {
                    heap::isolated(|| drop(img));
                    *BUILD_ERROR.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(format!("the image holds {leaked} accounted bytes"));
                    Slot::Failed
                }
                Err(e) => {
                    *BUILD_ERROR.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    Slot::Failed
                }
            };
        }
        match &*s {
            Slot::Ready(i) => Some(i.clone()),
            _ => None,
        }
    })
}

/// `cowboy_sdk` for `vm` from this thread's image, or `None` when the body must run instead
/// (no image, generator frames waiting to be closed, or less headroom than the body needs).
pub(crate) fn sdk(vm: &mut Vm) -> Option<Value> {
    let r = sdk_fast(vm);
    if r.is_some() {
        HITS.fetch_add(1, Ordering::Relaxed);
    } else {
        FALLBACKS.fetch_add(1, Ordering::Relaxed);
    }
    r
}

fn sdk_fast(vm: &mut Vm) -> Option<Value> {
    if vm.finalize.is_pending() {
        return None;
    }
    let img = image()?;
    let linked = vm.modules.iter().any(|(n, _)| &**n == "pvm_host");
    let h = if linked {
        img.calibration.linked
    } else {
        img.calibration.fresh
    };
    let room = vm.heap_limit.checked_sub(heap::used())?;
    if room < h.heap || vm.frames.len() + h.depth > vm.max_depth || vm.native_depth > h.native {
        return None;
    }
    img.instantiate(vm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sdk_image_builds_and_is_calibrated() {
        let c = calibration().expect("calibrated");
        assert!(c.fresh.heap > 1_000 && c.fresh.heap < 1 << 20, "{c:?}");
        assert!(c.fresh.depth >= 2 && c.fresh.depth < 16, "{c:?}");
        assert!(c.fresh.native > 100, "{c:?}");
        let img = image();
        assert!(img.is_some(), "{:?}", stats().build_error);
    }

    #[test]
    fn isolated_work_leaves_the_running_accounting_alone() {
        let outer = Value::list(vec![Value::Int(1); 8]);
        let before = heap::used();
        let ((), leaked) = heap::isolated(|| {
            // a cycle that only release_all frees, plus garbage
            let l = Value::list(vec![]);
            if let Value::List(x) = &l {
                x.v.borrow_mut().push(l.clone());
            }
            let _ = Value::str("scratch");
        });
        assert_eq!(leaked, 0);
        assert_eq!(heap::used(), before);
        let (kept, leaked) = heap::isolated(|| Value::str("kept"));
        assert!(leaked > 0);
        assert_eq!(heap::used(), before);
        heap::isolated(|| drop(kept));
        // the outer list is still tracked: release_all clears it
        heap::release_all();
        if let Value::List(x) = &outer {
            assert!(x.v.borrow().is_empty());
        }
    }

    #[test]
    fn least_finds_the_threshold() {
        assert_eq!(least(0, 100, |x| x >= 37), Some(37));
        assert_eq!(least(0, 100, |_| true), Some(0));
        assert_eq!(least(0, 100, |_| false), None);
    }
}
