//! Fixed-width values as Rust holds them, and their little-endian PLAIN bytes.

use std::fmt::Debug;

use num_traits::{PrimInt, WrappingAdd, WrappingSub};

/// A fixed-width value stored as `SIZE` little-endian bytes: `i32`, `i64`, [`Int96`], `f32`,
/// `f64`.
pub trait NativeType: Copy + Default + Debug + PartialEq + Send + Sync + 'static {
    /// Width in bytes.
    const SIZE: usize;
    /// The little-endian byte representation.
    type Bytes: AsRef<[u8]> + AsMut<[u8]> + Copy + Default + Eq + std::hash::Hash + Debug;

    /// The value's little-endian bytes.
    fn to_le_bytes(self) -> Self::Bytes;
    /// The value from its little-endian bytes.
    fn from_le_bytes(bytes: Self::Bytes) -> Self;

    /// The value from the first `SIZE` bytes of `bytes`; callers pass at least `SIZE` bytes
    /// (typically a `chunks_exact(SIZE)` chunk).
    #[inline]
    fn from_le_slice(bytes: &[u8]) -> Self {
        let mut b = Self::Bytes::default();
        b.as_mut().copy_from_slice(&bytes[..Self::SIZE]);
        Self::from_le_bytes(b)
    }

    /// `values`' little-endian bytes as they lie in memory, where they are those bytes (the
    /// primitive types on a little-endian machine).
    #[inline]
    fn le_bytes_of(values: &[Self]) -> Option<&[u8]> {
        let _ = values;
        None
    }

    /// [`NativeType::le_bytes_of`], writable: writing the bytes writes the values.
    #[inline]
    fn le_bytes_of_mut(values: &mut [Self]) -> Option<&mut [u8]> {
        let _ = values;
        None
    }

    /// Grows `values` by `count` zeros and returns their little-endian bytes, where values are
    /// held as those bytes ([`NativeType::le_bytes_of_mut`]); otherwise `None`, growing nothing.
    #[inline]
    fn grow_le(values: &mut Vec<Self>, count: usize) -> Option<&mut [u8]> {
        Self::le_bytes_of_mut(&mut [])?;
        let len = values.len();
        values.resize(len.checked_add(count)?, Self::default());
        Self::le_bytes_of_mut(&mut values[len..])
    }

    /// Appends the little-endian bytes of `values` to `out`.
    #[inline]
    fn extend_le(values: &[Self], out: &mut Vec<u8>) {
        match Self::le_bytes_of(values) {
            Some(bytes) => out.extend_from_slice(bytes),
            None => extend_le_each(values, out),
        }
    }

    /// Appends the values whose little-endian bytes are `bytes` to `out` (a trailing partial
    /// value is ignored).
    #[inline]
    fn extend_from_le(bytes: &[u8], out: &mut Vec<Self>) {
        extend_from_le_each(bytes, out);
    }
}

/// [`NativeType::extend_le`] a value at a time.
fn extend_le_each<N: NativeType>(values: &[N], out: &mut Vec<u8>) {
    // A slice in memory holds at most `isize::MAX` bytes, so this does not overflow.
    let start = out.len();
    out.resize(start + values.len() * N::SIZE, 0);
    for (slot, v) in out[start..].chunks_exact_mut(N::SIZE).zip(values) {
        slot.copy_from_slice(v.to_le_bytes().as_ref());
    }
}

/// [`NativeType::extend_from_le`] a value at a time.
fn extend_from_le_each<N: NativeType>(bytes: &[u8], out: &mut Vec<N>) {
    let start = out.len();
    out.resize(start + bytes.len() / N::SIZE, N::default());
    for (slot, b) in out[start..].iter_mut().zip(bytes.chunks_exact(N::SIZE)) {
        *slot = N::from_le_slice(b);
    }
}

macro_rules! native {
    ($($t:ty => $n:literal),*) => {$(
        impl NativeType for $t {
            const SIZE: usize = $n;
            type Bytes = [u8; $n];
            #[inline]
            fn to_le_bytes(self) -> [u8; $n] {
                <$t>::to_le_bytes(self)
            }
            #[inline]
            fn from_le_bytes(bytes: [u8; $n]) -> Self {
                <$t>::from_le_bytes(bytes)
            }
            // In memory, a little-endian machine holds these values as their PLAIN bytes.
            #[inline]
            fn le_bytes_of(values: &[Self]) -> Option<&[u8]> {
                cfg!(target_endian = "little").then(|| bytemuck::cast_slice(values))
            }
            #[inline]
            fn le_bytes_of_mut(values: &mut [Self]) -> Option<&mut [u8]> {
                cfg!(target_endian = "little").then(|| bytemuck::cast_slice_mut(values))
            }
            #[inline]
            fn extend_from_le(bytes: &[u8], out: &mut Vec<Self>) {
                if cfg!(target_endian = "big") {
                    return extend_from_le_each(bytes, out);
                }
                let whole = &bytes[..bytes.len() / $n * $n];
                match bytemuck::try_cast_slice::<u8, Self>(whole) {
                    Ok(values) => out.extend_from_slice(values),
                    Err(_) => {
                        let start = out.len();
                        out.resize(start + whole.len() / $n, 0 as $t);
                        bytemuck::cast_slice_mut::<Self, u8>(&mut out[start..]).copy_from_slice(whole);
                    }
                }
            }
        }
    )*};
}
native!(i32 => 4, i64 => 8, f32 => 4, f64 => 8);
// Not physical types' values, but what dictionaries are converted into before their pages'
// indices gather them: Arrow's 16-byte string views and 128-bit decimals.
native!(u128 => 16, i128 => 16);

/// A 96-bit value (deprecated INT96), as three little-endian 32-bit words.
///
/// Writers use it for timestamps: the first 8 bytes are nanoseconds within the day, the last 4
/// the Julian day number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Int96(pub [u32; 3]);

impl Int96 {
    /// Nanoseconds since midnight (the low 64 bits).
    pub fn nanos_of_day(self) -> i64 {
        (u64::from(self.0[0]) | (u64::from(self.0[1]) << 32)) as i64
    }

    /// The Julian day number (the high 32 bits).
    pub fn julian_day(self) -> i32 {
        self.0[2] as i32
    }
}

impl NativeType for Int96 {
    const SIZE: usize = 12;
    type Bytes = [u8; 12];

    #[inline]
    fn to_le_bytes(self) -> [u8; 12] {
        let mut out = [0; 12];
        for (chunk, word) in out.chunks_exact_mut(4).zip(self.0) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out
    }

    #[inline]
    fn from_le_bytes(bytes: [u8; 12]) -> Self {
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        Int96([word(0), word(4), word(8)])
    }
}

/// The integer natives (`i32`, `i64`): what delta and variable-length encodings work on.
///
/// Arithmetic on values wraps, as the spec asks of delta encoding.
pub trait IntegerNative:
    NativeType + PrimInt + WrappingAdd + WrappingSub + std::hash::Hash
{
    /// Width in bits.
    const BITS: u32;

    /// The value's bits, zero-extended to 64 (e.g. `-1i32` gives `0xFFFF_FFFF`).
    fn to_u64_bits(self) -> u64;
    /// The low `BITS` bits of `bits` as a value.
    fn from_u64_bits(bits: u64) -> Self;
    /// The value, sign-extended to 64 bits.
    fn to_i64(self) -> i64;

    /// `values` as the integer type they are, for code specialised by width.
    fn as_ints(values: &mut [Self]) -> IntsMut<'_>;
}

/// A slice of one of the [`IntegerNative`] types, by width.
#[derive(Debug)]
pub enum IntsMut<'a> {
    /// INT32 values.
    I32(&'a mut [i32]),
    /// INT64 values.
    I64(&'a mut [i64]),
}

impl IntegerNative for i32 {
    const BITS: u32 = 32;

    #[inline]
    fn to_u64_bits(self) -> u64 {
        u64::from(self as u32)
    }
    #[inline]
    fn from_u64_bits(bits: u64) -> Self {
        bits as u32 as i32
    }
    #[inline]
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    #[inline]
    fn as_ints(values: &mut [Self]) -> IntsMut<'_> {
        IntsMut::I32(values)
    }
}

impl IntegerNative for i64 {
    const BITS: u32 = 64;

    #[inline]
    fn to_u64_bits(self) -> u64 {
        self as u64
    }
    #[inline]
    fn from_u64_bits(bits: u64) -> Self {
        bits as i64
    }
    #[inline]
    fn to_i64(self) -> i64 {
        self
    }
    #[inline]
    fn as_ints(values: &mut [Self]) -> IntsMut<'_> {
        IntsMut::I64(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int96_bytes_round_trip() {
        let v = Int96([0x0403_0201, 0x0807_0605, 0x0C0B_0A09]);
        let bytes = v.to_le_bytes();
        assert_eq!(bytes, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(Int96::from_le_bytes(bytes), v);
        assert_eq!(v.julian_day(), 0x0C0B_0A09);
        assert_eq!(v.nanos_of_day(), 0x0807_0605_0403_0201);
    }

    #[test]
    fn le_bytes_convert_at_any_alignment() {
        let values: Vec<i64> = vec![1, -2, i64::MIN, 0x0102_0304_0506_0708];
        let mut bytes = vec![0xEE];
        i64::extend_le(&values, &mut bytes);
        assert_eq!(&bytes[1..9], &1i64.to_le_bytes());
        // Read back from an odd offset (never aligned for i64) and an aligned copy, with a
        // trailing partial value that is ignored.
        bytes.push(0xAA);
        let mut unaligned = vec![7i64];
        i64::extend_from_le(&bytes[1..], &mut unaligned);
        assert_eq!(unaligned[1..], values[..]);
        let aligned_bytes = bytes[1..].to_vec();
        let mut aligned = Vec::new();
        i64::extend_from_le(&aligned_bytes, &mut aligned);
        assert_eq!(aligned, values);
        // Int96 takes the value-at-a-time path both ways.
        let wide = [Int96([1, 2, 3]), Int96([u32::MAX, 0, 9])];
        let mut out = Vec::new();
        Int96::extend_le(&wide, &mut out);
        let mut back = Vec::new();
        Int96::extend_from_le(&out, &mut back);
        assert_eq!(back, wide);
    }

    #[test]
    fn grown_values_are_written_through_their_bytes() {
        let mut values = vec![5i32];
        let grown = i32::grow_le(&mut values, 2);
        assert_eq!(grown.is_some(), cfg!(target_endian = "little"));
        let Some(bytes) = grown else { return };
        assert_eq!(bytes.len(), 8);
        bytes[..4].copy_from_slice(&(-3i32).to_le_bytes());
        bytes[4..].copy_from_slice(&0x0102_0304i32.to_le_bytes());
        assert_eq!(values, [5, -3, 0x0102_0304]);
        // Int96 values are not their bytes: nothing grows.
        let mut wide = vec![Int96([1, 2, 3])];
        assert!(Int96::grow_le(&mut wide, 4).is_none());
        assert_eq!(wide.len(), 1);
    }

    #[test]
    fn integer_bits() {
        assert_eq!((-1i32).to_u64_bits(), 0xFFFF_FFFF);
        assert_eq!(i32::from_u64_bits(0x1_8000_0000), i32::MIN);
        assert_eq!(i64::from_u64_bits(u64::MAX), -1);
    }
}
