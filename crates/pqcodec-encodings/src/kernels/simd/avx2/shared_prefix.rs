//! AVX2 rebuilding of DELTA_BYTE_ARRAY's values: the value before kept in two 32-byte
//! registers, each next value blended from them and its suffix, stored whole.

use std::arch::x86_64::*;

use crate::kernels::prefix_values::{SLACK, Values};

/// 64 bytes 0xFF then 64 zero: the 64 bytes from `64 - p` select the first `p`.
static MASK: [u8; 2 * SLACK] = {
    let mut m = [0u8; 2 * SLACK];
    let mut i = 0;
    while i < SLACK {
        m[i] = 0xFF;
        i += 1;
    }
    m
};

/// [`crate::kernels::shared_prefix::join`] on AVX2.
///
/// # Safety
/// The CPU runs AVX2.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) unsafe fn join(
    values: &mut Values,
    prefixes: &[u32],
    lengths: &[u32],
) {
    // The first 64 bytes of the value before (of `previous`, to begin with): all of it
    // that a value built in registers takes.
    let mut head = [0u8; SLACK];
    let n = values.previous.len().min(SLACK);
    head[..n].copy_from_slice(&values.previous[..n]);
    // SAFETY: `head` is 64 bytes.
    let (mut lo, mut hi) = unsafe { load(head.as_ptr()) };
    let (data, out_len) = (values.data, values.out.len());
    let mut pairs = prefixes.iter().zip(lengths);
    loop {
        // Values built in registers, with no call in the loop to spill them, up to one
        // that has to be copied.
        let (out, mut at, mut from) = (values.out.as_mut_ptr(), values.at, values.from);
        let mut before = values.before;
        let mut copy = None;
        for (&prefix, &len) in pairs.by_ref() {
            let (prefix, len) = (prefix as usize, len as usize);
            let src = from.wrapping_sub(prefix);
            // A value with no suffix (a repeat, or a shorter prefix of the one before) is the
            // registers as they are: its suffix window need not lie within `data`.
            let fits = prefix + len <= SLACK
                && at.saturating_add(SLACK) <= out_len
                && (len == 0 || (prefix <= from && src.saturating_add(SLACK) <= data.len()));
            if !fits {
                copy = Some((prefix, len));
                break;
            }
            // SAFETY: `at + 64` is within `out` (`fits`); with a suffix, `src + 64` is within
            // `data` (`fits`) and `prefix` is at most 64, so the mask's 64 bytes from
            // `64 - prefix` are within `MASK`.
            unsafe {
                if len > 0 {
                    let (suffix_lo, suffix_hi) = load(data.as_ptr().add(src));
                    let (keep_lo, keep_hi) = load(MASK.as_ptr().add(SLACK - prefix));
                    lo = _mm256_blendv_epi8(suffix_lo, lo, keep_lo);
                    hi = _mm256_blendv_epi8(suffix_hi, hi, keep_hi);
                }
                _mm256_storeu_si256(out.add(at).cast(), lo);
                _mm256_storeu_si256(out.add(at + 32).cast(), hi);
            }
            before = Some(at);
            (at, from) = (at + prefix + len, from + len);
        }
        (values.at, values.from, values.before) = (at, from, before);
        let Some((prefix, len)) = copy else {
            return;
        };
        values.copy(prefix, len);
        // Its first 64 bytes loaded back, unless no value after it can fit either.
        if let Some(before) = values.before
            && values.at.saturating_add(SLACK) <= out_len
        {
            // SAFETY: `before` is at most `at`, and `at + 64` is within `out`.
            (lo, hi) = unsafe { load(values.out.as_ptr().add(before)) };
        }
    }
}

/// The 64 bytes at `src`, as two registers.
///
/// # Safety
/// The CPU runs AVX2; `src` points to 64 readable bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load(src: *const u8) -> (__m256i, __m256i) {
    // SAFETY: as the caller promises.
    unsafe {
        (
            _mm256_loadu_si256(src.cast()),
            _mm256_loadu_si256(src.add(32).cast()),
        )
    }
}
