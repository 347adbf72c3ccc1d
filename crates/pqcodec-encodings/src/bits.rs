//! Bit-level helpers for code above the encodings (pqcodec-arrow's levels, booleans and
//! nullable columns), with the SIMD kernels the CPU runs picked at run time.
//!
//! ```
//! use pqcodec_encodings::bits::{bit_width, pack_bools, spread64};
//!
//! assert_eq!(bit_width(5), 3);
//! let mut packed = [0u8; 2];
//! pack_bools(&[true, false, true, true, false, false, false, false, true], &mut packed);
//! assert_eq!(packed, [0b0000_1101, 0b1]);
//! // Two values over four slots, of which slots 1 and 3 are valid.
//! let mut values = [7u64, 9, 0, 0];
//! assert!(spread64(&mut values, 2, &[0b1010]));
//! assert_eq!(values, [0, 7, 0, 9]);
//! ```

pub use crate::kernels::bitpack::{bit_width, pack_bools};
pub use crate::kernels::spread::{spread, spread32, spread64};
