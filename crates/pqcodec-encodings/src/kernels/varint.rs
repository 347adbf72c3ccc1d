//! ULEB128 and zigzag, the varints of the RLE hybrid and delta encodings.

/// Appends `value` as ULEB128: seven bits a byte, least significant first, high bit set on all
/// but the last byte.
#[inline]
pub fn write_uleb128(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a ULEB128 from the front of `data`: the value and how many bytes it took, or `None`
/// if `data` ends inside it or it does not fit in 64 bits.
#[inline]
pub fn read_uleb128(data: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &byte) in data.iter().enumerate().take(10) {
        let bits = u64::from(byte & 0x7F);
        if i == 9 && bits > 1 {
            return None;
        }
        value |= bits << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// Maps signed to unsigned so that small magnitudes stay small: 0, -1, 1, -2 → 0, 1, 2, 3.
#[inline]
pub fn zigzag_encode(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag_encode`].
#[inline]
pub fn zigzag_decode(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_bytes() {
        let mut out = Vec::new();
        write_uleb128(&mut out, 624_485);
        assert_eq!(out, [0xE5, 0x8E, 0x26]);
        assert_eq!(read_uleb128(&out), Some((624_485, 3)));
        assert_eq!(read_uleb128(&[0x80]), None);
        assert_eq!(read_uleb128(&[0xFF; 10]), None);
        assert_eq!(zigzag_encode(-1), 1);
        assert_eq!(zigzag_encode(i64::MIN), u64::MAX);
    }

    proptest! {
        #[test]
        fn uleb128_round_trips(v: u64) {
            let mut out = Vec::new();
            write_uleb128(&mut out, v);
            prop_assert_eq!(read_uleb128(&out), Some((v, out.len())));
        }

        #[test]
        fn zigzag_round_trips(v: i64) {
            prop_assert_eq!(zigzag_decode(zigzag_encode(v)), v);
        }
    }
}
