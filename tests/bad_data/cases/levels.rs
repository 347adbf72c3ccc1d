//! Cases of the RLE / bit-packing hybrid and of BIT_PACKED.

use super::*;

pub(super) fn rle_cases(v: &mut Vec<Case>) {
    let b = P::Boolean;
    v.push(case(
        "rle/boolean/length prefix truncated",
        Rle,
        b,
        1,
        vec![1, 0],
        Expect::Truncated(Rle, "length"),
    ));
    v.push(case(
        "rle/boolean/length prefix past the end",
        Rle,
        b,
        1,
        vec![10, 0, 0, 0, 0x02, 1],
        Expect::Truncated(Rle, "encoded data"),
    ));
    v.push(case(
        "rle/boolean/length prefix 2^32-1",
        Rle,
        b,
        1,
        vec![0xFF, 0xFF, 0xFF, 0xFF, 0x02, 1],
        Expect::Truncated(Rle, "encoded data"),
    ));
    // 2^31 values claimed; the data holds one run of 8, then zeros (a run of 0).
    let mut bytes = vec![96, 0, 0, 0, 0x10, 0x01];
    bytes.resize(100, 0);
    v.push(case(
        "rle/boolean/2^31 values in a 100-byte page",
        Rle,
        b,
        HUGE,
        bytes,
        Expect::Invalid(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/data ends before num_values",
        Rle,
        b,
        20,
        vec![2, 0, 0, 0, 0x10, 0x01],
        Expect::Truncated(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/run of 0 values",
        Rle,
        b,
        1,
        vec![1, 0, 0, 0, 0x00],
        Expect::Invalid(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/run of 2^31 values",
        Rle,
        b,
        1,
        cat(&[&[6, 0, 0, 0], &uleb(1 << 32), &[1]]),
        Expect::Invalid(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/run header varint over 64 bits",
        Rle,
        b,
        1,
        cat(&[&[11, 0, 0, 0], &[0xFF; 11]]),
        Expect::Invalid(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/run header varint unterminated",
        Rle,
        b,
        1,
        vec![2, 0, 0, 0, 0x80, 0x80],
        Expect::Truncated(Rle, "run header"),
    ));
    v.push(case(
        "rle/boolean/repeated value 2 at bit width 1",
        Rle,
        b,
        1,
        vec![2, 0, 0, 0, 0x02, 0x02],
        Expect::Invalid(Rle, "repeated value"),
    ));
    v.push(case(
        "rle/boolean/repeated value missing",
        Rle,
        b,
        1,
        vec![1, 0, 0, 0, 0x02],
        Expect::Truncated(Rle, "repeated value"),
    ));
    // Two groups (16 values) declared, one byte present: the first 8 values are there.
    v.push(case(
        "rle/boolean/bit-packed run truncated",
        Rle,
        b,
        16,
        vec![2, 0, 0, 0, 0x05, 0xFF],
        Expect::Truncated(Rle, "bit-packed run"),
    ));

    // Levels and indices at a caller-given bit width.
    for width in [33, 65, 255] {
        v.push(
            case(
                format!("rle/levels/bit width {width}"),
                Rle,
                P::Int32,
                8,
                vec![0x10, 1, 0, 0, 0, 0],
                Expect::BitWidth(Rle, "bit width", width, 32),
            )
            .target(Target::RleLevels(width)),
        );
    }
    v.push(
        case(
            "rle/levels/2^31 levels in a 100-byte page",
            Rle,
            P::Int32,
            HUGE,
            [&[0x03u8, 0xFF, 0xFF, 0xFF][..], &[0u8; 96]].concat(),
            Expect::Invalid(Rle, "run header"),
        )
        .target(Target::RleLevels(3)),
    );
    v.push(
        case(
            "rle/levels/repeated value over the bit width (5 at width 2)",
            Rle,
            P::Int32,
            4,
            vec![0x08, 0x05],
            Expect::Invalid(Rle, "repeated value"),
        )
        .target(Target::RleLevels(2)),
    );
    v.push(
        case(
            "rle/levels/repeated value cut at width 32",
            Rle,
            P::Int32,
            4,
            vec![0x08, 0, 0, 0],
            Expect::Truncated(Rle, "repeated value"),
        )
        .target(Target::RleLevels(32)),
    );
    v.push(
        case(
            "rle/levels/bit width 0, run header past the data",
            Rle,
            P::Int32,
            HUGE,
            vec![0x10],
            Expect::Truncated(Rle, "run header"),
        )
        .target(Target::RleLevels(0)),
    );
}

pub(super) fn bit_packed_cases(v: &mut Vec<Case>) {
    for width in [33, 65] {
        v.push(
            case(
                format!("bit_packed/levels/bit width {width}"),
                BitPacked,
                P::Int32,
                8,
                vec![0; 40],
                Expect::BitWidth(BitPacked, "bit width", width, 32),
            )
            .target(Target::BitPackedLevels(width)),
        );
    }
    v.push(
        case(
            "bit_packed/levels/truncated: 8 values of 3 bits in 2 bytes",
            BitPacked,
            P::Int32,
            8,
            vec![0, 0],
            Expect::Truncated(BitPacked, "values"),
        )
        .target(Target::BitPackedLevels(3)),
    );
    v.push(
        case(
            "bit_packed/levels/2^31 levels in a 100-byte page",
            BitPacked,
            P::Int32,
            HUGE,
            vec![0; 100],
            Expect::Truncated(BitPacked, "values"),
        )
        .target(Target::BitPackedLevels(1)),
    );
    v.push(
        case(
            "bit_packed/levels/usize::MAX levels at width 32",
            BitPacked,
            P::Int32,
            usize::MAX,
            vec![0; 100],
            Expect::Truncated(BitPacked, "values"),
        )
        .target(Target::BitPackedLevels(32)),
    );
}
