//! Values' bytes kept in the page they were decoded from instead of copied: a batch whose
//! values lie back to back in one page (PLAIN fixed-width values, DELTA_LENGTH_BYTE_ARRAY
//! bytes) becomes an Arrow buffer sharing the page's memory. Decoders say which bytes lie in
//! their page, and where ([`Data::buffer`]).

use arrow_buffer::Buffer;
use bytes::Bytes;
use pqcodec_core::Data;

/// The bytes borrowed so far: a page a decoder shared, and their range in it.
#[derive(Default)]
pub(crate) struct Borrower {
    borrowed: Option<(Bytes, usize, usize)>,
}

/// Whether `a` and `b` are the same bytes of the same memory (not merely equal bytes).
pub(crate) fn same_buffer(a: &Bytes, b: &Bytes) -> bool {
    std::ptr::eq(a.as_ref(), b.as_ref())
}

impl Borrower {
    /// The bytes borrowed, if any.
    pub(crate) fn bytes(&self) -> Option<&[u8]> {
        let (page, start, end) = self.borrowed.as_ref()?;
        page.get(*start..*end)
    }

    /// Takes `data` as the builder's next bytes without copying them, if they lie in a buffer
    /// their decoder shares, start at an address that is a multiple of `align`, and either
    /// continue the bytes borrowed so far (in the same buffer, from where those end) or start
    /// the borrowing (`empty`: the builder holds no copied bytes). Returns whether it did.
    pub(crate) fn borrow(&mut self, data: Data<'_>, align: usize, empty: bool) -> bool {
        let Some((page, start)) = data.buffer() else {
            return false;
        };
        if data.as_ptr().align_offset(align) != 0 {
            return false;
        }
        let end = start + data.len();
        match &mut self.borrowed {
            Some((held, _, last)) if same_buffer(held, page) && *last == start => {
                *last = end;
                true
            }
            None if empty => {
                self.borrowed = Some((page.clone(), start, end));
                true
            }
            _ => false,
        }
    }

    /// Ends the borrowing: the borrowed bytes as a buffer sharing the page, if any.
    pub(crate) fn take(&mut self) -> Option<Buffer> {
        let (page, start, end) = self.borrowed.take()?;
        Some(Buffer::from(page.slice(start..end)))
    }
}
