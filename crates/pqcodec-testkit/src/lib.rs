//! Helpers shared by pqcodec's tests, benches and examples, so that each is written once: a
//! small deterministic generator for reproducible data, the varints that hand-made pages are
//! written with, and the Arrow type a column is read as. Not published; nothing here is part
//! of pqcodec's API.

use arrow_schema::{DataType, TimeUnit};
use pqcodec_core::PhysicalType;

/// A deterministic pseudo-random generator (xorshift64): the same seed gives the same data on
/// every machine, which is all tests and benches ask of it.
///
/// ```
/// use pqcodec_testkit::Rng;
///
/// let (mut a, mut b) = (Rng::new(7), Rng::new(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (0, which xorshift would never leave, is replaced).
    pub fn new(seed: u64) -> Self {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 if `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True `percent` times in 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// `v` as a ULEB128 varint, as page headers and run headers write it.
///
/// ```
/// assert_eq!(pqcodec_testkit::uleb(300), [0xAC, 0x02]);
/// ```
pub fn uleb(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// `v` zigzag-encoded (0, -1, 1, -2... as 0, 1, 2, 3...), as DELTA_BINARY_PACKED writes its
/// first value and min deltas.
///
/// ```
/// assert_eq!(pqcodec_testkit::zigzag(-2), 3);
/// ```
pub fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The Arrow type a required column of `physical` (FIXED_LEN_BYTE_ARRAY `type_length` wide) is
/// read as when nothing else is asked.
///
/// ```
/// use pqcodec_core::PhysicalType;
///
/// let t = pqcodec_testkit::arrow_type(PhysicalType::FixedLenByteArray, 16);
/// assert_eq!(t, arrow_schema::DataType::FixedSizeBinary(16));
/// ```
pub fn arrow_type(physical: PhysicalType, type_length: usize) -> DataType {
    match physical {
        PhysicalType::Boolean => DataType::Boolean,
        PhysicalType::Int32 => DataType::Int32,
        PhysicalType::Int64 => DataType::Int64,
        PhysicalType::Int96 => DataType::Timestamp(TimeUnit::Nanosecond, None),
        PhysicalType::Float => DataType::Float32,
        PhysicalType::Double => DataType::Float64,
        PhysicalType::ByteArray => DataType::Binary,
        PhysicalType::FixedLenByteArray => {
            DataType::FixedSizeBinary(i32::try_from(type_length).unwrap_or(i32::MAX))
        }
    }
}
