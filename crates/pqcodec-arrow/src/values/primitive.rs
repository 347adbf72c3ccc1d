//! Fixed-width Arrow values stored as decoded ([`Native`]: INT32 into Int32, Date32, UInt32...),
//! or INT96 converted into timestamps as appended ([`Int96Timestamps`]). Other conversions are
//! [`Converted`](super::converted::Converted)'s.

use std::sync::Arc;

use arrow_array::types::{
    ArrowPrimitiveType, Date32Type, Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type,
    Float32Type, Float64Type, Int32Type, Int64Type, TimestampMicrosecondType,
    TimestampNanosecondType,
};
use arrow_array::{ArrayRef, PrimitiveArray, make_array};
use arrow_buffer::{ArrowNativeType, Buffer, NullBuffer, ScalarBuffer};
use arrow_data::ArrayDataBuilder;
use arrow_schema::{DataType, TimeUnit};
use pqcodec_core::{Data, FixedWidth, Int96, Int96Type, Sink};

use super::Builder;
use super::borrow::Borrower;
use super::spread::{Spread, check, spread_fixed};
use crate::error::Fault;

/// Builds a fixed-width array of `data_type` from `values` over `slots` slots.
pub(crate) fn fixed_array<N: ArrowNativeType + Spread>(
    data_type: &DataType,
    mut values: Vec<N>,
    slots: usize,
    validity: Option<NullBuffer>,
) -> Result<ArrayRef, Fault> {
    check(values.len(), slots, validity.as_ref())?;
    let nulls = validity.filter(|v| v.null_count() > 0);
    if let Some(v) = &nulls {
        spread_fixed(&mut values, v);
    }
    values_array(data_type, Buffer::from_vec(values), slots, nulls)
}

/// An array of `data_type` over `len` fixed-width values in `values` and `nulls`: the typed
/// array itself for the common primitive types (no `ArrayData` validation or type dispatch per
/// batch), through `ArrayData` for the others.
fn values_array(
    data_type: &DataType,
    values: Buffer,
    len: usize,
    nulls: Option<NullBuffer>,
) -> Result<ArrayRef, Fault> {
    let typed = match data_type {
        DataType::Int32 => typed::<Int32Type>(data_type, &values, len, &nulls),
        DataType::Int64 => typed::<Int64Type>(data_type, &values, len, &nulls),
        DataType::Float32 => typed::<Float32Type>(data_type, &values, len, &nulls),
        DataType::Float64 => typed::<Float64Type>(data_type, &values, len, &nulls),
        DataType::Date32 => typed::<Date32Type>(data_type, &values, len, &nulls),
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            typed::<TimestampMicrosecondType>(data_type, &values, len, &nulls)
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            typed::<TimestampNanosecondType>(data_type, &values, len, &nulls)
        }
        // Not through `ArrayData`, whose checks of decimals test every value's precision
        // (arrow-rs's reader does not either).
        DataType::Decimal32(..) => typed::<Decimal32Type>(data_type, &values, len, &nulls),
        DataType::Decimal64(..) => typed::<Decimal64Type>(data_type, &values, len, &nulls),
        DataType::Decimal128(..) => typed::<Decimal128Type>(data_type, &values, len, &nulls),
        DataType::Decimal256(..) => typed::<Decimal256Type>(data_type, &values, len, &nulls),
        _ => None,
    };
    if let Some(array) = typed {
        return array;
    }
    let data = ArrayDataBuilder::new(data_type.clone())
        .len(len)
        .add_buffer(values)
        .nulls(nulls)
        .build()?;
    Ok(make_array(data))
}

/// The `PrimitiveArray<P>` of `data_type` (one `P` takes), or `None` where `values` does not
/// hold `len` aligned `P` values (left to `ArrayData`'s checks, which name what is wrong).
fn typed<P: ArrowPrimitiveType>(
    data_type: &DataType,
    values: &Buffer,
    len: usize,
    nulls: &Option<NullBuffer>,
) -> Option<Result<ArrayRef, Fault>> {
    let size = size_of::<P::Native>();
    let aligned = values.as_ptr().align_offset(align_of::<P::Native>()) == 0;
    if !aligned || len.checked_mul(size) != Some(values.len()) {
        return None;
    }
    let values = ScalarBuffer::<P::Native>::new(values.clone(), 0, len);
    let array = PrimitiveArray::<P>::try_new(values, nulls.clone())
        .map(|a| Arc::new(a.with_data_type(data_type.clone())) as ArrayRef)
        .map_err(Fault::from);
    Some(array)
}

/// Values stored exactly as the physical type decodes them.
///
/// PLAIN values of a page their decoder shares, suitably aligned, are not copied: the batch
/// keeps a slice of the page ([`Borrower`]) until some other append needs them in `values`
/// ([`Native::own`]) or nulls must be spread among them; a batch of such values (not
/// converted) shares the page's memory.
pub(crate) struct Native<T: FixedWidth> {
    /// The values, when copied; empty while some are borrowed.
    values: Vec<T::Native>,
    borrower: Borrower,
    /// A [`Sink::reserve`] not yet made: made by the first copy, not before, as the values
    /// may be borrowed.
    reserve: usize,
    data_type: DataType,
}

impl<T: FixedWidth> Native<T>
where
    T::Native: ArrowNativeType,
{
    /// Values kept as they decode, as an array of `data_type`.
    pub(crate) fn new(data_type: DataType) -> Self {
        Native {
            values: Vec::new(),
            borrower: Borrower::default(),
            reserve: 0,
            data_type,
        }
    }

    /// Copies borrowed values into `values`, before an append that copies.
    #[inline]
    fn own(&mut self) {
        let borrowed = self.borrower.take();
        let copied = borrowed
            .as_ref()
            .map_or(0, |b| b.len() / size_of::<T::Native>());
        // Exactly the borrowed values and the hint, the count the read appends: a batch
        // crossing a page boundary would otherwise double its buffer for the second page's
        // values.
        let room = std::mem::take(&mut self.reserve) + copied;
        if room > 0 {
            self.values.reserve_exact(room);
        }
        if let Some(borrowed) = borrowed {
            self.copy_le_bytes(&borrowed);
        }
    }

    /// Appends the values whose little-endian bytes are `bytes`, copied.
    fn copy_le_bytes(&mut self, bytes: &[u8]) {
        #[cfg(target_endian = "little")]
        {
            let size = size_of::<T::Native>();
            let n = bytes.len() / size;
            self.values.reserve(n);
            let len = self.values.len();
            // SAFETY: `T::Native` is an `ArrowNativeType`, which arrow-buffer implements only for
            // plain numbers (no padding, every bit pattern a value), and on a little-endian
            // machine a value's memory is its little-endian bytes. The values have room for `n`
            // more (reserved above), `n * size` bytes are read from `bytes` (which holds them)
            // and written past the values' end, which `bytes`, borrowed from elsewhere, does not
            // overlap; the `n` values written are then initialised.
            unsafe {
                let end = self.values.as_mut_ptr().add(len).cast::<u8>();
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), end, n * size);
                self.values.set_len(len + n);
            }
        }
        #[cfg(target_endian = "big")]
        self.values.extend(
            bytes
                .chunks_exact(<T::Native as pqcodec_core::NativeType>::SIZE)
                .map(<T::Native as pqcodec_core::NativeType>::from_le_slice),
        );
    }
}

impl<T: FixedWidth> Sink<T::Native> for Native<T>
where
    T::Native: ArrowNativeType,
{
    fn reserve(&mut self, additional: usize) {
        self.reserve = additional;
    }
    #[inline]
    fn push(&mut self, value: &T::Native) {
        self.own();
        self.values.push(*value);
    }
    #[inline]
    fn push_repeated(&mut self, value: &T::Native, count: usize) {
        self.own();
        self.values.resize(self.values.len() + count, *value);
    }
    #[inline]
    fn extend_from_slice(&mut self, values: &[T::Native]) {
        self.own();
        self.values.extend_from_slice(values);
    }
    #[inline]
    fn extend_from_le_bytes(&mut self, bytes: Data<'_>) {
        // Borrowed only where the bytes are the values' memory: on little-endian machines.
        let align = align_of::<T::Native>();
        if cfg!(target_endian = "big")
            || !self.borrower.borrow(bytes, align, self.values.is_empty())
        {
            self.own();
            self.copy_le_bytes(&bytes);
        } else {
            // The values the hint announced came borrowed: no room to make for them.
            let n = bytes.len() / size_of::<T::Native>();
            self.reserve = self.reserve.saturating_sub(n);
        }
    }
    #[inline]
    fn grow_le_bytes(&mut self, count: usize) -> Option<&mut [u8]> {
        self.own();
        <T::Native as pqcodec_core::NativeType>::grow_le(&mut self.values, count)
    }
}

impl<T> Builder<T> for Native<T>
where
    T: FixedWidth,
    T::Native: ArrowNativeType + Spread,
{
    fn len(&self) -> usize {
        match self.borrower.bytes() {
            Some(bytes) => bytes.len() / size_of::<T::Native>(),
            None => self.values.len(),
        }
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        let no_nulls = validity.as_ref().is_none_or(|v| v.null_count() == 0);
        if no_nulls && let Some(borrowed) = self.borrower.take() {
            let dense = borrowed.len() / size_of::<T::Native>();
            check(dense, slots, validity.as_ref())?;
            // The borrower took only bytes aligned for `T::Native`.
            return values_array(&self.data_type, borrowed, slots, None);
        }
        // Room for every slot, nulls spread in place among the values.
        self.reserve = slots.saturating_sub(self.len());
        self.own();
        fixed_array(
            &self.data_type,
            std::mem::take(&mut self.values),
            slots,
            validity,
        )
    }
}

/// Julian day number of 1970-01-01.
const JULIAN_DAY_OF_EPOCH: i64 = 2_440_588;

#[inline(always)]
fn int96_time(v: Int96, units_per_day: i64, nanos_per_unit: i64) -> i64 {
    (i64::from(v.julian_day()) - JULIAN_DAY_OF_EPOCH)
        .wrapping_mul(units_per_day)
        .wrapping_add(v.nanos_of_day() / nanos_per_unit)
}

/// INT96 values (a Julian day and nanoseconds within it) as timestamps in `unit` since the
/// epoch, converted as they are appended.
pub(crate) struct Int96Timestamps {
    values: Vec<i64>,
    unit: TimeUnit,
    data_type: DataType,
}

impl Int96Timestamps {
    /// Timestamps of `data_type`, in `unit`.
    pub(crate) fn new(unit: TimeUnit, data_type: DataType) -> Self {
        Int96Timestamps {
            values: Vec::new(),
            unit,
            data_type,
        }
    }

    /// Appends `values` converted: the unit matched once, each unit's loop dividing by a
    /// constant.
    fn append(&mut self, values: &[Int96]) {
        fn to<const UNITS_PER_DAY: i64, const NANOS_PER_UNIT: i64>(
            values: &[Int96],
            out: &mut Vec<i64>,
        ) {
            out.extend(
                values
                    .iter()
                    .map(|&v| int96_time(v, UNITS_PER_DAY, NANOS_PER_UNIT)),
            );
        }
        let out = &mut self.values;
        match self.unit {
            TimeUnit::Second => to::<86_400, 1_000_000_000>(values, out),
            TimeUnit::Millisecond => to::<86_400_000, 1_000_000>(values, out),
            TimeUnit::Microsecond => to::<86_400_000_000, 1_000>(values, out),
            TimeUnit::Nanosecond => to::<86_400_000_000_000, 1>(values, out),
        }
    }
}

impl Sink<Int96> for Int96Timestamps {
    fn reserve(&mut self, additional: usize) {
        self.values.reserve_exact(additional);
    }
    #[inline]
    fn push(&mut self, value: &Int96) {
        self.append(std::slice::from_ref(value));
    }
    #[inline]
    fn push_repeated(&mut self, value: &Int96, count: usize) {
        self.append(std::slice::from_ref(value));
        if let Some(&v) = self.values.last() {
            let len = self.values.len();
            self.values.resize(len - 1 + count, v);
        }
    }
    #[inline]
    fn extend_from_slice(&mut self, values: &[Int96]) {
        self.append(values);
    }
}

impl Builder<Int96Type> for Int96Timestamps {
    fn len(&self) -> usize {
        self.values.len()
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        fixed_array(
            &self.data_type,
            std::mem::take(&mut self.values),
            slots,
            validity,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::TimestampNanosecondType;
    use arrow_array::{Array, Int32Array};
    use pqcodec_core::{Int32Type, Int96Type};

    #[test]
    fn native_spreads_over_nulls() {
        let mut b = Native::<Int32Type>::new(DataType::Int32);
        b.extend_from_slice(&[1, 2]);
        b.push_repeated(&3, 2);
        let validity = NullBuffer::from(vec![true, false, true, true, false, true]);
        let array = Builder::<Int32Type>::finish(&mut b, 6, Some(validity)).unwrap();
        let expect = Int32Array::from(vec![Some(1), None, Some(2), Some(3), None, Some(3)]);
        assert_eq!(
            array.as_primitive::<arrow_array::types::Int32Type>(),
            &expect
        );
        assert_eq!(Builder::<Int32Type>::len(&b), 0);
    }

    /// PLAIN bytes of a shared page are borrowed when aligned and continuing, copied
    /// otherwise (misaligned, another page, not shared, a push between, nulls to spread); the
    /// arrays are the same either way.
    #[test]
    fn aligned_page_values_are_borrowed() {
        let values: Vec<i32> = (0..64).map(|i| i * 1000 - 7).collect();
        let mut raw: Vec<u8> = vec![0xAA; 3];
        raw.extend(values.iter().flat_map(|v| v.to_le_bytes()));
        let page = bytes::Bytes::from(raw);
        let aligned = page.as_ptr().align_offset(4);
        let bytes = |from: usize, n: usize| Data::in_buffer(&page, from..from + 4 * n);
        let expect = |from: usize, n: usize| -> Vec<i32> {
            bytes(from, n)
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
                .collect()
        };
        let finish = |b: &mut Native<Int32Type>, validity: Option<NullBuffer>| {
            let slots = validity
                .as_ref()
                .map_or(Builder::<Int32Type>::len(b), |v| v.len());
            let array = Builder::<Int32Type>::finish(b, slots, validity).unwrap();
            array
                .as_primitive::<arrow_array::types::Int32Type>()
                .clone()
        };

        // Two appends continuing each other: one borrowed slice sharing the page.
        let mut b = Native::<Int32Type>::new(DataType::Int32);
        b.extend_from_le_bytes(bytes(aligned, 5));
        b.extend_from_le_bytes(bytes(aligned + 20, 3));
        assert!(b.borrower.bytes().is_some());
        let array = finish(&mut b, None);
        assert_eq!(array.values().to_vec(), expect(aligned, 8));
        assert_eq!(
            array.values().as_ptr().cast::<u8>(),
            bytes(aligned, 1).as_ptr()
        );

        // Misaligned: copied.
        let misaligned = aligned + 1;
        b.extend_from_le_bytes(bytes(misaligned, 4));
        assert!(b.borrower.bytes().is_none());
        assert_eq!(
            finish(&mut b, None).values().to_vec(),
            expect(misaligned, 4)
        );

        // Not shared: copied.
        b.extend_from_le_bytes(Data::from(bytes(aligned, 2).bytes()));
        assert!(b.borrower.bytes().is_none());
        assert_eq!(finish(&mut b, None).values().to_vec(), expect(aligned, 2));

        // A push after borrowed values, and values of another page: copied after them.
        let other = bytes::Bytes::copy_from_slice(bytes(aligned + 40, 2).bytes());
        b.extend_from_le_bytes(bytes(aligned, 2));
        b.push(&99);
        b.extend_from_le_bytes(bytes(aligned + 8, 1));
        b.extend_from_le_bytes(Data::from(&other));
        let mut want = expect(aligned, 2);
        want.push(99);
        want.extend(expect(aligned + 8, 1));
        want.extend(expect(aligned + 40, 2));
        assert_eq!(finish(&mut b, None).values().to_vec(), want);
        // Borrowed from one page, then values of another: copied after them.
        b.extend_from_le_bytes(bytes(aligned, 2));
        b.extend_from_le_bytes(Data::from(&other));
        assert!(b.borrower.bytes().is_none());
        let mut want = expect(aligned, 2);
        want.extend(expect(aligned + 40, 2));
        assert_eq!(finish(&mut b, None).values().to_vec(), want);

        // Values grown in place after borrowed ones: the borrowed are copied first.
        b.extend_from_le_bytes(bytes(aligned, 3));
        let grown = b.grow_le_bytes(2).expect("i32 values are their bytes here");
        grown.copy_from_slice(&bytes(aligned + 40, 2));
        let mut want = expect(aligned, 3);
        want.extend(expect(aligned + 40, 2));
        assert_eq!(finish(&mut b, None).values().to_vec(), want);

        // Nulls: the borrowed values are copied and spread.
        b.extend_from_le_bytes(bytes(aligned, 2));
        let validity = NullBuffer::from(vec![false, true, false, true]);
        let array = finish(&mut b, Some(validity));
        let got: Vec<Option<i32>> = array.iter().collect();
        let two = expect(aligned, 2);
        assert_eq!(got, [None, Some(two[0]), None, Some(two[1])]);
    }

    #[test]
    fn int96_as_timestamps() {
        // 2020-01-01T00:00:01 is Julian day 2458850, one second in.
        let nanos = 1_000_000_000u64;
        let second = Int96([nanos as u32, (nanos >> 32) as u32, 2_458_850]);
        let mut b = Int96Timestamps::new(
            TimeUnit::Nanosecond,
            DataType::Timestamp(TimeUnit::Nanosecond, None),
        );
        b.push(&second);
        let a = Builder::<Int96Type>::finish(&mut b, 1, None).unwrap();
        assert_eq!(
            a.as_primitive::<TimestampNanosecondType>().value(0),
            1_577_836_801_000_000_000
        );
        assert_eq!(a.null_count(), 0);
        let millis = DataType::Timestamp(TimeUnit::Millisecond, None);
        let mut b = Int96Timestamps::new(TimeUnit::Millisecond, millis);
        b.push_repeated(&second, 3);
        assert_eq!(b.values, [1_577_836_801_000; 3]);
    }
}
