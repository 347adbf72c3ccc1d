//! Kernels shared by the encodings: bit packing, ULEB128 and zigzag varints, and a checked
//! cursor over page bytes.

pub mod bitpack;
mod bitpack32;
mod reader;
pub mod varint;

pub use bitpack32::{Pack8, pack8_for};
pub use reader::ByteReader;
