//! Insertion-ordered hash table used for dict, set, frozenset, instance and module namespaces.
//!
//! Hashing and equality follow Python semantics and may run user code, so lookups take the
//! equality test as a closure supplied by the VM. Iteration order is insertion order; hash values
//! only choose buckets and never influence results.

use crate::value::Value;
use hashbrown::HashTable;

/// One entry.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Python hash of the key.
    pub hash: u64,
    /// Key.
    pub key: Value,
    /// Value (None for sets).
    pub value: Value,
}

thread_local! {
    /// Source of [`Dict::version`] tags; only ever increases on this thread.
    static NEXT_VERSION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A fresh, never-before-used version tag (never 0).
#[inline]
fn next_version() -> u64 {
    NEXT_VERSION.with(|c| {
        let v = c.get() + 1;
        c.set(v);
        v
    })
}

/// Insertion-ordered map with tombstones.
#[derive(Debug, Default, Clone)]
pub struct Dict {
    entries: Vec<Option<Entry>>,
    table: HashTable<usize>,
    len: usize,
    version: u64,
}

impl Dict {
    /// Empty dict.
    pub fn new() -> Dict {
        Dict::default()
    }
    /// Key-layout version tag, used by the interpreter's inline caches.
    ///
    /// Invariant: every change to the set of keys or to the slot a key lives in (insertion,
    /// removal, compaction, clearing) gives the dict a tag drawn from a per-thread counter that
    /// never repeats, so two dicts with equal non-zero tags hold the same keys in the same slots
    /// (one is an unmodified clone of the other). Overwriting the value of an existing key keeps
    /// the tag: a cache that remembers a slot index stays valid and reads the current value. The
    /// tag only ever feeds equality tests, never results, so it cannot affect determinism.
    #[inline]
    pub fn version(&self) -> u64 {
        self.version
    }
    /// Number of live entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Size of the entry array including tombstones (iteration bound).
    #[inline]
    pub fn slots(&self) -> usize {
        self.entries.len()
    }
    /// Entry at slot `i` (None for tombstones / out of range).
    #[inline]
    pub fn slot(&self, i: usize) -> Option<&Entry> {
        self.entries.get(i).and_then(|e| e.as_ref())
    }
    /// Mutable value at slot.
    pub fn slot_value_mut(&mut self, i: usize) -> Option<&mut Value> {
        self.entries
            .get_mut(i)
            .and_then(|e| e.as_mut())
            .map(|e| &mut e.value)
    }
    /// Find the slot of `key` with hash `hash`; `eq(stored, key)` decides equality.
    pub fn find(&self, hash: u64, eq: &mut dyn FnMut(&Value) -> bool) -> Option<usize> {
        self.find_g(hash, eq)
    }
    /// [`Dict::find`] with a statically known equality test (inlined on the str fast paths).
    #[inline]
    pub fn find_g(&self, hash: u64, mut eq: impl FnMut(&Value) -> bool) -> Option<usize> {
        let entries = &self.entries;
        self.table
            .find(hash, |&i| match &entries[i] {
                Some(e) => e.hash == hash && eq(&e.key),
                None => false,
            })
            .copied()
    }
    /// Append a new entry (the caller checked that the key is absent).
    pub fn push(&mut self, hash: u64, key: Value, value: Value) {
        let idx = self.entries.len();
        self.version = next_version();
        self.entries.push(Some(Entry { hash, key, value }));
        let entries = &self.entries;
        self.table
            .insert_unique(hash, idx, |&i| entries[i].as_ref().map_or(0, |e| e.hash));
        self.len += 1;
    }
    /// Replace the key and value of the live entry at slot `i`, keeping its hash, its slot and
    /// the dict's version tag. Only for a key equal to the old one (same hash, same text):
    /// module images rebuild namespaces this way from a template with the same layout, so
    /// inline caches keyed by the version stay valid. Returns false if slot `i` is empty.
    pub(crate) fn replace_slot(&mut self, i: usize, key: Value, value: Value) -> bool {
        match self.entries.get_mut(i) {
            Some(Some(e)) => {
                e.key = key;
                e.value = value;
                true
            }
            _ => false,
        }
    }
    /// Remove the entry at slot `i`.
    pub fn remove_slot(&mut self, i: usize) -> Option<Entry> {
        let e = self.entries.get_mut(i)?.take()?;
        self.version = next_version();
        if let Ok(o) = self.table.find_entry(e.hash, |&j| j == i) {
            o.remove();
        }
        self.len -= 1;
        if self.entries.len() > 16 && self.len * 2 < self.entries.len() {
            self.compact();
        }
        Some(e)
    }
    fn compact(&mut self) {
        let old = std::mem::take(&mut self.entries);
        self.table.clear();
        self.len = 0;
        for e in old.into_iter().flatten() {
            self.push(e.hash, e.key, e.value);
        }
    }
    /// Remove and return the last entry.
    pub fn pop_last(&mut self) -> Option<Entry> {
        while let Some(last) = self.entries.last() {
            if last.is_none() {
                self.entries.pop();
            } else {
                let i = self.entries.len() - 1;
                return self.remove_slot(i);
            }
        }
        None
    }
    /// Remove and return the first entry.
    pub fn pop_first(&mut self) -> Option<Entry> {
        let i = self.entries.iter().position(|e| e.is_some())?;
        self.remove_slot(i)
    }
    /// Iterate live entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().flatten()
    }
    /// Remove everything.
    pub fn clear(&mut self) {
        self.version = next_version();
        self.entries.clear();
        self.table.clear();
        self.len = 0;
    }
    /// Lookup with a str key (fast path for namespaces).
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        let h = str_hash(key);
        let i = self.find_g(h, |k| str_key_eq(k, key))?;
        self.entries[i].as_ref().map(|e| &e.value)
    }
    /// Lookup with a str key whose [`str_hash`] is already known.
    #[inline]
    pub fn get_str_h(&self, key: &str, h: u64) -> Option<&Value> {
        if self.len == 0 {
            return None;
        }
        let i = self.find_g(h, |k| str_key_eq(k, key))?;
        self.entries[i].as_ref().map(|e| &e.value)
    }
    /// Slot of a str key whose [`str_hash`] is already known.
    #[inline]
    pub fn find_str_h(&self, key: &str, h: u64) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        self.find_g(h, |k| str_key_eq(k, key))
    }
    /// Insert or overwrite with a str key (namespaces).
    pub fn set_str(&mut self, key: std::rc::Rc<crate::value::PyStr>, value: Value) {
        let h = str_hash(&key.s);
        let ks: &str = &key.s;
        if let Some(i) = self.find_g(h, |k| str_key_eq(k, ks)) {
            if let Some(Some(e)) = self.entries.get_mut(i) {
                e.value = value;
            }
        } else {
            self.push(h, Value::Str(key), value);
        }
    }
    /// Insert or overwrite the str key `key` whose [`str_hash`] is `h`, returning the previous
    /// value. The key object is only allocated when the key is absent, so overwriting an existing
    /// attribute allocates nothing.
    pub fn set_str_h(&mut self, key: &str, h: u64, value: Value) -> Option<Value> {
        if let Some(i) = self.find_g(h, |k| str_key_eq(k, key)) {
            return self
                .entries
                .get_mut(i)
                .and_then(|e| e.as_mut())
                .map(|e| std::mem::replace(&mut e.value, value));
        }
        self.push(
            h,
            Value::Str(std::rc::Rc::new(crate::value::PyStr::new(key))),
            value,
        );
        None
    }
    /// Remove a str key.
    pub fn del_str(&mut self, key: &str) -> Option<Value> {
        let h = str_hash(key);
        let i = self.find_g(h, |k| str_key_eq(k, key))?;
        self.remove_slot(i).map(|e| e.value)
    }
}

/// True when `k` is a str equal to `key`. Inlined word-wise comparison for the short names
/// that dominate namespace lookups (the hash already matched, so this is a confirmation).
#[inline]
pub fn str_key_eq(k: &Value, key: &str) -> bool {
    let Value::Str(s) = k else {
        return false;
    };
    let (a, b) = (s.s.as_bytes(), key.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.as_ptr() == b.as_ptr() {
        return true;
    }
    if a.len() > 32 {
        return a == b;
    }
    words_eq(a, b)
}

/// Byte equality of two slices of the same length, 8-byte words first, then the remaining
/// bytes: the short names of namespace lookups compare without a `memcmp` call. Always
/// inlined (also into the interpreter's attribute fast paths).
#[inline(always)]
pub(crate) fn words_eq(a: &[u8], b: &[u8]) -> bool {
    debug_assert_eq!(a.len(), b.len());
    let (mut ca, mut cb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut ca).zip(&mut cb) {
        let (mut wx, mut wy) = ([0u8; 8], [0u8; 8]);
        wx.copy_from_slice(x);
        wy.copy_from_slice(y);
        if u64::from_ne_bytes(wx) != u64::from_ne_bytes(wy) {
            return false;
        }
    }
    let (ra, rb) = (ca.remainder(), cb.remainder());
    ra.iter().zip(rb).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Deterministic str hash (FNV-1a 64 over UTF-8, never 0 or u64::MAX).
pub fn str_hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    if h == 0 || h == u64::MAX { 1 } else { h }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insertion_order_survives_removal_and_compaction() {
        let mut d = Dict::new();
        for i in 0..40 {
            d.set_str(
                std::rc::Rc::new(crate::value::PyStr::new(format!("k{i}"))),
                Value::Int(i),
            );
        }
        for i in 0..30 {
            assert!(d.del_str(&format!("k{i}")).is_some());
        }
        assert_eq!(d.len(), 10);
        let keys: Vec<i64> = d
            .iter()
            .map(|e| if let Value::Int(i) = e.value { i } else { -1 })
            .collect();
        assert_eq!(keys, (30..40).collect::<Vec<_>>());
        assert!(matches!(d.get_str("k35"), Some(Value::Int(35))));
        assert!(d.get_str("k3").is_none());
        assert!(matches!(
            d.pop_first().map(|e| e.value),
            Some(Value::Int(30))
        ));
        assert!(matches!(
            d.pop_last().map(|e| e.value),
            Some(Value::Int(39))
        ));
    }

    #[test]
    fn set_str_h_overwrites_in_place_and_returns_old() {
        let mut d = Dict::new();
        let h = str_hash("x");
        assert!(d.set_str_h("x", h, Value::Int(1)).is_none());
        assert!(d.set_str_h("y", str_hash("y"), Value::Int(2)).is_none());
        assert!(matches!(
            d.set_str_h("x", h, Value::Int(3)),
            Some(Value::Int(1))
        ));
        assert_eq!(d.len(), 2);
        let vals: Vec<i64> = d
            .iter()
            .map(|e| if let Value::Int(i) = e.value { i } else { -1 })
            .collect();
        assert_eq!(vals, vec![3, 2]);
    }

    #[test]
    fn str_key_eq_matches_plain_equality() {
        let words = [
            "",
            "a",
            "b",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefgi",
            "abcdefghi",
            "abcdefghj",
            "x_long_attribute_name_1",
            "x_long_attribute_name_2",
            "é",
            "e\u{301}",
            "a_very_long_name_that_exceeds_thirty_two_bytes_0",
            "a_very_long_name_that_exceeds_thirty_two_bytes_1",
        ];
        for a in words {
            let k = Value::str(a);
            for b in words {
                assert_eq!(str_key_eq(&k, b), a == b, "{a:?} vs {b:?}");
            }
        }
        assert!(!str_key_eq(&Value::Int(1), "1"));
    }

    #[test]
    fn str_hash_is_fixed() {
        // Consensus: the hash never depends on a seed.
        assert_eq!(str_hash("abc"), str_hash("abc"));
        assert_ne!(str_hash("abc"), str_hash("abd"));
        assert_ne!(str_hash(""), 0);
    }
}
