//! Every Parquet encoding, decode and encode, generic over the physical types.
//!
//! One module per encoding, its decoder and encoder side by side; the kernels they share (bit
//! packing, varints, a checked byte cursor) in [`kernels`]. Each decoder implements
//! [`Decoder<T>`](pqcodec_core::Decoder) for the physical types its encoding applies to and
//! each encoder [`Encoder<T>`](pqcodec_core::Encoder); the bounds say which types those are.
//! [`dynamic`] picks one at run time from what a page header says.

pub mod bit_packed;
pub mod byte_stream_split;
pub mod delta_binary_packed;
pub mod delta_byte_array;
pub mod delta_length_byte_array;
pub mod dictionary;
pub mod dynamic;
pub mod group_var_int;
pub mod kernels;
pub mod plain;
pub mod rle;

pub use pqcodec_core::{Decoder, Encoder, Encoding, Error, Result, Sink};
