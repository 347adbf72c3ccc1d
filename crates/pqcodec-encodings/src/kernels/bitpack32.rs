//! Width-specialised LSB-first unpacking and packing of values up to 32 bits, one function
//! body per bit width: what [`unpack32`](super::bitpack::unpack32) runs.
//!
//! [`unpack`] handles any number of values: blocks of 32 (`4 * width` bytes) go through a
//! kernel instantiated for each width 0 to 32, whose loop the compiler unrolls with every
//! shift and byte offset a constant; the tail goes through the scalar reference
//! [`unpack32_scalar`], which the tests also hold every width against.

use super::bits::unpack32_scalar;

/// Values in one block of the width-specialised kernel.
const BLOCK: usize = 32;

/// The 8 bytes of `bytes` at `at` as a little-endian word (callers pass `at + 8 <= len`;
/// anything else reads as 0).
#[inline(always)]
fn word(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        None => 0,
    }
}

/// Repeats `$m!(i)` for `i` in 0..32, so that every index is a literal.
macro_rules! unroll32 {
    ($m:ident) => {
        $m!(0);
        $m!(1);
        $m!(2);
        $m!(3);
        $m!(4);
        $m!(5);
        $m!(6);
        $m!(7);
        $m!(8);
        $m!(9);
        $m!(10);
        $m!(11);
        $m!(12);
        $m!(13);
        $m!(14);
        $m!(15);
        $m!(16);
        $m!(17);
        $m!(18);
        $m!(19);
        $m!(20);
        $m!(21);
        $m!(22);
        $m!(23);
        $m!(24);
        $m!(25);
        $m!(26);
        $m!(27);
        $m!(28);
        $m!(29);
        $m!(30);
        $m!(31);
    };
}

/// Unpacks 32 values of `W` (1 to 32) bits from `block` (`4 * W` bytes) into `out`.
#[inline(always)]
fn unpack_block<const W: usize>(block: &[u8], out: &mut [u32; BLOCK]) {
    let Some(block) = block.get(..4 * W) else {
        return;
    };
    let mask: u64 = if W >= 32 {
        u64::from(u32::MAX)
    } else {
        (1 << W) - 1
    };
    if 4 * W < 8 {
        // W == 1: the block is 4 bytes.
        let w = match block.get(..4) {
            Some(b) => u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => 0,
        };
        macro_rules! one {
            ($i:literal) => {
                out[$i] = ((w >> ($i * W)) & mask) as u32;
            };
        }
        unroll32!(one);
        return;
    }
    // Each value is read from the 8 bytes holding it, moved back to stay within the block: the
    // value (at most 7 + 32 bits from its first byte) still lies inside them. Every offset and
    // shift is a constant.
    macro_rules! one {
        ($i:literal) => {
            let bit = $i * W;
            let byte = bit / 8;
            let start = if byte + 8 <= 4 * W { byte } else { 4 * W - 8 };
            out[$i] = ((word(block, start) >> (bit - start * 8)) & mask) as u32;
        };
    }
    unroll32!(one);
}

/// Unpacks 8 values of `W` (1 to 32) bits from `group` (`W` bytes) into `out`.
#[inline(always)]
fn unpack_group<const W: usize>(group: &[u8], out: &mut [u32; 8]) {
    let Some(group) = group.get(..W) else {
        return;
    };
    let mask: u64 = if W >= 32 {
        u64::from(u32::MAX)
    } else {
        (1 << W) - 1
    };
    if W < 8 {
        // The group is fewer than 8 bytes: one zero-padded word.
        let mut b = [0u8; 8];
        if let Some(dst) = b.get_mut(..W) {
            dst.copy_from_slice(group);
        }
        let w = u64::from_le_bytes(b);
        for (i, o) in out.iter_mut().enumerate() {
            *o = ((w >> (i * W)) & mask) as u32;
        }
        return;
    }
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i * W;
        let byte = bit / 8;
        let start = if byte + 8 <= W { byte } else { W - 8 };
        *o = ((word(group, start) >> (bit - start * 8)) & mask) as u32;
    }
}

/// Unpacks whole blocks of 32, then whole groups of 8, from `packed` into `out`; returns how
/// many values that was (the rest of `out`, fewer than 8, is left alone).
fn unpack_whole<const W: usize>(packed: &[u8], out: &mut [u32]) -> usize {
    if W == 0 {
        out.fill(0);
        return out.len();
    }
    let mut blocks_in = packed.chunks_exact(4 * W);
    let mut blocks_out = out.chunks_exact_mut(BLOCK);
    let mut done = 0;
    for (block, o) in (&mut blocks_in).zip(&mut blocks_out) {
        if let Ok(o) = <&mut [u32; BLOCK]>::try_from(o) {
            unpack_block::<W>(block, o);
            done += BLOCK;
        }
    }
    let rest = blocks_out.into_remainder();
    let packed_rest = packed.get(done / 8 * W..).unwrap_or(&[]);
    for (group, o) in packed_rest.chunks_exact(W).zip(rest.chunks_exact_mut(8)) {
        if let Ok(o) = <&mut [u32; 8]>::try_from(o) {
            unpack_group::<W>(group, o);
            done += 8;
        }
    }
    done
}

/// Unpacks `out.len()` values of `width` (0 to 32) bits from the front of `packed`.
///
/// # Panics
/// If `width > 32` or `packed` is shorter than `packed_len(out.len(), width)`: callers check
/// both first.
pub(crate) fn unpack(packed: &[u8], width: u32, out: &mut [u32]) {
    macro_rules! dispatch {
        ($($w:literal)*) => {
            match width {
                $($w => unpack_whole::<$w>(packed, out),)*
                _ => 0,
            }
        };
    }
    let done = dispatch!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
    if let Some(tail) = out.get_mut(done..)
        && !tail.is_empty()
    {
        // done is a multiple of 8: the tail starts on a byte boundary.
        let from = done / 8 * width as usize;
        unpack32_scalar(packed.get(from..).unwrap_or(&[]), width, tail);
    }
}

/// Appends 8 values of `W` bits packed: `W` bytes.
#[inline(always)]
fn pack8_w<const W: usize>(values: &[u32; 8], out: &mut Vec<u8>) {
    let mut words = [0u64; 4];
    macro_rules! one {
        ($i:literal) => {
            let bit = $i * W;
            let (k, shift) = (bit / 64, bit % 64);
            let v = u64::from(values[$i]);
            words[k] |= v << shift;
            if shift + W > 64 {
                words[k + 1] |= v >> (64 - shift);
            }
        };
    }
    one!(0);
    one!(1);
    one!(2);
    one!(3);
    one!(4);
    one!(5);
    one!(6);
    one!(7);
    let mut bytes = [0u8; 32];
    for (chunk, word) in bytes.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    // A fixed-size append then a cut: no variable-length copy.
    let len = out.len();
    out.extend_from_slice(&bytes);
    out.truncate(len + W);
}

/// Appends the whole groups of 8 of `values` packed at `W` bits, `W` bytes a group; bits
/// above `W` are dropped, and values after the last whole group ignored.
fn pack_groups_w<const W: usize>(values: &[u32], out: &mut Vec<u8>) {
    let mask = u32::MAX.checked_shr(32 - W as u32).unwrap_or(0);
    out.reserve(values.len() / 8 * W);
    for group in values.chunks_exact(8) {
        let mut masked = [0u32; 8];
        for (m, &v) in masked.iter_mut().zip(group) {
            *m = v & mask;
        }
        pack8_w::<W>(&masked, out);
    }
}

/// A function appending whole groups of 8 values packed at one bit width.
pub type PackGroups = fn(&[u32], &mut Vec<u8>);

/// The [`PackGroups`] for `width` (0 to 32; wider is treated as 32).
pub fn pack_groups_for(width: u32) -> PackGroups {
    macro_rules! table {
        ($($w:literal)*) => {
            match width {
                $($w => pack_groups_w::<$w>,)*
                _ => pack_groups_w::<32>,
            }
        };
    }
    table!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
}

/// Appends 8 values of `W` (0 to 64) bits packed: `W` bytes. Bits above `W` are dropped.
#[inline(always)]
fn pack8_64_w<const W: usize>(values: &[u64; 8], out: &mut Vec<u8>) {
    let mask = u64::MAX >> (64 - W.max(1));
    // One spare word, so that every index below is in bounds whatever `W`.
    let mut words = [0u64; 9];
    macro_rules! one {
        ($i:literal) => {
            let bit = $i * W;
            let (k, shift) = (bit / 64, bit % 64);
            let v = values[$i] & mask;
            words[k] |= v << shift;
            if shift + W > 64 {
                words[k + 1] |= v >> (64 - shift);
            }
        };
    }
    if W == 0 {
        return;
    }
    one!(0);
    one!(1);
    one!(2);
    one!(3);
    one!(4);
    one!(5);
    one!(6);
    one!(7);
    let mut bytes = [0u8; 72];
    for (chunk, word) in bytes.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&bytes[..W]);
}

/// A function appending 8 values packed at one bit width (0 to 64).
pub type Pack8x64 = fn(&[u64; 8], &mut Vec<u8>);

/// The [`Pack8x64`] for `width` (0 to 64; wider is treated as 64).
pub fn pack8x64_for(width: u32) -> Pack8x64 {
    macro_rules! table {
        ($($w:literal)*) => {
            match width {
                $($w => pack8_64_w::<$w>,)*
                _ => pack8_64_w::<64>,
            }
        };
    }
    table!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
        31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59
        60 61 62 63 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::bits::pack32;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The specialised kernels agree with the scalar reference, for every width and length.
        #[test]
        fn matches_generic_kernels(width in 0u32..=32, raw in prop::collection::vec(any::<u32>(), 0..300)) {
            let mask = if width == 32 { u32::MAX } else { (1u32 << width) - 1 };
            let values: Vec<u32> = raw.iter().map(|v| v & mask).collect();
            let mut packed = Vec::new();
            pack32(&values, width, &mut packed);
            let mut out = vec![0u32; values.len()];
            unpack(&packed, width, &mut out);
            prop_assert_eq!(&out, &values);
            let mut scalar = vec![0u32; values.len()];
            unpack32_scalar(&packed, width, &mut scalar);
            prop_assert_eq!(&scalar, &values);
            // pack_groups_for writes the same bytes as the generic packer, dropping the bits
            // above the width itself, in one call or group by group.
            let mut ours = Vec::new();
            let pack = pack_groups_for(width);
            pack(&raw, &mut ours);
            let mut by_group = Vec::new();
            for group in raw.chunks(8) {
                pack(group, &mut by_group);
            }
            prop_assert_eq!(&ours, &by_group);
            let whole = values.len() / 8 * 8;
            let mut generic = Vec::new();
            pack32(&values[..whole], width, &mut generic);
            prop_assert_eq!(ours, generic);
        }

        /// pack8x64_for writes the bytes of the generic packer, for every width to 64.
        #[test]
        fn pack8x64_matches_generic(width in 0u32..=64, raw in prop::collection::vec(any::<u64>(), 0..40)) {
            let whole = raw.len() / 8 * 8;
            let mut ours = Vec::new();
            let pack8 = pack8x64_for(width);
            for group in raw.chunks_exact(8) {
                let mut g = [0u64; 8];
                g.copy_from_slice(group);
                pack8(&g, &mut ours);
            }
            let mut generic = Vec::new();
            crate::kernels::bitpack::pack64(raw[..whole].iter().copied(), width, &mut generic);
            prop_assert_eq!(ours, generic);
        }
    }
}
