//! The text form of values: per line, the lowercase hex of a value's PLAIN bytes (BYTE_ARRAY
//! without its length prefix, BOOLEAN `00` or `01`).

use std::fmt::Write;

use pqcodec_core::{ByteArrays, ColumnType, Int96, NativeType, PhysicalType, Sink};
use pqcodec_encodings::dynamic::Values;

/// An error in the text of the values, naming the line.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct TextError {
    line: usize,
    reason: String,
}

fn err(line: usize, reason: impl Into<String>) -> TextError {
    TextError {
        line: line + 1,
        reason: reason.into(),
    }
}

/// Each line's bytes.
fn lines(text: &str) -> Result<Vec<Vec<u8>>, TextError> {
    text.lines()
        .enumerate()
        .map(|(i, l)| hex::decode(l.trim()).map_err(|e| err(i, format!("not hex: {e}"))))
        .collect()
}

fn fixed<N: NativeType>(rows: &[Vec<u8>], physical: PhysicalType) -> Result<Vec<N>, TextError> {
    rows.iter()
        .enumerate()
        .map(|(i, b)| {
            if b.len() == N::SIZE {
                Ok(N::from_le_slice(b))
            } else {
                Err(err(
                    i,
                    format!("a {physical} value is {} bytes, found {}", N::SIZE, b.len()),
                ))
            }
        })
        .collect()
}

/// Parses values of type `column_type` (its width in bytes each for FIXED_LEN_BYTE_ARRAY).
pub fn parse(text: &str, column_type: ColumnType) -> Result<Values, TextError> {
    let rows = lines(text)?;
    let physical = column_type.physical();
    Ok(match column_type {
        ColumnType::Boolean => Values::Boolean(
            rows.iter()
                .enumerate()
                .map(|(i, b)| match b.as_slice() {
                    [0] => Ok(false),
                    [1] => Ok(true),
                    _ => Err(err(i, "a BOOLEAN value is 00 or 01")),
                })
                .collect::<Result<_, _>>()?,
        ),
        ColumnType::Int32 => Values::Int32(fixed(&rows, physical)?),
        ColumnType::Int64 => Values::Int64(fixed(&rows, physical)?),
        ColumnType::Int96 => Values::Int96(fixed::<Int96>(&rows, physical)?),
        ColumnType::Float => Values::Float(fixed(&rows, physical)?),
        ColumnType::Double => Values::Double(fixed(&rows, physical)?),
        ColumnType::ByteArray => Values::ByteArray(rows.iter().map(Vec::as_slice).collect()),
        ColumnType::FixedLenByteArray(ty) => {
            let type_length = ty.width();
            let mut out = ByteArrays::new();
            for (i, b) in rows.iter().enumerate() {
                if b.len() != type_length {
                    return Err(err(
                        i,
                        format!(
                            "a FIXED_LEN_BYTE_ARRAY({type_length}) value is {type_length} bytes, found {}",
                            b.len()
                        ),
                    ));
                }
                out.push(b);
            }
            Values::FixedLenByteArray(out)
        }
    })
}

/// Parses levels or indices: INT32 values below `2^bit_width`.
pub fn parse_levels(text: &str, bit_width: u32) -> Result<Vec<u32>, TextError> {
    let rows = lines(text)?;
    let values = fixed::<i32>(&rows, PhysicalType::Int32)?;
    values
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let v = v as u32;
            if bit_width < 32 && v >> bit_width != 0 {
                Err(err(i, format!("{v} does not fit in {bit_width} bits")))
            } else {
                Ok(v)
            }
        })
        .collect()
}

fn hex_line<B: AsRef<[u8]>>(out: &mut String, bytes: B) {
    for b in bytes.as_ref() {
        let _ = write!(out, "{b:02x}");
    }
    out.push('\n');
}

/// The text of `values`, one line each.
pub fn format(values: &Values) -> String {
    let mut out = String::new();
    match values {
        Values::Boolean(v) => v.iter().for_each(|&b| hex_line(&mut out, [u8::from(b)])),
        Values::Int32(v) => v.iter().for_each(|x| hex_line(&mut out, x.to_le_bytes())),
        Values::Int64(v) => v.iter().for_each(|x| hex_line(&mut out, x.to_le_bytes())),
        Values::Int96(v) => v
            .iter()
            .for_each(|x| hex_line(&mut out, NativeType::to_le_bytes(*x))),
        Values::Float(v) => v.iter().for_each(|x| hex_line(&mut out, x.to_le_bytes())),
        Values::Double(v) => v.iter().for_each(|x| hex_line(&mut out, x.to_le_bytes())),
        Values::ByteArray(v) | Values::FixedLenByteArray(v) => {
            v.iter().for_each(|x| hex_line(&mut out, x))
        }
    }
    out
}

/// The text of levels, as INT32 values.
pub fn format_levels(levels: &[u32]) -> String {
    let mut out = String::new();
    levels
        .iter()
        .for_each(|l| hex_line(&mut out, l.to_le_bytes()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_format_round_trip() {
        let text = "0100000002\n\nff\n";
        let v = parse(text, ColumnType::ByteArray).unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(format(&v), "0100000002\n\nff\n");
        let v = parse("ffffffff\n01000000\n", ColumnType::Int32).unwrap();
        assert_eq!(v, Values::Int32(vec![-1, 1]));
        assert!(
            parse("ffff\n", ColumnType::Int32)
                .unwrap_err()
                .to_string()
                .starts_with("line 1:")
        );
        assert!(parse("02\n", ColumnType::Boolean).is_err());
        assert!(parse("zz\n", ColumnType::ByteArray).is_err());
        assert!(
            parse(
                "0102\n",
                ColumnType::new(PhysicalType::FixedLenByteArray, 3).unwrap()
            )
            .is_err()
        );
        assert_eq!(parse("", ColumnType::Int64).unwrap().len(), 0);
    }

    #[test]
    fn levels_must_fit_the_width() {
        assert_eq!(parse_levels("07000000\n", 3).unwrap(), vec![7]);
        assert!(parse_levels("08000000\n", 3).is_err());
        assert_eq!(parse_levels("ffffffff\n", 32).unwrap(), vec![u32::MAX]);
        assert_eq!(format_levels(&[1, 256]), "01000000\n00010000\n");
    }
}
