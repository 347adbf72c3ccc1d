//! `pqcodec encode` and `pqcodec decode`: one encoding over raw bytes, for debugging pages.

use std::error::Error;
use std::io::{Read, Write};
use std::path::PathBuf;

use bytes::Bytes;
use clap::Args;
use pqcodec_core::{ColumnType, Encoding, PhysicalType};
use pqcodec_encodings::bit_packed::{BitPackedDecoder, BitPackedEncoder};
use pqcodec_encodings::dynamic;
use pqcodec_encodings::rle::{RleDecoder, RleEncoder};

use crate::values_text;

type CliResult = Result<(), Box<dyn Error>>;

/// What both commands take.
#[derive(Args)]
pub struct Common {
    /// The spec's name of the encoding: PLAIN, GROUP_VAR_INT, PLAIN_DICTIONARY, RLE, BIT_PACKED,
    /// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, RLE_DICTIONARY,
    /// BYTE_STREAM_SPLIT, ALP.
    #[arg(long)]
    encoding: Encoding,
    /// The physical type: BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY,
    /// FIXED_LEN_BYTE_ARRAY.
    #[arg(long = "type")]
    physical: PhysicalType,
    /// Bytes per value of FIXED_LEN_BYTE_ARRAY (1 or more; read for that type only).
    #[arg(long, default_value_t = 0)]
    type_length: usize,
    /// With RLE or BIT_PACKED and INT32: the values are levels of this many bits (0 to 32),
    /// without a length prefix.
    #[arg(long)]
    bit_width: Option<u32>,
}

/// `pqcodec encode`.
#[derive(Args)]
pub struct EncodeArgs {
    #[command(flatten)]
    common: Common,
    /// For the dictionary encodings: where to write the dictionary page's PLAIN values.
    #[arg(long)]
    dictionary_out: Option<PathBuf>,
}

/// `pqcodec decode`.
#[derive(Args)]
pub struct DecodeArgs {
    #[command(flatten)]
    common: Common,
    /// How many values the bytes hold.
    #[arg(long)]
    count: usize,
    /// For the dictionary encodings: the dictionary page's PLAIN values (all of them are read).
    #[arg(long)]
    dictionary: Option<PathBuf>,
}

/// The level width, when the command works on levels rather than values.
fn level_width(c: &Common) -> Result<Option<u32>, Box<dyn Error>> {
    match (c.bit_width, c.encoding) {
        (None, Encoding::BitPacked) => {
            Err("BIT_PACKED encodes levels: give --bit-width and --type INT32".into())
        }
        (None, _) => Ok(None),
        (Some(w), Encoding::Rle | Encoding::BitPacked) if c.physical == PhysicalType::Int32 => {
            if w > 32 {
                Err(format!("--bit-width {w} is over 32").into())
            } else {
                Ok(Some(w))
            }
        }
        (Some(_), _) => {
            Err("--bit-width goes with RLE or BIT_PACKED and --type INT32 (levels)".into())
        }
    }
}

fn stdin_bytes() -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    std::io::stdin().lock().read_to_end(&mut buf)?;
    Ok(buf)
}

fn write_stdout(bytes: &[u8]) -> CliResult {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// Runs `pqcodec encode`.
pub fn encode(args: &EncodeArgs) -> CliResult {
    let c = &args.common;
    let input = String::from_utf8(stdin_bytes()?).map_err(|_| "stdin is not text")?;
    if let Some(width) = level_width(c)? {
        let levels = values_text::parse_levels(&input, width)?;
        let mut out = Vec::new();
        if c.encoding == Encoding::Rle {
            let mut encoder = RleEncoder::new(width);
            levels.iter().for_each(|&l| encoder.put(l));
            encoder.flush_into(&mut out);
        } else {
            let mut encoder = BitPackedEncoder::new(width);
            levels.iter().for_each(|&l| encoder.put(l));
            encoder.flush_into(&mut out);
        }
        return write_stdout(&out);
    }
    let column_type = ColumnType::new(c.physical, c.type_length)?;
    let values = values_text::parse(&input, column_type)?;
    let page = dynamic::encode(c.encoding, &values, column_type)?;
    match (page.dictionary, &args.dictionary_out) {
        (Some(dictionary), Some(path)) => std::fs::write(path, dictionary)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        (Some(_), None) => {
            return Err(format!(
                "{} needs --dictionary-out FILE for the dictionary page",
                c.encoding
            )
            .into());
        }
        (None, Some(_)) => {
            return Err(format!(
                "--dictionary-out goes with the dictionary encodings, not {}",
                c.encoding
            )
            .into());
        }
        (None, None) => {}
    }
    write_stdout(&page.data)
}

/// Runs `pqcodec decode`.
pub fn decode(args: &DecodeArgs) -> CliResult {
    let c = &args.common;
    let data = Bytes::from(stdin_bytes()?);
    if let Some(width) = level_width(c)? {
        let mut levels = Vec::new();
        let read = if c.encoding == Encoding::Rle {
            let mut decoder = RleDecoder::new(data, args.count, width)?;
            decoder.read(&mut levels, args.count)?
        } else {
            let mut decoder = BitPackedDecoder::new(data, args.count, width)?;
            decoder.read(&mut levels, args.count)?
        };
        if read < args.count {
            return Err(format!(
                "{}: the data holds {read} levels, not {}",
                c.encoding, args.count
            )
            .into());
        }
        return write_stdout(values_text::format_levels(&levels).as_bytes());
    }
    let column_type = ColumnType::new(c.physical, c.type_length)?;
    let dictionary = match (&args.dictionary, c.encoding.is_dictionary()) {
        (Some(path), true) => {
            Some(std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?)
        }
        (None, true) => {
            return Err(format!(
                "{} needs --dictionary FILE with the dictionary page",
                c.encoding
            )
            .into());
        }
        (Some(_), false) => {
            return Err(format!(
                "--dictionary goes with the dictionary encodings, not {}",
                c.encoding
            )
            .into());
        }
        (None, false) => None,
    };
    let values = dynamic::decode(
        c.encoding,
        column_type,
        data,
        args.count,
        dictionary.as_deref(),
    )?;
    write_stdout(values_text::format(&values).as_bytes())
}
