//! The per-invocation `/tmp` scratch file system (whitepaper §3.1): in memory, capped at
//! `Limits::tmp_bytes` in total, wiped when the invocation ends. Writes are charged as cells.

use crate::value::*;
use crate::vm::{PyResult, Vm};
use std::cell::RefCell;
use std::rc::Rc;

/// Files of one invocation, in creation order.
#[derive(Debug, Default)]
pub struct TmpFs {
    files: Vec<(String, Vec<u8>)>,
}

impl TmpFs {
    fn total(&self) -> usize {
        self.files.iter().map(|(n, d)| n.len() + d.len()).sum()
    }
    fn get(&self, p: &str) -> Option<&Vec<u8>> {
        self.files.iter().find(|(n, _)| n == p).map(|(_, d)| d)
    }
    fn get_mut(&mut self, p: &str) -> Option<&mut Vec<u8>> {
        self.files.iter_mut().find(|(n, _)| n == p).map(|(_, d)| d)
    }
}

const METHODS: &[&str] = &[
    "read",
    "readline",
    "readlines",
    "write",
    "writelines",
    "seek",
    "tell",
    "close",
    "flush",
    "__enter__",
    "__exit__",
    "__iter__",
    "__next__",
];

/// Create the file class (once per VM).
pub fn file_class(vm: &mut Vm) -> Rc<Class> {
    if let Some(c) = &vm.file_class {
        return c.clone();
    }
    let mut d = crate::dict::Dict::new();
    for m in METHODS {
        let f: &'static str = match *m {
            "read" => "__file_read__",
            "readline" => "__file_readline__",
            "readlines" => "__file_readlines__",
            "write" => "__file_write__",
            "writelines" => "__file_writelines__",
            "seek" => "__file_seek__",
            "tell" => "__file_tell__",
            "close" => "__file_close__",
            "flush" => "__file_flush__",
            "__enter__" => "__file_enter__",
            "__exit__" => "__file_exit__",
            "__iter__" => "__file_iter__",
            _ => "__file_next__",
        };
        d.set_str(
            Rc::new(PyStr::new(*m)),
            Value::Builtin(Rc::new(Builtin {
                kind: BuiltinKind::Func(f),
                recv: None,
            })),
        );
    }
    let c = Rc::new(Class {
        name: Rc::from("TextIOWrapper"),
        qualname: Rc::from("TextIOWrapper"),
        bases: vec![vm.types.object.clone()],
        mro: vec![vm.types.object.clone()],
        dict: RefCell::new(d),
        kind: TypeKind::Object,
        builtin: true,
        slots: None,
        id: vm.new_id(),
        flags: std::cell::Cell::new(0),
        flags_epoch: std::cell::Cell::new(0),
    });
    vm.file_class = Some(c.clone());
    c
}

/// File handle state kept in the instance's native slot: [path, mode, pos, closed].
fn state(vm: &Vm, f: &Value) -> PyResult<(Rc<Instance>, String, String, usize, bool)> {
    let Value::Instance(i) = f else {
        return Err(vm.type_err("not a file"));
    };
    let st = i.native.borrow().clone();
    let Some(Value::List(l)) = st else {
        return Err(vm.type_err("not a file"));
    };
    let v = l.v.borrow();
    let s = |x: &Value| {
        if let Value::Str(s) = x {
            s.s.to_string()
        } else {
            String::new()
        }
    };
    let pos = if let Value::Int(p) = v[2] {
        p as usize
    } else {
        0
    };
    let closed = matches!(v[3], Value::Bool(true));
    Ok((i.clone(), s(&v[0]), s(&v[1]), pos, closed))
}

fn set_pos(i: &Rc<Instance>, pos: usize) {
    if let Some(Value::List(l)) = &*i.native.borrow() {
        l.v.borrow_mut()[2] = Value::Int(pos as i64);
    }
}

fn os_err(vm: &Vm, cls: &str, errno: i32, msg: &str, path: &str) -> crate::vm::Flow {
    vm.exc(cls, format!("[Errno {errno}] {msg}: '{path}'"))
}

/// `open(path, mode)` for paths under /tmp.
pub fn open(vm: &mut Vm, path: &str, mode: &str) -> PyResult<Value> {
    let valid = matches!(
        mode.replace(['b', 't'], "").as_str(),
        "r" | "w" | "a" | "x" | "r+" | "w+" | "a+"
    );
    if !valid {
        return Err(vm.exc("ValueError", format!("invalid mode: '{mode}'")));
    }
    let exists = vm.tmpfs.get(path).is_some();
    let m = mode.replace(['b', 't'], "");
    if m.starts_with('r') && !exists {
        return Err(os_err(
            vm,
            "FileNotFoundError",
            2,
            "No such file or directory",
            path,
        ));
    }
    if m.starts_with('x') && exists {
        return Err(os_err(vm, "FileExistsError", 17, "File exists", path));
    }
    if m.starts_with('w') || m.starts_with('x') {
        if let Some(d) = vm.tmpfs.get_mut(path) {
            d.clear();
        } else {
            if vm.tmpfs.total() + path.len() > vm.tmp_limit {
                return Err(os_err(vm, "OSError", 28, "No space left on device", path));
            }
            vm.tmpfs.files.push((path.to_string(), Vec::new()));
        }
    } else if m.starts_with('a') && !exists {
        if vm.tmpfs.total() + path.len() > vm.tmp_limit {
            return Err(os_err(vm, "OSError", 28, "No space left on device", path));
        }
        vm.tmpfs.files.push((path.to_string(), Vec::new()));
    }
    let pos = if m.starts_with('a') {
        vm.tmpfs.get(path).map_or(0, |d| d.len())
    } else {
        0
    };
    let cls = file_class(vm);
    let inst = vm.new_instance(&cls, &[]);
    if let Value::Instance(i) = &inst {
        *i.native.borrow_mut() = Some(Value::list(vec![
            Value::str(path),
            Value::str(mode),
            Value::Int(pos as i64),
            Value::Bool(false),
        ]));
        i.dict
            .d
            .borrow_mut()
            .set_str(Rc::new(PyStr::new("name")), Value::str(path));
        i.dict
            .d
            .borrow_mut()
            .set_str(Rc::new(PyStr::new("mode")), Value::str(mode));
    }
    Ok(inst)
}

fn data_out(binary: bool, bytes: &[u8]) -> Value {
    if binary {
        Value::bytes(bytes.to_vec())
    } else {
        Value::str(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// File methods.
pub fn call(vm: &mut Vm, name: &str, args: Vec<Value>) -> PyResult<Value> {
    let f = args.first().cloned().unwrap_or_default();
    let (inst, path, mode, pos, closed) = state(vm, &f)?;
    let binary = mode.contains('b');
    let readable = mode.starts_with('r') || mode.contains('+');
    let writable = !mode.starts_with('r') || mode.contains('+');
    if closed && !matches!(name, "__file_close__" | "__file_exit__") {
        return Err(vm.exc("ValueError", "I/O operation on closed file."));
    }
    vm.charge(20)?;
    match name {
        "__file_enter__" => Ok(f),
        "__file_exit__" | "__file_close__" => {
            if let Some(Value::List(l)) = &*inst.native.borrow() {
                l.v.borrow_mut()[3] = Value::Bool(true);
            }
            Ok(if name == "__file_exit__" {
                Value::Bool(false)
            } else {
                Value::None
            })
        }
        "__file_flush__" => Ok(Value::None),
        "__file_tell__" => Ok(Value::Int(pos as i64)),
        "__file_seek__" => {
            let off = vm.to_index(&args.get(1).cloned().unwrap_or(Value::Int(0)))?;
            let whence = match args.get(2) {
                Some(v) => vm.to_index(v)?,
                None => 0,
            };
            let len = vm.tmpfs.get(&path).map_or(0, |d| d.len()) as i64;
            let np = match whence {
                0 => off,
                1 => pos as i64 + off,
                _ => len + off,
            };
            if np < 0 {
                return Err(vm.exc("ValueError", format!("negative seek position {np}")));
            }
            set_pos(&inst, np as usize);
            Ok(Value::Int(np))
        }
        "__file_write__" | "__file_writelines__" => {
            if !writable {
                return Err(vm.exc("OSError", "not writable"));
            }
            let items = if name == "__file_writelines__" {
                vm.collect(&args.get(1).cloned().unwrap_or_default())?
            } else {
                vec![args.get(1).cloned().unwrap_or_default()]
            };
            let mut bytes = Vec::new();
            let mut nchars = 0;
            for it in &items {
                match (it, binary) {
                    (Value::Str(s), false) => {
                        bytes.extend_from_slice(s.s.as_bytes());
                        nchars += s.nchars;
                    }
                    (Value::Bytes(b), true) => {
                        bytes.extend_from_slice(&b.b);
                        nchars += b.b.len();
                    }
                    (Value::ByteArray(b), true) => {
                        bytes.extend_from_slice(&b.b.borrow());
                        nchars += b.b.borrow().len();
                    }
                    (v, false) => {
                        return Err(vm.type_err(format!(
                            "write() argument must be str, not {}",
                            vm.type_name(v)
                        )));
                    }
                    (v, true) => {
                        return Err(vm.type_err(format!(
                            "a bytes-like object is required, not '{}'",
                            vm.type_name(v)
                        )));
                    }
                }
            }
            let cur_len = vm.tmpfs.get(&path).map_or(0, |d| d.len());
            let start = if mode.starts_with('a') { cur_len } else { pos };
            let new_len = (start + bytes.len()).max(cur_len);
            if vm.tmpfs.total() - cur_len + new_len > vm.tmp_limit {
                return Err(os_err(vm, "OSError", 28, "No space left on device", &path));
            }
            vm.charge(bytes.len() as u64 / 4)?;
            vm.charge_cells(bytes.len() as u64);
            let n = bytes.len();
            if let Some(d) = vm.tmpfs.get_mut(&path) {
                if d.len() < start {
                    d.resize(start, 0);
                }
                let end = start + n;
                if d.len() < end {
                    d.resize(end, 0);
                }
                d[start..end].copy_from_slice(&bytes);
            }
            set_pos(&inst, start + n);
            Ok(if name == "__file_write__" {
                Value::Int(nchars as i64)
            } else {
                Value::None
            })
        }
        "__file_read__" | "__file_readline__" | "__file_readlines__" | "__file_iter__"
        | "__file_next__" => {
            if !readable {
                return Err(vm.exc("OSError", "not readable"));
            }
            let data = vm.tmpfs.get(&path).cloned().unwrap_or_default();
            let rest = &data[pos.min(data.len())..];
            vm.charge(rest.len() as u64 / 8)?;
            match name {
                "__file_read__" => {
                    let n = match args.get(1) {
                        Some(Value::None) | None => rest.len(),
                        Some(v) => {
                            let n = vm.to_index(v)?;
                            if n < 0 { rest.len() } else { n as usize }
                        }
                    };
                    let take = if binary {
                        n.min(rest.len())
                    } else {
                        // n characters
                        let s = String::from_utf8_lossy(rest);
                        s.char_indices().nth(n).map_or(rest.len(), |(i, _)| i)
                    };
                    set_pos(&inst, pos + take);
                    Ok(data_out(binary, &rest[..take]))
                }
                "__file_readline__" | "__file_next__" => {
                    let end = rest
                        .iter()
                        .position(|b| *b == b'\n')
                        .map_or(rest.len(), |i| i + 1);
                    set_pos(&inst, pos + end);
                    if name == "__file_next__" && end == 0 {
                        return Err(vm.exc_args("StopIteration", vec![]));
                    }
                    Ok(data_out(binary, &rest[..end]))
                }
                _ => {
                    let mut lines = Vec::new();
                    let mut i = 0;
                    while i < rest.len() {
                        let end = rest[i..]
                            .iter()
                            .position(|b| *b == b'\n')
                            .map_or(rest.len(), |j| i + j + 1);
                        lines.push(data_out(binary, &rest[i..end]));
                        i = end;
                    }
                    set_pos(&inst, data.len());
                    let l = Value::list(lines);
                    if name == "__file_iter__" {
                        return vm.get_iter(&l);
                    }
                    Ok(l)
                }
            }
        }
        _ => Err(vm.exc("AttributeError", format!("file has no attribute {name}"))),
    }
}
