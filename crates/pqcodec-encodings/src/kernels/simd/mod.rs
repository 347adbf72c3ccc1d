//! Every SIMD intrinsic of the codec, and the runtime dispatch of the kernels that use them:
//! bit unpacking, delta decoding, ALP, spreading over validity, DELTA_BYTE_ARRAY's prefix
//! joining and BYTE_STREAM_SPLIT's transposition. One module per instruction set
//! (`avx2`, `avx512`), a file per kernel family in each. The scalar references, which the
//! dispatch falls back to, are in files of their own below this one (`bits`, `bitpack32`,
//! `spread_scalar`, `prefix_values`; `byte_stream_split`'s beside its encoding), and the
//! checked entry points above it (`bitpack`, `spread`, `shared_prefix`): nothing here imports
//! back up. A NEON variant would be one more such module and an arm in each dispatch.
//!
//! Each kernel has a scalar reference and, on x86-64, an AVX2 variant and most an AVX-512
//! (F, BW, VBMI) one. [`Isa::best`] detects once which one the CPU runs best and caches it;
//! an [`Isa`] other than [`Isa::SCALAR`] can only be had from detection ([`Isa::best`],
//! [`Isa::all`]), so holding one proves the CPU has its features. The public functions of
//! [`bitpack`](super::bitpack) check their arguments and then call the kernels here.
//!
//! Other targets (aarch64 included) run the scalar kernels.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod spread_blocks;
mod tables;
#[cfg(target_arch = "x86_64")]
pub(crate) mod transpose;

use std::sync::OnceLock;

use super::bitpack32;
use super::bits::{packed_len, unpack64_each};
use super::prefix_values::Values;
use super::spread_scalar::spread_scalar;
#[cfg(target_arch = "x86_64")]
use tables::AVX2_BYTES32_MAX;

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

    /// The fastest variant this CPU can run, detected on first use. The environment variable
    /// `PQCODEC_MAX_ISA` (`scalar`, `avx2` or `avx512`) caps it, so that the narrower kernels can
    /// be measured on a wider CPU; any other value is ignored.
    #[inline]
    pub(crate) fn best() -> Isa {
        static BEST: OnceLock<Isa> = OnceLock::new();
        *BEST.get_or_init(|| {
            let cap = std::env::var("PQCODEC_MAX_ISA").ok();
            Isa::capped(&Isa::all(), cap.as_deref())
        })
    }

    /// The variant unpacking values of `width` bits runs with: [`Isa::best`], but the scalar
    /// kernels for widths over [`AVX2_BYTES32_MAX`] where that is AVX2 on a CPU that runs
    /// 256-bit operations as two 128-bit halves (AMD Zen 1 and Zen+, Hygon Dhyana). There the
    /// AVX2 kernel's lane-crossing permutes, which those widths need, make it slower than the
    /// width-specialised scalar ones; narrower values it takes with a byte shuffle, faster.
    #[inline]
    pub(crate) fn for_unpacking(width: u32) -> Isa {
        #[cfg(target_arch = "x86_64")]
        static SPLITS: OnceLock<bool> = OnceLock::new();
        let _ = width;
        match Isa::best() {
            #[cfg(target_arch = "x86_64")]
            Isa(Kind::Avx2)
                if width as usize > AVX2_BYTES32_MAX
                    && *SPLITS.get_or_init(splits_256_bit_operations) =>
            {
                Isa::SCALAR
            }
            best => best,
        }
    }

    /// The last of `all` (the widest) whose name is at most `cap` in width, or the last if
    /// `cap` names no variant.
    fn capped(all: &[Isa], cap: Option<&str>) -> Isa {
        let cap = ALL_KINDS.iter().find(|k| Some(k.name()) == cap);
        all.iter()
            .copied()
            .rfind(|isa| cap.is_none_or(|&c| isa.0 <= c))
            .unwrap_or(Isa::SCALAR)
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
        self.0.name()
    }
}

/// Whether the CPU runs 256-bit operations as two 128-bit halves: AMD family 17h below model
/// 30h (Zen 1, Zen+) and Hygon family 18h, from CPUID's vendor and family.
#[cfg(target_arch = "x86_64")]
fn splits_256_bit_operations() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let name: Vec<u8> = [vendor.ebx, vendor.edx, vendor.ecx]
        .iter()
        .flat_map(|r| r.to_le_bytes())
        .collect();
    let signature = __cpuid(1).eax;
    let base_family = (signature >> 8) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((signature >> 20) & 0xFF)
    } else {
        base_family
    };
    let model = ((signature >> 4) & 0xF) | ((signature >> 12) & 0xF0);
    match name.as_slice() {
        b"AuthenticAMD" => family == 0x17 && model < 0x30,
        b"HygonGenuine" => family == 0x18,
        _ => false,
    }
}

/// Every kind this target has a variant for, narrowest first.
const ALL_KINDS: &[Kind] = &[
    Kind::Scalar,
    #[cfg(target_arch = "x86_64")]
    Kind::Avx2,
    #[cfg(target_arch = "x86_64")]
    Kind::Avx512,
];

impl Kind {
    /// The name `PQCODEC_MAX_ISA` gives this kind.
    fn name(self) -> &'static str {
        match self {
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

/// Writes DELTA_BYTE_ARRAY's `values` with `isa`'s kernel, as
/// [`crate::kernels::shared_prefix::join`]: AVX2's where the CPU runs it (AVX-512 has none of
/// its own), copies otherwise.
pub(crate) fn join_prefixes(isa: Isa, values: &mut Values, prefixes: &[u32], lengths: &[u32]) {
    #[cfg(target_arch = "x86_64")]
    if isa.has_avx2() {
        // SAFETY: `isa` proves the CPU runs AVX2.
        unsafe { avx2::shared_prefix::join(values, prefixes, lengths) };
        return;
    }
    let _ = isa;
    values.copy_all(prefixes, lengths);
}

/// Spreads the first `dense` 4-byte values of `values` over its slots with `isa`'s kernel, as
/// [`crate::kernels::spread::spread32`]; the caller has checked that `words` has a bit per slot,
/// `dense` of them set.
pub(crate) fn spread32(isa: Isa, values: &mut [u32], dense: usize, words: &[u64]) {
    match isa.0 {
        Kind::Scalar => spread_scalar(values, dense, words),
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX2 (see `Isa::all`); the
        // caller checked `words` as the kernel requires.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::spread::spread32(values, dense, words) },
        // SAFETY: as for AVX2, the CPU having AVX-512 F.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::spread::spread32(values, dense, words) },
    }
}

/// [`spread32`] of 8-byte values.
pub(crate) fn spread64(isa: Isa, values: &mut [u64], dense: usize, words: &[u64]) {
    match isa.0 {
        Kind::Scalar => spread_scalar(values, dense, words),
        // SAFETY: as in `spread32`.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::spread::spread64(values, dense, words) },
        // SAFETY: as in `spread32`.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::spread::spread64(values, dense, words) },
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
        Kind::Scalar => unpack64_each(packed, width, out),
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::unpack64(packed, width, out) },
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX-512 F, BW and VBMI.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::unpack64(packed, width, out) },
    }
}

/// Runs `kernel`, a plain loop the compiler vectorizes, compiled for AVX2 where `isa` has it
/// (the ALP encoder's loops: 4 doubles a register instead of SSE2's 2, and AVX2's 64-bit
/// compares); as it is otherwise. The closure and what it calls `#[inline(always)]` are
/// inlined into [`avx2::run`], whose code is generated for AVX2.
#[inline]
pub(crate) fn with_avx2<R>(isa: Isa, kernel: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if isa.has_avx2() {
        // SAFETY: an `Isa` with AVX2 exists only if the CPU has it (see `Isa::all`).
        return unsafe { avx2::run(kernel) };
    }
    let _ = isa;
    kernel()
}

/// Values the scalar ALP kernels unpack at a time, into a buffer on the stack.
const ALP_CHUNK: usize = 256;

/// ALP's decoding of `out.len()` packed values (the spec's steps 1 to 3): value `i` is
/// `((reference + delta_i) as i64 as f64 * factor) * inverse`, `delta_i` the `i`-th `width`-bit
/// value of `packed`, the addition wrapping, the conversion rounding to nearest. The caller has
/// checked `width` (0 to 64) and that `packed` holds `packed_len(out.len(), width)` bytes.
///
/// AVX2 and AVX-512 machines run the AVX2 kernel, unpacking, adding, converting and
/// multiplying 8 values in registers; the scalar reference unpacks a chunk, then converts.
#[inline]
pub(crate) fn alp64(
    isa: Isa,
    packed: &[u8],
    width: u32,
    reference: u64,
    factor: f64,
    inverse: f64,
    out: &mut [f64],
) {
    if width == 0 {
        out.fill((reference as i64 as f64 * factor) * inverse);
        return;
    }
    match isa.0 {
        Kind::Scalar => alp64_scalar(packed, width, reference, factor, inverse, out),
        // SAFETY: an `Isa` of these kinds exists only if the CPU has AVX2 (AVX-512 F, BW and
        // VBMI machines have it too); the caller checked `width` and `packed`.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 | Kind::Avx512 => unsafe {
            avx2::alp64(packed, width, reference, factor, inverse, out)
        },
    }
}

/// The scalar reference of [`alp64`], `width` 1 to 64.
pub(crate) fn alp64_scalar(
    packed: &[u8],
    width: u32,
    reference: u64,
    factor: f64,
    inverse: f64,
    out: &mut [f64],
) {
    let mut deltas = [0u64; ALP_CHUNK];
    for (k, o) in out.chunks_mut(ALP_CHUNK).enumerate() {
        // Chunks start on multiples of 256 values: a byte boundary.
        let from = k * (ALP_CHUNK / 8) * width as usize;
        let d = &mut deltas[..o.len()];
        unpack64_each(packed.get(from..).unwrap_or_default(), width, d);
        for (o, &d) in o.iter_mut().zip(d.iter()) {
            *o = (d.wrapping_add(reference) as i64 as f64 * factor) * inverse;
        }
    }
}

/// [`alp64`] for FLOAT: `((reference + delta_i) as i32 as f32 * factor) * inverse`, widths 0
/// to 32.
#[inline]
pub(crate) fn alp32(
    isa: Isa,
    packed: &[u8],
    width: u32,
    reference: u32,
    factor: f32,
    inverse: f32,
    out: &mut [f32],
) {
    if width == 0 {
        out.fill((reference as i32 as f32 * factor) * inverse);
        return;
    }
    match isa.0 {
        Kind::Scalar => alp32_scalar(packed, width, reference, factor, inverse, out),
        // SAFETY: as in `alp64`.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 | Kind::Avx512 => unsafe {
            avx2::alp32(packed, width, reference, factor, inverse, out)
        },
    }
}

/// The scalar reference of [`alp32`], `width` 1 to 32.
pub(crate) fn alp32_scalar(
    packed: &[u8],
    width: u32,
    reference: u32,
    factor: f32,
    inverse: f32,
    out: &mut [f32],
) {
    let mut deltas = [0u32; ALP_CHUNK];
    for (k, o) in out.chunks_mut(ALP_CHUNK).enumerate() {
        let from = k * (ALP_CHUNK / 8) * width as usize;
        let d = &mut deltas[..o.len()];
        bitpack32::unpack(packed.get(from..).unwrap_or_default(), width, d);
        for (o, &d) in o.iter_mut().zip(d.iter()) {
            *o = (d.wrapping_add(reference) as i32 as f32 * factor) * inverse;
        }
    }
}

/// Values the scalar delta kernels unpack at a time.
const SCALAR_CHUNK: usize = 64;

/// A run of deltas for the delta kernels: `count` deltas of `width` bits at the front of
/// `packed`, each plus `min_delta` (the low bits of a `u64`: the 32-bit kernels take its low
/// half).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DeltaRun<'a> {
    pub(crate) packed: &'a [u8],
    pub(crate) width: u32,
    pub(crate) count: usize,
    pub(crate) min_delta: u64,
}

/// Checks what the delta kernels rely on: the runs' values fit in `out`, each width is at
/// most `max_width` and each run's bytes hold its deltas.
fn check_runs(runs: &[DeltaRun], max_width: u32, out: usize) {
    let mut values = 0usize;
    for r in runs {
        assert!(
            r.width <= max_width,
            "bit width {} over {max_width}",
            r.width
        );
        assert!(
            r.packed.len() >= packed_len(r.count, r.width),
            "packed data too short"
        );
        values = values.saturating_add(r.count);
    }
    assert!(values <= out, "{values} values for {out} slots");
}

/// Delta decoding of 32-bit values, run after run: `out[i] = last + (i + 1) * min_delta +
/// (deltas 0..=i)` (wrapping) for each run's deltas, `last` moving on to the run's last
/// value; the runs' values are written back to back from the start of `out`. Returns the last
/// value written, or `last` if none.
///
/// # Panics
/// If a width is over 32, a run's `packed` is shorter than `packed_len(count, width)`, or
/// `out` is shorter than the runs' values.
#[inline]
pub(crate) fn delta32(isa: Isa, runs: &[DeltaRun], last: i32, out: &mut [i32]) -> i32 {
    check_runs(runs, 32, out.len());
    match isa.0 {
        Kind::Scalar => for_each_run(runs, last, out, |r, last, o| {
            let mut acc = last;
            let mut scratch = [0u32; SCALAR_CHUNK];
            let min_delta = r.min_delta as i32;
            for (k, o) in o.chunks_mut(SCALAR_CHUNK).enumerate() {
                let deltas = &mut scratch[..o.len()];
                // Chunks start on multiples of 64 values: a byte boundary.
                let from = k * SCALAR_CHUNK / 8 * r.width as usize;
                bitpack32::unpack(r.packed.get(from..).unwrap_or_default(), r.width, deltas);
                for (v, &d) in o.iter_mut().zip(deltas.iter()) {
                    acc = acc.wrapping_add(min_delta).wrapping_add(d as i32);
                    *v = acc;
                }
            }
            acc
        }),
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX2 (see `Isa::all`); the
        // runs are checked.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::delta32(runs, last, out) },
        // SAFETY: an `Isa` of this kind exists only if the CPU has AVX-512 F, BW and VBMI; the
        // runs are checked.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::delta32(runs, last, out) },
    }
}

/// [`delta32`] for 64-bit values and deltas of up to 64 bits.
///
/// # Panics
/// As [`delta32`], for widths over 64.
#[inline]
pub(crate) fn delta64(isa: Isa, runs: &[DeltaRun], last: i64, out: &mut [i64]) -> i64 {
    check_runs(runs, 64, out.len());
    match isa.0 {
        Kind::Scalar => for_each_run(runs, last, out, |r, last, o| {
            let mut acc = last;
            let mut scratch = [0u64; SCALAR_CHUNK];
            let min_delta = r.min_delta as i64;
            for (k, o) in o.chunks_mut(SCALAR_CHUNK).enumerate() {
                let deltas = &mut scratch[..o.len()];
                let from = k * SCALAR_CHUNK / 8 * r.width as usize;
                unpack64_each(r.packed.get(from..).unwrap_or_default(), r.width, deltas);
                for (v, &d) in o.iter_mut().zip(deltas.iter()) {
                    acc = acc.wrapping_add(min_delta).wrapping_add(d as i64);
                    *v = acc;
                }
            }
            acc
        }),
        // SAFETY: as in `delta32`.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::delta64(runs, last, out) },
        // SAFETY: as in `delta32`.
        #[cfg(target_arch = "x86_64")]
        Kind::Avx512 => unsafe { avx512::delta64(runs, last, out) },
    }
}

/// Calls `kernel(run, last, out)` for each run of width 1 or more, on the run's part of
/// `out`, `last` being the value before it; writes a run of width 0 (every delta `min_delta`)
/// itself. Returns the last value. The runs are checked ([`check_runs`]).
#[inline(always)]
fn for_each_run<T: Wrapping>(
    runs: &[DeltaRun],
    mut last: T,
    out: &mut [T],
    mut kernel: impl FnMut(&DeltaRun, T, &mut [T]) -> T,
) -> T {
    let mut at = 0;
    for r in runs {
        let Some(o) = out.get_mut(at..at + r.count) else {
            break;
        };
        last = if r.width == 0 {
            constant_steps(T::from_bits(r.min_delta), last, o)
        } else {
            kernel(r, last, o)
        };
        at += r.count;
    }
    last
}

/// An integer the delta kernels produce.
trait Wrapping: Copy {
    /// The integer of the low bits of `bits`.
    fn from_bits(bits: u64) -> Self;
    fn step(self, by: Self, times: usize) -> Self;
}

impl Wrapping for i32 {
    #[inline(always)]
    fn from_bits(bits: u64) -> i32 {
        bits as i32
    }
    #[inline(always)]
    fn step(self, by: i32, times: usize) -> i32 {
        self.wrapping_add(by.wrapping_mul(times as i32))
    }
}

impl Wrapping for i64 {
    #[inline(always)]
    fn from_bits(bits: u64) -> i64 {
        bits as i64
    }
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
