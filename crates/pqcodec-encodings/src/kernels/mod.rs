//! Kernels shared by the encodings: bit packing, ULEB128 and zigzag varints, and a checked
//! cursor over page bytes. The bit unpacking and delta decoding kernels have AVX2 and AVX-512
//! variants picked at run time.

pub mod bitpack;
mod bitpack32;
mod reader;
pub(crate) mod simd;
pub mod varint;

pub use bitpack32::{Pack8, Pack8x64, pack8_for, pack8x64_for};
pub use reader::ByteReader;
