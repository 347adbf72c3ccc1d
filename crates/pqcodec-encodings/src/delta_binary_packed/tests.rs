use bytes::Bytes;
use pqcodec_core::{
    Decoder, Encoder, Encoding, Error, Int32Type, Int64Type, Integer, Physical, Sink, ValueBuffer,
};
use proptest::prelude::*;

use super::{DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder, Piece};
use crate::kernels::varint::{write_uleb128, zigzag_encode};

/// Reads and skips `decoder` as `ops` say (`(true, n)` skips n, `(false, n)` reads n), then
/// reads the rest, checking every count and that what was read is `all` minus what was skipped.
pub(crate) fn assert_interleaved<T, D>(decoder: &mut D, all: &T::Buffer, ops: &[(bool, usize)])
where
    T: Physical,
    T::Buffer: PartialEq,
    D: Decoder<T>,
{
    let mut got = T::Buffer::default();
    let mut want = T::Buffer::default();
    let mut at = 0;
    assert_eq!(decoder.remaining(), all.len());
    for &(skip, n) in ops.iter().chain(std::iter::once(&(false, usize::MAX))) {
        let before = decoder.remaining();
        let k = if skip {
            decoder.skip(n).unwrap()
        } else {
            decoder.read(&mut got, n).unwrap()
        };
        assert_eq!(k, n.min(before), "skip={skip} n={n} before={before}");
        assert_eq!(decoder.remaining(), before - k);
        if !skip {
            for i in at..at + k {
                want.push(all.get(i).unwrap());
            }
        }
        at += k;
    }
    assert_eq!(at, all.len());
    assert_eq!(decoder.remaining(), 0);
    assert_eq!(decoder.read(&mut got, 10).unwrap(), 0);
    assert_eq!(decoder.skip(10).unwrap(), 0);
    assert!(got == want, "read values differ");
}

/// A page header: block size, miniblock count, total count, first value.
fn header(block: u64, miniblocks: u64, total: u64, first: i64) -> Vec<u8> {
    let mut out = Vec::new();
    write_uleb128(&mut out, block);
    write_uleb128(&mut out, miniblocks);
    write_uleb128(&mut out, total);
    write_uleb128(&mut out, zigzag_encode(first));
    out
}

fn encode<T: Integer>(values: &[T::Int], layout: Option<(usize, usize)>) -> Vec<u8> {
    let mut enc = match layout {
        Some((b, m)) => DeltaBinaryPackedEncoder::<T>::with_block_size(b, m).unwrap(),
        None => DeltaBinaryPackedEncoder::<T>::new(),
    };
    enc.put(values).unwrap();
    assert_eq!(enc.num_values(), values.len());
    let estimate = enc.estimated_size();
    let bytes = enc.flush().unwrap();
    assert!(estimate >= bytes.len(), "{estimate} < {}", bytes.len());
    bytes
}

#[test]
fn spec_example_1_block_of_8() {
    let bytes = [8, 1, 5, 2, /* block */ 2, 0];
    let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::lenient(8, 1).unwrap();
    enc.put(&[1, 2, 3, 4, 5]).unwrap();
    assert_eq!(enc.flush().unwrap(), bytes);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::lenient(Bytes::copy_from_slice(&bytes)).unwrap();
    assert_eq!(dec.read_all().unwrap(), [1, 2, 3, 4, 5]);
    assert_eq!(dec.end_offset().unwrap(), bytes.len());
    // Real files may not use blocks of 8.
    assert!(matches!(
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 5),
        Err(Error::Invalid {
            field: "block size",
            ..
        })
    ));
}

#[test]
fn spec_example_2_block_of_8() {
    // 0,0,0,3,3,3,3 and one padding value on 2 bits: 0b11_00_00_00, 0b00_11_11_11.
    let bytes = [8, 1, 8, 14, /* block */ 3, 2, 0xC0, 0x3F];
    let values = [7, 5, 3, 1, 2, 3, 4, 5];
    let mut enc = DeltaBinaryPackedEncoder::<Int64Type>::lenient(8, 1).unwrap();
    enc.put(&values).unwrap();
    assert_eq!(enc.flush().unwrap(), bytes);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::lenient(Bytes::copy_from_slice(&bytes)).unwrap();
    assert_eq!(dec.read_all().unwrap(), values);
    assert_eq!(dec.end_offset().unwrap(), bytes.len());
}

#[test]
fn spec_example_2_default_layout() {
    let values = [7, 5, 3, 1, 2, 3, 4, 5];
    let mut bytes = header(128, 4, 8, 7);
    bytes.extend([3, 2, 0, 0, 0, 0xC0, 0x3F, 0, 0, 0, 0, 0, 0]);
    assert_eq!(encode::<Int32Type>(&values, None), bytes);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 8).unwrap();
    assert_eq!(dec.read_all().unwrap(), values);
}

#[test]
fn empty_and_single_value_pages() {
    let empty = encode::<Int32Type>(&[], None);
    assert_eq!(empty, header(128, 4, 0, 0));
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&empty), 0).unwrap();
    assert_eq!(dec.remaining(), 0);
    assert_eq!(dec.read_all().unwrap(), Vec::<i32>::new());
    assert_eq!(dec.end_offset().unwrap(), empty.len());

    let one = encode::<Int64Type>(&[i64::MIN], None);
    assert_eq!(one, header(128, 4, 1, i64::MIN));
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::from_header(Bytes::copy_from_slice(&one)).unwrap();
    assert_eq!(dec.end_offset().unwrap(), one.len());
    assert_eq!(dec.read_all().unwrap(), [i64::MIN]);
}

#[test]
fn boundary_lengths_round_trip() {
    for len in [
        0, 1, 2, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129, 130, 255, 256, 257, 1000,
    ] {
        let values: Vec<i32> = (0..len as i32)
            .map(|i| i.wrapping_mul(7919) % 1000)
            .collect();
        for layout in [None, Some((256, 2)), Some((128, 1))] {
            let bytes = encode::<Int32Type>(&values, layout);
            let mut dec =
                DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), len)
                    .unwrap();
            assert_eq!(dec.end_offset().unwrap(), bytes.len());
            assert_eq!(dec.read_all().unwrap(), values, "len {len} {layout:?}");
            assert_eq!(dec.end_offset().unwrap(), bytes.len());
        }
    }
}

#[test]
fn extremes_wrap_in_the_type_width() {
    let values = [
        i32::MAX,
        i32::MIN,
        i32::MAX,
        0,
        i32::MIN,
        -1,
        1,
        i32::MIN + 1,
    ];
    let bytes = encode::<Int32Type>(&values, None);
    // Deltas are taken in 32 bits: no miniblock needs more than 32.
    assert!(
        bytes[bytes.len() - 4 * 32 - 4..][..4]
            .iter()
            .all(|&w| w <= 32)
    );
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), values.len())
            .unwrap();
    assert_eq!(dec.read_all().unwrap(), values);

    let values = [i64::MAX, i64::MIN, i64::MAX, 0, i64::MIN, -1, 1];
    let bytes = encode::<Int64Type>(&values, None);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), values.len())
            .unwrap();
    assert_eq!(dec.read_all().unwrap(), values);
}

#[test]
fn min_delta_wider_than_the_type_wraps() {
    // INT32 page with min delta 2^32 + 1: only its low 32 bits (1) count.
    let mut bytes = header(128, 4, 3, 10);
    write_uleb128(&mut bytes, zigzag_encode((1 << 32) + 1));
    bytes.extend([0, 0, 0, 0]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 3).unwrap();
    assert_eq!(dec.read_all().unwrap(), [10, 11, 12]);
    // First value wider than INT32 too.
    let bytes = header(128, 4, 1, (1 << 32) + 5);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 1).unwrap();
    assert_eq!(dec.read_all().unwrap(), [5]);
}

#[test]
fn arbitrary_padding_and_unneeded_widths_accepted() {
    // 3 values: deltas 1, 2 (min 1, relative 0, 1 on 1 bit); the padding bits are set, and the
    // 3 unneeded miniblocks claim widths 200, 33 and 64 but have no bytes.
    let mut bytes = header(128, 4, 3, 0);
    bytes.extend([2, 1, 200, 33, 64, 0b1111_1110, 0xFF, 0xFF, 0xFF]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 3).unwrap();
    assert_eq!(dec.end_offset().unwrap(), bytes.len());
    assert_eq!(dec.read_all().unwrap(), [0, 1, 3]);
}

#[test]
fn missing_padding_read_but_end_offset_errors() {
    // 3 values at width 8: the last miniblock should be 32 bytes, only 2 are present.
    let mut bytes = header(128, 4, 3, 0);
    bytes.extend([0, 8, 0, 0, 0, 5, 6]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 3).unwrap();
    assert!(matches!(
        dec.end_offset(),
        Err(Error::Truncated {
            field: "miniblock",
            ..
        })
    ));
    assert_eq!(dec.read_all().unwrap(), [0, 5, 11]);
}

#[test]
fn header_count_larger_than_asked_decodes_only_asked() {
    let values: Vec<i64> = (0..300).map(|i| i * i).collect();
    let mut bytes = encode::<Int64Type>(&values, None);
    let len = bytes.len();
    bytes.extend([0xAA; 5]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 130).unwrap();
    assert_eq!(dec.remaining(), 130);
    assert_eq!(dec.end_offset().unwrap(), len);
    assert_eq!(dec.read_all().unwrap(), &values[..130]);
    assert_eq!(dec.end_offset().unwrap(), len);
}

#[test]
fn end_offset_at_every_stage() {
    let values: Vec<i32> = (0..1000).map(|i| (i * 37) % 101 - 50).collect();
    let bytes = encode::<Int32Type>(&values, Some((256, 8)));
    let mut padded = bytes.clone();
    padded.extend([1, 2, 3]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::from_header(Bytes::copy_from_slice(&padded))
            .unwrap();
    let mut got = Vec::new();
    for step in [1, 3, 28, 100, 129, 200, 500, 100] {
        assert_eq!(dec.end_offset().unwrap(), bytes.len());
        dec.read(&mut got, step).unwrap();
    }
    assert_eq!(dec.end_offset().unwrap(), bytes.len());
    assert_eq!(got, values);
}

#[test]
fn count_larger_than_header() {
    let bytes = encode::<Int32Type>(&[1, 2, 3], None);
    assert_eq!(
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 4).unwrap_err(),
        Error::CountTooLarge {
            encoding: Encoding::DeltaBinaryPacked,
            field: "total value count",
            count: 4,
            capacity: 3
        }
    );
}

#[test]
fn invalid_layouts() {
    let field = |block, miniblocks| match DeltaBinaryPackedDecoder::<Int32Type>::from_header(
        Bytes::copy_from_slice(&header(block, miniblocks, 5, 0)),
    ) {
        Err(Error::Invalid { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(field(0, 4), "block size");
    assert_eq!(field(100, 4), "block size");
    assert_eq!(field(128, 0), "miniblock count");
    assert_eq!(field(128, 3), "miniblock count");
    assert_eq!(field(128, 8), "miniblock size");
    assert!(
        DeltaBinaryPackedDecoder::<Int32Type>::from_header(Bytes::copy_from_slice(&header(
            384, 12, 5, 0
        )))
        .is_ok()
    );
    for (b, m) in [(0, 4), (100, 4), (128, 0), (128, 3), (128, 8)] {
        assert!(matches!(
            DeltaBinaryPackedEncoder::<Int64Type>::with_block_size(b, m),
            Err(Error::Invalid { .. })
        ));
    }
}

#[test]
fn bit_width_over_the_type() {
    for (width, max) in [(33u8, 32u32), (255, 32)] {
        let mut bytes = header(128, 4, 2, 0);
        bytes.extend([0, width, 0, 0, 0]);
        bytes.extend([0xFF; 300]);
        let mut dec =
            DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 2).unwrap();
        let expected = Error::BitWidth {
            encoding: Encoding::DeltaBinaryPacked,
            field: "miniblock bit width",
            width: u32::from(width),
            max,
        };
        assert_eq!(dec.end_offset().unwrap_err(), expected);
        assert_eq!(dec.clone().skip(2).unwrap_err(), expected);
        assert_eq!(dec.read_all().unwrap_err(), expected);
    }
    let mut bytes = header(128, 4, 2, 0);
    bytes.extend([0, 65, 0, 0, 0]);
    bytes.extend([0xFF; 300]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 2).unwrap();
    assert!(matches!(
        dec.read_all(),
        Err(Error::BitWidth {
            width: 65,
            max: 64,
            ..
        })
    ));
    // 33 is fine for INT64.
    let mut bytes = header(128, 4, 2, 0);
    bytes.extend([0, 33, 0, 0, 0]);
    bytes.extend([0xFF; 32 * 33 / 8]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 2).unwrap();
    assert_eq!(dec.read_all().unwrap(), [0, (1 << 33) - 1]);
}

#[test]
fn truncated_input() {
    let values: Vec<i32> = (0..200).map(|i| i * 1000 - i * i).collect();
    let bytes = encode::<Int32Type>(&values, None);
    for cut in 0..bytes.len() {
        let data = &bytes[..cut];
        let result = DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(data), 200)
            .and_then(|mut d| {
                d.read_all()?;
                d.end_offset()
            });
        let result2 = DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(data), 200)
            .and_then(|mut d| {
                d.skip(200)?;
                d.end_offset()
            });
        for r in [result.map(|_| ()), result2.map(|_| ())] {
            assert!(
                matches!(r, Err(Error::Truncated { .. })),
                "cut {cut}: {r:?}"
            );
        }
    }
}

#[test]
fn huge_header_counts_do_not_allocate() {
    // 2^60 values claimed, one block of width 0 present.
    let mut bytes = header(128, 4, 1 << 60, 3);
    bytes.extend([2, 0, 0, 0, 0]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::from_header(Bytes::copy_from_slice(&bytes)).unwrap();
    assert_eq!(dec.remaining(), 1 << 60);
    let mut out = Vec::new();
    assert_eq!(dec.read(&mut out, 129).unwrap(), 129);
    assert_eq!(out[128], 3 + 128);
    assert!(out.capacity() < 10_000);
    assert!(matches!(dec.skip(1 << 40), Err(Error::Truncated { .. })));
    assert!(matches!(dec.end_offset(), Err(Error::Truncated { .. })));

    // A block of 2^40 values in one miniblock of width 0 is legal and skips in O(1).
    let mut bytes = header(1 << 40, 1, 1 << 40, 0);
    bytes.extend([2, 0]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 1 << 40)
            .unwrap();
    assert_eq!(dec.end_offset().unwrap(), bytes.len());
    assert_eq!(dec.skip((1 << 40) - 2).unwrap(), (1 << 40) - 2);
    assert_eq!(dec.read_all().unwrap(), [(1 << 40) - 2, (1 << 40) - 1]);

    // A huge miniblock count must not be allocated either.
    let mut bytes = header(1 << 50, 1 << 40, 10, 0);
    bytes.extend([0; 100]);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 10).unwrap();
    assert!(matches!(
        dec.read_all(),
        Err(Error::Truncated {
            field: "miniblock bit widths",
            ..
        })
    ));
}

/// Reads and skips of any count, groups of 8 split included, allocate nothing in the decoder;
/// only `next_slice`, the byte-array encodings' way, has a buffer.
#[test]
fn reads_and_skips_keep_no_heap_buffer() {
    let values: Vec<i32> = (0..777).map(|i| (i * 7919) % 1013 - 500).collect();
    let bytes = encode::<Int32Type>(&values, Some((128, 4)));
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 777).unwrap();
    let ops = [
        (false, 3),
        (true, 2),
        (false, 5),
        (true, 7),
        (false, 300),
        (true, 1),
    ];
    assert_interleaved::<Int32Type, _>(&mut dec, &values, &ops);
    assert!(!dec.holds_a_buffer());
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 777).unwrap();
    let mut out = Vec::new();
    assert_eq!(dec.read(&mut out, 3).unwrap(), 3);
    // The rest of the first group of deltas (values 1 to 8) first, then a chunk from the
    // buffer.
    assert_eq!(dec.next_slice(100).unwrap(), &values[3..9]);
    assert_eq!(dec.next_slice(100).unwrap(), &values[9..109]);
    assert!(dec.holds_a_buffer());
    assert_eq!(dec.read(&mut out, 1000).unwrap(), 777 - 109);
    assert_eq!(&out[3..], &values[109..]);
}

#[test]
fn skip_does_not_touch_the_sink_and_keeps_state() {
    let values: Vec<i64> = (0..777).map(|i| (i * i * 31) % 9973 - 5000).collect();
    let bytes = encode::<Int64Type>(&values, Some((256, 4)));
    for first_skip in [0, 1, 2, 7, 8, 9, 31, 33, 64, 255, 256, 257, 300, 776, 777] {
        let mut dec =
            DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 777)
                .unwrap();
        assert_eq!(dec.skip(first_skip).unwrap(), first_skip);
        assert_eq!(dec.read_all().unwrap(), &values[first_skip..]);
    }
}

/// `next_piece` hands out zero-width miniblocks of min delta 0 as repeats (asked for 8 or
/// more), and the values it hands out, expanded, are the page's; other miniblocks come
/// unpacked.
#[test]
fn next_piece_repeats_zero_width_miniblocks() {
    // 7 a thousand times, a walk, 9 a thousand times.
    let mut values: Vec<i32> = vec![7; 1000];
    values.extend((0..100).map(|i| i * 3 - 40));
    values.extend([9; 1000]);
    let bytes = encode::<Int32Type>(&values, None);
    for step in [1, 5, 8, 13, 64, 1000] {
        let mut dec = DeltaBinaryPackedDecoder::<Int32Type>::new(
            Bytes::copy_from_slice(&bytes),
            values.len(),
        )
        .unwrap();
        let (mut got, mut repeats) = (Vec::new(), 0);
        loop {
            let piece = dec.next_piece(step).unwrap();
            assert!(piece.len() <= step);
            match piece {
                Piece::Values([]) => break,
                Piece::Values(v) => got.extend_from_slice(v),
                Piece::Repeat { count, value } => {
                    repeats += count;
                    got.extend(std::iter::repeat_n(value, count));
                }
            }
        }
        assert_eq!(got, values, "step {step}");
        // Under 8 at a time, repeats would leave part of a group of 8: they are unpacked.
        assert!(
            step < 8 || repeats > 1000,
            "step {step}: only {repeats} repeated"
        );
    }
    // Reads go on where a repeat stopped.
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), values.len())
            .unwrap();
    // The first value and 248 deltas, unpacked; 8 deltas left in the miniblock.
    assert_eq!(dec.next_piece(1000).unwrap().len(), 249);
    assert_eq!(
        dec.next_piece(13).unwrap(),
        Piece::Repeat { count: 8, value: 7 }
    );
    // 13 asked at the start of a miniblock of 32: 8 repeated, 24 left.
    assert_eq!(
        dec.next_piece(13).unwrap(),
        Piece::Repeat { count: 8, value: 7 }
    );
    assert_eq!(dec.read_all().unwrap(), &values[265..]);

    // Min deltas of 2^32: 0 in INT32, whose values repeat, not in INT64.
    let mut page = header(128, 4, 1000, 5);
    for _ in 0..8 {
        write_uleb128(&mut page, zigzag_encode(1 << 32));
        page.extend([0, 0, 0, 0]);
    }
    let mut narrow =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&page), 1000).unwrap();
    let (mut at, mut repeated) = (0, 0);
    while at < 1000 {
        let piece = narrow.next_piece(1000).unwrap();
        if let Piece::Repeat { .. } = piece {
            repeated += piece.len();
        }
        assert!((0..piece.len()).all(|i| piece.get(i) == Some(5)));
        assert!(piece.len() > 0);
        at += piece.len();
    }
    assert!(repeated >= 1000 - 256, "{repeated}");
    let mut wide =
        DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&page), 1000).unwrap();
    let mut at = 0;
    while at < 1000 {
        let piece = wide.next_piece(1000).unwrap();
        let Piece::Values(v) = piece else {
            panic!("INT64 values at {at} repeat: {piece:?}");
        };
        assert!(!v.is_empty());
        for (i, &v) in v.iter().enumerate() {
            assert_eq!(v, 5 + (((at + i) as i64) << 32));
        }
        at += v.len();
    }
}

fn value_i32() -> impl Strategy<Value = i32> + Clone {
    prop_oneof![
        any::<i32>(),
        -3..3,
        i32::MIN..i32::MIN + 3,
        i32::MAX - 3..=i32::MAX,
    ]
}

fn value_i64() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        any::<i64>(),
        -3i64..3,
        (-1000i64..1000).prop_map(|v| v * 1_000_000_007),
        i64::MIN..i64::MIN + 3,
        i64::MAX - 3..=i64::MAX,
    ]
}

/// Values of a random walk (small deltas) or arbitrary ones.
fn values<V: std::fmt::Debug + Clone>(
    one: impl Strategy<Value = V> + Clone,
    walk: impl Fn(Vec<V>) -> Vec<V> + Clone,
) -> impl Strategy<Value = Vec<V>> {
    let lens = prop_oneof![
        0usize..4,
        6usize..10,
        30usize..35,
        126usize..131,
        0usize..700
    ];
    lens.prop_flat_map(move |n| {
        let walk = walk.clone();
        prop_oneof![
            prop::collection::vec(one.clone(), n),
            prop::collection::vec(one.clone(), n).prop_map(walk.clone()),
        ]
    })
}

fn layouts() -> impl Strategy<Value = Option<(usize, usize)>> {
    prop_oneof![
        Just(None),
        Just(Some((128, 1))),
        Just(Some((256, 8))),
        Just(Some((256, 4))),
        Just(Some((512, 2))),
    ]
}

fn ops() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), prop_oneof![0usize..10, 0usize..300]), 0..12)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trip_i32(
        values in values(value_i32(), |v| v.iter().scan(0i32, |acc, d| { *acc = acc.wrapping_add(d % 50); Some(*acc) }).collect()),
        layout in layouts(),
        ops in ops(),
    ) {
        let bytes = encode::<Int32Type>(&values, layout);
        let mut dec = DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), values.len()).unwrap();
        prop_assert_eq!(dec.end_offset().unwrap(), bytes.len());
        assert_interleaved::<Int32Type, _>(&mut dec, &values, &ops);
        prop_assert_eq!(dec.end_offset().unwrap(), bytes.len());
    }

    #[test]
    fn round_trip_i64(
        values in values(value_i64(), |v| v.iter().scan(0i64, |acc, d| { *acc = acc.wrapping_add(d % 5000); Some(*acc) }).collect()),
        layout in layouts(),
        ops in ops(),
    ) {
        let bytes = encode::<Int64Type>(&values, layout);
        let mut dec = DeltaBinaryPackedDecoder::<Int64Type>::from_header(Bytes::copy_from_slice(&bytes)).unwrap();
        assert_interleaved::<Int64Type, _>(&mut dec, &values, &ops);
        prop_assert_eq!(dec.end_offset().unwrap(), bytes.len());
    }

    #[test]
    fn encoder_reuse_and_split_puts(a in prop::collection::vec(value_i32(), 0..300), b in prop::collection::vec(value_i32(), 0..300), split in 0usize..300) {
        let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::new();
        enc.put(&a).unwrap();
        let first = enc.flush().unwrap();
        prop_assert_eq!(&first, &encode::<Int32Type>(&a, None));
        let split = split.min(b.len());
        enc.put(&b[..split]).unwrap();
        enc.put(&b[split..]).unwrap();
        prop_assert_eq!(enc.flush().unwrap(), encode::<Int32Type>(&b, None));
    }

    #[test]
    fn garbage_never_panics(data in prop::collection::vec(any::<u8>(), 0..200), n in 0usize..300, ops in ops()) {
        if let Ok(mut dec) = DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&data), n) {
            let _ = dec.end_offset();
            let mut out = Vec::new();
            for (skip, k) in ops {
                let _ = if skip { dec.skip(k) } else { dec.read(&mut out, k) };
            }
        }
        if let Ok(mut dec) = DeltaBinaryPackedDecoder::<Int64Type>::from_header(Bytes::copy_from_slice(&data)) {
            let _ = dec.end_offset();
            let mut out = Vec::new();
            let _ = dec.read(&mut out, 1000);
        }
    }
}
