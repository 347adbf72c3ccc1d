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
use pqcodec_testkit::{arrow_type, uleb, zigzag};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use arrow_array::Array;
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field};
use pqcodec::arrow::{
    ArrayDecoder, Column, ColumnDesc, DataPageV1, DataPageV2, DictionaryPage, Error as ArrowError,
    Page,
};
use pqcodec::core::{
    ColumnType, Decoder, Encoder, Encoding, Error, Int32Type, PhysicalType, ValueBuffer,
    with_physical,
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

mod arrow;
mod builders;
mod cases;
mod mutated;
mod runner;

use arrow::*;
use builders::*;
use cases::*;
use runner::*;

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
    /// [`Error::TypeLength`]: no FIXED_LEN_BYTE_ARRAY of this type length can be described,
    /// so no decoder is made.
    TypeLength(u64),
}

impl Expect {
    /// The encoding the error's message names, for the variants that have one.
    fn encoding(&self) -> Option<Encoding> {
        match *self {
            Expect::Truncated(e, _)
            | Expect::BitWidth(e, ..)
            | Expect::CountTooLarge(e, _)
            | Expect::DictionaryIndex(e, ..)
            | Expect::Invalid(e, _)
            | Expect::Unsupported(e, _) => Some(e),
            Expect::TypeLength(_) => None,
        }
    }

    /// The field the error's message names, for the variants that have one.
    fn field(&self) -> Option<&'static str> {
        match *self {
            Expect::Truncated(_, f)
            | Expect::BitWidth(_, f, ..)
            | Expect::CountTooLarge(_, f)
            | Expect::Invalid(_, f) => Some(f),
            Expect::TypeLength(_) => Some("type_length"),
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
            (Expect::TypeLength(t), Error::TypeLength { type_length }) => t == type_length,
            _ => false,
        };
        let text = e.to_string();
        if !ok {
            return Err(format!("expected {self:?}, got {e:?} ({text})"));
        }
        // The message must say which encoding and which field.
        if let Some(encoding) = self.encoding()
            && !text.contains(encoding.name())
        {
            return Err(format!("message {text:?} does not name {encoding}"));
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
    /// The column type the case's physical type and type length describe.
    fn column_type(&self) -> Result<ColumnType, Error> {
        ColumnType::new(self.physical, self.type_length)
    }
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

/// Two leaves of one struct whose pages hold different numbers of rows.
#[test]
fn struct_leaves_of_different_lengths_are_an_error() {
    let leaf = |name: &str| ColumnDesc {
        path: format!("s.{name}"),
        column_type: ColumnType::Int32,
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
