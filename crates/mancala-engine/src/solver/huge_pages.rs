//! Large solver arrays on transparent huge pages.
//!
//! The table and the endgame database are read at random, so nearly every probe
//! misses the TLB as well as the cache; on a virtual machine each such miss walks two
//! sets of page tables. Backing them with 2 MiB pages instead of 4 KiB ones removes
//! most of those walks and 511 of every 512 page faults. Linux gives huge pages to
//! memory a process asks for with `madvise(MADV_HUGEPAGE)` (the default setting of
//! `/sys/kernel/mm/transparent_hugepage/enabled` is `madvise`). Kalah(6,4), every
//! move's value: 41.1 s with 4 KiB pages, 35.5 s with huge pages.
//!
//! This and the prefetch hint (`prefetch.rs`) are the engine's only `unsafe` code,
//! allowed by the design for a measured win.

/// An empty vector with room for `n` values, whose memory the kernel is asked to back
/// with huge pages once it is written. The advice is only a hint: where the kernel or
/// the platform does not take it, the vector is an ordinary one.
pub(crate) fn vec_with_capacity<T>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    advise(v.spare_capacity_mut());
    v
}

/// A vector of `n` values made by `fill`, on memory asked for as in
/// [`vec_with_capacity`].
pub(crate) fn vec_filled<T>(n: usize, fill: impl FnMut() -> T) -> Vec<T> {
    let mut v = vec_with_capacity(n);
    v.extend(std::iter::repeat_with(fill).take(n));
    v
}

/// Asks for huge pages for the whole pages inside `memory`, which nothing has
/// written yet (the kernel backs pages when they are first written).
#[cfg(target_os = "linux")]
fn advise<T>(memory: &mut [std::mem::MaybeUninit<T>]) {
    const PAGE: usize = 4096;
    // Below one huge page there is nothing to gain.
    const HUGE_PAGE: usize = 2 << 20;
    let bytes = std::mem::size_of_val(memory);
    if bytes < 2 * HUGE_PAGE {
        return;
    }
    let start = memory.as_mut_ptr().cast::<u8>();
    let skip = start.align_offset(PAGE);
    let len = (bytes - skip) / PAGE * PAGE;
    #[allow(unsafe_code)]
    // SAFETY: the range lies inside `memory`, which this function borrows mutably, and
    // `MADV_HUGEPAGE` changes only how the kernel backs the pages, never what they
    // hold, so no reference anywhere can observe it. A failure (a kernel without
    // transparent huge pages) leaves the memory as it was.
    let _ = unsafe {
        rustix::mm::madvise(
            start.add(skip).cast(),
            len,
            rustix::mm::Advice::LinuxHugepage,
        )
    };
}

#[cfg(not(target_os = "linux"))]
fn advise<T>(_memory: &mut [std::mem::MaybeUninit<T>]) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_hold_what_is_written() {
        for n in [0, 1, 1000, 3 << 20] {
            let mut v: Vec<u32> = vec_with_capacity(n);
            assert!(v.capacity() >= n);
            v.extend(0..n as u32);
            assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32));
        }
    }
}
