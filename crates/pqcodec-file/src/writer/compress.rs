//! Page compression, by the codec crates the parquet crate decompresses with (snap, flate2,
//! lz4_flex, zstd, brotli): the bytes any reader expects for each Parquet codec.

use std::io::Write;

use super::options::Compression;

/// Appends `data` compressed by `codec` to `out`.
pub(crate) fn compress(codec: Compression, data: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
    match codec {
        Compression::Uncompressed => out.extend_from_slice(data),
        Compression::Snappy => {
            let start = out.len();
            out.resize(start + snap::raw::max_compress_len(data.len()), 0);
            let n = snap::raw::Encoder::new()
                .compress(data, &mut out[start..])
                .map_err(std::io::Error::other)?;
            out.truncate(start + n);
        }
        Compression::Gzip(level) => {
            let mut encoder =
                flate2::write::GzEncoder::new(&mut *out, flate2::Compression::new(level));
            encoder.write_all(data)?;
            encoder.finish()?;
        }
        Compression::Lz4Raw => {
            let start = out.len();
            out.resize(
                start + lz4_flex::block::get_maximum_output_size(data.len()),
                0,
            );
            let n = lz4_flex::block::compress_into(data, &mut out[start..])
                .map_err(std::io::Error::other)?;
            out.truncate(start + n);
        }
        Compression::Zstd(level) => {
            let mut encoder = zstd::stream::Encoder::new(&mut *out, level)?;
            encoder.write_all(data)?;
            encoder.finish()?;
        }
        Compression::Brotli(quality) => {
            let mut encoder = brotli::CompressorWriter::new(&mut *out, 4096, quality, 22);
            encoder.write_all(data)?;
            encoder.flush()?;
        }
    }
    Ok(())
}

/// The parquet crate's name for `codec`, for the footer.
pub(crate) fn parquet_codec(codec: Compression) -> parquet::basic::Compression {
    use parquet::basic::{BrotliLevel, Compression as P, GzipLevel, ZstdLevel};
    match codec {
        Compression::Uncompressed => P::UNCOMPRESSED,
        Compression::Snappy => P::SNAPPY,
        Compression::Gzip(l) => P::GZIP(GzipLevel::try_new(l).unwrap_or_default()),
        Compression::Lz4Raw => P::LZ4_RAW,
        Compression::Zstd(l) => P::ZSTD(ZstdLevel::try_new(l).unwrap_or_default()),
        Compression::Brotli(l) => P::BROTLI(BrotliLevel::try_new(l).unwrap_or_default()),
    }
}
