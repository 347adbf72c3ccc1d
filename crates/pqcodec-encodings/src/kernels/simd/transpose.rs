//! The dispatch of BYTE_STREAM_SPLIT's byte transposition (`crate::byte_stream_split`, whose
//! scalar reference takes what is left): AVX-512's kernel over whole blocks of 64 values, then
//! AVX2's over whole blocks of 32.

use super::{Isa, avx2, avx512};

/// Joins the leading whole blocks of values `start .. start + n` as
/// [`crate::byte_stream_split`]'s join does (`K`, a power of two from 2 to 16, is the width)
/// and returns how many values it wrote; the caller has checked that `data` holds them and `dst` has room.
pub(crate) fn join<const K: usize>(
    isa: Isa,
    data: &[u8],
    stride: usize,
    start: usize,
    n: usize,
    dst: &mut [u8],
) -> usize {
    let in_bounds = (K - 1)
        .checked_mul(stride)
        .and_then(|s| s.checked_add(start))
        .and_then(|s| s.checked_add(n))
        .is_some_and(|end| end <= data.len());
    if !in_bounds || n.checked_mul(K).is_none_or(|len| len > dst.len()) {
        return 0;
    }
    let mut done = 0;
    if isa.has_avx512() {
        let blocks = n / avx512::transpose::BLOCK * avx512::transpose::BLOCK;
        // SAFETY: an `Isa` of level Avx512 is only made when the CPU has AVX-512 F, BW
        // and VBMI; the kernel reads bytes `k * stride + start + i` for `k < K` and
        // `i < blocks <= n`, inside `data` by the check above, and writes the first
        // `blocks * K <= dst.len()` bytes of `dst`.
        unsafe {
            avx512::transpose::join::<K>(data.as_ptr(), stride, start, blocks, dst.as_mut_ptr())
        };
        done = blocks;
    }
    if isa.has_avx2() {
        let blocks = (n - done) / avx2::transpose::BLOCK * avx2::transpose::BLOCK;
        // SAFETY: AVX2 is present (an `Isa` of level Avx2 or above proves it); values
        // `start + done .. start + done + blocks` lie within `start .. start + n`, so
        // the reads stay inside `data` by the check above, and the writes cover bytes
        // `done * K .. (done + blocks) * K` of `dst`, within its length.
        unsafe {
            avx2::transpose::join::<K>(
                data.as_ptr(),
                stride,
                start + done,
                blocks,
                dst.as_mut_ptr().add(done * K),
            );
        }
        done += blocks;
    }
    done
}

/// Splits the leading whole blocks of the `n` values in `src` as the split there does
/// and returns how many values it wrote.
pub(crate) fn split<const K: usize>(isa: Isa, src: &[u8], n: usize, dst: &mut [u8]) -> usize {
    if n.checked_mul(K)
        .is_none_or(|len| len > src.len() || len > dst.len())
    {
        return 0;
    }
    let mut done = 0;
    if isa.has_avx512() {
        let blocks = n / avx512::transpose::BLOCK * avx512::transpose::BLOCK;
        // SAFETY: AVX-512 F, BW and VBMI are present (proved by the `Isa`); the kernel
        // reads the first `blocks * K <= n * K <= src.len()` bytes of `src` and writes
        // bytes `k * n + i` for `k < K`, `i < blocks <= n`, below `n * K <= dst.len()`.
        unsafe { avx512::transpose::split::<K>(src.as_ptr(), n, 0, blocks, dst.as_mut_ptr()) };
        done = blocks;
    }
    if isa.has_avx2() {
        let blocks = (n - done) / avx2::transpose::BLOCK * avx2::transpose::BLOCK;
        // SAFETY: AVX2 is present; values `done .. done + blocks` are within `0 .. n`,
        // so reads stay below `n * K <= src.len()` and writes `k * n + i` below
        // `n * K <= dst.len()`.
        unsafe { avx2::transpose::split::<K>(src.as_ptr(), n, done, blocks, dst.as_mut_ptr()) };
        done += blocks;
    }
    done
}
