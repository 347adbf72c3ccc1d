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
pub(super) const fn half_base64(w: usize) -> usize {
    4 * w / 8
}

/// AVX2 gather of a group of 8 values of up to 64 bits as two halves of 4 64-bit lanes, the
/// second half loaded from [`half_base64`]: for each half, the dword indices (`vpermd`) of the
/// low word of lane `j`'s 64-bit word, twice (`2q, 2q + 1`); the next word's are 2 more.
pub(super) static AVX2_DWORDS64: [[[u32; 8]; 2]; 65] = {
    let mut t = [[[0u32; 8]; 2]; 65];
    let mut w = 0;
    while w < 65 {
        let mut h = 0;
        while h < 2 {
            let base = h * 8 * half_base64(w);
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
            let base = h * 8 * half_base64(w);
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

#[cfg(test)]
mod tests {
    use super::*;

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
                let base = h * half_base64(w);
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
