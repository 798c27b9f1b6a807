//! Memory advice for the big tables of search: the transposition table and the MCTS
//! tree.

/// Asks the kernel to back the memory of `items` with huge pages (2 MiB on x86-64)
/// where it can: a search reads random places of tables of many megabytes, and with
/// 4 KiB pages nearly every such read also misses the address-translation cache.
///
/// Only advice, for memory not touched yet (pages already in use keep their size): the
/// kernel may ignore it (transparent huge pages off, or no memory for them), and the
/// contents and validity of the memory do not change either way.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub(crate) fn advise_huge_pages<T>(items: &[T]) {
    const PAGE: usize = 4096;
    let start = items.as_ptr() as usize;
    let end = start + std::mem::size_of_val(items);
    // madvise takes whole pages: those inside the slice.
    let first = start.next_multiple_of(PAGE);
    let last = end / PAGE * PAGE;
    if last > first {
        // SAFETY: the range lies inside the memory of `items`, which is borrowed for
        // the whole call, and MADV_HUGEPAGE only changes how the kernel backs those
        // pages, never their contents or whether they may be used. A failure is
        // harmless and ignored.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

/// Huge pages are only asked for on Linux.
#[cfg(not(target_os = "linux"))]
pub(crate) fn advise_huge_pages<T>(_items: &[T]) {}
