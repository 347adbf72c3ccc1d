//! Run-time dispatch, for callers that only know a page header: (encoding, [`ColumnType`]) to
//! a decoder or encoder.
//!
//! [`DynamicType`] gives every physical type marker an enum of the decoders (and one of the
//! encoders) of the encodings that apply to it, so a caller generic over the type pays one
//! `match` per batch, not per value. [`Values`] and [`decode`] / [`encode`] go one step further
//! for callers that know the physical type only at run time too (the `pqcodec` CLI).

use std::sync::Arc;

use bytes::Bytes;
use pqcodec_core::{
    BooleanType, ByteArrayType, ByteArrays, ColumnType, Decoder, DoubleType, Encoder, Encoding,
    Error, FixedLenByteArrayType, FloatType, Int32Type, Int64Type, Int96, Int96Type, Physical,
    PhysicalType, Result, Sink, ValueBuffer, with_physical,
};

use crate::alp::{AlpDecoder, AlpEncoder};
use crate::byte_stream_split::{ByteStreamSplitDecoder, ByteStreamSplitEncoder};
use crate::delta_binary_packed::{DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder};
use crate::delta_byte_array::{DeltaByteArrayDecoder, DeltaByteArrayEncoder};
use crate::delta_length_byte_array::{DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder};
use crate::dictionary::{DictionaryDecoder, DictionaryEncoder, DictionaryLimits};
use crate::group_var_int::{GroupVarIntDecoder, GroupVarIntEncoder};
use crate::plain::{PlainDecoder, PlainEncoder, PlainType};
use crate::rle::{RleBooleanDecoder, RleBooleanEncoder};

/// A physical type whose decoders and encoders can be picked by [`Encoding`] at run time.
pub trait DynamicType: PlainType {
    /// One variant per encoding that applies to the type.
    type Decoder: Decoder<Self>;
    /// One variant per encoding that applies to the type.
    type Encoder: Encoder<Self>;

    /// A decoder of `num_values` values of type `ty` of a data page in `encoding`;
    /// `dictionary` is the decoded dictionary page, needed by the dictionary encodings. The
    /// decoder owns `data` and shares `dictionary`.
    fn decoder(
        encoding: Encoding,
        data: Bytes,
        num_values: usize,
        ty: Self,
        dictionary: Option<Arc<Self::Buffer>>,
    ) -> Result<Self::Decoder>;

    /// An encoder of data pages of values of type `ty` in `encoding`. The dictionary encodings
    /// give a [`DictionaryEncoder`] (with no limits) whose dictionary page the caller takes
    /// from it.
    fn encoder(encoding: Encoding, ty: Self) -> Result<Self::Encoder>;

    /// The PLAIN dictionary page of a dictionary `encoder`; `None` for other encodings.
    fn dictionary_page(encoder: &Self::Encoder) -> Option<Result<Vec<u8>>>;

    /// Puts a whole buffer of values into `encoder`: as a slice ([`Encoder::put_slice`]) where
    /// values are `Sized`, else value by value.
    fn put_buffer(encoder: &mut Self::Encoder, values: &Self::Buffer) -> Result<()>;
}

fn unsupported<T: Physical, R>(encoding: Encoding) -> Result<R> {
    Err(Error::Unsupported {
        encoding,
        physical: T::TYPE,
        detail: "",
    })
}

fn dictionary_decoder<T: PlainType>(
    encoding: Encoding,
    data: Bytes,
    num_values: usize,
    dictionary: Option<Arc<T::Buffer>>,
) -> Result<DictionaryDecoder<T>> {
    let dictionary = dictionary.ok_or_else(|| {
        Error::invalid(
            encoding,
            "dictionary page",
            "the data page holds dictionary indices but no dictionary page came before it",
        )
    })?;
    DictionaryDecoder::with_encoding(data, num_values, dictionary, encoding)
}

/// Declares a physical type's decoder and encoder enums and their [`DynamicType`] impl.
macro_rules! dynamic_type {
    // `slices: yes` for the types whose values are `Sized`: `put_slice` is forwarded to the
    // encoders and `put_buffer` puts a buffer as a slice; `no` forwards `put_fixed_width`.
    (@put_slice yes, $t:ty, [$($ev:ident),*]) => {
        fn put_slice(&mut self, values: &[<$t as Physical>::Value]) -> Result<()> {
            match self { $(Self::$ev(e) => e.put_slice(values)),* }
        }
    };
    (@put_slice no, $t:ty, [$($ev:ident),*]) => {
        fn put_fixed_width(&mut self, bytes: &[u8], width: usize) -> Result<()> {
            match self { $(Self::$ev(e) => e.put_fixed_width(bytes, width)),* }
        }
    };
    (@put_buffer yes) => {
        fn put_buffer(encoder: &mut Self::Encoder, values: &Self::Buffer) -> Result<()> {
            encoder.put_slice(values)
        }
    };
    (@put_buffer no) => {
        fn put_buffer(encoder: &mut Self::Encoder, values: &Self::Buffer) -> Result<()> {
            encoder.put(values.values())
        }
    };
    (
        $t:ty, $dec:ident, $enc:ident, slices: $slices:ident,
        decoders |$encoding:ident, $data:ident, $num_values:ident, $ty:ident, $dictionary:ident|
            { $($dv:ident($dty:ty) = $dpat:pat => $dnew:expr),* $(,)? }
        encoders |$eencoding:ident, $ety_:ident| { $($ev:ident($ety:ty) = $epat:pat => $enew:expr),* $(,)? }
    ) => {
        #[doc = concat!("A decoder of `", stringify!($t), "` values in any encoding that applies to it.")]
        #[allow(missing_docs)]
        // DELTA_BYTE_ARRAY's decoder, the largest, holds two delta decoders (a few hundred
        // bytes, their buffers on the heap): one decoder lives per column being read.
        #[allow(clippy::large_enum_variant)]
        pub enum $dec {
            $($dv($dty)),*
        }

        impl Decoder<$t> for $dec {
            #[inline]
            fn remaining(&self) -> usize {
                match self { $(Self::$dv(d) => d.remaining()),* }
            }
            #[inline]
            fn read<S: Sink<<$t as Physical>::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
                match self { $(Self::$dv(d) => d.read(out, max)),* }
            }
            #[inline]
            fn skip(&mut self, n: usize) -> Result<usize> {
                match self { $(Self::$dv(d) => d.skip(n)),* }
            }
        }

        #[doc = concat!("An encoder of `", stringify!($t), "` values in any encoding that applies to it.")]
        #[allow(missing_docs)]
        pub enum $enc {
            $($ev($ety)),*
        }

        impl Encoder<$t> for $enc {
            fn put<'v, I>(&mut self, values: I) -> Result<()>
            where
                I: IntoIterator<Item = &'v <$t as Physical>::Value>,
                <$t as Physical>::Value: 'v,
            {
                match self { $(Self::$ev(e) => e.put(values)),* }
            }
            dynamic_type!(@put_slice $slices, $t, [$($ev),*]);
            fn num_values(&self) -> usize {
                match self { $(Self::$ev(e) => e.num_values()),* }
            }
            fn estimated_size(&self) -> usize {
                match self { $(Self::$ev(e) => e.estimated_size()),* }
            }
            fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
                match self { $(Self::$ev(e) => e.flush_into(out)),* }
            }
            fn flush(&mut self) -> Result<Vec<u8>> {
                match self { $(Self::$ev(e) => e.flush()),* }
            }
        }

        impl DynamicType for $t {
            type Decoder = $dec;
            type Encoder = $enc;

            #[allow(unused_variables)]
            fn decoder(
                $encoding: Encoding,
                $data: Bytes,
                $num_values: usize,
                $ty: Self,
                $dictionary: Option<Arc<Self::Buffer>>,
            ) -> Result<$dec> {
                Ok(match $encoding {
                    $($dpat => $dec::$dv($dnew),)*
                    _ => return unsupported::<$t, _>($encoding),
                })
            }

            #[allow(unused_variables)]
            fn encoder($eencoding: Encoding, $ety_: Self) -> Result<$enc> {
                Ok(match $eencoding {
                    $($epat => $enc::$ev($enew),)*
                    _ => return unsupported::<$t, _>($eencoding),
                })
            }

            dynamic_type!(@put_buffer $slices);

            fn dictionary_page(encoder: &$enc) -> Option<Result<Vec<u8>>> {
                match encoder {
                    $enc::Dictionary(e) => Some(e.dictionary_page()),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }
    };
}

dynamic_type!(
    BooleanType, BooleanDecoder, BooleanEncoder, slices: yes,
    decoders |encoding, data, num_values, ty, dictionary| {
        Plain(PlainDecoder<BooleanType>) = Encoding::Plain => PlainDecoder::new(data, num_values, ty)?,
        Rle(RleBooleanDecoder) = Encoding::Rle => RleBooleanDecoder::new(data, num_values)?,
        Dictionary(DictionaryDecoder<BooleanType>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
            dictionary_decoder(encoding, data, num_values, dictionary)?,
    }
    encoders |encoding, ty| {
        Plain(PlainEncoder<BooleanType>) = Encoding::Plain => PlainEncoder::new(ty),
        Rle(RleBooleanEncoder) = Encoding::Rle => RleBooleanEncoder::new(),
        Dictionary(DictionaryEncoder<BooleanType>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
            DictionaryEncoder::new(ty, DictionaryLimits::unlimited()),
    }
);

macro_rules! integer_type {
    ($t:ty, $dec:ident, $enc:ident) => {
        dynamic_type!(
            $t, $dec, $enc, slices: yes,
            decoders |encoding, data, num_values, ty, dictionary| {
                Plain(PlainDecoder<$t>) = Encoding::Plain => PlainDecoder::new(data, num_values, ty)?,
                GroupVarInt(GroupVarIntDecoder<$t>) = Encoding::GroupVarInt => GroupVarIntDecoder::new(data, num_values)?,
                Dictionary(DictionaryDecoder<$t>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
                    dictionary_decoder(encoding, data, num_values, dictionary)?,
                DeltaBinaryPacked(DeltaBinaryPackedDecoder<$t>) = Encoding::DeltaBinaryPacked =>
                    DeltaBinaryPackedDecoder::new(data, num_values)?,
                ByteStreamSplit(ByteStreamSplitDecoder<$t>) = Encoding::ByteStreamSplit =>
                    ByteStreamSplitDecoder::new(data, num_values, ty)?,
            }
            encoders |encoding, ty| {
                Plain(PlainEncoder<$t>) = Encoding::Plain => PlainEncoder::new(ty),
                GroupVarInt(GroupVarIntEncoder<$t>) = Encoding::GroupVarInt => GroupVarIntEncoder::new(),
                Dictionary(DictionaryEncoder<$t>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
                    DictionaryEncoder::new(ty, DictionaryLimits::unlimited()),
                DeltaBinaryPacked(DeltaBinaryPackedEncoder<$t>) = Encoding::DeltaBinaryPacked => DeltaBinaryPackedEncoder::new(),
                ByteStreamSplit(ByteStreamSplitEncoder<$t>) = Encoding::ByteStreamSplit => ByteStreamSplitEncoder::new(ty),
            }
        );
    };
}
integer_type!(Int32Type, Int32Decoder, Int32Encoder);
integer_type!(Int64Type, Int64Decoder, Int64Encoder);

dynamic_type!(
    Int96Type, Int96Decoder, Int96Encoder, slices: yes,
    decoders |encoding, data, num_values, ty, dictionary| {
        Plain(PlainDecoder<Int96Type>) = Encoding::Plain => PlainDecoder::new(data, num_values, ty)?,
        Dictionary(DictionaryDecoder<Int96Type>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
            dictionary_decoder(encoding, data, num_values, dictionary)?,
    }
    encoders |encoding, ty| {
        Plain(PlainEncoder<Int96Type>) = Encoding::Plain => PlainEncoder::new(ty),
        Dictionary(DictionaryEncoder<Int96Type>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
            DictionaryEncoder::new(ty, DictionaryLimits::unlimited()),
    }
);

macro_rules! float_type {
    ($t:ty, $dec:ident, $enc:ident) => {
        dynamic_type!(
            $t, $dec, $enc, slices: yes,
            decoders |encoding, data, num_values, ty, dictionary| {
                Plain(PlainDecoder<$t>) = Encoding::Plain => PlainDecoder::new(data, num_values, ty)?,
                Dictionary(DictionaryDecoder<$t>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
                    dictionary_decoder(encoding, data, num_values, dictionary)?,
                ByteStreamSplit(ByteStreamSplitDecoder<$t>) = Encoding::ByteStreamSplit =>
                    ByteStreamSplitDecoder::new(data, num_values, ty)?,
                Alp(AlpDecoder<$t>) = Encoding::Alp => AlpDecoder::new(data, num_values)?,
            }
            encoders |encoding, ty| {
                Plain(PlainEncoder<$t>) = Encoding::Plain => PlainEncoder::new(ty),
                Dictionary(DictionaryEncoder<$t>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
                    DictionaryEncoder::new(ty, DictionaryLimits::unlimited()),
                ByteStreamSplit(ByteStreamSplitEncoder<$t>) = Encoding::ByteStreamSplit => ByteStreamSplitEncoder::new(ty),
                Alp(AlpEncoder<$t>) = Encoding::Alp => AlpEncoder::new(),
            }
        );
    };
}
float_type!(FloatType, FloatDecoder, FloatEncoder);
float_type!(DoubleType, DoubleDecoder, DoubleEncoder);

dynamic_type!(
    ByteArrayType, ByteArrayDecoder, ByteArrayEncoder, slices: no,
    decoders |encoding, data, num_values, ty, dictionary| {
        Plain(PlainDecoder<ByteArrayType>) = Encoding::Plain => PlainDecoder::new(data, num_values, ty)?,
        Dictionary(DictionaryDecoder<ByteArrayType>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
            dictionary_decoder(encoding, data, num_values, dictionary)?,
        DeltaLengthByteArray(DeltaLengthByteArrayDecoder) = Encoding::DeltaLengthByteArray =>
            DeltaLengthByteArrayDecoder::new(data, num_values)?,
        DeltaByteArray(DeltaByteArrayDecoder<ByteArrayType>) = Encoding::DeltaByteArray =>
            DeltaByteArrayDecoder::new(data, num_values, ty)?,
    }
    encoders |encoding, ty| {
        Plain(PlainEncoder<ByteArrayType>) = Encoding::Plain => PlainEncoder::new(ty),
        Dictionary(DictionaryEncoder<ByteArrayType>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
            DictionaryEncoder::new(ty, DictionaryLimits::unlimited()),
        DeltaLengthByteArray(DeltaLengthByteArrayEncoder) = Encoding::DeltaLengthByteArray => DeltaLengthByteArrayEncoder::new(),
        DeltaByteArray(DeltaByteArrayEncoder<ByteArrayType>) = Encoding::DeltaByteArray => DeltaByteArrayEncoder::new(ty),
    }
);

dynamic_type!(
    FixedLenByteArrayType, FixedLenByteArrayDecoder, FixedLenByteArrayEncoder, slices: no,
    decoders |encoding, data, num_values, ty, dictionary| {
        Plain(PlainDecoder<FixedLenByteArrayType>) = Encoding::Plain => PlainDecoder::new(data, num_values, ty)?,
        Dictionary(DictionaryDecoder<FixedLenByteArrayType>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
            dictionary_decoder(encoding, data, num_values, dictionary)?,
        DeltaByteArray(DeltaByteArrayDecoder<FixedLenByteArrayType>) = Encoding::DeltaByteArray =>
            DeltaByteArrayDecoder::new(data, num_values, ty)?,
        ByteStreamSplit(ByteStreamSplitDecoder<FixedLenByteArrayType>) = Encoding::ByteStreamSplit =>
            ByteStreamSplitDecoder::new(data, num_values, ty)?,
    }
    encoders |encoding, ty| {
        Plain(PlainEncoder<FixedLenByteArrayType>) = Encoding::Plain => PlainEncoder::new(ty),
        Dictionary(DictionaryEncoder<FixedLenByteArrayType>) = Encoding::PlainDictionary | Encoding::RleDictionary =>
            DictionaryEncoder::new(ty, DictionaryLimits::unlimited()),
        DeltaByteArray(DeltaByteArrayEncoder<FixedLenByteArrayType>) = Encoding::DeltaByteArray => DeltaByteArrayEncoder::new(ty),
        ByteStreamSplit(ByteStreamSplitEncoder<FixedLenByteArrayType>) = Encoding::ByteStreamSplit => ByteStreamSplitEncoder::new(ty),
    }
);

/// Values of a physical type known at run time.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)]
pub enum Values {
    Boolean(Vec<bool>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Int96(Vec<Int96>),
    Float(Vec<f32>),
    Double(Vec<f64>),
    ByteArray(ByteArrays),
    FixedLenByteArray(ByteArrays),
}

/// Conversions between a marker's buffer and [`Values`].
pub trait IntoValues: DynamicType {
    /// Wraps a buffer.
    fn into_values(buffer: Self::Buffer) -> Values;
    /// The buffer, if `values` are of this type.
    fn buffer_of(values: &Values) -> Option<&Self::Buffer>;
}

macro_rules! into_values {
    ($($t:ty => $variant:ident),*) => {$(
        impl IntoValues for $t {
            fn into_values(buffer: Self::Buffer) -> Values {
                Values::$variant(buffer)
            }
            fn buffer_of(values: &Values) -> Option<&Self::Buffer> {
                match values {
                    Values::$variant(b) => Some(b),
                    _ => None,
                }
            }
        }
    )*};
}
into_values!(
    BooleanType => Boolean, Int32Type => Int32, Int64Type => Int64, Int96Type => Int96,
    FloatType => Float, DoubleType => Double, ByteArrayType => ByteArray,
    FixedLenByteArrayType => FixedLenByteArray
);

impl Values {
    /// The physical type of the values.
    pub fn physical_type(&self) -> PhysicalType {
        match self {
            Values::Boolean(_) => PhysicalType::Boolean,
            Values::Int32(_) => PhysicalType::Int32,
            Values::Int64(_) => PhysicalType::Int64,
            Values::Int96(_) => PhysicalType::Int96,
            Values::Float(_) => PhysicalType::Float,
            Values::Double(_) => PhysicalType::Double,
            Values::ByteArray(_) => PhysicalType::ByteArray,
            Values::FixedLenByteArray(_) => PhysicalType::FixedLenByteArray,
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Values::Boolean(v) => v.len(),
            Values::Int32(v) => v.len(),
            Values::Int64(v) => v.len(),
            Values::Int96(v) => v.len(),
            Values::Float(v) => v.len(),
            Values::Double(v) => v.len(),
            Values::ByteArray(v) | Values::FixedLenByteArray(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How many values a PLAIN page of `data` holds: every whole value its bytes contain (for
/// BOOLEAN, eight a byte).
pub fn plain_value_count(column_type: ColumnType, data: &[u8]) -> Result<usize> {
    let width = match column_type.value_width() {
        _ if column_type == ColumnType::Boolean => return Ok(data.len().saturating_mul(8)),
        Some(width) => width,
        None => {
            let mut reader = crate::kernels::ByteReader::new(data, Encoding::Plain);
            let mut count = 0;
            while reader.remaining() > 0 {
                let len = reader.u32_le("byte array length")?;
                reader.take(len as usize, "byte array value")?;
                count += 1;
            }
            return Ok(count);
        }
    };
    if !data.len().is_multiple_of(width) {
        return Err(Error::invalid(
            Encoding::Plain,
            "page length",
            format!(
                "{} bytes is not a whole number of {width}-byte {} values",
                data.len(),
                column_type.physical()
            ),
        ));
    }
    Ok(data.len() / width)
}

/// Decodes `num_values` values of type `column_type` of a data page in `encoding`. For the
/// dictionary encodings, `dictionary` is the dictionary page's PLAIN bytes, every value of
/// which is in the dictionary.
pub fn decode(
    encoding: Encoding,
    column_type: ColumnType,
    data: Bytes,
    num_values: usize,
    dictionary: Option<&[u8]>,
) -> Result<Values> {
    with_physical!(column_type, ty: T => decode_as(encoding, data, num_values, ty, dictionary).map(T::into_values))
}

fn decode_as<T: DynamicType>(
    encoding: Encoding,
    data: Bytes,
    num_values: usize,
    ty: T,
    dictionary: Option<&[u8]>,
) -> Result<T::Buffer> {
    let dictionary = match dictionary {
        Some(bytes) => {
            let count = plain_value_count(ty.column_type(), bytes)?;
            Some(Arc::new(crate::plain::decode_plain_page(bytes, count, ty)?))
        }
        None => None,
    };
    let mut decoder = T::decoder(encoding, data, num_values, ty, dictionary)?;
    let mut out = T::Buffer::default();
    let read = decoder.read(&mut out, num_values)?;
    if read < num_values {
        return Err(Error::CountTooLarge {
            encoding,
            field: "value count",
            count: num_values as u64,
            capacity: read as u64,
        });
    }
    Ok(out)
}

/// A page's bytes, and for the dictionary encodings the dictionary page's PLAIN bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedPage {
    /// The data page's values section.
    pub data: Vec<u8>,
    /// The dictionary page, for the dictionary encodings.
    pub dictionary: Option<Vec<u8>>,
}

/// Whether pqcodec encodes values of `physical` in `encoding`.
pub fn encodes(encoding: Encoding, physical: PhysicalType) -> bool {
    // Any width will do for FIXED_LEN_BYTE_ARRAY: the encodings that apply to it take all.
    ColumnType::new(physical, 1).is_ok_and(
        |column_type| with_physical!(column_type, ty: T => T::encoder(encoding, ty).is_ok()),
    )
}

/// Encodes `values` of type `column_type` as one data page in `encoding`; values of another
/// physical type are an [`Error::Invalid`].
pub fn encode(encoding: Encoding, values: &Values, column_type: ColumnType) -> Result<EncodedPage> {
    with_physical!(column_type, ty: T => {
        let buffer = T::buffer_of(values).ok_or_else(|| Error::invalid(encoding, "values", "values of the wrong physical type"))?;
        encode_as(encoding, buffer, ty)
    })
}

fn encode_as<T: DynamicType>(encoding: Encoding, values: &T::Buffer, ty: T) -> Result<EncodedPage> {
    let mut encoder = T::encoder(encoding, ty)?;
    T::put_buffer(&mut encoder, values)?;
    let data = encoder.flush()?;
    let dictionary = T::dictionary_page(&encoder).transpose()?;
    Ok(EncodedPage { data, dictionary })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dictionary::DictionaryEncoder;

    /// Every encoder of `T` writes the same pages whether a buffer is put as a slice
    /// ([`DynamicType::put_buffer`]) or value by value, in two batches.
    fn put_buffer_matches_put<T: DynamicType + Default>(values: &T::Buffer, half: &T::Buffer) {
        for encoding in Encoding::ALL {
            let Ok(mut by_buffer) = T::encoder(encoding, T::default()) else {
                continue;
            };
            let mut by_value = T::encoder(encoding, T::default()).unwrap();
            for batch in [half, values] {
                T::put_buffer(&mut by_buffer, batch).unwrap();
                by_value.put(batch.values()).unwrap();
            }
            assert_eq!(by_buffer.num_values(), by_value.num_values(), "{encoding}");
            assert_eq!(
                by_buffer.flush().unwrap(),
                by_value.flush().unwrap(),
                "{encoding}"
            );
            assert_eq!(
                T::dictionary_page(&by_buffer).transpose().unwrap(),
                T::dictionary_page(&by_value).transpose().unwrap(),
                "{encoding}"
            );
        }
    }

    /// Every FIXED_LEN_BYTE_ARRAY encoder writes the same pages whether values come back to
    /// back ([`Encoder::put_fixed_width`]) or one by one, in two batches; so do BYTE_ARRAY's
    /// for values of one length.
    #[test]
    fn fixed_width_bytes_put_in_bulk_write_the_same_pages() {
        let width = 5;
        let bytes: Vec<u8> = (0..400u32)
            .flat_map(|i| {
                ((i * 7919) % 53).to_be_bytes()[..]
                    .to_vec()
                    .into_iter()
                    .chain([9])
            })
            .collect();
        let (first, rest) = bytes.split_at(width * 37);
        let ty = FixedLenByteArrayType::new(width).unwrap();
        for encoding in Encoding::ALL {
            let Ok(mut bulk) = FixedLenByteArrayType::encoder(encoding, ty) else {
                continue;
            };
            let mut one_by_one = FixedLenByteArrayType::encoder(encoding, ty).unwrap();
            let mut strings = ByteArrayType::encoder(encoding, ByteArrayType).ok();
            let mut strings_one_by_one = ByteArrayType::encoder(encoding, ByteArrayType).ok();
            for batch in [first, rest] {
                bulk.put_fixed_width(batch, width).unwrap();
                one_by_one.put(batch.chunks_exact(width)).unwrap();
                if let (Some(a), Some(b)) = (&mut strings, &mut strings_one_by_one) {
                    a.put_fixed_width(batch, width).unwrap();
                    b.put(batch.chunks_exact(width)).unwrap();
                }
            }
            assert_eq!(bulk.num_values(), 400, "{encoding}");
            assert_eq!(
                bulk.flush().unwrap(),
                one_by_one.flush().unwrap(),
                "{encoding}"
            );
            assert_eq!(
                FixedLenByteArrayType::dictionary_page(&bulk)
                    .transpose()
                    .unwrap(),
                FixedLenByteArrayType::dictionary_page(&one_by_one)
                    .transpose()
                    .unwrap(),
                "{encoding}"
            );
            if let (Some(mut a), Some(mut b)) = (strings, strings_one_by_one) {
                assert_eq!(
                    a.flush().unwrap(),
                    b.flush().unwrap(),
                    "BYTE_ARRAY {encoding}"
                );
            }
        }
    }

    #[test]
    fn buffers_put_as_slices_write_the_same_pages() {
        let ints: Vec<i64> = (0..1000i64).map(|i| (i * 7919) % 37 - 18).collect();
        let int32: Vec<i32> = ints.iter().map(|&v| v as i32).collect();
        put_buffer_matches_put::<Int32Type>(&int32, &int32[..501].to_vec());
        put_buffer_matches_put::<Int64Type>(&ints, &ints[..333].to_vec());
        let floats: Vec<f32> = int32.iter().map(|&v| v as f32 / 4.0).collect();
        put_buffer_matches_put::<FloatType>(&floats, &floats[..7].to_vec());
        let doubles: Vec<f64> = ints.iter().map(|&v| v as f64 / 8.0).collect();
        put_buffer_matches_put::<DoubleType>(&doubles, &doubles[..999].to_vec());
        let int96: Vec<Int96> = int32.iter().map(|&v| Int96([v as u32, 0, 7])).collect();
        put_buffer_matches_put::<Int96Type>(&int96, &int96[..13].to_vec());
        let bools: Vec<bool> = ints.iter().map(|&v| v % 3 == 0).collect();
        put_buffer_matches_put::<BooleanType>(&bools, &bools[..5].to_vec());
    }

    #[test]
    fn encodes_says_which_types_an_encoding_takes() {
        assert!(encodes(Encoding::DeltaBinaryPacked, PhysicalType::Int64));
        assert!(!encodes(Encoding::DeltaBinaryPacked, PhysicalType::Double));
        assert!(encodes(
            Encoding::ByteStreamSplit,
            PhysicalType::FixedLenByteArray
        ));
        assert!(!encodes(Encoding::ByteStreamSplit, PhysicalType::ByteArray));
        assert!(encodes(Encoding::Plain, PhysicalType::Boolean));
        assert!(encodes(Encoding::RleDictionary, PhysicalType::Int96));
    }

    /// A page header naming ALP picks it for FLOAT and DOUBLE, and refuses it for the others.
    #[test]
    fn alp_by_encoding_id() {
        let encoding = Encoding::from_id(10).unwrap();
        let doubles = Values::Double(vec![1.5, -0.0, f64::NAN, 2.25, 1e300]);
        let floats = Values::Float(vec![0.1, 0.2, f32::INFINITY]);
        for values in [doubles, floats] {
            let column_type = ColumnType::new(values.physical_type(), 0).unwrap();
            let page = encode(encoding, &values, column_type).unwrap();
            assert!(page.dictionary.is_none());
            let back = decode(
                encoding,
                column_type,
                Bytes::copy_from_slice(&page.data),
                values.len(),
                None,
            )
            .unwrap();
            assert_eq!(format!("{back:?}"), format!("{values:?}"));
        }
        for column_type in [ColumnType::Int32, ColumnType::Int64, ColumnType::ByteArray] {
            let err = decode(
                encoding,
                column_type,
                Bytes::from_static(&[0, 0, 10, 0, 0, 0, 0]),
                0,
                None,
            )
            .unwrap_err();
            assert!(matches!(err, Error::Unsupported { .. }), "{err}");
        }
    }

    /// The dictionary encoder's slice path falls back to PLAIN where its value-by-value path
    /// does, with the same pages on either side of the fallback.
    #[test]
    fn dictionary_fallback_is_the_same_from_slices() {
        let limits = DictionaryLimits {
            max_dictionary_bytes: usize::MAX,
            max_distinct_values: 20,
        };
        let values: Vec<i64> = (0..300i64).map(|i| (i * 13) % 29).collect();
        let mut by_slice = DictionaryEncoder::new(Int64Type, limits);
        let mut by_value = DictionaryEncoder::new(Int64Type, limits);
        for batch in values.chunks(37) {
            by_slice.put_slice(batch).unwrap();
            by_value.put(batch).unwrap();
            assert_eq!(by_slice.has_fallen_back(), by_value.has_fallen_back());
        }
        assert!(by_slice.has_fallen_back());
        for _ in 0..2 {
            assert_eq!(by_slice.page_encoding(), by_value.page_encoding());
            assert_eq!(by_slice.flush().unwrap(), by_value.flush().unwrap());
        }
        assert_eq!(
            by_slice.dictionary_page().unwrap(),
            by_value.dictionary_page().unwrap()
        );
    }
}
