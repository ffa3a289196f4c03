//! Memory hints for the index's large arrays (performance only; never affects a result).
//!
//! At 10M keys the index's slot array and hash table hold ~0.6 GB that every update touches at
//! random. With 4 KiB pages nearly every such access also misses the TLB and walks page tables
//! that do not fit the caches; transparent huge pages (2 MiB) let the TLB cover the arrays. On
//! Linux the kernel default is often `madvise` mode, so the store asks for them explicitly.

/// Smallest allocation worth advising: a few huge pages.
const MIN_BYTES: usize = 8 << 20;
const HUGE: usize = 2 << 20;

/// Asks the kernel to back the 2 MiB-aligned interior of `v`'s allocation (its whole capacity)
/// with huge pages, collapsing pages already present when `collapse` is set. A hint: errors
/// (old kernels, THP disabled, other platforms) are ignored.
pub fn advise_huge<T>(v: &Vec<T>, collapse: bool) {
    let bytes = v.capacity() * size_of::<T>();
    if bytes < MIN_BYTES {
        return;
    }
    let start = (v.as_ptr() as usize).next_multiple_of(HUGE);
    let end = (v.as_ptr() as usize + bytes) & !(HUGE - 1);
    if end <= start {
        return;
    }
    advise(start, end - start, collapse);
}

#[cfg(target_os = "linux")]
fn advise(start: usize, len: usize, collapse: bool) {
    /// `MADV_COLLAPSE` (Linux 6.1); not every libc release exports it.
    const MADV_COLLAPSE: libc::c_int = 25;
    // SAFETY: madvise with MADV_HUGEPAGE / MADV_COLLAPSE only changes how the kernel backs a
    // range this process owns (the interior of a live allocation); contents are preserved.
    unsafe {
        libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        if collapse {
            libc::madvise(start as *mut libc::c_void, len, MADV_COLLAPSE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: usize, _len: usize, _collapse: bool) {}

/// Hints the CPU to start loading the cache line holding `*p` (no effect on results).
#[inline(always)]
pub fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and does not change memory; `p` is a valid reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (p as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    #[test]
    fn advising_keeps_contents() {
        let mut v: Vec<u64> = Vec::with_capacity(3 << 20);
        super::advise_huge(&v, false);
        v.extend(0..(3u64 << 20));
        super::advise_huge(&v, true);
        super::prefetch(&v[12345]);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64));
    }
}
