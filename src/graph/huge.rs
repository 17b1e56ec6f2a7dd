//! Transparent huge pages (2 MiB) for the big arrays the solvers read at random: the CSR's
//! offsets, targets and weights and the CPU Δ-stepping's 32-bit δ array.
//!
//! Why: with 4 KiB pages a uniform random graph at scale 21 (~32 M arcs, ~256 MB of targets and
//! weights) needs ~64 000 TLB entries, so nearly every frontier vertex's arcs and every δ access
//! misses the TLB; inside a virtual machine each miss is a nested (two-dimensional) page walk.
//! With 2 MiB pages the same graph is ~130 entries. Galois allocates its graphs on huge pages for
//! this reason. Hosts whose THP mode is `madvise` (the GPU machine, this repository's CI boxes)
//! give a process huge pages only where it asks, so we ask: `madvise(MADV_HUGEPAGE)` marks the
//! range, `madvise(MADV_COLLAPSE)` (Linux ≥ 6.1) turns the 4 KiB pages already filled into
//! 2 MiB pages now, synchronously, instead of waiting for `khugepaged`. Both only change how the
//! kernel maps the memory, never its contents.
//!
//! Only the 2 MiB-aligned interior of a range is advised (the heap does not align our arrays);
//! ranges under [`MIN_BYTES`] are skipped. Errors (an old kernel, THP `never`, no free 2 MiB
//! frames) are not errors for the caller: the array stays on 4 KiB pages and the return value
//! says so. `SSSP_HUGE=0` turns the advice off everywhere (the A/B of lease 11). A no-op on
//! targets other than Linux with glibc.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Size of a transparent huge page on x86-64 and arm64 with 4 KiB base pages, bytes.
pub const HUGE_PAGE: usize = 2 << 20;

/// Arrays smaller than this (bytes) are left on 4 KiB pages: they fit the TLB's reach anyway,
/// and their aligned interior would be at most one huge page.
pub const MIN_BYTES: usize = 4 << 20;

/// Bytes that `MADV_COLLAPSE` put on huge pages in this process, summed over every call.
static COLLAPSED: AtomicUsize = AtomicUsize::new(0);

/// Whether huge pages are asked for: not when the environment sets `SSSP_HUGE=0`. Read once.
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("SSSP_HUGE").map(|v| v.trim() != "0").unwrap_or(true))
}

/// Bytes put on huge pages so far by [`advise`] in this process (for a log line).
pub fn collapsed_bytes() -> usize {
    COLLAPSED.load(Relaxed)
}

/// Asks the kernel to back the 2 MiB-aligned interior of `data` with transparent huge pages and
/// to collapse the pages already there now. Returns the bytes `MADV_COLLAPSE` accepted (0 when
/// the range is under [`MIN_BYTES`], huge pages are off, or the kernel declined). Never fails:
/// an array the kernel leaves on 4 KiB pages is merely slower to reach at random.
pub fn advise<T>(data: &[T]) -> usize {
    let Some((start, len)) = interior(data) else { return 0 };
    let done = madvise_huge(start, len);
    COLLAPSED.fetch_add(done, Relaxed);
    done
}

/// Marks the 2 MiB-aligned interior of `data`, not yet written (a fresh `vec![0; n]`, which the
/// allocator maps lazily), for transparent huge pages without collapsing anything: the writes
/// that follow fault it in as 2 MiB pages, zeroed by the threads that write them, where
/// [`advise`] would zero them all now on the calling thread. Returns the bytes marked.
pub fn advise_untouched<T>(data: &[T]) -> usize {
    interior(data).map_or(0, |(start, len)| mark_huge(start, len))
}

/// The 2 MiB-aligned interior of `data` as (start address, bytes), or None when there is
/// nothing to advise: under [`MIN_BYTES`], huge pages off, or no whole huge page inside.
fn interior<T>(data: &[T]) -> Option<(usize, usize)> {
    let bytes = std::mem::size_of_val(data);
    if bytes < MIN_BYTES || !enabled() {
        return None;
    }
    let start = (data.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
    let end = (data.as_ptr() as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
    (end > start).then(|| (start, end - start))
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn mark_huge(start: usize, len: usize) -> usize {
    // SAFETY: as in madvise_huge; MADV_HUGEPAGE only sets a flag on the mapping.
    let marked = unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE) } == 0;
    if marked { len } else { 0 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn mark_huge(_start: usize, _len: usize) -> usize {
    0
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn madvise_huge(start: usize, len: usize) -> usize {
    /// `MADV_COLLAPSE` from Linux 6.1's `<asm-generic/mman-common.h>`; the libc crate lacks it.
    const MADV_COLLAPSE: libc::c_int = 25;
    let ptr = start as *mut libc::c_void;
    // SAFETY: [start, start + len) lies inside one live allocation the caller borrows (it is the
    // aligned interior of `data`), page-aligned because 2 MiB is a multiple of the page size.
    // MADV_HUGEPAGE only sets a flag on the mapping; the pages keep their contents.
    let marked = unsafe { libc::madvise(ptr, len, libc::MADV_HUGEPAGE) } == 0;
    if !marked {
        return 0;
    }
    // SAFETY: as above; MADV_COLLAPSE copies the range's pages into huge pages and remaps them
    // atomically with respect to other threads' accesses, so the contents (and any concurrent
    // reader) see the same bytes before and after; on failure the old pages stay mapped.
    let collapsed = unsafe { libc::madvise(ptr, len, MADV_COLLAPSE) } == 0;
    if collapsed { len } else { 0 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn madvise_huge(_start: usize, _len: usize) -> usize {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_is_safe_on_empty_small_and_unaligned_ranges() {
        let empty: Vec<u32> = Vec::new();
        assert_eq!(advise(&empty), 0);
        let small = vec![7u32; 1000];
        assert_eq!(advise(&small), 0);
        // Unaligned by construction: a slice starting 3 bytes into a 9 MiB buffer.
        let big = vec![1u8; 9 << 20];
        let done = advise(&big[3..big.len() - 5]);
        assert!(done <= big.len() && done.is_multiple_of(HUGE_PAGE));
        // The contents are untouched whatever the kernel did.
        assert!(big.iter().all(|&b| b == 1));
        // Twice on the same range is harmless.
        advise(&big);
        assert_eq!(big.len(), 9 << 20);
    }
}
