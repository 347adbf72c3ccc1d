//! The bodies of pqcodec's fuzz targets.
//!
//! Each `pub fn name(data: &[u8])` here is the whole of cargo-fuzz target `name`
//! (`fuzz/fuzz_targets/name.rs` only calls it) and panics exactly when it finds a bug. The root
//! package's `tests/fuzz_regressions.rs` includes this file with `#[path]` and runs every
//! saved input of `fuzz/corpus/name/` and `fuzz/artifacts/name/` through the same function,
//! so a crash found once stays a test. For that, the file uses only crates that both the fuzz
//! crate and the root package's dev-dependencies have: `pqcodec-core`, `pqcodec-encodings`,
//! `pqcodec-arrow`, `pqcodec-file`, `arrow-array`, `arrow-buffer`,
//! `arrow-data`, `arrow-schema`, `bytes` and `snap` (the reference SNAPPY decoder).
//!
//! What counts as a bug: a panic (including arithmetic overflow, which fuzz builds check), an
//! abort or an out-of-memory from allocation out of proportion to the input, a hang; a
//! decoder breaking its contract (a read or skip of `n` must give `min(n, remaining)` values
//! and lower `remaining()` by as many, or fail); a batch schedule of reads and skips failing
//! or giving other values than one read of the same page; an encode then decode not giving
//! the values back; an Arrow array that fails `validate_full`.
//!
//! Panics inside the parquet crate's framing (footer, page headers, decompression) are not
//! pqcodec's: `cat_file` catches them around those calls only, as the `pqcodec` CLI does at its
//! boundary, and `read_file` around the metadata load only; everything of pqcodec's runs
//! outside `catch_unwind`.

use std::cell::Cell;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Once};

use bytes::Bytes;

use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Field, FieldRef, Fields, IntervalUnit, Schema, TimeUnit};
use pqcodec_arrow::{
    Column, ColumnDesc, DataPageV1, DataPageV2, DictionaryPage, Page, RecordBatchDecoder,
};
use pqcodec_core::{
    BooleanType, ByteArrayType, ByteArrays, Decoder, DoubleType, Encoder, Encoding,
    FixedLenByteArrayType, FloatType, Int32Type, Int64Type, Int96, Int96Type, Physical,
    PhysicalType, Result, Sink, ValueBuffer, with_physical,
};
use pqcodec_encodings::bit_packed::{BitPackedDecoder, BitPackedEncoder};
use pqcodec_encodings::dictionary::IndexDecoder;
use pqcodec_encodings::dynamic::{DynamicType, plain_value_count};
use pqcodec_encodings::plain::decode_plain_page;
use pqcodec_encodings::rle::{RleDecoder, RleEncoder, split_length_prefix};
use pqcodec_file::framing::{FilePages, ParquetFile};
use pqcodec_file::{Projection, ReaderBuilder, ReaderOptions, RowSelection, RowSelector};

/// A target's body: one fuzz input in, a panic on a finding.
pub type Target = fn(&[u8]);

/// Every target: its name (its folder under `fuzz/corpus/` and `fuzz/artifacts/`) and body.
pub const TARGETS: &[(&str, Target)] = &[
    ("decode_plain", decode_plain),
    ("decode_rle", decode_rle),
    ("decode_bit_packed", decode_bit_packed),
    ("decode_dictionary", decode_dictionary),
    ("decode_delta_binary_packed", decode_delta_binary_packed),
    (
        "decode_delta_length_byte_array",
        decode_delta_length_byte_array,
    ),
    ("decode_delta_byte_array", decode_delta_byte_array),
    ("decode_byte_stream_split", decode_byte_stream_split),
    ("decode_group_var_int", decode_group_var_int),
    ("decode_alp", decode_alp),
    ("roundtrip_plain", roundtrip_plain),
    ("roundtrip_rle", roundtrip_rle),
    ("roundtrip_bit_packed", roundtrip_bit_packed),
    ("roundtrip_dictionary", roundtrip_dictionary),
    (
        "roundtrip_delta_binary_packed",
        roundtrip_delta_binary_packed,
    ),
    (
        "roundtrip_delta_length_byte_array",
        roundtrip_delta_length_byte_array,
    ),
    ("roundtrip_delta_byte_array", roundtrip_delta_byte_array),
    ("roundtrip_byte_stream_split", roundtrip_byte_stream_split),
    ("roundtrip_group_var_int", roundtrip_group_var_int),
    ("roundtrip_alp", roundtrip_alp),
    ("arrow_pages", arrow_pages),
    ("decompress_snappy", decompress_snappy),
    ("cat_file", cat_file),
    ("read_file", read_file),
];

// ---------------------------------------------------------------------------------------------
// Input: the fuzzer's bytes, read front to back; past the end every read gives zeros.

/// A cursor over the fuzzer's bytes.
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    /// A cursor at the start of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Input { data }
    }

    /// The next byte, or 0 at the end.
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// The next four bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// Up to `n` next bytes.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.data.split_at(n.min(self.data.len()));
        self.data = rest;
        head
    }

    /// Every byte left.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }

    /// Whether no byte is left.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// A value count as a page header would claim it: four bytes; with the top bit set the
    /// count is the whole u32 (2^31 and more, for pages that lie), else its low 16 bits.
    pub fn count(&mut self) -> usize {
        let n = self.u32();
        let n = if n & 0x8000_0000 != 0 { n } else { n & 0xffff };
        usize::try_from(n).unwrap_or(usize::MAX)
    }
}

/// The physical types DELTA_BINARY_PACKED and GROUP_VAR_INT apply to, in the order the
/// targets' first byte picks them.
pub const INTEGER_TYPES: [PhysicalType; 2] = [PhysicalType::Int32, PhysicalType::Int64];
/// The physical types DELTA_BYTE_ARRAY applies to.
pub const DELTA_BYTE_ARRAY_TYPES: [PhysicalType; 2] =
    [PhysicalType::ByteArray, PhysicalType::FixedLenByteArray];
/// The physical types BYTE_STREAM_SPLIT applies to.
pub const BYTE_STREAM_SPLIT_TYPES: [PhysicalType; 5] = [
    PhysicalType::Float,
    PhysicalType::Double,
    PhysicalType::Int32,
    PhysicalType::Int64,
    PhysicalType::FixedLenByteArray,
];
/// The physical types ALP applies to.
pub const ALP_TYPES: [PhysicalType; 2] = [PhysicalType::Float, PhysicalType::Double];

/// The physical types in `parquet.thrift` order, picked by a byte.
fn physical(b: u8) -> PhysicalType {
    PhysicalType::ALL[usize::from(b) % PhysicalType::ALL.len()]
}

/// One of `types`, picked by a byte.
fn one_of(types: &[PhysicalType], b: u8) -> PhysicalType {
    types[usize::from(b) % types.len()]
}

// ---------------------------------------------------------------------------------------------
// Schedules of reads and skips.

/// A deterministic sequence of batch sizes and read-or-skip choices from a 16-bit seed.
struct Schedule {
    state: u32,
}

/// What a schedule asks of a decoder next.
enum Op {
    Read(usize),
    Skip(usize),
}

impl Schedule {
    fn new(seed: u16) -> Self {
        Schedule {
            state: u32::from(seed).wrapping_mul(0x9e37_79b9) | 1,
        }
    }

    fn next_u32(&mut self) -> u32 {
        // xorshift32
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.state = x;
        x
    }

    /// The next operation on a decoder with `remaining` values left.
    fn op(&mut self, remaining: usize) -> Op {
        let r = self.next_u32();
        let n = match r % 16 {
            0 => 0,
            1 => 1,
            2 => remaining,
            3 => remaining.saturating_add(1),
            4 => usize::MAX,
            5..=9 => (r >> 8) as usize % 9,
            _ => (r >> 8) as usize % 700,
        };
        if (r >> 4).is_multiple_of(3) {
            Op::Skip(n)
        } else {
            // A read never asks for more than a bounded batch: the sink is the caller's memory.
            Op::Read(n.min(1 << 16))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Decoders behind one interface, and how their values compare.

/// Values compared by their bits (NaN payloads and -0.0 included).
pub trait Same {
    /// Whether `self` and `other` are the same value.
    fn same(&self, other: &Self) -> bool;
}

macro_rules! same_eq {
    ($($t:ty),*) => {$(
        impl Same for $t {
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}
same_eq!(bool, i32, i64, u32, Int96, [u8]);

impl Same for f32 {
    fn same(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl Same for f64 {
    fn same(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

/// A decoder of some values into some buffer: a [`Decoder`] of a physical type, or one of the
/// `u32` decoders (levels, bit-packed, dictionary indices).
trait Stream {
    type Value: ?Sized + Same + std::fmt::Debug;
    type Buf: ValueBuffer<Self::Value>;
    fn remaining(&self) -> usize;
    fn read(&mut self, out: &mut Self::Buf, max: usize) -> Result<usize>;
    fn skip(&mut self, n: usize) -> Result<usize>;
}

/// A typed [`Decoder`] as a [`Stream`].
struct Typed<T, D>(D, PhantomData<T>);

impl<T: Physical, D: Decoder<T>> Typed<T, D> {
    fn new(decoder: D) -> Self {
        Typed(decoder, PhantomData)
    }
}

impl<T: Physical, D: Decoder<T>> Stream for Typed<T, D>
where
    T::Value: Same,
{
    type Value = T::Value;
    type Buf = T::Buffer;
    fn remaining(&self) -> usize {
        self.0.remaining()
    }
    fn read(&mut self, out: &mut T::Buffer, max: usize) -> Result<usize> {
        self.0.read(out, max)
    }
    fn skip(&mut self, n: usize) -> Result<usize> {
        self.0.skip(n)
    }
}

macro_rules! u32_stream {
    ($($t:ident),*) => {$(
        impl Stream for $t {
            type Value = u32;
            type Buf = Vec<u32>;
            fn remaining(&self) -> usize {
                $t::remaining(self)
            }
            fn read(&mut self, out: &mut Vec<u32>, max: usize) -> Result<usize> {
                $t::read(self, out, max)
            }
            fn skip(&mut self, n: usize) -> Result<usize> {
                $t::skip(self, n)
            }
        }
    )*};
}
u32_stream!(RleDecoder, BitPackedDecoder, IndexDecoder);

/// Most values one read of the reference decode takes, and most values a round trip makes.
const REFERENCE_LIMIT: usize = 1 << 14;
/// Most operations a schedule runs on one decoder.
const MAX_OPS: usize = 96;

/// Checks one step's result against the decoder's contract: `Ok(k)` means `k` is
/// `min(asked, before)` and `remaining()` went down by `k`.
fn check_step<S: Stream>(decoder: &S, what: &str, asked: usize, before: usize, got: usize) {
    assert_eq!(
        got,
        asked.min(before),
        "{what}({asked}) with {before} values left returned {got}"
    );
    assert_eq!(
        decoder.remaining(),
        before - got,
        "{what}({asked}) returned {got} but remaining() went from {before} to {}",
        decoder.remaining()
    );
}

/// Runs decoders built by `make` two ways and checks them against each other.
///
/// First, one read of up to [`REFERENCE_LIMIT`] values, or `expected` when the caller knows
/// the values (a round trip: then every operation must succeed). Then a second decoder through
/// the schedule of `seed`: its reads must give the reference's values at their positions and
/// must not fail where the reference read succeeded. Every step is checked against the
/// [`Decoder`] contract.
fn exercise<S: Stream>(make: impl Fn() -> Result<S>, expected: Option<&S::Buf>, seed: u16) {
    let mut reference = match make() {
        Ok(d) => d,
        Err(e) => {
            assert!(expected.is_none(), "decoder of an encoded page: {e}");
            return;
        }
    };
    let total = reference.remaining();
    let own;
    let (values, known) = match expected {
        Some(values) => {
            assert_eq!(
                total,
                values.len(),
                "decoder of an encoded page: value count"
            );
            (values, values.len())
        }
        None => {
            let want = total.min(REFERENCE_LIMIT);
            let mut all = S::Buf::default();
            let known = match reference.read(&mut all, want) {
                Ok(n) => {
                    check_step(&reference, "read", want, total, n);
                    assert_eq!(all.len(), n, "read returned {n} but appended {}", all.len());
                    n
                }
                Err(_) => 0,
            };
            own = all;
            (&own, known)
        }
    };

    let mut decoder = make().expect("a decoder built once builds again");
    let mut schedule = Schedule::new(seed);
    let mut pos = 0usize;
    let mut out = S::Buf::default();
    for _ in 0..MAX_OPS {
        let before = decoder.remaining();
        assert_eq!(
            before,
            total - pos,
            "remaining() is not what the steps left"
        );
        let op = schedule.op(before);
        let (what, asked, result) = match op {
            Op::Read(n) => {
                out.clear();
                let r = decoder.read(&mut out, n);
                if let Ok(k) = r {
                    assert_eq!(out.len(), k, "read returned {k} but appended {}", out.len());
                }
                ("read", n, r)
            }
            Op::Skip(n) => ("skip", n, decoder.skip(n)),
        };
        let fine = pos.saturating_add(asked.min(before)) <= known;
        match result {
            Ok(k) => {
                check_step(&decoder, what, asked, before, k);
                if what == "read" {
                    for i in 0..k {
                        if pos + i >= known {
                            break;
                        }
                        let (Some(a), Some(b)) = (out.get(i), values.get(pos + i)) else {
                            panic!("value {} missing", pos + i);
                        };
                        assert!(
                            a.same(b),
                            "value {} is {a:?} in batches but {b:?} in one read",
                            pos + i
                        );
                    }
                }
                pos += k;
            }
            Err(e) => {
                assert!(
                    !fine,
                    "{what}({asked}) at value {pos} failed ({e}) where one read of the page succeeded"
                );
                return;
            }
        }
        if before == 0 {
            break;
        }
    }
    // Skipping the rest ends, with a value count or an error.
    let before = decoder.remaining();
    if let Ok(k) = decoder.skip(usize::MAX) {
        check_step(&decoder, "skip", usize::MAX, before, k);
    } else {
        assert!(
            known < total,
            "skip of the rest failed where one read of the page succeeded"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// decode_<encoding>: a header picked from the first bytes, then the page.

/// Decodes `page` as `encoding` values of `T` through [`DynamicType::decoder`], with the
/// dictionary page `dictionary` (PLAIN, as many values as its bytes hold) if given.
fn decode_as<T: DynamicType>(
    encoding: Encoding,
    page: &[u8],
    num_values: usize,
    type_length: usize,
    dictionary: Option<&[u8]>,
    seed: u16,
) where
    T::Value: Same,
{
    let dictionary = match dictionary {
        Some(bytes) => {
            let Ok(count) = plain_value_count(T::TYPE, bytes, type_length) else {
                return;
            };
            match decode_plain_page::<T>(bytes, count, type_length) {
                Ok(d) => Some(Arc::new(d)),
                Err(_) => return,
            }
        }
        None => None,
    };
    exercise(
        || {
            let page = Bytes::copy_from_slice(page);
            T::decoder(encoding, page, num_values, type_length, dictionary.clone())
                .map(Typed::<T, _>::new)
        },
        None,
        seed,
    );
}

/// The common header of the typed decode targets: a physical type out of `types`, a type
/// length, a value count and a schedule seed; the rest is the page.
fn decode_typed(encoding: Encoding, types: &[PhysicalType], data: &[u8]) {
    let mut input = Input::new(data);
    let p = one_of(types, input.u8());
    let type_length = usize::from(input.u8() % 24);
    let num_values = input.count();
    let seed = input.u16();
    let page = input.rest();
    with_physical!(p, T => decode_as::<T>(encoding, page, num_values, type_length, None, seed));
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
        decode_as::<BooleanType>(Encoding::Rle, page, num_values, 0, None, seed);
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
    with_physical!(physical(mode % 9), T => decode_as::<T>(encoding, page, num_values, type_length, Some(dictionary), seed));
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

// ---------------------------------------------------------------------------------------------
// roundtrip_<encoding>: values made from the input, encoded, decoded back.

/// Physical types whose values can be made from fuzzer bytes.
trait Make: DynamicType {
    /// Up to `n` values from `input` (fewer if it runs out); `type_length` for FLBA.
    fn make(input: &mut Input<'_>, n: usize, type_length: usize) -> Self::Buffer;
}

impl Make for BooleanType {
    fn make(input: &mut Input<'_>, n: usize, _: usize) -> Vec<bool> {
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
            fn make(input: &mut Input<'_>, n: usize, _: usize) -> Vec<$native> {
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
    fn make(input: &mut Input<'_>, n: usize, _: usize) -> Vec<Int96> {
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
            fn make(input: &mut Input<'_>, n: usize, _: usize) -> Vec<$native> {
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
    fn make(input: &mut Input<'_>, n: usize, _: usize) -> ByteArrays {
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
    fn make(input: &mut Input<'_>, n: usize, type_length: usize) -> ByteArrays {
        let mut out = ByteArrays::new();
        let mut value = vec![0u8; type_length];
        while out.len() < n && !input.is_empty() {
            for b in &mut value {
                *b = input.u8();
            }
            out.push(&value);
        }
        out
    }
}

/// Makes values of `T`, encodes them as two pages of `encoding` (the values put in several
/// batches, a flush between the pages) and decodes both back through a schedule.
fn roundtrip_as<T: Make>(encoding: Encoding, input: &mut Input<'_>)
where
    T::Value: Same,
{
    let type_length = if T::TYPE == PhysicalType::FixedLenByteArray {
        1 + usize::from(input.u8() % 20)
    } else {
        0
    };
    let seed = input.u16();
    let cuts = [input.u16(), input.u16(), input.u16()];
    let values = T::make(input, REFERENCE_LIMIT, type_length);
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
    let mut encoder = T::encoder(encoding, type_length).expect("the encoding applies");
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
            let count = plain_value_count(T::TYPE, &bytes, type_length)
                .unwrap_or_else(|e| panic!("dictionary page: {e}"));
            decode_plain_page::<T>(&bytes, count, type_length)
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
                    type_length,
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
fn roundtrip_typed(encoding: Encoding, types: &[PhysicalType], data: &[u8]) {
    let mut input = Input::new(data);
    let p = one_of(types, input.u8());
    with_physical!(p, T => roundtrip_as::<T>(encoding, &mut input));
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
        roundtrip_as::<BooleanType>(Encoding::Rle, &mut input);
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
    with_physical!(physical(b), T => roundtrip_as::<T>(encoding, &mut input));
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

// ---------------------------------------------------------------------------------------------
// arrow_pages: a column's shape and pages from the input into the Arrow decoders.

/// The Arrow types a leaf of `physical` type may be read as, picked by a byte.
pub fn leaf_type(physical: PhysicalType, type_length: usize, b: u8) -> DataType {
    let tl = i32::try_from(type_length).unwrap_or(i32::MAX);
    let choices: Vec<DataType> = match physical {
        PhysicalType::Boolean => vec![DataType::Boolean, DataType::Null],
        PhysicalType::Int32 => vec![
            DataType::Int32,
            DataType::Int8,
            DataType::UInt16,
            DataType::UInt32,
            DataType::Date32,
            DataType::Date64,
            DataType::Decimal128(9, 2),
            DataType::Time32(TimeUnit::Millisecond),
            DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Int32)),
        ],
        PhysicalType::Int64 => vec![
            DataType::Int64,
            DataType::UInt64,
            DataType::Timestamp(TimeUnit::Microsecond, None),
            DataType::Timestamp(TimeUnit::Nanosecond, Some("+01:00".into())),
            DataType::Decimal128(18, 3),
            DataType::Time64(TimeUnit::Microsecond),
        ],
        PhysicalType::Int96 => vec![
            DataType::Timestamp(TimeUnit::Nanosecond, None),
            DataType::Timestamp(TimeUnit::Millisecond, None),
        ],
        PhysicalType::Float => vec![DataType::Float32],
        PhysicalType::Double => vec![DataType::Float64],
        PhysicalType::ByteArray => vec![
            DataType::Binary,
            DataType::Utf8,
            DataType::LargeUtf8,
            DataType::Utf8View,
            DataType::BinaryView,
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
            DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::Binary)),
            DataType::Decimal128(20, 2),
        ],
        PhysicalType::FixedLenByteArray => vec![
            DataType::FixedSizeBinary(tl),
            DataType::Float16,
            DataType::Decimal128(38, 4),
            DataType::Interval(IntervalUnit::DayTime),
            DataType::Dictionary(
                Box::new(DataType::Int16),
                Box::new(DataType::FixedSizeBinary(tl)),
            ),
        ],
    };
    choices[usize::from(b) % choices.len()].clone()
}

/// A field of one of a few shapes over leaves of type `leaf`, and its columns' descriptions.
pub fn shape(
    which: u8,
    leaf: DataType,
    physical: PhysicalType,
    type_length: usize,
) -> (FieldRef, Vec<ColumnDesc>) {
    let col = |path: &str, def: u16, rep: u16| ColumnDesc {
        path: path.into(),
        physical,
        type_length,
        max_def_level: def,
        max_rep_level: rep,
    };
    let item = |nullable: bool| Arc::new(Field::new("item", leaf.clone(), nullable));
    match which % 9 {
        0 => (
            Arc::new(Field::new("a", leaf.clone(), false)),
            vec![col("a", 0, 0)],
        ),
        1 => (
            Arc::new(Field::new("a", leaf.clone(), true)),
            vec![col("a", 1, 0)],
        ),
        2 => {
            let fields = Fields::from(vec![Field::new("x", leaf.clone(), true)]);
            (
                Arc::new(Field::new("s", DataType::Struct(fields), true)),
                vec![col("s.x", 2, 0)],
            )
        }
        3 => (
            Arc::new(Field::new("l", DataType::List(item(true)), true)),
            vec![col("l.list.item", 3, 1)],
        ),
        4 => (
            Arc::new(Field::new("l", DataType::List(item(false)), false)),
            vec![col("l.list.item", 1, 1)],
        ),
        5 => {
            let inner = Arc::new(Field::new("item", DataType::List(item(true)), true));
            (
                Arc::new(Field::new("l", DataType::List(inner), true)),
                vec![col("l.list.item.list.item", 5, 2)],
            )
        }
        6 => (
            Arc::new(Field::new("l", DataType::LargeList(item(true)), true)),
            vec![col("l.list.item", 3, 1)],
        ),
        7 => {
            let fields = Fields::from(vec![
                Field::new("x", leaf.clone(), false),
                Field::new("y", leaf.clone(), true),
            ]);
            (
                Arc::new(Field::new("s", DataType::Struct(fields), true)),
                vec![col("s.x", 1, 0), col("s.y", 2, 0)],
            )
        }
        _ => {
            let entries = Fields::from(vec![
                Field::new("key", leaf.clone(), false),
                Field::new("value", leaf.clone(), true),
            ]);
            let entries = Arc::new(Field::new("key_value", DataType::Struct(entries), false));
            (
                Arc::new(Field::new("m", DataType::Map(entries, false), true)),
                vec![col("m.key_value.key", 2, 1), col("m.key_value.value", 3, 1)],
            )
        }
    }
}

/// The pages of each column, from the input: records of a kind byte (0 dictionary page, 1
/// data page v1, 2 data page v2, 3 the next column's pages begin, anything else ends),
/// an encoding byte, a value count, the kind's header fields, a byte length and the bytes.
pub fn pages(input: &mut Input<'_>, columns: usize) -> Vec<Vec<Page>> {
    let mut out: Vec<Vec<Page>> = vec![Vec::new(); columns];
    let mut column = 0;
    while !input.is_empty() {
        let kind = input.u8();
        if kind == 3 {
            column += 1;
            if column == columns {
                break;
            }
            continue;
        }
        let encoding = Encoding::ALL[usize::from(input.u8()) % Encoding::ALL.len()];
        let num_values = input.count();
        let page = match kind {
            0 => {
                let len = input.u32() as usize;
                Page::Dictionary(DictionaryPage {
                    data: arrow_buffer::Buffer::from(input.take(len)),
                    num_values,
                    encoding,
                })
            }
            1 => {
                let levels = input.u8();
                let level_encoding = |b: u8| {
                    if b & 1 == 0 {
                        Encoding::Rle
                    } else {
                        Encoding::BitPacked
                    }
                };
                let len = input.u32() as usize;
                Page::DataV1(DataPageV1 {
                    data: arrow_buffer::Buffer::from(input.take(len)),
                    num_values,
                    encoding,
                    def_level_encoding: level_encoding(levels),
                    rep_level_encoding: level_encoding(levels >> 1),
                })
            }
            2 => {
                let num_nulls = input.count();
                let num_rows = input.count();
                let def_levels_byte_len = input.u32() as usize;
                let rep_levels_byte_len = input.u32() as usize;
                let len = input.u32() as usize;
                Page::DataV2(DataPageV2 {
                    data: arrow_buffer::Buffer::from(input.take(len)),
                    num_values,
                    num_nulls,
                    num_rows,
                    encoding,
                    def_levels_byte_len,
                    rep_levels_byte_len,
                })
            }
            _ => break,
        };
        if let Some(pages) = out.get_mut(column) {
            pages.push(page);
        }
    }
    out
}

/// The input bytes [`pages`] reads back as `columns`' pages (the seed corpus is written
/// with it).
pub fn write_pages(out: &mut Vec<u8>, columns: &[Vec<Page>]) {
    let u32_of = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes();
    let count = |n: usize| {
        // What `Input::count` reads back as n (n below 2^16, or 2^31 and more).
        u32_of(if n < 0x1_0000 { n } else { n | 0x8000_0000 })
    };
    let encoding = |e: Encoding| Encoding::ALL.iter().position(|&x| x == e).unwrap_or(0) as u8;
    for (i, pages) in columns.iter().enumerate() {
        if i > 0 {
            out.push(3);
        }
        for page in pages {
            match page {
                Page::Dictionary(p) => {
                    out.extend([0, encoding(p.encoding)]);
                    out.extend(count(p.num_values));
                    out.extend(u32_of(p.data.len()));
                    out.extend_from_slice(&p.data);
                }
                Page::DataV1(p) => {
                    out.extend([1, encoding(p.encoding)]);
                    out.extend(count(p.num_values));
                    let bit = |e: Encoding| u8::from(e == Encoding::BitPacked);
                    out.push(bit(p.def_level_encoding) | (bit(p.rep_level_encoding) << 1));
                    out.extend(u32_of(p.data.len()));
                    out.extend_from_slice(&p.data);
                }
                Page::DataV2(p) => {
                    out.extend([2, encoding(p.encoding)]);
                    out.extend(count(p.num_values));
                    out.extend(count(p.num_nulls));
                    out.extend(count(p.num_rows));
                    out.extend(u32_of(p.def_levels_byte_len));
                    out.extend(u32_of(p.rep_levels_byte_len));
                    out.extend(u32_of(p.data.len()));
                    out.extend_from_slice(&p.data);
                }
            }
        }
    }
    out.push(4);
}

/// Most rows a target decodes from one input: a page may honestly claim 2^31 null rows in a
/// few bytes, and decoding them all is not a hang of pqcodec's.
const MAX_ROWS: usize = 1 << 20;

/// Checks a batch the decoders returned: at most `asked` rows, every array valid.
fn check_batch(batch: &RecordBatch, asked: usize) {
    assert!(
        batch.num_rows() <= asked,
        "{} rows where {asked} were asked",
        batch.num_rows()
    );
    for (i, column) in batch.columns().iter().enumerate() {
        assert_eq!(column.len(), batch.num_rows(), "column {i} length");
        if let Err(e) = column.to_data().validate_full() {
            panic!(
                "column {i} is not a valid {} array: {e}",
                column.data_type()
            );
        }
    }
}

/// Runs a [`RecordBatchDecoder`] through the schedule of `seed`: reads and skips of varying
/// row counts, checking every batch, until the columns end, fail or [`MAX_ROWS`] are done.
fn drive(mut decoder: RecordBatchDecoder, seed: u16) {
    let mut schedule = Schedule::new(seed);
    let mut rows = 0usize;
    while rows < MAX_ROWS {
        match schedule.op(MAX_ROWS - rows) {
            Op::Read(n) => {
                let n = n.clamp(1, 4096);
                match decoder.read(n) {
                    Ok(Some(batch)) => {
                        check_batch(&batch, n);
                        assert!(batch.num_rows() > 0, "an empty batch before the end");
                        rows += batch.num_rows();
                    }
                    Ok(None) | Err(_) => return,
                }
            }
            Op::Skip(n) => {
                let n = n.min(MAX_ROWS - rows).max(1);
                match RecordBatchDecoder::skip(&mut decoder, n) {
                    Ok(0) | Err(_) => return,
                    Ok(k) => {
                        assert!(k <= n, "skipped {k} rows where {n} were asked");
                        rows += k;
                    }
                }
            }
        }
    }
}

/// A column's shape (physical type, type length, Arrow type, nesting) picked by the first
/// bytes, then its pages, into [`RecordBatchDecoder`] through a schedule of reads and skips.
pub fn arrow_pages(data: &[u8]) {
    let mut input = Input::new(data);
    let p = physical(input.u8());
    let type_length = usize::from(input.u8());
    let which = input.u8();
    let leaf = leaf_type(p, type_length, input.u8());
    let seed = input.u16();
    let (field, descs) = shape(which, leaf, p, type_length);
    let pages = pages(&mut input, descs.len());
    let columns = descs
        .into_iter()
        .zip(pages)
        .map(|(desc, pages)| {
            Column::new(
                desc,
                pages.into_iter().map(Ok::<_, std::convert::Infallible>),
            )
        })
        .collect();
    let schema = Arc::new(Schema::new(vec![field]));
    let Ok(decoder) = RecordBatchDecoder::try_new(schema, columns, 1024) else {
        return;
    };
    drive(decoder, seed);
}

// ---------------------------------------------------------------------------------------------
// cat_file: a whole file through the CLI's code path.

thread_local! {
    /// Whether this thread is inside the parquet crate's framing.
    static IN_FRAMING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, a call into the parquet crate's framing; a panic in it is `None`.
///
/// The first call wraps the panic hook (libFuzzer's aborts the process) so that it stays quiet
/// inside framing and is called as before everywhere else.
fn framing<R>(f: impl FnOnce() -> R) -> Option<R> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_FRAMING.with(Cell::get) {
                previous(info);
            }
        }));
    });
    IN_FRAMING.with(|c| c.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_FRAMING.with(|c| c.set(false));
    result.ok()
}

/// A column's pages from the file, each read from it inside [`framing`].
struct Framed(FilePages);

impl Iterator for Framed {
    type Item = std::result::Result<Page, Box<dyn std::error::Error + Send + Sync>>;

    fn next(&mut self) -> Option<Self::Item> {
        match framing(|| self.0.next()) {
            Some(Some(Ok(page))) => Some(Ok(page)),
            Some(Some(Err(e))) => Some(Err(e)),
            Some(None) => None,
            None => Some(Err("the parquet crate panicked reading a page".into())),
        }
    }
}

/// Rows per batch, as `pqcodec cat` reads them.
const CAT_BATCH_SIZE: usize = 8192;

/// A whole Parquet file the way `pqcodec cat FILE` reads it: footer and schema from the
/// parquet crate, every column, batches of 8192 rows (up to [`MAX_ROWS`]), each array checked.
pub fn cat_file(data: &[u8]) {
    let bytes = bytes::Bytes::copy_from_slice(data);
    let Some(Ok(file)) = framing(|| ParquetFile::from_bytes(bytes)) else {
        return;
    };
    let Some((schema, descs)) = framing(|| (file.schema(), file.column_descs())) else {
        return;
    };
    let columns = descs
        .into_iter()
        .enumerate()
        .map(|(i, desc)| Column::new(desc, Framed(file.pages(i))))
        .collect();
    let Ok(decoder) = RecordBatchDecoder::try_new(schema, columns, CAT_BATCH_SIZE) else {
        return;
    };
    let mut rows = 0;
    for batch in decoder {
        let Ok(batch) = batch else { return };
        check_batch(&batch, CAT_BATCH_SIZE);
        rows += batch.num_rows();
        if rows >= MAX_ROWS {
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// read_file: a file through the reader builder, with a projection, row groups, a row
// selection, an offset, a limit and a batch size chosen by the input.

/// Bytes before the file in a `read_file` input: see [`read_file`].
pub const READ_FILE_PREFIX: usize = 16;

/// pqcodec's SNAPPY decoder against the `snap` crate's. With the first byte even, the rest is
/// SNAPPY data as it comes: both decoders fail, or both give the same bytes (a header claiming
/// more than the data can make is refused before either allocates it). With it odd, the rest is
/// compressed by `snap` and must come back as it was. Either way the output already holds
/// `first >> 5` bytes, which must stay as they were.
pub fn decompress_snappy(data: &[u8]) {
    use pqcodec_file::framing::snappy::{SnappyError, decompress_into, decompressed_len};
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let prefix = vec![mode; usize::from(mode >> 5)];
    if mode & 1 == 1 {
        let compressed = snap::raw::Encoder::new().compress_vec(rest).unwrap();
        let mut out = prefix.clone();
        decompress_into(&compressed, rest.len(), &mut out).unwrap();
        assert_eq!(&out[..prefix.len()], &prefix[..]);
        assert_eq!(&out[prefix.len()..], rest);
        return;
    }
    let len = decompressed_len(rest).map_or(0, |(len, _)| len);
    let mut out = prefix.clone();
    let ours = decompress_into(rest, len, &mut out);
    if let Err(SnappyError::Impossible { .. }) = ours {
        return;
    }
    let theirs = snap::raw::Decoder::new().decompress_vec(rest);
    match (ours, theirs) {
        (Ok(()), Ok(theirs)) => assert_eq!(&out[prefix.len()..], &theirs[..]),
        (Err(_), Err(_)) => assert_eq!(out, prefix, "a failed decompression left bytes"),
        (ours, theirs) => panic!("pqcodec {ours:?}, snap {:?}", theirs.map(|v| v.len())),
    }
}

/// A Parquet file read as an engine reads it: `ReaderBuilder` over the bytes with the page
/// index, what to read chosen by the first [`READ_FILE_PREFIX`] bytes, every batch checked.
///
/// The prefix: flags (bit 0 a projection, by leaf columns, or with bit 1 by top-level fields;
/// bit 2 row groups, bit 3 in reverse order; bit 4 a row selection, its first run skipped if
/// bit 5; bit 6 an offset; bit 7 a limit), the projection's bitmask (u16: column `i` if bit
/// `i % 16`), the row groups' bitmask (u8: row group `g` if bit `g % 8`), three runs of the
/// selection (u16 each, alternately skipped and read), the offset (u16), the limit (u16), the
/// batch size (u16, taken modulo 1024, plus 1). The rest is the file.
///
/// Only the metadata load runs inside [`framing`]: it is the parquet crate's footer and page
/// index decoding, whose panics on malformed footers are the crate's (the CLI catches them at
/// its boundary). The builder's settings and every `next_batch` run bare, although a batch
/// interleaves the parquet crate's page framing with pqcodec's decoding: catching a panic
/// there would hide pqcodec's, and pqcodec-file checks every page header before the parquet
/// crate reads it, promising its callers an error, never a panic.
///
/// Checked: every batch as [`check_batch`] checks it, non-empty, of the reader's schema; and
/// a read that ends without an error gave exactly the rows asked for: the selected rows of
/// the chosen row groups (as their metadata counts them), less the offset, at most the limit.
pub fn read_file(data: &[u8]) {
    let mut input = Input::new(data);
    let flags = input.u8();
    let leaf_mask = input.u16();
    let group_mask = input.u8();
    let runs = [input.u16(), input.u16(), input.u16()];
    let offset = usize::from(input.u16());
    let limit = usize::from(input.u16());
    let batch_word = input.u16();
    let batch_size = usize::from(batch_word % 1024) + 1;
    // The top bit: top-level strings and binaries read as views, as DataFusion reads them.
    let views = batch_word & 0x8000 != 0;
    let file = bytes::Bytes::copy_from_slice(input.rest());
    let options = ReaderOptions::new().with_page_index(true);
    let Some(Ok(mut builder)) = framing(|| ReaderBuilder::try_new_with_options(file, options))
    else {
        return;
    };

    if views && let Ok(schema) = builder.schema() {
        let fields: Vec<Field> = schema
            .fields()
            .iter()
            .map(|f| {
                let viewed = match f.data_type() {
                    DataType::Utf8 | DataType::LargeUtf8 => DataType::Utf8View,
                    DataType::Binary | DataType::LargeBinary => DataType::BinaryView,
                    other => other.clone(),
                };
                f.as_ref().clone().with_data_type(viewed)
            })
            .collect();
        let viewed = Schema::new_with_metadata(fields, schema.metadata().clone());
        builder = builder.with_schema(Arc::new(viewed));
    }
    let meta = builder.metadata().metadata().clone();
    let group_rows = |g: usize| usize::try_from(meta.row_group(g).num_rows()).unwrap_or(0);
    let bit = |mask: u16, i: usize| mask & (1 << (i % 16)) != 0;
    if flags & 1 != 0 {
        let chosen = |n: usize| (0..n).filter(|&i| bit(leaf_mask, i)).collect::<Vec<_>>();
        let projection = match flags & 2 != 0 {
            true => Projection::roots(chosen(builder.metadata().schema().fields().len())),
            false => Projection::leaves(chosen(builder.metadata().columns().len())),
        };
        builder = builder.with_projection(projection);
    }
    let mut groups: Vec<usize> = (0..meta.num_row_groups()).collect();
    if flags & 4 != 0 {
        groups.retain(|&g| bit(u16::from(group_mask), g % 8));
        if flags & 8 != 0 {
            groups.reverse();
        }
        builder = builder.with_row_groups(groups.clone());
    }
    let total: usize = groups
        .iter()
        .map(|&g| group_rows(g))
        .fold(0, usize::saturating_add);
    let mut selected = total;
    if flags & 16 != 0 {
        let first_skipped = flags & 32 != 0;
        let selection: RowSelection = runs
            .iter()
            .enumerate()
            .map(|(i, &n)| match (i % 2 == 0) == first_skipped {
                true => RowSelector::skip(usize::from(n)),
                false => RowSelector::select(usize::from(n)),
            })
            .collect();
        selected = selection.row_count();
        builder = builder.with_row_selection(selection);
    }
    let mut expected = selected;
    if flags & 64 != 0 {
        builder = builder.with_offset(offset);
        expected = expected.saturating_sub(offset);
    }
    if flags & 128 != 0 {
        builder = builder.with_limit(limit);
        expected = expected.min(limit);
    }
    let Ok(mut reader) = builder.with_batch_size(batch_size).build() else {
        return;
    };

    let schema = arrow_array::RecordBatchReader::schema(&reader);
    let mut rows = 0usize;
    loop {
        match reader.next_batch() {
            Ok(Some(batch)) => {
                check_batch(&batch, batch_size);
                assert!(batch.num_rows() > 0, "an empty batch before the end");
                assert_eq!(batch.schema(), schema, "a batch of another schema");
                rows += batch.num_rows();
                assert!(
                    rows <= expected,
                    "{rows} rows read where {expected} were asked"
                );
                if rows >= MAX_ROWS {
                    return;
                }
            }
            Ok(None) => break,
            Err(_) => return,
        }
    }
    assert_eq!(rows, expected, "the reader ended early without an error");
}
