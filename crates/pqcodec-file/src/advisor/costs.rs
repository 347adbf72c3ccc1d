//! Decode costs: measured on the machine advising, or taken from a table.

use pqcodec_core::{Encoding, PhysicalType};

use crate::compression::Compression;

/// How the advisor costs a candidate's decoding.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub enum DecodeCosts {
    /// Each candidate's sample read back by pqcodec's reader on this machine (the fastest of
    /// three reads, the column's candidates read in turns), scaled to the column. Follows the
    /// machine; a few per cent of noise.
    #[default]
    Measured,
    /// [`CostTable::REFERENCE`]-like per-value and per-byte costs: the same advice on every
    /// machine and build, and no sample read back.
    Table(CostTable),
}

/// Nanoseconds to decode, per value by encoding and per byte of decoded page by codec.
///
/// `REFERENCE` was fitted by hand to the advisor's own measures of TPC-H SF1 `orders` and
/// `lineitem` (pqcodec's reader, release build, AMD EPYC Zen 1): the decode time that
/// `pqcodec advise` prints for each candidate, measured ([`DecodeCosts::Measured`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct CostTable {
    /// PLAIN: a value of 4 bytes or less, of 8, of 12, a byte array (its bytes apart).
    pub plain: [f64; 4],
    /// A dictionary index, fixed-width values and byte arrays.
    pub dictionary: [f64; 2],
    /// DELTA_BINARY_PACKED, per value.
    pub delta_binary_packed: f64,
    /// BYTE_STREAM_SPLIT, per value.
    pub byte_stream_split: f64,
    /// DELTA_LENGTH_BYTE_ARRAY, per value.
    pub delta_length_byte_array: f64,
    /// DELTA_BYTE_ARRAY, per value.
    pub delta_byte_array: f64,
    /// RLE booleans, per value.
    pub rle: f64,
    /// ALP, per value.
    pub alp: f64,
    /// Per byte of a byte array's value, copied out (any encoding).
    pub value_byte: f64,
    /// Per byte of decompressed page: SNAPPY, LZ4_RAW, ZSTD, GZIP, BROTLI.
    pub codec_byte: [f64; 5],
}

impl CostTable {
    /// The reference table (see the type's documentation).
    pub const REFERENCE: CostTable = CostTable {
        plain: [0.4, 0.7, 1.0, 3.0],
        dictionary: [2.0, 2.3],
        delta_binary_packed: 2.3,
        byte_stream_split: 1.0,
        delta_length_byte_array: 8.5,
        delta_byte_array: 30.0,
        rle: 1.0,
        alp: 2.0,
        value_byte: 0.07,
        codec_byte: [0.9, 0.6, 1.1, 3.0, 3.0],
    };

    /// Seconds to decode `values` values of `physical` type in `encoding`, whose pages hold
    /// `page_bytes` decoded bytes and whose byte arrays hold `value_bytes`.
    pub(crate) fn seconds(
        &self,
        encoding: Encoding,
        compression: Compression,
        physical: PhysicalType,
        values: f64,
        page_bytes: f64,
        value_bytes: f64,
    ) -> f64 {
        let bytes = matches!(
            physical,
            PhysicalType::ByteArray | PhysicalType::FixedLenByteArray
        );
        let per_value = match encoding {
            Encoding::RleDictionary | Encoding::PlainDictionary => {
                self.dictionary[usize::from(bytes)]
            }
            Encoding::DeltaBinaryPacked => self.delta_binary_packed,
            Encoding::ByteStreamSplit => self.byte_stream_split,
            Encoding::DeltaLengthByteArray => self.delta_length_byte_array,
            Encoding::DeltaByteArray => self.delta_byte_array,
            Encoding::Rle => self.rle,
            Encoding::Alp => self.alp,
            _ => match physical {
                PhysicalType::Int64 | PhysicalType::Double => self.plain[1],
                PhysicalType::Int96 => self.plain[2],
                PhysicalType::ByteArray | PhysicalType::FixedLenByteArray => self.plain[3],
                _ => self.plain[0],
            },
        };
        let codec = match compression {
            Compression::Uncompressed => 0.0,
            Compression::Snappy => self.codec_byte[0],
            Compression::Lz4Raw(_) => self.codec_byte[1],
            Compression::Zstd(_) => self.codec_byte[2],
            Compression::Gzip(_) => self.codec_byte[3],
            Compression::Brotli(_) => self.codec_byte[4],
        };
        let copied = if bytes {
            value_bytes * self.value_byte
        } else {
            0.0
        };
        (values * per_value + copied + page_bytes * codec) * 1e-9
    }
}
