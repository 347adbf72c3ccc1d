//! Runtime SIMD dispatch of the bit unpacking and delta decoding kernels.
//!
//! Each kernel has a scalar reference and, on x86-64, an AVX2 and an AVX-512 (F, BW, VBMI)
//! variant. [`Isa::best`] detects once which one the CPU runs best and caches it; an [`Isa`]
//! other than [`Isa::SCALAR`] can only be had from detection ([`Isa::best`], [`Isa::all`]), so
//! holding one proves the CPU has its features. The public functions of
//! [`bitpack`](super::bitpack) check their arguments and then call the kernels here.
//!
//! Other targets (aarch64 included) run the scalar kernels.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod tables;

use std::sync::OnceLock;

use super::bitpack::{packed_len, word_at};
use super::bitpack32;

/// An instruction set the kernels have a variant for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Isa(Kind);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Isa {
    /// The portable scalar kernels, the reference the others are tested against.
    pub(crate) const SCALAR: Isa = Isa(Kind::Scalar);

    /// Every variant this CPU can run, the scalar one first.
    pub(crate) fn all() -> Vec<Isa> {
        let mut all = vec![Isa::SCALAR];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                all.push(Isa(Kind::Avx2));
            }
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vbmi")
            {
                all.push(Isa(Kind::Avx512));
            }
        }
        all
    }

    /// The fastest variant this CPU can run, detected on first use.
    #[inline]
    pub(crate) fn best() -> Isa {
        static BEST: OnceLock<Isa> = OnceLock::new();
        *BEST.get_or_init(|| Isa::all().last().copied().unwrap_or(Isa::SCALAR))
    }

    /// Whether this is AVX2 or better: the CPU runs AVX2.
    #[inline]
    pub(crate) fn has_avx2(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            self.0 >= Kind::Avx2
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// Whether this is AVX-512: the CPU runs AVX-512 F, BW and VBMI.
    #[inline]
    pub(crate) fn has_avx512(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            self.0 >= Kind::Avx512
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// A short name, for test messages.
    #[cfg(test)]
    pub(crate) fn name(self) -> &'static str {
        match self.0 {
            Kind::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx512 => "avx512",
        }
    }
}

/// Unpacks `out.len()` values of `width` (0 to 32) bits from `packed` with `isa`'s kernel.
/// The caller has checked `width` and that `packed` holds `packed_len(out.len(), width)` bytes.
#[inline]
pub(crate) fn unpack32(isa: Isa, packed: &[u8], width: u32, out: &mut [u32]) {
    if width == 0 {
        out.fill(0);
        return;
    }
    match isa.0 {
        Kind::Scalar => bitpack32::unpack(packed, width, out),
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX2 (see `Isa::all`).
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::unpack32(packed, width, out) },
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX-512 F, BW and VBMI.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::unpack32(packed, width, out) },
    }
}

/// Unpacks `out.len()` values of `width` (0 to 64) bits from `packed` with `isa`'s kernel;
/// the caller has checked as for [`unpack32`].
#[inline]
pub(crate) fn unpack64(isa: Isa, packed: &[u8], width: u32, out: &mut [u64]) {
    if width == 0 {
        out.fill(0);
        return;
    }
    match isa.0 {
        Kind::Scalar => unpack64_scalar(packed, width, out),
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::unpack64(packed, width, out) },
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX-512 F, BW and VBMI.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::unpack64(packed, width, out) },
    }
}

/// The scalar reference of [`unpack64`]: one value at a time, `width` 1 to 64.
pub(crate) fn unpack64_scalar(packed: &[u8], width: u32, out: &mut [u64]) {
    let mask = u64::MAX >> (64 - width.clamp(1, 64));
    let w = width as usize;
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i * w;
        let (byte, shift) = (bit / 8, (bit % 8) as u32);
        let mut v = word_at(packed, byte) >> shift;
        if shift + width > 64 {
            v |= u64::from(packed.get(byte + 8).copied().unwrap_or(0)) << (64 - shift);
        }
        *o = v & mask;
    }
}

/// Values the scalar delta kernels unpack at a time.
const SCALAR_CHUNK: usize = 64;

/// Delta decoding of 32-bit values: `out[i] = last + (i + 1) * min_delta + deltas[0..=i]`
/// (wrapping) for the `out.len()` deltas of `width` (0 to 32) bits at the front of `packed`;
/// returns the last value written, or `last` if `out` is empty.
///
/// # Panics
/// If `width > 32` or `packed` is shorter than `packed_len(out.len(), width)`.
#[inline]
pub(crate) fn delta32(
    isa: Isa,
    packed: &[u8],
    width: u32,
    min_delta: i32,
    last: i32,
    out: &mut [i32],
) -> i32 {
    assert!(width <= 32, "bit width {width} over 32");
    assert!(
        packed.len() >= packed_len(out.len(), width),
        "packed data too short"
    );
    if width == 0 {
        return constant_steps(min_delta, last, out);
    }
    match isa.0 {
        Kind::Scalar => {
            let mut acc = last;
            let mut scratch = [0u32; SCALAR_CHUNK];
            for (k, o) in out.chunks_mut(SCALAR_CHUNK).enumerate() {
                let deltas = &mut scratch[..o.len()];
                // Chunks start on multiples of 64 values: a byte boundary.
                let from = k * SCALAR_CHUNK / 8 * width as usize;
                bitpack32::unpack(packed.get(from..).unwrap_or_default(), width, deltas);
                for (v, &d) in o.iter_mut().zip(deltas.iter()) {
                    acc = acc.wrapping_add(min_delta).wrapping_add(d as i32);
                    *v = acc;
                }
            }
            acc
        }
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::delta32(packed, width, min_delta, last, out) },
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX-512 F, BW and VBMI.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::delta32(packed, width, min_delta, last, out) },
    }
}

/// [`delta32`] for 64-bit values and deltas of `width` 0 to 64 bits.
///
/// # Panics
/// If `width > 64` or `packed` is shorter than `packed_len(out.len(), width)`.
#[inline]
pub(crate) fn delta64(
    isa: Isa,
    packed: &[u8],
    width: u32,
    min_delta: i64,
    last: i64,
    out: &mut [i64],
) -> i64 {
    assert!(width <= 64, "bit width {width} over 64");
    assert!(
        packed.len() >= packed_len(out.len(), width),
        "packed data too short"
    );
    if width == 0 {
        return constant_steps(min_delta, last, out);
    }
    match isa.0 {
        Kind::Scalar => {
            let mut acc = last;
            let mut scratch = [0u64; SCALAR_CHUNK];
            for (k, o) in out.chunks_mut(SCALAR_CHUNK).enumerate() {
                let deltas = &mut scratch[..o.len()];
                let from = k * SCALAR_CHUNK / 8 * width as usize;
                unpack64_scalar(packed.get(from..).unwrap_or_default(), width, deltas);
                for (v, &d) in o.iter_mut().zip(deltas.iter()) {
                    acc = acc.wrapping_add(min_delta).wrapping_add(d as i64);
                    *v = acc;
                }
            }
            acc
        }
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::delta64(packed, width, min_delta, last, out) },
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX-512 F, BW and VBMI.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::delta64(packed, width, min_delta, last, out) },
    }
}

/// An integer the delta kernels produce.
trait Wrapping: Copy {
    fn step(self, by: Self, times: usize) -> Self;
}

impl Wrapping for i32 {
    #[inline(always)]
    fn step(self, by: i32, times: usize) -> i32 {
        self.wrapping_add(by.wrapping_mul(times as i32))
    }
}

impl Wrapping for i64 {
    #[inline(always)]
    fn step(self, by: i64, times: usize) -> i64 {
        self.wrapping_add(by.wrapping_mul(times as i64))
    }
}

/// Deltas of width 0: `out[i] = last + (i + 1) * min_delta`; returns the last value.
#[inline]
fn constant_steps<T: Wrapping>(min_delta: T, last: T, out: &mut [T]) -> T {
    for (i, o) in out.iter_mut().enumerate() {
        *o = last.step(min_delta, i + 1);
    }
    last.step(min_delta, out.len())
}

#[cfg(test)]
mod tests;
