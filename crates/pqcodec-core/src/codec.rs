use crate::{Physical, Result, Sink, SliceSink};

/// A streaming decoder of one page's values of physical type `T`.
///
/// Constructors validate the header up front; then values are read in batches of the caller's
/// size into a [`Sink`] the caller owns, or skipped without being materialised.
pub trait Decoder<T: Physical> {
    /// Values not yet read or skipped.
    fn remaining(&self) -> usize;

    /// Appends up to `max` values to `out` and returns how many it appended: fewer than `max`
    /// only when the page has no more. On an error, values before the bad one may have been
    /// appended.
    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize>;

    /// Skips up to `n` values and returns how many it skipped.
    fn skip(&mut self, n: usize) -> Result<usize>;

    /// Reads up to `out.len()` values into `out`, from its start, and returns how many it read:
    /// decoding into memory the caller already holds, with no allocation or zeroing per read.
    fn read_into(&mut self, out: &mut [T::Value]) -> Result<usize>
    where
        T::Value: Copy,
    {
        let max = out.len();
        let mut sink = SliceSink::new(out);
        let read = self.read(&mut sink, max)?;
        // What was written: a read appends what it counts, never more than `max`.
        Ok(read.min(sink.len()))
    }

    /// Reads every remaining value into a new buffer.
    fn read_all(&mut self) -> Result<T::Buffer> {
        let mut out = T::Buffer::default();
        self.read(&mut out, self.remaining())?;
        Ok(out)
    }
}

/// An encoder of values of physical type `T` into page bytes.
pub trait Encoder<T: Physical> {
    /// Appends a batch of values to the page being built.
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v;

    /// Appends values held in a slice: the page [`Encoder::put`] of the same values gives,
    /// written in bulk where the encoding can (PLAIN copies fixed-width values and packs
    /// booleans a word at a time).
    fn put_slice(&mut self, values: &[T::Value]) -> Result<()>
    where
        T::Value: Sized,
    {
        self.put(values)
    }

    /// Appends values held back to back, `width` bytes each (`bytes.len()` a multiple of
    /// `width`): the page [`Encoder::put`] of the same values gives, copied in bulk where the
    /// encoding can (FIXED_LEN_BYTE_ARRAY in PLAIN or a dictionary).
    fn put_fixed_width(&mut self, bytes: &[u8], width: usize) -> Result<()>
    where
        T: Physical<Value = [u8]>,
    {
        self.put(bytes.chunks_exact(width.max(1)))
    }

    /// Number of values put since the last flush.
    fn num_values(&self) -> usize;

    /// Estimated size in bytes of what [`Encoder::flush_into`] would write now.
    fn estimated_size(&self) -> usize;

    /// Appends the bytes of the page holding every value put since the last flush to `out`,
    /// and starts a new page.
    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()>;

    /// The bytes of the page holding every value put since the last flush; starts a new page.
    fn flush(&mut self) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.estimated_size());
        self.flush_into(&mut out)?;
        Ok(out)
    }
}
