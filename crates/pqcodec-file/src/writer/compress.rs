//! Page compression, by the codec crates the parquet crate decompresses with (snap, flate2,
//! lz4_flex, zstd, brotli), and liblz4 for LZ4_RAW's high-compression levels: the bytes any
//! reader expects for each Parquet codec. Each is behind its cargo feature; the writer refuses
//! a codec left out before it compresses anything.

#[cfg(any(feature = "flate2", feature = "zstd", feature = "brotli"))]
use std::io::Write;

use crate::compression::Compression;

/// Compresses pages with one codec, reusing its working memory from page to page.
#[derive(Debug)]
pub(crate) struct Compressor {
    codec: Compression,
    /// Room for the block codecs' output, kept initialised: growing it is the only zeroing.
    #[cfg_attr(not(any(feature = "snap", feature = "lz4")), allow(dead_code))]
    work: Vec<u8>,
    /// SNAPPY's encoder, whose hash table is kept from page to page.
    #[cfg(feature = "snap")]
    snappy: snap::raw::Encoder,
}

impl Compressor {
    pub(crate) fn new(codec: Compression) -> Self {
        Compressor {
            codec,
            work: Vec::new(),
            #[cfg(feature = "snap")]
            snappy: snap::raw::Encoder::new(),
        }
    }

    /// Appends `data` compressed to `out`.
    pub(crate) fn compress(&mut self, data: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
        match self.codec {
            Compression::Uncompressed => out.extend_from_slice(data),
            #[cfg(feature = "snap")]
            Compression::Snappy => {
                let work = room(&mut self.work, snap::raw::max_compress_len(data.len()));
                let n = self
                    .snappy
                    .compress(data, work)
                    .map_err(std::io::Error::other)?;
                out.extend_from_slice(&self.work[..n]);
            }
            #[cfg(feature = "flate2")]
            Compression::Gzip(level) => {
                let mut encoder =
                    flate2::write::GzEncoder::new(&mut *out, flate2::Compression::new(level));
                encoder.write_all(data)?;
                encoder.finish()?;
            }
            #[cfg(feature = "lz4")]
            Compression::Lz4Raw(0 | 1) => {
                let work = room(
                    &mut self.work,
                    lz4_flex::block::get_maximum_output_size(data.len()),
                );
                let n =
                    lz4_flex::block::compress_into(data, work).map_err(std::io::Error::other)?;
                out.extend_from_slice(&self.work[..n]);
            }
            #[cfg(feature = "lz4-hc")]
            Compression::Lz4Raw(level) => {
                let bound = lz4::block::compress_bound(data.len())?;
                let work = room(&mut self.work, bound);
                let mode = lz4::block::CompressionMode::HIGHCOMPRESSION(level.min(12) as i32);
                let n = lz4::block::compress_to_buffer(data, Some(mode), false, work)?;
                out.extend_from_slice(&self.work[..n]);
            }
            #[cfg(feature = "zstd")]
            Compression::Zstd(level) => {
                let mut encoder = zstd::stream::Encoder::new(&mut *out, level)?;
                encoder.write_all(data)?;
                encoder.finish()?;
            }
            #[cfg(feature = "brotli")]
            Compression::Brotli(quality) => {
                let mut encoder = brotli::CompressorWriter::new(&mut *out, 4096, quality, 22);
                encoder.write_all(data)?;
                encoder.flush()?;
            }
            // Refused when the writer was made (`Error::CodecNotCompiled`).
            #[allow(unreachable_patterns)]
            other => {
                return Err(std::io::Error::other(format!(
                    "{} compression was not compiled in",
                    other.name()
                )));
            }
        }
        Ok(())
    }
}

/// Room for `n` bytes of output at the start of `work`.
#[cfg(any(feature = "snap", feature = "lz4"))]
fn room(work: &mut Vec<u8>, n: usize) -> &mut [u8] {
    if work.len() < n {
        work.resize(n, 0);
    }
    &mut work[..n]
}
