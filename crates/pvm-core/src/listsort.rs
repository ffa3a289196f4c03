//! CPython 3.11's `list.sort` for short lists, used when the order of the keys is not a
//! consistent total order (keys holding a float NaN), where the result depends on which
//! comparisons the algorithm makes.
//!
//! For fewer than 64 items CPython's timsort is one natural run (`count_run`; a strictly
//! descending run is reversed) extended by binary insertion (`binarysort`): no merges. This
//! module makes exactly those comparisons in that order, so it gives CPython's result for any
//! comparison outcomes. For consistent orders every stable sort gives the same result, so
//! callers use it only where the outcome can differ.

use crate::value::Value;

/// True if sort key `v` is a float NaN or a tuple or list holding one (a few levels deep),
/// so its comparisons may not be a consistent order.
pub fn has_nan(v: &Value) -> bool {
    fn go(v: &Value, depth: u32) -> bool {
        match v {
            Value::Float(f) => f.is_nan(),
            Value::Tuple(t) if depth < 4 => t.v.iter().any(|x| go(x, depth + 1)),
            Value::List(l) if depth < 4 => l.v.borrow().iter().any(|x| go(x, depth + 1)),
            _ => false,
        }
    }
    go(v, 0)
}

/// Lists shorter than this are sorted by CPython as one run plus binary insertion.
pub const SHORT: usize = 64;

/// The permutation of `0..n` (`n < SHORT`) that CPython's `list.sort` produces when
/// `less(i, j)` answers "key i < key j". With `reverse`, CPython reverses the list before and
/// after sorting (keeping equal keys in order); so does this. The first error stops it.
pub fn short_sort<E>(
    n: usize,
    reverse: bool,
    mut less: impl FnMut(usize, usize) -> Result<bool, E>,
) -> Result<Vec<usize>, E> {
    let mut a: Vec<usize> = (0..n).collect();
    if reverse {
        a.reverse();
    }
    if n >= 2 {
        // count_run
        let mut run = 2;
        if less(a[1], a[0])? {
            while run < n && less(a[run], a[run - 1])? {
                run += 1;
            }
            a[..run].reverse();
        } else {
            while run < n && !less(a[run], a[run - 1])? {
                run += 1;
            }
        }
        // binarysort of a[run..] into the sorted prefix
        for start in run..n {
            let pivot = a[start];
            let (mut l, mut r) = (0, start);
            while l < r {
                let p = l + ((r - l) >> 1);
                if less(pivot, a[p])? {
                    r = p;
                } else {
                    l = p + 1;
                }
            }
            a.copy_within(l..start, l + 1);
            a[l] = pivot;
        }
    }
    if reverse {
        a.reverse();
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::short_sort;

    fn sort_f(v: &[f64], reverse: bool) -> Vec<f64> {
        let idx = short_sort(v.len(), reverse, |i, j| Ok::<bool, ()>(v[i] < v[j])).unwrap();
        idx.into_iter().map(|i| v[i]).collect()
    }

    fn show(v: &[f64]) -> String {
        format!("{v:?}")
    }

    #[test]
    fn consistent_orders_sort_stably() {
        assert_eq!(
            sort_f(&[3.0, 1.0, 2.0, 1.0], false),
            vec![1.0, 1.0, 2.0, 3.0]
        );
        assert_eq!(sort_f(&[3.0, 1.0, 2.0], true), vec![3.0, 2.0, 1.0]);
        assert_eq!(
            sort_f(&[5.0, 4.0, 3.0, 9.0], false),
            vec![3.0, 4.0, 5.0, 9.0]
        );
        let idx = short_sort(4, true, |i, j| {
            Ok::<bool, ()>([1, 2, 1, 2][i] < [1, 2, 1, 2][j])
        });
        assert_eq!(idx.unwrap(), vec![1, 3, 0, 2]);
    }

    #[test]
    fn nan_results_match_cpython() {
        // sorted([3.0, nan, 1.0, 2.0]) == [3.0, nan, 1.0, 2.0] in CPython 3.11
        let nan = f64::NAN;
        assert_eq!(
            show(&sort_f(&[3.0, nan, 1.0, 2.0], false)),
            "[3.0, NaN, 1.0, 2.0]"
        );
        // sorted([nan, 3.0, 1.0, 2.0]) == [nan, 1.0, 2.0, 3.0]
        assert_eq!(
            show(&sort_f(&[nan, 3.0, 1.0, 2.0], false)),
            "[NaN, 1.0, 2.0, 3.0]"
        );
    }

    #[test]
    fn errors_stop_the_sort() {
        let r = short_sort(5, false, |_, _| Err::<bool, &str>("boom"));
        assert_eq!(r, Err("boom"));
    }
}
