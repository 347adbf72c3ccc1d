//! Cases of dictionary-encoded pages and their dictionaries.

use super::*;

pub(super) fn dictionary_cases(v: &mut Vec<Case>) {
    for p in ALL_TYPES {
        let t = lower(p);
        let dict = plain_values(p, 4, 2);
        let len = dictionary_len(ColumnType::new(p, 4).unwrap(), &dict);
        // An RLE run of index `len` (one past the end) at a width that holds it.
        let width = 64 - (len as u64).leading_zeros();
        let width_bytes = width.div_ceil(8) as usize;
        let mut index = vec![width as u8, 0x06];
        index.extend_from_slice(&(len as u32).to_le_bytes()[..width_bytes]);
        v.push(
            case(
                format!("rle_dictionary/{t}/index out of range (RLE run)"),
                RleDictionary,
                p,
                3,
                index,
                Expect::DictionaryIndex(RleDictionary, len as u64, len),
            )
            .dictionary(dict.clone())
            .skip(SkipExpect::Undetected),
        );
        // A bit-packed group of 8 indices 0, the sixth one past the end.
        let mut packed = [0u32; 8];
        packed[5] = len as u32;
        let mut bits = 0u64;
        for (i, &x) in packed.iter().enumerate() {
            bits |= u64::from(x) << (i as u32 * width);
        }
        let mut index = vec![width as u8, 0x03];
        index.extend_from_slice(&bits.to_le_bytes()[..width as usize]);
        v.push(
            case(
                format!("rle_dictionary/{t}/index out of range (bit-packed)"),
                RleDictionary,
                p,
                8,
                index,
                Expect::DictionaryIndex(RleDictionary, len as u64, len),
            )
            .dictionary(dict.clone())
            .skip(SkipExpect::Undetected),
        );
        for width in [33u8, 65] {
            v.push(
                case(
                    format!("rle_dictionary/{t}/index bit width {width}"),
                    RleDictionary,
                    p,
                    3,
                    vec![width, 0x06, 0, 0, 0, 0, 0],
                    Expect::BitWidth(RleDictionary, "bit width", u32::from(width), 32),
                )
                .dictionary(dict.clone()),
            );
        }
        v.push(
            case(
                format!("rle_dictionary/{t}/bit width byte missing"),
                RleDictionary,
                p,
                1,
                vec![],
                Expect::Truncated(RleDictionary, "bit width"),
            )
            .dictionary(dict.clone()),
        );
        let mut hostile = vec![1u8, 0x10, 0x00];
        hostile.resize(100, 0);
        v.push(
            case(
                format!("rle_dictionary/{t}/2^31 indices in a 100-byte page"),
                RleDictionary,
                p,
                HUGE,
                hostile,
                Expect::Invalid(RleDictionary, "run header"),
            )
            .dictionary(dict.clone()),
        );
        v.push(
            case(
                format!("rle_dictionary/{t}/indices end before num_values"),
                RleDictionary,
                p,
                20,
                vec![1, 0x10, 0x00],
                Expect::Truncated(RleDictionary, "run header"),
            )
            .dictionary(dict.clone()),
        );
        v.push(
            case(
                format!("rle_dictionary/{t}/no dictionary page"),
                RleDictionary,
                p,
                2,
                vec![1, 0x04, 0x00],
                Expect::Invalid(RleDictionary, "dictionary page"),
            )
            // The Arrow adapter reports a missing dictionary as its own Corrupt error.
            .no_arrow(),
        );
        v.push(
            case(
                format!("rle_dictionary/{t}/empty dictionary, index 0"),
                RleDictionary,
                p,
                2,
                vec![0, 0x04],
                Expect::DictionaryIndex(RleDictionary, 0, 0),
            )
            .dictionary(vec![])
            .skip(SkipExpect::Undetected),
        );
        v.push(
            case(
                format!("plain_dictionary/{t}/no dictionary page"),
                PlainDictionary,
                p,
                2,
                vec![1, 0x04, 0x00],
                Expect::Invalid(PlainDictionary, "dictionary page"),
            )
            .no_arrow(),
        );
    }
    let dict = plain_values(P::Int32, 0, 2);
    v.push(
        case(
            "plain_dictionary/int32/index out of range names PLAIN_DICTIONARY",
            PlainDictionary,
            P::Int32,
            3,
            vec![2, 0x06, 2],
            Expect::DictionaryIndex(PlainDictionary, 2, 2),
        )
        .dictionary(dict.clone())
        .skip(SkipExpect::Undetected),
    );
    v.push(
        case(
            "plain_dictionary/int32/bit width 33 names PLAIN_DICTIONARY",
            PlainDictionary,
            P::Int32,
            3,
            vec![33, 0x06, 0, 0, 0, 0, 0],
            Expect::BitWidth(PlainDictionary, "bit width", 33, 32),
        )
        .dictionary(dict.clone()),
    );
    v.push(
        case(
            "rle_dictionary/int32/dictionary page not whole values",
            RleDictionary,
            P::Int32,
            2,
            vec![1, 0x04, 0x00],
            Expect::Invalid(Plain, "page length"),
        )
        .dictionary(vec![1, 0, 0, 0, 2, 0])
        // The Arrow adapter takes the dictionary's count from its page header.
        .no_arrow(),
    );
}
