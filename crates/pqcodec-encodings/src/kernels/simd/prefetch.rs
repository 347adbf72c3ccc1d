//! A software prefetch, for walks whose next address depends on the bytes just read.

/// Hints the CPU to bring `data[at]` into the cache; no-op past the end or off x86-64.
///
/// Byte arrays after their lengths (PLAIN) are such a walk: each length is found at the end
/// of the value before, a chain of loads that the hardware prefetcher does not run far
/// enough ahead of.
#[inline(always)]
pub fn prefetch(data: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(byte) = data.get(at) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch never faults and has no effect the program can observe; the
        // pointer is into `data`.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(byte).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, at);
}
