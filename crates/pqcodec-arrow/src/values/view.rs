//! Byte arrays into Arrow's view layouts, Utf8View and BinaryView: values of up to 12 bytes
//! inline in their view, longer ones pointing into the buffers they already sit in (the
//! decompressed data page for PLAIN and DELTA_LENGTH_BYTE_ARRAY, the dictionary page for
//! dictionary-encoded pages), or copied into data blocks where they were made (DELTA_BYTE_ARRAY).
//!
//! A dictionary's views are built once, when its page arrives; its data pages then gather
//! 16-byte views by index, as fixed-width dictionaries gather values, and are not checked for
//! UTF-8 again. A batch's array holds the page and dictionary buffers its views point into.

use arrow_array::{ArrayRef, make_array};
use arrow_buffer::{Buffer, NullBuffer, ScalarBuffer};
use arrow_data::ArrayDataBuilder;
use arrow_schema::DataType;
use pqcodec_core::{ByteArrays, Encoding, Sink};
use pqcodec_encodings::dictionary::IndexDecoder;

use super::Builder;
use super::binary::validate_utf8;
use super::spread::{check, spread_fixed};
use crate::error::Fault;
use crate::page::DictionaryPage;

/// Size of a data block: values longer than 12 bytes are appended to the current block until
/// it would grow past this.
const BLOCK: usize = 2 << 20;

/// A buffer that views may point into without copying (a data page, a dictionary page), and
/// the index it has among the current batch's data buffers once a view points into it.
#[derive(Default)]
struct Shared {
    buffer: Option<Buffer>,
    block: Option<u32>,
}

/// Byte arrays as Arrow Utf8View or BinaryView.
pub(crate) struct Views {
    views: Vec<u128>,
    blocks: Vec<Buffer>,
    current: Vec<u8>,
    /// The current data page, whose values' bytes views point into.
    page: Shared,
    /// The dictionary page, and its entries' views (long ones pointing into block 0).
    dictionary: Shared,
    dictionary_views: Vec<u128>,
    data_type: DataType,
    utf8: bool,
    checked: usize,
    too_long: bool,
}

/// The view of a value of `len` (more than 12) bytes starting with `prefix`, at `offset` in
/// data buffer `block`.
fn long_view(len: u32, prefix: &[u8], block: u32, offset: u32) -> u128 {
    let mut head = [0u8; 4];
    head.copy_from_slice(&prefix[..4]);
    u128::from(len)
        | (u128::from(u32::from_le_bytes(head)) << 32)
        | (u128::from(block) << 64)
        | (u128::from(offset) << 96)
}

/// The view of a value of at most 12 bytes, inline.
fn short_view(value: &[u8]) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..4].copy_from_slice(&(value.len() as u32).to_le_bytes());
    bytes[4..4 + value.len()].copy_from_slice(value);
    u128::from_le_bytes(bytes)
}

impl Views {
    /// A builder of `data_type`, Utf8View or BinaryView.
    pub(crate) fn new(data_type: DataType) -> Self {
        let utf8 = data_type == DataType::Utf8View;
        Views {
            views: Vec::new(),
            blocks: Vec::new(),
            current: Vec::new(),
            page: Shared::default(),
            dictionary: Shared::default(),
            dictionary_views: Vec::new(),
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
            return short_view(value);
        }
        if let Some(offset) = self.in_page(value) {
            let block = self.block_of_page();
            return long_view(len, value, block, offset);
        }
        if self.current.len() + value.len() > BLOCK.max(value.len())
            || self.current.len() > u32::MAX as usize - value.len()
        {
            self.flush_block();
        }
        let offset = self.current.len() as u32;
        self.current.extend_from_slice(value);
        long_view(len, value, self.blocks.len() as u32, offset)
    }

    /// Where `value` starts in the current page, if it lies there.
    fn in_page(&self, value: &[u8]) -> Option<u32> {
        let page = self.page.buffer.as_ref()?;
        let offset = (value.as_ptr() as usize).checked_sub(page.as_ptr() as usize)?;
        // Pages of more than 4 GiB are not kept (`set_page`): the offset fits.
        (offset + value.len() <= page.len()).then_some(offset as u32)
    }

    /// The index of the current page among the batch's data buffers, added on first use.
    fn block_of_page(&mut self) -> u32 {
        if let Some(block) = self.page.block {
            return block;
        }
        let block = self.add_block(self.page.buffer.clone().unwrap_or_default());
        self.page.block = Some(block);
        block
    }

    /// Adds `buffer` to the batch's data buffers after the block being filled; its index.
    fn add_block(&mut self, buffer: Buffer) -> u32 {
        self.flush_block();
        self.blocks.push(buffer);
        (self.blocks.len() - 1) as u32
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

    fn set_page(&mut self, page: &Buffer) {
        self.page = Shared {
            buffer: (page.len() <= u32::MAX as usize).then(|| page.clone()),
            block: None,
        };
    }

    /// The dictionary's views, built once: long values point into the dictionary page, whose
    /// PLAIN layout puts value `i` at `offsets[i] + 4 * (i + 1)` (each after its length).
    fn take_dictionary(
        &mut self,
        page: &DictionaryPage,
        values: &ByteArrays,
    ) -> Result<bool, Fault> {
        if page.data.len() > u32::MAX as usize {
            return Ok(false);
        }
        let offsets = values.offsets();
        let data = values.data();
        self.dictionary_views.clear();
        self.dictionary_views
            .reserve_exact(offsets.len().saturating_sub(1));
        for (i, w) in offsets.windows(2).enumerate() {
            let value = &data[w[0]..w[1]];
            let view = if value.len() <= 12 {
                short_view(value)
            } else {
                let at = w[0] + 4 * (i + 1);
                if page.data.as_slice().get(at..at + value.len()) != Some(value) {
                    // Not the PLAIN layout expected: look values up one by one instead.
                    return Ok(false);
                }
                long_view(value.len() as u32, value, 0, at as u32)
            };
            self.dictionary_views.push(view);
        }
        self.dictionary = Shared {
            buffer: Some(page.data.clone()),
            block: None,
        };
        Ok(true)
    }

    fn gather(&mut self, indices: &mut IndexDecoder<'_>, n: usize) -> Result<usize, Fault> {
        let block = match self.dictionary.block {
            Some(block) => block,
            None => {
                let block = self.add_block(self.dictionary.buffer.clone().unwrap_or_default());
                self.dictionary.block = Some(block);
                block
            }
        };
        let start = self.views.len();
        let got = indices.gather(&self.dictionary_views, &mut self.views, n)?;
        if block != 0 {
            // The dictionary's long views were built pointing into block 0.
            for v in &mut self.views[start..] {
                if (*v as u32) > 12 {
                    *v += u128::from(block) << 64;
                }
            }
        }
        Ok(got)
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
        // The next batch adds the buffers it points into anew.
        self.page.block = None;
        self.dictionary.block = None;
        let mut builder = ArrayDataBuilder::new(self.data_type.clone())
            .len(slots)
            .add_buffer(ScalarBuffer::from(views).into_inner())
            .nulls(nulls);
        for block in std::mem::take(&mut self.blocks) {
            builder = builder.add_buffer(block);
        }
        // SAFETY: what `build` would check holds by construction: one view per slot (`check`
        // above; nulls spread in place), the null buffer `slots` long; every view of a value of
        // more than 12 bytes was made (`long_view`) from bytes lying at its offset in the data
        // buffer its block index names: a page (`in_page` found them there, and the page was
        // added as that block), the dictionary page (`take_dictionary` compared them there;
        // `gather` moves the block index to where the page was added) or a block copied into
        // (`current`, added at the index its views name); its prefix is those bytes' first
        // four. For Utf8View every value was validated: dictionaries when taken, other pages
        // at each checkpoint, the last just before this.
        let array = unsafe { builder.build_unchecked() };
        Ok(make_array(array))
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
