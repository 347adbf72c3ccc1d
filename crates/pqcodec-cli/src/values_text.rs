//! The text form of values: per line, the lowercase hex of a value's PLAIN bytes (BYTE_ARRAY
//! without its length prefix, BOOLEAN `00` or `01`).

use std::fmt::Write;

use pqcodec_core::{ColumnType, Encoding, NativeType, PhysicalType};
use pqcodec_encodings::dynamic::{self, Values};

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

/// Parses values of type `column_type` (its width in bytes each for FIXED_LEN_BYTE_ARRAY):
/// the lines made into a PLAIN page (BOOLEAN's bytes packed to bits, BYTE_ARRAY's given their
/// length prefixes) and decoded.
pub fn parse(text: &str, column_type: ColumnType) -> Result<Values, TextError> {
    let rows = lines(text)?;
    let physical = column_type.physical();
    let mut plain = Vec::new();
    for (i, b) in rows.iter().enumerate() {
        match (physical, column_type.value_width()) {
            (PhysicalType::Boolean, _) => match b.as_slice() {
                [bit @ (0 | 1)] => {
                    if i % 8 == 0 {
                        plain.push(0);
                    }
                    *plain.last_mut().expect("a byte per 8 values") |= bit << (i % 8);
                }
                _ => return Err(err(i, "a BOOLEAN value is 00 or 01")),
            },
            (_, Some(width)) if b.len() != width => {
                let found = b.len();
                let what = format!("a {column_type} value is {width} bytes, found {found}");
                return Err(err(i, what));
            }
            (_, Some(_)) => plain.extend_from_slice(b),
            (_, None) => {
                let len = u32::try_from(b.len()).map_err(|_| err(i, "a value over 4 GiB"))?;
                plain.extend_from_slice(&len.to_le_bytes());
                plain.extend_from_slice(b);
            }
        }
    }
    dynamic::decode(Encoding::Plain, column_type, plain.into(), rows.len(), None)
        .map_err(|e| err(rows.len().saturating_sub(1), e.to_string()))
}

/// Parses levels or indices: INT32 values below `2^bit_width`.
pub fn parse_levels(text: &str, bit_width: u32) -> Result<Vec<u32>, TextError> {
    let Values::Int32(values) = parse(text, ColumnType::Int32)? else {
        unreachable!("INT32 text parses as INT32 values")
    };
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
        let bits = "01\n00\n01\n01\n00\n00\n00\n00\n01\n";
        let expected = [true, false, true, true, false, false, false, false, true];
        assert_eq!(
            parse(bits, ColumnType::Boolean).unwrap(),
            Values::Boolean(expected.to_vec())
        );
        assert!(parse("zz\n", ColumnType::ByteArray).is_err());
        let flba = ColumnType::new(PhysicalType::FixedLenByteArray, 3).unwrap();
        let e = parse("010203\n0102\n", flba).unwrap_err().to_string();
        assert_eq!(
            e,
            "line 2: a FIXED_LEN_BYTE_ARRAY(3) value is 3 bytes, found 2"
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
