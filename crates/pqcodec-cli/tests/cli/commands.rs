//! `pqcodec encode` / `pqcodec decode` against arrow-rs, in both directions: values arrow-rs
//! encodes are decoded by the command, and the command's bytes are decoded by arrow-rs.

use pqcodec_testkit::Rng;
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Encoding, Repetition, Type as PhysicalType};
use parquet::data_type::{
    BoolType, ByteArray, ByteArrayType, DataType, DoubleType, FixedLenByteArray,
    FixedLenByteArrayType, FloatType, Int32Type, Int64Type, Int96, Int96Type,
};
use parquet::encodings::decoding::{Decoder, DictDecoder, PlainDecoder, get_decoder};
use parquet::encodings::encoding::{DictEncoder, Encoder as _, get_encoder};
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor, ColumnPath, Type};

use crate::common::pqcodec_with_stdin;

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = pqcodec_with_stdin(args, stdin);
    assert!(
        out.status.success(),
        "pqcodec {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn descr(physical: PhysicalType, type_length: i32) -> ColumnDescPtr {
    let mut builder =
        Type::primitive_type_builder("c", physical).with_repetition(Repetition::REQUIRED);
    if physical == PhysicalType::FIXED_LEN_BYTE_ARRAY {
        builder = builder.with_length(type_length);
    }
    Arc::new(ColumnDescriptor::new(
        Arc::new(builder.build().unwrap()),
        0,
        0,
        ColumnPath::from("c"),
    ))
}

/// A value's PLAIN bytes as the commands' text shows them.
trait Text {
    fn bytes(&self) -> Vec<u8>;
}
impl Text for bool {
    fn bytes(&self) -> Vec<u8> {
        vec![u8::from(*self)]
    }
}
macro_rules! text_le {
    ($($t:ty),*) => {$(impl Text for $t { fn bytes(&self) -> Vec<u8> { self.to_le_bytes().to_vec() } })*};
}
text_le!(i32, i64, f32, f64);
impl Text for Int96 {
    fn bytes(&self) -> Vec<u8> {
        self.data().iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}
impl Text for ByteArray {
    fn bytes(&self) -> Vec<u8> {
        self.data().to_vec()
    }
}
impl Text for FixedLenByteArray {
    fn bytes(&self) -> Vec<u8> {
        self.data().to_vec()
    }
}

fn text<V: Text>(values: &[V]) -> String {
    values
        .iter()
        .map(|v| {
            v.bytes()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
                + "\n"
        })
        .collect()
}

/// Values of each type, with repeats so that dictionaries and runs show up.
fn values<T: DataType>(n: usize, make: impl Fn(u64) -> T::T) -> Vec<T::T> {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15 ^ n as u64);
    (0..n)
        .map(|_| {
            let r = rng.next_u64();
            make(if r.is_multiple_of(3) { r % 5 } else { r })
        })
        .collect()
}

/// arrow-rs encodes, pqcodec decodes; pqcodec encodes, arrow-rs decodes.
fn both_ways<T: DataType>(encoding: Encoding, type_name: &str, type_length: i32, values: &[T::T])
where
    T::T: Text,
{
    let descr = descr(T::get_physical_type(), type_length);
    let n = values.len().to_string();
    let tl = type_length.to_string();
    let name = encoding.to_string();
    let expected = text(values);
    let common = [
        "--encoding",
        name.as_str(),
        "--type",
        type_name,
        "--type-length",
        tl.as_str(),
    ];
    let dictionary = matches!(
        encoding,
        Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
    );
    let dir = std::env::temp_dir().join(format!(
        "pqcodec-cli-{}-{name}-{type_name}-{n}",
        std::process::id()
    ));
    let dict_path = dir.to_str().unwrap().to_owned();

    // arrow-rs -> pqcodec decode
    let (page, dict_page) = if dictionary {
        let mut encoder = DictEncoder::<T>::new(descr.clone());
        encoder.put(values).unwrap();
        (
            encoder.write_indices().unwrap(),
            Some(encoder.write_dict().unwrap()),
        )
    } else {
        let mut encoder = get_encoder::<T>(encoding, &descr).unwrap();
        encoder.put(values).unwrap();
        (encoder.flush_buffer().unwrap(), None)
    };
    let mut args: Vec<&str> = vec!["decode"];
    args.extend(common);
    args.extend(["--count", n.as_str()]);
    if let Some(d) = &dict_page {
        std::fs::write(&dir, d).unwrap();
        args.extend(["--dictionary", dict_path.as_str()]);
    }
    let decoded = String::from_utf8(ok(&args, &page)).unwrap();
    assert_eq!(
        decoded, expected,
        "pqcodec decode of arrow-rs {name} {type_name}"
    );

    // pqcodec encode -> arrow-rs
    let mut args: Vec<&str> = vec!["encode"];
    args.extend(common);
    if dictionary {
        args.extend(["--dictionary-out", dict_path.as_str()]);
    }
    let page = Bytes::from(ok(&args, expected.as_bytes()));
    let mut out = vec![T::T::default(); values.len()];
    let got = if dictionary {
        let mut plain = PlainDecoder::<T>::new(type_length);
        let dict = Bytes::from(std::fs::read(&dir).unwrap());
        let dict_len = if type_name == "BOOLEAN" {
            dict.len() * 8
        } else {
            count_plain(&dict, type_name, type_length)
        };
        plain.set_data(dict, dict_len).unwrap();
        let mut decoder = DictDecoder::<T>::new();
        decoder.set_dict(Box::new(plain)).unwrap();
        decoder.set_data(page, values.len()).unwrap();
        decoder.get(&mut out).unwrap()
    } else {
        let mut decoder = get_decoder::<T>(descr.clone(), encoding).unwrap();
        decoder.set_data(page, values.len()).unwrap();
        decoder.get(&mut out).unwrap()
    };
    let _ = std::fs::remove_file(&dir);
    assert_eq!(got, values.len());
    assert_eq!(
        text(&out),
        expected,
        "arrow-rs decode of pqcodec {name} {type_name}"
    );
}

/// Values in a PLAIN dictionary page.
fn count_plain(page: &[u8], type_name: &str, type_length: i32) -> usize {
    match type_name {
        "INT32" | "FLOAT" => page.len() / 4,
        "INT64" | "DOUBLE" => page.len() / 8,
        "INT96" => page.len() / 12,
        "FIXED_LEN_BYTE_ARRAY" => page.len() / type_length as usize,
        _ => {
            let (mut at, mut n) = (0, 0);
            while at < page.len() {
                at += 4 + u32::from_le_bytes(page[at..at + 4].try_into().unwrap()) as usize;
                n += 1;
            }
            n
        }
    }
}

const SIZES: [usize; 5] = [0, 1, 9, 128, 1000];

fn bytes_of(r: u64, len: usize) -> Vec<u8> {
    (0..len).map(|i| (r >> (i % 8 * 8)) as u8).collect()
}

#[test]
fn every_pair_arrow_rs_has() {
    for n in SIZES {
        for e in [Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY] {
            both_ways::<BoolType>(e, "BOOLEAN", 0, &values::<BoolType>(n, |r| r % 2 == 1));
        }
        for e in [
            Encoding::PLAIN,
            Encoding::DELTA_BINARY_PACKED,
            Encoding::BYTE_STREAM_SPLIT,
            Encoding::RLE_DICTIONARY,
        ] {
            both_ways::<Int32Type>(e, "INT32", 0, &values::<Int32Type>(n, |r| r as i32));
            both_ways::<Int64Type>(e, "INT64", 0, &values::<Int64Type>(n, |r| r as i64));
        }
        for e in [
            Encoding::PLAIN,
            Encoding::BYTE_STREAM_SPLIT,
            Encoding::RLE_DICTIONARY,
        ] {
            both_ways::<FloatType>(
                e,
                "FLOAT",
                0,
                &values::<FloatType>(n, |r| f32::from_bits(r as u32)),
            );
            both_ways::<DoubleType>(e, "DOUBLE", 0, &values::<DoubleType>(n, f64::from_bits));
        }
        for e in [Encoding::PLAIN, Encoding::RLE_DICTIONARY] {
            both_ways::<Int96Type>(
                e,
                "INT96",
                0,
                &values::<Int96Type>(n, |r| {
                    Int96::from(vec![r as u32, (r >> 32) as u32, r as u32 ^ 7])
                }),
            );
        }
        for e in [
            Encoding::PLAIN,
            Encoding::DELTA_LENGTH_BYTE_ARRAY,
            Encoding::DELTA_BYTE_ARRAY,
            Encoding::RLE_DICTIONARY,
        ] {
            both_ways::<ByteArrayType>(
                e,
                "BYTE_ARRAY",
                0,
                &values::<ByteArrayType>(n, |r| ByteArray::from(bytes_of(r, (r % 13) as usize))),
            );
        }
        for e in [
            Encoding::PLAIN,
            Encoding::DELTA_BYTE_ARRAY,
            Encoding::BYTE_STREAM_SPLIT,
            Encoding::RLE_DICTIONARY,
        ] {
            both_ways::<FixedLenByteArrayType>(
                e,
                "FIXED_LEN_BYTE_ARRAY",
                3,
                &values::<FixedLenByteArrayType>(n, |r| FixedLenByteArray::from(bytes_of(r, 3))),
            );
        }
    }
}

#[test]
fn levels_round_trip_at_every_width() {
    for width in 0..=32u32 {
        let max = if width == 32 {
            u32::MAX
        } else {
            (1u32 << width) - 1
        };
        let levels: Vec<i32> = (0..100u32)
            .map(|i| (if i % 10 < 6 { max } else { i.min(max) }) as i32)
            .collect();
        let input = text(&levels);
        let w = width.to_string();
        for encoding in ["RLE", "BIT_PACKED"] {
            let common = [
                "--encoding",
                encoding,
                "--type",
                "INT32",
                "--bit-width",
                w.as_str(),
            ];
            let bytes = ok(&[&["encode"][..], &common].concat(), input.as_bytes());
            let back = ok(
                &[&["decode", "--count", "100"][..], &common].concat(),
                &bytes,
            );
            assert_eq!(
                String::from_utf8(back).unwrap(),
                input,
                "{encoding} width {width}"
            );
        }
    }
}

#[test]
fn spec_examples_through_the_commands() {
    let input = text(&(0..8).collect::<Vec<i32>>());
    let common = ["--type", "INT32", "--bit-width", "3"];
    assert_eq!(
        ok(
            &[&["encode", "--encoding", "RLE"][..], &common].concat(),
            input.as_bytes()
        ),
        [0x03, 0x88, 0xC6, 0xFA]
    );
    assert_eq!(
        ok(
            &[&["encode", "--encoding", "BIT_PACKED"][..], &common].concat(),
            input.as_bytes()
        ),
        [0x05, 0x39, 0x77]
    );
    let floats = "aabbccdd\n00112233\na3b4c5d6\n";
    let split = ok(
        &[
            "encode",
            "--encoding",
            "BYTE_STREAM_SPLIT",
            "--type",
            "FLOAT",
        ],
        floats.as_bytes(),
    );
    assert_eq!(
        split,
        [
            0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6
        ]
    );
    let back = ok(
        &[
            "decode",
            "--encoding",
            "BYTE_STREAM_SPLIT",
            "--type",
            "FLOAT",
            "--count",
            "3",
        ],
        &split,
    );
    assert_eq!(String::from_utf8(back).unwrap(), floats);
}

/// ALP, which the parquet crate of this workspace (59) does not have: the spec's worked
/// example decoded by the command, and values encoded by the command as the library encodes
/// them and decoded back, bit for bit (NaN payloads, -0.0, infinities, subnormals included).
#[test]
fn alp_through_the_commands() {
    use pqcodec_core::{Encoder as _, Encoding as Pq};
    use pqcodec_encodings::alp::AlpEncoder;
    use pqcodec_encodings::dynamic::{self, Values};

    let nan = f64::from_bits(0x7FF8_0000_0000_0000);
    let mut page = vec![0, 0, 10, 4, 0, 0, 0, 4, 0, 0, 0, 4, 3, 1, 0];
    page.extend(3335i64.to_le_bytes());
    page.push(15);
    page.extend([0x91, 0xAD, 0xC8, 0x56, 0x28, 0x15, 0x00, 0x00, 1, 0]);
    page.extend(nan.to_bits().to_le_bytes());
    let args = [
        "decode",
        "--encoding",
        "ALP",
        "--type",
        "DOUBLE",
        "--count",
        "4",
    ];
    assert_eq!(
        String::from_utf8(ok(&args, &page)).unwrap(),
        text(&[1500.0, nan, 2500.0, 333.5])
    );

    let mut rng = Rng::new(0x5EED);
    let doubles: Vec<f64> = (0..2500)
        .map(|i| match i % 11 {
            0 => f64::from_bits(0x7FF0_0000_0000_0001 | (rng.next_u64() & 0x800F_FFFF_FFFF_FFFF)),
            1 => -0.0,
            2 => f64::NEG_INFINITY,
            3 => f64::from_bits(rng.next_u64() & 0x000F_FFFF_FFFF_FFFF),
            _ => (rng.next_u64() % 1_000_000) as f64 / 100.0,
        })
        .collect();
    let floats: Vec<f32> = doubles.iter().map(|&d| d as f32).collect();
    let cases = [
        ("DOUBLE", text(&doubles), Values::Double(doubles.clone())),
        ("FLOAT", text(&floats), Values::Float(floats.clone())),
    ];
    for (type_name, input, values) in cases {
        let common = ["--encoding", "ALP", "--type", type_name];
        let page = ok(&[&["encode"][..], &common].concat(), input.as_bytes());
        let column_type = pqcodec_core::ColumnType::new(values.physical_type(), 0).unwrap();
        let library = dynamic::encode(Pq::Alp, &values, column_type).unwrap();
        assert_eq!(page, library.data, "{type_name}");
        let n = values.len().to_string();
        let back = ok(
            &[&["decode"][..], &common, &["--count", n.as_str()]].concat(),
            &page,
        );
        assert_eq!(String::from_utf8(back).unwrap(), input, "{type_name}");
    }
    // Vectors of 8 from the library decode through the command too.
    let mut encoder = AlpEncoder::<pqcodec_core::FloatType>::with_log_vector_size(3).unwrap();
    encoder.put(&floats[..21]).unwrap();
    let page = encoder.flush().unwrap();
    let back = ok(
        &[
            "decode",
            "--encoding",
            "ALP",
            "--type",
            "FLOAT",
            "--count",
            "21",
        ],
        &page,
    );
    assert_eq!(String::from_utf8(back).unwrap(), text(&floats[..21]));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let cases: [(&[&str], &[u8]); 10] = [
        (
            &[
                "decode",
                "--encoding",
                "ALP",
                "--type",
                "DOUBLE",
                "--count",
                "1",
            ],
            &[0, 0, 10, 1, 0, 0, 0, 4, 0, 0, 0, 19, 0, 0, 0],
        ),
        (
            &[
                "decode",
                "--encoding",
                "ALP",
                "--type",
                "FLOAT",
                "--count",
                "1",
            ],
            &[1, 0, 10, 1, 0, 0, 0],
        ),
        (
            &[
                "decode",
                "--encoding",
                "ALP",
                "--type",
                "INT32",
                "--count",
                "0",
            ],
            &[0, 0, 10, 0, 0, 0, 0],
        ),
        (
            &[
                "decode",
                "--encoding",
                "PLAIN",
                "--type",
                "INT32",
                "--count",
                "3",
            ],
            &[1, 0, 0, 0],
        ),
        (
            &[
                "decode",
                "--encoding",
                "DELTA_BINARY_PACKED",
                "--type",
                "INT64",
                "--count",
                "5",
            ],
            &[0x80, 0x01, 0x00, 0x05, 0x00],
        ),
        (
            &[
                "decode",
                "--encoding",
                "RLE_DICTIONARY",
                "--type",
                "INT32",
                "--count",
                "1",
            ],
            &[1, 2, 1],
        ),
        (
            &[
                "decode",
                "--encoding",
                "DELTA_BINARY_PACKED",
                "--type",
                "DOUBLE",
                "--count",
                "1",
            ],
            &[],
        ),
        (
            &["encode", "--encoding", "PLAIN", "--type", "INT32"],
            b"0102\n",
        ),
        (
            &[
                "decode",
                "--encoding",
                "RLE",
                "--type",
                "INT32",
                "--bit-width",
                "33",
                "--count",
                "1",
            ],
            &[2, 1],
        ),
        (
            &[
                "decode",
                "--encoding",
                "PLAIN",
                "--type",
                "FIXED_LEN_BYTE_ARRAY",
                "--count",
                "1",
            ],
            &[1],
        ),
    ];
    for (args, stdin) in cases {
        let out = pqcodec_with_stdin(args, stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(stderr.starts_with("pqcodec: error:"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
