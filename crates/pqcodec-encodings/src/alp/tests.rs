use bytes::Bytes;
use pqcodec_core::{Decoder, DoubleType, Encoder, Encoding, Error, FloatType, Sink, SliceSink};
use pqcodec_testkit::Rng;
use proptest::prelude::*;

use super::encoder::{Params, Scratch, encode_vector};
use super::*;

// ---------------------------------------------------------------------------------------------
// Helpers

fn bits<F: AlpFloat>(values: &[F]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits64()).collect()
}

fn encode<T: AlpType>(values: &[T::Float], log_vector_size: u8) -> Vec<u8> {
    let mut e = AlpEncoder::<T>::with_log_vector_size(log_vector_size).unwrap();
    e.put_slice(values).unwrap();
    assert_eq!(e.num_values(), values.len());
    let page = e.flush().unwrap();
    assert_eq!(e.num_values(), 0);
    page
}

fn decode<T: AlpType>(page: &[u8], n: usize) -> Vec<T::Float> {
    let mut d = AlpDecoder::<T>::new(Bytes::copy_from_slice(page), n).unwrap();
    let mut out = Vec::new();
    assert_eq!(d.read(&mut out, n + 5).unwrap(), n);
    assert_eq!(d.remaining(), 0);
    out
}

/// A sink that lends no memory: values arrive through `extend_from_slice`.
struct Plain<F>(Vec<F>);

impl<F: Copy> Sink<F> for Plain<F> {
    fn push(&mut self, value: &F) {
        self.0.push(*value);
    }
}

/// Decodes the page along `plan` (`(true, k)` reads `k` values, `(false, k)` skips `k`), into
/// a sink that lends its memory and one that does not, and checks the values read by their
/// bits.
fn check_plan<T: AlpType>(page: &[u8], values: &[T::Float], plan: &[(bool, usize)]) {
    let n = values.len();
    let mut lent = AlpDecoder::<T>::new(Bytes::copy_from_slice(page), n).unwrap();
    let mut plain = AlpDecoder::<T>::new(Bytes::copy_from_slice(page), n).unwrap();
    let (mut got, mut got_plain, mut want) = (Vec::new(), Plain(Vec::new()), Vec::new());
    let mut at = 0;
    for &(read, k) in plan {
        let step = k.min(n - at);
        assert_eq!(lent.remaining(), n - at);
        if read {
            assert_eq!(lent.read(&mut got, k).unwrap(), step);
            assert_eq!(plain.read(&mut got_plain, k).unwrap(), step);
            want.extend_from_slice(&values[at..at + step]);
        } else {
            assert_eq!(lent.skip(k).unwrap(), step);
            assert_eq!(plain.skip(k).unwrap(), step);
        }
        at += step;
    }
    lent.read(&mut got, usize::MAX).unwrap();
    plain.read(&mut got_plain, usize::MAX).unwrap();
    want.extend_from_slice(&values[at..]);
    assert_eq!(lent.remaining(), 0);
    assert_eq!(lent.read(&mut got, 3).unwrap(), 0);
    assert_eq!(bits(&got), bits(&want));
    assert_eq!(bits(&got_plain.0), bits(&want));
}

/// A page of vectors laid out by hand: header, offsets, vectors.
fn page_of(log_vector_size: u8, num_elements: i32, vectors: &[&[u8]]) -> Vec<u8> {
    let mut page = vec![0, 0, log_vector_size];
    page.extend(num_elements.to_le_bytes());
    let mut offset = vectors.len() as u32 * 4;
    for v in vectors {
        page.extend(offset.to_le_bytes());
        offset += v.len() as u32;
    }
    for v in vectors {
        page.extend_from_slice(v);
    }
    page
}

fn vector_bytes<F: AlpFloat>(values: &[F], exponent: u8, factor: u8) -> Vec<u8> {
    let mut out = Vec::new();
    encode_vector(
        values,
        Params { exponent, factor },
        &mut Scratch::default(),
        &mut out,
    );
    out
}

// ---------------------------------------------------------------------------------------------
// Hand-made pages, byte by byte

/// The spec's worked example: 1500.0, NaN, 2500.0, 333.5 with exponent 4 and factor 3.
#[test]
fn spec_worked_example() {
    let nan = f64::from_bits(0x7FF8_0000_0000_0000);
    let values = [1500.0, nan, 2500.0, 333.5];
    #[rustfmt::skip]
    let vector = [
        4, 3, 1, 0,                               // exponent 4, factor 3, 1 exception
        0x07, 0x0D, 0, 0, 0, 0, 0, 0,             // frame of reference 3335
        15,                                       // bit width
        // 11665, 11665, 21665, 0 on 15 bits, LSB first
        0x91, 0xAD, 0xC8, 0x56, 0x28, 0x15, 0x00, 0x00,
        1, 0,                                     // exception position 1
        0, 0, 0, 0, 0, 0, 0xF8, 0x7F,             // NaN
    ];
    assert_eq!(vector_bytes(&values, 4, 3), vector);
    let page = page_of(10, 4, &[&vector]);
    assert_eq!(page.len(), 7 + 4 + 31);
    assert_eq!(bits(&decode::<DoubleType>(&page, 4)), bits(&values));
}

/// A FLOAT vector with no exceptions: 0.5, 1.25, 2, 0.75 as 50, 125, 200, 75 (exponent 2).
#[test]
fn vector_without_exceptions() {
    let values = [0.5f32, 1.25, 2.0, 0.75];
    #[rustfmt::skip]
    let page = [
        0, 0, 10, 4, 0, 0, 0,                     // header: 4 values in vectors of 1024
        4, 0, 0, 0,                               // vector 0 at 4
        2, 0, 0, 0,                               // exponent 2, factor 0, no exception
        50, 0, 0, 0,                              // frame of reference 50
        8,                                        // bit width 8
        0, 75, 150, 25,                           // deltas
    ];
    assert_eq!(vector_bytes(&values, 2, 0), page[11..]);
    assert_eq!(bits(&decode::<FloatType>(&page, 4)), bits(&values));
    // The encoder's own choice writes the same values back.
    let ours = encode::<FloatType>(&values, 10);
    assert_eq!(bits(&decode::<FloatType>(&ours, 4)), bits(&values));
}

/// A vector of nothing but exceptions: NaN with a payload, -0.0, both infinities, the
/// smallest subnormal. No pair encodes any of them, so the encoder keeps its default (the
/// largest exponent and factor), a frame of 0 and bit width 0.
#[test]
fn vector_of_only_exceptions() {
    let values = [
        f64::from_bits(0x7FF4_0000_0000_0001),
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::from_bits(1),
    ];
    let mut expected = vec![0, 0, 10, 5, 0, 0, 0, 4, 0, 0, 0];
    expected.extend([18, 18, 5, 0]);
    expected.extend([0; 8]);
    expected.push(0);
    for p in 0u16..5 {
        expected.extend(p.to_le_bytes());
    }
    for v in values {
        expected.extend(v.to_bits().to_le_bytes());
    }
    assert_eq!(encode::<DoubleType>(&values, 10), expected);
    assert_eq!(bits(&decode::<DoubleType>(&expected, 5)), bits(&values));

    let floats = [
        f32::from_bits(0xFFC0_1234),
        -0.0f32,
        f32::INFINITY,
        f32::from_bits(3),
    ];
    let mut expected = vec![0, 0, 10, 4, 0, 0, 0, 4, 0, 0, 0];
    expected.extend([10, 10, 4, 0, 0, 0, 0, 0, 0]);
    for p in 0u16..4 {
        expected.extend(p.to_le_bytes());
    }
    for v in floats {
        expected.extend(v.to_bits().to_le_bytes());
    }
    assert_eq!(encode::<FloatType>(&floats, 10), expected);
    assert_eq!(bits(&decode::<FloatType>(&expected, 4)), bits(&floats));
}

/// Every value the same: bit width 0 and no packed bytes.
#[test]
fn bit_width_zero() {
    let values = [7.25f64; 5];
    #[rustfmt::skip]
    let vector = [
        2, 0, 0, 0,                               // exponent 2, factor 0
        0xD5, 0x02, 0, 0, 0, 0, 0, 0,             // frame of reference 725
        0,                                        // bit width 0: nothing packed
    ];
    assert_eq!(vector_bytes(&values, 2, 0), vector);
    let page = page_of(10, 5, &[&vector]);
    assert_eq!(bits(&decode::<DoubleType>(&page, 5)), bits(&values));
    check_plan::<DoubleType>(&page, &values, &[(false, 2), (true, 1), (false, 1)]);
    let ours = encode::<DoubleType>(&values, 10);
    assert_eq!(ours[11 + 12], 0, "bit width");
    assert_eq!(ours.len(), 7 + 4 + 13);
}

/// Vectors of 8, the last one short (3 values, one an exception).
#[test]
fn short_last_vector() {
    let nan = f64::from_bits(0xFFF8_0000_DEAD_BEEF);
    let values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 2.5, nan, -7.5];
    #[rustfmt::skip]
    let v0 = [
        0, 0, 0, 0,                               // exponent 0, factor 0
        1, 0, 0, 0, 0, 0, 0, 0,                   // frame of reference 1
        3,                                        // bit width 3
        0x88, 0xC6, 0xFA,                         // 0..=7 on 3 bits (the spec's RLE example)
    ];
    #[rustfmt::skip]
    let v1 = [
        1, 0, 1, 0,                               // exponent 1, factor 0, 1 exception
        0xB5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, // frame of reference -75
        7,                                        // bit width 7
        0x64, 0x32, 0x00,                         // 100, 100 (placeholder), 0 on 7 bits
        1, 0,                                     // exception at 1
        0xEF, 0xBE, 0xAD, 0xDE, 0, 0, 0xF8, 0xFF, // the NaN
    ];
    assert_eq!(vector_bytes(&values[..8], 0, 0), v0);
    assert_eq!(vector_bytes(&values[8..], 1, 0), v1);
    let page = page_of(3, 11, &[&v0, &v1]);
    assert_eq!(page[7..15], [8, 0, 0, 0, 24, 0, 0, 0]);
    assert_eq!(bits(&decode::<DoubleType>(&page, 11)), bits(&values));
    for plan in [
        &[(false, 9), (true, 2)][..],
        &[(true, 3), (false, 7), (true, 1)],
        &[(false, 11)],
        &[(true, 7), (true, 2), (false, 1)],
    ] {
        check_plan::<DoubleType>(&page, &values, plan);
    }
    // Fewer values than the page holds: only those.
    assert_eq!(bits(&decode::<DoubleType>(&page, 9)), bits(&values[..9]));
    let ours = encode::<DoubleType>(&values, 3);
    check_plan::<DoubleType>(&ours, &values, &[(false, 8), (true, 1)]);
}

#[test]
fn empty_page() {
    let page = encode::<DoubleType>(&[], 10);
    assert_eq!(page, [0, 0, 10, 0, 0, 0, 0]);
    assert!(decode::<DoubleType>(&page, 0).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Bad pages

/// The field a decoding error names.
fn field_of(e: &Error) -> &'static str {
    match e {
        Error::Truncated { field, .. }
        | Error::BitWidth { field, .. }
        | Error::CountTooLarge { field, .. }
        | Error::Invalid { field, .. } => field,
        other => panic!("unexpected error {other}"),
    }
}

/// Decodes every value of the page `page` claims `n` of as `T`; the error it gives.
fn error_of<T: AlpType>(page: &[u8], n: usize) -> Error {
    let result = AlpDecoder::<T>::new(Bytes::copy_from_slice(page), n).and_then(|mut d| {
        let mut out = Vec::new();
        d.read(&mut out, n)
    });
    let e = result.expect_err("a bad page");
    match &e {
        Error::Truncated { encoding, .. }
        | Error::BitWidth { encoding, .. }
        | Error::CountTooLarge { encoding, .. }
        | Error::Invalid { encoding, .. } => assert_eq!(*encoding, Encoding::Alp),
        other => panic!("unexpected error {other}"),
    }
    e
}

fn good_double_page() -> Vec<u8> {
    let values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 2.5, f64::NAN, -7.5];
    let v0 = vector_bytes(&values[..8], 0, 0);
    let v1 = vector_bytes(&values[8..], 1, 0);
    page_of(3, 11, &[&v0, &v1])
}

#[test]
fn bad_headers_are_typed_errors() {
    let good = good_double_page();
    assert_eq!(decode::<DoubleType>(&good, 11).len(), 11);
    let with = |at: usize, byte: u8| {
        let mut p = good.clone();
        p[at] = byte;
        p
    };
    let e = error_of::<DoubleType>(&with(0, 1), 11);
    assert_eq!(field_of(&e), "compression_mode", "{e}");
    assert!(e.to_string().contains("found 1"), "{e}");
    let e = error_of::<DoubleType>(&with(1, 2), 11);
    assert_eq!(field_of(&e), "integer_encoding", "{e}");
    for log in [0, 2, 16, 255] {
        let e = error_of::<DoubleType>(&with(2, log), 11);
        assert_eq!(field_of(&e), "log_vector_size", "{e}");
    }
    let mut negative = good.clone();
    negative[3..7].copy_from_slice(&(-1i32).to_le_bytes());
    let e = error_of::<DoubleType>(&negative, 0);
    assert_eq!(field_of(&e), "num_elements", "{e}");
    // More values asked for than the header has.
    let e = error_of::<DoubleType>(&good, 12);
    assert!(
        matches!(
            e,
            Error::CountTooLarge {
                field: "num_elements",
                count: 12,
                capacity: 11,
                ..
            }
        ),
        "{e}"
    );
    for len in 0..7 {
        let e = error_of::<DoubleType>(&good[..len], 0);
        assert!(
            matches!(
                e,
                Error::Truncated {
                    field: "page header",
                    ..
                }
            ),
            "{e}"
        );
    }
    // A huge count with nothing behind it: the offsets are missing, nothing is allocated.
    let mut huge = vec![0, 0, 3];
    huge.extend(i32::MAX.to_le_bytes());
    let e = error_of::<DoubleType>(&huge, 5);
    assert!(
        matches!(
            e,
            Error::Truncated {
                field: "offset array",
                ..
            }
        ),
        "{e}"
    );
    let e = error_of::<FloatType>(&good[..7 + 5], 11);
    assert!(
        matches!(
            e,
            Error::Truncated {
                field: "offset array",
                needed: 8,
                available: 5,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn bad_offsets_are_typed_errors() {
    let good = good_double_page();
    let with_offset = |i: usize, offset: u32| {
        let mut p = good.clone();
        p[7 + 4 * i..11 + 4 * i].copy_from_slice(&offset.to_le_bytes());
        p
    };
    // The first not just past the offset array.
    for bad in [0, 4, 9] {
        let e = error_of::<DoubleType>(&with_offset(0, bad), 11);
        assert_eq!(field_of(&e), "vector offset", "{e}");
    }
    // Backwards.
    let e = error_of::<DoubleType>(&with_offset(1, 7), 11);
    assert_eq!(field_of(&e), "vector offset", "{e}");
    assert!(e.to_string().contains("before vector 0"), "{e}");
    // Past the page.
    let e = error_of::<DoubleType>(&with_offset(1, 10_000), 11);
    assert!(e.to_string().contains("past the end"), "{e}");
    // Between the two: vector 0 too short, or padded.
    let e = error_of::<DoubleType>(&with_offset(1, 22), 11);
    assert!(
        matches!(
            e,
            Error::Truncated {
                field: "packed values",
                ..
            }
        ),
        "{e}"
    );
    let e = error_of::<DoubleType>(&with_offset(1, 25), 1);
    assert_eq!(field_of(&e), "vector offset", "{e}");
    assert!(e.to_string().contains("no padding"), "{e}");
    // Trailing bytes after the last vector.
    let mut long = good.clone();
    long.push(0);
    let e = error_of::<DoubleType>(&long, 11);
    assert!(e.to_string().contains("no padding"), "{e}");
}

#[test]
fn bad_vectors_are_typed_errors() {
    let good = good_double_page();
    let v1 = 7 + 8 + 16; // where vector 1 starts
    let with = |at: usize, byte: u8| {
        let mut p = good.clone();
        p[at] = byte;
        p
    };
    let e = error_of::<DoubleType>(&with(v1, 19), 11);
    assert_eq!(field_of(&e), "exponent", "{e}");
    assert!(
        e.to_string().contains("at most 18 for DOUBLE, found 19"),
        "{e}"
    );
    let e = error_of::<DoubleType>(&with(v1 + 1, 2), 11);
    assert_eq!(field_of(&e), "factor", "{e}");
    let e = error_of::<DoubleType>(&with(v1 + 12, 65), 11);
    assert!(
        matches!(
            e,
            Error::BitWidth {
                field: "bit_width",
                width: 65,
                max: 64,
                ..
            }
        ),
        "{e}"
    );
    // More exceptions than the vector's 3 values.
    let e = error_of::<DoubleType>(&with(v1 + 2, 4), 11);
    assert!(
        matches!(
            e,
            Error::CountTooLarge {
                field: "num_exceptions",
                count: 4,
                capacity: 3,
                ..
            }
        ),
        "{e}"
    );
    // An exception position outside the vector.
    let e = error_of::<DoubleType>(&with(v1 + 16, 3), 11);
    assert_eq!(field_of(&e), "exception position", "{e}");
    // Vector 0 is fine: the values before vector 1 can be read, then the error.
    let bad = with(v1 + 16, 3);
    let mut d = AlpDecoder::<DoubleType>::new(Bytes::copy_from_slice(&bad), 11).unwrap();
    let mut out = Vec::new();
    assert_eq!(d.read(&mut out, 8).unwrap(), 8);
    assert!(d.read(&mut out, 1).is_err());
    // Skipping over vector 1 does not look at it.
    let mut d = AlpDecoder::<DoubleType>::new(Bytes::copy_from_slice(&bad), 11).unwrap();
    assert_eq!(d.skip(11).unwrap(), 11);

    // FLOAT: exponent over 10, bit width over 32.
    let floats = [0.5f32, 1.25, 2.0, 0.75];
    let v = vector_bytes(&floats, 2, 0);
    let page = page_of(10, 4, &[&v]);
    let mut p = page.clone();
    p[11] = 11;
    let e = error_of::<FloatType>(&p, 4);
    assert!(
        e.to_string().contains("at most 10 for FLOAT, found 11"),
        "{e}"
    );
    let mut p = page.clone();
    p[11 + 8] = 33;
    let e = error_of::<FloatType>(&p, 4);
    assert!(
        matches!(
            e,
            Error::BitWidth {
                width: 33,
                max: 32,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn pages_that_end_early_are_typed_errors() {
    let good = good_double_page();
    let mut fields = std::collections::BTreeSet::new();
    for len in 7..good.len() {
        let e = error_of::<DoubleType>(&good[..len], 11);
        fields.insert(field_of(&e));
    }
    assert_eq!(
        fields.into_iter().collect::<Vec<_>>(),
        [
            "exception positions",
            "exception values",
            "offset array",
            "packed values",
            "vector header",
            "vector offset",
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Round trips

/// A value of one of the kinds the round trips mix: decimals at several scales, any bits,
/// NaN payloads, signed zeros, infinities, subnormals.
fn value64(r: u64, kind: u64) -> f64 {
    match kind % 8 {
        0..=2 => (r % 10_000_000) as f64 / [1.0, 10.0, 100.0, 1000.0, 1e6][(r >> 40) as usize % 5],
        3 => -((r % 100_000) as f64) / 100.0,
        4 => f64::from_bits(r),
        5 => f64::from_bits(0x7FF0_0000_0000_0000 | (r & 0x800F_FFFF_FFFF_FFFF) | 1),
        6 => [
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
        ][r as usize % 6],
        _ => f64::from_bits(r & 0x800F_FFFF_FFFF_FFFF),
    }
}

fn value32(r: u64, kind: u64) -> f32 {
    match kind % 8 {
        0..=2 => (r % 1_000_000) as f32 / [1.0, 10.0, 100.0, 1000.0][(r >> 40) as usize % 4],
        3 => -((r % 10_000) as f32) / 100.0,
        4 => f32::from_bits(r as u32),
        5 => f32::from_bits(0x7F80_0000 | (r as u32 & 0x807F_FFFF) | 1),
        6 => [
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN_POSITIVE,
        ][r as usize % 6],
        _ => f32::from_bits(r as u32 & 0x807F_FFFF),
    }
}

fn plan_strategy() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), 0usize..2000), 0..12)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn doubles_round_trip(
        raw in prop::collection::vec((any::<u64>(), 0u64..16), 0..2500),
        log in MIN_LOG_VECTOR_SIZE..=MAX_LOG_VECTOR_SIZE,
        plan in plan_strategy(),
    ) {
        // Mostly one kind per page, with some of the others mixed in.
        let main = raw.first().map_or(0, |r| r.1);
        let values: Vec<f64> = raw.iter().map(|&(r, k)| value64(r, if k < 12 { main } else { k })).collect();
        let page = encode::<DoubleType>(&values, log);
        prop_assert_eq!(page[2], log);
        check_plan::<DoubleType>(&page, &values, &plan);
    }

    #[test]
    fn floats_round_trip(
        raw in prop::collection::vec((any::<u64>(), 0u64..16), 0..2500),
        log in MIN_LOG_VECTOR_SIZE..=MAX_LOG_VECTOR_SIZE,
        plan in plan_strategy(),
    ) {
        let main = raw.first().map_or(0, |r| r.1);
        let values: Vec<f32> = raw.iter().map(|&(r, k)| value32(r, if k < 12 { main } else { k })).collect();
        let page = encode::<FloatType>(&values, log);
        check_plan::<FloatType>(&page, &values, &plan);
    }

    /// Whatever the bytes, the decoder returns values or an error, and never panics.
    #[test]
    fn any_bytes_decode_or_fail(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        n in 0usize..100,
        skip in 0usize..50,
    ) {
        let mut page = vec![0, 0, 3];
        page.extend((n as i32).to_le_bytes());
        page.extend(&bytes);
        for p in [&page[..], &bytes[..]] {
            if let Ok(mut d) = AlpDecoder::<DoubleType>::new(Bytes::copy_from_slice(p), n) {
                let _ = d.skip(skip);
                let _ = d.read(&mut Vec::new(), n);
            }
            if let Ok(mut d) = AlpDecoder::<FloatType>::new(Bytes::copy_from_slice(p), n) {
                let _ = d.read(&mut Vec::new(), n);
            }
        }
    }
}

/// Pages of 0, 1, 1023, 1024 and 1025 values in vectors of 1024, read and skipped in steps
/// that cross the vector boundary.
#[test]
fn page_sizes_around_a_vector() {
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    for n in [0, 1, 1023, 1024, 1025, 4097] {
        for kind in 0..8 {
            let values: Vec<f64> = (0..n).map(|_| value64(rng.next_u64(), kind)).collect();
            let page = encode::<DoubleType>(&values, 10);
            for plan in [
                &[][..],
                &[(true, 1), (false, 1022), (true, 3)],
                &[(false, 1023), (true, 1)],
                &[(true, 1024), (false, 1), (true, 7)],
                &[(false, 5), (true, 2000)],
            ] {
                check_plan::<DoubleType>(&page, &values, plan);
            }
            let floats: Vec<f32> = (0..n).map(|_| value32(rng.next_u64(), kind)).collect();
            let page = encode::<FloatType>(&floats, 10);
            check_plan::<FloatType>(&page, &floats, &[(true, 1), (false, 1022), (true, 3)]);
        }
    }
}

/// `read_into` a slice; several pages from one encoder (the candidates are kept).
#[test]
fn read_into_slices_and_several_pages() {
    let values: Vec<f64> = (0..3000).map(|i| f64::from(i) * 0.25 - 100.0).collect();
    let mut e = AlpEncoder::<DoubleType>::new();
    for chunk in values.chunks(1100) {
        e.put(chunk).unwrap();
        let page = e.flush().unwrap();
        let mut d =
            AlpDecoder::<DoubleType>::new(Bytes::copy_from_slice(&page), chunk.len()).unwrap();
        let mut out = vec![0.0; chunk.len() + 3];
        assert_eq!(d.read_into(&mut out[..10]).unwrap(), 10);
        let mut sink = SliceSink::new(&mut out[10..]);
        d.read(&mut sink, usize::MAX).unwrap();
        assert_eq!(bits(&out[..chunk.len()]), bits(chunk));
    }
}

// ---------------------------------------------------------------------------------------------
// arrow-rs 60.1, both ways

mod oracle {
    use bytes::Bytes;
    use parquet60::data_type::{DoubleType as PqDouble, FloatType as PqFloat};
    use parquet60::decoding::{AlpDecoder as PqDecoder, Decoder as _};
    use parquet60::encoding::{AlpEncoder as PqEncoder, Encoder as _};

    use super::*;

    // arrow-rs's ALP bounds name a trait it does not export: one pair of functions per type.
    macro_rules! arrow_codec {
        ($encode:ident, $decode:ident, $pq:ty, $f:ty) => {
            fn $encode(values: &[$f]) -> Vec<u8> {
                let mut e = PqEncoder::<$pq>::new();
                e.put(values).unwrap();
                e.flush_buffer().unwrap().to_vec()
            }

            fn $decode(page: &[u8], n: usize) -> Vec<$f> {
                let mut d = PqDecoder::<$pq>::new();
                d.set_data(Bytes::copy_from_slice(page), n).unwrap();
                let mut out = vec![<$f>::default(); n];
                assert_eq!(d.get(&mut out).unwrap(), n);
                out
            }
        };
    }
    arrow_codec!(arrow_encode64, arrow_decode64, PqDouble, f64);
    arrow_codec!(arrow_encode32, arrow_decode32, PqFloat, f32);

    /// The value sets: name, doubles.
    fn double_sets() -> Vec<(String, Vec<f64>)> {
        let mut rng = Rng::new(0xDEAD_BEEF_CAFE_F00D);
        let mut sets = Vec::new();
        for n in [0usize, 1, 7, 1023, 1024, 1025, 10_000] {
            for scale in [0, 1, 2, 3, 4, 6] {
                let p = 10f64.powi(scale);
                let values = (0..n)
                    .map(|_| (rng.next_u64() % 100_000_000) as f64 / p - 1000.0)
                    .collect();
                sets.push((format!("decimal scale {scale} x{n}"), values));
            }
            // A smooth series (sensor-like), with two decimals.
            let values = (0..n)
                .map(|i| ((i as f64 * 0.01).sin() * 10_000.0).round() / 100.0)
                .collect();
            sets.push((format!("smooth x{n}"), values));
            let values = (0..n).map(|_| f64::from_bits(rng.next_u64())).collect();
            sets.push((format!("random bits x{n}"), values));
            let values = (0..n)
                .map(|i| match i % 7 {
                    0 => f64::from_bits(
                        0x7FF0_0000_0000_0000 | (rng.next_u64() & 0x800F_FFFF_FFFF_FFFF) | 1,
                    ),
                    1 => -0.0,
                    2 => [f64::INFINITY, f64::NEG_INFINITY][i % 2],
                    3 => f64::from_bits(rng.next_u64() & 0x000F_FFFF_FFFF_FFFF),
                    4 => 0.0,
                    _ => (rng.next_u64() % 100_000) as f64 / 100.0,
                })
                .collect();
            sets.push((format!("specials x{n}"), values));
        }
        sets
    }

    fn float_sets() -> Vec<(String, Vec<f32>)> {
        let mut rng = Rng::new(0x0123_4567_89AB_CDEF);
        let mut sets = Vec::new();
        for n in [0usize, 1, 7, 1023, 1024, 1025, 10_000] {
            for scale in [0, 1, 2, 3] {
                let p = 10f32.powi(scale);
                let values = (0..n)
                    .map(|_| (rng.next_u64() % 1_000_000) as f32 / p - 100.0)
                    .collect();
                sets.push((format!("decimal scale {scale} x{n}"), values));
            }
            let values = (0..n)
                .map(|_| f32::from_bits(rng.next_u64() as u32))
                .collect();
            sets.push((format!("random bits x{n}"), values));
            let values = (0..n)
                .map(|i| match i % 7 {
                    0 => f32::from_bits(0x7F80_0000 | (rng.next_u64() as u32 & 0x807F_FFFF) | 1),
                    1 => -0.0,
                    2 => [f32::INFINITY, f32::NEG_INFINITY][i % 2],
                    3 => f32::from_bits(rng.next_u64() as u32 & 0x007F_FFFF),
                    _ => (rng.next_u64() % 10_000) as f32 / 10.0,
                })
                .collect();
            sets.push((format!("specials x{n}"), values));
        }
        sets
    }

    /// Bytes ours take over arrow-rs's: within 3% (and 16 bytes), on every value set
    /// (decimal-like, smooth, random bits, specials).
    fn check_size(name: &str, ours: usize, theirs: usize) {
        assert!(
            ours as f64 <= theirs as f64 * 1.03 + 16.0,
            "{name}: {ours} bytes, arrow-rs {theirs}"
        );
    }

    #[test]
    fn doubles_both_ways() {
        let (mut ours_total, mut theirs_total) = (0, 0);
        for (name, values) in double_sets() {
            let n = values.len();
            let theirs = arrow_encode64(&values);
            assert_eq!(
                bits(&decode::<DoubleType>(&theirs, n)),
                bits(&values),
                "{name}: arrow-rs -> pqcodec"
            );
            let ours = encode::<DoubleType>(&values, 10);
            assert_eq!(
                bits(&arrow_decode64(&ours, n)),
                bits(&values),
                "{name}: pqcodec -> arrow-rs"
            );
            check_size(&name, ours.len(), theirs.len());
            if name.starts_with("decimal") {
                ours_total += ours.len();
                theirs_total += theirs.len();
            }
        }
        eprintln!("decimal doubles: pqcodec {ours_total} bytes, arrow-rs {theirs_total}");
    }

    #[test]
    fn floats_both_ways() {
        let (mut ours_total, mut theirs_total) = (0, 0);
        for (name, values) in float_sets() {
            let n = values.len();
            let theirs = arrow_encode32(&values);
            assert_eq!(
                bits(&decode::<FloatType>(&theirs, n)),
                bits(&values),
                "{name}: arrow-rs -> pqcodec"
            );
            let ours = encode::<FloatType>(&values, 10);
            assert_eq!(
                bits(&arrow_decode32(&ours, n)),
                bits(&values),
                "{name}: pqcodec -> arrow-rs"
            );
            check_size(&name, ours.len(), theirs.len());
            if name.starts_with("decimal") {
                ours_total += ours.len();
                theirs_total += theirs.len();
            }
        }
        eprintln!("decimal floats: pqcodec {ours_total} bytes, arrow-rs {theirs_total}");
    }

    /// arrow-rs's pages read with skips, as the other round trips are.
    #[test]
    fn arrow_pages_read_and_skipped() {
        let values: Vec<f64> = (0..5000).map(|i| f64::from(i % 977) * 0.01 + 3.0).collect();
        let page = arrow_encode64(&values);
        check_plan::<DoubleType>(
            &page,
            &values,
            &[(true, 3), (false, 1500), (true, 1030), (false, 7)],
        );
    }
}
