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
//! Panics inside the parquet crate (the metadata it builds from pqcodec's footer, the page index)
//! are not pqcodec's: `cat_file` catches them around opening the file only, as the `pqcodec` CLI
//! does at its boundary, and `read_file` around the metadata load only; everything of pqcodec's
//! (page headers, decompression, decoding) runs outside `catch_unwind`.

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
    BooleanType, ByteArrayType, ByteArrays, ColumnType, Decoder, DoubleType, Encoder, Encoding,
    FixedLenByteArrayType, FloatType, Int32Type, Int64Type, Int96, Int96Type, Physical,
    PhysicalType, Result, Sink, ValueBuffer, with_physical,
};
use pqcodec_encodings::bit_packed::{BitPackedDecoder, BitPackedEncoder};
use pqcodec_encodings::dictionary::IndexDecoder;
use pqcodec_encodings::dynamic::{DynamicType, plain_value_count};
use pqcodec_encodings::plain::decode_plain_page;
use pqcodec_encodings::rle::{RleDecoder, RleEncoder, split_length_prefix};
use pqcodec_file::ParquetFile;
use pqcodec_file::{Projection, ReaderBuilder, ReaderOptions, RowSelection, RowSelector};
use pqcodec_testkit::Rng;

mod arrow;
mod decode;
mod files;
mod roundtrip;

pub use arrow::*;
pub use decode::*;
pub use files::*;
pub use roundtrip::*;

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
    rng: Rng,
}

/// What a schedule asks of a decoder next.
enum Op {
    Read(usize),
    Skip(usize),
}

impl Schedule {
    fn new(seed: u16) -> Self {
        Schedule {
            rng: Rng::new(u64::from(seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        }
    }

    fn next_u32(&mut self) -> u32 {
        (self.rng.next_u64() >> 32) as u32
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
