//! ALP (`ALP = 10`): Adaptive Lossless floating-Point, for FLOAT and DOUBLE.
//!
//! Each value is turned into an integer by decimal scaling (`value * 10^e * 10^-f`), the
//! integers of each vector are frame-of-reference bit packed, and the values that do not come
//! back exactly are stored as they are, as exceptions. The spec's layout (all little-endian):
//!
//! ```text
//! page    := header offset* vector*
//! header  := compression_mode:u8 (0) integer_encoding:u8 (0) log_vector_size:u8 (3..=15)
//!            num_elements:i32
//! offset  := u32, one per vector (ceil(num_elements / vector_size) of them), counted from
//!            the start of the offset array; no padding between vectors
//! vector  := AlpInfo ForInfo PackedValues ExceptionPositions ExceptionValues
//! AlpInfo := exponent:u8 (0..=10 FLOAT, 0..=18 DOUBLE) factor:u8 (0..=exponent)
//!            num_exceptions:u16
//! ForInfo := frame_of_reference:i32 (FLOAT) | i64 (DOUBLE), bit_width:u8 (up to 32 | 64)
//! PackedValues       := ceil(n * bit_width / 8) bytes: encoded - frame_of_reference
//!                       (unsigned, wrapping), LSB first as in the RLE hybrid
//! ExceptionPositions := num_exceptions u16 indices within the vector
//! ExceptionValues    := num_exceptions values, their exact IEEE 754 bits
//! ```
//!
//! Every vector holds `vector_size` values but the last, which holds the rest. Decoding is
//! normative: unpack, add the frame of reference (wrapping), convert to the float type,
//! multiply by `10^factor` then by `10^-exponent` (the correctly rounded constants, two
//! multiplications), then put the exceptions in their places.
//!
//! The spec's worked example, 1500.0, NaN, 2500.0, 333.5 with exponent 4 and factor 3:
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{Decoder, DoubleType, Encoder};
//! use pqcodec_encodings::alp::{AlpDecoder, AlpEncoder};
//!
//! let nan = f64::from_bits(0x7FF8_0000_0000_0001);
//! let mut page = vec![0, 0, 10, 4, 0, 0, 0]; // ALP, FOR + bit packing, vectors of 1024, 4 values
//! page.extend(4u32.to_le_bytes()); // vector 0 just past the offset array
//! page.extend([4, 3, 1, 0]); // exponent 4, factor 3, one exception
//! page.extend(3335i64.to_le_bytes()); // frame of reference
//! page.push(15); // bit width
//! // deltas 11665, 11665, 21665, 0 on 15 bits, LSB first
//! let packed = [11665u64, 11665, 21665, 0]
//!     .iter()
//!     .enumerate()
//!     .fold(0u64, |acc, (i, d)| acc | d << (15 * i));
//! page.extend(&packed.to_le_bytes()[..8]);
//! page.extend(1u16.to_le_bytes()); // exception at position 1
//! page.extend(nan.to_bits().to_le_bytes());
//!
//! let values = AlpDecoder::<DoubleType>::new(Bytes::copy_from_slice(&page), 4)?.read_all()?;
//! let bits: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
//! assert_eq!(bits, [1500f64.to_bits(), nan.to_bits(), 2500f64.to_bits(), 333.5f64.to_bits()]);
//!
//! // The encoder may choose other parameters; what it writes decodes to the same bits.
//! let mut encoder = AlpEncoder::<DoubleType>::new();
//! encoder.put(&values)?;
//! let again = AlpDecoder::<DoubleType>::new(Bytes::from(encoder.flush()?), 4)?.read_all()?;
//! assert_eq!(again.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), bits);
//! # Ok::<(), pqcodec_core::Error>(())
//! ```
//!
//! ALP applies to FLOAT and DOUBLE only:
//!
//! ```compile_fail
//! use bytes::Bytes;
//! use pqcodec_core::Int32Type;
//! use pqcodec_encodings::alp::AlpDecoder;
//!
//! let decoder = AlpDecoder::<Int32Type>::new(Bytes::new(), 0);
//! ```

mod decoder;
mod encoder;

pub use decoder::AlpDecoder;
pub use encoder::AlpEncoder;

use pqcodec_core::{Alp, DoubleType, FixedWidth, FloatType, NativeType};

use crate::kernels::simd::{self, Isa};

/// Bytes of the page header.
pub(crate) const HEADER_LEN: usize = 7;
/// The smallest `log_vector_size`.
pub const MIN_LOG_VECTOR_SIZE: u8 = 3;
/// The largest `log_vector_size`.
pub const MAX_LOG_VECTOR_SIZE: u8 = 15;
/// The spec's recommended `log_vector_size`: vectors of 1024 values.
pub const DEFAULT_LOG_VECTOR_SIZE: u8 = 10;

/// The physical types ALP applies to: FLOAT and DOUBLE.
///
/// Only the markers of [`pqcodec_core`] implement it.
pub trait AlpType: Alp + FixedWidth<Native = <Self as AlpType>::Float> {
    /// The float: `f32` or `f64`.
    type Float: AlpFloat;
}

impl AlpType for FloatType {
    type Float = f32;
}

impl AlpType for DoubleType {
    type Float = f64;
}

/// `f32` and `f64` as ALP works on them: the decimal scaling both ways, and the decoding
/// kernel. Its methods are the per-type halves of [`AlpDecoder`] and [`AlpEncoder`] and are not
/// meant to be called directly.
pub trait AlpFloat: NativeType {
    /// Width in bits (32 or 64): the widest bit width, and the width of the frame of
    /// reference and of the exception values.
    const BITS: u32;
    /// The largest exponent: 10 for FLOAT, 18 for DOUBLE.
    const MAX_EXPONENT: u8;
    /// The spec's name of the type, for messages.
    #[doc(hidden)]
    const NAME: &'static str;

    /// The value of the low [`Self::BITS`] bits of `bits`.
    #[doc(hidden)]
    fn from_bits64(bits: u64) -> Self;
    /// The value's bits, zero-extended.
    #[doc(hidden)]
    fn to_bits64(self) -> u64;

    /// The normative decoding of one encoded integer (the low [`Self::BITS`] bits of `encoded`,
    /// as the signed integer of that width): `encoded * 10^factor * 10^-exponent`.
    #[doc(hidden)]
    fn decode(encoded: u64, exponent: u8, factor: u8) -> Self;

    /// The integer the value is stored as with `exponent` and `factor`, sign-extended to 64
    /// bits, and whether [`Self::decode`] gives the value's exact bits back from it (if not,
    /// the value is an exception and the integer means nothing). Branch-free, so that loops
    /// over it vectorize: `value * 10^exponent * 10^-factor` is rounded to nearest by adding
    /// and subtracting `1.5 * 2^52` in binary64 (for FLOAT too, once scaled in binary32), whose
    /// sum's low bits are the integer; scaled values of `2^51` (FLOAT: integers of `2^31`) or
    /// more, NaN and infinities are exceptions.
    #[doc(hidden)]
    fn encode(self, exponent: u8, factor: u8) -> (i64, bool);

    /// [`Self::encode`] for the values it leaves out as too large for its rounding: DOUBLE
    /// scaled to `2^51` or more (up to the range of `i64`), taken as their integer part. Not
    /// vectorized; the encoder tries it on `encode`'s exceptions only. FLOAT's `encode` covers
    /// every 32-bit integer already.
    #[doc(hidden)]
    #[inline]
    fn encode_wide(self, exponent: u8, factor: u8) -> (i64, bool) {
        self.encode(exponent, factor)
    }

    /// Steps 1 to 3 of decoding for `out.len()` values: unpack them from `packed` (`width`
    /// bits each, from its first byte), add `reference` (wrapping) and scale. The caller has
    /// checked `width` and that `packed` holds the values.
    #[doc(hidden)]
    fn decode_packed(
        packed: &[u8],
        width: u32,
        reference: u64,
        exponent: u8,
        factor: u8,
        out: &mut [Self],
    );
}

/// `10^0 ..= 10^18`, as the literals are correctly rounded to `f64`.
const POW10_F64: [f64; 19] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18,
];
/// `10^-0 ..= 10^-18`, as the literals are correctly rounded to `f64`.
const NEG_POW10_F64: [f64; 19] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14,
    1e-15, 1e-16, 1e-17, 1e-18,
];
/// `10^0 ..= 10^10`, as the literals are correctly rounded to `f32`.
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
/// `10^-0 ..= 10^-10`, as the literals are correctly rounded to `f32`.
const NEG_POW10_F32: [f32; 11] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10,
];

impl AlpFloat for f64 {
    const BITS: u32 = 64;
    const MAX_EXPONENT: u8 = 18;
    const NAME: &'static str = "DOUBLE";

    #[inline]
    fn from_bits64(bits: u64) -> f64 {
        f64::from_bits(bits)
    }

    #[inline]
    fn to_bits64(self) -> u64 {
        self.to_bits()
    }

    #[inline]
    fn decode(encoded: u64, exponent: u8, factor: u8) -> f64 {
        (encoded as i64 as f64 * POW10_F64[usize::from(factor)])
            * NEG_POW10_F64[usize::from(exponent)]
    }

    #[inline(always)]
    fn encode(self, exponent: u8, factor: u8) -> (i64, bool) {
        const MAGIC: f64 = 6_755_399_441_055_744.0; // 2^52 + 2^51
        const LIMIT: f64 = 2_251_799_813_685_248.0; // 2^51
        let (e, f) = (usize::from(exponent), usize::from(factor));
        let scaled = (self * POW10_F64[e]) * NEG_POW10_F64[f];
        let shifted = scaled + MAGIC;
        let rounded = shifted - MAGIC;
        // What `decode` computes from the integer, which `rounded` is exactly.
        let back = (rounded * POW10_F64[f]) * NEG_POW10_F64[e];
        let encoded = (shifted.to_bits() as i64).wrapping_sub(MAGIC.to_bits() as i64);
        (
            encoded,
            (back.to_bits() == self.to_bits()) & (scaled.abs() < LIMIT),
        )
    }

    fn encode_wide(self, exponent: u8, factor: u8) -> (i64, bool) {
        let scaled = (self * POW10_F64[usize::from(exponent)]) * NEG_POW10_F64[usize::from(factor)];
        if scaled.is_nan() || scaled.abs() >= 9.2e18 {
            return (0, false);
        }
        if scaled.abs() < 2_251_799_813_685_248.0 {
            return self.encode(exponent, factor);
        }
        let encoded = scaled as i64;
        let back = Self::decode(encoded as u64, exponent, factor);
        (encoded, back.to_bits() == self.to_bits())
    }

    #[inline]
    fn decode_packed(
        packed: &[u8],
        width: u32,
        reference: u64,
        exponent: u8,
        factor: u8,
        out: &mut [f64],
    ) {
        simd::alp64(
            Isa::best(),
            packed,
            width,
            reference,
            POW10_F64[usize::from(factor)],
            NEG_POW10_F64[usize::from(exponent)],
            out,
        );
    }
}

impl AlpFloat for f32 {
    const BITS: u32 = 32;
    const MAX_EXPONENT: u8 = 10;
    const NAME: &'static str = "FLOAT";

    #[inline]
    fn from_bits64(bits: u64) -> f32 {
        f32::from_bits(bits as u32)
    }

    #[inline]
    fn to_bits64(self) -> u64 {
        u64::from(self.to_bits())
    }

    #[inline]
    fn decode(encoded: u64, exponent: u8, factor: u8) -> f32 {
        (encoded as u32 as i32 as f32 * POW10_F32[usize::from(factor)])
            * NEG_POW10_F32[usize::from(exponent)]
    }

    #[inline(always)]
    fn encode(self, exponent: u8, factor: u8) -> (i64, bool) {
        // Scaled in binary32, rounded in binary64 (exact for every 32-bit integer).
        const MAGIC: f64 = 6_755_399_441_055_744.0; // 2^52 + 2^51
        const LIMIT: f64 = 2_147_483_648.0; // 2^31
        let (e, f) = (usize::from(exponent), usize::from(factor));
        let scaled = f64::from((self * POW10_F32[e]) * NEG_POW10_F32[f]);
        let shifted = scaled + MAGIC;
        let rounded = shifted - MAGIC;
        // The integer to binary32 as `decode` converts it: rounded to nearest.
        let back = ((rounded as f32) * POW10_F32[f]) * NEG_POW10_F32[e];
        let encoded = (shifted.to_bits() as i64).wrapping_sub(MAGIC.to_bits() as i64);
        (
            encoded,
            (back.to_bits() == self.to_bits()) & (rounded.abs() < LIMIT),
        )
    }

    #[inline]
    fn decode_packed(
        packed: &[u8],
        width: u32,
        reference: u64,
        exponent: u8,
        factor: u8,
        out: &mut [f32],
    ) {
        simd::alp32(
            Isa::best(),
            packed,
            width,
            reference as u32,
            POW10_F32[usize::from(factor)],
            NEG_POW10_F32[usize::from(exponent)],
            out,
        );
    }
}

#[cfg(test)]
mod tests;
