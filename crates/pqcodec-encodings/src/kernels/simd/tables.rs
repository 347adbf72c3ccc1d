//! Per-bit-width lane tables of the SIMD kernels, computed at compile time: for each output
//! lane, which bytes (or 32/64-bit words) of the loaded window hold its value and by how many
//! bits to shift it down. Value `i` of a group starts at bit `i * width` of the group's first
//! byte; the tables only depend on the width, so a kernel call just loads them.

/// Byte gather of 16 values of up to 25 bits into 32-bit lanes (`vpermb`): lane `i` takes the
/// 4 bytes from byte `i * w / 8`, then shifts right by `i * w % 8` ([`SHR_BYTES32`]). A value
/// of `w <= 25` bits at a shift of at most 7 lies within those 4 bytes.
pub(super) static BYTES32: [[u8; 64]; 26] = {
    let mut t = [[0u8; 64]; 26];
    let mut w = 0;
    while w < 26 {
        let mut i = 0;
        while i < 16 {
            let b = i * w / 8;
            let mut k = 0;
            while k < 4 {
                t[w][4 * i + k] = (b + k) as u8;
                k += 1;
            }
            i += 1;
        }
        w += 1;
    }
    t
};

/// The right shifts of [`BYTES32`].
pub(super) static SHR_BYTES32: [[u32; 16]; 26] = {
    let mut t = [[0u32; 16]; 26];
    let mut w = 0;
    while w < 26 {
        let mut i = 0;
        while i < 16 {
            t[w][i] = (i * w % 8) as u32;
            i += 1;
        }
        w += 1;
    }
    t
};

/// The widest values [`AVX2_BYTES32`] gathers: a value of up to 25 bits at a bit offset of at
/// most 7 lies within 4 bytes.
pub(super) const AVX2_BYTES32_MAX: usize = 25;

/// AVX2 byte gather of a group of 8 values of up to 25 bits into 32-bit lanes (`vpshufb`, which
/// stays within each 128-bit half): the first half holds the window's bytes from 0, the second
/// those from [`half_base`]; lane `i` takes the 4 bytes from byte `i * w / 8`, counted from its
/// half's start, then shifts right as [`SHR_BYTES32`] says. Each half's 4 lanes reach at most
/// byte `3 * 25 / 8 + 3 = 12` of its 16.
pub(super) static AVX2_BYTES32: [[u8; 32]; AVX2_BYTES32_MAX + 1] = {
    let mut t = [[0u8; 32]; AVX2_BYTES32_MAX + 1];
    let mut w = 0;
    while w <= AVX2_BYTES32_MAX {
        let mut i = 0;
        while i < 8 {
            let start = if i < 4 { 0 } else { half_base(w) };
            let b = i * w / 8 - start;
            let mut k = 0;
            while k < 4 {
                t[w][4 * i + k] = (b + k) as u8;
                k += 1;
            }
            i += 1;
        }
        w += 1;
    }
    t
};

/// Dword gather of 16 values of up to 32 bits (`vpermd`): lane `i` is the 32-bit word
/// `i * w / 32` shifted right by `i * w % 32` ([`SHR_DWORDS32`]), or'ed with the next word
/// shifted left by `32 - i * w % 32` (a shift of 32 gives 0). The first 8 lanes serve a group
/// of 8 values (AVX2) as well.
pub(super) static DWORDS32: [[u32; 16]; 33] = {
    let mut t = [[0u32; 16]; 33];
    let mut w = 0;
    while w < 33 {
        let mut i = 0;
        while i < 16 {
            t[w][i] = (i * w / 32) as u32;
            i += 1;
        }
        w += 1;
    }
    t
};

/// The right shifts of [`DWORDS32`].
pub(super) static SHR_DWORDS32: [[u32; 16]; 33] = {
    let mut t = [[0u32; 16]; 33];
    let mut w = 0;
    while w < 33 {
        let mut i = 0;
        while i < 16 {
            t[w][i] = (i * w % 32) as u32;
            i += 1;
        }
        w += 1;
    }
    t
};

/// Byte gather of 8 values of up to 56 bits into 64-bit lanes (`vpermb`): lane `i` takes the 8
/// bytes from byte `i * w / 8`, then shifts right by `i * w % 8` ([`SHR_BYTES64`]).
pub(super) static BYTES64: [[u8; 64]; 57] = {
    let mut t = [[0u8; 64]; 57];
    let mut w = 0;
    while w < 57 {
        let mut i = 0;
        while i < 8 {
            let b = i * w / 8;
            let mut k = 0;
            while k < 8 {
                t[w][8 * i + k] = (b + k) as u8;
                k += 1;
            }
            i += 1;
        }
        w += 1;
    }
    t
};

/// The right shifts of [`BYTES64`].
pub(super) static SHR_BYTES64: [[u64; 8]; 57] = {
    let mut t = [[0u64; 8]; 57];
    let mut w = 0;
    while w < 57 {
        let mut i = 0;
        while i < 8 {
            t[w][i] = (i * w % 8) as u64;
            i += 1;
        }
        w += 1;
    }
    t
};

/// Qword gather of 8 values of up to 64 bits (`vpermq`): lane `i` is the 64-bit word
/// `i * w / 64` shifted right by `i * w % 64` ([`SHR_QWORDS64`]), or'ed with the next word
/// shifted left by `64 - i * w % 64`.
pub(super) static QWORDS64: [[u64; 8]; 65] = {
    let mut t = [[0u64; 8]; 65];
    let mut w = 0;
    while w < 65 {
        let mut i = 0;
        while i < 8 {
            t[w][i] = (i * w / 64) as u64;
            i += 1;
        }
        w += 1;
    }
    t
};

/// The right shifts of [`QWORDS64`].
pub(super) static SHR_QWORDS64: [[u64; 8]; 65] = {
    let mut t = [[0u64; 8]; 65];
    let mut w = 0;
    while w < 65 {
        let mut i = 0;
        while i < 8 {
            t[w][i] = (i * w % 64) as u64;
            i += 1;
        }
        w += 1;
    }
    t
};

/// Byte offset of the second half (values 4 to 7) of a group of 8 values of `w` bits, which
/// AVX2 loads separately: `4 * w / 8`.
pub(super) const fn half_base(w: usize) -> usize {
    4 * w / 8
}

/// AVX2 gather of a group of 8 values of up to 64 bits as two halves of 4 64-bit lanes, the
/// second half loaded from [`half_base`]: for each half, the dword indices (`vpermd`) of the
/// low word of lane `j`'s 64-bit word, twice (`2q, 2q + 1`); the next word's are 2 more.
pub(super) static AVX2_DWORDS64: [[[u32; 8]; 2]; 65] = {
    let mut t = [[[0u32; 8]; 2]; 65];
    let mut w = 0;
    while w < 65 {
        let mut h = 0;
        while h < 2 {
            let base = h * 8 * half_base(w);
            let mut j = 0;
            while j < 4 {
                let q = ((4 * h + j) * w - base) / 64;
                t[w][h][2 * j] = (2 * q) as u32;
                t[w][h][2 * j + 1] = (2 * q + 1) as u32;
                j += 1;
            }
            h += 1;
        }
        w += 1;
    }
    t
};

/// The right shifts of [`AVX2_DWORDS64`].
pub(super) static AVX2_SHR64: [[[u64; 4]; 2]; 65] = {
    let mut t = [[[0u64; 4]; 2]; 65];
    let mut w = 0;
    while w < 65 {
        let mut h = 0;
        while h < 2 {
            let base = h * 8 * half_base(w);
            let mut j = 0;
            while j < 4 {
                t[w][h][j] = (((4 * h + j) * w - base) % 64) as u64;
                j += 1;
            }
            h += 1;
        }
        w += 1;
    }
    t
};

/// The widest deltas the AVX2 16-bit kernel takes, and the widths it takes: those whose
/// every value lies within the 2 bytes from its first (its bit offset in that byte plus its
/// width at most 16: not 11). Sums of 8 such deltas fit in 16 bits.
pub(super) const WORDS16_MAX: usize = 12;
pub(super) const fn words16(w: usize) -> bool {
    w >= 1 && w <= WORDS16_MAX && w != 11
}

/// Where the AVX2 16-bit kernels put a group's 8 values among the 8 16-bit lanes of a
/// 128-bit half, for the prefix sum each runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Words16 {
    /// Even values in the low 64-bit word, odd in the high: `[0, 2, 4, 6, 1, 3, 5, 7]`
    /// (64-bit outputs).
    EvenOdd,
    /// Values 0 to 3 in the low 16 bits of the four 32-bit lanes, 4 to 7 in the high:
    /// `[0, 4, 1, 5, 2, 6, 3, 7]` (32-bit outputs).
    LowHigh,
}

impl Words16 {
    /// The value 16-bit lane `p` holds.
    pub(super) const fn value(self, p: usize) -> usize {
        match self {
            Words16::EvenOdd if p < 4 => 2 * p,
            Words16::EvenOdd => 2 * (p - 4) + 1,
            Words16::LowHigh if p.is_multiple_of(2) => p / 2,
            Words16::LowHigh => 4 + p / 2,
        }
    }

    /// The row of [`WORDS16`] and [`SHL_WORDS16`] of this layout.
    pub(super) const fn row(self) -> usize {
        self as usize
    }
}

/// Byte gathers of a group of 8 values of `w` bits ([`words16`]) into 16-bit lanes
/// (`vpshufb`), per [`Words16`] layout: lane `p` takes the 2 bytes from the first of the value
/// it holds.
pub(super) static WORDS16: [[[u8; 16]; WORDS16_MAX + 1]; 2] =
    [gather16(Words16::EvenOdd), gather16(Words16::LowHigh)];

const fn gather16(layout: Words16) -> [[u8; 16]; WORDS16_MAX + 1] {
    let mut t = [[0u8; 16]; WORDS16_MAX + 1];
    let mut w = 1;
    while w <= WORDS16_MAX {
        let mut p = 0;
        while p < 8 {
            let b = layout.value(p) * w / 8;
            t[w][2 * p] = b as u8;
            t[w][2 * p + 1] = (b + 1) as u8;
            p += 1;
        }
        w += 1;
    }
    t
}

/// The multipliers (`vpmullw`) that shift each lane of [`WORDS16`] left so that its value's
/// top bit is bit 15: `2^(16 - w - offset)`. A right shift by `16 - w` then leaves the value.
pub(super) static SHL_WORDS16: [[[u16; 8]; WORDS16_MAX + 1]; 2] =
    [shl16(Words16::EvenOdd), shl16(Words16::LowHigh)];

const fn shl16(layout: Words16) -> [[u16; 8]; WORDS16_MAX + 1] {
    let mut t = [[0u16; 8]; WORDS16_MAX + 1];
    let mut w = 1;
    while w <= WORDS16_MAX {
        if words16(w) {
            let mut p = 0;
            while p < 8 {
                let offset = layout.value(p) * w % 8;
                t[w][p] = 1 << (16 - w - offset);
                p += 1;
            }
        }
        w += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 16-bit kernels' widths are exactly those whose values (each of the 8 of a group,
    /// once in each layout) lie within the 2 bytes their lane gathers, from within the group's
    /// 16 loaded.
    #[test]
    fn words16_lanes_hold_their_values() {
        for layout in [Words16::EvenOdd, Words16::LowHigh] {
            let mut lanes: Vec<usize> = (0..8).map(|p| layout.value(p)).collect();
            lanes.sort();
            assert_eq!(lanes, (0..8).collect::<Vec<_>>());
            for w in 1..=16 {
                let fits = (0..8).all(|i| i * w % 8 + w <= 16);
                assert_eq!(
                    words16(w),
                    fits && 8 * ((1 << w) - 1) < 1 << 16,
                    "width {w}"
                );
                if !words16(w) {
                    continue;
                }
                let (gather, shl) = (&WORDS16[layout.row()][w], &SHL_WORDS16[layout.row()][w]);
                for p in 0..8 {
                    let i = layout.value(p);
                    assert_eq!(gather[2 * p] as usize, i * w / 8);
                    assert!(gather[2 * p + 1] < 16);
                    assert_eq!(u32::from(shl[p]), 1 << (16 - w - i * w % 8));
                }
            }
        }
    }

    /// Every gathered window lies inside the loaded bytes and holds the whole value.
    #[test]
    fn windows_hold_their_values() {
        for w in 1..26 {
            for i in 0..16 {
                let first = usize::from(BYTES32[w][4 * i]);
                assert!(first + 3 < 64);
                assert!(SHR_BYTES32[w][i] as usize + w <= 32);
                assert_eq!(first * 8 + SHR_BYTES32[w][i] as usize, i * w);
            }
        }
        for w in 1..57 {
            for i in 0..8 {
                let first = usize::from(BYTES64[w][8 * i]);
                assert!(first + 7 < 64);
                assert!(SHR_BYTES64[w][i] as usize + w <= 64);
                assert_eq!(first * 8 + SHR_BYTES64[w][i] as usize, i * w);
            }
        }
        for w in 1..65 {
            for h in 0..2 {
                let base = h * half_base(w);
                for j in 0..4 {
                    let q = AVX2_DWORDS64[w][h][2 * j] as usize / 2;
                    let s = AVX2_SHR64[w][h][j] as usize;
                    assert_eq!(base * 8 + q * 64 + s, (4 * h + j) * w);
                    // The value ends within the 32 loaded bytes.
                    assert!(q * 64 + s + w <= 256, "w {w} h {h} j {j}");
                }
            }
        }
    }
}
