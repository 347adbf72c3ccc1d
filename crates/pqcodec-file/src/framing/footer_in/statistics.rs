//! A column chunk's statistics, typed by its physical type, and its geospatial statistics.

use parquet::basic::Type as PqType;
use parquet::data_type::{ByteArray, FixedLenByteArray, Int96};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::geospatial::bounding_box::BoundingBox;
use parquet::geospatial::statistics::GeospatialStatistics;

use crate::framing::thrift_in::{Cursor, Result, bool_field, read_struct};

use super::{double, list_of, missing, value};

/// Statistics, typed by the column's physical type: `min_value` and `max_value`, or if neither
/// is set the deprecated `min` and `max`.
pub(super) fn statistics(c: &mut Cursor<'_>, physical: PqType) -> Result<Statistics> {
    let (mut max, mut min, mut max_value, mut min_value) = (None, None, None, None);
    let (mut null_count, mut distinct_count) = (None, None);
    let (mut max_exact, mut min_exact) = (None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 => max = Some(c.binary()?),
            2 => min = Some(c.binary()?),
            3 => null_count = Some(c.int()?),
            4 => distinct_count = Some(c.int()?),
            5 => max_value = Some(c.binary()?),
            6 => min_value = Some(c.binary()?),
            7 => max_exact = Some(bool_field(c, ty)?),
            8 => min_exact = Some(bool_field(c, ty)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    let null_count = match null_count {
        Some(n) if n < 0 => return value(format!("statistics: null count {n}")),
        n => n.map(|n| n as u64),
    };
    let distinct_count = distinct_count.map(|n| n as u64);
    let deprecated = min_value.is_none() && max_value.is_none();
    let (min, max) = if deprecated {
        (min, max)
    } else {
        (min_value, max_value)
    };
    let width = match physical {
        PqType::BOOLEAN => 1,
        PqType::INT32 | PqType::FLOAT => 4,
        PqType::INT64 | PqType::DOUBLE => 8,
        PqType::INT96 => 12,
        _ => 0,
    };
    if min.is_some_and(|v| v.len() < width) || max.is_some_and(|v| v.len() < width) {
        return value(format!(
            "statistics: a {physical} min or max of fewer than {width} bytes"
        ));
    }
    fn le<const N: usize>(v: &[u8]) -> [u8; N] {
        v[..N].try_into().expect("length checked")
    }
    let stats = match physical {
        PqType::BOOLEAN => Statistics::boolean(
            min.map(|v| v[0] != 0),
            max.map(|v| v[0] != 0),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::INT32 => Statistics::int32(
            min.map(|v| i32::from_le_bytes(le(v))),
            max.map(|v| i32::from_le_bytes(le(v))),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::INT64 => Statistics::int64(
            min.map(|v| i64::from_le_bytes(le(v))),
            max.map(|v| i64::from_le_bytes(le(v))),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::INT96 => {
            if min.is_some_and(|v| v.len() != 12) || max.is_some_and(|v| v.len() != 12) {
                return value("statistics: an INT96 min or max of more than 12 bytes");
            }
            let int96 = |v: &[u8]| {
                let word = |i: usize| u32::from_le_bytes(le(&v[i * 4..]));
                let mut value = Int96::new();
                value.set_data(word(0), word(1), word(2));
                value
            };
            Statistics::int96(
                min.map(int96),
                max.map(int96),
                distinct_count,
                null_count,
                deprecated,
            )
        }
        PqType::FLOAT => Statistics::float(
            min.map(|v| f32::from_le_bytes(le(v))),
            max.map(|v| f32::from_le_bytes(le(v))),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::DOUBLE => Statistics::double(
            min.map(|v| f64::from_le_bytes(le(v))),
            max.map(|v| f64::from_le_bytes(le(v))),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::BYTE_ARRAY => Statistics::ByteArray(
            ValueStatistics::new(
                min.map(|v| ByteArray::from(v.to_vec())),
                max.map(|v| ByteArray::from(v.to_vec())),
                distinct_count,
                null_count,
                deprecated,
            )
            .with_max_is_exact(max_exact.unwrap_or(false))
            .with_min_is_exact(min_exact.unwrap_or(false)),
        ),
        PqType::FIXED_LEN_BYTE_ARRAY => Statistics::FixedLenByteArray(
            ValueStatistics::new(
                min.map(|v| FixedLenByteArray::from(v.to_vec())),
                max.map(|v| FixedLenByteArray::from(v.to_vec())),
                distinct_count,
                null_count,
                deprecated,
            )
            .with_max_is_exact(max_exact.unwrap_or(false))
            .with_min_is_exact(min_exact.unwrap_or(false)),
        ),
    };
    Ok(stats)
}

pub(super) fn geospatial_statistics(c: &mut Cursor<'_>) -> Result<GeospatialStatistics> {
    let (mut bbox, mut types) = (None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 => bbox = Some(bounding_box(c)?),
            2 => types = Some(list_of(c, |c| c.i32())?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok(GeospatialStatistics::new(
        bbox,
        types.filter(|t| !t.is_empty()),
    ))
}

/// A BoundingBox: x and y required, z and m kept when both ends are there.
fn bounding_box(c: &mut Cursor<'_>) -> Result<BoundingBox> {
    let mut v: [Option<f64>; 8] = [None; 8];
    read_struct(c, |c, field, ty| {
        match field {
            1..=8 => v[field as usize - 1] = Some(double(c)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    let [xmin, xmax, ymin, ymax, zmin, zmax, mmin, mmax] = v;
    let mut bbox = BoundingBox::new(
        missing(xmin, "xmin")?,
        missing(xmax, "xmax")?,
        missing(ymin, "ymin")?,
        missing(ymax, "ymax")?,
    );
    if let (Some(lo), Some(hi)) = (zmin, zmax) {
        bbox = bbox.with_zrange(lo, hi);
    }
    if let (Some(lo), Some(hi)) = (mmin, mmax) {
        bbox = bbox.with_mrange(lo, hi);
    }
    Ok(bbox)
}
