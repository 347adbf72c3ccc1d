//! Bit unpacking: 16 values of 1 to 32 bits, or 8 of 1 to 64 bits, a register at a time, each
//! group's window loaded whole (masked at the end of the input) and its lanes gathered.

use super::{extract32, extract64, lanes32, lanes64, load64, store32, store64};

/// Unpacks `out.len()` values of `width` (1 to 32) bits from `packed`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(in crate::kernels::simd) fn unpack32(packed: &[u8], width: u32, out: &mut [u32]) {
    let l = lanes32(width);
    let step = 2 * width as usize;
    for (k, o) in out.chunks_mut(16).enumerate() {
        store32(o, extract32(&l, load64(packed, k * step)));
    }
}

/// Unpacks `out.len()` values of `width` (1 to 64) bits from `packed`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(in crate::kernels::simd) fn unpack64(packed: &[u8], width: u32, out: &mut [u64]) {
    let l = lanes64(width);
    let step = width as usize;
    for (k, o) in out.chunks_mut(8).enumerate() {
        store64(o, extract64(&l, load64(packed, k * step)));
    }
}
