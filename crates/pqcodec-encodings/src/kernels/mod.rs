//! Kernels shared by the encodings: bit packing, ULEB128 and zigzag varints, and a checked
//! cursor over page bytes.

pub mod bitpack;
mod reader;
pub mod varint;

pub use reader::ByteReader;
