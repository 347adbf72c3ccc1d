//! Byte arrays into Arrow's offset layouts: Binary, LargeBinary, Utf8 and LargeUtf8, with
//! UTF-8 validated page by page for the string types.

use arrow_array::{ArrayRef, OffsetSizeTrait, make_array};
use arrow_buffer::{Buffer, NullBuffer};
use arrow_data::ArrayDataBuilder;
use arrow_schema::DataType;
use pqcodec_core::{ByteArrays, Data, Encoding, GROWN_SLACK, Lengths, Sink};

use super::Builder;
use super::borrow::Borrower;
use super::spread::{check, spread_offsets};
use crate::error::Fault;

/// Checks that the values `data[offsets[i]..offsets[i + 1]]` are all UTF-8: the bytes as a
/// whole, and every value starting on a character boundary. On failure returns the first bad
/// value's position among `offsets` and the length of its valid prefix.
///
/// Offsets are expected in order; any offset past `data` makes a value invalid (empty bytes
/// are read for it, and it is only reported if its neighbours fail).
pub(crate) fn validate_utf8<O: Copy>(
    offsets: &[O],
    data: &[u8],
    as_usize: impl Fn(O) -> usize,
) -> Result<(), (usize, usize)> {
    let (Some(&start), Some(&end)) = (offsets.first(), offsets.last()) else {
        return Ok(());
    };
    let (start, end) = (as_usize(start), as_usize(end));
    let bytes = data.get(start..end).unwrap_or(&[]);
    // ASCII bytes are UTF-8 and every position between them is a character boundary.
    if bytes.is_ascii() {
        return Ok(());
    }
    let whole = std::str::from_utf8(bytes);
    // A value starting with a continuation byte splits a character with the one before.
    let boundaries_ok = || {
        offsets.iter().all(|&o| {
            let o = as_usize(o);
            o == end || data.get(o).is_none_or(|&b| (b as i8) >= -0x40)
        })
    };
    if whole.is_ok() && boundaries_ok() {
        return Ok(());
    }
    // Slow path: find the first bad value.
    for (i, w) in offsets.windows(2).enumerate() {
        let value = data.get(as_usize(w[0])..as_usize(w[1])).unwrap_or(&[]);
        if let Err(e) = std::str::from_utf8(value) {
            return Err((i, e.valid_up_to()));
        }
    }
    Err((0, 0))
}

/// Byte arrays as Arrow Binary / Utf8 with `O` offsets.
///
/// Values whose bytes lie back to back in the current page (DELTA_LENGTH_BYTE_ARRAY) are not
/// copied: the batch keeps a slice of the page ([`Borrower`]) until some other append needs
/// its bytes in `data` ([`OffsetBytes::own`]), and an array of such a batch shares the page.
///
/// Invariants the unchecked array construction in [`Builder::finish`] relies on: `offsets`
/// starts at 0, never decreases and never passes the bytes' length ([`OffsetBytes::bytes`]:
/// offsets are only pushed as the current length, or as the last offset again when that
/// does not fit `O`); for
/// the string types, the values before `checked` are UTF-8 (validated by
/// [`Builder::checkpoint`], or `trusted` because they were copied out of a dictionary that
/// [`Builder::validate_dictionary`] accepted), and `finish` validates the rest itself.
pub(crate) struct OffsetBytes<O: OffsetSizeTrait> {
    offsets: Vec<O>,
    /// The values' bytes, when copied; empty while some are borrowed.
    data: Vec<u8>,
    /// The values' bytes, when they are a slice of the current page.
    borrower: Borrower,
    data_type: DataType,
    utf8: bool,
    /// Values already validated (or trusted).
    checked: usize,
    overflow: bool,
}

impl<O: OffsetSizeTrait> OffsetBytes<O> {
    /// A builder of `data_type`: Binary, Utf8 (O = i32), LargeBinary or LargeUtf8 (O = i64).
    pub(crate) fn new(data_type: DataType) -> Self {
        let utf8 = matches!(data_type, DataType::Utf8 | DataType::LargeUtf8);
        OffsetBytes {
            offsets: vec![O::zero()],
            data: Vec::new(),
            borrower: Borrower::default(),
            data_type,
            utf8,
            checked: 0,
            overflow: false,
        }
    }

    fn values(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The values' bytes, copied or borrowed.
    fn bytes(&self) -> &[u8] {
        self.borrower.bytes().unwrap_or(&self.data)
    }

    /// Copies borrowed bytes into `data`, before an append that copies.
    #[inline]
    fn own(&mut self) {
        if let Some(borrowed) = self.borrower.take() {
            self.data.extend_from_slice(&borrowed);
        }
    }

    #[inline]
    fn end_value(&mut self) {
        match O::from_usize(self.data.len()) {
            Some(o) => self.offsets.push(o),
            None => {
                self.overflow = true;
                let last = self.offsets.last().copied().unwrap_or_else(O::zero);
                self.offsets.push(last);
            }
        }
    }

    /// Makes room in `data` for `bytes` bytes (`count` values more to come in them) and one
    /// wide copy past them, growing it to what the values reserved for ([`Sink::reserve`], the
    /// offsets' capacity) are projected to take at the bytes per value so far (and 1/32 more),
    /// and by an eighth at least: a batch gathered a chunk at a time takes about its bytes, not
    /// up to twice them as by doubling.
    fn grow_data(&mut self, bytes: usize, count: usize) {
        let capacity = self.data.capacity();
        let need = bytes + WIDEST_COPY;
        if need <= capacity {
            return;
        }
        let values = (self.values() + count).max(1);
        let expected = self.offsets.capacity().saturating_sub(1).max(values);
        let projected = bytes.saturating_mul(expected) / values;
        let projected = projected.saturating_add(projected / 32 + WIDEST_COPY);
        let target = need
            .max(projected)
            .max(capacity.saturating_add(capacity / 8));
        self.data.reserve_exact(target - self.data.len());
    }

    /// Makes `data` long enough to write the values up to `bytes` bytes and a wide copy past
    /// them, the values holding `end` bytes so far and about `more` values to come after:
    /// grows it ([`OffsetBytes::grow_data`]) and zero-fills, for appends to write into, room
    /// for those values at the bytes per value so far (at least [`MIN_ROOM`], at most the
    /// capacity). Filling to the capacity instead would zero it again on every call.
    #[cold]
    fn make_room(&mut self, end: usize, bytes: usize, more: usize) {
        self.data.truncate(end);
        self.grow_data(bytes, 1);
        let per_value = bytes / (self.values() + 1);
        let ahead = more.saturating_mul(per_value + per_value / 8).max(MIN_ROOM);
        let room = bytes.saturating_add(ahead).min(self.data.capacity());
        self.data.resize(room.max(bytes + WIDEST_COPY), 0);
    }

    /// Validates the UTF-8 of the values from `checked` on.
    fn validate_unchecked(&self) -> Result<(), Fault> {
        let offsets = self.offsets.get(self.checked..).unwrap_or(&[]);
        validate_utf8(offsets, self.bytes(), |o: O| o.as_usize()).map_err(|(index, valid_up_to)| {
            Fault::Utf8 {
                index: self.checked + index,
                valid_up_to,
            }
        })
    }
}

impl<O: OffsetSizeTrait> Sink<[u8]> for OffsetBytes<O> {
    fn reserve(&mut self, additional: usize) {
        self.offsets.reserve_exact(additional);
    }
    fn reserve_bytes(&mut self, additional: usize) {
        // Not before the first bytes: they may be borrowed.
        if !self.data.is_empty() {
            self.data.reserve(additional);
        }
    }
    #[inline]
    fn push(&mut self, value: &[u8]) {
        self.own();
        self.data.extend_from_slice(value);
        self.end_value();
    }
    fn push_repeated(&mut self, value: &[u8], count: usize) {
        self.own();
        let (base, len) = (self.data.len(), value.len());
        let total = len.saturating_mul(count);
        if base.checked_add(total).and_then(O::from_usize).is_none() {
            // Some offset overflows `O`: value by value, the overflow recorded.
            for _ in 0..count {
                self.push(value);
            }
            return;
        }
        // Every offset fits `O`: the bytes in one go, then the offsets in one extend.
        self.grow_data(base + total, count);
        match value {
            [byte] => self.data.resize(base + count, *byte),
            _ => (0..count).for_each(|_| self.data.extend_from_slice(value)),
        }
        self.offsets
            .extend((1..=count).map(|i| O::usize_as(base + i * len)));
    }
    fn extend_from_spans<I: IntoIterator<Item = (usize, usize)>>(
        &mut self,
        data: Data<'_>,
        spans: I,
    ) {
        self.own();
        let data = data.bytes();
        let mut spans = spans.into_iter();
        self.offsets.reserve(spans.size_hint().0);
        // One pass: each value copied wide into room zero-filled ahead (`data` is kept longer
        // than the values meanwhile) and its offset pushed. An offset past `O` sends the rest
        // one by one, the overflow recorded.
        let mut end_of = self.data.len();
        while let Some((start, end)) = spans.next() {
            let Some(len) = end.checked_sub(start).filter(|_| end <= data.len()) else {
                self.data.truncate(end_of);
                return;
            };
            let next = end_of + len;
            let Some(offset) = O::from_usize(next) else {
                self.data.truncate(end_of);
                self.push(&data[start..end]);
                for (start, end) in spans {
                    let Some(value) = data.get(start..end) else {
                        return;
                    };
                    self.push(value);
                }
                return;
            };
            if next + WIDEST_COPY > self.data.len() {
                let (least, most) = spans.size_hint();
                self.make_room(end_of, next, most.unwrap_or(least));
            }
            copy_value(&mut self.data, end_of, data, start, len);
            end_of = next;
            self.offsets.push(offset);
        }
        self.data.truncate(end_of);
    }
    fn extend_back_to_back(&mut self, data: Data<'_>, lengths: Lengths<'_>) {
        let base = self.bytes().len();
        let fits = base
            .checked_add(data.len())
            .and_then(O::from_usize)
            .is_some();
        let lengths = match lengths {
            Lengths::Each(lengths) if fits => lengths,
            // Fixed widths, or some offset past `O`: value by value (the overflow recorded).
            other => {
                for value in other.values(&data) {
                    self.push(value);
                }
                return;
            }
        };
        // Every offset is at most `base + data.len()`, which fits `O`.
        self.offsets.reserve(lengths.len());
        self.offsets
            .extend(Lengths::ends_within(lengths, data.len()).map(|end| O::usize_as(base + end)));
        let end = self.offsets.last().map_or(0, |end| end.as_usize() - base);
        let bytes = data.slice(0..end);
        if !self.borrower.borrow(bytes, 1, self.data.is_empty()) {
            self.own();
            self.data.extend_from_slice(&bytes);
        }
    }
    fn extend_in_place<F: FnOnce(&mut [u8])>(
        &mut self,
        lengths: &[u32],
        write: F,
    ) -> Result<(), F> {
        let total = lengths
            .iter()
            .fold(0usize, |total, &len| total.saturating_add(len as usize));
        self.own();
        let base = self.data.len();
        if base.checked_add(total).and_then(O::from_usize).is_none() {
            // Some offset may overflow `O`: the caller appends value by value.
            return Err(write);
        }
        // The values written where they end up, then their offsets (each at most
        // `base + total`, which fits `O`).
        self.offsets.reserve(lengths.len());
        self.grow_data(base + total, lengths.len());
        self.data.resize(base + total + GROWN_SLACK, 0);
        write(self.data.get_mut(base..).unwrap_or_default());
        self.data.truncate(base + total);
        let mut at = base;
        self.offsets.extend(lengths.iter().map(|&len| {
            at += len as usize;
            O::usize_as(at)
        }));
        Ok(())
    }
}

/// The widest copy [`copy_value`] makes, and the room past the values that
/// [`OffsetBytes::grow_data`] leaves for it (or for [`Sink::extend_in_place`]'s writer).
const WIDEST_COPY: usize = 64;

/// The fewest bytes past a value that [`OffsetBytes::make_room`] zero-fills, so that a few
/// values do not each make room.
const MIN_ROOM: usize = 4096;
const _: () = assert!(GROWN_SLACK <= WIDEST_COPY);

/// Copies `src[start..start + len]` to `dst[at..]`: a value of at most [`WIDEST_COPY`] bytes
/// as `len` rounded up to 16 bytes where both sides have the room (the bytes past `len` are
/// overwritten by the next value or truncated), others exactly.
#[inline(always)]
fn copy_value(dst: &mut [u8], at: usize, src: &[u8], start: usize, len: usize) {
    if len <= WIDEST_COPY
        && let (Some(d), Some(s)) = (
            dst.get_mut(at..at + WIDEST_COPY),
            src.get(start..start + WIDEST_COPY),
        )
    {
        // One move of a fixed size (16, 32, 48 or 64 bytes), never a call to memcpy.
        match len.div_ceil(16) {
            0 | 1 => d[..16].copy_from_slice(&s[..16]),
            2 => d[..32].copy_from_slice(&s[..32]),
            3 => d[..48].copy_from_slice(&s[..48]),
            _ => d.copy_from_slice(s),
        }
        return;
    }
    if let (Some(d), Some(s)) = (dst.get_mut(at..at + len), src.get(start..start + len)) {
        d.copy_from_slice(s);
    }
}

impl<T, O> Builder<T> for OffsetBytes<O>
where
    T: pqcodec_core::Binary,
    O: OffsetSizeTrait,
{
    fn len(&self) -> usize {
        self.values()
    }

    fn take_fault(&mut self) -> Option<Fault> {
        if std::mem::take(&mut self.overflow) {
            return Some(Fault::corrupt(
                Encoding::Plain,
                "values",
                format!(
                    "the batch holds more bytes than {} offsets can address",
                    self.data_type
                ),
            ));
        }
        None
    }

    fn checkpoint(&mut self, trusted: bool) -> Result<(), Fault> {
        let n = self.values();
        if self.utf8 && !trusted && self.checked < n {
            self.validate_unchecked()?;
        }
        self.checked = n;
        Ok(())
    }

    fn validate_dictionary(&self, dictionary: &ByteArrays) -> Result<(), Fault> {
        if self.utf8 {
            validate_utf8(dictionary.offsets(), dictionary.data(), |o| o).map_err(
                |(index, valid_up_to)| {
                    Fault::corrupt(
                        Encoding::Plain,
                        "dictionary",
                        format!(
                            "dictionary value {index} is not valid UTF-8 (invalid byte at offset {valid_up_to})"
                        ),
                    )
                },
            )?;
        }
        Ok(())
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        if let Some(fault) = Builder::<T>::take_fault(self) {
            return Err(fault);
        }
        check(self.values(), slots, validity.as_ref())?;
        if self.utf8 && self.checked < self.values() {
            self.validate_unchecked()?;
        }
        let nulls = validity.filter(|v| v.null_count() > 0);
        let dense = std::mem::replace(&mut self.offsets, vec![O::zero()]);
        let offsets = match &nulls {
            Some(v) => spread_offsets(&dense, v),
            None => dense,
        };
        let data = match self.borrower.take() {
            Some(borrowed) => borrowed,
            None => Buffer::from_vec(std::mem::take(&mut self.data)),
        };
        self.checked = 0;
        let builder = ArrayDataBuilder::new(self.data_type.clone())
            .len(slots)
            .add_buffer(Buffer::from_vec(offsets))
            .add_buffer(data)
            .nulls(nulls);
        // SAFETY: what `build` would check holds by the type's invariants (see the struct
        // doc): `len + 1` offsets (`check` above: one value per valid slot; spreading adds one
        // repeated offset per null slot), starting at 0, never decreasing and never past the
        // data; the null buffer is `slots` long (`check`); for Utf8 / LargeUtf8, every value
        // before `checked` is UTF-8 and the rest were validated just above, so every value
        // is valid UTF-8 on its own.
        let array = unsafe { builder.build_unchecked() };
        Ok(make_array(array))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::{Array, LargeStringArray, StringArray};
    use bytes::Bytes;
    use pqcodec_core::{ByteArrayType, Decoder, Encoder};
    use pqcodec_encodings::delta_byte_array::{DeltaByteArrayDecoder, DeltaByteArrayEncoder};
    use pqcodec_encodings::plain::{PlainDecoder, PlainEncoder};

    /// Bytes of the current page are borrowed while appends continue where the last ended,
    /// copied once anything else is appended, and the array is the same either way; a batch
    /// of borrowed bytes shares the page's memory.
    #[test]
    fn page_bytes_are_borrowed_until_an_append_copies() {
        let page = Bytes::from_static(b"abcdefghijklmnopqrstuvwxyz");
        let bytes = &page[..];
        let build = |borrow: bool, push_between: bool| {
            let mut b = OffsetBytes::<i32>::new(DataType::Utf8);
            let data = |range: std::ops::Range<usize>| match borrow {
                true => Data::in_buffer(&page, range),
                false => Data::from(&bytes[range]),
            };
            b.extend_back_to_back(data(0..5), Lengths::Each(&[2, 3]));
            b.extend_back_to_back(data(5..9), Lengths::Each(&[0, 4]));
            let was_borrowed = b.borrower.bytes().is_some();
            if push_between {
                b.push(b"XY");
            }
            // Not where the last append ended: copied.
            b.extend_back_to_back(data(20..21), Lengths::Each(&[1]));
            Builder::<ByteArrayType>::checkpoint(&mut b, false).unwrap();
            let slots = b.values();
            let array = Builder::<ByteArrayType>::finish(&mut b, slots, None).unwrap();
            (array, was_borrowed)
        };
        for push_between in [false, true] {
            let (copied, was) = build(false, push_between);
            assert!(!was);
            let (borrowed, was) = build(true, push_between);
            assert!(was);
            assert_eq!(copied.as_string::<i32>(), borrowed.as_string::<i32>());
        }

        let mut b = OffsetBytes::<i32>::new(DataType::Utf8);
        b.extend_back_to_back(Data::in_buffer(&page, 3..8), Lengths::Each(&[2, 3]));
        let array = Builder::<ByteArrayType>::finish(&mut b, 2, None).unwrap();
        let strings = array.as_string::<i32>();
        assert_eq!(
            strings.iter().collect::<Vec<_>>(),
            [Some("de"), Some("fgh")]
        );
        assert_eq!(
            strings.values().as_ptr(),
            bytes[3..].as_ptr(),
            "shares the page"
        );

        // Invalid UTF-8 in borrowed bytes is still found.
        let bad = Bytes::from(vec![b'a', 0xFF]);
        let mut b = OffsetBytes::<i32>::new(DataType::Utf8);
        b.extend_back_to_back(Data::from(&bad), Lengths::Each(&[1, 1]));
        assert!(matches!(
            Builder::<ByteArrayType>::checkpoint(&mut b, false),
            Err(Fault::Utf8 { index: 1, .. })
        ));
    }

    /// Spans of every length from 0 to 130 ending anywhere up to the data's last byte (so
    /// each wide-copy width with and without room) give what pushing them one by one gives;
    /// a span outside the data stops the append.
    #[test]
    fn spans_append_as_pushes() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut spans = Vec::new();
        for len in 0..=130 {
            for end in [len, len + 1, data.len() - 17, data.len() - 1, data.len()] {
                if end >= len && end <= data.len() {
                    spans.push((end - len, end));
                }
            }
        }
        let mut bulk = OffsetBytes::<i32>::new(DataType::Binary);
        bulk.push(b"first");
        bulk.extend_from_spans(Data::from(&data), spans.iter().copied());
        let mut one = OffsetBytes::<i32>::new(DataType::Binary);
        one.push(b"first");
        for &(start, end) in &spans {
            one.push(&data[start..end]);
        }
        assert_eq!(bulk.offsets, one.offsets);
        assert_eq!(bulk.data, one.data);

        let mut short = OffsetBytes::<i64>::new(DataType::LargeBinary);
        short.extend_from_spans(Data::from(&data), [(0, 3), (5, 301), (1, 2)]);
        assert_eq!(short.offsets, [0, 3]);
        assert_eq!(short.data, &data[..3]);
    }

    /// DELTA_BYTE_ARRAY values with prefixes and suffixes of 0 to about 260 bytes (built in
    /// registers or copied by the decoder, in place in the builder's bytes) read in chunks of
    /// 1 to 300: the same values as pushing them one by one.
    #[test]
    fn delta_values_are_built_in_place_as_pushed() {
        let mut rng = pqcodec_testkit::Rng::new(7);
        let mut next = |below: usize| rng.below(below);
        let mut values: Vec<Vec<u8>> = Vec::new();
        for _ in 0..2000 {
            let before = values.last().cloned().unwrap_or_default();
            let (prefix, suffix) = (next(before.len() + 1), next(131));
            let mut value = before[..prefix].to_vec();
            value.extend((0..suffix).map(|_| next(256) as u8));
            values.push(value);
        }
        let mut encoder = DeltaByteArrayEncoder::<ByteArrayType>::new(ByteArrayType);
        encoder.put(values.iter().map(Vec::as_slice)).unwrap();
        let page = Bytes::from(encoder.flush().unwrap());
        let mut decoder =
            DeltaByteArrayDecoder::<ByteArrayType>::new(page, values.len(), ByteArrayType).unwrap();
        let mut bulk = OffsetBytes::<i32>::new(DataType::Binary);
        bulk.push(b"first");
        while decoder.remaining() > 0 {
            let n = 1 + next(300);
            decoder.read(&mut bulk, n).unwrap();
        }
        let got: Vec<&[u8]> = bulk
            .offsets
            .windows(2)
            .map(|w| &bulk.data[w[0] as usize..w[1] as usize])
            .collect();
        assert_eq!(got[0], b"first");
        assert_eq!(
            got[1..],
            values.iter().map(Vec::as_slice).collect::<Vec<_>>()
        );
    }

    /// Values of 3 to 7 bytes gathered 256 at a time into a batch reserved for 8192: the
    /// bytes grow to about what they hold, where doubling could leave up to twice that.
    #[test]
    fn gathered_bytes_take_about_their_size() {
        let data: Vec<u8> = (0..64u8).collect();
        let spans: Vec<(usize, usize)> = (0..8192).map(|i| (i % 50, i % 50 + 3 + i % 5)).collect();
        let total: usize = spans.iter().map(|(s, e)| e - s).sum();
        let mut b = OffsetBytes::<i32>::new(DataType::Binary);
        Sink::<[u8]>::reserve(&mut b, spans.len());
        for chunk in spans.chunks(256) {
            b.extend_from_spans(Data::from(&data), chunk.iter().copied());
        }
        assert_eq!(b.data.len(), total);
        assert!(
            b.data.capacity() <= total + total / 15 + WIDEST_COPY,
            "{} for {total}",
            b.data.capacity()
        );
        // Values that turn longer than the first chunk's grow the buffer an eighth at least.
        let mut long = OffsetBytes::<i32>::new(DataType::Binary);
        Sink::<[u8]>::reserve(&mut long, 1024);
        long.extend_from_spans(Data::from(&data), [(0, 1); 256]);
        let first = long.data.capacity();
        long.extend_from_spans(Data::from(&data), [(0, 8); 768]);
        assert!(long.data.capacity() >= first + first / 8);
        assert!(long.data.capacity() >= 256 + 8 * 768 + WIDEST_COPY);
    }

    /// `values` PLAIN-encoded: each after its 4-byte little-endian length.
    fn prefixed<'v>(values: impl IntoIterator<Item = &'v [u8]>) -> Vec<u8> {
        let mut plain = PlainEncoder::<ByteArrayType>::new(ByteArrayType);
        plain.put(values).unwrap();
        plain.flush().unwrap()
    }

    /// Reads `n` values of the PLAIN page `data` into `b`.
    fn read_plain<O: OffsetSizeTrait>(
        b: &mut OffsetBytes<O>,
        data: &[u8],
        n: usize,
    ) -> Result<usize, pqcodec_core::Error> {
        let mut decoder =
            PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(data), n, ByteArrayType)?;
        decoder.read(b, n)
    }

    /// PLAIN values of every length from 0 to 130 (each wide-copy width, the last ending at
    /// the page's last byte) give what pushing them gives, read in one call or two; a bad
    /// length is an error with at most the values before it appended.
    #[test]
    fn plain_values_append_as_pushes() {
        let pool: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        let values: Vec<&[u8]> = (0..=130).map(|len| &pool[len..2 * len]).collect();
        let data = prefixed(values.iter().copied());
        let mut one = OffsetBytes::<i32>::new(DataType::Binary);
        one.push(b"first");
        for v in &values {
            one.push(v);
        }
        for split in [0, 1, 64, values.len()] {
            let mut bulk = OffsetBytes::<i32>::new(DataType::Binary);
            bulk.push(b"first");
            let mut decoder = PlainDecoder::<ByteArrayType>::new(
                Bytes::copy_from_slice(&data),
                values.len(),
                ByteArrayType,
            )
            .unwrap();
            assert_eq!(decoder.read(&mut bulk, split), Ok(split));
            assert_eq!(
                decoder.read(&mut bulk, values.len()),
                Ok(values.len() - split)
            );
            assert_eq!(
                (&bulk.offsets, &bulk.data),
                (&one.offsets, &one.data),
                "split {split}"
            );
        }

        // The last value's length one past the end, or the length itself cut short.
        let mut bad = data.clone();
        let last = data.len() - 130 - 4;
        bad[last..last + 4].copy_from_slice(&131u32.to_le_bytes());
        for (data, n) in [(&bad[..], values.len()), (&data[..last + 3], values.len())] {
            let mut b = OffsetBytes::<i64>::new(DataType::LargeBinary);
            b.push(b"first");
            assert!(read_plain(&mut b, data, n).is_err());
            assert!(b.values() <= values.len());
            assert_eq!(b.offsets[1], 5);
        }
    }

    /// A batch reserved for 8192 values, read from pages a few hundred values at a time,
    /// takes about its bytes.
    #[test]
    fn plain_bytes_take_about_their_size() {
        let pool: Vec<u8> = (0..64u8).collect();
        let values: Vec<&[u8]> = (0..8192)
            .map(|i| &pool[i % 50..i % 50 + 3 + i % 5])
            .collect();
        let total: usize = values.iter().map(|v| v.len()).sum();
        let mut b = OffsetBytes::<i32>::new(DataType::Binary);
        Sink::<[u8]>::reserve(&mut b, values.len());
        for page in values.chunks(300) {
            let data = prefixed(page.iter().copied());
            assert_eq!(read_plain(&mut b, &data, page.len()), Ok(page.len()));
        }
        assert_eq!(b.data.len(), total);
        assert!(
            b.data.capacity() <= total + total / 15 + WIDEST_COPY,
            "{} for {total}",
            b.data.capacity()
        );
    }

    #[test]
    fn strings_with_nulls() {
        let mut b = OffsetBytes::<i32>::new(DataType::Utf8);
        b.push(b"h\xC3\xA9");
        b.push_repeated(b"ab", 2);
        Builder::<ByteArrayType>::checkpoint(&mut b, false).unwrap();
        let validity = NullBuffer::from(vec![false, true, true, false, true]);
        let a = Builder::<ByteArrayType>::finish(&mut b, 5, Some(validity)).unwrap();
        let expect = StringArray::from(vec![None, Some("hé"), Some("ab"), None, Some("ab")]);
        assert_eq!(a.as_string::<i32>(), &expect);
        // The builder starts over.
        assert_eq!(Builder::<ByteArrayType>::len(&b), 0);
    }

    /// A run of one value, of one byte, none or several, after copied and borrowed values.
    #[test]
    fn repeated_values_in_one_go() {
        let mut b = OffsetBytes::<i64>::new(DataType::LargeUtf8);
        let page = Bytes::from_static(b"xyz");
        b.extend_back_to_back(Data::from(&page), Lengths::Each(&[2, 1]));
        b.push_repeated(b"", 3);
        b.push_repeated(b"y", 4);
        b.push_repeated(b"abc", 2);
        b.push(b"!");
        Builder::<ByteArrayType>::checkpoint(&mut b, false).unwrap();
        let a = Builder::<ByteArrayType>::finish(&mut b, 12, None).unwrap();
        let want = ["xy", "z", "", "", "", "y", "y", "y", "y", "abc", "abc", "!"];
        assert_eq!(a.as_string::<i64>(), &LargeStringArray::from(want.to_vec()));
        assert_eq!(Builder::<ByteArrayType>::len(&b), 0);
    }

    #[test]
    fn invalid_utf8_names_the_value() {
        let mut b = OffsetBytes::<i64>::new(DataType::LargeUtf8);
        b.push(b"ok");
        Builder::<ByteArrayType>::checkpoint(&mut b, false).unwrap();
        b.push(b"fine");
        b.push(b"ab\xFFcd");
        match Builder::<ByteArrayType>::checkpoint(&mut b, false) {
            Err(Fault::Utf8 { index, valid_up_to }) => {
                assert_eq!((index, valid_up_to), (2, 2));
            }
            other => panic!("{other:?}"),
        }
        // A character split across two values.
        let mut b = OffsetBytes::<i32>::new(DataType::Utf8);
        b.push(b"\xC3");
        b.push(b"\xA9");
        assert!(matches!(
            Builder::<ByteArrayType>::checkpoint(&mut b, false),
            Err(Fault::Utf8 { index: 0, .. })
        ));
        // Binary is not checked.
        let mut b = OffsetBytes::<i32>::new(DataType::Binary);
        b.push(b"\xFF");
        Builder::<ByteArrayType>::checkpoint(&mut b, false).unwrap();
        let a = Builder::<ByteArrayType>::finish(&mut b, 1, None).unwrap();
        assert_eq!(a.as_binary::<i32>().value(0), b"\xFF");
        assert_eq!(a.null_count(), 0);
    }

    #[test]
    fn dictionary_is_validated() {
        let b = OffsetBytes::<i32>::new(DataType::Utf8);
        let good: ByteArrays = [&b"a"[..], b"\xE2\x9C\x93"].into_iter().collect();
        let bad: ByteArrays = [&b"a"[..], b"\xE2\x9C"].into_iter().collect();
        assert!(Builder::<ByteArrayType>::validate_dictionary(&b, &good).is_ok());
        assert!(Builder::<ByteArrayType>::validate_dictionary(&b, &bad).is_err());
    }
}
