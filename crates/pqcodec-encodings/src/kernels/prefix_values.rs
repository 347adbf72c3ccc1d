//! The values DELTA_BYTE_ARRAY's prefixes are joined into
//! ([`shared_prefix`](super::shared_prefix)), shared by the SIMD kernel and the scalar
//! reference, which copies every value.

/// How many bytes past the values [`join`](super::shared_prefix::join) may write: the width of
/// a value in registers.
pub const SLACK: usize = 64;

/// The values being written: where the next goes and where its parts come from.
pub(crate) struct Values<'a> {
    pub(crate) previous: &'a [u8],
    pub(crate) data: &'a [u8],
    pub(crate) out: &'a mut [u8],
    /// Where the next value starts in `out`.
    pub(crate) at: usize,
    /// Where the value before it starts in `out`; `None` before the first (`previous`).
    pub(crate) before: Option<usize>,
    /// Where its suffix starts in `data`.
    pub(crate) from: usize,
}

impl Values<'_> {
    /// Writes every value by copies: the scalar reference.
    pub(crate) fn copy_all(&mut self, prefixes: &[u32], lengths: &[u32]) {
        for (&prefix, &len) in prefixes.iter().zip(lengths) {
            self.copy(prefix as usize, len as usize);
        }
    }

    /// Writes the next value, of `prefix` bytes from the value before and `len` from `data`,
    /// by copies.
    pub(crate) fn copy(&mut self, prefix: usize, len: usize) {
        let (at, out) = (self.at, &mut *self.out);
        let end = at.saturating_add(prefix);
        match self.before {
            None => {
                if let (Some(src), Some(dst)) = (self.previous.get(..prefix), out.get_mut(at..end))
                {
                    dst.copy_from_slice(src);
                }
            }
            Some(before) => {
                if end <= out.len() {
                    out.copy_within(before..before + prefix, at);
                }
            }
        }
        let suffix = self.data.get(self.from..self.from.saturating_add(len));
        if let (Some(src), Some(dst)) = (suffix, out.get_mut(end..end.saturating_add(len))) {
            dst.copy_from_slice(src);
        }
        self.advance(prefix, len);
    }

    /// Moves on past a value of `prefix` and `len` suffix bytes.
    #[inline(always)]
    fn advance(&mut self, prefix: usize, len: usize) {
        self.before = Some(self.at);
        self.at = self.at.saturating_add(prefix).saturating_add(len);
        self.from = self.from.saturating_add(len);
    }
}
