//! Page decompression: SNAPPY by pqcodec's own [`snappy`](super::snappy), the other codecs by
//! the codec crates the writer compresses with (flate2, lz4_flex, zstd, brotli), each behind
//! its cargo feature. Every decompressor appends to the page's buffer and stops soon after the
//! size the page header gives (at one byte more, or at the buffer's capacity for ZSTD), so that
//! more is seen and refused, whatever the data claims.

#[cfg(any(feature = "flate2", feature = "brotli", feature = "lz4"))]
use std::io::Read;

use parquet::basic::Compression;

use super::snappy;

/// Decompresses one column chunk's pages, keeping the codec's state from page to page.
pub(crate) enum Decompressor {
    Snappy,
    #[cfg(feature = "flate2")]
    Gzip,
    #[cfg(feature = "lz4")]
    Lz4Raw,
    /// The deprecated LZ4: Hadoop's framing of LZ4 blocks, or, as older writers (parquet-cpp)
    /// wrote it, an LZ4 frame or one bare block.
    #[cfg(feature = "lz4")]
    Lz4,
    #[cfg(feature = "zstd")]
    Zstd(Box<zstd::bulk::Decompressor<'static>>),
    #[cfg(feature = "brotli")]
    Brotli,
}

impl Decompressor {
    /// The decompressor of `codec`; `None` for UNCOMPRESSED. A codec left out of the build is
    /// refused before (`codec_not_compiled`), and so is one pqcodec does not read (LZO).
    pub(crate) fn new(codec: Compression) -> Result<Option<Self>, String> {
        Ok(Some(match codec {
            Compression::UNCOMPRESSED => return Ok(None),
            Compression::SNAPPY => Decompressor::Snappy,
            #[cfg(feature = "flate2")]
            Compression::GZIP(_) => Decompressor::Gzip,
            #[cfg(feature = "lz4")]
            Compression::LZ4_RAW => Decompressor::Lz4Raw,
            #[cfg(feature = "lz4")]
            Compression::LZ4 => Decompressor::Lz4,
            #[cfg(feature = "zstd")]
            Compression::ZSTD(_) => Decompressor::Zstd(Box::new(
                zstd::bulk::Decompressor::new().map_err(|e| format!("ZSTD: {e}"))?,
            )),
            #[cfg(feature = "brotli")]
            Compression::BROTLI(_) => Decompressor::Brotli,
            other => return Err(format!("{other} pages are not read by pqcodec")),
        }))
    }

    /// Appends `input` decompressed to `out`: `size` bytes, or an error. Output past `size` is
    /// an error too, found after at most one byte more.
    pub(crate) fn decompress(
        &mut self,
        input: &[u8],
        size: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        let start = out.len();
        match self {
            Decompressor::Snappy => {
                snappy::decompress_into(input, size, out).map_err(|e| e.to_string())?
            }
            #[cfg(feature = "flate2")]
            Decompressor::Gzip => read_to(flate2::read::MultiGzDecoder::new(input), size, out)
                .map_err(|e| format!("GZIP: {e}"))?,
            #[cfg(feature = "lz4")]
            Decompressor::Lz4Raw => {
                let n = lz4_flex::block::decompress_into(input, zeroed(out, size))
                    .map_err(|e| format!("LZ4_RAW: {e}"))?;
                out.truncate(start + n);
            }
            #[cfg(feature = "lz4")]
            Decompressor::Lz4 => lz4(input, size, out)?,
            #[cfg(feature = "zstd")]
            Decompressor::Zstd(zstd) => {
                // Written into `out`'s spare capacity, which bounds it, with no zeroing first.
                out.reserve_exact(size + 1);
                let mut tail = std::io::Cursor::new(&mut *out);
                tail.set_position(start as u64);
                zstd.decompress_to_buffer(input, &mut tail)
                    .map_err(|e| format!("ZSTD: {e}"))?;
            }
            #[cfg(feature = "brotli")]
            Decompressor::Brotli => read_to(brotli::Decompressor::new(input, 4096), size, out)
                .map_err(|e| format!("BROTLI: {e}"))?,
        }
        match out.len() - start {
            n if n == size => Ok(()),
            n => Err(format!(
                "the page's compressed bytes give {n} bytes, not {size}"
            )),
        }
    }
}

/// `size` zeroed bytes appended to `out`, for the block codecs to write into.
#[cfg(feature = "lz4")]
fn zeroed(out: &mut Vec<u8>, size: usize) -> &mut [u8] {
    let start = out.len();
    out.resize(start + size, 0);
    &mut out[start..]
}

/// Reads a stream's output into `out`, at most `size` bytes and one more.
#[cfg(any(feature = "flate2", feature = "brotli", feature = "lz4"))]
fn read_to(stream: impl Read, size: usize, out: &mut Vec<u8>) -> std::io::Result<()> {
    stream.take(size as u64 + 1).read_to_end(out).map(drop)
}

/// The deprecated LZ4 codec: Hadoop's frames (each a big-endian u32 of the bytes it gives, one
/// of the bytes it holds, then an LZ4 block) as parquet-java writes it; failing that an LZ4
/// frame, then one bare block, as older parquet-cpp wrote it.
#[cfg(feature = "lz4")]
fn lz4(input: &[u8], size: usize, out: &mut Vec<u8>) -> Result<(), String> {
    let start = out.len();
    if hadoop_lz4(input, zeroed(out, size)).is_some() {
        return Ok(());
    }
    out.truncate(start);
    let frame = lz4_flex::frame::FrameDecoder::new(input);
    if read_to(frame, size, out).is_ok() && out.len() - start == size {
        return Ok(());
    }
    out.truncate(start);
    let n = lz4_flex::block::decompress_into(input, zeroed(out, size))
        .map_err(|e| format!("LZ4 (neither Hadoop's framing, an LZ4 frame, nor a block): {e}"))?;
    out.truncate(start + n);
    Ok(())
}

/// Hadoop's LZ4 frames of `input` decompressed into `out`, which they must fill exactly.
#[cfg(feature = "lz4")]
fn hadoop_lz4(mut input: &[u8], mut out: &mut [u8]) -> Option<()> {
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize;
    while !input.is_empty() {
        let prefix = input.get(..8)?;
        let (gives, holds) = (be(&prefix[..4]), be(&prefix[4..]));
        let block = input.get(8..8usize.checked_add(holds)?)?;
        let (now, rest) = out.split_at_mut_checked(gives)?;
        if lz4_flex::block::decompress_into(block, now).ok()? != gives {
            return None;
        }
        input = &input[8 + holds..];
        out = rest;
    }
    out.is_empty().then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that compress some, and not to nothing.
    fn text(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| b"parquet pages "[i % 14] ^ (i / 97) as u8)
            .collect()
    }

    fn decompress(codec: Compression, input: &[u8], size: usize) -> Result<Vec<u8>, String> {
        let mut out = b"levels".to_vec();
        Decompressor::new(codec)?
            .expect("a codec")
            .decompress(input, size, &mut out)?;
        assert_eq!(&out[..6], b"levels");
        Ok(out.split_off(6))
    }

    #[cfg(feature = "lz4")]
    #[test]
    fn lz4_in_each_framing_writers_used() {
        let data = text(100_000);
        let block = lz4_flex::block::compress(&data);
        // Hadoop's: two frames.
        let mut hadoop = Vec::new();
        for part in data.chunks(60_000) {
            let b = lz4_flex::block::compress(part);
            hadoop.extend_from_slice(&(part.len() as u32).to_be_bytes());
            hadoop.extend_from_slice(&(b.len() as u32).to_be_bytes());
            hadoop.extend_from_slice(&b);
        }
        let mut frame = lz4_flex::frame::FrameEncoder::new(Vec::new());
        std::io::Write::write_all(&mut frame, &data).unwrap();
        let frame = frame.finish().unwrap();
        for input in [&hadoop, &frame, &block] {
            assert_eq!(
                decompress(Compression::LZ4, input, data.len()).unwrap(),
                data
            );
        }
        assert_eq!(
            decompress(Compression::LZ4_RAW, &block, data.len()).unwrap(),
            data
        );
        // A size other than the data's is an error, in every framing.
        for input in [&hadoop, &frame, &block] {
            assert!(decompress(Compression::LZ4, input, data.len() - 1).is_err());
            assert!(decompress(Compression::LZ4, input, data.len() + 1).is_err());
        }
        assert!(decompress(Compression::LZ4, &hadoop[..hadoop.len() - 1], data.len()).is_err());
    }

    /// Every byte of a block changed in turn, and the block cut short at every length: the
    /// result is the page's size or an error, never a panic or more bytes.
    #[cfg(feature = "lz4")]
    #[test]
    fn corrupt_lz4_blocks_are_errors_or_the_size_claimed() {
        let data = text(3_000);
        let block = lz4_flex::block::compress(&data);
        for codec in [Compression::LZ4_RAW, Compression::LZ4] {
            for i in 0..block.len() {
                for flip in [0x01, 0x80, 0xff] {
                    let mut bad = block.clone();
                    bad[i] ^= flip;
                    if let Ok(out) = decompress(codec, &bad, data.len()) {
                        assert_eq!(out.len(), data.len());
                    }
                }
                assert!(decompress(codec, &block[..i], data.len()).is_err());
            }
        }
    }

    #[cfg(all(feature = "zstd", feature = "flate2"))]
    #[test]
    fn streams_and_blocks_give_the_size_claimed_or_an_error() {
        use std::io::Write;
        let data = text(70_000);
        let zstd = zstd::bulk::compress(&data, 3).unwrap();
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        gzip.write_all(&data).unwrap();
        let gzip = gzip.finish().unwrap();
        for (codec, input) in [
            (Compression::ZSTD(Default::default()), &zstd),
            (Compression::GZIP(Default::default()), &gzip),
        ] {
            assert_eq!(decompress(codec, input, data.len()).unwrap(), data);
            let short = decompress(codec, input, data.len() - 10).unwrap_err();
            assert!(!short.is_empty());
            let long = decompress(codec, input, data.len() + 10).unwrap_err();
            assert!(long.contains("give 70000 bytes, not 70010"), "{long}");
            assert!(decompress(codec, &input[..input.len() / 2], data.len()).is_err());
        }
        // Two GZIP members are one page.
        let mut two = gzip.clone();
        two.extend_from_slice(&gzip);
        let both = decompress(Compression::GZIP(Default::default()), &two, 2 * data.len());
        assert_eq!(both.unwrap(), [data.clone(), data].concat());
    }

    #[test]
    fn lzo_is_refused_by_name() {
        let e = Decompressor::new(Compression::LZO).err().unwrap();
        assert!(e.contains("LZO"), "{e}");
        assert!(
            Decompressor::new(Compression::UNCOMPRESSED)
                .unwrap()
                .is_none()
        );
    }
}
