//! Pages built by hand (levels by the codec core's RLE encoder, values by its PLAIN and
//! dictionary encoders) decoded through the public API: flat and nested columns, v1 and v2
//! pages, records spanning pages, batch reads and skips interleaved, dictionaries kept and
//! looked up, and malformed pages.

mod alp;
mod batches;
mod dictionaries;
mod errors;
mod maps;
mod memory;

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field};
use pqcodec_core::{ColumnType, Encoder, Encoding, Int32Type};
use pqcodec_encodings::bits::bit_width;
use pqcodec_encodings::plain::PlainEncoder;
use pqcodec_encodings::rle::RleEncoder;

use crate::{ArrayDecoder, Column, ColumnDesc, DataPageV1, DataPageV2, DictionaryPage, Page};

fn rle(levels: &[u16], max: u16) -> Vec<u8> {
    let mut e = RleEncoder::new(bit_width(u64::from(max)));
    for &l in levels {
        e.put(u32::from(l));
    }
    let mut out = Vec::new();
    e.flush_into(&mut out);
    out
}

/// A page of `levels` (definition, repetition) and `values` in `encoding`.
struct PageSpec<'a> {
    def: &'a [u16],
    rep: &'a [u16],
    max_def: u16,
    max_rep: u16,
    values: Vec<u8>,
    encoding: Encoding,
}

fn v1(p: PageSpec<'_>) -> Page {
    let mut data = Vec::new();
    for (levels, max) in [(p.rep, p.max_rep), (p.def, p.max_def)] {
        if max > 0 {
            let body = rle(levels, max);
            data.extend_from_slice(&(body.len() as u32).to_le_bytes());
            data.extend_from_slice(&body);
        }
    }
    data.extend_from_slice(&p.values);
    Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(data),
        num_values: p.def.len().max(p.rep.len()),
        encoding: p.encoding,
        def_level_encoding: Encoding::Rle,
        rep_level_encoding: Encoding::Rle,
    })
}

fn v2(p: PageSpec<'_>) -> Page {
    let rep = if p.max_rep > 0 {
        rle(p.rep, p.max_rep)
    } else {
        Vec::new()
    };
    let def = if p.max_def > 0 {
        rle(p.def, p.max_def)
    } else {
        Vec::new()
    };
    let num_values = p.def.len().max(p.rep.len());
    let nulls = p.def.iter().filter(|&&d| d < p.max_def).count();
    let records = if p.max_rep > 0 {
        p.rep.iter().filter(|&&r| r == 0).count()
    } else {
        num_values
    };
    let mut data = rep.clone();
    data.extend_from_slice(&def);
    data.extend_from_slice(&p.values);
    Page::DataV2(DataPageV2 {
        data: Buffer::from_vec(data),
        num_values,
        num_nulls: nulls,
        num_rows: records,
        encoding: p.encoding,
        def_levels_byte_len: def.len(),
        rep_levels_byte_len: rep.len(),
    })
}

fn plain_i32(values: &[i32]) -> Vec<u8> {
    let mut e = PlainEncoder::<Int32Type>::new(Int32Type);
    e.put(values).unwrap();
    e.flush().unwrap()
}

fn pages(pages: Vec<Page>) -> impl crate::PageSource + 'static {
    pages.into_iter().map(Ok::<_, std::io::Error>)
}

/// Reads `decoder` to the end in batches of `batch`, skipping `skip` rows after each batch;
/// returns the arrays read and the rows skipped.
fn drain(decoder: &mut ArrayDecoder, batch: usize, skip: usize) -> Vec<ArrayRef> {
    let mut out = Vec::new();
    loop {
        let a = decoder.read(batch).unwrap();
        if a.is_empty() {
            break;
        }
        out.push(a);
        if skip > 0 {
            decoder.skip(skip).unwrap();
        }
    }
    out
}

/// The rows a drain with `batch` and `skip` keeps of `n`.
fn kept(n: usize, batch: usize, skip: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < n {
        let end = (at + batch).min(n);
        out.push(at..end);
        at = end + skip;
    }
    out
}

/// Splits `rows` levels into pages at `cuts` (positions taken modulo the length).
fn split(len: usize, cuts: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
    points.push(0);
    points.push(len);
    points.sort_unstable();
    points.dedup();
    points.windows(2).map(|w| w[0]..w[1]).collect()
}

fn flat_pages(values: &[Option<i32>], cuts: &[usize], version2: bool) -> Vec<Page> {
    split(values.len(), cuts)
        .into_iter()
        .map(|r| {
            let chunk = &values[r];
            let def: Vec<u16> = chunk.iter().map(|v| u16::from(v.is_some())).collect();
            let dense: Vec<i32> = chunk.iter().flatten().copied().collect();
            let spec = PageSpec {
                def: &def,
                rep: &[],
                max_def: 1,
                max_rep: 0,
                values: plain_i32(&dense),
                encoding: Encoding::Plain,
            };
            if version2 { v2(spec) } else { v1(spec) }
        })
        .collect()
}

fn int_decoder(pages_: Vec<Page>) -> ArrayDecoder {
    let desc = ColumnDesc::flat("a", ColumnType::Int32, true);
    let field = Arc::new(Field::new("a", DataType::Int32, true));
    ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap()
}

/// A column chunk of a required column: a PLAIN dictionary page of `entries` values, then one
/// RLE_DICTIONARY data page of `rows` `indices`.
fn dictionary_chunk(
    dictionary: Buffer,
    entries: usize,
    indices: Vec<u8>,
    rows: usize,
) -> Vec<Page> {
    vec![
        Page::Dictionary(DictionaryPage {
            data: dictionary,
            num_values: entries,
            encoding: Encoding::Plain,
        }),
        v1(PageSpec {
            def: &vec![0; rows],
            rep: &[],
            max_def: 0,
            max_rep: 0,
            values: indices,
            encoding: Encoding::RleDictionary,
        }),
    ]
}

fn string_decoder(data_type: DataType, pages_: Vec<Page>) -> ArrayDecoder {
    let desc = ColumnDesc::flat("s", ColumnType::ByteArray, true);
    let field = Arc::new(Field::new("s", data_type, true));
    ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap()
}
