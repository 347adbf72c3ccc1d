//! Helpers shared by pqcodec's tests, benches and examples, so that each is written once: a
//! small deterministic generator for reproducible data, the varints that hand-made pages are
//! written with, and the Arrow type a column is read as. Not published; nothing here is part
//! of pqcodec's API.

use arrow_schema::{DataType, TimeUnit};
use pqcodec_core::{ColumnType, Physical, with_physical};

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

/// The Arrow type a required column of type `column_type` is read as when nothing else is
/// asked.
///
/// ```
/// use pqcodec_core::{ColumnType, PhysicalType};
///
/// let flba = ColumnType::new(PhysicalType::FixedLenByteArray, 16).unwrap();
/// let t = pqcodec_testkit::arrow_type(flba);
/// assert_eq!(t, arrow_schema::DataType::FixedSizeBinary(16));
/// ```
pub fn arrow_type(column_type: ColumnType) -> DataType {
    match column_type {
        ColumnType::Boolean => DataType::Boolean,
        ColumnType::Int32 => DataType::Int32,
        ColumnType::Int64 => DataType::Int64,
        ColumnType::Int96 => DataType::Timestamp(TimeUnit::Nanosecond, None),
        ColumnType::Float => DataType::Float32,
        ColumnType::Double => DataType::Float64,
        ColumnType::ByteArray => DataType::Binary,
        ColumnType::FixedLenByteArray(ty) => {
            DataType::FixedSizeBinary(i32::try_from(ty.width()).unwrap_or(i32::MAX))
        }
    }
}

/// The marker of `T` for a column of `type_length` (read for FIXED_LEN_BYTE_ARRAY only), for
/// tests generic over the marker that know the column's type length as Parquet states it.
/// Panics if it is no FIXED_LEN_BYTE_ARRAY width.
///
/// ```
/// use pqcodec_core::{FixedLenByteArrayType, Int32Type};
///
/// assert_eq!(pqcodec_testkit::marker::<Int32Type>(0), Int32Type);
/// assert_eq!(pqcodec_testkit::marker::<FixedLenByteArrayType>(3).width(), 3);
/// ```
pub fn marker<T: Physical>(type_length: usize) -> T {
    let column_type = ColumnType::new(T::TYPE, type_length).expect("a valid type length");
    with_physical!(column_type, ty: U => {
        *(&ty as &dyn std::any::Any)
            .downcast_ref::<T>()
            .expect("the marker of T::TYPE is T")
    })
}
