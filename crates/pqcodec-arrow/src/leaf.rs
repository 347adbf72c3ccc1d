//! One leaf column's reader: pulls pages from its source, decodes levels and values, and
//! counts records.
//!
//! Two modes:
//! - *flat* (a top-level column, not repeated, maximum definition level 0 or 1): every level
//!   is a row; definition levels go straight into the validity bitmap, a run of nulls being
//!   one `append_n`, and never exist as integers;
//! - *nested*: levels are decoded a chunk at a time into a look-ahead buffer, records end
//!   where a repetition level of 0 starts the next one (which may be on the next page, for v1
//!   pages), and the batch keeps its levels for the struct / list / map assembly.

use arrow_array::ArrayRef;
use arrow_buffer::{BooleanBufferBuilder, NullBuffer};
use bytes::Bytes;
use pqcodec_core::Encoding;

use crate::error::{Error, Fault, Location, Result};
use crate::levels::{CountSink, LevelDecoder, LevelKind, LevelSink, ValiditySink};
use crate::page::{DataPageV1, DataPageV2, Page, PageHint, PageSource, shared_bytes};
use crate::schema::{ColumnDesc, Node};
use crate::values::{ValueReader, select};

/// Levels decoded at a time in nested mode.
const CHUNK: usize = 4096;

/// The levels decoders of the current data page.
struct PageState {
    index: usize,
    levels_left: usize,
    def: Option<LevelDecoder>,
    rep: Option<LevelDecoder>,
}

/// Look-ahead and batch levels in nested mode.
#[derive(Default)]
struct Levels {
    /// Decoded levels not yet consumed: `pend_def[pos..len]`, `pend_rep[pos..len]`.
    pend_def: Vec<u16>,
    pend_rep: Vec<u16>,
    pos: usize,
    len: usize,
    /// Whether a record was started and not yet closed by the next one's first level.
    open: bool,
    /// The batch's levels.
    def: Vec<u16>,
    rep: Vec<u16>,
    count: usize,
}

/// What a leaf produced for one batch.
pub(crate) struct LeafBatch {
    /// The batch's definition levels (nested mode with a maximum above 0, else empty).
    pub(crate) def: Vec<u16>,
    /// The batch's repetition levels (repeated columns, else empty).
    pub(crate) rep: Vec<u16>,
    /// The leaf's array: one slot per level reaching the leaf.
    pub(crate) array: ArrayRef,
}

/// Rows a reader is skipping, which pages wholly inside may be passed over.
#[derive(Clone, Copy)]
struct Skip {
    /// The rows left to skip.
    rows: usize,
    /// Whether the column is flat: its levels are rows, so a page's levels tell its rows.
    flat: bool,
}

/// What fetching a page gave.
enum Fetched {
    /// A data page is set up.
    Page,
    /// A data page of this many levels was skipped whole.
    Skipped(usize),
    /// The column has no more pages.
    End,
}

/// Reads one leaf column, in the mode its place in the schema calls for.
// The flat state inline: it is every flat schema's reader, read from on every batch.
#[allow(clippy::large_enum_variant)]
pub(crate) enum LeafReader {
    /// Every level is a row.
    Flat(FlatLeaf),
    /// Boxed: a flat reader does not carry the nested mode's level buffers.
    Nested(Box<NestedLeaf>),
}

/// Where a leaf's levels and values come from: its pages, the current page's level decoders
/// and the reader of its values.
struct Source {
    desc: ColumnDesc,
    pages: Box<dyn PageSource>,
    values: Box<dyn ValueReader>,
    page: Option<PageState>,
    pages_seen: usize,
}

/// A leaf in flat mode.
pub(crate) struct FlatLeaf {
    src: Source,
    /// The batch's validity bits (maximum definition level 1).
    validity: BooleanBufferBuilder,
    /// The batch's rows.
    rows: usize,
}

/// A leaf in nested mode.
pub(crate) struct NestedLeaf {
    src: Source,
    /// The definition level at which the leaf has a slot (null or not) in its array.
    slot_def: u16,
    levels: Levels,
}

impl LeafReader {
    /// A reader of `desc`'s pages from `pages` into the type of `node` (a leaf).
    pub(crate) fn new(
        desc: ColumnDesc,
        node: &Node,
        pages: Box<dyn PageSource>,
        top_level: bool,
    ) -> Result<Self> {
        let data_type = node.field.data_type();
        // (A zero-width FIXED_LEN_BYTE_ARRAY, which would let a page claim any number of
        // values, cannot be described: its `ColumnType` cannot be made.)
        let values = select::value_reader(desc.column_type, data_type).ok_or_else(|| {
            Error::Unsupported {
                at: Location {
                    column: desc.path.clone(),
                    page: None,
                },
                column_type: desc.column_type,
                data_type: data_type.clone(),
            }
        })?;
        let flat = top_level && desc.max_rep_level == 0 && desc.max_def_level <= 1;
        let src = Source {
            desc,
            pages,
            values,
            page: None,
            pages_seen: 0,
        };
        Ok(if flat {
            LeafReader::Flat(FlatLeaf {
                src,
                validity: BooleanBufferBuilder::new(0),
                rows: 0,
            })
        } else {
            LeafReader::Nested(Box::new(NestedLeaf {
                src,
                slot_def: node.slot_def,
                levels: Levels::default(),
            }))
        })
    }

    /// Reads up to `records` records into the batch; returns how many (fewer only at the end
    /// of the column).
    pub(crate) fn read(&mut self, records: usize) -> Result<usize> {
        match self {
            LeafReader::Flat(leaf) => leaf.records(records, false),
            LeafReader::Nested(leaf) => leaf.records(records, false),
        }
    }

    /// Skips up to `records` records; returns how many.
    pub(crate) fn skip(&mut self, records: usize) -> Result<usize> {
        match self {
            LeafReader::Flat(leaf) => leaf.records(records, true),
            LeafReader::Nested(leaf) => leaf.records(records, true),
        }
    }

    /// Continues with `pages`, another column chunk of the same column: what is left of the
    /// current page is dropped (after checking what was read of it), and so is the dictionary.
    /// The batch being built is kept.
    pub(crate) fn set_pages(&mut self, pages: Box<dyn PageSource>) -> Result<()> {
        let src = match self {
            LeafReader::Flat(leaf) => &mut leaf.src,
            LeafReader::Nested(leaf) => {
                let levels = &mut leaf.levels;
                levels.pos = 0;
                levels.len = 0;
                levels.open = false;
                &mut leaf.src
            }
        };
        if let Err(fault) = src.values.release_page() {
            return Err(src.locate(fault));
        }
        src.values.new_chunk();
        src.pages = pages;
        src.page = None;
        src.pages_seen = 0;
        Ok(())
    }

    /// The batch read so far, as an array and its levels; starts a new batch.
    pub(crate) fn finish(&mut self) -> Result<LeafBatch> {
        match self {
            LeafReader::Flat(leaf) => leaf.finish(),
            LeafReader::Nested(leaf) => leaf.finish(),
        }
    }
}

impl Source {
    fn at(&self) -> Location {
        Location {
            column: self.desc.path.clone(),
            page: self
                .page
                .as_ref()
                .map(|p| p.index)
                .or_else(|| self.pages_seen.checked_sub(1)),
        }
    }

    fn locate(&self, fault: Fault) -> Error {
        fault.at(self.at())
    }

    /// What the source knows of its next page without reading it.
    fn peek(&mut self) -> Result<Option<PageHint>> {
        self.pages.peek().map_err(|source| Error::Source {
            at: self.at(),
            source,
        })
    }

    /// Passes over the next page unread if the source can tell it is a data page of at most
    /// `most` rows (`flat`: or levels, which are rows in a flat column); returns its rows.
    fn skip_unread_page(&mut self, most: usize, flat: bool) -> Result<Option<usize>> {
        let rows = self
            .peek()?
            .filter(|h| !h.dictionary)
            .and_then(|h| if flat { h.rows.or(h.levels) } else { h.rows })
            .filter(|&rows| rows <= most);
        if rows.is_some() {
            self.page = None;
            self.pages.skip_page().map_err(|source| Error::Source {
                at: self.at(),
                source,
            })?;
            self.pages_seen += 1;
        }
        Ok(rows)
    }

    /// Fetches the next data page, handing dictionary pages to the values; skips it whole if
    /// `skip` covers it, unread where the source can tell its rows.
    fn fetch(&mut self, skip: Option<Skip>) -> Result<Fetched> {
        loop {
            // The page before is done: freed before the next is decompressed.
            self.page = None;
            if let Err(fault) = self.values.release_page() {
                return Err(self.locate(fault));
            }
            if let Some(Skip { rows, flat }) = skip
                && let Some(n) = self.skip_unread_page(rows, flat)?
            {
                return Ok(Fetched::Skipped(n));
            }
            // A flat column's levels are its rows: a page read can still be skipped whole
            // without decoding it.
            let skip_levels = skip.filter(|s| s.flat).map(|s| s.rows);
            let page = match self.pages.next_page() {
                Ok(Some(page)) => page,
                Ok(None) => return Ok(Fetched::End),
                Err(source) => {
                    return Err(Error::Source {
                        at: self.at(),
                        source,
                    });
                }
            };
            let index = self.pages_seen;
            self.pages_seen += 1;
            let path = self.desc.path.clone();
            let located = |fault: Fault| {
                fault.at(Location {
                    column: path,
                    page: Some(index),
                })
            };
            match page {
                Page::Dictionary(p) => self.values.set_dictionary(&p).map_err(located)?,
                Page::DataV1(p) => {
                    if skip_levels.is_some_and(|s| s >= p.num_values) {
                        return Ok(Fetched::Skipped(p.num_values));
                    }
                    let state = self.setup_v1(p, index).map_err(located)?;
                    self.page = Some(state);
                    return Ok(Fetched::Page);
                }
                Page::DataV2(p) => {
                    if skip_levels.is_some_and(|s| s >= p.num_values) {
                        return Ok(Fetched::Skipped(p.num_values));
                    }
                    let state = self.setup_v2(p, index).map_err(located)?;
                    self.page = Some(state);
                    return Ok(Fetched::Page);
                }
            }
        }
    }

    fn setup_v1(&mut self, p: DataPageV1, index: usize) -> Result<PageState, Fault> {
        let n = p.num_values;
        let bytes = shared_bytes(&p.data);
        let mut offset = 0;
        let rep = match self.desc.max_rep_level {
            0 => None,
            max => {
                let (dec, len) = v1_levels(
                    &bytes,
                    0,
                    p.rep_level_encoding,
                    max,
                    n,
                    LevelKind::Repetition,
                )?;
                offset = len;
                Some(dec)
            }
        };
        let (def, non_null) = match self.desc.max_def_level {
            0 => (None, n),
            max => {
                let (dec, len) = v1_levels(
                    &bytes,
                    offset,
                    p.def_level_encoding,
                    max,
                    n,
                    LevelKind::Definition,
                )?;
                // v1 headers do not say how many values are non-null: count them on a copy
                // of the decoder (it shares the page).
                let mut count = CountSink::new(max);
                let mut counter = dec.clone();
                counter.visit_exact(&mut count, n, LevelKind::Definition)?;
                count.check(counter.encoding())?;
                offset += len;
                (Some(dec), count.count)
            }
        };
        let values = p.data.slice(offset);
        self.values.start_page(p.encoding, values, non_null)?;
        Ok(PageState {
            index,
            levels_left: n,
            def,
            rep,
        })
    }

    fn setup_v2(&mut self, p: DataPageV2, index: usize) -> Result<PageState, Fault> {
        let n = p.num_values;
        let bad_lengths = || {
            Fault::corrupt(
                p.encoding,
                "level lengths",
                format!(
                    "{} + {} bytes of levels in a page of {} bytes",
                    p.rep_levels_byte_len,
                    p.def_levels_byte_len,
                    p.data.len()
                ),
            )
        };
        let levels_end = p
            .rep_levels_byte_len
            .checked_add(p.def_levels_byte_len)
            .filter(|&end| end <= p.data.len())
            .ok_or_else(bad_lengths)?;
        let rep = match self.desc.max_rep_level {
            0 => None,
            max => Some(LevelDecoder::v2(
                shared_bytes(&p.data.slice_with_length(0, p.rep_levels_byte_len)),
                max,
                n,
                LevelKind::Repetition,
            )?),
        };
        let (def, non_null) = match self.desc.max_def_level {
            0 => (None, n),
            max => {
                let dec = LevelDecoder::v2(
                    shared_bytes(
                        &p.data
                            .slice_with_length(p.rep_levels_byte_len, p.def_levels_byte_len),
                    ),
                    max,
                    n,
                    LevelKind::Definition,
                )?;
                let non_null = n.checked_sub(p.num_nulls).ok_or_else(|| {
                    Fault::corrupt(
                        p.encoding,
                        "num_nulls",
                        format!("{} nulls in a page of {n} values", p.num_nulls),
                    )
                })?;
                (Some(dec), non_null)
            }
        };
        self.values
            .start_page(p.encoding, p.data.slice(levels_end), non_null)?;
        Ok(PageState {
            index,
            levels_left: n,
            def,
            rep,
        })
    }

    /// The values' array of `slots` slots with `validity`; starts the values' next batch.
    fn finish_values(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef> {
        self.values
            .finish(slots, validity)
            .map_err(|fault| self.locate(fault))
    }
}

impl FlatLeaf {
    fn records(&mut self, rows: usize, skip: bool) -> Result<usize> {
        let src = &mut self.src;
        let mut done = 0;
        while done < rows {
            let left = src.page.as_ref().map_or(0, |p| p.levels_left);
            if left == 0 {
                if let Err(fault) = src.values.end_page() {
                    return Err(src.locate(fault));
                }
                let pass = skip.then_some(Skip {
                    rows: rows - done,
                    flat: true,
                });
                match src.fetch(pass)? {
                    Fetched::Page => continue,
                    Fetched::Skipped(n) => {
                        done += n;
                        continue;
                    }
                    Fetched::End => break,
                }
            }
            let n = (rows - done).min(left);
            if let Err(fault) = Self::step(src, &mut self.validity, n, skip) {
                return Err(src.locate(fault));
            }
            done += n;
        }
        if !skip {
            self.rows += done;
        }
        Ok(done)
    }

    /// Reads or skips `n` levels of the current page.
    fn step(
        src: &mut Source,
        validity: &mut BooleanBufferBuilder,
        n: usize,
        skip: bool,
    ) -> Result<(), Fault> {
        let Some(page) = src.page.as_mut() else {
            return Ok(());
        };
        let valid = match page.def.as_mut() {
            None => n,
            Some(def) if skip => {
                let mut count = CountSink::new(1);
                def.visit_exact(&mut count, n, LevelKind::Definition)?;
                count.check(def.encoding())?;
                count.count
            }
            Some(def) => {
                let mut sink = ValiditySink::new(validity);
                def.visit_exact(&mut sink, n, LevelKind::Definition)?;
                sink.check(def.encoding())?;
                sink.ones
            }
        };
        page.levels_left -= n;
        if skip {
            src.values.skip(valid)
        } else {
            src.values.read(valid)
        }
    }

    fn finish(&mut self) -> Result<LeafBatch> {
        let slots = std::mem::take(&mut self.rows);
        let validity =
            (self.src.desc.max_def_level == 1).then(|| NullBuffer::new(self.validity.finish()));
        let array = self.src.finish_values(slots, validity)?;
        Ok(LeafBatch {
            def: Vec::new(),
            rep: Vec::new(),
            array,
        })
    }
}

impl NestedLeaf {
    /// Decodes the next chunk of the current page's levels into the look-ahead buffer; false
    /// if the page has none left.
    fn refill(&mut self) -> Result<bool, Fault> {
        let Some(page) = self.src.page.as_mut() else {
            return Ok(false);
        };
        if page.levels_left == 0 {
            return Ok(false);
        }
        let n = page.levels_left.min(CHUNK);
        let levels = &mut self.levels;
        levels.pend_def.clear();
        levels.pend_rep.clear();
        levels.pos = 0;
        levels.len = n;
        if let Some(rep) = page.rep.as_mut() {
            read_levels(
                rep,
                &mut levels.pend_rep,
                self.src.desc.max_rep_level,
                n,
                LevelKind::Repetition,
            )?;
        }
        if let Some(def) = page.def.as_mut() {
            read_levels(
                def,
                &mut levels.pend_def,
                self.src.desc.max_def_level,
                n,
                LevelKind::Definition,
            )?;
        }
        page.levels_left -= n;
        Ok(true)
    }

    fn records(&mut self, records: usize, skip: bool) -> Result<usize> {
        let mut done = 0;
        if records == 0 {
            return Ok(0);
        }
        loop {
            if self.levels.pos >= self.levels.len {
                match self.refill() {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(fault) => return Err(self.src.locate(fault)),
                }
                if let Err(fault) = self.src.values.end_page() {
                    return Err(self.src.locate(fault));
                }
                // A next page known to start a record (its rows are counted: an offset index,
                // a v2 header) ends the open record here, without reading that page.
                let starts_record = self
                    .src
                    .peek()?
                    .is_some_and(|h| !h.dictionary && h.rows.is_some());
                if starts_record && self.levels.open {
                    self.levels.open = false;
                    done += 1;
                    if done == records {
                        break;
                    }
                }
                // Pages passed over unread hold whole records: none may be while a record is
                // open.
                let pass = (skip && !self.levels.open).then_some(Skip {
                    rows: records - done,
                    flat: false,
                });
                match self.src.fetch(pass)? {
                    Fetched::Page => continue,
                    Fetched::Skipped(n) => {
                        done += n;
                        if done == records {
                            break;
                        }
                        continue;
                    }
                    Fetched::End => {
                        if self.levels.open {
                            self.levels.open = false;
                            done += 1;
                        }
                        break;
                    }
                }
            }
            let (stop, fault) = self.step(records, &mut done, skip);
            if let Some(fault) = fault {
                return Err(self.src.locate(fault));
            }
            if stop {
                break;
            }
        }
        Ok(done)
    }

    /// Consumes look-ahead levels up to the end of the `records`-th record; returns whether
    /// the batch is complete, and any fault.
    fn step(&mut self, records: usize, done: &mut usize, skip: bool) -> (bool, Option<Fault>) {
        let max_def = self.src.desc.max_def_level;
        let levels = &mut self.levels;
        let start = levels.pos;
        let mut stop = false;
        let end = if self.src.desc.max_rep_level == 0 {
            let take = (records - *done).min(levels.len - start);
            *done += take;
            stop = *done == records;
            start + take
        } else {
            let rep = &levels.pend_rep[..levels.len];
            let mut i = start;
            while i < rep.len() {
                if rep[i] == 0 {
                    if levels.open {
                        *done += 1;
                        levels.open = false;
                        if *done == records {
                            stop = true;
                            break;
                        }
                    }
                    levels.open = true;
                } else if !levels.open {
                    return (
                        true,
                        Some(Fault::corrupt(
                            Encoding::Rle,
                            "repetition levels",
                            "a record starts with a repetition level above 0",
                        )),
                    );
                }
                i += 1;
            }
            i
        };
        let valid = if max_def == 0 {
            end - start
        } else {
            levels.pend_def[start..end]
                .iter()
                .filter(|&&d| d == max_def)
                .count()
        };
        if !skip {
            if max_def > 0 {
                levels.def.extend_from_slice(&levels.pend_def[start..end]);
            }
            if self.src.desc.max_rep_level > 0 {
                levels.rep.extend_from_slice(&levels.pend_rep[start..end]);
            }
            levels.count += end - start;
        }
        levels.pos = end;
        let result = if skip {
            self.src.values.skip(valid)
        } else {
            self.src.values.read(valid)
        };
        (stop, result.err())
    }

    fn finish(&mut self) -> Result<LeafBatch> {
        let max_def = self.src.desc.max_def_level;
        let def = std::mem::take(&mut self.levels.def);
        let rep = std::mem::take(&mut self.levels.rep);
        let count = std::mem::take(&mut self.levels.count);
        let slot_def = self.slot_def;
        let (slots, validity) = if max_def == 0 {
            (count, None)
        } else if max_def > slot_def {
            let mut bits = BooleanBufferBuilder::new(def.len());
            for &d in def.iter().filter(|&&d| d >= slot_def) {
                bits.append(d == max_def);
            }
            (bits.len(), Some(NullBuffer::new(bits.finish())))
        } else {
            (def.iter().filter(|&&d| d >= slot_def).count(), None)
        };
        let array = self.src.finish_values(slots, validity)?;
        Ok(LeafBatch { def, rep, array })
    }
}

/// Reads exactly `n` levels of `kind`, each at most `max`, from `decoder` into `out`.
fn read_levels(
    decoder: &mut LevelDecoder,
    out: &mut Vec<u16>,
    max: u16,
    n: usize,
    kind: LevelKind,
) -> Result<(), Fault> {
    let mut sink = LevelSink::new(out, max);
    decoder.read_exact(&mut sink, n, kind)?;
    sink.check(decoder.encoding(), kind)
}

/// The v1 levels at `offset` of `data`, and their length in bytes.
fn v1_levels(
    data: &Bytes,
    offset: usize,
    encoding: Encoding,
    max: u16,
    n: usize,
    kind: LevelKind,
) -> Result<(LevelDecoder, usize), Fault> {
    let bytes = data.slice(offset.min(data.len())..);
    LevelDecoder::split_v1(&bytes, encoding, max, n, kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat column's reader, which every top-level column of a flat schema gets, does not
    /// hold the nested mode's look-ahead and batch levels.
    #[test]
    fn a_flat_reader_does_not_carry_nested_levels() {
        use std::mem::size_of;
        // At most a tag beside the flat state.
        assert!(size_of::<LeafReader>() <= size_of::<FlatLeaf>() + size_of::<usize>());
    }
}
