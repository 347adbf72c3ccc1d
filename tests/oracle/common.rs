//! Helpers shared by the oracle tests.
#![allow(dead_code)]

use std::sync::Arc;

use parquet::basic::{Repetition, Type as ParquetType};
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
