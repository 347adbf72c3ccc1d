//! BOOLEAN values into an Arrow bit buffer; runs are appended as runs.

use std::sync::Arc;

use arrow_array::{ArrayRef, BooleanArray};
use arrow_buffer::{BooleanBufferBuilder, NullBuffer};
use pqcodec_core::{BooleanType, Sink};
use pqcodec_encodings::bits::pack_bools;

use super::Builder;
use super::spread::{check, spread_bits};
use crate::error::Fault;

/// BOOLEAN values as Arrow Boolean.
pub(crate) struct Booleans {
    bits: BooleanBufferBuilder,
}

impl Booleans {
    pub(crate) fn new() -> Self {
        Booleans {
            bits: BooleanBufferBuilder::new(0),
        }
    }
}

impl Sink<bool> for Booleans {
    fn reserve(&mut self, additional: usize) {
        self.bits.reserve(additional);
    }
    #[inline]
    fn push(&mut self, value: &bool) {
        self.bits.append(*value);
    }
    #[inline]
    fn push_repeated(&mut self, value: &bool, count: usize) {
        self.bits.append_n(count, *value);
    }
    fn extend_from_slice(&mut self, values: &[bool]) {
        append_bools(&mut self.bits, values);
    }
}

/// Appends `values` to `bits` packed 8 at a time, 256 bits per copy into the builder.
pub(crate) fn append_bools(bits: &mut BooleanBufferBuilder, values: &[bool]) {
    let mut packed = [0u8; 32];
    for chunk in values.chunks(256) {
        pack_bools(chunk, &mut packed);
        bits.append_packed_range(0..chunk.len(), &packed);
    }
}

impl Builder<BooleanType> for Booleans {
    fn len(&self) -> usize {
        self.bits.len()
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        check(self.bits.len(), slots, validity.as_ref())?;
        let dense = self.bits.finish();
        let nulls = validity.filter(|v| v.null_count() > 0);
        let values = match &nulls {
            Some(v) => spread_bits(&dense, v),
            None => dense,
        };
        Ok(Arc::new(BooleanArray::new(values, nulls)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;

    #[test]
    fn append_bools_packs_every_length_and_offset() {
        let values: Vec<bool> = (0..700u32).map(|i| (i * 7919) % 13 < 5).collect();
        for offset in [0usize, 1, 3, 8] {
            for len in [0usize, 1, 7, 8, 9, 63, 64, 65, 255, 256, 257, 600] {
                let mut bits = BooleanBufferBuilder::new(0);
                bits.append_n(offset, true);
                append_bools(&mut bits, &values[..len]);
                let got: Vec<bool> = bits.finish().iter().collect();
                let mut expect = vec![true; offset];
                expect.extend_from_slice(&values[..len]);
                assert_eq!(got, expect, "offset {offset} len {len}");
            }
        }
    }

    #[test]
    fn runs_and_nulls() {
        let mut b = Booleans::new();
        b.push_repeated(&true, 3);
        b.extend_from_slice(&[false, true]);
        let validity = NullBuffer::from(vec![true, true, false, true, true, true]);
        let a = b.finish(6, Some(validity)).unwrap();
        let expect = BooleanArray::from(vec![
            Some(true),
            Some(true),
            None,
            Some(true),
            Some(false),
            Some(true),
        ]);
        assert_eq!(a.as_boolean(), &expect);
        assert!(b.finish(1, None).is_err());
    }
}
