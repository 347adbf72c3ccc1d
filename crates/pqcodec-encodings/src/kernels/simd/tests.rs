//! Every kernel variant the machine runs gives the scalar reference's output, for every bit
//! width and every length from 0 to 300 (so every tail), on random bytes cut to exactly the
//! length the values need.

use super::*;
use crate::kernels::bits::{packed_len, unpack32_scalar};
use crate::kernels::spread::tests::random_words;

/// Deterministic pseudo-random bytes: the top byte of each of [`random_words`]'s words.
fn random_bytes(seed: u64, n: usize) -> Vec<u8> {
    random_words(seed, n)
        .into_iter()
        .map(|w| (w >> 56) as u8)
        .collect()
}

/// The bit-by-bit reading of value `i` of `width` bits, independent of every kernel.
fn naive(packed: &[u8], width: u32, i: usize) -> u64 {
    (0..width as usize).fold(0u64, |v, b| {
        let bit = i * width as usize + b;
        v | (u64::from(packed[bit / 8] >> (bit % 8) & 1) << b)
    })
}

const LENGTHS: std::ops::RangeInclusive<usize> = 0..=300;

#[test]
fn the_machine_has_the_variants_it_claims() {
    let all = Isa::all();
    assert_eq!(all.first(), Some(&Isa::SCALAR));
    let cap = std::env::var("PQCODEC_MAX_ISA").ok();
    assert_eq!(Isa::best(), Isa::capped(&all, cap.as_deref()));
    let names: Vec<_> = all.iter().map(|i| i.name()).collect();
    eprintln!(
        "kernel variants on this machine: {names:?}, running {}, unpacking 32 bits with {}",
        Isa::best().name(),
        Isa::for_unpacking(32).name()
    );
    // Unpacking runs the best variant; values over 25 bits the scalar one in place of AVX2 on
    // a CPU that splits 256-bit operations.
    for width in 0..=32 {
        let unpacking = Isa::for_unpacking(width);
        assert!(
            unpacking == Isa::best()
                || (width > 25
                    && unpacking == Isa::SCALAR
                    && Isa::best().has_avx2()
                    && !Isa::best().has_avx512()),
            "width {width}: {}",
            unpacking.name()
        );
    }
}

#[test]
fn a_cap_picks_the_widest_variant_it_allows() {
    let all = Isa::all();
    let widest = *all.last().unwrap();
    assert_eq!(Isa::capped(&all, None), widest);
    assert_eq!(Isa::capped(&all, Some("no such isa")), widest);
    assert_eq!(Isa::capped(&all, Some("scalar")), Isa::SCALAR);
    for (i, isa) in all.iter().enumerate() {
        // Capped at its own name, each variant is itself; capped at a wider one's, the
        // widest the machine has up to that one.
        assert_eq!(Isa::capped(&all, Some(isa.name())), *isa);
        assert_eq!(Isa::capped(&all[..=i], Some("avx512")), *isa);
    }
}

#[test]
fn unpack32_variants_match_the_reference() {
    for width in 0..=32u32 {
        // One buffer per width, with a byte of lead-in so the kernels see unaligned input.
        let whole = random_bytes(u64::from(width) + 7, packed_len(300, width) + 1);
        let all: Vec<u32> = (0..300)
            .map(|i| naive(&whole[1..], width, i) as u32)
            .collect();
        for n in LENGTHS {
            let packed = &whole[1..1 + packed_len(n, width)];
            let mut reference = vec![0u32; n];
            unpack32_scalar(packed, width, &mut reference);
            assert_eq!(reference, all[..n], "scalar width {width} n {n}");
            for isa in Isa::all() {
                let mut out = vec![0xDEAD_BEEFu32; n + 1];
                unpack32(isa, packed, width, &mut out[..n]);
                assert_eq!(
                    out[..n],
                    reference[..],
                    "{} width {width} n {n}",
                    isa.name()
                );
                assert_eq!(out[n], 0xDEAD_BEEF, "{} wrote past the end", isa.name());
            }
        }
    }
}

#[test]
fn unpack64_variants_match_the_reference() {
    for width in 0..=64u32 {
        let whole = random_bytes(u64::from(width) + 99, packed_len(300, width) + 1);
        let all: Vec<u64> = (0..300).map(|i| naive(&whole[1..], width, i)).collect();
        for n in LENGTHS {
            let packed = &whole[1..1 + packed_len(n, width)];
            let reference = &all[..n];
            for isa in Isa::all() {
                let mut out = vec![0xDEAD_BEEFu64; n + 1];
                unpack64(isa, packed, width, &mut out[..n]);
                assert_eq!(
                    out[..n],
                    reference[..],
                    "{} width {width} n {n}",
                    isa.name()
                );
                assert_eq!(out[n], 0xDEAD_BEEF, "{} wrote past the end", isa.name());
            }
        }
    }
}

#[test]
fn delta32_variants_match_the_reference() {
    for width in 0..=32u32 {
        let whole = random_bytes(u64::from(width) + 3, packed_len(300, width));
        let deltas: Vec<i32> = (0..300)
            .map(|i| naive(&whole, width, i) as u32 as i32)
            .collect();
        let params = [(0, 0), (-5, 17), (i32::MIN, i32::MAX), (123_456, -1)];
        for n in LENGTHS {
            // Every length with one of the (min delta, last value) pairs, in turn.
            {
                let (min_delta, last) = params[n % params.len()];
                let packed = &whole[..packed_len(n, width)];
                let mut acc = last;
                let reference: Vec<i32> = (0..n)
                    .map(|i| {
                        acc = acc.wrapping_add(min_delta).wrapping_add(deltas[i]);
                        acc
                    })
                    .collect();
                for isa in Isa::all() {
                    let mut out = vec![7i32; n + 1];
                    let run = DeltaRun {
                        packed,
                        width,
                        count: n,
                        min_delta: min_delta as u64,
                    };
                    let got = delta32(isa, &[run], last, &mut out[..n]);
                    let msg = format!("{} width {width} n {n} min {min_delta}", isa.name());
                    assert_eq!(out[..n], reference[..], "{msg}");
                    assert_eq!(got, acc, "{msg}");
                    assert_eq!(out[n], 7, "{msg}: wrote past the end");
                }
            }
        }
    }
}

#[test]
fn delta64_variants_match_the_reference() {
    for width in 0..=64u32 {
        let whole = random_bytes(u64::from(width) + 5, packed_len(300, width));
        let deltas: Vec<i64> = (0..300).map(|i| naive(&whole, width, i) as i64).collect();
        let params = [(0, 0), (-5, 17), (i64::MIN, i64::MAX), (1 << 40, -1)];
        for n in LENGTHS {
            {
                let (min_delta, last) = params[n % params.len()];
                let packed = &whole[..packed_len(n, width)];
                let mut acc = last;
                let reference: Vec<i64> = (0..n)
                    .map(|i| {
                        acc = acc.wrapping_add(min_delta).wrapping_add(deltas[i]);
                        acc
                    })
                    .collect();
                for isa in Isa::all() {
                    let mut out = vec![7i64; n + 1];
                    let run = DeltaRun {
                        packed,
                        width,
                        count: n,
                        min_delta: min_delta as u64,
                    };
                    let got = delta64(isa, &[run], last, &mut out[..n]);
                    let msg = format!("{} width {width} n {n} min {min_delta}", isa.name());
                    assert_eq!(out[..n], reference[..], "{msg}");
                    assert_eq!(got, acc, "{msg}");
                    assert_eq!(out[n], 7, "{msg}: wrote past the end");
                }
            }
        }
    }
}

/// Runs of every width in turn (0 included), of lengths 8 to 64 and an odd last one, each
/// with its own min delta, decoded in one call: every variant gives the values of the
/// definition, `last` carried from run to run.
#[test]
fn delta_variants_chain_runs_of_mixed_widths() {
    let lengths = [8usize, 32, 16, 64, 24, 40];
    for max_width in [32u32, 64] {
        let bytes: Vec<Vec<u8>> = (0..=max_width)
            .map(|w| random_bytes(u64::from(w) * 31 + 1, packed_len(64, w)))
            .collect();
        let mut runs = Vec::new();
        for (i, w) in (0..=max_width).enumerate() {
            let count = if w == max_width {
                5
            } else {
                lengths[i % lengths.len()]
            };
            runs.push(DeltaRun {
                packed: &bytes[w as usize],
                width: w,
                count,
                min_delta: (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            });
        }
        let total: usize = runs.iter().map(|r| r.count).sum();
        // The definition, in 64-bit wrapping arithmetic; INT32 keeps the low halves.
        let mut acc = 0x1234_5678_9ABC_DEF0u64;
        let start = acc;
        let mut reference = Vec::new();
        for r in &runs {
            for i in 0..r.count {
                acc = acc
                    .wrapping_add(r.min_delta)
                    .wrapping_add(naive(r.packed, r.width, i));
                reference.push(acc);
            }
        }
        for isa in Isa::all() {
            if max_width == 32 {
                let mut out = vec![0i32; total];
                let got = delta32(isa, &runs, start as i32, &mut out);
                let want: Vec<i32> = reference.iter().map(|&v| v as i32).collect();
                assert_eq!(out, want, "{}", isa.name());
                assert_eq!(got, acc as i32, "{}", isa.name());
            } else {
                let mut out = vec![0i64; total];
                let got = delta64(isa, &runs, start as i64, &mut out);
                let want: Vec<i64> = reference.iter().map(|&v| v as i64).collect();
                assert_eq!(out, want, "{}", isa.name());
                assert_eq!(got, acc as i64, "{}", isa.name());
            }
        }
    }
}

/// Values of `width` bits packed from `deltas` (bits above `width` dropped).
fn pack(deltas: &[u64], width: u32) -> Vec<u8> {
    let mut out = Vec::new();
    crate::kernels::bitpack::pack64(deltas.iter().copied(), width, &mut out);
    out
}

#[test]
fn the_i64_to_f64_bias_is_exact() {
    assert_eq!(
        f64::from_bits(avx2_bias()),
        2f64.powi(84) + 2f64.powi(63) + 2f64.powi(52)
    );
}

#[cfg(target_arch = "x86_64")]
fn avx2_bias() -> u64 {
    avx2::I64_TO_F64_BIAS
}

#[cfg(not(target_arch = "x86_64"))]
fn avx2_bias() -> u64 {
    0x4530_0000_8010_0000
}

/// ALP's unpack + frame of reference + scaling: every variant gives the reference's bits, which
/// are the formula's, for every width and length, with references that make the sums wrap and
/// the conversions round (integers past 2^53), or stay within 32 bits.
#[test]
fn alp_variants_match_the_reference() {
    let references = [
        0u64,
        1,
        u64::MAX,
        i64::MIN as u64,
        i64::MAX as u64 - 3,
        (1 << 53) + 1,
        -5i64 as u64,
        -(1i64 << 50) as u64,
        (1 << 50) + 7,
        (1 - (1i64 << 51)) as u64,
        0xFFFF_FFFF_0000_0001,
        0x1234_5678_9ABC_DEF0,
        // Around the 32-bit kernel's range.
        i32::MIN as i64 as u64,
        i32::MAX as u64 - 1000,
    ];
    let scales = [
        (1.0, 1.0),
        (1e3, 1e-7),
        (1e17, 1e-18),
        (10.0, 0.1),
        (1.0, 1e-2),
    ];
    for width in 0..=64u32 {
        let mask = u64::MAX >> (64 - width.max(1));
        let raw = random_words(u64::from(width) * 31 + 5, 300);
        let deltas: Vec<u64> = raw
            .iter()
            .map(|w| if width == 0 { 0 } else { w & mask })
            .collect();
        let packed = pack(&deltas, width);
        for (k, &reference) in references.iter().enumerate() {
            let (factor, inverse) = scales[k % scales.len()];
            for len in [0usize, 1, 7, 8, 9, 31, 32, 33, 255, 256, 257, 300] {
                let want: Vec<u64> = deltas[..len]
                    .iter()
                    .map(|&d| {
                        ((d.wrapping_add(reference) as i64 as f64 * factor) * inverse).to_bits()
                    })
                    .collect();
                // Exactly the bytes the values need.
                let bytes = &packed[..packed_len(len, width)];
                for isa in Isa::all() {
                    let mut out = vec![f64::NAN; len];
                    alp64(isa, bytes, width, reference, factor, inverse, &mut out);
                    let got: Vec<u64> = out.iter().map(|v| v.to_bits()).collect();
                    assert_eq!(
                        got,
                        want,
                        "{} width {width} len {len} ref {reference:#x}",
                        isa.name()
                    );
                }
                if width <= 32 {
                    let r32 = reference as u32;
                    let (f32f, f32i) = (factor as f32, inverse as f32);
                    let want: Vec<u32> = deltas[..len]
                        .iter()
                        .map(|&d| {
                            (((d as u32).wrapping_add(r32) as i32 as f32 * f32f) * f32i).to_bits()
                        })
                        .collect();
                    for isa in Isa::all() {
                        let mut out = vec![f32::NAN; len];
                        alp32(isa, bytes, width, r32, f32f, f32i, &mut out);
                        let got: Vec<u32> = out.iter().map(|v| v.to_bits()).collect();
                        assert_eq!(got, want, "{} width {width} len {len}", isa.name());
                    }
                }
            }
        }
    }
}

/// The AVX2 conversion of 64-bit integers rounds as `as f64` does, around every power of two.
#[test]
fn i64_to_f64_rounds_as_the_cast_does() {
    let mut values = vec![0i64, 1, -1, i64::MIN, i64::MAX, i64::MIN + 1];
    for shift in 0..63 {
        let p = 1i64 << shift;
        for d in -3..=3 {
            values.push(p.wrapping_add(d));
            values.push((-p).wrapping_add(d));
        }
    }
    values.extend(random_words(99, 1000).into_iter().map(|w| w as i64));
    values.extend(
        random_words(98, 1000)
            .into_iter()
            .map(|w| (w >> (w % 64)) as i64),
    );
    // Through the ALP kernel: width 64, reference 0, no scaling.
    let deltas: Vec<u64> = values.iter().map(|&v| v as u64).collect();
    let packed = pack(&deltas, 64);
    for isa in Isa::all() {
        let mut out = vec![0.0; values.len()];
        alp64(isa, &packed, 64, 0, 1.0, 1.0, &mut out);
        for (&v, o) in values.iter().zip(&out) {
            assert_eq!(o.to_bits(), (v as f64).to_bits(), "{} {v}", isa.name());
        }
    }
}
