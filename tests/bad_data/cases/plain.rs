//! Cases of PLAIN, GROUP_VAR_INT, BYTE_STREAM_SPLIT and ALP pages.

use super::*;

pub(super) fn plain_cases(v: &mut Vec<Case>) {
    for p in ALL_TYPES {
        let t = lower(p);
        // 2^31 values claimed in a page of ~100 bytes: refused before anything is read.
        v.push(case(
            format!("plain/{t}/2^31 values in a 100-byte page"),
            Plain,
            p,
            HUGE,
            plain_values(p, 4, 20).into_iter().take(100).collect(),
            Expect::CountTooLarge(Plain, "num_values"),
        ));
    }
    // Truncated pages: the last value cut short.
    for p in [
        P::Int32,
        P::Int64,
        P::Int96,
        P::Float,
        P::Double,
        P::FixedLenByteArray,
    ] {
        let mut bytes = plain_values(p, 4, 10);
        bytes.pop();
        v.push(case(
            format!("plain/{}/truncated: last value one byte short", lower(p)),
            Plain,
            p,
            10,
            bytes,
            Expect::CountTooLarge(Plain, "num_values"),
        ));
    }
    v.push(case(
        "plain/boolean/truncated: 9 values in one byte",
        Plain,
        P::Boolean,
        9,
        vec![0xFF],
        Expect::CountTooLarge(Plain, "num_values"),
    ));
    v.push(case(
        "plain/byte_array/truncated: value bytes cut",
        Plain,
        P::ByteArray,
        2,
        cat(&[&[1, 0, 0, 0, b'a'], &[5, 0, 0, 0, b'b', b'c']]),
        Expect::Truncated(Plain, "byte array value"),
    ));
    v.push(case(
        "plain/byte_array/truncated: length cut",
        Plain,
        P::ByteArray,
        3,
        cat(&[&[1, 0, 0, 0, b'a'], &[1, 0, 0, 0, b'b'], &[0, 0]]),
        Expect::Truncated(Plain, "byte array length"),
    ));
    v.push(case(
        "plain/byte_array/negative length (-1 read as 2^32-1)",
        Plain,
        P::ByteArray,
        1,
        vec![0xFF, 0xFF, 0xFF, 0xFF, b'x', b'y', b'z', b'w'],
        Expect::Truncated(Plain, "byte array value"),
    ));
    v.push(case(
        "plain/byte_array/length 2^31 in an 8-byte page",
        Plain,
        P::ByteArray,
        2,
        vec![0, 0, 0, 0x80, 0, 0, 0, 0],
        Expect::Truncated(Plain, "byte array value"),
    ));
    v.push(
        case(
            "plain/fixed_len_byte_array/type length 0",
            Plain,
            P::FixedLenByteArray,
            3,
            vec![1, 2, 3],
            Expect::TypeLength(0),
        )
        .type_length(0)
        .no_arrow(),
    );
    v.push(
        case(
            "plain/fixed_len_byte_array/wrong type length: 10 bytes of 3 values of 4",
            Plain,
            P::FixedLenByteArray,
            3,
            (0..10).collect(),
            Expect::CountTooLarge(Plain, "num_values"),
        )
        .type_length(4),
    );
}

pub(super) fn group_var_int_cases(v: &mut Vec<Case>) {
    for p in [P::Int32, P::Int64] {
        let t = lower(p);
        v.push(case(
            format!("group_var_int/{t}/2^31 values in a 100-byte page"),
            Gvi,
            p,
            HUGE,
            vec![0; 100],
            Expect::CountTooLarge(Gvi, "num_values"),
        ));
    }
    // Lengths byte 0xFF: four 4-byte values (17 bytes), but only 5 bytes.
    v.push(case(
        "group_var_int/int32/group values truncated",
        Gvi,
        P::Int32,
        4,
        vec![0xFF, 1, 2, 3, 4],
        Expect::Truncated(Gvi, "group values"),
    ));
    // Lengths 0x7FFF: five 8-byte values (42 bytes), but only 7 bytes.
    v.push(case(
        "group_var_int/int64/group values truncated",
        Gvi,
        P::Int64,
        5,
        vec![0x7F, 0xFF, 1, 2, 3, 4, 5],
        Expect::Truncated(Gvi, "group values"),
    ));
    // First group of 5 + 4 * 2 bytes; the second group's lengths byte is missing.
    v.push(case(
        "group_var_int/int32/second group's values missing",
        Gvi,
        P::Int32,
        8,
        cat(&[&[0b0001_0101], &[1, 2, 2, 3, 3, 4, 4, 5], &[0]]),
        Expect::Truncated(Gvi, "group values"),
    ));
    // First group: lengths 3, 2, 2, 2, 2 (13 bytes), then one byte of the next 2-byte header.
    v.push(case(
        "group_var_int/int64/second group's lengths cut",
        Gvi,
        P::Int64,
        10,
        cat(&[&[0x22, 0x49], &[0; 11], &[0]]),
        Expect::Truncated(Gvi, "group lengths"),
    ));
}

pub(super) fn byte_stream_split_cases(v: &mut Vec<Case>) {
    for p in [
        P::Int32,
        P::Int64,
        P::Float,
        P::Double,
        P::FixedLenByteArray,
    ] {
        let t = lower(p);
        let width = match p {
            P::Int32 | P::Float | P::FixedLenByteArray => 4,
            _ => 8,
        };
        v.push(case(
            format!("byte_stream_split/{t}/page length not a multiple of the width"),
            Bss,
            p,
            1,
            vec![0; width * 3 - 1],
            Expect::Invalid(Bss, "page length"),
        ));
        v.push(case(
            format!("byte_stream_split/{t}/2^31 values in a 96-byte page"),
            Bss,
            p,
            HUGE,
            vec![0; 96],
            Expect::CountTooLarge(Bss, "num_values"),
        ));
        v.push(case(
            format!("byte_stream_split/{t}/one value more than the streams hold"),
            Bss,
            p,
            4,
            vec![0; width * 3],
            Expect::CountTooLarge(Bss, "num_values"),
        ));
    }
    v.push(
        case(
            "byte_stream_split/fixed_len_byte_array/type length 0",
            Bss,
            P::FixedLenByteArray,
            1,
            vec![1, 2, 3],
            Expect::TypeLength(0),
        )
        .type_length(0)
        .no_arrow(),
    );
    v.push(
        case(
            "byte_stream_split/fixed_len_byte_array/wrong type length: 10 bytes of width 3",
            Bss,
            P::FixedLenByteArray,
            3,
            vec![0; 10],
            Expect::Invalid(Bss, "page length"),
        )
        .type_length(3),
    );
}

pub(super) fn alp_cases(v: &mut Vec<Case>) {
    let alp = Encoding::Alp;
    let page = |header: [u8; 7]| {
        let mut bytes = header.to_vec();
        bytes.resize(96, 0);
        bytes
    };
    for p in [P::Float, P::Double] {
        let t = lower(p);
        v.push(case(
            format!("alp/{t}/2^31 values in a page whose header holds 4"),
            alp,
            p,
            HUGE,
            page([0, 0, 10, 4, 0, 0, 0]),
            Expect::CountTooLarge(alp, "num_elements"),
        ));
        v.push(case(
            format!("alp/{t}/compression mode 1"),
            alp,
            p,
            4,
            page([1, 0, 10, 4, 0, 0, 0]),
            Expect::Invalid(alp, "compression_mode"),
        ));
        v.push(case(
            format!("alp/{t}/log vector size 2"),
            alp,
            p,
            4,
            page([0, 0, 2, 4, 0, 0, 0]),
            Expect::Invalid(alp, "log_vector_size"),
        ));
        v.push(case(
            format!("alp/{t}/2^31 - 1 elements: the offset array past the page"),
            alp,
            p,
            4,
            page([0, 0, 10, 0xFF, 0xFF, 0xFF, 0x7F]),
            Expect::Truncated(alp, "offset array"),
        ));
    }
}
