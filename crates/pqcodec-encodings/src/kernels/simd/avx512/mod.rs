//! AVX-512 (F, BW, VBMI) kernels: 16 values of up to 32 bits or 8 values of up to 64 bits per
//! 512-bit register. Widths up to 25 (32-bit lanes) or 56 (64-bit lanes) gather each lane's
//! bytes with one `vpermb` and shift them down; wider ones combine two word gathers. Loads at
//! the end of the input and stores at the end of the output are masked, so there is no scalar
//! tail and nothing is read or written out of bounds.
//!
//! One file a kernel: [`unpack`], [`delta`], [`transpose`], [`spread`]; the loads, stores
//! and lane gathers they share here.
//!
//! Callers (the dispatch in the parent module) check the width (1 to 32, or 1 to 64), that
//! `packed` holds the bytes of `out.len()` values, and that the CPU has the features.

mod delta;
pub(super) mod spread;
pub(super) mod transpose;
mod unpack;

pub(super) use delta::{delta32, delta64};
pub(super) use unpack::{unpack32, unpack64};

use std::arch::x86_64::*;

use super::tables::{
    BYTES32, BYTES64, DWORDS32, QWORDS64, SHR_BYTES32, SHR_BYTES64, SHR_DWORDS32, SHR_QWORDS64,
};

/// The 64 bytes of `packed` from `off`, zero past its end.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn load64(packed: &[u8], off: usize) -> __m512i {
    let avail = packed.len().saturating_sub(off);
    if avail >= 64 {
        // SAFETY: `off + 64 <= packed.len()`: the 64 bytes are inside `packed`.
        unsafe { _mm512_loadu_si512(packed.as_ptr().add(off).cast()) }
    } else if avail > 0 {
        // SAFETY: `off < packed.len()`, so the pointer is inside `packed`; the mask enables
        // only the `avail` bytes that are in `packed`, and masked-off bytes are not accessed.
        unsafe { _mm512_maskz_loadu_epi8((1u64 << avail) - 1, packed.as_ptr().add(off).cast()) }
    } else {
        _mm512_setzero_si512()
    }
}

/// A register of 64 table bytes.
#[inline]
#[target_feature(enable = "avx512f")]
fn bytes(t: &[u8; 64]) -> __m512i {
    // SAFETY: `t` is 64 bytes.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// A register of 16 table dwords.
#[inline]
#[target_feature(enable = "avx512f")]
fn dwords(t: &[u32; 16]) -> __m512i {
    // SAFETY: `t` is 64 bytes.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// A register of 8 table qwords.
#[inline]
#[target_feature(enable = "avx512f")]
fn qwords(t: &[u64; 8]) -> __m512i {
    // SAFETY: `t` is 64 bytes.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// How a width's values are gathered into lanes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gather {
    /// One byte permute and a shift.
    Bytes,
    /// Two word permutes, shifts and an or.
    Words,
    /// The values are whole lanes already (32 bits into 32, 64 into 64).
    Copy,
}

/// What extracts one register of values of one width from a loaded window.
#[derive(Clone, Copy)]
struct Lanes {
    gather: Gather,
    idx: __m512i,
    shr: __m512i,
    idx_hi: __m512i,
    shl: __m512i,
    mask: __m512i,
}

/// The lanes of 16 values of `width` (1 to 32) bits in 32-bit lanes; they take `2 * width`
/// bytes.
#[inline]
#[target_feature(enable = "avx512f")]
fn lanes32(width: u32) -> Lanes {
    let w = width as usize;
    let mask = _mm512_set1_epi32((u64::MAX >> (64 - width)) as u32 as i32);
    match (BYTES32.get(w), SHR_BYTES32.get(w)) {
        (Some(idx), Some(shr)) => Lanes {
            gather: Gather::Bytes,
            idx: bytes(idx),
            shr: dwords(shr),
            idx_hi: mask,
            shl: mask,
            mask,
        },
        _ => {
            let (idx, shr) = match (DWORDS32.get(w), SHR_DWORDS32.get(w)) {
                (Some(i), Some(s)) => (dwords(i), dwords(s)),
                _ => (_mm512_setzero_si512(), _mm512_setzero_si512()),
            };
            Lanes {
                gather: if w >= 32 { Gather::Copy } else { Gather::Words },
                idx,
                shr,
                idx_hi: _mm512_add_epi32(idx, _mm512_set1_epi32(1)),
                shl: _mm512_sub_epi32(_mm512_set1_epi32(32), shr),
                mask,
            }
        }
    }
}

/// 16 values in 32-bit lanes from the window `v`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn extract32(l: &Lanes, v: __m512i) -> __m512i {
    match l.gather {
        Gather::Bytes => {
            let g = _mm512_permutexvar_epi8(l.idx, v);
            _mm512_and_si512(_mm512_srlv_epi32(g, l.shr), l.mask)
        }
        Gather::Words => {
            let lo = _mm512_srlv_epi32(_mm512_permutexvar_epi32(l.idx, v), l.shr);
            let hi = _mm512_sllv_epi32(_mm512_permutexvar_epi32(l.idx_hi, v), l.shl);
            _mm512_and_si512(_mm512_or_si512(lo, hi), l.mask)
        }
        Gather::Copy => v,
    }
}

/// The lanes of 8 values of `width` (1 to 64) bits in 64-bit lanes; they take `width` bytes.
#[inline]
#[target_feature(enable = "avx512f")]
fn lanes64(width: u32) -> Lanes {
    let w = width as usize;
    let mask = _mm512_set1_epi64((u64::MAX >> (64 - width)) as i64);
    match (BYTES64.get(w), SHR_BYTES64.get(w)) {
        (Some(idx), Some(shr)) => Lanes {
            gather: Gather::Bytes,
            idx: bytes(idx),
            shr: qwords(shr),
            idx_hi: mask,
            shl: mask,
            mask,
        },
        _ => {
            let (idx, shr) = match (QWORDS64.get(w), SHR_QWORDS64.get(w)) {
                (Some(i), Some(s)) => (qwords(i), qwords(s)),
                _ => (_mm512_setzero_si512(), _mm512_setzero_si512()),
            };
            Lanes {
                gather: if w >= 64 { Gather::Copy } else { Gather::Words },
                idx,
                shr,
                idx_hi: _mm512_add_epi64(idx, _mm512_set1_epi64(1)),
                shl: _mm512_sub_epi64(_mm512_set1_epi64(64), shr),
                mask,
            }
        }
    }
}

/// 8 values in 64-bit lanes from the window `v`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn extract64(l: &Lanes, v: __m512i) -> __m512i {
    match l.gather {
        Gather::Bytes => {
            let g = _mm512_permutexvar_epi8(l.idx, v);
            _mm512_and_si512(_mm512_srlv_epi64(g, l.shr), l.mask)
        }
        Gather::Words => {
            let lo = _mm512_srlv_epi64(_mm512_permutexvar_epi64(l.idx, v), l.shr);
            let hi = _mm512_sllv_epi64(_mm512_permutexvar_epi64(l.idx_hi, v), l.shl);
            _mm512_and_si512(_mm512_or_si512(lo, hi), l.mask)
        }
        Gather::Copy => v,
    }
}

/// Stores the first `n` (at most 16) 32-bit lanes of `v` at the front of `out`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store32<T>(out: &mut [T], v: __m512i) {
    const { assert!(size_of::<T>() == 4) };
    let n = out.len().min(16);
    if n == 16 {
        // SAFETY: `out` holds at least 16 elements of 4 bytes: 64 bytes.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) }
    } else {
        // SAFETY: the mask enables the first `n` lanes only, which are inside `out`; masked-off
        // lanes are not accessed.
        unsafe { _mm512_mask_storeu_epi32(out.as_mut_ptr().cast(), (1u16 << n) - 1, v) }
    }
}

/// Stores the first `n` (at most 8) 64-bit lanes of `v` at the front of `out`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store64<T>(out: &mut [T], v: __m512i) {
    const { assert!(size_of::<T>() == 8) };
    let n = out.len().min(8);
    if n == 8 {
        // SAFETY: `out` holds at least 8 elements of 8 bytes: 64 bytes.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) }
    } else {
        // SAFETY: the mask enables the first `n` lanes only, which are inside `out`.
        unsafe { _mm512_mask_storeu_epi64(out.as_mut_ptr().cast(), (1u8 << n) - 1, v) }
    }
}
