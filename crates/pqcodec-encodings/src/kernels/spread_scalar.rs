//! The scalar reference of spreading values over validity ([`spread`](super::spread)): what
//! the SIMD kernels fall back to and are tested against.

/// The low `n` bits set (all 64 from `n = 64`).
#[inline]
pub(crate) fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The scalar reference, on checked arguments: `words` has a bit per slot of `values`, `dense`
/// of them set.
pub(crate) fn spread_scalar<T: Copy + Default>(values: &mut [T], dense: usize, words: &[u64]) {
    let slots = values.len();
    let mut k = dense;
    for (w, &word) in words.iter().enumerate().rev() {
        let base = w * 64;
        let n = (slots - base).min(64);
        if k == base + n {
            // Every slot up to here is valid: the values are in place.
            return;
        }
        let word = word & low_bits(n);
        let ones = word.count_ones() as usize;
        let out = &mut values[..base + n];
        if ones == n {
            out.copy_within(k - n..k, base);
        } else if ones == 0 {
            out[base..].fill(T::default());
        } else {
            let mut at = k;
            for b in (0..n).rev() {
                let valid = (word >> b) & 1 != 0;
                at -= usize::from(valid);
                // A branch here would mispredict on every random null.
                out[base + b] = std::hint::select_unpredictable(valid, out[at], T::default());
            }
        }
        k -= ones;
    }
}
