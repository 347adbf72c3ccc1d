//! AVX2 byte transposition of BYTE_STREAM_SPLIT (`crate::byte_stream_split`'s cascade of byte
//! interleaves): each 16-byte lane runs the cascade on its own half of a block of 32 values,
//! and one lane shuffle puts the halves in place.

use std::arch::x86_64::{
    __m256i, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_setzero_si256,
    _mm256_storeu_si256, _mm256_unpackhi_epi8, _mm256_unpacklo_epi8,
};

/// Values per block.
pub(in crate::kernels::simd) const BLOCK: usize = 32;

/// One round of the cascade within each 16-byte lane: vectors `j` and `j + K/2`
/// interleaved into `2j` and `2j + 1`.
#[target_feature(enable = "avx2")]
#[inline]
fn zip<const K: usize>(v: [__m256i; K]) -> [__m256i; K] {
    let mut out = v;
    for j in 0..K / 2 {
        out[2 * j] = _mm256_unpacklo_epi8(v[j], v[j + K / 2]);
        out[2 * j + 1] = _mm256_unpackhi_epi8(v[j], v[j + K / 2]);
    }
    out
}

/// Joins `blocks` (a multiple of 32) values from `start` on, 32 at a time.
///
/// # Safety
/// The CPU has AVX2; `src + k * stride + start + i` is readable for `k < K`,
/// `i < blocks`, and `dst` is writable for `blocks * K` bytes.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) unsafe fn join<const K: usize>(
    src: *const u8,
    stride: usize,
    start: usize,
    blocks: usize,
    dst: *mut u8,
) {
    let rounds = K.trailing_zeros();
    let mut i = 0;
    while i + BLOCK <= blocks {
        let mut v = [_mm256_setzero_si256(); K];
        for (k, v) in v.iter_mut().enumerate() {
            // SAFETY: 32 bytes from value `start + i` of stream `k`, `i + 32 <= blocks`:
            // readable by the contract.
            *v = unsafe { _mm256_loadu_si256(src.add(k * stride + start + i).cast()) };
        }
        for _ in 0..rounds {
            v = zip(v);
        }
        // Lane c of vector r holds bytes 16r .. 16r + 16 of the block's half c.
        for r in (0..K).step_by(2) {
            let low = _mm256_permute2x128_si256::<0x20>(v[r], v[r + 1]);
            let high = _mm256_permute2x128_si256::<0x31>(v[r], v[r + 1]);
            // SAFETY: bytes `i * K + 16r .. + 32` and `i * K + 16K + 16r .. + 32` are
            // within the block's `32 * K` bytes from `i * K`, below `blocks * K`.
            unsafe {
                _mm256_storeu_si256(dst.add(i * K + 16 * r).cast(), low);
                _mm256_storeu_si256(dst.add(i * K + 16 * K + 16 * r).cast(), high);
            }
        }
        i += BLOCK;
    }
}

/// Splits values `from .. from + blocks` (blocks a multiple of 32) of the `n` values at
/// `src` into the K streams of `n` bytes at `dst`.
///
/// # Safety
/// The CPU has AVX2; `from + blocks <= n`, `src` is readable and `dst` writable for
/// `n * K` bytes.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) unsafe fn split<const K: usize>(
    src: *const u8,
    n: usize,
    from: usize,
    blocks: usize,
    dst: *mut u8,
) {
    let mut i = from;
    while i + BLOCK <= from + blocks {
        let mut u = [_mm256_setzero_si256(); K];
        for (m, u) in u.iter_mut().enumerate() {
            // SAFETY: bytes `i * K + 32m .. + 32` lie within the block's `32 * K` bytes
            // from `i * K`, below `n * K`.
            *u = unsafe { _mm256_loadu_si256(src.add(i * K + 32 * m).cast()) };
        }
        // Lane 0 takes the block's first 16 values, lane 1 the next 16.
        let mut v = [_mm256_setzero_si256(); K];
        for m in 0..K / 2 {
            v[2 * m] = _mm256_permute2x128_si256::<0x20>(u[m], u[K / 2 + m]);
            v[2 * m + 1] = _mm256_permute2x128_si256::<0x31>(u[m], u[K / 2 + m]);
        }
        // Four left rotations of (value, stream) within each lane.
        for _ in 0..4 {
            v = zip(v);
        }
        for (k, v) in v.iter().enumerate() {
            // SAFETY: bytes `k * n + i .. + 32`, `i + 32 <= n`, below `n * K`.
            unsafe { _mm256_storeu_si256(dst.add(k * n + i).cast(), *v) };
        }
        i += BLOCK;
    }
}
