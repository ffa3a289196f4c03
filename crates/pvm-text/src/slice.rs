//! Python slice-style index normalisation for `find`/`count`/`startswith` and friends.

/// Normalises optional `start`/`end` arguments exactly like CPython's `ADJUST_INDICES`:
/// `None` means `0` / `len`; negative values count from the end and clamp at `0`; `end` clamps
/// at `len`. `start` is *not* clamped to `len`, so the result may have `start > end` or
/// `start > len`; callers treat such a window as empty (and CPython's empty-needle rules apply).
///
/// Callers holding arbitrary-precision indices should saturate them to `i64` first
/// (CPython clamps through `_PyEval_SliceIndex` the same way).
pub fn adjust_indices(start: Option<i64>, end: Option<i64>, len: usize) -> (usize, usize) {
    let len_i = i64::try_from(len).unwrap_or(i64::MAX);
    let mut end = end.unwrap_or(len_i);
    let mut start = start.unwrap_or(0);
    if end > len_i {
        end = len_i;
    } else if end < 0 {
        end = end.saturating_add(len_i).max(0);
    }
    if start < 0 {
        start = start.saturating_add(len_i).max(0);
    }
    (
        usize::try_from(start).unwrap_or(usize::MAX),
        usize::try_from(end).unwrap_or(0),
    )
}

/// Normalises a single sequence index like `list.insert` / `str[i]`: negative counts from
/// the end. Returns `None` when the index is out of range `0..len`.
pub fn normalize_index(index: i64, len: usize) -> Option<usize> {
    let len_i = i64::try_from(len).ok()?;
    let i = if index < 0 {
        index.checked_add(len_i)?
    } else {
        index
    };
    if (0..len_i).contains(&i) {
        usize::try_from(i).ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjust() {
        assert_eq!(adjust_indices(None, None, 5), (0, 5));
        assert_eq!(adjust_indices(Some(-2), None, 5), (3, 5));
        assert_eq!(adjust_indices(Some(-9), Some(-9), 5), (0, 0));
        assert_eq!(adjust_indices(Some(7), Some(99), 5), (7, 5));
        assert_eq!(adjust_indices(Some(i64::MIN), Some(i64::MAX), 5), (0, 5));
    }

    #[test]
    fn index() {
        assert_eq!(normalize_index(-1, 3), Some(2));
        assert_eq!(normalize_index(3, 3), None);
        assert_eq!(normalize_index(-4, 3), None);
        assert_eq!(normalize_index(i64::MIN, 3), None);
    }
}
