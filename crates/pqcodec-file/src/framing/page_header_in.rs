//! Page headers, read: the sizes, counts and encodings of each page (its statistics and CRC
//! skipped), every encoding id kept as the file gives it (ALP included), so that pqcodec
//! frames pages the parquet crate does not know.

#[cfg(test)]
use super::thrift_in::ThriftError;
use super::thrift_in::{Cursor, Result, bool_field, id, read_struct};

/// Page type ids.
pub(crate) const DATA_PAGE: i32 = 0;
pub(crate) const INDEX_PAGE: i32 = 1;
pub(crate) const DICTIONARY_PAGE: i32 = 2;
pub(crate) const DATA_PAGE_V2: i32 = 3;

/// A page header: its sizes, counts and encodings (its statistics and CRC are skipped).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PageHeader {
    /// The header's length in bytes.
    pub len: usize,
    /// Field 1: the page type id.
    pub page_type: Option<i32>,
    /// Field 2.
    pub uncompressed_size: Option<i32>,
    /// Field 3.
    pub compressed_size: Option<i32>,
    /// Field 5: the data page header, if there is one.
    pub data: Option<DataV1>,
    /// Field 7: the dictionary page header, if there is one.
    pub dictionary: Option<Dictionary>,
    /// Field 8: the data page header v2, if there is one.
    pub data_v2: Option<DataV2>,
}

/// A data page header (v1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct DataV1 {
    /// Field 1.
    pub num_values: Option<i32>,
    /// Fields 2, 3, 4: the values', the definition levels' and the repetition levels'
    /// encodings.
    pub encodings: [Option<i32>; 3],
}

/// A dictionary page header.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Dictionary {
    /// Field 1.
    pub num_values: Option<i32>,
    /// Field 2.
    pub encoding: Option<i32>,
}

/// A data page header v2's counts and encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DataV2 {
    /// Fields 1, 2, 3: `num_values`, `num_nulls`, `num_rows`.
    pub counts: [Option<i32>; 3],
    /// Field 4.
    pub encoding: Option<i32>,
    /// Fields 5, 6: the byte lengths of the definition and repetition levels.
    pub level_lens: [Option<i32>; 2],
    /// Field 7 (true when absent).
    pub is_compressed: bool,
}

/// Reads the page header at the start of `buf`.
pub(crate) fn page_header(buf: &[u8]) -> Result<PageHeader> {
    let mut c = Cursor::new(buf);
    let mut h = PageHeader::default();
    read_struct(&mut c, |c, field, ty| {
        match field {
            1 => h.page_type = Some(c.i32()?),
            2 => h.uncompressed_size = Some(c.i32()?),
            3 => h.compressed_size = Some(c.i32()?),
            4 => c.skip(id::I64)?,
            5 => h.data = Some(data_v1(c)?),
            6 => read_struct(c, |c, _, ty| c.skip(ty))?,
            7 => h.dictionary = Some(dictionary(c)?),
            8 => h.data_v2 = Some(data_v2(c)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    // The header's own bytes bound its bools, not the chunk's after it, so that the work
    // over all of a chunk's headers is bounded by the chunk's length.
    c.bools_fit(c.position())?;
    h.len = c.position();
    Ok(h)
}

/// A data page header (v1); its statistics skipped.
fn data_v1(c: &mut Cursor<'_>) -> Result<DataV1> {
    let mut h = DataV1::default();
    read_struct(c, |c, field, ty| {
        match field {
            1 => h.num_values = Some(c.i32()?),
            2..=4 => h.encodings[field as usize - 2] = Some(c.i32()?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok(h)
}

/// A dictionary page header; is_sorted checked for its type and dropped.
fn dictionary(c: &mut Cursor<'_>) -> Result<Dictionary> {
    let mut h = Dictionary::default();
    read_struct(c, |c, field, ty| match field {
        1 => {
            h.num_values = Some(c.i32()?);
            Ok(())
        }
        2 => {
            h.encoding = Some(c.i32()?);
            Ok(())
        }
        3 => bool_field(c, ty).map(|_| ()),
        _ => c.skip(ty),
    })?;
    Ok(h)
}

fn data_v2(c: &mut Cursor<'_>) -> Result<DataV2> {
    let mut v2 = DataV2 {
        counts: [None; 3],
        encoding: None,
        level_lens: [None; 2],
        is_compressed: true,
    };
    read_struct(c, |c, field, ty| {
        match field {
            1..=3 => v2.counts[field as usize - 1] = Some(c.i32()?),
            4 => v2.encoding = Some(c.i32()?),
            5 | 6 => v2.level_lens[field as usize - 5] = Some(c.i32()?),
            7 => v2.is_compressed = bool_field(c, ty)?,
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok(v2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framing::thrift_out::ThriftOut;

    #[test]
    fn page_headers_give_their_sizes_and_counts() {
        let mut out = Vec::new();
        let mut w = ThriftOut::new(&mut out);
        w.i32(1, 3).i32(2, 20).i32(3, 14).begin(8);
        w.i32(1, 5)
            .i32(2, 1)
            .i32(3, 5)
            .i32(4, 0)
            .i32(5, 2)
            .i32(6, 0);
        w.bool(7, false).end().end();
        let len = out.len();
        out.extend([0xAA; 14]);
        let h = page_header(&out).unwrap();
        assert_eq!(h.len, len);
        assert_eq!(
            (h.page_type, h.uncompressed_size, h.compressed_size),
            (Some(3), Some(20), Some(14))
        );
        let v2 = h.data_v2.unwrap();
        assert_eq!(v2.counts, [Some(5), Some(1), Some(5)]);
        assert_eq!(v2.encoding, Some(0));
        assert_eq!(v2.level_lens, [Some(2), Some(0)]);
        assert!(!v2.is_compressed);
        assert_eq!(
            page_header(&[0xFF; 16]),
            Err(ThriftError::BadType { at: 0, id: 15 })
        );
    }

    #[test]
    fn a_page_headers_skipped_bools_fit_in_the_header_not_the_chunk_after_it() {
        // Field 20: a list of 5 bools; the stop. 4 bytes, then 100 of the chunk.
        let mut buf = vec![0x09, 40, 0x51, 0];
        buf.extend([0; 100]);
        let what = "skipped containers claim more bools than the bytes hold";
        assert_eq!(page_header(&buf), Err(ThriftError::Invalid { at: 4, what }));
        buf[2] = 0x41;
        assert_eq!(page_header(&buf).unwrap().len, 4);
    }
}
