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

/// Insertion-ordered map with tombstones.
#[derive(Debug, Default, Clone)]
pub struct Dict {
    entries: Vec<Option<Entry>>,
    table: HashTable<usize>,
    len: usize,
}

impl Dict {
    /// Empty dict.
    pub fn new() -> Dict {
        Dict::default()
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
        self.entries.push(Some(Entry { hash, key, value }));
        let entries = &self.entries;
        self.table
            .insert_unique(hash, idx, |&i| entries[i].as_ref().map_or(0, |e| e.hash));
        self.len += 1;
    }
    /// Remove the entry at slot `i`.
    pub fn remove_slot(&mut self, i: usize) -> Option<Entry> {
        let e = self.entries.get_mut(i)?.take()?;
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
        self.entries.clear();
        self.table.clear();
        self.len = 0;
    }
    /// Lookup with a str key (fast path for namespaces).
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        let h = str_hash(key);
        let i = self.find(h, &mut |k| matches!(k, Value::Str(s) if &*s.s == key))?;
        self.entries[i].as_ref().map(|e| &e.value)
    }
    /// Lookup with a str key whose [`str_hash`] is already known.
    #[inline]
    pub fn get_str_h(&self, key: &str, h: u64) -> Option<&Value> {
        if self.len == 0 {
            return None;
        }
        let i = self.find(h, &mut |k| matches!(k, Value::Str(s) if &*s.s == key))?;
        self.entries[i].as_ref().map(|e| &e.value)
    }
    /// Insert or overwrite with a str key (namespaces).
    pub fn set_str(&mut self, key: std::rc::Rc<crate::value::PyStr>, value: Value) {
        let h = str_hash(&key.s);
        let ks: &str = &key.s;
        if let Some(i) = self.find(h, &mut |k| matches!(k, Value::Str(s) if &*s.s == ks)) {
            if let Some(Some(e)) = self.entries.get_mut(i) {
                e.value = value;
            }
        } else {
            self.push(h, Value::Str(key), value);
        }
    }
    /// Remove a str key.
    pub fn del_str(&mut self, key: &str) -> Option<Value> {
        let h = str_hash(key);
        let i = self.find(h, &mut |k| matches!(k, Value::Str(s) if &*s.s == key))?;
        self.remove_slot(i).map(|e| e.value)
    }
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
    fn str_hash_is_fixed() {
        // Consensus: the hash never depends on a seed.
        assert_eq!(str_hash("abc"), str_hash("abc"));
        assert_ne!(str_hash("abc"), str_hash("abd"));
        assert_ne!(str_hash(""), 0);
    }
}
