//! A registry of hand-made malformed pages, each with the error it must give (issue 5).
//!
//! Every case is data: {name, target (the values decoders picked at run time, or the RLE /
//! BIT_PACKED level decoders at a given bit width), encoding, physical type, type length,
//! num_values, page bytes, dictionary page bytes, expected error}. One runner sends each case
//! through every path that can see it:
//!
//! - the codec's run-time decoders ([`DynamicType::decoder`]), reading in batches;
//! - the same, skipping in batches (the skip paths have their own length checks);
//! - [`dynamic::decode`], the one-shot function the CLI's `decode` uses;
//! - the Arrow adapter ([`ArrayDecoder`]): the page as the only data page (after its dictionary
//!   page) of a required flat column, read in batches of 8192 rows, whose error must be
//!   [`ArrowError::Codec`] located at the column and page, its `Display` naming the column, the
//!   page, the encoding and the field.
//!
//! Each path runs on its own thread under a time limit with panics caught, so that a panic or a
//! hang is reported as that case's failure instead of taking the suite down.
//!
//! A second table holds cases only the Arrow adapter sees (levels, page headers, dictionary
//! pages, UTF-8), each with the variant, page, encoding and field its error must name.

use bytes::Bytes;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use arrow_array::Array;
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field, TimeUnit};
use pqcodec::arrow::{
    ArrayDecoder, Column, ColumnDesc, DataPageV1, DataPageV2, DictionaryPage, Error as ArrowError,
    Page,
};
use pqcodec::core::{
    Decoder, Encoder, Encoding, Error, Int32Type, PhysicalType, ValueBuffer, with_physical,
};
use pqcodec::encodings::bit_packed::BitPackedDecoder;
use pqcodec::encodings::delta_binary_packed::DeltaBinaryPackedEncoder;
use pqcodec::encodings::dynamic::{self, DynamicType, plain_value_count};
use pqcodec::encodings::plain::decode_plain_page;
use pqcodec::encodings::rle::RleDecoder;

/// A value count no small page can hold.
const HUGE: usize = 1 << 31;
/// Values read or skipped per call by the codec paths.
const BATCH: usize = 1000;
/// Rows per read through the Arrow adapter.
const ARROW_BATCH: usize = 8192;
/// Values a path decodes at most: a page that really holds more (an RLE run of 2^31 - 1
/// values is legitimate) is not read to its end.
const VALUE_LIMIT: usize = 1 << 20;
/// How long one path of one case may take (debug builds, 2 shared cores).
const TIME_LIMIT: Duration = Duration::from_secs(20);

use Encoding::{
    BitPacked, ByteStreamSplit as Bss, DeltaBinaryPacked as Dbp, DeltaByteArray as Dba,
    DeltaLengthByteArray as Dlba, GroupVarInt as Gvi, Plain, PlainDictionary, Rle, RleDictionary,
};
use PhysicalType as P;

// ---------------------------------------------------------------------------------------------
// The expected errors.

/// The error a case must give: the variant and the fields that say what was wrong.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// [`Error::Truncated`] of `encoding` in `field`, with `needed > available`.
    Truncated(Encoding, &'static str),
    /// [`Error::BitWidth`] of `encoding` in `field`: `width` over `max`.
    BitWidth(Encoding, &'static str, u32, u32),
    /// [`Error::CountTooLarge`] of `encoding` in `field`, with `count > capacity`.
    CountTooLarge(Encoding, &'static str),
    /// [`Error::DictionaryIndex`] of `encoding`: `index` into a dictionary of `len`.
    DictionaryIndex(Encoding, u64, usize),
    /// [`Error::Invalid`] of `encoding` in `field`, with a reason.
    Invalid(Encoding, &'static str),
    /// [`Error::Unsupported`]: `encoding` does not apply to the physical type.
    Unsupported(Encoding, PhysicalType),
}

impl Expect {
    fn encoding(&self) -> Encoding {
        match *self {
            Expect::Truncated(e, _)
            | Expect::BitWidth(e, ..)
            | Expect::CountTooLarge(e, _)
            | Expect::DictionaryIndex(e, ..)
            | Expect::Invalid(e, _)
            | Expect::Unsupported(e, _) => e,
        }
    }

    /// The field the error's message names, for the variants that have one.
    fn field(&self) -> Option<&'static str> {
        match *self {
            Expect::Truncated(_, f)
            | Expect::BitWidth(_, f, ..)
            | Expect::CountTooLarge(_, f)
            | Expect::Invalid(_, f) => Some(f),
            Expect::DictionaryIndex(..) | Expect::Unsupported(..) => None,
        }
    }

    /// Whether `e` is the error expected, with consistent numbers.
    fn check(&self, e: &Error) -> Result<(), String> {
        let ok = match (self, e) {
            (
                Expect::Truncated(enc, f),
                Error::Truncated {
                    encoding,
                    field,
                    needed,
                    available,
                },
            ) => enc == encoding && f == field && needed > available,
            (
                Expect::BitWidth(enc, f, w, m),
                Error::BitWidth {
                    encoding,
                    field,
                    width,
                    max,
                },
            ) => enc == encoding && f == field && w == width && m == max,
            (
                Expect::CountTooLarge(enc, f),
                Error::CountTooLarge {
                    encoding,
                    field,
                    count,
                    capacity,
                },
            ) => enc == encoding && f == field && count > capacity,
            (
                Expect::DictionaryIndex(enc, i, l),
                Error::DictionaryIndex {
                    encoding,
                    index,
                    len,
                },
            ) => enc == encoding && i == index && l == len,
            (
                Expect::Invalid(enc, f),
                Error::Invalid {
                    encoding,
                    field,
                    reason,
                },
            ) => enc == encoding && f == field && !reason.is_empty(),
            (
                Expect::Unsupported(enc, p),
                Error::Unsupported {
                    encoding, physical, ..
                },
            ) => enc == encoding && p == physical,
            _ => false,
        };
        let text = e.to_string();
        if !ok {
            return Err(format!("expected {self:?}, got {e:?} ({text})"));
        }
        // The message must say which encoding and which field.
        if !text.contains(self.encoding().name()) {
            return Err(format!(
                "message {text:?} does not name {}",
                self.encoding()
            ));
        }
        if let Some(field) = self.field()
            && !text.contains(field)
        {
            return Err(format!(
                "message {text:?} does not name the field {field:?}"
            ));
        }
        Ok(())
    }
}

/// What the skip path must give.
#[derive(Debug, Clone, PartialEq)]
enum SkipExpect {
    /// The same error as reads.
    Same,
    /// Skipping does not look at what is wrong (documented: dictionary indices are not
    /// checked when skipped): it must end without a panic, with `Ok` or the read error.
    Undetected,
}

/// Which decoder a case is for.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    /// The values decoder [`DynamicType::decoder`] picks for (encoding, physical type).
    Values,
    /// [`RleDecoder`] over `<encoded-data>` at a bit width (levels, indices).
    RleLevels(u32),
    /// [`BitPackedDecoder`] at a bit width (deprecated levels).
    BitPackedLevels(u32),
}

/// One malformed page and the error it must give.
#[derive(Debug, Clone)]
struct Case {
    name: String,
    target: Target,
    encoding: Encoding,
    physical: PhysicalType,
    type_length: usize,
    num_values: usize,
    bytes: Vec<u8>,
    /// The dictionary page's PLAIN bytes, for the dictionary encodings.
    dictionary: Option<Vec<u8>>,
    expect: Expect,
    skip: SkipExpect,
    /// Whether the case also goes through the Arrow adapter.
    arrow: bool,
}

/// A case of the values decoders; builder methods below set the rest.
fn case(
    name: impl Into<String>,
    encoding: Encoding,
    physical: PhysicalType,
    num_values: usize,
    bytes: Vec<u8>,
    expect: Expect,
) -> Case {
    Case {
        name: name.into(),
        target: Target::Values,
        encoding,
        physical,
        type_length: if physical == P::FixedLenByteArray {
            4
        } else {
            0
        },
        num_values,
        bytes,
        dictionary: None,
        expect,
        skip: SkipExpect::Same,
        arrow: true,
    }
}

impl Case {
    fn type_length(mut self, n: usize) -> Self {
        self.type_length = n;
        self
    }
    fn dictionary(mut self, d: Vec<u8>) -> Self {
        self.dictionary = Some(d);
        self
    }
    fn skip(mut self, s: SkipExpect) -> Self {
        self.skip = s;
        self
    }
    fn no_arrow(mut self) -> Self {
        self.arrow = false;
        self
    }
    fn target(mut self, t: Target) -> Self {
        self.target = t;
        self.arrow = false;
        self
    }
}

// ---------------------------------------------------------------------------------------------
// Byte builders.

fn uleb(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// A DELTA_BINARY_PACKED header.
fn dbp_header(block: u64, miniblocks: u64, total: u64, first: i64) -> Vec<u8> {
    let mut out = uleb(block);
    out.extend(uleb(miniblocks));
    out.extend(uleb(total));
    out.extend(uleb(zigzag(first)));
    out
}

/// `values` as DELTA_BINARY_PACKED INT32, by the codec's own encoder.
fn dbp32(values: &[i32]) -> Vec<u8> {
    let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::new();
    enc.put(values).unwrap();
    enc.flush().unwrap()
}

/// A DELTA_LENGTH_BYTE_ARRAY page: `lengths` as DELTA_BINARY_PACKED, then `data`.
fn dlba(lengths: &[i32], data: &[u8]) -> Vec<u8> {
    let mut out = dbp32(lengths);
    out.extend_from_slice(data);
    out
}

/// A DELTA_BYTE_ARRAY page: prefix lengths, then the suffixes as DELTA_LENGTH_BYTE_ARRAY.
fn dba(prefixes: &[i32], suffix_lengths: &[i32], data: &[u8]) -> Vec<u8> {
    let mut out = dbp32(prefixes);
    out.extend(dlba(suffix_lengths, data));
    out
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// The width of one PLAIN value in bytes (BOOLEAN: 1, a byte of 8; BYTE_ARRAY: a length + 1).
fn plain_values(physical: PhysicalType, type_length: usize, count: usize) -> Vec<u8> {
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
fn dictionary_len(physical: PhysicalType, bytes: &[u8], type_length: usize) -> usize {
    plain_value_count(physical, bytes, type_length).unwrap()
}

const ALL_TYPES: [PhysicalType; 8] = [
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
fn applies(encoding: Encoding, physical: PhysicalType) -> bool {
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

fn lower(p: PhysicalType) -> String {
    p.name().to_ascii_lowercase()
}

// ---------------------------------------------------------------------------------------------
// The registry.

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    plain_cases(&mut v);
    group_var_int_cases(&mut v);
    rle_cases(&mut v);
    bit_packed_cases(&mut v);
    dictionary_cases(&mut v);
    delta_binary_packed_cases(&mut v);
    delta_length_byte_array_cases(&mut v);
    delta_byte_array_cases(&mut v);
    byte_stream_split_cases(&mut v);
    alp_cases(&mut v);
    unsupported_cases(&mut v);
    v
}

fn plain_cases(v: &mut Vec<Case>) {
    for p in ALL_TYPES {
        let t = lower(p);
        // 2^31 values claimed in a page of ~100 bytes: refused before anything is read.
        v.push(case(
            format!("plain/{t}/2^31 values in a 100-byte page"),
            Plain,
            p,
            HUGE,
            plain_values(p, 4, 20).into_iter().take(100).collect(),
            Expect::CountTooLarge(Plain, "num_values"),
        ));
    }
    // Truncated pages: the last value cut short.
    for p in [
        P::Int32,
        P::Int64,
        P::Int96,
        P::Float,
        P::Double,
        P::FixedLenByteArray,
    ] {
        let mut bytes = plain_values(p, 4, 10);
        bytes.pop();
        v.push(case(
            format!("plain/{}/truncated: last value one byte short", lower(p)),
            Plain,
            p,
            10,
            bytes,
            Expect::CountTooLarge(Plain, "num_values"),
        ));
    }
    v.push(case(
        "plain/boolean/truncated: 9 values in one byte",
        Plain,
        P::Boolean,
        9,
        vec![0xFF],
        Expect::CountTooLarge(Plain, "num_values"),
    ));
    v.push(case(
        "plain/byte_array/truncated: value bytes cut",
        Plain,
        P::ByteArray,
        2,
        cat(&[&[1, 0, 0, 0, b'a'], &[5, 0, 0, 0, b'b', b'c']]),
        Expect::Truncated(Plain, "byte array value"),
    ));
    v.push(case(
        "plain/byte_array/truncated: length cut",
        Plain,
        P::ByteArray,
        3,
        cat(&[&[1, 0, 0, 0, b'a'], &[1, 0, 0, 0, b'b'], &[0, 0]]),
        Expect::Truncated(Plain, "byte array length"),
    ));
    v.push(case(
        "plain/byte_array/negative length (-1 read as 2^32-1)",
        Plain,
        P::ByteArray,
        1,
        vec![0xFF, 0xFF, 0xFF, 0xFF, b'x', b'y', b'z', b'w'],
        Expect::Truncated(Plain, "byte array value"),
    ));
    v.push(case(
        "plain/byte_array/length 2^31 in an 8-byte page",
        Plain,
        P::ByteArray,
        2,
        vec![0, 0, 0, 0x80, 0, 0, 0, 0],
        Expect::Truncated(Plain, "byte array value"),
    ));
    v.push(
        case(
            "plain/fixed_len_byte_array/type length 0",
            Plain,
            P::FixedLenByteArray,
            3,
            vec![1, 2, 3],
            Expect::Invalid(Plain, "type_length"),
        )
        .type_length(0)
        .no_arrow(),
    );
    v.push(
        case(
            "plain/fixed_len_byte_array/wrong type length: 10 bytes of 3 values of 4",
            Plain,
            P::FixedLenByteArray,
            3,
            (0..10).collect(),
            Expect::CountTooLarge(Plain, "num_values"),
        )
        .type_length(4),
    );
}

fn group_var_int_cases(v: &mut Vec<Case>) {
    for p in [P::Int32, P::Int64] {
        let t = lower(p);
        v.push(case(
            format!("group_var_int/{t}/2^31 values in a 100-byte page"),
            Gvi,
            p,
            HUGE,
            vec![0; 100],
            Expect::CountTooLarge(Gvi, "num_values"),
        ));
    }
    // Lengths byte 0xFF: four 4-byte values (17 bytes), but only 5 bytes.
    v.push(case(
        "group_var_int/int32/group values truncated",
        Gvi,
        P::Int32,
        4,
        vec![0xFF, 1, 2, 3, 4],
        Expect::Truncated(Gvi, "group values"),
    ));
    // Lengths 0x7FFF: five 8-byte values (42 bytes), but only 7 bytes.
    v.push(case(
        "group_var_int/int64/group values truncated",
        Gvi,
        P::Int64,
        5,
        vec![0x7F, 0xFF, 1, 2, 3, 4, 5],
        Expect::Truncated(Gvi, "group values"),
    ));
    // First group of 5 + 4 * 2 bytes; the second group's lengths byte is missing.
    v.push(case(
        "group_var_int/int32/second group's values missing",
        Gvi,
        P::Int32,
        8,
        cat(&[&[0b0001_0101], &[1, 2, 2, 3, 3, 4, 4, 5], &[0]]),
        Expect::Truncated(Gvi, "group values"),
    ));
    // First group: lengths 3, 2, 2, 2, 2 (13 bytes), then one byte of the next 2-byte header.
    v.push(case(
        "group_var_int/int64/second group's lengths cut",
        Gvi,
        P::Int64,
        10,
        cat(&[&[0x22, 0x49], &[0; 11], &[0]]),
        Expect::Truncated(Gvi, "group lengths"),
    ));
}

fn rle_cases(v: &mut Vec<Case>) {
    let b = P::Boolean;
    v.push(case(
        "rle/boolean/length prefix truncated",
        Rle,
        b,
        1,
        vec![1, 0],
        Expect::Truncated(Rle, "length"),
    ));
    v.push(case(
        "rle/boolean/length prefix past the end",
        Rle,
        b,
        1,
        vec![10, 0, 0, 0, 0x02, 1],
        Expect::Truncated(Rle, "encoded data"),
    ));
    v.push(case(
        "rle/boolean/length prefix 2^32-1",
        Rle,
        b,
        1,
        vec![0xFF, 0xFF, 0xFF, 0xFF, 0x02, 1],
        Expect::Truncated(Rle, "encoded data"),
    ));
    // 2^31 values claimed; the data holds one run of 8, then zeros (a run of 0).
    let mut bytes = vec![96, 0, 0, 0, 0x10, 0x01];
    bytes.resize(100, 0);
    v.push(case(
        "rle/boolean/2^31 values in a 100-byte page",
        Rle,
        b,
        HUGE,
        bytes,
        Expect::Invalid(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/data ends before num_values",
        Rle,
        b,
        20,
        vec![2, 0, 0, 0, 0x10, 0x01],
        Expect::Truncated(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/run of 0 values",
        Rle,
        b,
        1,
        vec![1, 0, 0, 0, 0x00],
        Expect::Invalid(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/run of 2^31 values",
        Rle,
        b,
        1,
        cat(&[&[6, 0, 0, 0], &uleb(1 << 32), &[1]]),
        Expect::Invalid(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/run header varint over 64 bits",
        Rle,
        b,
        1,
        cat(&[&[11, 0, 0, 0], &[0xFF; 11]]),
        Expect::Invalid(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/run header varint unterminated",
        Rle,
        b,
        1,
        vec![2, 0, 0, 0, 0x80, 0x80],
        Expect::Truncated(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/repeated value 2 at bit width 1",
        Rle,
        b,
        1,
        vec![2, 0, 0, 0, 0x02, 0x02],
        Expect::Invalid(Rle, "repeated value"),
    ));
    v.push(case(
        "rle/boolean/repeated value missing",
        Rle,
        b,
        1,
        vec![1, 0, 0, 0, 0x02],
        Expect::Truncated(Rle, "repeated value"),
    ));
    // Two groups (16 values) declared, one byte present: the first 8 values are there.
    v.push(case(
        "rle/boolean/bit-packed run truncated",
        Rle,
        b,
        16,
        vec![2, 0, 0, 0, 0x05, 0xFF],
        Expect::Truncated(Rle, "bit-packed run"),
    ));

    // Levels and indices at a caller-given bit width.
    for width in [33, 65, 255] {
        v.push(
            case(
                format!("rle/levels/bit width {width}"),
                Rle,
                P::Int32,
                8,
                vec![0x10, 1, 0, 0, 0, 0],
                Expect::BitWidth(Rle, "bit width", width, 32),
            )
            .target(Target::RleLevels(width)),
        );
    }
    v.push(
        case(
            "rle/levels/2^31 levels in a 100-byte page",
            Rle,
            P::Int32,
            HUGE,
            [&[0x03u8, 0xFF, 0xFF, 0xFF][..], &[0u8; 96]].concat(),
            Expect::Invalid(Rle, "run header"),
        )
        .target(Target::RleLevels(3)),
    );
    v.push(
        case(
            "rle/levels/repeated value over the bit width (5 at width 2)",
            Rle,
            P::Int32,
            4,
            vec![0x08, 0x05],
            Expect::Invalid(Rle, "repeated value"),
        )
        .target(Target::RleLevels(2)),
    );
    v.push(
        case(
            "rle/levels/repeated value cut at width 32",
            Rle,
            P::Int32,
            4,
            vec![0x08, 0, 0, 0],
            Expect::Truncated(Rle, "repeated value"),
        )
        .target(Target::RleLevels(32)),
    );
    v.push(
        case(
            "rle/levels/bit width 0, run header past the data",
            Rle,
            P::Int32,
            HUGE,
            vec![0x10],
            Expect::Truncated(Rle, "run header"),
        )
        .target(Target::RleLevels(0)),
    );
}

fn bit_packed_cases(v: &mut Vec<Case>) {
    for width in [33, 65] {
        v.push(
            case(
                format!("bit_packed/levels/bit width {width}"),
                BitPacked,
                P::Int32,
                8,
                vec![0; 40],
                Expect::BitWidth(BitPacked, "bit width", width, 32),
            )
            .target(Target::BitPackedLevels(width)),
        );
    }
    v.push(
        case(
            "bit_packed/levels/truncated: 8 values of 3 bits in 2 bytes",
            BitPacked,
            P::Int32,
            8,
            vec![0, 0],
            Expect::Truncated(BitPacked, "values"),
        )
        .target(Target::BitPackedLevels(3)),
    );
    v.push(
        case(
            "bit_packed/levels/2^31 levels in a 100-byte page",
            BitPacked,
            P::Int32,
            HUGE,
            vec![0; 100],
            Expect::Truncated(BitPacked, "values"),
        )
        .target(Target::BitPackedLevels(1)),
    );
    v.push(
        case(
            "bit_packed/levels/usize::MAX levels at width 32",
            BitPacked,
            P::Int32,
            usize::MAX,
            vec![0; 100],
            Expect::Truncated(BitPacked, "values"),
        )
        .target(Target::BitPackedLevels(32)),
    );
}

fn dictionary_cases(v: &mut Vec<Case>) {
    for p in ALL_TYPES {
        let t = lower(p);
        let dict = plain_values(p, 4, 2);
        let len = dictionary_len(p, &dict, 4);
        // An RLE run of index `len` (one past the end) at a width that holds it.
        let width = 64 - (len as u64).leading_zeros();
        let width_bytes = width.div_ceil(8) as usize;
        let mut index = vec![width as u8, 0x06];
        index.extend_from_slice(&(len as u32).to_le_bytes()[..width_bytes]);
        v.push(
            case(
                format!("rle_dictionary/{t}/index out of range (RLE run)"),
                RleDictionary,
                p,
                3,
                index,
                Expect::DictionaryIndex(RleDictionary, len as u64, len),
            )
            .dictionary(dict.clone())
            .skip(SkipExpect::Undetected),
        );
        // A bit-packed group of 8 indices 0, the sixth one past the end.
        let mut packed = [0u32; 8];
        packed[5] = len as u32;
        let mut bits = 0u64;
        for (i, &x) in packed.iter().enumerate() {
            bits |= u64::from(x) << (i as u32 * width);
        }
        let mut index = vec![width as u8, 0x03];
        index.extend_from_slice(&bits.to_le_bytes()[..width as usize]);
        v.push(
            case(
                format!("rle_dictionary/{t}/index out of range (bit-packed)"),
                RleDictionary,
                p,
                8,
                index,
                Expect::DictionaryIndex(RleDictionary, len as u64, len),
            )
            .dictionary(dict.clone())
            .skip(SkipExpect::Undetected),
        );
        for width in [33u8, 65] {
            v.push(
                case(
                    format!("rle_dictionary/{t}/index bit width {width}"),
                    RleDictionary,
                    p,
                    3,
                    vec![width, 0x06, 0, 0, 0, 0, 0],
                    Expect::BitWidth(RleDictionary, "bit width", u32::from(width), 32),
                )
                .dictionary(dict.clone()),
            );
        }
        v.push(
            case(
                format!("rle_dictionary/{t}/bit width byte missing"),
                RleDictionary,
                p,
                1,
                vec![],
                Expect::Truncated(RleDictionary, "bit width"),
            )
            .dictionary(dict.clone()),
        );
        let mut hostile = vec![1u8, 0x10, 0x00];
        hostile.resize(100, 0);
        v.push(
            case(
                format!("rle_dictionary/{t}/2^31 indices in a 100-byte page"),
                RleDictionary,
                p,
                HUGE,
                hostile,
                Expect::Invalid(RleDictionary, "run header"),
            )
            .dictionary(dict.clone()),
        );
        v.push(
            case(
                format!("rle_dictionary/{t}/indices end before num_values"),
                RleDictionary,
                p,
                20,
                vec![1, 0x10, 0x00],
                Expect::Truncated(RleDictionary, "run header"),
            )
            .dictionary(dict.clone()),
        );
        v.push(
            case(
                format!("rle_dictionary/{t}/no dictionary page"),
                RleDictionary,
                p,
                2,
                vec![1, 0x04, 0x00],
                Expect::Invalid(RleDictionary, "dictionary page"),
            )
            // The Arrow adapter reports a missing dictionary as its own Corrupt error.
            .no_arrow(),
        );
        v.push(
            case(
                format!("rle_dictionary/{t}/empty dictionary, index 0"),
                RleDictionary,
                p,
                2,
                vec![0, 0x04],
                Expect::DictionaryIndex(RleDictionary, 0, 0),
            )
            .dictionary(vec![])
            .skip(SkipExpect::Undetected),
        );
        v.push(
            case(
                format!("plain_dictionary/{t}/no dictionary page"),
                PlainDictionary,
                p,
                2,
                vec![1, 0x04, 0x00],
                Expect::Invalid(PlainDictionary, "dictionary page"),
            )
            .no_arrow(),
        );
    }
    let dict = plain_values(P::Int32, 0, 2);
    v.push(
        case(
            "plain_dictionary/int32/index out of range names PLAIN_DICTIONARY",
            PlainDictionary,
            P::Int32,
            3,
            vec![2, 0x06, 2],
            Expect::DictionaryIndex(PlainDictionary, 2, 2),
        )
        .dictionary(dict.clone())
        .skip(SkipExpect::Undetected),
    );
    v.push(
        case(
            "plain_dictionary/int32/bit width 33 names PLAIN_DICTIONARY",
            PlainDictionary,
            P::Int32,
            3,
            vec![33, 0x06, 0, 0, 0, 0, 0],
            Expect::BitWidth(PlainDictionary, "bit width", 33, 32),
        )
        .dictionary(dict.clone()),
    );
    v.push(
        case(
            "rle_dictionary/int32/dictionary page not whole values",
            RleDictionary,
            P::Int32,
            2,
            vec![1, 0x04, 0x00],
            Expect::Invalid(Plain, "page length"),
        )
        .dictionary(vec![1, 0, 0, 0, 2, 0])
        // The Arrow adapter takes the dictionary's count from its page header.
        .no_arrow(),
    );
}

fn delta_binary_packed_cases(v: &mut Vec<Case>) {
    for p in [P::Int32, P::Int64] {
        let t = lower(p);
        let bits = if p == P::Int32 { 32 } else { 64 };
        let e = |name: &str, num: usize, bytes: Vec<u8>, expect: Expect| {
            case(
                format!("delta_binary_packed/{t}/{name}"),
                Dbp,
                p,
                num,
                bytes,
                expect,
            )
        };
        v.push(e(
            "block size 100, not a multiple of 128",
            3,
            dbp_header(100, 4, 3, 0),
            Expect::Invalid(Dbp, "block size"),
        ));
        v.push(e(
            "block size 0",
            3,
            dbp_header(0, 1, 3, 0),
            Expect::Invalid(Dbp, "block size"),
        ));
        v.push(e(
            "block size 2^63 + 128 in one miniblock, its bytes missing",
            3,
            cat(&[&dbp_header((1 << 63) + 128, 1, 3, 0), &[0, 1]]),
            Expect::Truncated(Dbp, "miniblock"),
        ));
        v.push(e(
            "zero miniblocks",
            3,
            dbp_header(128, 0, 3, 0),
            Expect::Invalid(Dbp, "miniblock count"),
        ));
        v.push(e(
            "3 miniblocks in a block of 128",
            3,
            dbp_header(128, 3, 3, 0),
            Expect::Invalid(Dbp, "miniblock count"),
        ));
        v.push(e(
            "miniblocks of 16 values",
            3,
            dbp_header(128, 8, 3, 0),
            Expect::Invalid(Dbp, "miniblock size"),
        ));
        v.push(e(
            "header holds fewer values than num_values",
            10,
            cat(&[&dbp_header(128, 4, 5, 0), &[0, 0, 0, 0, 0]]),
            Expect::CountTooLarge(Dbp, "total value count"),
        ));
        v.push(e(
            "2^31 values claimed by page and header, 100 bytes",
            HUGE,
            {
                let mut b = dbp_header(128, 4, HUGE as u64, 7);
                // Blocks of min delta 0 and four miniblocks of width 0: 5 bytes per 128 values.
                b.resize(100, 0);
                b
            },
            Expect::Truncated(Dbp, "miniblock bit widths"),
        ));
        v.push(e(
            "header only: block header missing",
            3,
            dbp_header(128, 4, 3, 0),
            Expect::Truncated(Dbp, "min delta"),
        ));
        v.push(e(
            "block size varint unterminated",
            3,
            vec![0x80, 0x80],
            Expect::Truncated(Dbp, "block size"),
        ));
        v.push(e(
            "min delta varint over 64 bits",
            3,
            cat(&[&dbp_header(128, 4, 3, 0), &[0xFF; 11]]),
            Expect::Invalid(Dbp, "min delta"),
        ));
        v.push(e(
            &format!("miniblock bit width {}", bits + 1),
            3,
            cat(&[
                &dbp_header(128, 4, 3, 0),
                &[0, bits as u8 + 1, 0, 0, 0],
                &[0; 40],
            ]),
            Expect::BitWidth(Dbp, "miniblock bit width", bits + 1, bits),
        ));
        v.push(e(
            "miniblock bit width 255",
            3,
            cat(&[&dbp_header(128, 4, 3, 0), &[0, 255, 0, 0, 0], &[0; 40]]),
            Expect::BitWidth(Dbp, "miniblock bit width", 255, bits),
        ));
        v.push(e(
            "miniblock truncated",
            20,
            cat(&[&dbp_header(128, 4, 20, 0), &[0, 8, 0, 0, 0], &[1, 2, 3]]),
            Expect::Truncated(Dbp, "miniblock"),
        ));
    }
}

fn delta_length_byte_array_cases(v: &mut Vec<Case>) {
    let e = |name: &str, num: usize, bytes: Vec<u8>, expect: Expect| {
        case(
            format!("delta_length_byte_array/byte_array/{name}"),
            Dlba,
            P::ByteArray,
            num,
            bytes,
            expect,
        )
    };
    v.push(e(
        "negative length",
        2,
        dlba(&[1, -1], b"abc"),
        Expect::Invalid(Dlba, "length"),
    ));
    v.push(e(
        "length i32::MIN",
        2,
        dlba(&[1, i32::MIN], b"abc"),
        Expect::Invalid(Dlba, "length"),
    ));
    v.push(e(
        "lengths longer than the data",
        2,
        dlba(&[5, 5], b"abc"),
        Expect::Truncated(Dlba, "byte array data"),
    ));
    v.push(e(
        "lengths i32::MAX twice (sum overflows i32)",
        2,
        dlba(&[i32::MAX, i32::MAX], b"abc"),
        Expect::Truncated(Dlba, "byte array data"),
    ));
    v.push(e(
        "2^31 values, header holds 2",
        HUGE,
        dlba(&[1, 1], b"ab"),
        Expect::CountTooLarge(Dlba, "length count"),
    ));
    v.push(e(
        "2^31 values claimed by page and header, 100 bytes",
        HUGE,
        {
            let mut b = dbp_header(128, 4, HUGE as u64, 1);
            b.resize(100, 0);
            b
        },
        Expect::Truncated(Dlba, "miniblock bit widths"),
    ));
    v.push(e(
        "block size 200",
        2,
        cat(&[&dbp_header(200, 4, 2, 1), &[0, 0, 0, 0, 0], b"ab"]),
        Expect::Invalid(Dlba, "block size"),
    ));
    v.push(e(
        "zero miniblocks",
        2,
        cat(&[&dbp_header(128, 0, 2, 1), b"ab"]),
        Expect::Invalid(Dlba, "miniblock count"),
    ));
    v.push(e(
        "lengths miniblock bit width 33",
        2,
        cat(&[&dbp_header(128, 4, 2, 1), &[0, 33, 0, 0, 0], &[0; 40]]),
        Expect::BitWidth(Dlba, "miniblock bit width", 33, 32),
    ));
    v.push(e(
        "lengths' blocks run past the data",
        2,
        cat(&[&dbp_header(128, 4, 2, 1), &[0, 8, 0, 0, 0]]),
        Expect::Truncated(Dlba, "miniblock"),
    ));
}

fn delta_byte_array_cases(v: &mut Vec<Case>) {
    for p in [P::ByteArray, P::FixedLenByteArray] {
        let t = lower(p);
        let e = |name: &str, num: usize, bytes: Vec<u8>, expect: Expect| {
            case(
                format!("delta_byte_array/{t}/{name}"),
                Dba,
                p,
                num,
                bytes,
                expect,
            )
            .type_length(4)
        };
        v.push(e(
            "prefix longer than the previous value",
            2,
            dba(&[0, 5], &[4, 0], b"abcd"),
            Expect::Invalid(Dba, "prefix length"),
        ));
        v.push(e(
            "first prefix not 0",
            1,
            dba(&[3], &[4], b"abcd"),
            Expect::Invalid(Dba, "prefix length"),
        ));
        v.push(e(
            "negative prefix",
            2,
            dba(&[0, -1], &[4, 4], b"abcdefgh"),
            Expect::Invalid(Dba, "prefix length"),
        ));
        v.push(e(
            "prefix i32::MIN",
            2,
            dba(&[0, i32::MIN], &[4, 4], b"abcdefgh"),
            Expect::Invalid(Dba, "prefix length"),
        ));
        v.push(e(
            "negative suffix length",
            2,
            dba(&[0, 2], &[4, -2], b"abcdefgh"),
            Expect::Invalid(Dba, "length"),
        ));
        v.push(e(
            "suffix data truncated",
            2,
            dba(&[0, 2], &[4, 2], b"abcde"),
            Expect::Truncated(Dba, "byte array data"),
        ));
        v.push(e(
            "2^31 values, header holds 2",
            HUGE,
            dba(&[0, 2], &[4, 2], b"abcdef"),
            Expect::CountTooLarge(Dba, "prefix length count"),
        ));
        v.push(e(
            "fewer suffixes than prefixes",
            3,
            dba(&[0, 2, 2], &[4, 2], b"abcdef"),
            Expect::CountTooLarge(Dba, "suffix count"),
        ));
        v.push(e(
            "2^31 values claimed by page and header, 100 bytes",
            HUGE,
            {
                let mut b = dbp_header(128, 4, HUGE as u64, 0);
                b.resize(100, 0);
                b
            },
            Expect::Truncated(Dba, "miniblock bit widths"),
        ));
        v.push(e(
            "zero miniblocks in the prefix lengths",
            2,
            cat(&[&dbp_header(128, 0, 2, 0), &dlba(&[4, 4], b"abcdefgh")]),
            Expect::Invalid(Dba, "miniblock count"),
        ));
        v.push(e(
            "suffix lengths' block size 64",
            2,
            cat(&[
                &dbp32(&[0, 2]),
                &dbp_header(64, 2, 2, 4),
                &[0, 0, 0],
                b"abcdab",
            ]),
            Expect::Invalid(Dba, "block size"),
        ));
    }
    v.push(
        case(
            "delta_byte_array/fixed_len_byte_array/values of 3 bytes, type length 4",
            Dba,
            P::FixedLenByteArray,
            2,
            dba(&[0, 1], &[3, 2], b"abcde"),
            Expect::Invalid(Dba, "value length"),
        )
        .type_length(4),
    );
    v.push(
        case(
            "delta_byte_array/fixed_len_byte_array/second value 5 bytes, type length 4",
            Dba,
            P::FixedLenByteArray,
            2,
            dba(&[0, 4], &[4, 1], b"abcde"),
            Expect::Invalid(Dba, "value length"),
        )
        .type_length(4),
    );
    v.push(
        case(
            "delta_byte_array/fixed_len_byte_array/type length 0",
            Dba,
            P::FixedLenByteArray,
            2,
            dba(&[0, 1], &[3, 2], b"abcde"),
            Expect::Invalid(Dba, "type_length"),
        )
        .type_length(0)
        .no_arrow(),
    );
}

fn byte_stream_split_cases(v: &mut Vec<Case>) {
    for p in [
        P::Int32,
        P::Int64,
        P::Float,
        P::Double,
        P::FixedLenByteArray,
    ] {
        let t = lower(p);
        let width = match p {
            P::Int32 | P::Float | P::FixedLenByteArray => 4,
            _ => 8,
        };
        v.push(case(
            format!("byte_stream_split/{t}/page length not a multiple of the width"),
            Bss,
            p,
            1,
            vec![0; width * 3 - 1],
            Expect::Invalid(Bss, "page length"),
        ));
        v.push(case(
            format!("byte_stream_split/{t}/2^31 values in a 96-byte page"),
            Bss,
            p,
            HUGE,
            vec![0; 96],
            Expect::CountTooLarge(Bss, "num_values"),
        ));
        v.push(case(
            format!("byte_stream_split/{t}/one value more than the streams hold"),
            Bss,
            p,
            4,
            vec![0; width * 3],
            Expect::CountTooLarge(Bss, "num_values"),
        ));
    }
    v.push(
        case(
            "byte_stream_split/fixed_len_byte_array/type length 0",
            Bss,
            P::FixedLenByteArray,
            1,
            vec![1, 2, 3],
            Expect::Invalid(Bss, "type_length"),
        )
        .type_length(0)
        .no_arrow(),
    );
    v.push(
        case(
            "byte_stream_split/fixed_len_byte_array/wrong type length: 10 bytes of width 3",
            Bss,
            P::FixedLenByteArray,
            3,
            vec![0; 10],
            Expect::Invalid(Bss, "page length"),
        )
        .type_length(3),
    );
}

fn alp_cases(v: &mut Vec<Case>) {
    let alp = Encoding::Alp;
    let page = |header: [u8; 7]| {
        let mut bytes = header.to_vec();
        bytes.resize(96, 0);
        bytes
    };
    for p in [P::Float, P::Double] {
        let t = lower(p);
        v.push(case(
            format!("alp/{t}/2^31 values in a page whose header holds 4"),
            alp,
            p,
            HUGE,
            page([0, 0, 10, 4, 0, 0, 0]),
            Expect::CountTooLarge(alp, "num_elements"),
        ));
        v.push(case(
            format!("alp/{t}/compression mode 1"),
            alp,
            p,
            4,
            page([1, 0, 10, 4, 0, 0, 0]),
            Expect::Invalid(alp, "compression_mode"),
        ));
        v.push(case(
            format!("alp/{t}/log vector size 2"),
            alp,
            p,
            4,
            page([0, 0, 2, 4, 0, 0, 0]),
            Expect::Invalid(alp, "log_vector_size"),
        ));
        v.push(case(
            format!("alp/{t}/2^31 - 1 elements: the offset array past the page"),
            alp,
            p,
            4,
            page([0, 0, 10, 0xFF, 0xFF, 0xFF, 0x7F]),
            Expect::Truncated(alp, "offset array"),
        ));
    }
}

/// Every (encoding, physical type) pair that does not apply: a typed error, never a panic.
fn unsupported_cases(v: &mut Vec<Case>) {
    for e in Encoding::ALL {
        for p in ALL_TYPES {
            if applies(e, p) {
                continue;
            }
            v.push(case(
                format!(
                    "{}/{}/does not apply",
                    e.name().to_ascii_lowercase(),
                    lower(p)
                ),
                e,
                p,
                2,
                vec![0; 64],
                Expect::Unsupported(e, p),
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The runner.

/// Runs `f` on its own thread with panics caught and a time limit.
fn guarded(
    what: &str,
    f: impl FnOnce() -> Result<(), String> + Send + 'static,
) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::Builder::new()
        .name(what.to_owned())
        .spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown payload".into());
                Err(format!("PANIC: {msg}"))
            });
            let _ = tx.send(result);
        })
        .map_err(|e| format!("spawning: {e}"))?;
    match rx.recv_timeout(TIME_LIMIT) {
        Ok(result) => result,
        Err(_) => Err(format!(
            "HANG: no answer after {:?} (still running)",
            start.elapsed()
        )),
    }
}

/// The decoded dictionary of a case, as [`dynamic::decode`] decodes it.
fn dictionary_of<T: DynamicType>(case: &Case) -> Result<Option<T::Buffer>, Error> {
    match &case.dictionary {
        Some(bytes) => {
            let count = plain_value_count(T::TYPE, bytes, case.type_length)?;
            Ok(Some(decode_plain_page::<T>(
                bytes,
                count,
                case.type_length,
            )?))
        }
        None => Ok(None),
    }
}

/// Reads (or skips) every value of the case's page in batches; `Ok` means no error came.
fn drain<T: DynamicType>(case: &Case, skip: bool) -> Result<usize, Error> {
    let dictionary = dictionary_of::<T>(case)?;
    let mut decoder = T::decoder(
        case.encoding,
        Bytes::copy_from_slice(&case.bytes),
        case.num_values,
        case.type_length,
        dictionary.map(Arc::new),
    )?;
    let mut out = T::Buffer::default();
    let mut total = 0usize;
    loop {
        let n = if skip {
            decoder.skip(BATCH)?
        } else {
            out.clear();
            let n = decoder.read(&mut out, BATCH)?;
            assert_eq!(n, out.len(), "read returned {n} but appended {}", out.len());
            n
        };
        if n == 0 {
            return Ok(total);
        }
        total += n;
        if total >= VALUE_LIMIT {
            return Ok(total);
        }
    }
}

/// The codec paths of a values case: reads, skips, and [`dynamic::decode`].
fn run_values<T: DynamicType>(case: &Case) -> Result<(), String> {
    let read = drain::<T>(case, false);
    let expect_read = |r: Result<usize, Error>, path: &str| match r {
        Ok(n) => Err(format!(
            "{path}: no error ({n} of {} values decoded)",
            case.num_values
        )),
        Err(e) => case.expect.check(&e).map_err(|m| format!("{path}: {m}")),
    };
    expect_read(read, "read")?;
    let skipped = drain::<T>(case, true);
    match &case.skip {
        SkipExpect::Same => expect_read(skipped, "skip")?,
        SkipExpect::Undetected => {
            if let Err(e) = skipped {
                case.expect.check(&e).map_err(|m| format!("skip: {m}"))?;
            }
        }
    }
    // The one-shot decode allocates for `num_values` only as the bytes allow.
    let whole = dynamic::decode(
        case.encoding,
        case.physical,
        Bytes::copy_from_slice(&case.bytes),
        case.num_values,
        case.type_length,
        case.dictionary.as_deref(),
    );
    match whole {
        Ok(values) => Err(format!(
            "dynamic::decode: no error ({} values)",
            values.len()
        )),
        Err(e) => case
            .expect
            .check(&e)
            .map_err(|m| format!("dynamic::decode: {m}")),
    }
}

/// A levels case: reads, then skips, in batches.
fn run_levels(case: &Case) -> Result<(), String> {
    let paths: [(&str, bool); 2] = [("read", false), ("skip", true)];
    for (path, skip) in paths {
        let result: Result<usize, Error> = (|| {
            let mut out: Vec<u32> = Vec::new();
            let mut total = 0;
            match case.target {
                Target::RleLevels(width) => {
                    let mut d = RleDecoder::new(
                        Bytes::copy_from_slice(&case.bytes),
                        case.num_values,
                        width,
                    )?;
                    loop {
                        out.clear();
                        let n = if skip {
                            d.skip(BATCH)?
                        } else {
                            d.read(&mut out, BATCH)?
                        };
                        if n == 0 {
                            return Ok(total);
                        }
                        total += n;
                        if total >= VALUE_LIMIT {
                            return Ok(total);
                        }
                    }
                }
                Target::BitPackedLevels(width) => {
                    let mut d = BitPackedDecoder::new(
                        Bytes::copy_from_slice(&case.bytes),
                        case.num_values,
                        width,
                    )?;
                    loop {
                        out.clear();
                        let n = if skip {
                            d.skip(BATCH)?
                        } else {
                            d.read(&mut out, BATCH)?
                        };
                        if n == 0 {
                            return Ok(total);
                        }
                        total += n;
                        if total >= VALUE_LIMIT {
                            return Ok(total);
                        }
                    }
                }
                Target::Values => unreachable!(),
            }
        })();
        match result {
            Ok(n) => return Err(format!("{path}: no error ({n} levels)")),
            Err(e) => case.expect.check(&e).map_err(|m| format!("{path}: {m}"))?,
        }
    }
    Ok(())
}

/// The Arrow type a required column of `physical` is read as.
fn arrow_type(physical: PhysicalType, type_length: usize) -> DataType {
    match physical {
        P::Boolean => DataType::Boolean,
        P::Int32 => DataType::Int32,
        P::Int64 => DataType::Int64,
        P::Int96 => DataType::Timestamp(TimeUnit::Nanosecond, None),
        P::Float => DataType::Float32,
        P::Double => DataType::Float64,
        P::ByteArray => DataType::Binary,
        P::FixedLenByteArray => DataType::FixedSizeBinary(type_length as i32),
    }
}

/// Reads `pages` of a one-column field through the Arrow adapter until an error or the end.
fn arrow_read(
    desc: ColumnDesc,
    data_type: DataType,
    nullable: bool,
    pages: Vec<Page>,
) -> Result<usize, ArrowError> {
    let field = Arc::new(Field::new("c", data_type, nullable));
    let pages = pages.into_iter().map(Ok::<_, std::convert::Infallible>);
    let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages)])?;
    let mut rows = 0;
    loop {
        let array = decoder.read(ARROW_BATCH)?;
        if array.is_empty() {
            return Ok(rows);
        }
        rows += array.len();
        if rows >= VALUE_LIMIT {
            return Ok(rows);
        }
    }
}

/// Skips 1 row, then alternates skips and reads of 100 rows, through the Arrow adapter.
fn arrow_skip_read<E: Into<pqcodec::arrow::SourceError> + Send + 'static>(
    desc: ColumnDesc,
    field: Field,
    pages: Vec<Result<Page, E>>,
) -> Result<usize, ArrowError> {
    let mut decoder =
        ArrayDecoder::try_new(Arc::new(field), vec![Column::new(desc, pages.into_iter())])?;
    let mut rows = decoder.skip(1)?;
    while rows < VALUE_LIMIT {
        let skipped = decoder.skip(100)?;
        let read = decoder.read(100)?.len();
        if skipped + read == 0 {
            break;
        }
        rows += skipped + read;
    }
    Ok(rows)
}

/// The skip path through the Arrow adapter: `Ok` (pages skipped whole by their header's count
/// are not decoded) or an error naming the column, never a panic or a hang.
fn check_arrow_skip(
    what: &str,
    column: &str,
    result: Result<usize, ArrowError>,
) -> Result<(), String> {
    match result {
        Ok(_) => Ok(()),
        Err(e) if e.to_string().contains(&format!("column {column:?}")) => Ok(()),
        Err(e) => Err(format!(
            "{what} (skips): {e} does not name column {column:?}"
        )),
    }
}

/// A values case through the Arrow adapter: the page as the only data page of a required
/// column, after its dictionary page; read as the plain Arrow type and, for dictionary
/// encodings, as an Arrow dictionary too.
fn run_arrow(case: &Case) -> Result<(), String> {
    let mut pages = Vec::new();
    if let Some(dict) = &case.dictionary {
        pages.push(Page::Dictionary(DictionaryPage {
            data: Buffer::from_vec(dict.clone()),
            num_values: dictionary_len(case.physical, dict, case.type_length),
            encoding: Plain,
        }));
    }
    let page_index = pages.len();
    pages.push(Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(case.bytes.clone()),
        num_values: case.num_values,
        encoding: case.encoding,
        def_level_encoding: Rle,
        rep_level_encoding: Rle,
    }));
    let value_type = arrow_type(case.physical, case.type_length);
    let mut types = vec![value_type.clone()];
    if case.encoding.is_dictionary() {
        types.push(DataType::Dictionary(
            Box::new(DataType::Int32),
            Box::new(value_type),
        ));
    }
    for data_type in types {
        let desc = ColumnDesc::flat("c", case.physical, case.type_length, false);
        let what = format!("arrow ({data_type})");
        let skip_pages = pages
            .iter()
            .cloned()
            .map(Ok::<_, std::convert::Infallible>)
            .collect();
        let field = Field::new("c", data_type.clone(), false);
        check_arrow_skip(&what, "c", arrow_skip_read(desc.clone(), field, skip_pages))?;
        match arrow_read(desc, data_type, false, pages.clone()) {
            Ok(rows) => return Err(format!("{what}: no error ({rows} rows)")),
            Err(ArrowError::Codec { at, source }) => {
                if at.column != "c" || at.page != Some(page_index) {
                    return Err(format!(
                        "{what}: error located at {at}, not page {page_index}"
                    ));
                }
                case.expect
                    .check(&source)
                    .map_err(|m| format!("{what}: {m}"))?;
                let text = ArrowError::Codec { at, source }.to_string();
                let place = format!("column \"c\", page {page_index}");
                if !text.contains(&place) {
                    return Err(format!("{what}: message {text:?} does not say {place}"));
                }
            }
            Err(other) => {
                return Err(format!(
                    "{what}: expected a codec error, got {other:?} ({other})"
                ));
            }
        }
    }
    Ok(())
}

/// Every path of one case; the first failure.
fn run_case(case: &Case) -> Result<(), String> {
    let c = case.clone();
    guarded(&case.name, move || match c.target {
        Target::Values => with_physical!(c.physical, T => run_values::<T>(&c)),
        _ => run_levels(&c),
    })?;
    if case.arrow {
        let c = case.clone();
        guarded(&case.name, move || run_arrow(&c))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Cases only the Arrow adapter sees: levels, page headers, dictionary pages, UTF-8, schema.

/// The error an Arrow case must give.
#[derive(Debug, Clone)]
enum ArrowVariant {
    /// [`ArrowError::Codec`] whose source is the codec error expected.
    Codec(Expect),
    /// [`ArrowError::Levels`] of these levels ("definition levels" or "repetition levels")
    /// whose source is the codec error expected.
    Levels(&'static str, Expect),
    /// [`ArrowError::Corrupt`] of `encoding` in `field`.
    Corrupt(Encoding, &'static str),
    /// [`ArrowError::Utf8`].
    Utf8,
    /// [`ArrowError::Unsupported`].
    Unsupported,
    /// [`ArrowError::Source`].
    Source,
}

/// A column's pages (or page-source errors) and the error reading them must give.
struct ArrowCase {
    name: &'static str,
    desc: ColumnDesc,
    field: Field,
    pages: Vec<Result<Page, String>>,
    expect: ArrowVariant,
    /// The page the error must be located at.
    page: Option<usize>,
    /// More words the message must hold.
    says: &'static [&'static str],
}

fn v1(data: Vec<u8>, num_values: usize, encoding: Encoding) -> Result<Page, String> {
    Ok(Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(data),
        num_values,
        encoding,
        def_level_encoding: Rle,
        rep_level_encoding: Rle,
    }))
}

fn v1_levels(data: Vec<u8>, num_values: usize, levels: Encoding) -> Result<Page, String> {
    Ok(Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(data),
        num_values,
        encoding: Plain,
        def_level_encoding: levels,
        rep_level_encoding: levels,
    }))
}

fn v2(
    data: Vec<u8>,
    num_values: usize,
    num_nulls: usize,
    rep_len: usize,
    def_len: usize,
) -> Result<Page, String> {
    Ok(Page::DataV2(DataPageV2 {
        data: Buffer::from_vec(data),
        num_values,
        num_nulls,
        num_rows: num_values,
        encoding: Plain,
        def_levels_byte_len: def_len,
        rep_levels_byte_len: rep_len,
    }))
}

fn dict_page(data: Vec<u8>, num_values: usize, encoding: Encoding) -> Result<Page, String> {
    Ok(Page::Dictionary(DictionaryPage {
        data: Buffer::from_vec(data),
        num_values,
        encoding,
    }))
}

/// `n` distinct short strings, PLAIN.
fn plain_strings(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let s = format!("v{i}");
            [&(s.len() as u32).to_le_bytes()[..], s.as_bytes()].concat()
        })
        .collect()
}

fn i32s(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn arrow_cases() -> Vec<ArrowCase> {
    let opt = || ColumnDesc::flat("c", P::Int32, 0, true);
    let req = || ColumnDesc::flat("c", P::Int32, 0, false);
    let int = |nullable| Field::new("c", DataType::Int32, nullable);
    // A nullable struct `s` of a nullable INT32 `c`: definition levels 0 to 2.
    let nested_desc = || ColumnDesc {
        path: "s.c".into(),
        physical: P::Int32,
        type_length: 0,
        max_def_level: 2,
        max_rep_level: 0,
    };
    let nested_field = || {
        Field::new(
            "s",
            DataType::Struct(vec![Field::new("c", DataType::Int32, true)].into()),
            true,
        )
    };
    // A nullable list `l` of nullable INT32: definition levels 0 to 3, repetition 0 to 1.
    let list_desc = || ColumnDesc {
        path: "l.list.item".into(),
        physical: P::Int32,
        type_length: 0,
        max_def_level: 3,
        max_rep_level: 1,
    };
    let list_field = || {
        Field::new(
            "l",
            DataType::List(Arc::new(Field::new("item", DataType::Int32, true))),
            true,
        )
    };
    let huge_levels = {
        let mut b = vec![96, 0, 0, 0, 0x10, 0x01];
        b.resize(100, 0);
        b
    };
    let base = |name, desc, field, pages, expect, page| ArrowCase {
        name,
        desc,
        field,
        pages,
        expect,
        page,
        says: &[],
    };
    vec![
        base(
            "v1 definition levels: length prefix past the page",
            opt(),
            int(true),
            vec![v1(vec![100, 0, 0, 0, 0x02, 1], 1, Plain)],
            ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "encoded data")),
            Some(0),
        ),
        base(
            "v1 definition levels: fewer levels than num_values",
            opt(),
            int(true),
            vec![v1(
                cat(&[&[2, 0, 0, 0, 0x04, 0x01], &i32s(&[1, 2])]),
                5,
                Plain,
            )],
            ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "run header")),
            Some(0),
        ),
        ArrowCase {
            says: &["definition levels"],
            ..base(
                "v1 definition levels: the error says they are the definition levels",
                opt(),
                int(true),
                vec![v1(
                    cat(&[&[2, 0, 0, 0, 0x04, 0x01], &i32s(&[1, 2])]),
                    5,
                    Plain,
                )],
                ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "run header")),
                Some(0),
            )
        },
        base(
            "v1 definition levels: 2^31 levels in a 100-byte page",
            opt(),
            int(true),
            vec![v1(huge_levels.clone(), HUGE, Plain)],
            ArrowVariant::Levels("definition levels", Expect::Invalid(Rle, "run header")),
            Some(0),
        ),
        base(
            "v1 definition levels: BIT_PACKED levels truncated",
            opt(),
            int(true),
            vec![v1_levels(vec![0xFF], 100, BitPacked)],
            ArrowVariant::Levels("definition levels", Expect::Truncated(BitPacked, "values")),
            Some(0),
        ),
        base(
            "v1 definition levels: PLAIN is not a level encoding",
            opt(),
            int(true),
            vec![v1_levels(vec![1, 0, 0, 0, 1, 0, 0, 0], 1, Plain)],
            ArrowVariant::Corrupt(Plain, "definition levels"),
            Some(0),
        ),
        base(
            "nested: definition level 3 over the maximum of 2",
            nested_desc(),
            nested_field(),
            vec![v1(cat(&[&[2, 0, 0, 0, 0x02, 0x03], &i32s(&[1])]), 1, Plain)],
            ArrowVariant::Corrupt(Rle, "definition levels"),
            Some(0),
        ),
        base(
            "list: a record starts with repetition level 1",
            list_desc(),
            list_field(),
            vec![v1(
                cat(&[
                    &[2, 0, 0, 0, 0x02, 0x01],
                    &[2, 0, 0, 0, 0x02, 0x03],
                    &i32s(&[1]),
                ]),
                1,
                Plain,
            )],
            ArrowVariant::Corrupt(Rle, "repetition levels"),
            Some(0),
        ),
        base(
            "list: repetition levels' length prefix past the page",
            list_desc(),
            list_field(),
            vec![v1(
                cat(&[&[100, 0, 0, 0, 0x02, 0x00], &i32s(&[1])]),
                1,
                Plain,
            )],
            ArrowVariant::Levels("repetition levels", Expect::Truncated(Rle, "encoded data")),
            Some(0),
        ),
        base(
            "list: definition levels end before the repetition levels",
            list_desc(),
            list_field(),
            vec![v1(
                cat(&[
                    &[2, 0, 0, 0, 0x03, 0b10],
                    &[2, 0, 0, 0, 0x02, 0x03],
                    &i32s(&[1, 1]),
                ]),
                2,
                Plain,
            )],
            ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "run header")),
            Some(0),
        ),
        base(
            "v2: level lengths past the page",
            opt(),
            int(true),
            vec![v2(vec![0x02, 0x01, 1, 0, 0, 0], 1, 0, 0, 50)],
            ArrowVariant::Corrupt(Plain, "level lengths"),
            Some(0),
        ),
        base(
            "v2: level lengths overflow",
            opt(),
            int(true),
            vec![v2(vec![0x02, 0x01, 1, 0, 0, 0], 1, 0, usize::MAX, 2)],
            ArrowVariant::Corrupt(Plain, "level lengths"),
            Some(0),
        ),
        base(
            "v2: more nulls than values",
            opt(),
            int(true),
            vec![v2(vec![0x02, 0x01, 1, 0, 0, 0], 1, 5, 0, 2)],
            ArrowVariant::Corrupt(Plain, "num_nulls"),
            Some(0),
        ),
        base(
            "v2: definition levels hold fewer than num_values",
            opt(),
            int(true),
            vec![v2(cat(&[&[0x04, 0x01], &i32s(&[1, 2])]), 10, 8, 0, 2)],
            ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "run header")),
            Some(0),
        ),
        base(
            "v2: 2^31 values, 100 bytes, nulls said to be 0",
            opt(),
            int(true),
            vec![v2(cat(&[&[0x10, 0x01], &[0; 98]]), HUGE, 0, 0, 2)],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(0),
        ),
        base(
            "v1 required: 2^31 values in a 100-byte page",
            req(),
            int(false),
            vec![v1(vec![0; 100], HUGE, Plain)],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(0),
        ),
        base(
            "v1 optional: levels say 5 values, the page holds 2",
            opt(),
            int(true),
            vec![v1(
                cat(&[&[2, 0, 0, 0, 0x0A, 0x01], &i32s(&[1, 2])]),
                5,
                Plain,
            )],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(0),
        ),
        base(
            "second page truncated: the error names page 1",
            req(),
            int(false),
            vec![v1(i32s(&[1, 2]), 2, Plain), v1(i32s(&[1]), 2, Plain)],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(1),
        ),
        base(
            "dictionary page: 2^31 values in 100 bytes",
            req(),
            int(false),
            vec![
                dict_page(vec![0; 100], HUGE, Plain),
                v1(vec![1, 0x02, 0], 1, RleDictionary),
            ],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(0),
        ),
        base(
            "dictionary page: DELTA_BINARY_PACKED",
            req(),
            int(false),
            vec![
                dict_page(dbp32(&[1, 2]), 2, Dbp),
                v1(vec![1, 0x02, 0], 1, RleDictionary),
            ],
            ArrowVariant::Corrupt(Dbp, "dictionary page"),
            Some(0),
        ),
        base(
            "dictionary-encoded page without a dictionary page",
            req(),
            int(false),
            vec![v1(vec![1, 0x02, 0], 1, RleDictionary)],
            ArrowVariant::Corrupt(RleDictionary, "dictionary page"),
            Some(0),
        ),
        base(
            "dictionary page after the data page, index out of the new dictionary",
            req(),
            int(false),
            vec![
                dict_page(i32s(&[1, 2, 3]), 3, Plain),
                v1(vec![2, 0x02, 2], 1, RleDictionary),
                dict_page(i32s(&[1]), 1, Plain),
                v1(vec![2, 0x02, 2], 1, RleDictionary),
            ],
            ArrowVariant::Codec(Expect::DictionaryIndex(RleDictionary, 2, 1)),
            Some(3),
        ),
        base(
            "UTF-8 column: a value is not UTF-8",
            ColumnDesc::flat("c", P::ByteArray, 0, false),
            Field::new("c", DataType::Utf8, false),
            vec![v1(vec![2, 0, 0, 0, 0xFF, 0xFE], 1, Plain)],
            ArrowVariant::Utf8,
            Some(0),
        ),
        base(
            "UTF-8 column: the dictionary is not UTF-8",
            ColumnDesc::flat("c", P::ByteArray, 0, false),
            Field::new("c", DataType::Utf8, false),
            vec![
                dict_page(vec![2, 0, 0, 0, 0xC3, 0x28], 1, Plain),
                v1(vec![1, 0x02, 0], 1, RleDictionary),
            ],
            ArrowVariant::Corrupt(Plain, "dictionary"),
            Some(0),
        ),
        base(
            "Utf8View column: a value is not UTF-8",
            ColumnDesc::flat("c", P::ByteArray, 0, false),
            Field::new("c", DataType::Utf8View, false),
            vec![v1(vec![2, 0, 0, 0, 0xFF, 0xFE], 1, Plain)],
            ArrowVariant::Utf8,
            Some(0),
        ),
        base(
            "FIXED_LEN_BYTE_ARRAY of type length 0",
            ColumnDesc::flat("c", P::FixedLenByteArray, 0, false),
            Field::new("c", DataType::FixedSizeBinary(0), false),
            vec![v1(vec![], 5, Plain)],
            ArrowVariant::Unsupported,
            None,
        ),
        base(
            "FIXED_LEN_BYTE_ARRAY of type length 16 read as FixedSizeBinary(4)",
            ColumnDesc::flat("c", P::FixedLenByteArray, 16, false),
            Field::new("c", DataType::FixedSizeBinary(4), false),
            vec![v1(vec![7; 32], 2, Plain)],
            ArrowVariant::Unsupported,
            None,
        ),
        base(
            "Decimal128 from BYTE_ARRAY: a value of 20 bytes",
            ColumnDesc::flat("c", P::ByteArray, 0, false),
            Field::new("c", DataType::Decimal128(38, 0), false),
            vec![v1(cat(&[&[20, 0, 0, 0], &[1; 20]]), 1, Plain)],
            ArrowVariant::Corrupt(Plain, "values"),
            Some(0),
        ),
        base(
            "Dictionary(Int8, Utf8): a dictionary page of 300 values",
            ColumnDesc::flat("c", P::ByteArray, 0, false),
            Field::new(
                "c",
                DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
                false,
            ),
            vec![
                dict_page(plain_strings(300), 300, Plain),
                v1(vec![9, 0x02, 0xC8, 0x00], 1, RleDictionary),
            ],
            ArrowVariant::Corrupt(RleDictionary, "indices"),
            Some(1),
        ),
        base(
            "Dictionary(UInt8, Int32): 300 distinct PLAIN values",
            req(),
            Field::new(
                "c",
                DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::Int32)),
                false,
            ),
            vec![v1(i32s(&(0..300).collect::<Vec<_>>()), 300, Plain)],
            ArrowVariant::Corrupt(RleDictionary, "indices"),
            Some(0),
        ),
        base(
            "the page source fails",
            req(),
            int(false),
            vec![v1(i32s(&[1]), 1, Plain), Err("disk on fire".into())],
            ArrowVariant::Source,
            Some(0),
        ),
    ]
}

fn check_arrow(case: &ArrowCase, result: Result<usize, ArrowError>) -> Result<(), String> {
    let e = match result {
        Ok(rows) => return Err(format!("no error ({rows} rows)")),
        Err(e) => e,
    };
    let text = e.to_string();
    let at = match (&case.expect, &e) {
        (ArrowVariant::Codec(expect), ArrowError::Codec { at, source }) => {
            expect.check(source)?;
            at
        }
        (ArrowVariant::Levels(which, expect), ArrowError::Levels { at, levels, source })
            if which == levels =>
        {
            expect.check(source)?;
            if !text.contains(which) {
                return Err(format!("{text:?} does not say {which:?}"));
            }
            at
        }
        (
            ArrowVariant::Corrupt(enc, f),
            ArrowError::Corrupt {
                at,
                encoding,
                field,
                reason,
            },
        ) if enc == encoding && f == field && !reason.is_empty() => {
            if !text.contains(enc.name()) || !text.contains(f) {
                return Err(format!("{text:?} does not name {enc} and {f:?}"));
            }
            at
        }
        (ArrowVariant::Utf8, ArrowError::Utf8 { at, .. })
        | (ArrowVariant::Unsupported, ArrowError::Unsupported { at, .. })
        | (ArrowVariant::Source, ArrowError::Source { at, .. }) => at,
        _ => return Err(format!("expected {:?}, got {e:?} ({text})", case.expect)),
    };
    if at.column != case.desc.path || at.page != case.page {
        return Err(format!(
            "located at {at}, not column {:?} page {:?} ({text})",
            case.desc.path, case.page
        ));
    }
    let mut must = vec![format!("column {:?}", case.desc.path)];
    if let Some(page) = case.page {
        must.push(format!("page {page}"));
    }
    must.extend(case.says.iter().map(|s| s.to_string()));
    for word in must {
        if !text.contains(&word) {
            return Err(format!("message {text:?} does not say {word:?}"));
        }
    }
    Ok(())
}

fn run_arrow_case(case: &ArrowCase) -> Result<(), String> {
    let desc = case.desc.clone();
    let field = Arc::new(case.field.clone());
    let pages: Vec<Result<Page, String>> = case.pages.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(|| -> Result<usize, ArrowError> {
            let pages = pages.into_iter().map(|p| p.map_err(std::io::Error::other));
            let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages)])?;
            let mut rows = 0;
            loop {
                let array = decoder.read(ARROW_BATCH)?;
                if array.is_empty() {
                    return Ok(rows);
                }
                rows += array.len();
            }
        }));
        let _ = tx.send(result);
    });
    match rx.recv_timeout(TIME_LIMIT) {
        Ok(Ok(result)) => check_arrow(case, result)?,
        Ok(Err(_)) => return Err("PANIC".into()),
        Err(_) => return Err("HANG".into()),
    }
    let desc = case.desc.clone();
    let field = case.field.clone();
    let pages: Vec<Result<Page, std::io::Error>> = case
        .pages
        .iter()
        .cloned()
        .map(|p| p.map_err(std::io::Error::other))
        .collect();
    let column = desc.path.clone();
    let outcome = guarded(case.name, move || {
        let result = arrow_skip_read(desc, field, pages);
        check_arrow_skip("arrow", &column, result)
    });
    match outcome {
        // A field that cannot be read at all is refused before any skip.
        Err(m) if matches!(case.expect, ArrowVariant::Unsupported) && m.contains("column") => {
            Ok(())
        }
        other => other,
    }
}

#[test]
fn every_malformed_column_gives_its_arrow_error() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in arrow_cases() {
        ran += 1;
        if let Err(m) = run_arrow_case(&case) {
            failures.push(format!("{}: {m}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} Arrow cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Mutated pages: valid pages of every pair, bytes flipped, overwritten or cut, counts changed;
// every path must end in `Ok` or an error, never a panic or a hang.

/// Values of `physical` made from `raw` bytes (small integers, so that the delta and
/// dictionary encodings see repeats and small deltas).
fn values_from(physical: PhysicalType, raw: &[u8]) -> dynamic::Values {
    use dynamic::Values as V;
    let bytes = |w: usize| raw.chunks(w).map(|c| c.to_vec()).collect::<Vec<_>>();
    let arrays = |w: usize| {
        let mut b = pqcodec::core::ByteArrays::default();
        for c in raw.chunks(w) {
            pqcodec::core::Sink::<[u8]>::push(&mut b, c);
        }
        b
    };
    match physical {
        P::Boolean => V::Boolean(raw.iter().map(|b| b & 1 == 1).collect()),
        P::Int32 => V::Int32(raw.iter().map(|&b| i32::from(b as i8)).collect()),
        P::Int64 => V::Int64(raw.iter().map(|&b| i64::from(b as i8) << 20).collect()),
        P::Int96 => V::Int96(
            bytes(3)
                .iter()
                .map(|c| pqcodec::core::Int96([u32::from(c[0]), 0, c.len() as u32]))
                .collect(),
        ),
        P::Float => V::Float(raw.iter().map(|&b| f32::from(b) / 4.0).collect()),
        P::Double => V::Double(raw.iter().map(|&b| f64::from(b) / 8.0).collect()),
        P::ByteArray => V::ByteArray(arrays(3)),
        P::FixedLenByteArray => V::FixedLenByteArray({
            let mut b = pqcodec::core::ByteArrays::default();
            for c in raw.chunks_exact(4) {
                pqcodec::core::Sink::<[u8]>::push(&mut b, c);
            }
            b
        }),
    }
}

/// The (encoding, physical type) pairs that apply.
fn pairs() -> Vec<(Encoding, PhysicalType)> {
    Encoding::ALL
        .into_iter()
        .flat_map(|e| ALL_TYPES.into_iter().map(move |p| (e, p)))
        .filter(|&(e, p)| applies(e, p))
        .collect()
}

/// A mutation of page bytes.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Set(usize, u8),
    Int(usize, u32),
    Cut(usize),
}

fn mutate(bytes: &mut Vec<u8>, m: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    let n = bytes.len();
    match *m {
        Mutation::Flip(i, bit) => bytes[i % n] ^= 1 << (bit % 8),
        Mutation::Set(i, v) => bytes[i % n] = v,
        Mutation::Int(i, v) => {
            let i = i % n;
            for (k, b) in v.to_le_bytes().into_iter().enumerate() {
                if let Some(slot) = bytes.get_mut(i + k) {
                    *slot = b;
                }
            }
        }
        Mutation::Cut(i) => bytes.truncate(i % n),
    }
}

fn mutation() -> impl proptest::strategy::Strategy<Value = Mutation> {
    use proptest::prelude::*;
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (
            any::<usize>(),
            prop_oneof![Just(0u8), Just(0xFF), Just(0x80), Just(0x7F), any::<u8>()]
        )
            .prop_map(|(i, v)| Mutation::Set(i, v)),
        (
            any::<usize>(),
            prop_oneof![
                Just(u32::MAX),
                Just(1 << 31),
                Just(i32::MAX as u32),
                any::<u32>()
            ]
        )
            .prop_map(|(i, v)| Mutation::Int(i, v)),
        any::<usize>().prop_map(Mutation::Cut),
    ]
}

proptest::proptest! {
    // BAD_DATA_CASES=100000 for a longer hunt.
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
        std::env::var("BAD_DATA_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn mutated_pages_end_in_ok_or_an_error(
        pair in 0usize..64,
        raw in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
        mutations in proptest::collection::vec(mutation(), 1..4),
        mutate_dictionary in proptest::prelude::any::<bool>(),
        count in 0usize..5,
    ) {
        let pairs = pairs();
        let (encoding, physical) = pairs[pair % pairs.len()];
        let values = values_from(physical, &raw);
        let page = dynamic::encode(encoding, &values, 4).unwrap();
        let mut bytes = page.data.clone();
        let mut dictionary = page.dictionary.clone();
        for m in &mutations {
            match dictionary.as_mut() {
                Some(d) if mutate_dictionary => mutate(d, m),
                _ => mutate(&mut bytes, m),
            }
        }
        let n = values.len();
        let num_values = [n, n + 1, n / 2, 2 * n + 8, HUGE][count];
        let c = Case {
            bytes,
            dictionary,
            num_values,
            ..case(format!("mutated {encoding} {physical}"), encoding, physical, 0, vec![], Expect::Unsupported(encoding, physical))
        };
        let outcome = {
            let c = c.clone();
            guarded(&c.name.clone(), move || {
                with_physical!(c.physical, T => {
                    let _ = drain::<T>(&c, false);
                    let _ = drain::<T>(&c, true);
                });
                if c.num_values < HUGE {
                    let _ = dynamic::decode(c.encoding, c.physical, Bytes::copy_from_slice(&c.bytes), c.num_values, c.type_length, c.dictionary.as_deref());
                }
                Ok(())
            })
        };
        proptest::prop_assert_eq!(outcome, Ok(()), "{:?}", c);
        let outcome = {
            let c = c.clone();
            guarded(&c.name.clone(), move || {
                // The dictionary page's count as the page header would give it.
                let mut pages = Vec::new();
                if let Some(d) = &c.dictionary {
                    let count = plain_value_count(c.physical, d, c.type_length).unwrap_or(0);
                    pages.push(Page::Dictionary(DictionaryPage {
                        data: Buffer::from_vec(d.clone()),
                        num_values: count,
                        encoding: Plain,
                    }));
                }
                pages.push(Page::DataV1(DataPageV1 {
                    data: Buffer::from_vec(c.bytes.clone()),
                    num_values: c.num_values,
                    encoding: c.encoding,
                    def_level_encoding: Rle,
                    rep_level_encoding: Rle,
                }));
                let desc = ColumnDesc::flat("c", c.physical, c.type_length, false);
                let data_type = arrow_type(c.physical, c.type_length);
                let skip_pages = pages.iter().cloned().map(Ok::<_, std::convert::Infallible>).collect();
                let field = Field::new("c", data_type.clone(), false);
                check_arrow_skip("mutated", "c", arrow_skip_read(desc.clone(), field, skip_pages))?;
                let _ = arrow_read(desc, data_type, false, pages);
                Ok(())
            })
        };
        proptest::prop_assert_eq!(outcome, Ok(()), "{:?}", c);
    }

    #[test]
    fn mutated_levels_end_in_ok_or_an_error(
        raw in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
        width in 0u32..=32,
        num_values in proptest::prop_oneof![0usize..2000, proptest::strategy::Just(HUGE)],
    ) {
        for target in [Target::RleLevels(width), Target::BitPackedLevels(width)] {
            let c = case("mutated levels", Rle, P::Int32, num_values, raw.clone(), Expect::Unsupported(Rle, P::Int32)).target(target);
            let outcome = guarded("levels", move || {
                let _ = run_levels(&c);
                Ok(())
            });
            proptest::prop_assert_eq!(outcome, Ok(()));
        }
    }
}

/// Two leaves of one struct whose pages hold different numbers of rows.
#[test]
fn struct_leaves_of_different_lengths_are_an_error() {
    let leaf = |name: &str| ColumnDesc {
        path: format!("s.{name}"),
        physical: P::Int32,
        type_length: 0,
        max_def_level: 0,
        max_rep_level: 0,
    };
    let field = Field::new(
        "s",
        DataType::Struct(
            vec![
                Field::new("a", DataType::Int32, false),
                Field::new("b", DataType::Int32, false),
            ]
            .into(),
        ),
        false,
    );
    let pages = |n: i32| {
        vec![v1(i32s(&(0..n).collect::<Vec<_>>()), n as usize, Plain)]
            .into_iter()
            .map(|p| p.map_err(std::io::Error::other))
    };
    let mut decoder = ArrayDecoder::try_new(
        Arc::new(field),
        vec![
            Column::new(leaf("a"), pages(3)),
            Column::new(leaf("b"), pages(2)),
        ],
    )
    .unwrap();
    let e = decoder.read(ARROW_BATCH).unwrap_err();
    assert!(matches!(e, ArrowError::Schema(_)), "{e:?}");
    assert!(e.to_string().contains("\"s\""), "{e}");
    assert!(e.to_string().contains("3 and 2"), "{e}");
}

/// The runner itself: a wrong expectation, a panic and a missing error are all reported.
#[test]
fn the_runner_reports_what_it_should() {
    let good = cases()
        .into_iter()
        .find(|c| c.name == "plain/int32/2^31 values in a 100-byte page")
        .unwrap();
    assert_eq!(run_case(&good), Ok(()));
    let mut wrong = good.clone();
    wrong.expect = Expect::CountTooLarge(Plain, "value count");
    assert!(run_case(&wrong).is_err());
    let mut wrong = good.clone();
    wrong.expect = Expect::Truncated(Plain, "num_values");
    assert!(run_case(&wrong).is_err());
    let mut valid = good.clone();
    valid.num_values = 3;
    let err = run_case(&valid).unwrap_err();
    assert!(err.contains("no error"), "{err}");
    let err = guarded("panics", || panic!("boom")).unwrap_err();
    assert!(err.contains("PANIC: boom"), "{err}");
}

#[test]
fn registry_covers_every_encoding_and_type() {
    let cases = cases();
    let mut names = std::collections::HashSet::new();
    for c in &cases {
        assert!(
            names.insert(c.name.clone()),
            "duplicate case name {:?}",
            c.name
        );
    }
    // Every pair that applies has at least one malformed page, and at least one with a
    // claimed count of 2^31 or more; every pair that does not apply has its Unsupported case.
    for e in Encoding::ALL {
        for p in ALL_TYPES {
            let of_pair: Vec<&Case> = cases
                .iter()
                .filter(|c| c.target == Target::Values && c.encoding == e && c.physical == p)
                .collect();
            assert!(!of_pair.is_empty(), "no case for {e} x {p}");
            if applies(e, p) && !matches!(e, PlainDictionary) {
                assert!(
                    of_pair.iter().any(|c| c.num_values >= HUGE),
                    "no hostile count for {e} x {p}"
                );
            }
        }
    }
    assert!(
        cases
            .iter()
            .any(|c| matches!(c.target, Target::RleLevels(_)))
    );
    assert!(
        cases
            .iter()
            .any(|c| matches!(c.target, Target::BitPackedLevels(_)))
    );
}

#[test]
fn every_malformed_page_gives_its_error() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in cases() {
        ran += 1;
        if let Err(m) = run_case(&case) {
            failures.push(format!("{}: {m}", case.name));
        }
    }
    eprintln!("{ran} cases ran");
    assert!(ran > 200, "only {ran} cases ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
