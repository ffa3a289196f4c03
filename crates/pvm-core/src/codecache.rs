//! Process-wide cache of compiled code, so repeated invocations skip parsing and compiling.
//!
//! [`crate::compile::compile_module`] goes through [`compile`]: the source is looked up by its
//! exact text (and file name); on a miss it is compiled once and stored in a *frozen* form
//! ([`Frozen`]) that owns plain data only (`Send + Sync`, no `Rc`, no heap accounting, no
//! inline caches). Every call — hit or miss — then *thaws* a fresh [`Code`] tree from it.
//!
//! Thawing builds the same objects the compiler builds: constants are created with the same
//! constructors (so they charge the same bytes to [`crate::heap`] and are freed with the
//! invocation), string constants start with no cached hash (so hashing them is charged the
//! same), and every instruction gets a fresh, empty inline cache (so no cache entry can
//! survive into another invocation, where a dict of the same address and version may mean
//! something else). A warm cache therefore changes nothing observable: outputs, cycles, cells
//! and heap accounting are identical to a cold compile; only host time is saved.
//!
//! The cache is bounded by [`capacity`] bytes (an estimate of each entry's size, including its
//! source text) and evicts the least recently used entries first. Compile errors are not
//! cached. Which entries are resident never influences results.

use crate::bytecode::{Code, CodeKind, InlineCache, Instr};
use crate::compile::CompileError;
use crate::value::Value;
use num_bigint::BigInt;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, RandomState};
use std::rc::Rc;
use std::sync::{Arc, Mutex, OnceLock};

/// Default bound of the cache in (estimated) bytes.
pub const DEFAULT_CAPACITY: usize = 64 << 20;

/// A constant of a frozen code object.
#[derive(Debug)]
enum FConst {
    None,
    Bool(bool),
    Int(i64),
    Big(BigInt),
    Float(crate::float::F64),
    Str(Box<str>),
    Bytes(Box<[u8]>),
    Ellipsis,
    Tuple(Box<[FConst]>),
    Code(Box<FCode>),
}

/// One frozen code object; identifiers are indices into [`Frozen`]'s string table.
#[derive(Debug)]
struct FCode {
    name: u32,
    qualname: u32,
    kind: CodeKind,
    instrs: Box<[Instr]>,
    lines: Box<[u32]>,
    consts: Box<[FConst]>,
    names: Box<[u32]>,
    name_hashes: Box<[u64]>,
    varnames: Box<[u32]>,
    cellnames: Box<[u32]>,
    ncells: usize,
    cell_params: Box<[(u32, u32)]>,
    argcount: u32,
    posonlycount: u32,
    kwonlycount: u32,
    varargs: bool,
    varkw: bool,
    firstline: u32,
    doc: Option<u32>,
}

/// A compiled code tree as plain, thread-safe data (see the module docs). Identifiers
/// (names, variable names, qualified names, docstrings) are stored once in a string table,
/// so thawing allocates each distinct identifier once.
#[derive(Debug)]
pub struct Frozen {
    strings: Box<[Box<str>]>,
    root: FCode,
}

#[derive(Default)]
struct Interner {
    index: HashMap<Box<str>, u32>,
    strings: Vec<Box<str>>,
}

impl Interner {
    fn id(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.strings.len() as u32;
        self.strings.push(Box::from(s));
        self.index.insert(Box::from(s), i);
        i
    }
    fn ids(&mut self, v: &[Rc<str>]) -> Box<[u32]> {
        v.iter().map(|s| self.id(s)).collect()
    }
}

fn freeze_const(v: &Value, t: &mut Interner) -> Option<FConst> {
    Some(match v {
        Value::None => FConst::None,
        Value::Bool(b) => FConst::Bool(*b),
        Value::Int(i) => FConst::Int(*i),
        Value::BigInt(b) => FConst::Big((**b).clone()),
        Value::Float(f) => FConst::Float(*f),
        Value::Str(s) => FConst::Str(Box::from(&*s.s)),
        Value::Bytes(b) => FConst::Bytes(b.b.clone()),
        Value::Ellipsis => FConst::Ellipsis,
        Value::Tuple(tu) => FConst::Tuple(
            tu.v.iter()
                .map(|c| freeze_const(c, t))
                .collect::<Option<_>>()?,
        ),
        Value::Code(c) => FConst::Code(Box::new(freeze_code(c, t)?)),
        // Any other constant kind is not known to be immutable: such code is not cached.
        _ => return None,
    })
}

fn freeze_code(c: &Code, t: &mut Interner) -> Option<FCode> {
    Some(FCode {
        name: t.id(&c.name),
        qualname: t.id(&c.qualname),
        kind: c.kind,
        instrs: c.instrs.clone().into_boxed_slice(),
        lines: c.lines.clone().into_boxed_slice(),
        consts: c
            .consts
            .iter()
            .map(|k| freeze_const(k, t))
            .collect::<Option<_>>()?,
        names: t.ids(&c.names),
        name_hashes: c.name_hashes.clone().into_boxed_slice(),
        varnames: t.ids(&c.varnames),
        cellnames: t.ids(&c.cellnames),
        ncells: c.ncells,
        cell_params: c.cell_params.clone().into_boxed_slice(),
        argcount: c.argcount,
        posonlycount: c.posonlycount,
        kwonlycount: c.kwonlycount,
        varargs: c.varargs,
        varkw: c.varkw,
        firstline: c.firstline,
        doc: c.doc.as_deref().map(|d| t.id(d)),
    })
}

/// Freeze a code tree; `None` if it holds a constant the cache cannot reproduce exactly.
pub fn freeze(c: &Code) -> Option<Frozen> {
    let mut t = Interner::default();
    let root = freeze_code(c, &mut t)?;
    Some(Frozen {
        strings: t.strings.into_boxed_slice(),
        root,
    })
}

struct Thaw<'a> {
    strings: &'a [Rc<str>],
    filename: Rc<str>,
}

impl Thaw<'_> {
    fn s(&self, i: u32) -> Rc<str> {
        self.strings[i as usize].clone()
    }
    fn v(&self, ids: &[u32]) -> Vec<Rc<str>> {
        ids.iter().map(|&i| self.s(i)).collect()
    }
    fn const_(&self, c: &FConst) -> Value {
        match c {
            FConst::None => Value::None,
            FConst::Bool(b) => Value::Bool(*b),
            FConst::Int(i) => Value::Int(*i),
            FConst::Big(b) => Value::BigInt(Rc::new(b.clone())),
            FConst::Float(f) => Value::Float(*f),
            FConst::Str(s) => Value::str(s.clone()),
            FConst::Bytes(b) => Value::bytes(b.to_vec()),
            FConst::Ellipsis => Value::Ellipsis,
            FConst::Tuple(t) => Value::tuple(t.iter().map(|c| self.const_(c)).collect()),
            FConst::Code(f) => Value::Code(self.code(f)),
        }
    }
    fn code(&self, f: &FCode) -> Rc<Code> {
        Rc::new(Code {
            name: self.s(f.name),
            qualname: self.s(f.qualname),
            filename: self.filename.clone(),
            kind: f.kind,
            instrs: f.instrs.to_vec(),
            lines: f.lines.to_vec(),
            consts: f.consts.iter().map(|c| self.const_(c)).collect(),
            names: self.v(&f.names),
            name_hashes: f.name_hashes.to_vec(),
            varnames: self.v(&f.varnames),
            cellnames: self.v(&f.cellnames),
            ncells: f.ncells,
            cell_params: f.cell_params.to_vec(),
            argcount: f.argcount,
            posonlycount: f.posonlycount,
            kwonlycount: f.kwonlycount,
            varargs: f.varargs,
            varkw: f.varkw,
            firstline: f.firstline,
            doc: f.doc.map(|d| self.s(d)),
            caches: (0..f.instrs.len())
                .map(|_| Cell::new(InlineCache::default()))
                .collect(),
        })
    }
}

/// Build a fresh code tree from a frozen one (constants charged to this thread's heap
/// counter exactly as the compiler charges them; empty inline caches).
pub fn thaw(f: &Frozen, filename: &str) -> Rc<Code> {
    let strings: Vec<Rc<str>> = f.strings.iter().map(|s| Rc::from(&**s)).collect();
    Thaw {
        strings: &strings,
        filename: Rc::from(filename),
    }
    .code(&f.root)
}

/// A copy of `c` with constants `consts` (same length as `c.consts`) and fresh, empty inline
/// caches; every other part is `c`'s. Module images use it for code objects whose constants
/// must be fresh objects in every invocation (see `crate::modules::image`).
pub(crate) fn with_consts(c: &Code, consts: Vec<Value>) -> Rc<Code> {
    Rc::new(Code {
        name: c.name.clone(),
        qualname: c.qualname.clone(),
        filename: c.filename.clone(),
        kind: c.kind,
        instrs: c.instrs.clone(),
        lines: c.lines.clone(),
        consts,
        names: c.names.clone(),
        name_hashes: c.name_hashes.clone(),
        varnames: c.varnames.clone(),
        cellnames: c.cellnames.clone(),
        ncells: c.ncells,
        cell_params: c.cell_params.clone(),
        argcount: c.argcount,
        posonlycount: c.posonlycount,
        kwonlycount: c.kwonlycount,
        varargs: c.varargs,
        varkw: c.varkw,
        firstline: c.firstline,
        doc: c.doc.clone(),
        caches: (0..c.instrs.len())
            .map(|_| Cell::new(InlineCache::default()))
            .collect(),
    })
}

fn const_bytes(c: &FConst) -> usize {
    16 + match c {
        FConst::Big(b) => b.bits() as usize / 8,
        FConst::Str(s) => s.len(),
        FConst::Bytes(b) => b.len(),
        FConst::Tuple(t) => t.iter().map(const_bytes).sum(),
        FConst::Code(f) => f.bytes(),
        _ => 0,
    }
}

impl FCode {
    fn bytes(&self) -> usize {
        160 + self.instrs.len() * (std::mem::size_of::<Instr>() + 4)
            + self.consts.iter().map(const_bytes).sum::<usize>()
            + (self.names.len() + self.varnames.len() + self.cellnames.len()) * 4
            + self.name_hashes.len() * 8
            + self.cell_params.len() * 8
    }
}

impl Frozen {
    /// Estimated bytes this frozen tree occupies (the unit of the cache bound).
    pub fn bytes(&self) -> usize {
        self.root.bytes() + self.strings.iter().map(|s| 16 + s.len()).sum::<usize>()
    }
}

struct Entry {
    filename: Box<str>,
    source: Box<str>,
    code: Arc<Frozen>,
    bytes: usize,
    stamp: u64,
}

struct Lru {
    map: HashMap<u64, Entry>,
    /// stamp -> key, oldest first.
    order: BTreeMap<u64, u64>,
    bytes: usize,
    capacity: usize,
    clock: u64,
    hits: u64,
    misses: u64,
}

impl Lru {
    fn touch(&mut self, key: u64) {
        self.clock += 1;
        let clock = self.clock;
        if let Some(e) = self.map.get_mut(&key) {
            self.order.remove(&e.stamp);
            e.stamp = clock;
            self.order.insert(clock, key);
        }
    }
    fn remove(&mut self, key: u64) {
        if let Some(e) = self.map.remove(&key) {
            self.order.remove(&e.stamp);
            self.bytes -= e.bytes;
        }
    }
    fn shrink_to(&mut self, cap: usize) {
        while self.bytes > cap {
            let Some((_, key)) = self.order.pop_first() else {
                break;
            };
            if let Some(e) = self.map.remove(&key) {
                self.bytes -= e.bytes;
            }
        }
    }
}

fn cache() -> &'static Mutex<Lru> {
    static CACHE: OnceLock<Mutex<Lru>> = OnceLock::new();
    CACHE.get_or_init(|| {
        Mutex::new(Lru {
            map: HashMap::new(),
            order: BTreeMap::new(),
            bytes: 0,
            capacity: DEFAULT_CAPACITY,
            clock: 0,
            hits: 0,
            misses: 0,
        })
    })
}

fn lock() -> std::sync::MutexGuard<'static, Lru> {
    // The cache holds no invariant a panicking holder could break halfway that matters for
    // results (a torn entry is impossible: entries are inserted whole).
    cache().lock().unwrap_or_else(|e| e.into_inner())
}

fn key_of(filename: &str, source: &str) -> u64 {
    // Per-process random keys: an adversary cannot aim collisions at another actor's entry
    // (a collision only costs a recompile: hits compare the full text).
    static STATE: OnceLock<RandomState> = OnceLock::new();
    STATE
        .get_or_init(RandomState::new)
        .hash_one((filename, source))
}

fn lookup(key: u64, filename: &str, source: &str) -> Option<Arc<Frozen>> {
    let mut c = lock();
    let hit = match c.map.get(&key) {
        Some(e) if &*e.filename == filename && &*e.source == source => Some(e.code.clone()),
        _ => None,
    };
    if hit.is_some() {
        c.hits += 1;
        c.touch(key);
    } else {
        c.misses += 1;
    }
    hit
}

fn insert(key: u64, filename: &str, source: &str, code: Arc<Frozen>) {
    let bytes = code.bytes() + filename.len() + source.len() + 64;
    let mut c = lock();
    if bytes > c.capacity {
        return;
    }
    c.remove(key);
    let cap = c.capacity - bytes;
    c.shrink_to(cap);
    c.clock += 1;
    let stamp = c.clock;
    c.order.insert(stamp, key);
    c.bytes += bytes;
    c.map.insert(
        key,
        Entry {
            filename: filename.into(),
            source: source.into(),
            code,
            bytes,
            stamp,
        },
    );
}

/// Compile `source` (as file `filename`) through the cache: the result is a fresh code tree,
/// identical in every observable way to [`crate::compile::compile_uncached`]'s.
pub fn compile(source: &str, filename: &str) -> Result<Rc<Code>, CompileError> {
    let key = key_of(filename, source);
    if let Some(f) = lookup(key, filename, source) {
        return Ok(thaw(&f, filename));
    }
    let code = crate::compile::compile_uncached(source, filename)?;
    if capacity() == 0 {
        // Caching disabled: exactly the compiler's output (used to check the cache against it).
        return Ok(code);
    }
    let Some(frozen) = freeze(&code) else {
        return Ok(code);
    };
    // Return a thawed tree on a miss too, so cold and warm runs share one code path.
    drop(code);
    let frozen = Arc::new(frozen);
    let out = thaw(&frozen, filename);
    insert(key, filename, source, frozen);
    Ok(out)
}

/// Counters of the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lookups that found the source.
    pub hits: u64,
    /// Lookups that did not.
    pub misses: u64,
    /// Resident entries.
    pub entries: usize,
    /// Estimated bytes of the resident entries (at most the capacity).
    pub bytes: usize,
}

/// Current counters.
pub fn stats() -> Stats {
    let c = lock();
    Stats {
        hits: c.hits,
        misses: c.misses,
        entries: c.map.len(),
        bytes: c.bytes,
    }
}

/// The bound in bytes.
pub fn capacity() -> usize {
    lock().capacity
}

/// Set the bound in bytes (evicting least recently used entries to fit). 0 disables caching:
/// every compile then returns the compiler's own output.
pub fn set_capacity(bytes: usize) {
    let mut c = lock();
    c.capacity = bytes;
    c.shrink_to(bytes);
}

/// Drop every entry (the next compile of each source is a miss).
pub fn clear() {
    let mut c = lock();
    c.map.clear();
    c.order.clear();
    c.bytes = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "X = (1, 'two', b'3', 4.5, None, ..., 10**30 if False else 2**70)\n\
        def f(a, *b, c=1, **d):\n    '''doc'''\n    x = [1, 2]\n    def g():\n        return x\n    return g\n\
        class K:\n    y = 'k'\n    def m(self):\n        return self.y\n\
        print(X, f(1)(), K().m(), 123456789012345678901234567890)\n";

    fn shape(c: &Code) -> String {
        let consts: Vec<String> = c
            .consts
            .iter()
            .map(|v| match v {
                Value::Code(k) => shape(k),
                v => format!("{v:?}")
                    .split("acct")
                    .next()
                    .unwrap_or("")
                    .to_string(),
            })
            .collect();
        format!(
            "{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{}{}{}{}{}{}{}|{:?}|{}|[{}]",
            c.name,
            c.qualname,
            c.filename,
            c.kind,
            c.instrs,
            c.lines,
            c.names,
            c.name_hashes,
            c.varnames,
            c.cellnames,
            c.ncells,
            c.cell_params,
            c.argcount,
            c.posonlycount,
            c.kwonlycount,
            c.varargs,
            c.varkw,
            c.firstline,
            c.caches.len(),
            c.doc,
            c.caches.iter().all(|k| k.get().depth == 0),
            consts.join(";")
        )
    }

    #[test]
    fn thaw_reproduces_the_compiler_output_and_its_heap_charge() {
        let base = crate::heap::used();
        let a = crate::compile::compile_uncached(SRC, "a.py").expect("compiles");
        let charged_a = crate::heap::used() - base;
        let f = freeze(&a).expect("freezable");
        let before = crate::heap::used();
        let b = thaw(&f, "a.py");
        let charged_b = crate::heap::used() - before;
        assert_eq!(charged_a, charged_b);
        assert!(charged_a > 0);
        assert_eq!(shape(&a), shape(&b));
        drop((a, b, f));
        assert_eq!(crate::heap::used(), base);
    }

    #[test]
    fn hits_return_fresh_trees_and_errors_are_not_cached() {
        let src = "def cached_probe_7d1():\n    return 'p'\n";
        let a = compile(src, "p.py").expect("compiles");
        let s1 = stats();
        let b = compile(src, "p.py").expect("compiles");
        let s2 = stats();
        assert!(s2.hits > s1.hits);
        assert!(!Rc::ptr_eq(&a, &b));
        assert_eq!(shape(&a), shape(&b));
        // same text under another file name is another entry (tracebacks name the file)
        let c = compile(src, "q.py").expect("compiles");
        assert_eq!(&*c.filename, "q.py");
        assert!(compile("def (:\n", "bad.py").is_err());
        assert!(compile("def (:\n", "bad.py").is_err());
    }

    #[test]
    fn lru_is_bounded_by_bytes() {
        let mut l = Lru {
            map: HashMap::new(),
            order: BTreeMap::new(),
            bytes: 0,
            capacity: 0,
            clock: 0,
            hits: 0,
            misses: 0,
        };
        for k in 0..10u64 {
            l.clock += 1;
            let stamp = l.clock;
            let f = freeze(&crate::compile::compile_uncached("x = 1\n", "l.py").expect("ok"))
                .expect("freezable");
            l.order.insert(stamp, k);
            l.bytes += 100;
            l.map.insert(
                k,
                Entry {
                    filename: "l.py".into(),
                    source: "x = 1\n".into(),
                    code: Arc::new(f),
                    bytes: 100,
                    stamp,
                },
            );
        }
        l.touch(0);
        l.shrink_to(450);
        assert_eq!(l.bytes, 400);
        // the most recently used entry survived, the oldest others were evicted
        assert!(l.map.contains_key(&0));
        assert!(l.map.contains_key(&9) && !l.map.contains_key(&1));
        assert_eq!(l.map.len(), l.order.len());
    }
}
