//! Rebuilding DELTA_BYTE_ARRAY's values back to back: each value is the prefix it shares
//! with the value before it, followed by its own suffix.
//!
//! Copying a prefix out of the value just written stalls the CPU: those bytes were stored
//! moments before by two overlapping stores (that value's prefix and suffix), and a load
//! cannot take its bytes from both, so each value waits for the one before to reach the
//! cache. The AVX2 kernel keeps the value before in registers instead (its first [`SLACK`]
//! bytes): the next value is those bytes blended with the suffix loaded from just before it
//! by the prefix length, stored whole. Longer values, and suffixes too near either end of
//! the data to load that way, are copied (the scalar reference copies every value).

pub use super::prefix_values::SLACK;
use super::prefix_values::Values;
use super::simd::{self, Isa};

/// Writes DELTA_BYTE_ARRAY's values back to back from the start of `out`: value `i` is the
/// first `prefixes[i]` bytes of the value before it (of `previous` for the first), then its
/// suffix, the next `lengths[i]` bytes of `data` (the first from `start`). `out` must hold
/// the values and [`SLACK`] bytes more, which may be overwritten; `data` may be read before
/// `start` and past the suffixes.
///
/// Callers check that each prefix is at most the length of the value before it and that
/// `data` holds the suffixes; otherwise what is written is unspecified, but nothing panics
/// and nothing outside `out` is written.
pub fn join(
    previous: &[u8],
    prefixes: &[u32],
    lengths: &[u32],
    data: &[u8],
    start: usize,
    out: &mut [u8],
) {
    join_with(Isa::best(), previous, prefixes, lengths, data, start, out);
}

pub(crate) fn join_with(
    isa: Isa,
    previous: &[u8],
    prefixes: &[u32],
    lengths: &[u32],
    data: &[u8],
    start: usize,
    out: &mut [u8],
) {
    let mut values = Values {
        previous,
        data,
        out,
        at: 0,
        before: None,
        from: start,
    };
    simd::join_prefixes(isa, &mut values, prefixes, lengths);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each variant writes, against the values built one at a time.
    fn check(previous: &[u8], prefixes: &[u32], lengths: &[u32], data: &[u8], start: usize) {
        let mut want = Vec::new();
        let mut value = previous.to_vec();
        let mut from = start;
        for (&p, &l) in prefixes.iter().zip(lengths) {
            value.truncate(p as usize);
            value.extend_from_slice(&data[from..from + l as usize]);
            want.extend_from_slice(&value);
            from += l as usize;
        }
        for isa in Isa::all() {
            let mut out = vec![0xAA; want.len() + SLACK];
            join_with(isa, previous, prefixes, lengths, data, start, &mut out);
            assert_eq!(&out[..want.len()], want, "{}", isa.name());
        }
    }

    /// Values of 0 to about 140 bytes with prefixes of 0 to all of the value before: built in
    /// registers, copied (longer than 64 bytes, suffixes near either end of the data), and
    /// switching between the two.
    #[test]
    fn every_variant_builds_the_values() {
        let mut rng = pqcodec_testkit::Rng::new(11);
        let mut next = |below: usize| rng.below(below);
        for round in 0..200 {
            let n = next(120);
            let previous: Vec<u8> = (0..next(100)).map(|i| i as u8).collect();
            let (mut prefixes, mut lengths) = (vec![], vec![]);
            let mut len = previous.len();
            // Some rounds keep values short, so that most are built in registers.
            let widest = if round % 2 == 0 { 12 } else { 70 };
            for _ in 0..n {
                let prefix = next(len.min(widest * 2) + 1);
                let suffix = next(widest);
                prefixes.push(prefix as u32);
                lengths.push(suffix as u32);
                len = prefix + suffix;
            }
            let bytes: usize = lengths.iter().map(|&l| l as usize).sum();
            let start = next(40);
            let data: Vec<u8> = (0..start + bytes + next(80))
                .map(|_| next(256) as u8)
                .collect();
            check(&previous, &prefixes, &lengths, &data, start);
        }
    }

    /// Repeats and shortened values (no suffix) among a few values with one, their suffixes
    /// less than a register from the end of the data or all of it shorter than one.
    #[test]
    fn values_without_suffixes_near_the_end_of_the_data() {
        let mut rng = pqcodec_testkit::Rng::new(12);
        for _ in 0..100 {
            let previous: Vec<u8> = (0..rng.below(20) as u8).collect();
            let (mut prefixes, mut lengths) = (vec![], vec![]);
            let mut len = previous.len();
            for _ in 0..rng.below(60) {
                let prefix = rng.below(len + 1);
                let suffix = if rng.below(4) == 0 { rng.below(10) } else { 0 };
                prefixes.push(prefix as u32);
                lengths.push(suffix as u32);
                len = prefix + suffix;
            }
            let bytes: usize = lengths.iter().map(|&l| l as usize).sum();
            let data: Vec<u8> = (0..bytes + rng.below(3)).map(|i| 100 + i as u8).collect();
            check(&previous, &prefixes, &lengths, &data, 0);
        }
    }

    /// Prefixes longer than the value before and suffixes past the data write something
    /// within `out`, without a panic.
    #[test]
    fn bad_lengths_do_not_panic() {
        for isa in Isa::all() {
            let mut out = vec![0; 20 + SLACK];
            join_with(isa, b"ab", &[5, 9, 0], &[3, 4, 30], b"xyz", 1, &mut out);
            let mut short = vec![0; 3];
            join_with(isa, b"ab", &[2, 60], &[3, 4], &[7; 200], 0, &mut short);
        }
    }
}
