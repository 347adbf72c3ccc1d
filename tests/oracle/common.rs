//! Helpers shared by the oracle tests.
#![allow(dead_code)]

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Encoding as PqEncoding, Repetition, Type as ParquetType};
use parquet::data_type::DataType;
use parquet::encodings::decoding::get_decoder;
use parquet::encodings::encoding::get_encoder;
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor, ColumnPath, Type};

/// A required column descriptor of `physical` type (and `type_length` for FIXED_LEN_BYTE_ARRAY),
/// as arrow-rs's `get_encoder` / `get_decoder` want it.
pub fn descr(physical: ParquetType, type_length: i32) -> ColumnDescPtr {
    let mut builder =
        Type::primitive_type_builder("c", physical).with_repetition(Repetition::REQUIRED);
    if physical == ParquetType::FIXED_LEN_BYTE_ARRAY {
        builder = builder.with_length(type_length);
    }
    let tp = builder.build().expect("valid column type");
    Arc::new(ColumnDescriptor::new(
        Arc::new(tp),
        0,
        0,
        ColumnPath::from("c"),
    ))
}

/// arrow-rs's `encoding` bytes of `values`.
pub fn arrow_encode<A: DataType>(
    encoding: PqEncoding,
    type_length: usize,
    values: &[A::T],
) -> Vec<u8> {
    let descr = descr(A::get_physical_type(), type_length as i32);
    let mut enc = get_encoder::<A>(encoding, &descr).expect("arrow-rs has this encoder");
    enc.put(values).expect("arrow-rs encodes");
    enc.flush_buffer().expect("arrow-rs flushes").to_vec()
}

/// arrow-rs's decoding of `n` values from `bytes`, in batches of `batch`.
pub fn arrow_decode<A: DataType>(
    encoding: PqEncoding,
    type_length: usize,
    bytes: &[u8],
    n: usize,
    batch: usize,
) -> Vec<A::T> {
    let descr = descr(A::get_physical_type(), type_length as i32);
    let mut dec = get_decoder::<A>(descr, encoding).expect("arrow-rs has this decoder");
    dec.set_data(Bytes::copy_from_slice(bytes), n)
        .expect("arrow-rs takes the page");
    let mut out = vec![A::T::default(); n];
    let mut got = 0;
    while got < n {
        let end = (got + batch.max(1)).min(n);
        let k = dec.get(&mut out[got..end]).expect("arrow-rs decodes");
        assert!(k > 0, "arrow-rs stopped at {got} of {n}");
        got += k;
    }
    out
}
