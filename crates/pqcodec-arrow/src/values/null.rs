//! Columns of Arrow type Null (Parquet's UNKNOWN logical type): values are decoded, checked and
//! dropped; the array is all nulls.

use std::sync::Arc;

use arrow_array::{ArrayRef, NullArray};
use arrow_buffer::NullBuffer;
use pqcodec_core::{Physical, Sink};

use super::Builder;
use crate::error::Fault;

/// Counts values and builds a [`NullArray`].
#[derive(Default)]
pub(crate) struct Nulls {
    count: usize,
}

impl<V: ?Sized> Sink<V> for Nulls {
    #[inline]
    fn push(&mut self, _value: &V) {
        self.count += 1;
    }
    #[inline]
    fn push_repeated(&mut self, _value: &V, count: usize) {
        self.count += count;
    }
    #[inline]
    fn extend_from_slice(&mut self, values: &[V])
    where
        V: Sized,
    {
        self.count += values.len();
    }
}

impl<T: Physical> Builder<T> for Nulls {
    fn len(&self) -> usize {
        self.count
    }

    fn finish(&mut self, slots: usize, _validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        self.count = 0;
        Ok(Arc::new(NullArray::new(slots)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use pqcodec_core::Int32Type;

    #[test]
    fn counts_and_builds_nulls() {
        let mut b = Nulls::default();
        Sink::<i32>::push_repeated(&mut b, &1, 4);
        Sink::<i32>::extend_from_slice(&mut b, &[1, 2]);
        assert_eq!(Builder::<Int32Type>::len(&b), 6);
        let a = Builder::<Int32Type>::finish(&mut b, 9, None).unwrap();
        assert_eq!(a.len(), 9);
        assert_eq!(a.logical_null_count(), 9);
        assert_eq!(Builder::<Int32Type>::len(&b), 0);
    }
}
