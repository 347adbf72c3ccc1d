//! Kernels shared by the encodings: bit packing, ULEB128 and zigzag varints, a checked cursor
//! over page bytes, spreading values over validity, rebuilding DELTA_BYTE_ARRAY's values from
//! shared prefixes, least and greatest values. Private: the Arrow adapter reaches the few it
//! uses through [`bits`](crate::bits) and [`stats`](crate::stats).
//! Every SIMD variant lives in the private `simd` module, picked at run time: bit unpacking,
//! delta decoding, spreading, prefix joining, ALP and BYTE_STREAM_SPLIT's transposition.

pub mod bitpack;
mod bitpack32;
mod bits;
pub mod min_max;
mod prefix_values;
mod reader;
pub mod shared_prefix;
pub(crate) mod simd;
pub mod spread;
mod spread_scalar;
pub mod varint;

pub use bitpack32::{PackGroups, pack_groups_for, pack8x64_for};
pub use reader::ByteReader;
