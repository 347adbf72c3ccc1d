//! The footer of a file with ALP columns. The parquet crate (59) that writes the footer has no
//! ALP, so column chunks list [`ALP_IN_FOOTER`] in its place; [`Output`] holds back the end of
//! the file while the footer is written, then patches those ids into ALP (one byte each, so no
//! offset moves) before writing it out.

use std::io::{self, Write};

use crate::framing::parquet_types::ALP_IN_FOOTER;
use crate::framing::thrift_walk::{EncodingAt, walk_footer};
use pqcodec_core::Encoding;

/// The file's output: written through, or held back from [`Output::hold`] on.
#[derive(Debug)]
pub(crate) struct Output<W> {
    out: W,
    held: Option<Vec<u8>>,
}

impl<W: Write> Output<W> {
    pub(crate) fn new(out: W) -> Self {
        Output { out, held: None }
    }

    pub(crate) fn get_ref(&self) -> &W {
        &self.out
    }

    pub(crate) fn into_inner(self) -> W {
        self.out
    }

    /// Holds back what is written from now on.
    pub(crate) fn hold(&mut self) {
        self.held.get_or_insert_with(Vec::new);
    }

    /// Writes out what was held, the end of a file: its footer's ALP ids patched in.
    pub(crate) fn release_patched(&mut self) -> io::Result<()> {
        let Some(mut tail) = self.held.take() else {
            return Ok(());
        };
        patch_alp(&mut tail).map_err(io::Error::other)?;
        self.out.write_all(&tail)?;
        self.out.flush()
    }
}

impl<W: Write> Write for Output<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.held {
            Some(held) => {
                held.extend_from_slice(buf);
                Ok(buf.len())
            }
            None => self.out.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.held {
            Some(_) => Ok(()),
            None => self.out.flush(),
        }
    }
}

/// Patches the footer at the end of `tail` (the end of a file: the footer, its length and the
/// magic): every [`ALP_IN_FOOTER`] its column chunks list becomes ALP.
fn patch_alp(tail: &mut [u8]) -> Result<(), String> {
    let n = tail.len();
    let len = n
        .checked_sub(8)
        .map(|at| u32::from_le_bytes([tail[at], tail[at + 1], tail[at + 2], tail[at + 3]]))
        .ok_or("the end of the file is shorter than a footer's length and magic")?;
    let start = (n - 8)
        .checked_sub(len as usize)
        .ok_or("the footer was not held back whole")?;
    let footer = &mut tail[start..n - 8];
    let walk = walk_footer(footer);
    if walk.chunk_types.is_none() {
        return Err("the footer written does not walk".into());
    }
    for e in walk.encodings {
        if e.id == ALP_IN_FOOTER as i32 {
            footer[e.at] = EncodingAt::byte(Encoding::Alp.id());
        }
    }
    Ok(())
}
