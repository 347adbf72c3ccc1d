//! Every kernel variant the machine runs gives the scalar reference's output, for every bit
//! width and every length from 0 to 300 (so every tail), on random bytes cut to exactly the
//! length the values need.

use super::*;
use crate::kernels::bitpack::{packed_len, unpack32_scalar};
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
    assert_eq!(Some(&Isa::best()), all.last());
    let names: Vec<_> = all.iter().map(|i| i.name()).collect();
    eprintln!("kernel variants on this machine: {names:?}");
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
                    let got = delta32(isa, packed, width, min_delta, last, &mut out[..n]);
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
                    let got = delta64(isa, packed, width, min_delta, last, &mut out[..n]);
                    let msg = format!("{} width {width} n {n} min {min_delta}", isa.name());
                    assert_eq!(out[..n], reference[..], "{msg}");
                    assert_eq!(got, acc, "{msg}");
                    assert_eq!(out[n], 7, "{msg}: wrote past the end");
                }
            }
        }
    }
}
