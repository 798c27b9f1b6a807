//! Cache prefetch hints for the solver's large random-access arrays.
//!
//! Nearly every table probe and database lookup of the search is a miss to main
//! memory. Asking for a line some work before it is read lets that work and the miss
//! overlap (or several misses overlap one another) instead of the search waiting for
//! each in turn.
//!
//! The search asks for a position's table entry before generating its moves, for the
//! database values of its children as it generates them, for the first child's entry
//! before the database lookups, and for the remaining children's entries once the
//! first child searched has failed to cut. The database build asks for each
//! successor's value as it numbers it. Both are measured wins (the search about a
//! third faster, the build a fifth; docs/solver.md), with the same node counts.
//! This is the suite's second use of `unsafe` (after `huge_pages.rs`), allowed by the
//! design for a measured win.

/// Asks the processor to start loading the cache line holding `value`. Only a hint:
/// it changes no value and cannot fault; where there is no such instruction it does
/// nothing.
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let address: *const T = value;
        #[allow(
            unsafe_code,
            reason = "the prefetch intrinsic is unsafe to call; prefetching is a measured win"
        )]
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has, and a
        // prefetch reads nothing into the program and never faults; `address` comes
        // from a reference, so it is valid anyway.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(address.cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
