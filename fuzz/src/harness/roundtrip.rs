//! roundtrip_<encoding>: values made from the input, encoded, decoded back.

use super::*;

/// Physical types whose values can be made from fuzzer bytes.
pub(super) trait Make: DynamicType {
    /// Up to `n` values of type `ty` from `input` (fewer if it runs out).
    fn make(input: &mut Input<'_>, n: usize, ty: Self) -> Self::Buffer;
}

impl Make for BooleanType {
    fn make(input: &mut Input<'_>, n: usize, _: Self) -> Vec<bool> {
        let mut out = Vec::new();
        while out.len() < n && !input.is_empty() {
            let b = input.u8();
            // Runs: the low bit is the value, the rest a run length (0 means a lone value).
            let run = usize::from(b >> 1).max(1);
            out.extend(std::iter::repeat_n(b & 1 == 1, run.min(n - out.len())));
        }
        out
    }
}

macro_rules! make_int {
    ($t:ty, $native:ty) => {
        impl Make for $t {
            fn make(input: &mut Input<'_>, n: usize, _: Self) -> Vec<$native> {
                const WIDTH: usize = std::mem::size_of::<$native>();
                let mode = input.u8();
                let mut out = Vec::new();
                let mut prev: $native = 0;
                while out.len() < n && !input.is_empty() {
                    let v = match mode % 4 {
                        // Raw little-endian bytes.
                        0 => {
                            let mut bytes = [0u8; WIDTH];
                            for b in &mut bytes {
                                *b = input.u8();
                            }
                            <$native>::from_le_bytes(bytes)
                        }
                        // Small steps, wrapping: what the delta encodings pack tightly.
                        1 => prev.wrapping_add(<$native>::from(input.u8() as i8)),
                        // A few distinct values: dictionary-friendly.
                        2 => <$native>::from(input.u8() % 5) * 1_000_003,
                        // Extremes.
                        _ => {
                            [<$native>::MIN, <$native>::MAX, 0, -1, 1][usize::from(input.u8() % 5)]
                        }
                    };
                    out.push(v);
                    prev = v;
                }
                out
            }
        }
    };
}
make_int!(Int32Type, i32);
make_int!(Int64Type, i64);

impl Make for Int96Type {
    fn make(input: &mut Input<'_>, n: usize, _: Self) -> Vec<Int96> {
        let mut out = Vec::new();
        while out.len() < n && !input.is_empty() {
            out.push(Int96([input.u32(), input.u32(), input.u32()]));
        }
        out
    }
}

macro_rules! make_float {
    ($t:ty, $native:ty) => {
        impl Make for $t {
            fn make(input: &mut Input<'_>, n: usize, _: Self) -> Vec<$native> {
                const WIDTH: usize = std::mem::size_of::<$native>();
                let mode = input.u8();
                let mut out = Vec::new();
                // Decimals (what ALP packs tightly) have a scale of 10^0 to 10^3.
                let scale = [1.0, 10.0, 100.0, 1000.0][usize::from(mode >> 2) % 4];
                while out.len() < n && !input.is_empty() {
                    let v = if mode % 4 == 2 {
                        <$native>::from(i16::from_le_bytes([input.u8(), input.u8()])) / scale
                    } else if mode & 1 == 0 {
                        let mut bytes = [0u8; WIDTH];
                        for b in &mut bytes {
                            *b = input.u8();
                        }
                        <$native>::from_le_bytes(bytes)
                    } else {
                        let specials = [
                            0.0,
                            -0.0,
                            <$native>::NAN,
                            <$native>::from_bits(<$native>::NAN.to_bits() | 1),
                            <$native>::INFINITY,
                            <$native>::NEG_INFINITY,
                            <$native>::MIN_POSITIVE,
                            1.5,
                        ];
                        specials[usize::from(input.u8() % 8)]
                    };
                    out.push(v);
                }
                out
            }
        }
    };
}
make_float!(FloatType, f32);
make_float!(DoubleType, f64);

impl Make for ByteArrayType {
    fn make(input: &mut Input<'_>, n: usize, _: Self) -> ByteArrays {
        let mut out = ByteArrays::new();
        let mut prev: Vec<u8> = Vec::new();
        while out.len() < n && !input.is_empty() {
            let b = input.u8();
            let len = usize::from(b & 0x3f);
            let value = if b & 0x40 != 0 {
                // A prefix of the previous value and some new bytes: what DELTA_BYTE_ARRAY
                // shares.
                let keep = usize::from(input.u8()).min(prev.len());
                let mut v = prev[..keep].to_vec();
                v.extend_from_slice(input.take(len));
                v
            } else if b & 0x80 != 0 {
                // A long value.
                input.take(len * 256).to_vec()
            } else {
                input.take(len).to_vec()
            };
            out.push(&value);
            prev = value;
        }
        out
    }
}

impl Make for FixedLenByteArrayType {
    fn make(input: &mut Input<'_>, n: usize, ty: Self) -> ByteArrays {
        let mut out = ByteArrays::new();
        let mut value = vec![0u8; ty.width()];
        while out.len() < n && !input.is_empty() {
            for b in &mut value {
                *b = input.u8();
            }
            out.push(&value);
        }
        out
    }
}

/// Makes values of `p` (for FIXED_LEN_BYTE_ARRAY of a width 1 to 20 the next byte picks),
/// encodes them as two pages of `encoding` (the values put in several batches, a flush between
/// the pages) and decodes both back through a schedule.
fn roundtrip_of(encoding: Encoding, p: PhysicalType, input: &mut Input<'_>) {
    let type_length = if p == PhysicalType::FixedLenByteArray {
        1 + usize::from(input.u8() % 20)
    } else {
        0
    };
    let column_type = ColumnType::new(p, type_length).expect("a width of 1 to 20 bytes");
    with_physical!(column_type, ty: T => roundtrip_as(encoding, ty, input));
}

/// [`roundtrip_of`] for the marker `ty`.
fn roundtrip_as<T: Make>(encoding: Encoding, ty: T, input: &mut Input<'_>)
where
    T::Value: Same,
{
    let seed = input.u16();
    let cuts = [input.u16(), input.u16(), input.u16()];
    let values = T::make(input, REFERENCE_LIMIT, ty);
    let n = values.len();
    let mut cuts = cuts.map(|c| if n == 0 { 0 } else { usize::from(c) % (n + 1) });
    cuts.sort_unstable();
    // Page one holds values[..cuts[1]], put in two batches; page two the rest, in two.
    let batches = [
        (0, cuts[0]),
        (cuts[0], cuts[1]),
        (cuts[1], cuts[2]),
        (cuts[2], n),
    ];
    let mut encoder = T::encoder(encoding, ty).expect("the encoding applies");
    let mut pages = Vec::new();
    for (i, &(start, end)) in batches.iter().enumerate() {
        encoder
            .put(values.values().skip(start).take(end - start))
            .unwrap_or_else(|e| panic!("encoding {} values: {e}", end - start));
        let _ = encoder.estimated_size();
        if i % 2 == 1 {
            let page = encoder.flush().unwrap_or_else(|e| panic!("flush: {e}"));
            assert_eq!(encoder.num_values(), 0, "flush starts a new page");
            let mut expected = T::Buffer::default();
            for v in values
                .values()
                .skip(batches[i - 1].0)
                .take(end - batches[i - 1].0)
            {
                expected.push(v);
            }
            pages.push((page, expected));
        }
    }
    let dictionary = T::dictionary_page(&encoder)
        .transpose()
        .unwrap_or_else(|e| panic!("dictionary page: {e}"))
        .map(|bytes| {
            let count = plain_value_count(ty.column_type(), &bytes)
                .unwrap_or_else(|e| panic!("dictionary page: {e}"));
            decode_plain_page(&bytes, count, ty)
                .map(Arc::new)
                .unwrap_or_else(|e| panic!("dictionary page: {e}"))
        });
    for (page, expected) in &pages {
        exercise(
            || {
                T::decoder(
                    encoding,
                    Bytes::copy_from_slice(page),
                    expected.len(),
                    ty,
                    dictionary.clone(),
                )
                .map(Typed::<T, _>::new)
            },
            Some(expected),
            seed,
        );
    }
}

/// The round trip of `encoding` for a physical type out of `types` picked by the first byte.
pub(super) fn roundtrip_typed(encoding: Encoding, types: &[PhysicalType], data: &[u8]) {
    let mut input = Input::new(data);
    let p = one_of(types, input.u8());
    roundtrip_of(encoding, p, &mut input);
}

/// PLAIN, every physical type.
pub fn roundtrip_plain(data: &[u8]) {
    roundtrip_typed(Encoding::Plain, &PhysicalType::ALL, data);
}

/// The RLE / bit-packing hybrid at a bit width 0 to 32 (values put one by one, as runs and as
/// slices), or BOOLEAN values as RLE.
pub fn roundtrip_rle(data: &[u8]) {
    let mut input = Input::new(data);
    let mode = input.u8();
    if mode & 1 == 1 {
        roundtrip_as(Encoding::Rle, BooleanType, &mut input);
        return;
    }
    let bit_width = u32::from(input.u8() % 33);
    let seed = input.u16();
    let mask = if bit_width == 32 {
        u32::MAX
    } else {
        (1u32 << bit_width) - 1
    };
    let mut encoder = RleEncoder::new(bit_width);
    let mut expected: Vec<u32> = Vec::new();
    while !input.is_empty() && expected.len() < REFERENCE_LIMIT {
        let op = input.u8();
        let value = input.u32() & mask;
        match op % 3 {
            0 => {
                encoder.put(value);
                expected.push(value);
            }
            1 => {
                let count = usize::from(input.u16() % 2048).min(REFERENCE_LIMIT);
                encoder.put_repeated(value, count);
                expected.extend(std::iter::repeat_n(value, count));
            }
            _ => {
                let len = usize::from(op >> 2);
                let slice: Vec<u32> = (0..len).map(|_| input.u32() & mask).collect();
                encoder.put_slice(&slice);
                expected.extend_from_slice(&slice);
            }
        }
    }
    assert_eq!(encoder.num_values(), expected.len(), "num_values");
    let _ = encoder.estimated_size();
    let mut page = Vec::new();
    encoder.flush_into(&mut page);
    assert_eq!(encoder.num_values(), 0, "flush starts a new run");
    exercise(
        || RleDecoder::new(Bytes::copy_from_slice(&page), expected.len(), bit_width),
        Some(&expected),
        seed,
    );
}

/// The deprecated BIT_PACKED levels at a bit width 0 to 32.
pub fn roundtrip_bit_packed(data: &[u8]) {
    let mut input = Input::new(data);
    let bit_width = u32::from(input.u8() % 33);
    let seed = input.u16();
    let mask = if bit_width == 32 {
        u32::MAX
    } else {
        (1u32 << bit_width) - 1
    };
    let mut encoder = BitPackedEncoder::new(bit_width);
    let mut expected = Vec::new();
    while !input.is_empty() && expected.len() < REFERENCE_LIMIT {
        let value = input.u32() & mask;
        encoder.put(value);
        expected.push(value);
    }
    assert_eq!(encoder.num_values(), expected.len(), "num_values");
    let _ = encoder.estimated_size();
    let mut page = Vec::new();
    encoder.flush_into(&mut page);
    exercise(
        || BitPackedDecoder::new(Bytes::copy_from_slice(&page), expected.len(), bit_width),
        Some(&expected),
        seed,
    );
}

/// RLE_DICTIONARY (and PLAIN_DICTIONARY) of every physical type: two data pages and the
/// dictionary page both share.
pub fn roundtrip_dictionary(data: &[u8]) {
    let mut input = Input::new(data);
    let b = input.u8();
    let encoding = if b & 0x80 != 0 {
        Encoding::PlainDictionary
    } else {
        Encoding::RleDictionary
    };
    roundtrip_of(encoding, physical(b), &mut input);
}

/// DELTA_BINARY_PACKED, INT32 and INT64.
pub fn roundtrip_delta_binary_packed(data: &[u8]) {
    roundtrip_typed(Encoding::DeltaBinaryPacked, &INTEGER_TYPES, data);
}

/// DELTA_LENGTH_BYTE_ARRAY.
pub fn roundtrip_delta_length_byte_array(data: &[u8]) {
    roundtrip_typed(
        Encoding::DeltaLengthByteArray,
        &[PhysicalType::ByteArray],
        data,
    );
}

/// DELTA_BYTE_ARRAY, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
pub fn roundtrip_delta_byte_array(data: &[u8]) {
    roundtrip_typed(Encoding::DeltaByteArray, &DELTA_BYTE_ARRAY_TYPES, data);
}

/// BYTE_STREAM_SPLIT, FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY.
pub fn roundtrip_byte_stream_split(data: &[u8]) {
    roundtrip_typed(Encoding::ByteStreamSplit, &BYTE_STREAM_SPLIT_TYPES, data);
}

/// GROUP_VAR_INT, INT32 and INT64.
pub fn roundtrip_group_var_int(data: &[u8]) {
    roundtrip_typed(Encoding::GroupVarInt, &INTEGER_TYPES, data);
}

/// ALP, FLOAT and DOUBLE (two pages from one encoder: the second reuses the first's
/// candidate parameters).
pub fn roundtrip_alp(data: &[u8]) {
    roundtrip_typed(Encoding::Alp, &ALP_TYPES, data);
}
