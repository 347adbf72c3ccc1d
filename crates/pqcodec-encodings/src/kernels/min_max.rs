//! The least and greatest of a slice of numbers, for statistics: branch-free folds that the
//! compiler vectorizes, run with AVX2 where the CPU has it (64-bit comparisons need it).

use super::simd::{Isa, with_avx2};

/// Declares the least-and-greatest fold of one integer type.
macro_rules! integers {
    ($(#[$doc:meta])* $name:ident, $t:ty) => {
        $(#[$doc])*
        pub fn $name(values: &[$t], unsigned: bool) -> Option<($t, $t)> {
            if values.is_empty() {
                return None;
            }
            // Unsigned values compare as signed ones with their top bit flipped.
            let flip = if unsigned { <$t>::MIN } else { 0 };
            let (lo, hi) = with_avx2(Isa::best(), || {
                values.iter().fold((<$t>::MAX, <$t>::MIN), |(lo, hi), &v| {
                    (lo.min(v ^ flip), hi.max(v ^ flip))
                })
            });
            Some((lo ^ flip, hi ^ flip))
        }
    };
}

integers!(
    /// The least and greatest of `values`, compared as unsigned numbers if `unsigned`; `None`
    /// if there are none.
    min_max_i32,
    i32
);
integers!(
    /// [`min_max_i32`] for 64-bit integers.
    min_max_i64,
    i64
);

/// The least and greatest of `values` other than NaN; `None` if there are none.
pub fn min_max_f32(values: &[f32]) -> Option<(f32, f32)> {
    let (lo, hi) = with_avx2(Isa::best(), || {
        values
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            })
    });
    (lo <= hi).then_some((lo, hi))
}

/// [`min_max_f32`] for 64-bit floats.
pub fn min_max_f64(values: &[f64]) -> Option<(f64, f64)> {
    let (lo, hi) = with_avx2(Isa::best(), || {
        values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            })
    });
    (lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_in_both_orders_and_without_nan() {
        let mut ints: Vec<i64> = (0..1000).map(|i| (i * 7919) % 2001 - 1000).collect();
        ints.extend([-1000, 1000, 0, -1]);
        assert_eq!(min_max_i64(&ints, false), Some((-1000, 1000)));
        // -1 is the greatest unsigned value, 0 the least.
        assert_eq!(min_max_i64(&ints, true), Some((0, -1)));
        let narrow: Vec<i32> = ints.iter().map(|&v| v as i32).collect();
        assert_eq!(min_max_i32(&narrow, false), Some((-1000, 1000)));
        assert_eq!(min_max_i32(&narrow, true), Some((0, -1)));
        assert_eq!(min_max_i32(&[], false), None);
        let floats = [f64::NAN, 2.5, -0.5, f64::NAN, 7.0];
        assert_eq!(min_max_f64(&floats), Some((-0.5, 7.0)));
        assert_eq!(min_max_f64(&[f64::NAN]), None);
        let floats: Vec<f32> = floats.iter().map(|&v| v as f32).collect();
        assert_eq!(min_max_f32(&floats), Some((-0.5, 7.0)));
        assert_eq!(min_max_f32(&[]), None);
    }
}
