//! The pieces of LSB-first bit packing that the SIMD kernels share with the checked entry
//! points of [`bitpack`](super::bitpack): the size and words of packed bytes, the scalar
//! unpacking the kernels fall back to and are tested against, and packing.

/// Bytes that `count` values of `width` bits take, rounded up to a whole byte (saturating).
#[inline]
pub fn packed_len(count: usize, width: u32) -> usize {
    // Each whole group of 8 values takes `width` bytes; no 128-bit arithmetic on the hot path.
    let width = width as usize;
    let rest = (count % 8).saturating_mul(width).div_ceil(8);
    (count / 8).saturating_mul(width).saturating_add(rest)
}

/// The 8 bytes of `packed` at `byte` as a little-endian word, zero past its end.
#[inline(always)]
pub(crate) fn word_at(packed: &[u8], byte: usize) -> u64 {
    match packed.get(byte..byte + 8) {
        Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        None => {
            let mut b = [0u8; 8];
            let tail = packed.get(byte..).unwrap_or(&[]);
            b[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(b)
        }
    }
}

/// The low `width` bits set.
#[inline(always)]
pub(crate) fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Panics unless `width` is at most `widest` and `packed` holds `count` values of `width`
/// bits: what every unpacking entry point checks first.
#[inline]
pub(crate) fn check_unpack(packed: &[u8], count: usize, width: u32, widest: u32) {
    assert!(width <= widest, "bit width {width} over {widest}");
    assert!(
        packed.len() >= packed_len(count, width),
        "packed data too short"
    );
}

/// The scalar reference of [`unpack32`](super::bitpack::unpack32): one value at a time, any
/// width from 0 to 32. The fast kernels use it for their tails and are tested against it.
///
/// # Panics
/// As [`unpack32`](super::bitpack::unpack32).
pub fn unpack32_scalar(packed: &[u8], width: u32, out: &mut [u32]) {
    check_unpack(packed, out.len(), width, 32);
    if width == 0 {
        out.fill(0);
        return;
    }
    let m = mask(width);
    let w = width as usize;
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i * w;
        *o = ((word_at(packed, bit / 8) >> (bit % 8)) & m) as u32;
    }
}

/// The scalar reference of [`unpack64`](super::bitpack::unpack64), one value at a time, on
/// checked arguments, `width` 1 to 64.
pub(crate) fn unpack64_each(packed: &[u8], width: u32, out: &mut [u64]) {
    let mask = u64::MAX >> (64 - width.clamp(1, 64));
    let w = width as usize;
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i * w;
        let (byte, shift) = (bit / 8, (bit % 8) as u32);
        let mut v = word_at(packed, byte) >> shift;
        if shift + width > 64 {
            v |= u64::from(packed.get(byte + 8).copied().unwrap_or(0)) << (64 - shift);
        }
        *o = v & mask;
    }
}

/// Appends `values` packed at `width` (0 to 64) bits, padding the last byte with zeros; bits of
/// a value above `width` are dropped.
///
/// # Panics
/// If `width > 64`.
#[cfg(test)]
pub fn pack64(values: impl IntoIterator<Item = u64>, width: u32, out: &mut Vec<u8>) {
    assert!(width <= 64, "bit width {width} over 64");
    if width == 0 {
        return;
    }
    let m = mask(width);
    let mut acc: u128 = 0;
    let mut bits = 0u32;
    for v in values {
        acc |= u128::from(v & m) << bits;
        bits += width;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
}

/// Appends `values` packed at `width` (0 to 32) bits; see [`pack64`].
#[cfg(test)]
pub fn pack32(values: &[u32], width: u32, out: &mut Vec<u8>) {
    assert!(width <= 32, "bit width {width} over 32");
    pack64(values.iter().map(|&v| u64::from(v)), width, out);
}
