use super::*;
use bytes::Bytes;
use pqcodec_core::{BooleanType, Decoder, Encoder, Sink};
use proptest::prelude::*;

use crate::kernels::bitpack::pack32;
use crate::kernels::varint::write_uleb128;

const SPEC_BYTES: [u8; 4] = [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];

fn encode(width: u32, values: &[u32]) -> Vec<u8> {
    let mut e = RleEncoder::new(width);
    for &v in values {
        e.put(v);
    }
    assert_eq!(e.num_values(), values.len());
    let mut out = Vec::new();
    e.flush_into(&mut out);
    out
}

fn decode(data: &[u8], width: u32, n: usize) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    let got = RleDecoder::new(Bytes::copy_from_slice(data), n, width)?.read(&mut out, n)?;
    assert_eq!(got, out.len());
    Ok(out)
}

/// A reference decoder written for clarity: every run in full, bit by bit.
fn naive_decode(data: &[u8], width: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let mut header = 0u64;
        let mut shift = 0;
        loop {
            let b = data[pos];
            pos += 1;
            header |= u64::from(b & 0x7F) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        if header & 1 == 1 {
            let n = (header >> 1) as usize * 8;
            for i in 0..n {
                let mut v = 0u32;
                for b in 0..width as usize {
                    let bit = i * width as usize + b;
                    v |= u32::from(data[pos + bit / 8] >> (bit % 8) & 1) << b;
                }
                out.push(v);
            }
            pos += n * width as usize / 8;
        } else {
            let nb = width.div_ceil(8) as usize;
            let mut v = 0u32;
            for b in 0..nb {
                v |= u32::from(data[pos + b]) << (8 * b);
            }
            pos += nb;
            out.extend(std::iter::repeat_n(v, (header >> 1) as usize));
        }
    }
    out
}

/// The run headers of a stream: (bit-packed?, values).
fn runs(data: &[u8], width: u32) -> Vec<(bool, u64)> {
    let mut out = Vec::new();
    let mut r = crate::kernels::ByteReader::new(data, Encoding::Rle);
    while r.remaining() > 0 {
        let h = r.uleb128("h").unwrap();
        if h & 1 == 1 {
            out.push((true, (h >> 1) * 8));
            r.take((h >> 1) as usize * width as usize, "v").unwrap();
        } else {
            out.push((false, h >> 1));
            r.take(width.div_ceil(8) as usize, "v").unwrap();
        }
    }
    out
}

#[test]
fn spec_example_both_directions() {
    assert_eq!(decode(&SPEC_BYTES, 3, 8).unwrap(), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(encode(3, &[0, 1, 2, 3, 4, 5, 6, 7]), SPEC_BYTES);
}

#[test]
fn rle_runs_reach_the_sink_as_runs() {
    #[derive(Default)]
    struct Calls {
        repeated: Vec<(u32, usize)>,
        slices: usize,
        pushes: usize,
    }
    impl Sink<u32> for Calls {
        fn push(&mut self, _: &u32) {
            self.pushes += 1;
        }
        fn push_repeated(&mut self, v: &u32, n: usize) {
            self.repeated.push((*v, n));
        }
        fn extend_from_slice(&mut self, _: &[u32]) {
            self.slices += 1;
        }
    }
    // RLE run of 1000 sevens, then the spec's bit-packed group.
    let mut data = Vec::new();
    write_uleb128(&mut data, 1000 << 1);
    data.push(7);
    data.extend_from_slice(&SPEC_BYTES);
    let mut calls = Calls::default();
    let mut d = RleDecoder::new(Bytes::copy_from_slice(&data), 1008, 3).unwrap();
    assert_eq!(d.read(&mut calls, 2000).unwrap(), 1008);
    assert_eq!(calls.repeated, [(7, 1000)]);
    assert_eq!(calls.slices, 1);
    assert_eq!(calls.pushes, 0);
    assert_eq!(d.remaining(), 0);
}

#[test]
fn width_zero_is_all_zeros() {
    // RLE run of 5 zeros with a zero-byte value, bit-packed run of 8 with no bytes.
    let data = [5 << 1, 0x03];
    assert_eq!(decode(&data, 0, 13).unwrap(), vec![0; 13]);
    let enc = encode(0, &[0; 100]);
    assert_eq!(decode(&enc, 0, 100).unwrap(), vec![0; 100]);
    assert_eq!(enc, [100 << 1 & 0x7F | 0x80, 1]);
}

#[test]
fn wide_repeated_values() {
    for width in [8, 9, 16, 17, 24, 25, 31, 32] {
        let max = if width == 32 {
            u32::MAX
        } else {
            (1 << width) - 1
        };
        let data = encode(width, &[max; 20]);
        assert_eq!(data.len(), 1 + width.div_ceil(8) as usize, "width {width}");
        assert_eq!(decode(&data, width, 20).unwrap(), vec![max; 20]);
    }
}

#[test]
fn a_run_longer_than_the_page_is_cut_short() {
    let mut data = Vec::new();
    write_uleb128(&mut data, 1000 << 1);
    data.push(1);
    assert_eq!(decode(&data, 1, 10).unwrap(), vec![1; 10]);
    // Bit-packed: 3 groups declared, 10 values wanted, all bytes there.
    let mut data = vec![(3 << 1) | 1];
    pack32(&[1; 24], 1, &mut data);
    assert_eq!(decode(&data, 1, 10).unwrap(), vec![1; 10]);
}

#[test]
fn truncated_final_group_accepted_while_values_are_there() {
    // One group of 8 declared at width 8, but only 5 bytes: 5 values present.
    let data = [0x03, 10, 11, 12, 13, 14];
    assert_eq!(decode(&data, 8, 5).unwrap(), [10, 11, 12, 13, 14]);
    let mut d = RleDecoder::new(Bytes::copy_from_slice(&data), 6, 8).unwrap();
    let mut out = Vec::new();
    assert_eq!(d.read(&mut out, 5).unwrap(), 5);
    assert_eq!(
        d.read(&mut out, 1),
        Err(Error::truncated(Encoding::Rle, "bit-packed run", 6, 5))
    );
    let mut d = RleDecoder::new(Bytes::copy_from_slice(&data), 6, 8).unwrap();
    assert_eq!(d.skip(5), Ok(5));
    assert!(matches!(d.skip(1), Err(Error::Truncated { .. })));
    // A read reaching past the end fails, whatever the batch.
    assert!(matches!(decode(&data, 8, 8), Err(Error::Truncated { .. })));
}

#[test]
fn malformed_inputs_name_the_problem() {
    assert_eq!(
        RleDecoder::new(Bytes::copy_from_slice(&[]), 1, 33).err(),
        Some(Error::BitWidth {
            encoding: Encoding::Rle,
            field: "bit width",
            width: 33,
            max: 32
        })
    );
    // No header at all.
    assert!(matches!(
        RleDecoder::new(Bytes::copy_from_slice(&[]), 1, 1),
        Err(Error::Truncated {
            field: "run header",
            ..
        })
    ));
    // Empty data is fine when no values are expected.
    assert_eq!(decode(&[], 1, 0).unwrap(), Vec::<u32>::new());
    // Header ends mid-varint.
    assert!(matches!(
        RleDecoder::new(Bytes::copy_from_slice(&[0x80]), 1, 1),
        Err(Error::Truncated { .. })
    ));
    // Runs of zero values, either kind.
    for data in [[0u8, 0], [1, 0]] {
        assert!(matches!(
            RleDecoder::new(Bytes::copy_from_slice(&data), 1, 1),
            Err(Error::Invalid {
                field: "run header",
                ..
            })
        ));
    }
    // RLE run of 2^31 values.
    let mut data = Vec::new();
    write_uleb128(&mut data, 1 << 32);
    data.push(0);
    assert!(matches!(
        RleDecoder::new(Bytes::copy_from_slice(&data), 1, 1),
        Err(Error::Invalid { .. })
    ));
    // RLE run of 2^31 - 1 values is fine.
    let mut data = Vec::new();
    write_uleb128(&mut data, ((1 << 31) - 1) << 1);
    data.push(1);
    let mut d = RleDecoder::new(Bytes::copy_from_slice(&data), 1 << 31, 1).unwrap();
    assert_eq!(d.skip((1 << 31) - 1).unwrap(), (1 << 31) - 1);
    assert!(matches!(d.skip(1), Err(Error::Truncated { .. })));
    // Bit-packed run of 2^28 groups = 2^31 values.
    let mut data = Vec::new();
    write_uleb128(&mut data, (1 << 29) | 1);
    assert!(matches!(
        RleDecoder::new(Bytes::copy_from_slice(&data), 1, 1),
        Err(Error::Invalid { .. })
    ));
    // A varint too long for 64 bits.
    assert!(matches!(
        RleDecoder::new(Bytes::copy_from_slice(&[0xFF; 11]), 1, 1),
        Err(Error::Invalid { .. })
    ));
    // Repeated value wider than the bit width.
    assert!(matches!(
        RleDecoder::new(Bytes::copy_from_slice(&[2, 2]), 1, 1),
        Err(Error::Invalid {
            field: "repeated value",
            ..
        })
    ));
    assert!(matches!(
        RleDecoder::new(Bytes::copy_from_slice(&[2, 0xFF, 0x02]), 1, 9),
        Err(Error::Invalid { .. })
    ));
    // Repeated value cut off.
    assert!(matches!(
        RleDecoder::new(Bytes::copy_from_slice(&[2, 0xFF]), 1, 9),
        Err(Error::Truncated {
            field: "repeated value",
            ..
        })
    ));
    // Runs run out before the page does.
    let mut d = RleDecoder::new(Bytes::copy_from_slice(&[2, 1]), 3, 1).unwrap();
    let mut out = Vec::new();
    assert!(matches!(
        d.read(&mut out, 3),
        Err(Error::Truncated {
            field: "run header",
            ..
        })
    ));
    assert_eq!(out, [1]);
}

#[test]
fn length_prefix() {
    assert_eq!(
        split_length_prefix(&[2, 0, 0, 0, 7, 8, 9]),
        Ok((&[7u8, 8][..], &[9u8][..]))
    );
    assert_eq!(
        split_length_prefix(&[2, 0, 0]),
        Err(Error::truncated(Encoding::Rle, "length", 4, 3))
    );
    assert_eq!(
        split_length_prefix(&[3, 0, 0, 0, 1, 2]),
        Err(Error::truncated(Encoding::Rle, "encoded data", 3, 2))
    );
    assert!(RleBooleanDecoder::new(Bytes::copy_from_slice(&[9, 0, 0, 0, 1]), 1).is_err());
}

#[test]
fn booleans_with_length_prefix() {
    let values: Vec<bool> = (0..100).map(|i| i % 3 == 0 || i > 60).collect();
    let mut e = RleBooleanEncoder::new();
    e.put(&values).unwrap();
    assert_eq!(Encoder::<BooleanType>::num_values(&e), 100);
    let page = Encoder::<BooleanType>::flush(&mut e).unwrap();
    let (encoded, rest) = split_length_prefix(&page).unwrap();
    assert!(rest.is_empty());
    assert_eq!(
        naive_decode(encoded, 1)[..100],
        values.iter().map(|&b| u32::from(b)).collect::<Vec<_>>()[..]
    );
    let mut d = RleBooleanDecoder::new(Bytes::copy_from_slice(&page), 100).unwrap();
    assert_eq!(d.read_all().unwrap(), values);
    // the encoder starts again after a flush
    e.put(&[true]).unwrap();
    let page = Encoder::<BooleanType>::flush(&mut e).unwrap();
    assert_eq!(page, [2, 0, 0, 0, 2, 1]);
}

#[test]
fn encoder_never_writes_runs_over_2_31_minus_1() {
    let mut e = RleEncoder::new(1);
    let n = (1usize << 32) + 3;
    e.put_repeated(1, n);
    e.put(0);
    assert_eq!(e.num_values(), n + 1);
    let mut out = Vec::new();
    e.flush_into(&mut out);
    let runs = runs(&out, 1);
    assert!(
        runs.iter()
            .all(|&(_, len)| (1..=MAX_RUN_LEN).contains(&len))
    );
    assert_eq!(runs.iter().map(|r| r.1).sum::<u64>(), n as u64 + 1);
    let mut d = RleDecoder::new(Bytes::copy_from_slice(&out), n + 1, 1).unwrap();
    assert_eq!(d.skip(n).unwrap(), n);
    assert_eq!(decode_rest(&mut d), [0]);
}

fn decode_rest(d: &mut RleDecoder) -> Vec<u32> {
    let mut out = Vec::new();
    d.read(&mut out, usize::MAX).unwrap();
    out
}

#[test]
fn encoder_uses_rle_for_repeats_and_bit_packing_otherwise() {
    // 3 literals then 20 repeats: the literals' group is completed with 5 repeats, then an RLE
    // run of 15.
    let mut values = vec![1, 2, 3];
    values.extend([5; 20]);
    let out = encode(3, &values);
    assert_eq!(runs(&out, 3), [(true, 8), (false, 15)]);
    assert_eq!(naive_decode(&out, 3), values);
    // Long literal runs are split every 63 groups.
    let values: Vec<u32> = (0..1000).map(|i| i % 7).collect();
    let out = encode(3, &values);
    let r = runs(&out, 3);
    assert!(r.iter().all(|&(packed, len)| packed && len <= 504));
    assert_eq!(naive_decode(&out, 3)[..1000], values[..]);
}

/// One long `put_slice` (groups packed straight from the slice, many at a time) writes what a
/// `put` of each value writes: literal runs split every 63 groups, an equal group between
/// them starting an RLE run, bits above the width dropped.
#[test]
fn put_slice_of_many_groups_matches_put() {
    let mut values: Vec<u32> = (0..1000).map(|i| (i * 5 + i / 9) % 13).collect();
    values[600..616].fill(4);
    values[3] |= 1 << 20;
    let mut e = RleEncoder::new(4);
    e.put_slice(&values);
    let mut out = Vec::new();
    e.flush_into(&mut out);
    assert_eq!(out, encode(4, &values));
    let r = runs(&out, 4);
    assert!(
        r.contains(&(true, 504)) && r.contains(&(false, 16)),
        "{r:?}"
    );
}

/// Values made of runs: (value, length) pairs, some long, some short.
fn run_values(width: u32) -> impl Strategy<Value = Vec<u32>> {
    let max = if width == 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    };
    let value = prop_oneof![Just(0), Just(max), 0..=max];
    prop::collection::vec(
        (value, prop_oneof![1usize..4, 1usize..20, 1usize..200]),
        0..40,
    )
    .prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(v, n)| std::iter::repeat_n(v, n))
            .collect()
    })
}

fn width_and_values() -> impl Strategy<Value = (u32, Vec<u32>)> {
    (0u32..=32).prop_flat_map(|w| (Just(w), run_values(w)))
}

/// Read (true) or skip (false) steps of these sizes.
fn steps() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), prop_oneof![0usize..10, 0usize..300]), 1..20)
}

/// Reads the page with interleaved reads and skips, checking each against `expected`.
fn check_steps(
    data: &[u8],
    width: u32,
    expected: &[u32],
    steps: &[(bool, usize)],
) -> std::result::Result<(), TestCaseError> {
    let mut d = RleDecoder::new(Bytes::copy_from_slice(data), expected.len(), width).unwrap();
    let mut pos = 0;
    for &(read, n) in steps {
        let want = n.min(expected.len() - pos);
        if read {
            let mut out = Vec::new();
            prop_assert_eq!(d.read(&mut out, n).unwrap(), want);
            prop_assert_eq!(&out[..], &expected[pos..pos + want]);
        } else {
            prop_assert_eq!(d.skip(n).unwrap(), want);
        }
        pos += want;
        prop_assert_eq!(d.remaining(), expected.len() - pos);
    }
    let mut rest = Vec::new();
    d.read(&mut rest, usize::MAX).unwrap();
    prop_assert_eq!(&rest[..], &expected[pos..]);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trip_with_reads_and_skips((width, values) in width_and_values(), steps in steps()) {
        let data = encode(width, &values);
        // The encoder's output agrees with the reference decoder, padding aside.
        let naive = naive_decode(&data, width);
        prop_assert!(naive.len() >= values.len() && naive.len() < values.len() + 8);
        prop_assert_eq!(&naive[..values.len()], &values[..]);
        prop_assert!(runs(&data, width).iter().all(|&(_, n)| n <= MAX_RUN_LEN));
        check_steps(&data, width, &values, &steps)?;
    }

    #[test]
    fn put_repeated_matches_put((width, values) in width_and_values()) {
        let mut e = RleEncoder::new(width);
        for chunk in values.chunk_by(|a, b| a == b) {
            e.put_repeated(chunk[0], chunk.len());
        }
        let mut out = Vec::new();
        e.flush_into(&mut out);
        let expected = encode(width, &values);
        prop_assert_eq!(&out, &expected);
        // put_slice too, in pieces.
        let mut e = RleEncoder::new(width);
        for piece in values.chunks(37) {
            e.put_slice(piece);
        }
        prop_assert_eq!(e.num_values(), values.len());
        let mut out = Vec::new();
        e.flush_into(&mut out);
        prop_assert_eq!(&out, &expected);
    }

    /// Streams built run by run, as other writers might (any mix of run kinds and lengths,
    /// unpadded), decode like the reference decoder.
    #[test]
    fn arbitrary_streams_match_reference(
        width in 0u32..=32,
        runs in prop::collection::vec((any::<bool>(), 1usize..40, any::<u32>()), 0..20),
        steps in steps(),
    ) {
        let mask = if width == 32 { u32::MAX } else { (1u32 << width) - 1 };
        let mut data = Vec::new();
        let mut seed = 0x9E37_79B9u32;
        for (packed, n, v) in runs {
            if packed {
                let groups = n.div_ceil(8);
                write_uleb128(&mut data, ((groups as u64) << 1) | 1);
                let vals: Vec<u32> = (0..groups * 8).map(|_| {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    seed & mask
                }).collect();
                pack32(&vals, width, &mut data);
            } else {
                write_uleb128(&mut data, (n as u64) << 1);
                data.extend_from_slice(&(v & mask).to_le_bytes()[..width.div_ceil(8) as usize]);
            }
        }
        let expected = naive_decode(&data, width);
        check_steps(&data, width, &expected, &steps)?;
        let mut bools_ok = true;
        if width == 1 {
            let mut page = (data.len() as u32).to_le_bytes().to_vec();
            page.extend_from_slice(&data);
            let mut d = RleBooleanDecoder::new(Bytes::copy_from_slice(&page), expected.len()).unwrap();
            let got = d.read_all().unwrap();
            bools_ok = got.iter().map(|&b| u32::from(b)).eq(expected.iter().copied());
        }
        prop_assert!(bools_ok);
    }

    /// Garbage never panics, and errors are typed.
    #[test]
    fn garbage_never_panics(
        width in 0u32..=33,
        data in prop::collection::vec(any::<u8>(), 0..64),
        n in 0usize..2000,
        steps in steps(),
    ) {
        if let Ok(mut d) = RleDecoder::new(Bytes::copy_from_slice(&data), n, width) {
            for (read, k) in steps {
                let r = if read { d.read(&mut Vec::new(), k) } else { d.skip(k) };
                if r.is_err() {
                    break;
                }
            }
        }
        let _ = RleBooleanDecoder::new(Bytes::copy_from_slice(&data), n).and_then(|mut d| d.read_all());
    }

    /// Booleans put a group at a time write the bytes of `put` of each as 0 / 1, in runs
    /// short and long and in pieces cut anywhere.
    #[test]
    fn put_bools_matches_put(
        runs in prop::collection::vec((any::<bool>(), 1usize..40), 0..60),
        long in prop::option::of(any::<bool>()),
        piece in 1usize..50,
    ) {
        let mut values: Vec<bool> = runs.iter().flat_map(|&(v, n)| std::iter::repeat_n(v, n)).collect();
        if let Some(v) = long {
            values.splice(values.len() / 2..values.len() / 2, std::iter::repeat_n(v, 600));
        }
        let as_u32: Vec<u32> = values.iter().map(|&v| u32::from(v)).collect();
        let expected = encode(1, &as_u32);
        let mut e = RleEncoder::new(1);
        for chunk in values.chunks(piece) {
            e.put_bools(chunk);
        }
        prop_assert_eq!(e.num_values(), values.len());
        let mut out = Vec::new();
        e.flush_into(&mut out);
        prop_assert_eq!(&out, &expected);
        // At another bit width, value by value.
        let mut e = RleEncoder::new(3);
        e.put_bools(&values);
        let mut out = Vec::new();
        e.flush_into(&mut out);
        prop_assert_eq!(&out, &encode(3, &as_u32));
    }

    #[test]
    fn booleans_round_trip(values in prop::collection::vec(any::<bool>(), 0..600), steps in steps()) {
        let mut e = RleBooleanEncoder::new();
        e.put(&values).unwrap();
        let page = Encoder::<BooleanType>::flush(&mut e).unwrap();
        let mut d = RleBooleanDecoder::new(Bytes::copy_from_slice(&page), values.len()).unwrap();
        let mut pos = 0;
        for (read, n) in steps {
            let want = n.min(values.len() - pos);
            if read {
                let mut out = Vec::new();
                prop_assert_eq!(d.read(&mut out, n).unwrap(), want);
                prop_assert_eq!(&out[..], &values[pos..pos + want]);
            } else {
                prop_assert_eq!(d.skip(n).unwrap(), want);
            }
            pos += want;
        }
        prop_assert_eq!(&d.read_all().unwrap()[..], &values[pos..]);
    }
}

#[test]
fn a_huge_claimed_count_does_not_reserve_for_it() {
    // One RLE run of a single width-0 value, in a page claiming 2^31 values: the read
    // reserves by the bytes present, then stops with the header missing for the next run.
    let data = [0x02];
    let claimed = 1usize << 31;
    let mut out: Vec<u32> = Vec::new();
    let mut d = RleDecoder::new(Bytes::copy_from_slice(&data), claimed, 0).unwrap();
    assert!(matches!(
        d.read(&mut out, claimed),
        Err(Error::Truncated {
            encoding: Encoding::Rle,
            ..
        })
    ));
    assert!(out.capacity() < 1 << 16, "reserved {}", out.capacity());
    let mut bools: Vec<bool> = Vec::new();
    let prefixed = [2, 0, 0, 0, 0x02, 0x01];
    let mut b = RleBooleanDecoder::new(Bytes::copy_from_slice(&prefixed), claimed).unwrap();
    assert!(b.read(&mut bools, claimed).is_err());
    assert!(bools.capacity() < 1 << 16, "reserved {}", bools.capacity());
}
