//! The least and greatest of a page's numbers, for its statistics: folds that the compiler
//! vectorizes, run with AVX2 where the CPU has it.
//!
//! ```
//! use pqcodec_encodings::stats::{min_max_f64, min_max_i32};
//!
//! assert_eq!(min_max_i32(&[3, -1, 7], false), Some((-1, 7)));
//! // As unsigned numbers, -1 is the greatest.
//! assert_eq!(min_max_i32(&[3, -1, 7], true), Some((3, -1)));
//! assert_eq!(min_max_f64(&[f64::NAN, 2.5, -0.5]), Some((-0.5, 2.5)));
//! assert_eq!(min_max_f64(&[]), None);
//! ```

pub use crate::kernels::min_max::{min_max_f32, min_max_f64, min_max_i32, min_max_i64};
