//! Large solver arrays on transparent huge pages.
//!
//! The table and the endgame database are read at random, so nearly every probe
//! misses the TLB as well as the cache; on a virtual machine each such miss walks two
//! sets of page tables. Backing them with 2 MiB pages instead of 4 KiB ones removes
//! most of those walks and 511 of every 512 page faults. Linux gives huge pages to
//! memory a process asks for with `madvise(MADV_HUGEPAGE)` (the default setting of
//! `/sys/kernel/mm/transparent_hugepage/enabled` is `madvise`). docs/solver.md has
//! the measurement (Kalah(6,4), every move's value, about a seventh faster).
//!
//! This and the prefetch hint (`prefetch.rs`) are the suite's only `unsafe` code,
//! allowed by the design for a measured win; the crate denies it everywhere else.

/// An empty vector with room for `n` values, whose memory the kernel is asked to back
/// with huge pages once it is written. The advice is only a hint: where the kernel or
/// the platform does not take it, the vector is an ordinary one.
pub(crate) fn vec_with_capacity<T>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    let spare = v.spare_capacity_mut();
    advise(spare.as_mut_ptr().cast(), std::mem::size_of_val(spare));
    v
}

/// A vector of `n` all-zero values, on memory asked for as in [`vec_with_capacity`].
///
/// The memory comes zeroed from the allocator (for a large vector, fresh pages from
/// the kernel), so nothing is written here: each page is faulted in and zeroed by the
/// kernel when the solver first writes it, on whichever thread does, instead of all of
/// them up front on one thread, before the search can begin (seconds for a 1 GiB
/// table; docs/solver.md).
pub(crate) fn vec_zeroed<T: bytemuck::Zeroable>(n: usize) -> Vec<T> {
    let mut v: Vec<T> = bytemuck::allocation::zeroed_vec(n);
    advise(v.as_mut_ptr().cast(), std::mem::size_of_val(v.as_slice()));
    v
}

/// Asks for huge pages for the whole pages inside the `bytes` bytes at `start`, memory
/// the caller owns. Pages not yet written are backed with huge pages when they are;
/// the contents never change.
#[cfg(target_os = "linux")]
fn advise(start: *mut u8, bytes: usize) {
    const PAGE: usize = 4096;
    // Below one huge page there is nothing to gain.
    const HUGE_PAGE: usize = 2 << 20;
    if bytes < 2 * HUGE_PAGE {
        return;
    }
    let skip = start.align_offset(PAGE);
    let len = (bytes - skip) / PAGE * PAGE;
    #[allow(
        unsafe_code,
        reason = "madvise takes a raw address range; huge pages are a measured win"
    )]
    // SAFETY: the range lies inside memory the caller owns (a vector's buffer), and
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
fn advise(_start: *mut u8, _bytes: usize) {}

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

    #[test]
    fn zeroed_vectors_are_zero_and_writable() {
        use std::sync::atomic::{AtomicU64, Ordering};
        for n in [0, 1, 1000, 1 << 20] {
            let v: Vec<[AtomicU64; 2]> = vec_zeroed(n);
            assert_eq!(v.len(), n);
            assert!(v.iter().flatten().all(|x| x.load(Ordering::Relaxed) == 0));
            if let Some(last) = v.last() {
                last[1].store(7, Ordering::Relaxed);
                assert_eq!(v[n - 1][1].load(Ordering::Relaxed), 7);
            }
        }
    }
}
