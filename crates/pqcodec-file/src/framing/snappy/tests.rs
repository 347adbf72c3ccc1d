use proptest::prelude::*;

use super::*;

/// `data` compressed by the `snap` crate (the reference encoder).
fn compressed(data: &[u8]) -> Vec<u8> {
    snap::raw::Encoder::new().compress_vec(data).unwrap()
}

fn decompressed(src: &[u8], expected: usize) -> Result<Vec<u8>, SnappyError> {
    let mut out = Vec::new();
    decompress_into(src, expected, &mut out).map(|()| out)
}

/// Bytes with runs, repeats at every distance up to 40, and noise.
fn repetitive() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0u8..4, any::<u8>(), 1usize..80), 0..60).prop_map(|parts| {
        let mut out = Vec::new();
        for (kind, byte, n) in parts {
            match kind {
                0 => out.extend(std::iter::repeat_n(byte, n)),
                1 if !out.is_empty() => {
                    let back = (byte as usize % 40 + 1).min(out.len());
                    for _ in 0..n {
                        out.push(out[out.len() - back]);
                    }
                }
                _ => out.extend((0..n).map(|i| byte.wrapping_mul(i as u8 | 1))),
            }
        }
        out
    })
}

proptest! {
    #[test]
    fn matches_snap(data in repetitive(), prefix in prop::collection::vec(any::<u8>(), 0..3)) {
        let src = compressed(&data);
        let mut out = prefix.clone();
        decompress_into(&src, data.len(), &mut out).unwrap();
        prop_assert_eq!(&out[..prefix.len()], &prefix[..]);
        prop_assert_eq!(&out[prefix.len()..], &data[..]);
    }

    /// Any bytes: an error exactly where `snap` fails, the same output where it succeeds.
    #[test]
    fn agrees_with_snap_on_any_bytes(src in prop::collection::vec(any::<u8>(), 0..200)) {
        let (len, header) = decompressed_len(&src).unwrap_or((0, 0));
        if len > (src.len() - header) * MAX_RATIO {
            let refused = matches!(decompressed(&src, len), Err(SnappyError::Impossible { .. }));
            prop_assert!(refused);
            return Ok(());
        }
        let reference = snap::raw::Decoder::new().decompress_vec(&src);
        match (decompressed(&src, len), reference) {
            (Ok(ours), Ok(theirs)) => prop_assert_eq!(ours, theirs),
            (Err(_), Err(_)) => {}
            (ours, theirs) => prop_assert!(false, "pqcodec {ours:?}, snap {theirs:?}"),
        }
    }
}

#[test]
fn every_element_kind_and_overlap() {
    // Hand-made: a literal with a 1-byte length, copies with 1-, 2- and 4-byte offsets, each
    // kind followed by the others, and overlapping copies of every period up to 17.
    let mut src: Vec<u8> = vec![];
    let mut want: Vec<u8> = vec![];
    let literal: Vec<u8> = (0..70u8).collect();
    src.extend([60 << 2, 69]);
    src.extend(&literal);
    want.extend(&literal);
    for period in 1..=17usize {
        // A copy of 64 from `period` back (2-byte offset).
        src.extend([(63 << 2) | 2, period as u8, 0]);
        for _ in 0..64 {
            want.push(want[want.len() - period]);
        }
        // A copy of 11 from `period` back (1-byte offset).
        src.extend([(7 << 2) | 1, period as u8]);
        for _ in 0..11 {
            want.push(want[want.len() - period]);
        }
        // A copy of 10 from `period` back (4-byte offset), followed by more elements.
        src.extend([(9 << 2) | 3, period as u8, 0, 0, 0]);
        for _ in 0..10 {
            want.push(want[want.len() - period]);
        }
    }
    src.extend([(9 << 2) | 3, 100, 0, 0, 0]);
    for _ in 0..10 {
        want.push(want[want.len() - 100]);
    }
    let mut framed = vec![];
    let mut n = want.len();
    while n >= 0x80 {
        framed.push(n as u8 | 0x80);
        n >>= 7;
    }
    framed.push(n as u8);
    framed.extend(src);
    assert_eq!(decompressed(&framed, want.len()).unwrap(), want);
    // Every prefix of the elements is an error, never a panic.
    for cut in 1..framed.len() {
        assert!(
            decompressed(&framed[..cut], want.len()).is_err(),
            "cut at {cut}"
        );
    }
}

#[test]
fn errors_name_what_is_wrong() {
    assert_eq!(decompressed(&[], 0), Err(SnappyError::Header));
    assert_eq!(decompressed(&[0x80; 6], 0), Err(SnappyError::Header));
    assert_eq!(
        decompressed(&[3, 2 << 2, b'a'], 3),
        Err(SnappyError::Truncated { at: 1 })
    );
    assert_eq!(
        decompressed(&[3, 2 << 2, b'a', b'b', b'c'], 4),
        Err(SnappyError::Length {
            header: 3,
            expected: 4
        })
    );
    assert_eq!(
        decompressed(&[2, 2 << 2, b'a', b'b', b'c'], 2),
        Err(SnappyError::Overflow { at: 1 })
    );
    assert_eq!(
        decompressed(&[5, 0, b'a', 1, 2], 5), // a copy of 4 from 2 back
        Err(SnappyError::Offset {
            at: 3,
            offset: 2,
            written: 1
        })
    );
    assert_eq!(
        decompressed(&[5, 0, b'a'], 5),
        Err(SnappyError::Short {
            written: 1,
            header: 5
        })
    );
    // A header claiming 4 GiB is refused before anything is allocated.
    let huge = [0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0];
    assert_eq!(
        decompressed(&huge, u32::MAX as usize),
        Err(SnappyError::Impossible {
            header: u32::MAX as usize,
            input: 2
        })
    );
    assert_eq!(
        decompressed(&[0xff, 0xff, 0xff, 0xff, 0x1f], 10),
        Err(SnappyError::Header)
    );
}
