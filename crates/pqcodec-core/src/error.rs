use crate::{Encoding, PhysicalType};

/// The result of every fallible pqcodec call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong encoding or decoding, naming the encoding and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The data ended in the middle of a field.
    #[error("{encoding}: data ends in {field}: {needed} bytes needed, {available} left")]
    Truncated {
        /// The encoding being decoded.
        encoding: Encoding,
        /// The field being read.
        field: &'static str,
        /// Bytes the field needs.
        needed: usize,
        /// Bytes that were left.
        available: usize,
    },
    /// A bit width is wider than the field allows.
    #[error("{encoding}: {field} bit width {width} is over the maximum of {max}")]
    BitWidth {
        /// The encoding being decoded or encoded.
        encoding: Encoding,
        /// The field holding the bit width.
        field: &'static str,
        /// The bit width found.
        width: u32,
        /// The widest allowed.
        max: u32,
    },
    /// A count or length says more than the data can hold.
    #[error("{encoding}: {field} is {count}, more than the {capacity} the data can hold")]
    CountTooLarge {
        /// The encoding being decoded.
        encoding: Encoding,
        /// The field holding the count.
        field: &'static str,
        /// The count found.
        count: u64,
        /// The most the data can hold.
        capacity: u64,
    },
    /// A dictionary index points past the end of the dictionary.
    #[error(
        "{encoding}: dictionary index {index} is out of range for a dictionary of {len} values"
    )]
    DictionaryIndex {
        /// The encoding being decoded.
        encoding: Encoding,
        /// The index found.
        index: u64,
        /// The number of values in the dictionary.
        len: usize,
    },
    /// A value given to an encoder cannot be encoded (wrong fixed length, too long...).
    #[error("{encoding}: value {index} cannot be encoded: {reason}")]
    Value {
        /// The encoding encoding.
        encoding: Encoding,
        /// Position of the value in the page.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A field holds a value the spec does not allow.
    #[error("{encoding}: invalid {field}: {reason}")]
    Invalid {
        /// The encoding being decoded or encoded.
        encoding: Encoding,
        /// The field at fault.
        field: &'static str,
        /// What was expected and what was found.
        reason: String,
    },
    /// A FIXED_LEN_BYTE_ARRAY type length outside 1 to `i32::MAX`.
    #[error(
        "invalid type_length {type_length}: FIXED_LEN_BYTE_ARRAY needs a type length from 1 to 2147483647"
    )]
    TypeLength {
        /// The type length found.
        type_length: u64,
    },
    /// The encoding does not apply to the physical type.
    #[error("{encoding} does not apply to {physical}{detail}")]
    Unsupported {
        /// The encoding asked for.
        encoding: Encoding,
        /// The physical type asked for.
        physical: PhysicalType,
        /// More about the combination, or empty.
        detail: &'static str,
    },
}

impl Error {
    /// A [`Error::Truncated`].
    pub fn truncated(
        encoding: Encoding,
        field: &'static str,
        needed: usize,
        available: usize,
    ) -> Self {
        Error::Truncated {
            encoding,
            field,
            needed,
            available,
        }
    }

    /// An [`Error::Invalid`].
    pub fn invalid(encoding: Encoding, field: &'static str, reason: impl Into<String>) -> Self {
        Error::Invalid {
            encoding,
            field,
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_encoding_and_field() {
        let e = Error::truncated(Encoding::DeltaBinaryPacked, "miniblock", 16, 3);
        assert_eq!(
            e.to_string(),
            "DELTA_BINARY_PACKED: data ends in miniblock: 16 bytes needed, 3 left"
        );
        let e = Error::BitWidth {
            encoding: Encoding::Rle,
            field: "levels",
            width: 33,
            max: 32,
        };
        assert_eq!(
            e.to_string(),
            "RLE: levels bit width 33 is over the maximum of 32"
        );
    }
}
