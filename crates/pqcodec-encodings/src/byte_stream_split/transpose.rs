//! The byte transposition of BYTE_STREAM_SPLIT in both directions: a scalar reference here and
//! AVX2 / AVX-512 (VBMI) kernels in the SIMD tree (`kernels::simd::transpose` dispatches them
//! on the [`Isa`] the bit unpacking kernels use).
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

use crate::kernels::simd::{self, Isa};

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
        2 => simd::transpose::join::<2>(isa, data, stride, start, n, dst),
        4 => simd::transpose::join::<4>(isa, data, stride, start, n, dst),
        8 => simd::transpose::join::<8>(isa, data, stride, start, n, dst),
        16 => simd::transpose::join::<16>(isa, data, stride, start, n, dst),
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
        2 => simd::transpose::split::<2>(isa, src, n, dst),
        4 => simd::transpose::split::<4>(isa, src, n, dst),
        8 => simd::transpose::split::<8>(isa, src, n, dst),
        16 => simd::transpose::split::<16>(isa, src, n, dst),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that differ from their neighbours and between calls.
    fn bytes(len: usize, seed: u64) -> Vec<u8> {
        pqcodec_testkit::Rng::new(seed).bytes(len)
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
