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
use bytes::Bytes;
use pqcodec_core::{
    ByteArrays, Data, Encoding, LengthPrefixed, Lengths, PhysicalType, Sink, ValueBuffer,
};
use pqcodec_encodings::dictionary::IndexDecoder;

use super::Builder;
use super::binary::validate_utf8;
use super::borrow::same_buffer;
use super::gather::reserve_for;
use super::reader::short;
use super::spread::{check, spread_fixed};
use crate::error::Fault;
use crate::page::DictionaryPage;

/// Size of a data block: values longer than 12 bytes are appended to the current block until
/// it would grow past this.
const BLOCK: usize = 2 << 20;

/// The dictionary page, which views may point into without copying, and the index it has
/// among the current batch's data buffers once a view points into it.
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
    /// The data page a decoder shared last ([`Data::buffer`]), which views point into, and
    /// its index among the batch's data buffers.
    page: Option<(Bytes, u32)>,
    /// The dictionary page, and its entries' views, long ones pointing into data buffer
    /// `dictionary_views_block`.
    dictionary: Shared,
    dictionary_views: Vec<u128>,
    dictionary_views_block: u32,
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

/// The views of PLAIN byte arrays, and what reading them found.
struct PlainViews {
    /// The bytes the values take, lengths included.
    bytes: usize,
    /// Whether a value is longer than 12 bytes (its view points into the data).
    long: bool,
    /// Whether every length is under 128: the lengths' bytes are then ASCII, and the values
    /// are UTF-8 exactly when their bytes with the lengths among them are.
    short_lengths: bool,
}

/// Appends to `out` the views of the `n` byte arrays at the start of `data`, each after its
/// 4-byte length (PLAIN's layout), long ones pointing into block 0 at their offset plus `base`
/// (which the caller keeps under 4 GiB with `data`). If `data` does not hold `n` of them, the
/// error is how many it holds, and `out` is left as it was.
fn plain_views(
    data: &[u8],
    n: usize,
    base: usize,
    out: &mut Vec<u128>,
) -> Result<PlainViews, usize> {
    let first = out.len();
    out.reserve(n.min(data.len() / 4));
    let mut at = 0;
    let mut lengths = 0;
    let mut long = false;
    let mut made = 0;
    // While 16 bytes lie at the value's length prefix, they are its view: a value of at most
    // 12 bytes is those bytes masked past its end; a longer one keeps the length and 4-byte
    // prefix (the low 8 bytes) and takes the block (0) and offset.
    while made < n {
        let Some(word) = data.get(at..).and_then(|d| d.first_chunk::<16>()) else {
            break;
        };
        let word = u128::from_le_bytes(*word);
        let len = word as u32 as usize;
        let end = at + 4 + len;
        if end > data.len() {
            break;
        }
        lengths |= len;
        out.push(if len <= 12 {
            word & (u128::MAX >> (8 * (12 - len)))
        } else {
            long = true;
            u128::from(word as u64) | (u128::from((base + at + 4) as u32) << 96)
        });
        at = end;
        made += 1;
    }
    // The last values, fewer than 16 bytes from the end.
    let tail = data.get(at..).unwrap_or_default();
    let mut rest = LengthPrefixed::new(tail, n - made);
    for (start, end) in rest.by_ref() {
        let value = &tail[start..end];
        lengths |= value.len();
        out.push(if value.len() <= 12 {
            short_view(value)
        } else {
            long = true;
            long_view(value.len() as u32, value, 0, (base + at + start) as u32)
        });
    }
    if rest.left() > 0 {
        let held = out.len() - first;
        out.truncate(first);
        return Err(held);
    }
    at += rest.position();
    Ok(PlainViews {
        bytes: at,
        long,
        short_lengths: lengths < 128,
    })
}

/// Points the long views among `views` into data buffer `block`.
fn move_to_block(views: &mut [u128], block: u32) {
    const BLOCK: u128 = (u32::MAX as u128) << 64;
    for v in views {
        if (*v as u32) > 12 {
            *v = (*v & !BLOCK) | (u128::from(block) << 64);
        }
    }
}

/// The error for a dictionary value that is not UTF-8.
fn dictionary_utf8_error(index: usize, at: usize) -> Fault {
    Fault::corrupt(
        Encoding::Plain,
        "dictionary",
        format!("dictionary value {index} is not valid UTF-8 (invalid byte at offset {at})"),
    )
}

impl Views {
    /// A builder of `data_type`, Utf8View or BinaryView.
    pub(crate) fn new(data_type: DataType) -> Self {
        let utf8 = data_type == DataType::Utf8View;
        Views {
            views: Vec::new(),
            blocks: Vec::new(),
            current: Vec::new(),
            page: None,
            dictionary: Shared::default(),
            dictionary_views: Vec::new(),
            dictionary_views_block: 0,
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
        if self.current.len() + value.len() > BLOCK.max(value.len())
            || self.current.len() > u32::MAX as usize - value.len()
        {
            self.flush_block();
        }
        let offset = self.current.len() as u32;
        self.current.extend_from_slice(value);
        long_view(len, value, self.blocks.len() as u32, offset)
    }

    /// The page `data` lies in and its offset there, where views may point into it: a page a
    /// decoder shares, of at most 4 GiB (so that offsets fit views).
    fn viewable(data: Data<'_>) -> Option<(&Bytes, usize)> {
        data.buffer()
            .filter(|(page, _)| page.len() <= u32::MAX as usize)
    }

    /// The index of `page` among the batch's data buffers, added on first use.
    fn block_of_page(&mut self, page: &Bytes) -> u32 {
        if let Some((held, block)) = &self.page
            && same_buffer(held, page)
        {
            return *block;
        }
        let block = self.add_block(Buffer::from(page.clone()));
        self.page = Some((page.clone(), block));
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

    /// The bytes of data buffer `block` (the block being filled past the others).
    fn block_data(&self, block: usize) -> &[u8] {
        match self.blocks.get(block) {
            Some(b) => b.as_slice(),
            None => &self.current,
        }
    }

    /// Checks that the values of views `from..` are UTF-8. Values of at most 12 bytes are
    /// checked in their view (all-ASCII ones at a glance); longer ones in spans: values lying
    /// in order in one buffer, separated by a few ASCII bytes only (PLAIN's length prefixes of
    /// values under 128 bytes, or nothing), are checked as one span, which is UTF-8 exactly
    /// when each of them is, as an ASCII byte is a character boundary.
    fn check_utf8(&self, from: usize) -> Result<(), Fault> {
        // (block, start, end) of the span being gathered.
        let mut span: Option<(usize, usize, usize)> = None;
        for &v in &self.views[from..] {
            let len = (v as u32) as usize;
            if len <= 12 {
                const HIGH_BITS: u128 = 0x8080_8080_8080_8080_8080_8080 << 32;
                if v & HIGH_BITS != 0 && std::str::from_utf8(&v.to_le_bytes()[4..4 + len]).is_err()
                {
                    return Err(self.first_invalid(from));
                }
                continue;
            }
            let block = ((v >> 64) as u32) as usize;
            let offset = ((v >> 96) as u32) as usize;
            if let Some((b, _, end)) = &mut span
                && *b == block
                && offset >= *end
                && offset - *end <= 8
                && self.boundary_between(block, *end, offset)
            {
                *end = offset + len;
                continue;
            }
            if let Some(done) = span.replace((block, offset, offset + len)) {
                self.validate_span(done, from)?;
            }
        }
        match span {
            Some(done) => self.validate_span(done, from),
            None => Ok(()),
        }
    }

    /// Whether a span of `block` may run on from a value ending at `end` to one starting at
    /// `start` and still split into its values at character boundaries: ASCII bytes between
    /// them, or none and the next value not starting with a continuation byte.
    fn boundary_between(&self, block: usize, end: usize, start: usize) -> bool {
        let data = self.block_data(block);
        match data.get(end..start) {
            Some([]) => data.get(start).is_some_and(|&b| (b as i8) >= -0x40),
            Some(gap) => gap.is_ascii(),
            None => false,
        }
    }

    fn validate_span(
        &self,
        (block, start, end): (usize, usize, usize),
        from: usize,
    ) -> Result<(), Fault> {
        let bytes = self.block_data(block).get(start..end).unwrap_or(&[]);
        if bytes.is_ascii() || std::str::from_utf8(bytes).is_ok() {
            return Ok(());
        }
        Err(self.first_invalid(from))
    }

    /// The error for the first value of views `from..` that is not UTF-8.
    fn first_invalid(&self, from: usize) -> Fault {
        for (i, &v) in self.views.iter().enumerate().skip(from) {
            let len = (v as u32) as usize;
            let inline;
            let bytes = if len <= 12 {
                inline = v.to_le_bytes();
                &inline[4..4 + len]
            } else {
                let block = ((v >> 64) as u32) as usize;
                let offset = ((v >> 96) as u32) as usize;
                self.block_data(block)
                    .get(offset..offset + len)
                    .unwrap_or(&[])
            };
            if let Err(e) = std::str::from_utf8(bytes) {
                return Fault::Utf8 {
                    index: i,
                    valid_up_to: e.valid_up_to(),
                };
            }
        }
        Fault::Utf8 {
            index: from,
            valid_up_to: 0,
        }
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
    /// PLAIN values of a shared page: views made at their offsets in it.
    fn extend_from_prefixed(&mut self, data: Data<'_>, n: usize) -> Option<usize> {
        let Some((page, base)) = Self::viewable(data) else {
            let mut values = LengthPrefixed::new(&data, n);
            self.extend_from_spans(data, &mut values);
            return (values.left() == 0).then_some(values.position());
        };
        let first = self.views.len();
        let read = plain_views(&data, n, base, &mut self.views).ok()?;
        if read.long {
            // Views are made pointing into block 0.
            let block = self.block_of_page(page);
            if block != 0 {
                move_to_block(&mut self.views[first..], block);
            }
        }
        // Checked at once here rather than view by view at the checkpoint.
        if self.utf8
            && self.checked == first
            && read.short_lengths
            && std::str::from_utf8(&data[..read.bytes]).is_ok()
        {
            self.checked = self.views.len();
        }
        Some(read.bytes)
    }
    /// Values of a shared page (DELTA_LENGTH_BYTE_ARRAY's): views made at their offsets in it.
    fn extend_back_to_back(&mut self, data: Data<'_>, lengths: Lengths<'_>) {
        let Some((page, base)) = Self::viewable(data) else {
            for value in lengths.values(&data) {
                self.push(value);
            }
            return;
        };
        if let Lengths::Each(lengths) = lengths {
            self.views.reserve(lengths.len());
        }
        let mut block = None;
        let mut offset = base;
        for value in lengths.values(data.bytes()) {
            let view = match value.len() {
                0..=12 => short_view(value),
                len => {
                    let block = *block.get_or_insert_with(|| self.block_of_page(page));
                    // Within the page, which is at most 4 GiB.
                    long_view(len as u32, value, block, offset as u32)
                }
            };
            self.views.push(view);
            offset += value.len();
        }
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
        if self.utf8 && !trusted {
            self.check_utf8(self.checked)?;
        }
        self.checked = self.views.len();
        Ok(())
    }

    /// The dictionary's views, built once from its PLAIN page (BYTE_ARRAY: each value after
    /// its length), long values pointing into the page; checked for UTF-8 at once where every
    /// length is under 128 (ASCII bytes among the values), value by value otherwise.
    fn take_dictionary_page(&mut self, page: &DictionaryPage) -> Result<bool, Fault> {
        let data = page.data.as_slice();
        if T::TYPE != PhysicalType::ByteArray || data.len() > u32::MAX as usize {
            return Ok(false);
        }
        let entries = page.num_values.min(data.len() / 4);
        ValueBuffer::reset(&mut self.dictionary_views, entries, 0);
        let read = plain_views(data, page.num_values, 0, &mut self.dictionary_views)
            .map_err(|got| short(Encoding::Plain, "dictionary", got, page.num_values))?;
        self.dictionary_views_block = 0;
        let at_once = || read.short_lengths && std::str::from_utf8(&data[..read.bytes]).is_ok();
        if self.utf8 && !at_once() {
            let values = LengthPrefixed::new(data, page.num_values);
            for (index, (start, end)) in values.enumerate() {
                if let Err(e) = std::str::from_utf8(&data[start..end]) {
                    return Err(dictionary_utf8_error(index, e.valid_up_to()));
                }
            }
        }
        self.dictionary = Shared {
            buffer: Some(page.data.clone()),
            block: None,
        };
        Ok(true)
    }

    fn gather(&mut self, indices: &mut IndexDecoder, n: usize) -> Result<usize, Fault> {
        let block = match self.dictionary.block {
            Some(block) => block,
            None => {
                let block = self.add_block(self.dictionary.buffer.clone().unwrap_or_default());
                self.dictionary.block = Some(block);
                block
            }
        };
        // The dictionary's views are pointed at the batch's block before the gather where
        // there are fewer of them than views gathered, the views gathered after it otherwise.
        if self.dictionary_views.len() <= n && self.dictionary_views_block != block {
            move_to_block(&mut self.dictionary_views, block);
            self.dictionary_views_block = block;
        }
        let start = self.views.len();
        reserve_for(&mut self.views, indices, n);
        let got = indices.gather(&self.dictionary_views, &mut self.views, n)?;
        if self.dictionary_views_block != block {
            move_to_block(&mut self.views[start..], block);
        }
        Ok(got)
    }

    fn validate_dictionary(&self, dictionary: &ByteArrays) -> Result<(), Fault> {
        if self.utf8 {
            validate_utf8(dictionary.offsets(), dictionary.data(), |o| o)
                .map_err(|(index, at)| dictionary_utf8_error(index, at))?;
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
        self.page = None;
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
        // buffer its block index names: a page a decoder shared (a `Data`'s bytes lie at their
        // offset in its buffer, which was added as that block), the dictionary page
        // (`take_dictionary_page` found them there; `gather` moves the block index to where the
        // page was added) or a block copied into
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

    /// PLAIN views made 16 bytes at a time where the page has them, one value at a time at its
    /// end: both give each value's own view (inline up to 12 bytes, else length, prefix and
    /// offset from `base`), for every length around 12 and values ending at the page's end.
    #[test]
    fn plain_views_are_each_values_view() {
        let pool: Vec<u8> = (0..400u32).map(|i| (i * 37 + 11) as u8).collect();
        let mut values: Vec<&[u8]> = (0..=40).map(|len| &pool[len..2 * len]).collect();
        values.extend([&pool[..200], &pool[3..16], &pool[..0], &pool[5..9]]);
        let mut data = Vec::new();
        let mut want = Vec::new();
        for v in &values {
            let start = data.len() + 4;
            data.extend_from_slice(&(v.len() as u32).to_le_bytes());
            data.extend_from_slice(v);
            want.push((*v, start));
        }
        for base in [0usize, 7, 1 << 20] {
            let views: Vec<u128> = want
                .iter()
                .map(|&(v, start)| match v.len() {
                    0..=12 => short_view(v),
                    len => long_view(len as u32, v, 0, (base + start) as u32),
                })
                .collect();
            let mut out = vec![7u128];
            let read = plain_views(&data, values.len(), base, &mut out).unwrap();
            assert_eq!(read.bytes, data.len());
            assert!(read.long && !read.short_lengths);
            assert_eq!(out[0], 7);
            assert_eq!(out[1..], views[..], "base {base}");
            // Fewer values than the page holds stop where they end.
            let mut some = Vec::new();
            let read = plain_views(&data, 13, base, &mut some).unwrap();
            assert_eq!(some, views[..13]);
            assert_eq!(read.bytes, want[13].1 - 4);
            // A page one byte short holds all values but the last, and leaves `out` alone.
            let mut out = vec![7u128];
            let short = &data[..data.len() - 1];
            let held = plain_views(short, values.len(), base, &mut out).err();
            assert_eq!((held, out), (Some(values.len() - 1), vec![7u128]));
        }
    }

    /// PLAIN values of a page: views into it, UTF-8 checked in spans, the first bad value
    /// named; values back to back that split a character are each invalid, though their
    /// bytes together are UTF-8.
    #[test]
    fn utf8_is_checked_in_spans() {
        let long = "a long value, with é, of 200 bytes ".repeat(6);
        let plain = |values: &[&[u8]]| -> Bytes {
            let mut page = Vec::new();
            for v in values {
                page.extend_from_slice(&(v.len() as u32).to_le_bytes());
                page.extend_from_slice(v);
            }
            Bytes::from(page)
        };
        let good: [&[u8]; 6] = [
            b"short",
            "é, inline".as_bytes(),
            b"a long value number one",
            long.as_bytes(),
            "another long value, ü".as_bytes(),
            b"x",
        ];
        let read = |page: &Bytes, n: usize| {
            let mut b = Views::new(DataType::Utf8View);
            assert_eq!(
                b.extend_from_prefixed(Data::from(page), n),
                Some(page.len())
            );
            assert!(
                b.views
                    .iter()
                    .all(|&v| v as u32 <= 12 || (v >> 64) as u32 == 0)
            );
            let checked = Builder::<ByteArrayType>::checkpoint(&mut b, false);
            (b, checked)
        };
        let (mut b, checked) = read(&plain(&good), 6);
        checked.unwrap();
        let a = Builder::<ByteArrayType>::finish(&mut b, 6, None).unwrap();
        let want: Vec<&str> = good
            .iter()
            .map(|v| std::str::from_utf8(v).unwrap())
            .collect();
        assert_eq!(a.as_string_view(), &StringViewArray::from(want));

        for bad in [3, 4, 1] {
            let mut values = good;
            let broken = [good[bad], b"\xFF"].concat();
            values[bad] = &broken;
            let (_, checked) = read(&plain(&values), 6);
            match checked {
                Err(Fault::Utf8 { index, valid_up_to }) => {
                    assert_eq!((index, valid_up_to), (bad, good[bad].len()));
                }
                other => panic!("value {bad}: {other:?}"),
            }
        }

        // Every length under 128: the page's bytes checked at once, then value by value.
        let short: [&[u8]; 3] = [
            b"short",
            b"a long value number one",
            b"a bad long value \xFF",
        ];
        let (_, checked) = read(&plain(&short), 3);
        assert!(matches!(
            checked,
            Err(Fault::Utf8 {
                index: 2,
                valid_up_to: 17
            })
        ));
        let (_, checked) = read(&plain(&short[..2]), 2);
        checked.unwrap();

        // Shared (views into the page) or pushed (copied back to back).
        let page = Bytes::from_static(b"abcdefghijklm\xC3\xA9bcdefghijklmn");
        for shared in [true, false] {
            let mut b = Views::new(DataType::Utf8View);
            if shared {
                b.extend_back_to_back(Data::from(&page), Lengths::Each(&[14, 15]));
                assert_eq!(b.blocks.len(), 1);
            } else {
                b.push(&page[..14]);
                b.push(&page[14..]);
                assert!(b.blocks.is_empty());
            }
            assert!(matches!(
                Builder::<ByteArrayType>::checkpoint(&mut b, false),
                Err(Fault::Utf8 {
                    index: 0,
                    valid_up_to: 13
                })
            ));
        }
    }

    /// A dictionary page taken as it is: views into it, gathered by index; a value that is
    /// not UTF-8 is named (lengths under 128 or not), a short page reported.
    #[test]
    fn dictionary_views_point_into_the_page() {
        let long = "é".repeat(70);
        let page_of = |values: &[&[u8]], num_values: usize| {
            let mut data = Vec::new();
            for v in values {
                data.extend_from_slice(&(v.len() as u32).to_le_bytes());
                data.extend_from_slice(v);
            }
            DictionaryPage {
                data: Buffer::from_vec(data),
                num_values,
                encoding: Encoding::Plain,
            }
        };
        let values: [&[u8]; 4] = [b"tiny", b"longer than twelve", long.as_bytes(), b""];
        let page = page_of(&values, 4);
        let mut b = Views::new(DataType::Utf8View);
        assert!(Builder::<ByteArrayType>::take_dictionary_page(&mut b, &page).unwrap());
        // Bit width 2, one bit-packed group of 8: 3 1 0 2 3 3 0 1.
        let indices = [2u8, 0b11, 0b1000_0111, 0b0100_1111];
        let mut d = IndexDecoder::with_encoding(
            bytes::Bytes::copy_from_slice(&indices),
            8,
            4,
            Encoding::RleDictionary,
        )
        .unwrap();
        b.push(b"first, from a page");
        assert_eq!(
            Builder::<ByteArrayType>::gather(&mut b, &mut d, 8).unwrap(),
            8
        );
        Builder::<ByteArrayType>::checkpoint(&mut b, true).unwrap();
        let a = Builder::<ByteArrayType>::finish(&mut b, 9, None).unwrap();
        let mut want = vec!["first, from a page"];
        want.extend([3, 1, 0, 2, 3, 3, 0, 1].map(|k| std::str::from_utf8(values[k]).unwrap()));
        assert_eq!(a.as_string_view(), &StringViewArray::from(want));
        let long_view = a.as_string_view().views()[2];
        let block = a.as_string_view().data_buffers()[(long_view >> 64) as u32 as usize].as_ptr();
        assert_eq!(block, page.data.as_ptr(), "long values point into the page");

        for bad in [1, 2] {
            let mut broken = values;
            let bytes = [values[bad], b"\xC3"].concat();
            broken[bad] = &bytes;
            let mut b = Views::new(DataType::Utf8View);
            let err = Builder::<ByteArrayType>::take_dictionary_page(&mut b, &page_of(&broken, 4));
            let message = format!("{:?}", err.unwrap_err());
            assert!(message.contains(&format!("dictionary value {bad} is not valid UTF-8")));
            // Binary values are not checked.
            let mut b = Views::new(DataType::BinaryView);
            assert!(
                Builder::<ByteArrayType>::take_dictionary_page(&mut b, &page_of(&broken, 4))
                    .unwrap()
            );
        }
        let err = Builder::<ByteArrayType>::take_dictionary_page(&mut b, &page_of(&values, 5));
        assert!(format!("{:?}", err.unwrap_err()).contains("4 values where 5 were expected"));
    }

    /// The dictionary page is a different data buffer from batch to batch: each batch's views
    /// point into it, whether the dictionary's views were pointed at it before the gather (no
    /// more of them than views gathered) or the gathered views after.
    #[test]
    fn dictionary_views_follow_the_page_from_batch_to_batch() {
        let values: [&str; 4] = [
            "the first long dictionary value",
            "short",
            "the third long dictionary value",
            "the fourth, long as well",
        ];
        let mut data = Vec::new();
        for v in values {
            data.extend_from_slice(&(v.len() as u32).to_le_bytes());
            data.extend_from_slice(v.as_bytes());
        }
        let page = DictionaryPage {
            data: Buffer::from_vec(data),
            num_values: 4,
            encoding: Encoding::Plain,
        };
        let mut b = Views::new(DataType::Utf8View);
        assert!(Builder::<ByteArrayType>::take_dictionary_page(&mut b, &page).unwrap());
        // Bit width 2, one bit-packed group of 8: 3 1 0 2 3 3 0 1.
        let indices = [2u8, 0b11, 0b1000_0111, 0b0100_1111];
        let keys = [3, 1, 0, 2, 3, 3, 0, 1];
        // (a copied value first, so that the dictionary is block 1; values gathered)
        for (copied_first, gathered) in [(true, 8), (false, 8), (true, 2), (false, 8), (true, 3)] {
            let mut want = Vec::new();
            if copied_first {
                b.push(b"a copied value, longer than twelve bytes");
                want.push("a copied value, longer than twelve bytes");
            }
            let mut d = IndexDecoder::with_encoding(
                bytes::Bytes::copy_from_slice(&indices),
                8,
                4,
                Encoding::RleDictionary,
            )
            .unwrap();
            let got = Builder::<ByteArrayType>::gather(&mut b, &mut d, gathered).unwrap();
            assert_eq!(got, gathered);
            want.extend(keys[..gathered].iter().map(|&k| values[k]));
            Builder::<ByteArrayType>::checkpoint(&mut b, true).unwrap();
            let a = Builder::<ByteArrayType>::finish(&mut b, want.len(), None).unwrap();
            a.to_data().validate_full().unwrap();
            assert_eq!(a.as_string_view(), &StringViewArray::from(want));
        }
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
