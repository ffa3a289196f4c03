//! `pvm-stdlib`: the whitelisted standard-library modules of the PVM that are written in
//! Python, embedded as source text. The PVM compiles a module on its first import.
//! `re` and `hashlib` are the Python halves of modules whose engines are native: the PVM
//! gives them a helper module named `_native` before their body runs.
//!
//! The sources are our own implementations of CPython 3.11's documented behaviour. Their
//! semantics are checked against CPython by `tests/test_against_cpython.py` (pytest, run by
//! `npm test`), which loads the very same files under CPython.

/// `(module name, Python source)` of every module in this crate, sorted by name.
pub const MODULES: &[(&str, &str)] = &[
    ("abc", include_str!("../lib/abc.py")),
    ("collections", include_str!("../lib/collections.py")),
    ("dataclasses", include_str!("../lib/dataclasses.py")),
    ("decimal", include_str!("../lib/decimal.py")),
    ("enum", include_str!("../lib/enum.py")),
    ("functools", include_str!("../lib/functools.py")),
    ("hashlib", include_str!("../lib/hashlib.py")),
    ("itertools", include_str!("../lib/itertools.py")),
    ("json", include_str!("../lib/json.py")),
    ("re", include_str!("../lib/re.py")),
    ("struct", include_str!("../lib/struct.py")),
    ("typing", include_str!("../lib/typing.py")),
];

/// The source of module `name`, if it is one of ours.
pub fn source(name: &str) -> Option<&'static str> {
    MODULES
        .binary_search_by(|(n, _)| n.cmp(&name))
        .ok()
        .map(|i| MODULES[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_sorted_and_found() {
        assert!(
            MODULES.windows(2).all(|w| w[0].0 < w[1].0),
            "MODULES must stay sorted by name"
        );
        for (name, src) in MODULES {
            assert_eq!(source(name), Some(*src));
            // canonical source, like actor code: LF only, no BOM, no tabs for indentation
            assert!(
                !src.contains('\r') && !src.starts_with('\u{feff}'),
                "{name}"
            );
        }
        assert_eq!(source("os"), None);
    }
}
