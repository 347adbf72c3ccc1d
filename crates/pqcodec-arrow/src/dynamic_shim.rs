//! TEMPORARY stand-in for `pqcodec_encodings::dynamic` (PLAIN and dictionary only) until the
//! codec core's run-time dispatch lands.

use pqcodec_core::{Decoder, Encoding, Error, Physical, Result, Sink};
use pqcodec_encodings::dictionary::DictionaryDecoder;
use pqcodec_encodings::plain::{PlainDecoder, PlainType};

/// A physical type whose decoder is chosen at run time.
pub trait DynamicType: PlainType {
    /// The decoder.
    type Decoder<'a>: Decoder<Self>;
    /// A decoder of `encoding`.
    fn decoder<'a>(
        encoding: Encoding,
        data: &'a [u8],
        num_values: usize,
        type_length: usize,
        dictionary: Option<&'a Self::Buffer>,
    ) -> Result<Self::Decoder<'a>>;
}

/// Either decoder.
pub enum Shim<'a, T: PlainType> {
    Plain(PlainDecoder<'a, T>),
    Dict(DictionaryDecoder<'a, T>),
}

impl<T: PlainType> Decoder<T> for Shim<'_, T> {
    fn remaining(&self) -> usize {
        match self {
            Shim::Plain(d) => d.remaining(),
            Shim::Dict(d) => d.remaining(),
        }
    }
    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        match self {
            Shim::Plain(d) => d.read(out, max),
            Shim::Dict(d) => d.read(out, max),
        }
    }
    fn skip(&mut self, n: usize) -> Result<usize> {
        match self {
            Shim::Plain(d) => d.skip(n),
            Shim::Dict(d) => d.skip(n),
        }
    }
}

impl<T: PlainType> DynamicType for T {
    type Decoder<'a> = Shim<'a, T>;
    fn decoder<'a>(
        encoding: Encoding,
        data: &'a [u8],
        num_values: usize,
        type_length: usize,
        dictionary: Option<&'a Self::Buffer>,
    ) -> Result<Self::Decoder<'a>> {
        match (encoding, dictionary) {
            (Encoding::Plain, _) => Ok(Shim::Plain(PlainDecoder::new(
                data,
                num_values,
                type_length,
            )?)),
            (Encoding::PlainDictionary | Encoding::RleDictionary, Some(d)) => {
                Ok(Shim::Dict(DictionaryDecoder::new(data, num_values, d)?))
            }
            _ => Err(Error::Unsupported {
                encoding,
                physical: <T as Physical>::TYPE,
                detail: " (shim)",
            }),
        }
    }
}
