//! The spec's examples, byte-exact, in both directions.

use bytes::Bytes;
use pqcodec::core::{ByteArrays, ColumnType, Encoding, PhysicalType};
use pqcodec::encodings::bit_packed::{BitPackedDecoder, BitPackedEncoder};
use pqcodec::encodings::dynamic::{self, Values};
use pqcodec::encodings::rle::{RleDecoder, RleEncoder};

/// Encodes `values` in `encoding`, checks the bytes, and decodes them back.
fn both_ways(encoding: Encoding, values: Values, column_type: ColumnType, expected: &[u8]) {
    let page = dynamic::encode(encoding, &values, column_type).expect("encodes");
    assert_eq!(page.data, expected, "{encoding} bytes");
    let back = dynamic::decode(
        encoding,
        column_type,
        Bytes::copy_from_slice(expected),
        values.len(),
        None,
    )
    .expect("decodes");
    assert_eq!(back, values, "{encoding} values");
}

fn strings(values: &[&str]) -> ByteArrays {
    values.iter().map(|s| s.as_bytes()).collect()
}

#[test]
fn rle_hybrid_zero_to_seven_at_width_3() {
    // One bit-packed run of one group: header (1 << 1) | 1, then the spec's three bytes.
    let expected = [0b0000_0011, 0b1000_1000, 0b1100_0110, 0b1111_1010];
    let mut encoder = RleEncoder::new(3);
    (0..8).for_each(|v| encoder.put(v));
    let mut out = Vec::new();
    encoder.flush_into(&mut out);
    assert_eq!(out, expected);
    let mut levels = Vec::new();
    RleDecoder::new(Bytes::copy_from_slice(&expected), 8, 3)
        .unwrap()
        .read(&mut levels, 8)
        .unwrap();
    assert_eq!(levels, (0..8).collect::<Vec<u32>>());
}

#[test]
fn bit_packed_zero_to_seven_at_width_3() {
    let expected = [0b0000_0101, 0b0011_1001, 0b0111_0111];
    let mut encoder = BitPackedEncoder::new(3);
    (0..8).for_each(|v| encoder.put(v));
    let mut out = Vec::new();
    encoder.flush_into(&mut out);
    assert_eq!(out, expected);
    let mut levels = Vec::new();
    BitPackedDecoder::new(Bytes::copy_from_slice(&expected), 8, 3)
        .unwrap()
        .read(&mut levels, 8)
        .unwrap();
    assert_eq!(levels, (0..8).collect::<Vec<u32>>());
}

#[test]
fn group_var_int_leading_byte_example() {
    // 0b00101101: lengths 1, 3, 4, 2; 1 + 10 bytes.
    let values = vec![0xAB, 0x12_3456, 0x89AB_CDEFu32 as i32, 0x1234];
    let expected = [
        0b0010_1101,
        0xAB,
        0x56,
        0x34,
        0x12,
        0xEF,
        0xCD,
        0xAB,
        0x89,
        0x34,
        0x12,
    ];
    both_ways(
        Encoding::GroupVarInt,
        Values::Int32(values),
        ColumnType::Int32,
        &expected,
    );
}

#[test]
fn group_var_int_pads_the_last_group() {
    // (1, 2, 3, 4, 5) is written as (1, 2, 3, 4, 5, 0, 0, 0).
    let expected = [0, 1, 2, 3, 4, 0, 5, 0, 0, 0];
    both_ways(
        Encoding::GroupVarInt,
        Values::Int32(vec![1, 2, 3, 4, 5]),
        ColumnType::Int32,
        &expected,
    );
}

#[test]
fn byte_stream_split_three_floats() {
    let raw = [
        [0xAA, 0xBB, 0xCC, 0xDD],
        [0x00, 0x11, 0x22, 0x33],
        [0xA3, 0xB4, 0xC5, 0xD6],
    ];
    let floats = raw.iter().map(|b| f32::from_le_bytes(*b)).collect();
    let expected = [
        0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6,
    ];
    let page = dynamic::encode(
        Encoding::ByteStreamSplit,
        &Values::Float(floats),
        ColumnType::Float,
    )
    .unwrap();
    assert_eq!(page.data, expected);
    let back = dynamic::decode(
        Encoding::ByteStreamSplit,
        ColumnType::Float,
        Bytes::copy_from_slice(&expected),
        3,
        None,
    )
    .unwrap();
    let Values::Float(back) = back else {
        panic!("floats expected")
    };
    let back: Vec<[u8; 4]> = back.iter().map(|f| f.to_le_bytes()).collect();
    assert_eq!(back, raw);
}

/// DELTA_BINARY_PACKED header for block 128 with 4 miniblocks: 128 as ULEB128, 4, count, first.
fn delta_header(count: u8, first_zigzag: u8) -> Vec<u8> {
    vec![0x80, 0x01, 0x04, count, first_zigzag]
}

#[test]
fn delta_length_byte_array_example() {
    // Lengths 5, 5, 6, 6: deltas 0, 1, 0, min delta 0, first miniblock 1 bit wide.
    let mut expected = delta_header(4, 10);
    expected.extend([0x00, 1, 0, 0, 0]);
    expected.extend([0b0000_0010, 0, 0, 0]);
    expected.extend(b"HelloWorldFoobarABCDEF");
    let values = strings(&["Hello", "World", "Foobar", "ABCDEF"]);
    both_ways(
        Encoding::DeltaLengthByteArray,
        Values::ByteArray(values),
        ColumnType::ByteArray,
        &expected,
    );
}

#[test]
fn delta_byte_array_example() {
    // Prefix lengths 0, 2, 0, 3: deltas 2, -2, 3, min delta -2 (zigzag 3), relative 4, 0, 5
    // at 3 bits.
    let mut expected = delta_header(4, 0);
    expected.extend([0x03, 3, 0, 0, 0, 0b0100_0100, 0b0000_0001]);
    expected.extend([0; 10]);
    // Suffix lengths 4, 2, 6, 5: deltas -2, 4, -1, min delta -2, relative 0, 6, 1 at 3 bits.
    expected.extend(delta_header(4, 8));
    expected.extend([0x03, 3, 0, 0, 0, 0b0111_0000, 0]);
    expected.extend([0; 10]);
    expected.extend(b"axislebabbleyhood");
    let values = strings(&["axis", "axle", "babble", "babyhood"]);
    both_ways(
        Encoding::DeltaByteArray,
        Values::ByteArray(values.clone()),
        ColumnType::ByteArray,
        &expected,
    );
    let fixed = strings(&["axis", "axle", "babb", "baby"]);
    let flba4 = ColumnType::new(PhysicalType::FixedLenByteArray, 4).unwrap();
    let page = dynamic::encode(
        Encoding::DeltaByteArray,
        &Values::FixedLenByteArray(fixed.clone()),
        flba4,
    )
    .unwrap();
    let back = dynamic::decode(
        Encoding::DeltaByteArray,
        flba4,
        Bytes::copy_from_slice(&page.data),
        4,
        None,
    );
    assert_eq!(back, Ok(Values::FixedLenByteArray(fixed)));
}
