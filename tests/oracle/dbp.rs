//! DELTA_BINARY_PACKED against arrow-rs at every miniblock bit width (0 to 32 for INT32, 0 to 64
//! for INT64), so that every width the SIMD unpacking and prefix-sum kernels specialise is
//! decoded from arrow-rs's bytes and every width our packer writes is read back by arrow-rs.

use bytes::Bytes;
use parquet::basic::Encoding as PqEncoding;
use parquet::data_type as pq;
use pqcodec_core::{Decoder, Encoder, Int32Type, Int64Type};
use pqcodec_encodings::delta_binary_packed::{DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder};
use pqcodec_testkit::Rng;

use crate::common::{arrow_decode, arrow_encode};

/// `n` values starting at `start` whose deltas are `base` plus random offsets of `width` bits,
/// each block of 32 holding an offset of 0 and one of `2^width - 1`: every miniblock is packed
/// at exactly `width` bits.
fn values_of_width(seed: u64, n: usize, width: u32, start: i64, base: i64) -> Vec<i64> {
    let mut rng = Rng::new(seed | 1);
    let max = u64::MAX >> (64 - width.max(1));
    let max = if width == 0 { 0 } else { max };
    let mut x = start;
    (0..n)
        .map(|i| {
            let offset = match i % 32 {
                1 => 0,
                2 => max,
                _ => rng.next_u64() & max,
            };
            if i > 0 {
                x = x.wrapping_add(base).wrapping_add(offset as i64);
            }
            x
        })
        .collect()
}

/// Both directions for INT64 values, read whole, in odd batches and after a skip.
fn check_i64(values: &[i64]) {
    let n = values.len();
    let theirs = arrow_encode::<pq::Int64Type>(PqEncoding::DELTA_BINARY_PACKED, 0, values);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&theirs), n).unwrap();
    assert_eq!(dec.read_all().unwrap(), values);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::copy_from_slice(&theirs), n).unwrap();
    let mut out = Vec::new();
    while dec.remaining() > 0 {
        assert!(dec.read(&mut out, 37).unwrap() > 0);
        dec.skip(3).unwrap();
    }
    let expected: Vec<i64> = values
        .chunks(40)
        .flat_map(|c| c.iter().take(37).copied())
        .collect();
    assert_eq!(out, expected);

    let mut enc = DeltaBinaryPackedEncoder::<Int64Type>::with_block_size(256, 4).unwrap();
    enc.put(values).unwrap();
    let ours = enc.flush().unwrap();
    let back = arrow_decode::<pq::Int64Type>(PqEncoding::DELTA_BINARY_PACKED, 0, &ours, n, 100);
    assert_eq!(back, values);
    assert_eq!(ours, theirs, "same layout, same bytes");
}

/// Both directions for INT32 values.
fn check_i32(values: &[i32]) {
    let n = values.len();
    let theirs = arrow_encode::<pq::Int32Type>(PqEncoding::DELTA_BINARY_PACKED, 0, values);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&theirs), n).unwrap();
    assert_eq!(dec.read_all().unwrap(), values);
    let mut dec =
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&theirs), n).unwrap();
    dec.skip(n / 3).unwrap();
    assert_eq!(dec.read_all().unwrap(), &values[n / 3..]);

    let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::new();
    enc.put(values).unwrap();
    let ours = enc.flush().unwrap();
    let back = arrow_decode::<pq::Int32Type>(PqEncoding::DELTA_BINARY_PACKED, 0, &ours, n, 100);
    assert_eq!(back, values);
    assert_eq!(ours, theirs, "same layout, same bytes");
}

#[test]
fn dbp_int64_every_width() {
    for width in 0..=64u32 {
        for (n, base) in [(1000 + width as usize, -3), (257, i64::MIN / 2)] {
            let values = values_of_width(u64::from(width) * 31 + 7, n, width, -12345, base);
            check_i64(&values);
        }
    }
}

#[test]
fn dbp_int32_every_width() {
    for width in 0..=32u32 {
        for (n, base) in [(1000 + width as usize, -3), (129, i64::from(i32::MIN))] {
            // Deltas of INT32 wrap in 32 bits: the low 32 bits of the 64-bit series.
            let values: Vec<i32> = values_of_width(u64::from(width) + 1, n, width, 99, base)
                .into_iter()
                .map(|v| v as i32)
                .collect();
            check_i32(&values);
        }
    }
}
