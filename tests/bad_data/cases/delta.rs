//! Cases of DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY pages.

use super::*;

pub(super) fn delta_binary_packed_cases(v: &mut Vec<Case>) {
    for p in [P::Int32, P::Int64] {
        let t = lower(p);
        let bits = if p == P::Int32 { 32 } else { 64 };
        let e = |name: &str, num: usize, bytes: Vec<u8>, expect: Expect| {
            case(
                format!("delta_binary_packed/{t}/{name}"),
                Dbp,
                p,
                num,
                bytes,
                expect,
            )
        };
        v.push(e(
            "block size 100, not a multiple of 128",
            3,
            dbp_header(100, 4, 3, 0),
            Expect::Invalid(Dbp, "block size"),
        ));
        v.push(e(
            "block size 0",
            3,
            dbp_header(0, 1, 3, 0),
            Expect::Invalid(Dbp, "block size"),
        ));
        v.push(e(
            "block size 2^63 + 128 in one miniblock, its bytes missing",
            3,
            cat(&[&dbp_header((1 << 63) + 128, 1, 3, 0), &[0, 1]]),
            Expect::Truncated(Dbp, "miniblock"),
        ));
        v.push(e(
            "zero miniblocks",
            3,
            dbp_header(128, 0, 3, 0),
            Expect::Invalid(Dbp, "miniblock count"),
        ));
        v.push(e(
            "3 miniblocks in a block of 128",
            3,
            dbp_header(128, 3, 3, 0),
            Expect::Invalid(Dbp, "miniblock count"),
        ));
        v.push(e(
            "miniblocks of 16 values",
            3,
            dbp_header(128, 8, 3, 0),
            Expect::Invalid(Dbp, "miniblock size"),
        ));
        v.push(e(
            "header holds fewer values than num_values",
            10,
            cat(&[&dbp_header(128, 4, 5, 0), &[0, 0, 0, 0, 0]]),
            Expect::CountTooLarge(Dbp, "total value count"),
        ));
        v.push(e(
            "2^31 values claimed by page and header, 100 bytes",
            HUGE,
            {
                let mut b = dbp_header(128, 4, HUGE as u64, 7);
                // Blocks of min delta 0 and four miniblocks of width 0: 5 bytes per 128 values.
                b.resize(100, 0);
                b
            },
            Expect::Truncated(Dbp, "miniblock bit widths"),
        ));
        v.push(e(
            "header only: block header missing",
            3,
            dbp_header(128, 4, 3, 0),
            Expect::Truncated(Dbp, "min delta"),
        ));
        v.push(e(
            "block size varint unterminated",
            3,
            vec![0x80, 0x80],
            Expect::Truncated(Dbp, "block size"),
        ));
        v.push(e(
            "min delta varint over 64 bits",
            3,
            cat(&[&dbp_header(128, 4, 3, 0), &[0xFF; 11]]),
            Expect::Invalid(Dbp, "min delta"),
        ));
        v.push(e(
            &format!("miniblock bit width {}", bits + 1),
            3,
            cat(&[
                &dbp_header(128, 4, 3, 0),
                &[0, bits as u8 + 1, 0, 0, 0],
                &[0; 40],
            ]),
            Expect::BitWidth(Dbp, "miniblock bit width", bits + 1, bits),
        ));
        v.push(e(
            "miniblock bit width 255",
            3,
            cat(&[&dbp_header(128, 4, 3, 0), &[0, 255, 0, 0, 0], &[0; 40]]),
            Expect::BitWidth(Dbp, "miniblock bit width", 255, bits),
        ));
        v.push(e(
            "miniblock truncated",
            20,
            cat(&[&dbp_header(128, 4, 20, 0), &[0, 8, 0, 0, 0], &[1, 2, 3]]),
            Expect::Truncated(Dbp, "miniblock"),
        ));
    }
}

pub(super) fn delta_length_byte_array_cases(v: &mut Vec<Case>) {
    let e = |name: &str, num: usize, bytes: Vec<u8>, expect: Expect| {
        case(
            format!("delta_length_byte_array/byte_array/{name}"),
            Dlba,
            P::ByteArray,
            num,
            bytes,
            expect,
        )
    };
    v.push(e(
        "negative length",
        2,
        dlba(&[1, -1], b"abc"),
        Expect::Invalid(Dlba, "length"),
    ));
    v.push(e(
        "length i32::MIN",
        2,
        dlba(&[1, i32::MIN], b"abc"),
        Expect::Invalid(Dlba, "length"),
    ));
    v.push(e(
        "lengths longer than the data",
        2,
        dlba(&[5, 5], b"abc"),
        Expect::Truncated(Dlba, "byte array data"),
    ));
    v.push(e(
        "lengths i32::MAX twice (sum overflows i32)",
        2,
        dlba(&[i32::MAX, i32::MAX], b"abc"),
        Expect::Truncated(Dlba, "byte array data"),
    ));
    v.push(e(
        "2^31 values, header holds 2",
        HUGE,
        dlba(&[1, 1], b"ab"),
        Expect::CountTooLarge(Dlba, "length count"),
    ));
    v.push(e(
        "2^31 values claimed by page and header, 100 bytes",
        HUGE,
        {
            let mut b = dbp_header(128, 4, HUGE as u64, 1);
            b.resize(100, 0);
            b
        },
        Expect::Truncated(Dlba, "miniblock bit widths"),
    ));
    v.push(e(
        "block size 200",
        2,
        cat(&[&dbp_header(200, 4, 2, 1), &[0, 0, 0, 0, 0], b"ab"]),
        Expect::Invalid(Dlba, "block size"),
    ));
    v.push(e(
        "zero miniblocks",
        2,
        cat(&[&dbp_header(128, 0, 2, 1), b"ab"]),
        Expect::Invalid(Dlba, "miniblock count"),
    ));
    v.push(e(
        "lengths miniblock bit width 33",
        2,
        cat(&[&dbp_header(128, 4, 2, 1), &[0, 33, 0, 0, 0], &[0; 40]]),
        Expect::BitWidth(Dlba, "miniblock bit width", 33, 32),
    ));
    v.push(e(
        "lengths' blocks run past the data",
        2,
        cat(&[&dbp_header(128, 4, 2, 1), &[0, 8, 0, 0, 0]]),
        Expect::Truncated(Dlba, "miniblock"),
    ));
}

pub(super) fn delta_byte_array_cases(v: &mut Vec<Case>) {
    for p in [P::ByteArray, P::FixedLenByteArray] {
        let t = lower(p);
        let e = |name: &str, num: usize, bytes: Vec<u8>, expect: Expect| {
            case(
                format!("delta_byte_array/{t}/{name}"),
                Dba,
                p,
                num,
                bytes,
                expect,
            )
            .type_length(4)
        };
        v.push(e(
            "prefix longer than the previous value",
            2,
            dba(&[0, 5], &[4, 0], b"abcd"),
            Expect::Invalid(Dba, "prefix length"),
        ));
        v.push(e(
            "first prefix not 0",
            1,
            dba(&[3], &[4], b"abcd"),
            Expect::Invalid(Dba, "prefix length"),
        ));
        v.push(e(
            "negative prefix",
            2,
            dba(&[0, -1], &[4, 4], b"abcdefgh"),
            Expect::Invalid(Dba, "prefix length"),
        ));
        v.push(e(
            "prefix i32::MIN",
            2,
            dba(&[0, i32::MIN], &[4, 4], b"abcdefgh"),
            Expect::Invalid(Dba, "prefix length"),
        ));
        v.push(e(
            "negative suffix length",
            2,
            dba(&[0, 2], &[4, -2], b"abcdefgh"),
            Expect::Invalid(Dba, "length"),
        ));
        v.push(e(
            "suffix data truncated",
            2,
            dba(&[0, 2], &[4, 2], b"abcde"),
            Expect::Truncated(Dba, "byte array data"),
        ));
        v.push(e(
            "2^31 values, header holds 2",
            HUGE,
            dba(&[0, 2], &[4, 2], b"abcdef"),
            Expect::CountTooLarge(Dba, "prefix length count"),
        ));
        v.push(e(
            "fewer suffixes than prefixes",
            3,
            dba(&[0, 2, 2], &[4, 2], b"abcdef"),
            Expect::CountTooLarge(Dba, "suffix count"),
        ));
        v.push(e(
            "2^31 values claimed by page and header, 100 bytes",
            HUGE,
            {
                let mut b = dbp_header(128, 4, HUGE as u64, 0);
                b.resize(100, 0);
                b
            },
            Expect::Truncated(Dba, "miniblock bit widths"),
        ));
        v.push(e(
            "zero miniblocks in the prefix lengths",
            2,
            cat(&[&dbp_header(128, 0, 2, 0), &dlba(&[4, 4], b"abcdefgh")]),
            Expect::Invalid(Dba, "miniblock count"),
        ));
        v.push(e(
            "suffix lengths' block size 64",
            2,
            cat(&[
                &dbp32(&[0, 2]),
                &dbp_header(64, 2, 2, 4),
                &[0, 0, 0],
                b"abcdab",
            ]),
            Expect::Invalid(Dba, "block size"),
        ));
    }
    v.push(
        case(
            "delta_byte_array/fixed_len_byte_array/values of 3 bytes, type length 4",
            Dba,
            P::FixedLenByteArray,
            2,
            dba(&[0, 1], &[3, 2], b"abcde"),
            Expect::Invalid(Dba, "value length"),
        )
        .type_length(4),
    );
    v.push(
        case(
            "delta_byte_array/fixed_len_byte_array/second value 5 bytes, type length 4",
            Dba,
            P::FixedLenByteArray,
            2,
            dba(&[0, 4], &[4, 1], b"abcde"),
            Expect::Invalid(Dba, "value length"),
        )
        .type_length(4),
    );
    v.push(
        case(
            "delta_byte_array/fixed_len_byte_array/type length 0",
            Dba,
            P::FixedLenByteArray,
            2,
            dba(&[0, 1], &[3, 2], b"abcde"),
            Expect::TypeLength(0),
        )
        .type_length(0)
        .no_arrow(),
    );
}
