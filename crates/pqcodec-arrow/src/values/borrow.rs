//! Values' bytes kept in the page they were decoded from instead of copied: a batch whose
//! values lie back to back in one page (PLAIN fixed-width values, DELTA_LENGTH_BYTE_ARRAY
//! bytes) becomes an Arrow buffer sharing the page's memory.

use arrow_buffer::Buffer;

/// The current page a builder may borrow from, and the slice of it borrowed so far.
#[derive(Default)]
pub(crate) struct Borrower {
    page: Option<Buffer>,
    borrowed: Option<(Buffer, usize, usize)>,
}

impl Borrower {
    /// The values section of the page decoded next.
    pub(crate) fn set_page(&mut self, page: &Buffer) {
        self.page = Some(page.clone());
    }

    /// The current page is done: nothing more is borrowed from it (what was stays).
    pub(crate) fn release_page(&mut self) {
        self.page = None;
    }

    /// The bytes borrowed, if any.
    pub(crate) fn bytes(&self) -> Option<&[u8]> {
        let (page, start, end) = self.borrowed.as_ref()?;
        page.as_slice().get(*start..*end)
    }

    /// Takes `bytes` as the builder's next bytes without copying them, if they lie in the
    /// current page at an address that is a multiple of `align`, and either continue the
    /// slice borrowed so far or start one (`empty`: the builder holds no copied bytes).
    /// Returns whether it did.
    pub(crate) fn borrow(&mut self, bytes: &[u8], align: usize, empty: bool) -> bool {
        let Some(page) = &self.page else {
            return false;
        };
        let base = page.as_slice().as_ptr() as usize;
        let Some(start) = (bytes.as_ptr() as usize).checked_sub(base) else {
            return false;
        };
        let end = start + bytes.len();
        if end > page.len() || !(base + start).is_multiple_of(align) {
            return false;
        }
        match &mut self.borrowed {
            Some((from, _, last)) if from.as_ptr() == page.as_ptr() && *last == start => {
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
        Some(page.slice_with_length(start, end - start))
    }
}
