//! Peak allocation for hostile headers stays under a small fixed bound (issue 5).
//!
//! A counting global allocator (this test binary's own) tracks, per thread, the bytes live and
//! their peak. Each check below measures the peak a decode reaches above what was live before
//! it, on pages of about 100 bytes whose headers claim 2^31 values: every encoding x physical
//! type through the codec's run-time decoders (one read asking for all 2^31 values, and the
//! one-shot [`dynamic::decode`]), and through the Arrow adapter in batches of 8192 rows. The
//! bound is 1 MiB plus 16 times the input: what the bytes can hold and the batch asked for,
//! never the claim.

use bytes::Bytes;
use pqcodec_testkit::{arrow_type, uleb};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use arrow_array::Array;
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field};
use pqcodec::arrow::{
    ArrayDecoder, Column, ColumnDesc, DataPageV1, DataPageV2, DictionaryPage, Page,
};
use pqcodec::core::{ColumnType, Decoder, Encoding, PhysicalType, with_physical};
use pqcodec::encodings::dynamic::{self, DynamicType, IntoValues, plain_value_count};
use pqcodec::encodings::plain::decode_plain_page;

/// The system allocator, counting live bytes and their peak per thread.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn account(delta: isize) {
    // `try_with`: the counters may be gone while the thread's other locals are dropped.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| {
            if now > peak.get() {
                peak.set(now);
            }
        });
    });
}

// SAFETY: every call is forwarded to `System` unchanged; the bookkeeping only touches
// thread-local `Cell`s (const-initialised, without destructors), which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is `System.alloc`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            account(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            account(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        account(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`; the caller upholds the rest.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            account(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result and the peak of bytes allocated by this thread above what
/// was live when it started.
fn peak_of<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let r = f();
    let peak = PEAK.with(Cell::get);
    (r, usize::try_from(peak - base).unwrap_or(0))
}

/// What a decode of `input` bytes may allocate at its peak.
fn bound(input: usize) -> usize {
    (1 << 20) + 16 * input
}

const HUGE: usize = 1 << 31;
const ARROW_BATCH: usize = 8192;

/// `bytes` padded with zeros (or cut) to 100 bytes.
fn page100(bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b.resize(100, 0);
    b
}

/// A DELTA_BINARY_PACKED header claiming 2^31 values, then zeros: blocks of min delta 0 and
/// four miniblocks of width 0 (5 bytes per 128 values), until the bytes end mid-block.
fn delta_header_huge() -> Vec<u8> {
    let mut b = uleb(128);
    b.extend(uleb(4));
    b.extend(uleb(HUGE as u64));
    b.push(0);
    page100(&b)
}

/// A bit-packed run header declaring (2^28 - 1) groups (just under 2^31 values), for the RLE
/// hybrid, followed by a few bytes of the run.
fn packed_run_huge() -> Vec<u8> {
    uleb((((1u64 << 28) - 1) << 1) | 1)
}

/// One hostile page: ~100 bytes claiming 2^31 values.
struct Hostile {
    name: String,
    encoding: Encoding,
    column_type: ColumnType,
    bytes: Vec<u8>,
    dictionary: Option<Vec<u8>>,
}

fn hostile_pages() -> Vec<Hostile> {
    use Encoding::*;
    use PhysicalType as P;
    let all = [
        P::Boolean,
        P::Int32,
        P::Int64,
        P::Int96,
        P::Float,
        P::Double,
        P::ByteArray,
        P::FixedLenByteArray,
    ];
    let mut out = Vec::new();
    let mut add = |encoding: Encoding, physical, bytes: Vec<u8>, dictionary: Option<Vec<u8>>| {
        let name = format!("{encoding} {physical} ({} bytes)", bytes.len());
        out.push(Hostile {
            name,
            encoding,
            // FIXED_LEN_BYTE_ARRAY values 4 bytes wide.
            column_type: ColumnType::new(physical, 4).unwrap(),
            bytes,
            dictionary,
        });
    };
    for p in all {
        add(Plain, p, page100(&[1, 0, 0, 0, 7]), None);
        add(Plain, p, vec![0; 100], None);
        // Dictionary indices: a bit-packed run declaring ~2^31 indices, at widths 1 and 32.
        let dictionary = Some(vec![0; 24]);
        for width in [1u8, 32] {
            for encoding in [RleDictionary, PlainDictionary] {
                let bytes = page100(&[&[width][..], &packed_run_huge()].concat());
                add(encoding, p, bytes, dictionary.clone());
            }
        }
        // An RLE run of 2^31 - 1 indices 0, then the bytes end (the run alone is legitimate:
        // only the batch asked for may be allocated).
        let run = [&[1u8][..], &uleb(((1u64 << 31) - 1) << 1), &[0]].concat();
        add(RleDictionary, p, run, dictionary.clone());
    }
    let rle = [&[96u8, 0, 0, 0][..], &packed_run_huge()].concat();
    add(Rle, P::Boolean, page100(&rle), None);
    for p in [P::Float, P::Double] {
        // A header claiming 2^31 - 1 values (2^21 vectors, whose offsets alone would take 8
        // MiB) in 100 bytes.
        add(Alp, p, page100(&[0, 0, 10, 0xFF, 0xFF, 0xFF, 0x7F]), None);
    }
    for p in [P::Int32, P::Int64] {
        add(GroupVarInt, p, vec![0; 100], None);
        add(DeltaBinaryPacked, p, delta_header_huge(), None);
    }
    add(
        DeltaLengthByteArray,
        P::ByteArray,
        delta_header_huge(),
        None,
    );
    for p in [P::ByteArray, P::FixedLenByteArray] {
        add(DeltaByteArray, p, delta_header_huge(), None);
    }
    for p in [
        P::Int32,
        P::Int64,
        P::Float,
        P::Double,
        P::FixedLenByteArray,
    ] {
        add(ByteStreamSplit, p, vec![0; 96], None);
    }
    out
}

/// One read asking for every one of the 2^31 values claimed.
fn read_everything<T: DynamicType>(h: &Hostile, ty: T) {
    let dictionary = h.dictionary.as_ref().map(|bytes| {
        let count = plain_value_count(h.column_type, bytes).unwrap();
        Arc::new(decode_plain_page(bytes, count, ty).unwrap())
    });
    let page = Bytes::copy_from_slice(&h.bytes);
    let (_, peak) = peak_of(move || {
        let decoder = T::decoder(h.encoding, page, HUGE, ty, dictionary.clone());
        if let Ok(mut decoder) = decoder {
            let mut out = T::Buffer::default();
            let _ = decoder.read(&mut out, HUGE);
        }
    });
    assert!(
        peak <= bound(h.bytes.len()),
        "{}: one read of 2^31 values peaked at {peak} bytes",
        h.name
    );
}

/// Reads a one-column field in batches of 8192 rows, at most `batches` of them; returns the
/// rows read or the error's text.
fn arrow_batches(
    desc: ColumnDesc,
    field: Field,
    pages: Vec<Page>,
    batches: usize,
) -> Result<usize, String> {
    let pages = pages.into_iter().map(Ok::<_, std::convert::Infallible>);
    let mut decoder = ArrayDecoder::try_new(Arc::new(field), vec![Column::new(desc, pages)])
        .map_err(|e| e.to_string())?;
    let mut rows = 0;
    for _ in 0..batches {
        let array = decoder.read(ARROW_BATCH).map_err(|e| e.to_string())?;
        if array.is_empty() {
            break;
        }
        rows += array.len();
    }
    Ok(rows)
}

#[test]
fn hostile_pages_cover_every_encoding_and_type() {
    let pages = hostile_pages();
    for e in Encoding::ALL {
        for p in PhysicalType::ALL {
            let column_type = ColumnType::new(p, 4).unwrap();
            let applies = dynamic::encode(e, &empty_values(column_type), column_type).is_ok();
            let covered = pages
                .iter()
                .any(|h| h.encoding == e && h.column_type.physical() == p);
            assert_eq!(applies, covered, "{e} x {p}");
        }
    }
}

fn empty_values(column_type: ColumnType) -> dynamic::Values {
    with_physical!(column_type, _: T => T::into_values(Default::default()))
}

#[test]
fn one_read_of_2_pow_31_values_allocates_by_the_bytes() {
    for h in hostile_pages() {
        // A legitimate RLE run of 2^31 - 1 values would be decoded whole: not hostile here.
        if h.bytes.len() < 90 {
            continue;
        }
        with_physical!(h.column_type, ty: T => read_everything::<T>(&h, ty));
    }
}

#[test]
fn one_shot_decode_of_2_pow_31_values_allocates_by_the_bytes() {
    for h in hostile_pages() {
        // A legitimate RLE run of 2^31 - 1 values would be decoded whole: not hostile here.
        if h.bytes.len() < 90 {
            continue;
        }
        let page = Bytes::copy_from_slice(&h.bytes);
        let (result, peak) = peak_of(move || {
            dynamic::decode(
                h.encoding,
                h.column_type,
                page,
                HUGE,
                h.dictionary.as_deref(),
            )
            .map(|v| v.len())
        });
        assert!(result.is_err(), "{}: decoded {result:?}", h.name);
        assert!(
            peak <= bound(h.bytes.len()),
            "{}: dynamic::decode peaked at {peak} bytes",
            h.name
        );
    }
}

#[test]
fn arrow_batches_of_hostile_pages_allocate_by_the_batch() {
    for h in hostile_pages() {
        let mut pages = Vec::new();
        let mut input = h.bytes.len();
        if let Some(d) = &h.dictionary {
            input += d.len();
            pages.push(Page::Dictionary(DictionaryPage {
                data: Buffer::from_vec(d.clone()),
                num_values: plain_value_count(h.column_type, d).unwrap(),
                encoding: Encoding::Plain,
            }));
        }
        pages.push(Page::DataV1(DataPageV1 {
            data: Buffer::from_vec(h.bytes.clone()),
            num_values: HUGE,
            encoding: h.encoding,
            def_level_encoding: Encoding::Rle,
            rep_level_encoding: Encoding::Rle,
        }));
        let desc = ColumnDesc::flat("c", h.column_type, false);
        let field = Field::new("c", arrow_type(h.column_type), false);
        // Sixteen batches at most: the legitimate runs would go on for 2^31 rows.
        let (result, peak) = peak_of(|| arrow_batches(desc, field, pages, 16));
        assert!(
            peak <= bound(input),
            "{}: the Arrow adapter peaked at {peak} bytes ({result:?})",
            h.name
        );
        if h.bytes.len() < 90 {
            // The legitimate run: sixteen whole batches, whose arrays the counter saw.
            assert_eq!(result, Ok(16 * ARROW_BATCH), "{}", h.name);
            assert!(peak >= ARROW_BATCH / 8, "{}: peak {peak}", h.name);
        } else {
            assert!(result.is_err(), "{}: {result:?}", h.name);
        }
    }
}

#[test]
fn arrow_levels_claiming_2_pow_31_allocate_by_the_batch() {
    // An optional column: 2^31 - 1 nulls in one RLE run of definition levels (6 bytes, v1).
    let mut nulls = vec![0, 0, 0, 0];
    nulls.extend(uleb(((1u64 << 31) - 1) << 1));
    nulls.push(0);
    let len = (nulls.len() - 4) as u32;
    nulls[..4].copy_from_slice(&len.to_le_bytes());
    // The same levels, bit-packed garbage after 8 of them.
    let mut garbage = vec![96, 0, 0, 0];
    garbage.extend(packed_run_huge());
    let garbage = page100(&garbage);
    let optional = || ColumnDesc::flat("c", ColumnType::Int64, true);
    let list = || ColumnDesc {
        path: "l.list.item".into(),
        column_type: ColumnType::Int64,
        max_def_level: 3,
        max_rep_level: 1,
    };
    let list_field = || {
        Field::new(
            "l",
            DataType::List(Arc::new(Field::new("item", DataType::Int64, true))),
            true,
        )
    };
    let v1 = |data: &[u8], num_values| {
        Page::DataV1(DataPageV1 {
            data: Buffer::from_vec(data.to_vec()),
            num_values,
            encoding: Encoding::Plain,
            def_level_encoding: Encoding::Rle,
            rep_level_encoding: Encoding::Rle,
        })
    };
    let cases: Vec<(&str, ColumnDesc, Field, Vec<Page>, usize)> = vec![
        (
            "v1 optional: 2^31 - 1 nulls",
            optional(),
            Field::new("c", DataType::Int64, true),
            vec![v1(&nulls, (1 << 31) - 1)],
            nulls.len(),
        ),
        (
            "v1 optional: 2^31 levels, garbage",
            optional(),
            Field::new("c", DataType::Int64, true),
            vec![v1(&garbage, HUGE)],
            garbage.len(),
        ),
        (
            "v2 optional: 2^31 levels, garbage",
            optional(),
            Field::new("c", DataType::Int64, true),
            vec![Page::DataV2(DataPageV2 {
                data: Buffer::from_vec(garbage[4..].to_vec()),
                num_values: HUGE,
                num_nulls: HUGE,
                num_rows: HUGE,
                encoding: Encoding::Plain,
                def_levels_byte_len: 96,
                rep_levels_byte_len: 0,
            })],
            garbage.len(),
        ),
        (
            "v1 list: 2^31 - 1 empty lists",
            list(),
            list_field(),
            vec![v1(&[&nulls[..], &nulls[..]].concat(), (1 << 31) - 1)],
            2 * nulls.len(),
        ),
        (
            "v1 list: 2^31 levels, garbage",
            list(),
            list_field(),
            vec![v1(&[&garbage[..], &garbage[..]].concat(), HUGE)],
            2 * garbage.len(),
        ),
        (
            "dictionary page: 2^31 values in 100 bytes",
            optional(),
            Field::new("c", DataType::Int64, true),
            vec![
                Page::Dictionary(DictionaryPage {
                    data: Buffer::from_vec(vec![0; 100]),
                    num_values: HUGE,
                    encoding: Encoding::Plain,
                }),
                v1(&nulls, 10),
            ],
            100 + nulls.len(),
        ),
    ];
    for (name, desc, field, pages, input) in cases {
        let legitimate = name.contains("2^31 - 1");
        let (result, peak) = peak_of(|| arrow_batches(desc, field, pages, 16));
        if legitimate {
            assert_eq!(result, Ok(16 * ARROW_BATCH), "{name}");
        } else {
            assert!(result.is_err(), "{name}: {result:?}");
        }
        assert!(
            peak <= bound(input),
            "{name}: the Arrow adapter peaked at {peak} bytes ({result:?})"
        );
    }
}

/// The counter itself: a known allocation is seen, and freed memory leaves the peak.
#[test]
fn the_counter_counts() {
    let (_, peak) = peak_of(|| {
        let v = vec![1u8; 3 << 20];
        std::hint::black_box(&v);
    });
    assert!(peak >= 3 << 20, "{peak}");
    assert!(peak > bound(100));
    let (_, peak) = peak_of(|| std::hint::black_box(1 + 1));
    assert!(peak < 1024, "{peak}");
}
