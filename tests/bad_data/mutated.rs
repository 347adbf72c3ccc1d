//! Mutated pages: valid pages of every pair, bytes flipped, overwritten or cut, counts changed;
//! every path must end in `Ok` or an error, never a panic or a hang.

use super::*;

/// Values of `physical` made from `raw` bytes (small integers, so that the delta and
/// dictionary encodings see repeats and small deltas).
pub(super) fn values_from(physical: PhysicalType, raw: &[u8]) -> dynamic::Values {
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
pub(super) fn pairs() -> Vec<(Encoding, PhysicalType)> {
    Encoding::ALL
        .into_iter()
        .flat_map(|e| ALL_TYPES.into_iter().map(move |p| (e, p)))
        .filter(|&(e, p)| applies(e, p))
        .collect()
}

/// A mutation of page bytes.
#[derive(Debug, Clone)]
pub(super) enum Mutation {
    Flip(usize, u8),
    Set(usize, u8),
    Int(usize, u32),
    Cut(usize),
}

pub(super) fn mutate(bytes: &mut Vec<u8>, m: &Mutation) {
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

pub(super) fn mutation() -> impl proptest::strategy::Strategy<Value = Mutation> {
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
        let page = dynamic::encode(encoding, &values, ColumnType::new(physical, 4).unwrap()).unwrap();
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
                let column_type = c.column_type().map_err(|e| e.to_string())?;
                with_physical!(column_type, ty: T => {
                    let _ = drain(&c, ty, false);
                    let _ = drain(&c, ty, true);
                });
                if c.num_values < HUGE {
                    let _ = dynamic::decode(c.encoding, column_type, Bytes::copy_from_slice(&c.bytes), c.num_values, c.dictionary.as_deref());
                }
                Ok(())
            })
        };
        proptest::prop_assert_eq!(outcome, Ok(()), "{:?}", c);
        let outcome = {
            let c = c.clone();
            guarded(&c.name.clone(), move || {
                let column_type = c.column_type().map_err(|e| e.to_string())?;
                // The dictionary page's count as the page header would give it.
                let mut pages = Vec::new();
                if let Some(d) = &c.dictionary {
                    let count = plain_value_count(column_type, d).unwrap_or(0);
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
                let desc = ColumnDesc::flat("c", column_type, false);
                let data_type = arrow_type(column_type);
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
