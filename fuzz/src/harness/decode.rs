//! decode_<encoding>: a header picked from the first bytes, then the page.

use super::*;

/// Decodes `page` as `encoding` values of `T` through [`DynamicType::decoder`], with the
/// dictionary page `dictionary` (PLAIN, as many values as its bytes hold) if given.
pub(super) fn decode_as<T: DynamicType>(
    encoding: Encoding,
    page: &[u8],
    num_values: usize,
    ty: T,
    dictionary: Option<&[u8]>,
    seed: u16,
) where
    T::Value: Same,
{
    let dictionary = match dictionary {
        Some(bytes) => {
            let Ok(count) = plain_value_count(ty.column_type(), bytes) else {
                return;
            };
            match decode_plain_page(bytes, count, ty) {
                Ok(d) => Some(Arc::new(d)),
                Err(_) => return,
            }
        }
        None => None,
    };
    exercise(
        || {
            let page = Bytes::copy_from_slice(page);
            T::decoder(encoding, page, num_values, ty, dictionary.clone()).map(Typed::<T, _>::new)
        },
        None,
        seed,
    );
}

/// The common header of the typed decode targets: a physical type out of `types`, a type
/// length, a value count and a schedule seed; the rest is the page.
pub(super) fn decode_typed(encoding: Encoding, types: &[PhysicalType], data: &[u8]) {
    let mut input = Input::new(data);
    let p = one_of(types, input.u8());
    let type_length = usize::from(input.u8() % 24);
    let num_values = input.count();
    let seed = input.u16();
    let page = input.rest();
    // A FIXED_LEN_BYTE_ARRAY of width 0 is refused before any decoder is made.
    let Ok(column_type) = ColumnType::new(p, type_length) else {
        return;
    };
    with_physical!(column_type, ty: T => decode_as(encoding, page, num_values, ty, None, seed));
}

/// PLAIN pages of every physical type.
pub fn decode_plain(data: &[u8]) {
    decode_typed(Encoding::Plain, &PhysicalType::ALL, data);
}

/// The RLE / bit-packing hybrid: levels or indices of a bit width (0 to 39, so some are
/// rejected), with or without the 4-byte length prefix of a v1 data page, or BOOLEAN values.
pub fn decode_rle(data: &[u8]) {
    let mut input = Input::new(data);
    let mode = input.u8();
    let bit_width = u32::from(input.u8() % 40);
    let num_values = input.count();
    let seed = input.u16();
    let page = input.rest();
    if mode & 1 == 1 {
        decode_as(Encoding::Rle, page, num_values, BooleanType, None, seed);
        return;
    }
    let page = if mode & 2 == 2 {
        match split_length_prefix(page) {
            Ok((levels, _rest)) => levels,
            Err(_) => return,
        }
    } else {
        page
    };
    exercise(
        || RleDecoder::new(Bytes::copy_from_slice(page), num_values, bit_width),
        None,
        seed,
    );
}

/// The deprecated BIT_PACKED levels, of a bit width 0 to 39.
pub fn decode_bit_packed(data: &[u8]) {
    let mut input = Input::new(data);
    let bit_width = u32::from(input.u8() % 40);
    let num_values = input.count();
    let seed = input.u16();
    let page = input.rest();
    exercise(
        || BitPackedDecoder::new(Bytes::copy_from_slice(page), num_values, bit_width),
        None,
        seed,
    );
}

/// Dictionary indices alone (against a dictionary of a given size), or PLAIN_DICTIONARY /
/// RLE_DICTIONARY values of every physical type with a dictionary page from the input.
pub fn decode_dictionary(data: &[u8]) {
    let mut input = Input::new(data);
    let mode = input.u8();
    let type_length = usize::from(input.u8() % 24);
    let num_values = input.count();
    let seed = input.u16();
    if mode % 9 == 8 {
        let dictionary_len = usize::from(input.u16());
        let page = input.rest();
        exercise(
            || IndexDecoder::new(Bytes::copy_from_slice(page), num_values, dictionary_len),
            None,
            seed,
        );
        return;
    }
    let encoding = if mode & 0x80 != 0 {
        Encoding::PlainDictionary
    } else {
        Encoding::RleDictionary
    };
    let dictionary_len = usize::from(input.u16());
    let dictionary = input.take(dictionary_len);
    let page = input.rest();
    // A FIXED_LEN_BYTE_ARRAY of width 0 is refused before any decoder is made.
    let Ok(column_type) = ColumnType::new(physical(mode % 9), type_length) else {
        return;
    };
    with_physical!(column_type, ty: T => decode_as(encoding, page, num_values, ty, Some(dictionary), seed));
}

/// DELTA_BINARY_PACKED pages of INT32 and INT64.
pub fn decode_delta_binary_packed(data: &[u8]) {
    decode_typed(Encoding::DeltaBinaryPacked, &INTEGER_TYPES, data);
}

/// DELTA_LENGTH_BYTE_ARRAY pages.
pub fn decode_delta_length_byte_array(data: &[u8]) {
    decode_typed(
        Encoding::DeltaLengthByteArray,
        &[PhysicalType::ByteArray],
        data,
    );
}

/// DELTA_BYTE_ARRAY pages of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
pub fn decode_delta_byte_array(data: &[u8]) {
    decode_typed(Encoding::DeltaByteArray, &DELTA_BYTE_ARRAY_TYPES, data);
}

/// BYTE_STREAM_SPLIT pages of FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY.
pub fn decode_byte_stream_split(data: &[u8]) {
    decode_typed(Encoding::ByteStreamSplit, &BYTE_STREAM_SPLIT_TYPES, data);
}

/// GROUP_VAR_INT pages of INT32 and INT64.
pub fn decode_group_var_int(data: &[u8]) {
    decode_typed(Encoding::GroupVarInt, &INTEGER_TYPES, data);
}

/// ALP pages of FLOAT and DOUBLE.
pub fn decode_alp(data: &[u8]) {
    decode_typed(Encoding::Alp, &ALP_TYPES, data);
}
