//! Byte arrays into Arrow's view layouts, Utf8View and BinaryView: values of up to 12 bytes
//! inline in their view, longer ones copied into data blocks the views point into.

use arrow_array::{ArrayRef, make_array};
use arrow_buffer::{Buffer, NullBuffer, ScalarBuffer};
use arrow_data::ArrayDataBuilder;
use arrow_schema::DataType;
use pqcodec_core::{ByteArrays, Encoding, Sink};

use super::Builder;
use super::binary::validate_utf8;
use super::spread::{check, spread_fixed};
use crate::error::Fault;

/// Size of a data block: values longer than 12 bytes are appended to the current block until
/// it would grow past this.
const BLOCK: usize = 2 << 20;

/// Byte arrays as Arrow Utf8View or BinaryView.
pub(crate) struct Views {
    views: Vec<u128>,
    blocks: Vec<Buffer>,
    current: Vec<u8>,
    data_type: DataType,
    utf8: bool,
    checked: usize,
    too_long: bool,
}

impl Views {
    /// A builder of `data_type`, Utf8View or BinaryView.
    pub(crate) fn new(data_type: DataType) -> Self {
        let utf8 = data_type == DataType::Utf8View;
        Views {
            views: Vec::new(),
            blocks: Vec::new(),
            current: Vec::new(),
            data_type,
            utf8,
            checked: 0,
            too_long: false,
        }
    }

    fn view(&mut self, value: &[u8]) -> u128 {
        let Ok(len) = u32::try_from(value.len()) else {
            self.too_long = true;
            return 0;
        };
        if len <= 12 {
            let mut bytes = [0u8; 16];
            bytes[..4].copy_from_slice(&len.to_le_bytes());
            bytes[4..4 + value.len()].copy_from_slice(value);
            return u128::from_le_bytes(bytes);
        }
        if self.current.len() + value.len() > BLOCK.max(value.len())
            || self.current.len() > u32::MAX as usize - value.len()
        {
            self.flush_block();
        }
        let offset = self.current.len() as u32;
        self.current.extend_from_slice(value);
        let mut prefix = [0u8; 4];
        prefix.copy_from_slice(&value[..4]);
        u128::from(len)
            | (u128::from(u32::from_le_bytes(prefix)) << 32)
            | (u128::from(self.blocks.len() as u32) << 64)
            | (u128::from(offset) << 96)
    }

    fn flush_block(&mut self) {
        if !self.current.is_empty() {
            let block = std::mem::take(&mut self.current);
            self.blocks.push(Buffer::from_vec(block));
        }
    }

    /// The bytes of view `v`.
    fn bytes_of(&self, v: u128) -> &[u8] {
        let len = (v as u32) as usize;
        if len <= 12 {
            return &[];
        }
        let block = ((v >> 64) as u32) as usize;
        let offset = ((v >> 96) as u32) as usize;
        let data = match self.blocks.get(block) {
            Some(b) => b.as_slice(),
            None => &self.current,
        };
        data.get(offset..offset + len).unwrap_or(&[])
    }
}

impl Sink<[u8]> for Views {
    fn reserve(&mut self, additional: usize) {
        self.views.reserve_exact(additional);
    }
    #[inline]
    fn push(&mut self, value: &[u8]) {
        let v = self.view(value);
        self.views.push(v);
    }
    fn push_repeated(&mut self, value: &[u8], count: usize) {
        // Every copy shares the one stored value.
        let v = self.view(value);
        self.views.resize(self.views.len() + count, v);
    }
}

impl<T: pqcodec_core::Binary> Builder<T> for Views {
    fn len(&self) -> usize {
        self.views.len()
    }

    fn take_fault(&mut self) -> Option<Fault> {
        std::mem::take(&mut self.too_long)
            .then(|| Fault::corrupt(Encoding::Plain, "values", "a value is longer than 4 GiB"))
    }

    fn checkpoint(&mut self, trusted: bool) -> Result<(), Fault> {
        let n = self.views.len();
        if self.utf8 && !trusted {
            for i in self.checked..n {
                let v = self.views[i];
                let len = (v as u32) as usize;
                let inline;
                let bytes = if len <= 12 {
                    inline = v.to_le_bytes();
                    &inline[4..4 + len]
                } else {
                    self.bytes_of(v)
                };
                if let Err(e) = std::str::from_utf8(bytes) {
                    return Err(Fault::Utf8 {
                        index: i,
                        valid_up_to: e.valid_up_to(),
                    });
                }
            }
        }
        self.checked = n;
        Ok(())
    }

    fn validate_dictionary(&self, dictionary: &ByteArrays) -> Result<(), Fault> {
        if self.utf8 {
            validate_utf8(dictionary.offsets(), dictionary.data(), |o| o).map_err(|(index, at)| {
                Fault::corrupt(
                    Encoding::Plain,
                    "dictionary",
                    format!(
                        "dictionary value {index} is not valid UTF-8 (invalid byte at offset {at})"
                    ),
                )
            })?;
        }
        Ok(())
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        if let Some(fault) = Builder::<T>::take_fault(self) {
            return Err(fault);
        }
        check(self.views.len(), slots, validity.as_ref())?;
        self.flush_block();
        let nulls = validity.filter(|v| v.null_count() > 0);
        let mut views = std::mem::take(&mut self.views);
        if let Some(v) = &nulls {
            spread_fixed(&mut views, v);
        }
        self.checked = 0;
        let mut builder = ArrayDataBuilder::new(self.data_type.clone())
            .len(slots)
            .add_buffer(ScalarBuffer::from(views).into_inner())
            .nulls(nulls);
        for block in std::mem::take(&mut self.blocks) {
            builder = builder.add_buffer(block);
        }
        Ok(make_array(builder.build()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::StringViewArray;
    use arrow_array::cast::AsArray;
    use pqcodec_core::ByteArrayType;

    #[test]
    fn short_and_long_values_with_nulls() {
        let mut b = Views::new(DataType::Utf8View);
        let long = "a value longer than twelve bytes";
        b.push(b"short");
        b.push_repeated(long.as_bytes(), 2);
        b.push(b"");
        Builder::<ByteArrayType>::checkpoint(&mut b, false).unwrap();
        let validity = NullBuffer::from(vec![true, true, false, true, true]);
        let a = Builder::<ByteArrayType>::finish(&mut b, 5, Some(validity)).unwrap();
        let expect =
            StringViewArray::from(vec![Some("short"), Some(long), None, Some(long), Some("")]);
        assert_eq!(a.as_string_view(), &expect);
    }

    #[test]
    fn invalid_utf8_is_reported_but_binary_is_not_checked() {
        let mut b = Views::new(DataType::Utf8View);
        b.push(b"fine");
        b.push(b"0123456789abcdef\xFF");
        assert!(matches!(
            Builder::<ByteArrayType>::checkpoint(&mut b, false),
            Err(Fault::Utf8 {
                index: 1,
                valid_up_to: 16
            })
        ));
        let mut b = Views::new(DataType::BinaryView);
        b.push(b"\xFF\xFE");
        Builder::<ByteArrayType>::checkpoint(&mut b, false).unwrap();
        let a = Builder::<ByteArrayType>::finish(&mut b, 1, None).unwrap();
        assert_eq!(a.as_binary_view().value(0), b"\xFF\xFE");
    }
}
