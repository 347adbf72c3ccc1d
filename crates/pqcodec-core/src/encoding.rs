use std::fmt;
use std::str::FromStr;

/// A Parquet encoding, with the id the format's Thrift definition gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// Values back to back (`PLAIN = 0`).
    Plain,
    /// Historical variable-length integers in groups (`GROUP_VAR_INT = 1`).
    GroupVarInt,
    /// Dictionary indices; deprecated name of [`Encoding::RleDictionary`] (`PLAIN_DICTIONARY = 2`).
    PlainDictionary,
    /// RLE / bit-packing hybrid (`RLE = 3`).
    Rle,
    /// Deprecated MSB-first bit packing of levels (`BIT_PACKED = 4`).
    BitPacked,
    /// Delta encoding of integers (`DELTA_BINARY_PACKED = 5`).
    DeltaBinaryPacked,
    /// Delta-encoded lengths then concatenated bytes (`DELTA_LENGTH_BYTE_ARRAY = 6`).
    DeltaLengthByteArray,
    /// Incremental (front-compressed) byte arrays (`DELTA_BYTE_ARRAY = 7`).
    DeltaByteArray,
    /// Dictionary indices, RLE / bit-packed (`RLE_DICTIONARY = 8`).
    RleDictionary,
    /// Bytes of each value scattered over K streams (`BYTE_STREAM_SPLIT = 9`).
    ByteStreamSplit,
    /// Adaptive Lossless floating-Point: decimal floats as frame-of-reference bit-packed
    /// integers plus exceptions (`ALP = 10`).
    Alp,
}

impl Encoding {
    /// Every encoding, in id order.
    pub const ALL: [Encoding; 11] = [
        Encoding::Plain,
        Encoding::GroupVarInt,
        Encoding::PlainDictionary,
        Encoding::Rle,
        Encoding::BitPacked,
        Encoding::DeltaBinaryPacked,
        Encoding::DeltaLengthByteArray,
        Encoding::DeltaByteArray,
        Encoding::RleDictionary,
        Encoding::ByteStreamSplit,
        Encoding::Alp,
    ];

    /// The id of the encoding in `parquet.thrift`.
    pub fn id(self) -> i32 {
        match self {
            Encoding::Plain => 0,
            Encoding::GroupVarInt => 1,
            Encoding::PlainDictionary => 2,
            Encoding::Rle => 3,
            Encoding::BitPacked => 4,
            Encoding::DeltaBinaryPacked => 5,
            Encoding::DeltaLengthByteArray => 6,
            Encoding::DeltaByteArray => 7,
            Encoding::RleDictionary => 8,
            Encoding::ByteStreamSplit => 9,
            Encoding::Alp => 10,
        }
    }

    /// The encoding with `id`, if the format defines one.
    pub fn from_id(id: i32) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.id() == id)
    }

    /// The spec's name, e.g. `DELTA_BINARY_PACKED`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Plain => "PLAIN",
            Encoding::GroupVarInt => "GROUP_VAR_INT",
            Encoding::PlainDictionary => "PLAIN_DICTIONARY",
            Encoding::Rle => "RLE",
            Encoding::BitPacked => "BIT_PACKED",
            Encoding::DeltaBinaryPacked => "DELTA_BINARY_PACKED",
            Encoding::DeltaLengthByteArray => "DELTA_LENGTH_BYTE_ARRAY",
            Encoding::DeltaByteArray => "DELTA_BYTE_ARRAY",
            Encoding::RleDictionary => "RLE_DICTIONARY",
            Encoding::ByteStreamSplit => "BYTE_STREAM_SPLIT",
            Encoding::Alp => "ALP",
        }
    }

    /// Whether data pages of this encoding hold dictionary indices.
    pub fn is_dictionary(self) -> bool {
        matches!(self, Encoding::PlainDictionary | Encoding::RleDictionary)
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name given is not one of the spec's encodings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown encoding {0:?}; expected one of PLAIN, GROUP_VAR_INT, PLAIN_DICTIONARY, RLE, BIT_PACKED, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, RLE_DICTIONARY, BYTE_STREAM_SPLIT, ALP"
)]
pub struct UnknownEncoding(pub String);

impl FromStr for Encoding {
    type Err = UnknownEncoding;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownEncoding(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_round_trip() {
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_id(e.id()), Some(e));
            assert_eq!(e.name().parse::<Encoding>(), Ok(e));
        }
        assert_eq!(Encoding::from_id(10), Some(Encoding::Alp));
        assert_eq!(Encoding::from_id(11), None);
        assert_eq!("alp".parse::<Encoding>(), Ok(Encoding::Alp));
        assert!("PLAIN_DICT".parse::<Encoding>().is_err());
    }
}
