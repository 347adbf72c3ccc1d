//! The byte transposition of BYTE_STREAM_SPLIT in both directions: a scalar reference and
//! AVX2 / AVX-512 (VBMI) kernels, dispatched on the [`Isa`] the bit unpacking kernels use.
//!
//! Decoding *joins* K streams into values of K bytes; encoding *splits* values into K
//! streams. The SIMD kernels take K = 2, 4, 8 and 16 (INT32 / FLOAT, INT64 / DOUBLE and the
//! common FIXED_LEN_BYTE_ARRAY widths) a block of 32 (AVX2) or 64 (AVX-512) values at a time;
//! a block's tail and the other widths take the scalar loop.
//!
//! The kernels are a cascade of byte interleaves. Number the bytes of a block held in V
//! vectors by their offset in the block. One round of "interleave vector `j` with vector
//! `j + V/2`, the halves of the result to vectors `2j` and `2j + 1`" rotates every offset left
//! by one bit; the inverse round (de-interleave vectors `2j` and `2j + 1`, even bytes to `j`,
//! odd bytes to `j + V/2`) rotates it right. A block of K streams, offset (stream, value),
//! becomes K-byte values, offset (value, stream), after log2(K) left rotations; the reverse
//! takes log2(K) right rotations, or as many left ones as the value bits. AVX-512 VBMI's
//! two-table byte permute interleaves whole 64-byte vectors; AVX2's byte unpacks work within
//! 16-byte lanes, so there each lane runs the cascade on its own half of the block and one
//! lane shuffle puts the halves in place.

use crate::kernels::simd::Isa;

/// Whether `data_len` bytes hold values `start .. start + n` of `width` streams of `stride`
/// bytes each: whether [`join`] of them succeeds.
pub(crate) fn joinable(
    data_len: usize,
    stride: usize,
    start: usize,
    width: usize,
    n: usize,
) -> bool {
    // The last byte read is that of value `start + n - 1` of stream `width - 1`.
    let end = (width.wrapping_sub(1))
        .checked_mul(stride)
        .and_then(|s| s.checked_add(start))
        .and_then(|s| s.checked_add(n));
    width > 0 && end.is_some_and(|end| end <= data_len)
}

/// Values `start .. start + n` of the `width` streams of `stride` bytes each at the start of
/// `data` (n = `dst.len() / width`) written to `dst` with each value's bytes together:
/// `dst[i * width + k] = data[k * stride + start + i]`.
///
/// Returns false, writing nothing, if `data` is too short or `width` is 0.
pub(crate) fn join(
    isa: Isa,
    data: &[u8],
    stride: usize,
    start: usize,
    width: usize,
    dst: &mut [u8],
) -> bool {
    let Some(n) = dst.len().checked_div(width) else {
        return false;
    };
    if !joinable(data.len(), stride, start, width, n) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    let done = match width {
        2 => x86::join::<2>(isa, data, stride, start, n, dst),
        4 => x86::join::<4>(isa, data, stride, start, n, dst),
        8 => x86::join::<8>(isa, data, stride, start, n, dst),
        16 => x86::join::<16>(isa, data, stride, start, n, dst),
        _ => 0,
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = {
        let _ = isa;
        0
    };
    if let Some(tail) = dst.get_mut(done * width..n * width) {
        join_scalar(data, stride, start + done, width, tail);
    }
    true
}

/// The scalar reference of [`join`], on arguments it has checked: one stream at a time.
fn join_scalar(data: &[u8], stride: usize, start: usize, width: usize, dst: &mut [u8]) {
    let n = dst.len() / width;
    for k in 0..width {
        let from = k * stride + start;
        let Some(stream) = data.get(from..from + n) else {
            return;
        };
        for (d, &b) in dst.iter_mut().skip(k).step_by(width).zip(stream) {
            *d = b;
        }
    }
}

/// The values in `src` (`width` bytes each, back to back; a partial last value is ignored)
/// written to the start of `dst` as `width` streams of n = `src.len() / width` bytes:
/// `dst[k * n + i] = src[i * width + k]`.
///
/// Returns false, writing nothing, if `dst` is shorter than `n * width` or `width` is 0.
pub(crate) fn split(isa: Isa, src: &[u8], width: usize, dst: &mut [u8]) -> bool {
    let Some(n) = src.len().checked_div(width) else {
        return false;
    };
    if dst.len() < n * width {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    let done = match width {
        2 => x86::split::<2>(isa, src, n, dst),
        4 => x86::split::<4>(isa, src, n, dst),
        8 => x86::split::<8>(isa, src, n, dst),
        16 => x86::split::<16>(isa, src, n, dst),
        _ => 0,
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = {
        let _ = isa;
        0
    };
    split_scalar(src, width, n, done, dst);
    true
}

/// The scalar reference of [`split`] for values `from..n`, on arguments it has checked.
fn split_scalar(src: &[u8], width: usize, n: usize, from: usize, dst: &mut [u8]) {
    let Some(values) = src.get(from * width..n * width) else {
        return;
    };
    for k in 0..width {
        let Some(stream) = dst.get_mut(k * n + from..k * n + n) else {
            return;
        };
        for (d, value) in stream.iter_mut().zip(values.chunks_exact(width)) {
            *d = value.get(k).copied().unwrap_or_default();
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The AVX2 and AVX-512 kernels and their dispatch.

    use std::arch::x86_64::{
        __m256i, _mm_loadu_si128, _mm256_loadu_si256, _mm256_permute2x128_si256,
        _mm256_setzero_si256, _mm256_storeu_si256, _mm256_unpackhi_epi8, _mm256_unpacklo_epi8,
        _mm512_castsi128_si512, _mm512_inserti32x4, _mm512_loadu_si512, _mm512_permutex2var_epi8,
        _mm512_permutexvar_epi8, _mm512_setzero_si512, _mm512_storeu_si512,
    };

    use super::Isa;

    /// Values per AVX2 block.
    const AVX2_BLOCK: usize = 32;
    /// Values per AVX-512 block.
    const AVX512_BLOCK: usize = 64;

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

    /// Joins the leading whole blocks of values `start .. start + n` as [`super::join`]
    /// does (`K`, a power of two from 2 to 16, is the width) and returns how many values it
    /// wrote; the caller has checked that `data` holds them and `dst` has room.
    pub(super) fn join<const K: usize>(
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
            let blocks = n / AVX512_BLOCK * AVX512_BLOCK;
            // SAFETY: an `Isa` of level Avx512 is only made when the CPU has AVX-512 F, BW
            // and VBMI; the kernel reads bytes `k * stride + start + i` for `k < K` and
            // `i < blocks <= n`, inside `data` by the check above, and writes the first
            // `blocks * K <= dst.len()` bytes of `dst`.
            unsafe { join_avx512::<K>(data.as_ptr(), stride, start, blocks, dst.as_mut_ptr()) };
            done = blocks;
        }
        if isa.has_avx2() {
            let blocks = (n - done) / AVX2_BLOCK * AVX2_BLOCK;
            // SAFETY: AVX2 is present (an `Isa` of level Avx2 or above proves it); values
            // `start + done .. start + done + blocks` lie within `start .. start + n`, so
            // the reads stay inside `data` by the check above, and the writes cover bytes
            // `done * K .. (done + blocks) * K` of `dst`, within its length.
            unsafe {
                join_avx2::<K>(
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

    /// Splits the leading whole blocks of the `n` values in `src` as [`super::split`] does
    /// and returns how many values it wrote.
    pub(super) fn split<const K: usize>(isa: Isa, src: &[u8], n: usize, dst: &mut [u8]) -> usize {
        if n.checked_mul(K)
            .is_none_or(|len| len > src.len() || len > dst.len())
        {
            return 0;
        }
        let mut done = 0;
        if isa.has_avx512() {
            let blocks = n / AVX512_BLOCK * AVX512_BLOCK;
            // SAFETY: AVX-512 F, BW and VBMI are present (proved by the `Isa`); the kernel
            // reads the first `blocks * K <= n * K <= src.len()` bytes of `src` and writes
            // bytes `k * n + i` for `k < K`, `i < blocks <= n`, below `n * K <= dst.len()`.
            unsafe { split_avx512::<K>(src.as_ptr(), n, 0, blocks, dst.as_mut_ptr()) };
            done = blocks;
        }
        if isa.has_avx2() {
            let blocks = (n - done) / AVX2_BLOCK * AVX2_BLOCK;
            // SAFETY: AVX2 is present; values `done .. done + blocks` are within `0 .. n`,
            // so reads stay below `n * K <= src.len()` and writes `k * n + i` below
            // `n * K <= dst.len()`.
            unsafe { split_avx2::<K>(src.as_ptr(), n, done, blocks, dst.as_mut_ptr()) };
            done += blocks;
        }
        done
    }

    /// One round of the cascade within each 16-byte lane: vectors `j` and `j + K/2`
    /// interleaved into `2j` and `2j + 1`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn zip_avx2<const K: usize>(v: [__m256i; K]) -> [__m256i; K] {
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
    unsafe fn join_avx2<const K: usize>(
        src: *const u8,
        stride: usize,
        start: usize,
        blocks: usize,
        dst: *mut u8,
    ) {
        let rounds = K.trailing_zeros();
        let mut i = 0;
        while i + AVX2_BLOCK <= blocks {
            let mut v = [_mm256_setzero_si256(); K];
            for (k, v) in v.iter_mut().enumerate() {
                // SAFETY: 32 bytes from value `start + i` of stream `k`, `i + 32 <= blocks`:
                // readable by the contract.
                *v = unsafe { _mm256_loadu_si256(src.add(k * stride + start + i).cast()) };
            }
            for _ in 0..rounds {
                v = zip_avx2(v);
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
            i += AVX2_BLOCK;
        }
    }

    /// Splits values `from .. from + blocks` (blocks a multiple of 32) of the `n` values at
    /// `src` into the K streams of `n` bytes at `dst`.
    ///
    /// # Safety
    /// The CPU has AVX2; `from + blocks <= n`, `src` is readable and `dst` writable for
    /// `n * K` bytes.
    #[target_feature(enable = "avx2")]
    unsafe fn split_avx2<const K: usize>(
        src: *const u8,
        n: usize,
        from: usize,
        blocks: usize,
        dst: *mut u8,
    ) {
        let mut i = from;
        while i + AVX2_BLOCK <= from + blocks {
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
                v = zip_avx2(v);
            }
            for (k, v) in v.iter().enumerate() {
                // SAFETY: bytes `k * n + i .. + 32`, `i + 32 <= n`, below `n * K`.
                unsafe { _mm256_storeu_si256(dst.add(k * n + i).cast(), *v) };
            }
            i += AVX2_BLOCK;
        }
    }

    /// Joins `blocks` (a multiple of 64) values from `start` on, 64 at a time.
    ///
    /// # Safety
    /// The CPU has AVX-512 F, BW and VBMI; `src + k * stride + start + i` is readable for
    /// `k < K`, `i < blocks`, and `dst` is writable for `blocks * K` bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    unsafe fn join_avx512<const K: usize>(
        src: *const u8,
        stride: usize,
        start: usize,
        blocks: usize,
        dst: *mut u8,
    ) {
        if K == 4 {
            // SAFETY: as this function's.
            unsafe { join4_avx512(src, stride, start, blocks, dst) };
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
        while i + AVX512_BLOCK <= blocks {
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
            i += AVX512_BLOCK;
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

    /// [`join_avx512`] for K = 4: each 16 values gathered as four 16-byte lanes, one from
    /// each stream, and put in value order by one single-table byte permute.
    ///
    /// # Safety
    /// As [`join_avx512`]'s, with K = 4.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    unsafe fn join4_avx512(
        src: *const u8,
        stride: usize,
        start: usize,
        blocks: usize,
        dst: *mut u8,
    ) {
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
            unsafe {
                _mm512_storeu_si512(dst.add(4 * i).cast(), _mm512_permutexvar_epi8(index, v))
            };
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
    unsafe fn split_avx512<const K: usize>(
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
        while i + AVX512_BLOCK <= from + blocks {
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
            i += AVX512_BLOCK;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that differ from their neighbours and between calls.
    fn bytes(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    /// The definition, byte by byte.
    fn join_naive(data: &[u8], stride: usize, start: usize, width: usize, n: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for i in 0..n {
            for k in 0..width {
                out.push(data[k * stride + start + i]);
            }
        }
        out
    }

    fn split_naive(src: &[u8], width: usize) -> Vec<u8> {
        let n = src.len() / width;
        let mut out = Vec::new();
        for k in 0..width {
            for i in 0..n {
                out.push(src[i * width + k]);
            }
        }
        out
    }

    const WIDTHS: [usize; 10] = [1, 2, 3, 4, 5, 8, 12, 16, 17, 32];

    #[test]
    fn every_isa_joins_like_the_definition() {
        let isas = Isa::all();
        for width in WIDTHS {
            for n in (0..300).chain([511, 512, 513, 1000]) {
                for start in [0, 7] {
                    // Streams a little longer than needed, at an odd stride.
                    let stride = start + n + 3;
                    let data = bytes(width * stride, (width * 1000 + n) as u64);
                    let expect = join_naive(&data, stride, start, width, n);
                    for &isa in &isas {
                        let mut dst = vec![0xEE; n * width];
                        assert!(join(isa, &data, stride, start, width, &mut dst));
                        assert_eq!(dst, expect, "{isa:?} width {width} n {n} start {start}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_isa_splits_like_the_definition() {
        let isas = Isa::all();
        for width in WIDTHS {
            for n in (0..300).chain([511, 512, 513, 1000]) {
                let mut src = bytes(n * width, (width * 7 + n) as u64);
                let expect = split_naive(&src, width);
                if width > 1 {
                    // A partial trailing value is ignored.
                    src.push(0xAB);
                }
                for &isa in &isas {
                    let mut dst = vec![0xEE; n * width + 5];
                    assert!(split(isa, &src, width, &mut dst));
                    assert_eq!(&dst[..n * width], expect, "{isa:?} width {width} n {n}");
                    assert_eq!(
                        &dst[n * width..],
                        [0xEE; 5],
                        "{isa:?} wrote past the streams"
                    );
                }
            }
        }
    }

    #[test]
    fn join_and_split_are_inverse_on_every_isa() {
        for &isa in &Isa::all() {
            for width in [2, 4, 8, 16] {
                let n = 64 * 5 + 33;
                let src = bytes(n * width, width as u64);
                let mut streams = vec![0; src.len()];
                assert!(split(isa, &src, width, &mut streams));
                let mut back = vec![0; src.len()];
                assert!(join(isa, &streams, n, 0, width, &mut back));
                assert_eq!(back, src, "{isa:?} width {width}");
            }
        }
    }

    #[test]
    fn short_input_writes_nothing() {
        for &isa in &Isa::all() {
            let data = [1u8; 100];
            let mut dst = [0u8; 64];
            // 4 streams of stride 30 from 10: the last value sits at 3 * 30 + 10 + 16 > 100.
            assert!(!join(isa, &data, 30, 10, 4, &mut dst));
            assert_eq!(dst, [0; 64]);
            assert!(!join(isa, &data, usize::MAX, 0, 4, &mut dst));
            assert!(!join(isa, &data, 1, 0, 0, &mut dst));
            // Exactly enough is fine.
            assert!(join(isa, &data, 28, 0, 4, &mut dst[..]));
            let mut small = [0u8; 8];
            assert!(!split(isa, &data[..16], 4, &mut small));
            assert!(!split(isa, &data[..16], 0, &mut small));
            assert_eq!(small, [0; 8]);
        }
    }

    #[test]
    fn best_is_supported() {
        assert!(Isa::all().contains(&Isa::best()));
        assert_eq!(Isa::all().first(), Some(&Isa::SCALAR));
    }
}
