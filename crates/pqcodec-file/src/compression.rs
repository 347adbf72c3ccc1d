//! [`Compression`]: the codec a column chunk's pages are compressed with, as the writer is
//! told it (by name, or `NAME:LEVEL`).

use std::fmt;
use std::str::FromStr;

/// A page compression codec and its level. Shown as `NAME:LEVEL` (`ZSTD:3`), LZ4_RAW's
/// level only when it is not its fast 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// No compression.
    Uncompressed,
    /// Snappy.
    Snappy,
    /// Gzip (deflate), level 0-9 (default 6).
    Gzip(u32),
    /// LZ4, raw blocks (`LZ4_RAW`), level 1-12 (default 1) as the `lz4` tool numbers them:
    /// 1 is LZ4's fast compressor, 2-12 its high-compression search (feature `lz4-hc`), whose
    /// blocks are smaller and decompress as fast, for more time writing them. The writer takes
    /// 0 as 1, and levels past 12 as 12.
    Lz4Raw(u32),
    /// Zstandard, level 1-22 (default 1).
    Zstd(i32),
    /// Brotli, quality 0-11 (default 1).
    Brotli(u32),
}

impl Compression {
    /// The codec's name in the spec, without its level: `ZSTD`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Uncompressed => "UNCOMPRESSED",
            Compression::Snappy => "SNAPPY",
            Compression::Gzip(_) => "GZIP",
            Compression::Lz4Raw(_) => "LZ4_RAW",
            Compression::Zstd(_) => "ZSTD",
            Compression::Brotli(_) => "BROTLI",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Compression::Gzip(l) | Compression::Brotli(l) => write!(f, "{}:{l}", self.name()),
            Compression::Zstd(l) => write!(f, "{}:{l}", self.name()),
            Compression::Lz4Raw(l) if *l != 1 => write!(f, "{}:{l}", self.name()),
            other => f.write_str(other.name()),
        }
    }
}

impl FromStr for Compression {
    type Err = String;

    /// `CODEC` or `CODEC:LEVEL`, case-insensitive: `uncompressed`, `snappy`, `gzip`,
    /// `lz4_raw` (or `lz4`), `zstd`, `brotli`.
    fn from_str(s: &str) -> Result<Self, String> {
        let (name, level) = match s.split_once(':') {
            Some((n, l)) => (n, Some(l)),
            None => (s, None),
        };
        let level_of =
            |default: i64, range: std::ops::RangeInclusive<i64>| -> Result<i64, String> {
                let Some(l) = level else { return Ok(default) };
                let l: i64 = l
                    .parse()
                    .map_err(|_| format!("compression level {l:?} is not a number"))?;
                if range.contains(&l) {
                    Ok(l)
                } else {
                    Err(format!(
                        "{name} level {l} is outside {}..={}",
                        range.start(),
                        range.end()
                    ))
                }
            };
        let no_level = |c| match level {
            Some(_) => Err(format!("{name} takes no level")),
            None => Ok(c),
        };
        match name.to_ascii_lowercase().as_str() {
            "uncompressed" | "none" => no_level(Compression::Uncompressed),
            "snappy" => no_level(Compression::Snappy),
            "lz4_raw" | "lz4" => Ok(Compression::Lz4Raw(level_of(1, 1..=12)? as u32)),
            "gzip" => Ok(Compression::Gzip(level_of(6, 0..=9)? as u32)),
            "zstd" => Ok(Compression::Zstd(level_of(1, 1..=22)? as i32)),
            "brotli" => Ok(Compression::Brotli(level_of(1, 0..=11)? as u32)),
            _ => Err(format!(
                "unknown compression {name:?} (expected uncompressed, snappy, gzip, lz4_raw, zstd or brotli)"
            )),
        }
    }
}
