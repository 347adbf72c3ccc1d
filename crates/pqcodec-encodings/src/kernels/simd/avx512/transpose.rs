//! AVX-512 (VBMI) byte transposition of BYTE_STREAM_SPLIT (`crate::byte_stream_split`'s
//! cascade of byte interleaves): the two-table byte permute interleaves whole 64-byte
//! vectors, a block of 64 values at a time.

use std::arch::x86_64::{
    _mm_loadu_si128, _mm512_castsi128_si512, _mm512_inserti32x4, _mm512_loadu_si512,
    _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_setzero_si512, _mm512_storeu_si512,
};

/// Values per block.
pub(in crate::kernels::simd) const BLOCK: usize = 64;

/// A two-table byte permute index (byte `i` of the result is byte `index[i]` of
/// `a ++ b`): with `interleave`, `a` and `b` from byte `from` on interleaved; otherwise
/// every other byte of `a ++ b` from byte `from` on.
const fn permute_index(interleave: bool, from: usize) -> [u8; 64] {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = if interleave {
            (from + i / 2 + (i % 2) * 64) as u8
        } else {
            (from + 2 * i) as u8
        };
        i += 1;
    }
    out
}

/// Interleaves the low halves of `a` and `b`: `a0 b0 a1 b1 ... a31 b31`.
static ZIP_LO: [u8; 64] = permute_index(true, 0);
/// Interleaves the high halves: `a32 b32 ... a63 b63`.
static ZIP_HI: [u8; 64] = permute_index(true, 32);
/// The even bytes of `a ++ b`.
static EVEN: [u8; 64] = permute_index(false, 0);
/// The odd bytes of `a ++ b`.
static ODD: [u8; 64] = permute_index(false, 1);

/// Joins `blocks` (a multiple of 64) values from `start` on, 64 at a time.
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI; `src + k * stride + start + i` is readable for
/// `k < K`, `i < blocks`, and `dst` is writable for `blocks * K` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(in crate::kernels::simd) unsafe fn join<const K: usize>(
    src: *const u8,
    stride: usize,
    start: usize,
    blocks: usize,
    dst: *mut u8,
) {
    if K == 4 {
        // SAFETY: as this function's.
        unsafe { join4(src, stride, start, blocks, dst) };
        return;
    }
    // SAFETY: the tables are 64 bytes.
    let (lo, hi) = unsafe {
        (
            _mm512_loadu_si512(ZIP_LO.as_ptr().cast()),
            _mm512_loadu_si512(ZIP_HI.as_ptr().cast()),
        )
    };
    let rounds = K.trailing_zeros();
    let mut i = 0;
    while i + BLOCK <= blocks {
        let mut v = [_mm512_setzero_si512(); K];
        for (k, v) in v.iter_mut().enumerate() {
            // SAFETY: 64 bytes from value `start + i` of stream `k`, `i + 64 <= blocks`.
            *v = unsafe { _mm512_loadu_si512(src.add(k * stride + start + i).cast()) };
        }
        for _ in 0..rounds {
            let w = v;
            for j in 0..K / 2 {
                v[2 * j] = _mm512_permutex2var_epi8(w[j], lo, w[j + K / 2]);
                v[2 * j + 1] = _mm512_permutex2var_epi8(w[j], hi, w[j + K / 2]);
            }
        }
        for (r, v) in v.iter().enumerate() {
            // SAFETY: bytes `i * K + 64r .. + 64` are within the block's `64 * K`.
            unsafe { _mm512_storeu_si512(dst.add(i * K + 64 * r).cast(), *v) };
        }
        i += BLOCK;
    }
}

/// Byte `4i + k` of the result is byte `i` of 16-byte lane `k`: four 16-byte streams
/// side by side made 16 four-byte values.
static LANES_TO_VALUES: [u8; 64] = {
    let mut out = [0; 64];
    let mut j = 0;
    while j < 64 {
        out[j] = (16 * (j % 4) + j / 4) as u8;
        j += 1;
    }
    out
};

/// [`join`] for K = 4: each 16 values gathered as four 16-byte lanes, one from
/// each stream, and put in value order by one single-table byte permute.
///
/// # Safety
/// As [`join`]'s, with K = 4.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn join4(src: *const u8, stride: usize, start: usize, blocks: usize, dst: *mut u8) {
    // SAFETY: the table is 64 bytes.
    let index = unsafe { _mm512_loadu_si512(LANES_TO_VALUES.as_ptr().cast()) };
    let mut i = 0;
    while i + 16 <= blocks {
        // SAFETY: 16 bytes from value `start + i` of each stream, `i + 16 <= blocks`.
        let v = unsafe {
            let p = src.add(start + i);
            let v = _mm512_castsi128_si512(_mm_loadu_si128(p.cast()));
            let v = _mm512_inserti32x4::<1>(v, _mm_loadu_si128(p.add(stride).cast()));
            let v = _mm512_inserti32x4::<2>(v, _mm_loadu_si128(p.add(2 * stride).cast()));
            _mm512_inserti32x4::<3>(v, _mm_loadu_si128(p.add(3 * stride).cast()))
        };
        // SAFETY: bytes `4i .. 4i + 64` are within the `4 * blocks`.
        unsafe { _mm512_storeu_si512(dst.add(4 * i).cast(), _mm512_permutexvar_epi8(index, v)) };
        i += 16;
    }
}

/// Splits values `from .. from + blocks` (blocks a multiple of 64) of the `n` values at
/// `src` into the K streams of `n` bytes at `dst`.
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI; `from + blocks <= n`, `src` is readable and `dst`
/// writable for `n * K` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(in crate::kernels::simd) unsafe fn split<const K: usize>(
    src: *const u8,
    n: usize,
    from: usize,
    blocks: usize,
    dst: *mut u8,
) {
    // SAFETY: the tables are 64 bytes.
    let (even, odd) = unsafe {
        (
            _mm512_loadu_si512(EVEN.as_ptr().cast()),
            _mm512_loadu_si512(ODD.as_ptr().cast()),
        )
    };
    let rounds = K.trailing_zeros();
    let mut i = from;
    while i + BLOCK <= from + blocks {
        let mut v = [_mm512_setzero_si512(); K];
        for (m, v) in v.iter_mut().enumerate() {
            // SAFETY: bytes `i * K + 64m .. + 64` are within the block, below `n * K`.
            *v = unsafe { _mm512_loadu_si512(src.add(i * K + 64 * m).cast()) };
        }
        for _ in 0..rounds {
            let w = v;
            for j in 0..K / 2 {
                v[j] = _mm512_permutex2var_epi8(w[2 * j], even, w[2 * j + 1]);
                v[j + K / 2] = _mm512_permutex2var_epi8(w[2 * j], odd, w[2 * j + 1]);
            }
        }
        for (k, v) in v.iter().enumerate() {
            // SAFETY: bytes `k * n + i .. + 64`, `i + 64 <= n`, below `n * K`.
            unsafe { _mm512_storeu_si512(dst.add(k * n + i).cast(), *v) };
        }
        i += BLOCK;
    }
}
