//! Byte builders: the pages and headers the cases are made of.

use super::*;

/// A DELTA_BINARY_PACKED header.
pub(super) fn dbp_header(block: u64, miniblocks: u64, total: u64, first: i64) -> Vec<u8> {
    let mut out = uleb(block);
    out.extend(uleb(miniblocks));
    out.extend(uleb(total));
    out.extend(uleb(zigzag(first)));
    out
}

/// `values` as DELTA_BINARY_PACKED INT32, by the codec's own encoder.
pub(super) fn dbp32(values: &[i32]) -> Vec<u8> {
    let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::new();
    enc.put(values).unwrap();
    enc.flush().unwrap()
}

/// A DELTA_LENGTH_BYTE_ARRAY page: `lengths` as DELTA_BINARY_PACKED, then `data`.
pub(super) fn dlba(lengths: &[i32], data: &[u8]) -> Vec<u8> {
    let mut out = dbp32(lengths);
    out.extend_from_slice(data);
    out
}

/// A DELTA_BYTE_ARRAY page: prefix lengths, then the suffixes as DELTA_LENGTH_BYTE_ARRAY.
pub(super) fn dba(prefixes: &[i32], suffix_lengths: &[i32], data: &[u8]) -> Vec<u8> {
    let mut out = dbp32(prefixes);
    out.extend(dlba(suffix_lengths, data));
    out
}

pub(super) fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// The width of one PLAIN value in bytes (BOOLEAN: 1, a byte of 8; BYTE_ARRAY: a length + 1).
pub(super) fn plain_values(physical: PhysicalType, type_length: usize, count: usize) -> Vec<u8> {
    match physical {
        P::Boolean => vec![0x55; count.div_ceil(8)],
        P::Int32 | P::Float => (0..count as u8).flat_map(|i| [i, 0, 0, 0]).collect(),
        P::Int64 | P::Double => (0..count as u8)
            .flat_map(|i| [i, 0, 0, 0, 0, 0, 0, 0])
            .collect(),
        P::Int96 => (0..count as u8).flat_map(|i| [i; 12]).collect(),
        P::ByteArray => (0..count as u8)
            .flat_map(|i| [1, 0, 0, 0, b'a' + i])
            .collect(),
        P::FixedLenByteArray => (0..count * type_length).map(|i| i as u8).collect(),
    }
}

/// How many values a PLAIN dictionary page of `bytes` holds (as [`dynamic::decode`] counts).
pub(super) fn dictionary_len(column_type: ColumnType, bytes: &[u8]) -> usize {
    plain_value_count(column_type, bytes).unwrap()
}

pub(super) const ALL_TYPES: [PhysicalType; 8] = [
    P::Boolean,
    P::Int32,
    P::Int64,
    P::Int96,
    P::Float,
    P::Double,
    P::ByteArray,
    P::FixedLenByteArray,
];

/// The encodings of data page values that apply to `physical`.
pub(super) fn applies(encoding: Encoding, physical: PhysicalType) -> bool {
    match encoding {
        Plain | PlainDictionary | RleDictionary => true,
        Rle => physical == P::Boolean,
        BitPacked => false,
        Gvi | Dbp => matches!(physical, P::Int32 | P::Int64),
        Dlba => physical == P::ByteArray,
        Dba => matches!(physical, P::ByteArray | P::FixedLenByteArray),
        Bss => matches!(
            physical,
            P::Int32 | P::Int64 | P::Float | P::Double | P::FixedLenByteArray
        ),
        Encoding::Alp => matches!(physical, P::Float | P::Double),
        _ => false,
    }
}

pub(super) fn lower(p: PhysicalType) -> String {
    p.name().to_ascii_lowercase()
}
