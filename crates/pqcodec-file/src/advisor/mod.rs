//! The advisor: an encoding and a codec for each column, chosen from a sample of its values.
//!
//! Every candidate that applies to a column's type (dictionary first, PLAIN and the delta,
//! byte-stream-split and RLE encodings, ALP if allowed) is tried with every allowed codec:
//! the sample is written by [`FileWriter`](crate::FileWriter) and read back by pqcodec's
//! reader, on this machine ([`DecodeCosts`]). A candidate's bytes and decode time are the
//! sample's, scaled to the column; a dictionary's size comes from the column's distinct
//! values, counted per row group up to the writer's dictionary limit (past it the writer would
//! fall back, and the candidate is dropped). The [`Objective`] then picks, for the file as a
//! whole.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch};
//! use pqcodec_core::Encoding;
//! use pqcodec_file::advisor::Advisor;
//! use pqcodec_file::{FileWriter, WriterOptions};
//!
//! // Sorted keys: a delta encoding, whatever the codec.
//! let ids = Int64Array::from_iter_values(0..100_000);
//! let batch = RecordBatch::try_from_iter([("id", Arc::new(ids) as ArrayRef)])?;
//! let advice = Advisor::new().advise(&[batch.clone()])?;
//! assert_eq!(advice.columns[0].picked().encoding, Encoding::DeltaBinaryPacked);
//!
//! let options = advice.writer_options(WriterOptions::new());
//! let mut writer = FileWriter::try_new(Vec::new(), batch.schema(), options)?;
//! writer.write(&batch)?;
//! writer.close()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod auto;
mod costs;
mod distinct;
mod file;
mod pick;
mod sample;
mod trial;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowSchemaConverter;
use parquet::schema::types::{SchemaDescPtr, SchemaDescriptor, Type, TypePtr};
use pqcodec_arrow::ColumnDesc;
use pqcodec_core::{Encoding, PhysicalType};

pub use costs::{CostTable, DecodeCosts};
pub use pick::Objective;

use crate::error::{Error, Result};
use crate::framing::parquet_types::column_desc;
use crate::writer::{ColumnSettings, Compression, WriterOptions};
use distinct::{Distinct, DistinctCounter};
use sample::Sampler;

/// LZ4_RAW's level among the default codecs, where the high-compression levels are compiled
/// in. On TPC-H's comments level 6 makes blocks a third smaller than level 1, written at about
/// 28 MB/s; level 9 (liblz4's default) is 4 % smaller again, but written at 11 MB/s, and the
/// files the advisor made with it read no faster.
#[cfg(feature = "lz4-hc")]
const LZ4_LEVEL: u32 = 6;
#[cfg(not(feature = "lz4-hc"))]
const LZ4_LEVEL: u32 = 1;

/// Chooses each column's encoding and codec, for [`Objective`]: see the [module](self).
#[derive(Debug, Clone, PartialEq)]
pub struct Advisor {
    objective: Objective,
    codecs: Vec<Compression>,
    alp: bool,
    runs: u64,
    run_rows: u64,
    costs: DecodeCosts,
    writer: WriterOptions,
}

impl Default for Advisor {
    fn default() -> Self {
        Advisor {
            objective: Objective::default(),
            codecs: Self::DEFAULT_CODECS.to_vec(),
            alp: false,
            runs: 32,
            run_rows: 1024,
            costs: DecodeCosts::Measured,
            writer: WriterOptions::default(),
        }
    }
}

impl Advisor {
    /// The codecs tried unless told otherwise: those every common reader reads. ZSTD at level
    /// 9 and, with the `lz4-hc` feature, LZ4_RAW at level 6: each decodes as fast as at its
    /// fastest level, and only the writer pays for the smaller pages.
    pub const DEFAULT_CODECS: [Compression; 4] = [
        Compression::Uncompressed,
        Compression::Snappy,
        Compression::Lz4Raw(LZ4_LEVEL),
        Compression::Zstd(9),
    ];

    /// The defaults: `Balanced`, [`Self::DEFAULT_CODECS`], no ALP, a sample of 32 runs of
    /// 1,024 rows, for the writer's default page layout.
    pub fn new() -> Self {
        Self::default()
    }

    /// What to optimise for.
    pub fn with_objective(mut self, objective: Objective) -> Self {
        self.objective = objective;
        self
    }

    /// The codecs to choose from (with their levels).
    pub fn with_codecs(mut self, codecs: Vec<Compression>) -> Self {
        self.codecs = codecs;
        self
    }

    /// Whether floats may be ALP (off by default: few readers read it yet).
    pub fn with_alp(mut self, alp: bool) -> Self {
        self.alp = alp;
        self
    }

    /// The sample: `runs` runs of `run_rows` contiguous rows, spread evenly.
    pub fn with_sample(mut self, runs: u64, run_rows: u64) -> Self {
        self.runs = runs.max(1);
        self.run_rows = run_rows.max(1);
        self
    }

    /// How decoding is costed: measured here (the default) or from a table.
    pub fn with_decode_costs(mut self, costs: DecodeCosts) -> Self {
        self.costs = costs;
        self
    }

    /// The writer options the advice is for: their page layout, row group size and dictionary
    /// limit are those the candidates are tried with.
    pub fn with_writer_options(mut self, options: WriterOptions) -> Self {
        self.writer = options;
        self
    }

    /// Advice for writing `batches` (all of them, in order: the rows of the file to be
    /// written), whose Parquet schema is made from their Arrow schema as [`FileWriter`]
    /// makes it.
    ///
    /// [`FileWriter`]: crate::FileWriter
    pub fn advise(&self, batches: &[RecordBatch]) -> Result<Advice> {
        let Some(first) = batches.first() else {
            return Err(Error::Request("no batch to advise on".into()));
        };
        let descr = ArrowSchemaConverter::new()
            .convert(&first.schema())
            .map_err(|e| Error::Format {
                context: "the schema has no Parquet form".into(),
                source: Box::new(e),
            })?;
        self.advise_as(batches, descr.root_schema().get_fields())
    }

    /// Advice for writing `batches` as the Parquet columns under `roots` (the top-level
    /// fields of the file's schema).
    pub(crate) fn advise_as(&self, batches: &[RecordBatch], roots: &[TypePtr]) -> Result<Advice> {
        let Some(first) = batches.first() else {
            return Err(Error::Request("no batch to advise on".into()));
        };
        let total = batches.iter().map(|b| b.num_rows() as u64).sum();
        let mut sampler = self.sampler(&first.schema(), roots, total)?;
        for batch in batches {
            sampler.observe(batch)?;
        }
        sampler.end_group();
        self.finish(sampler, roots, &HashMap::new(), 0)
    }

    /// A sampler of `total` rows of `schema`, whose top-level fields are `roots`.
    fn sampler(&self, schema: &SchemaRef, roots: &[TypePtr], total: u64) -> Result<Sampler> {
        let mut fields = Vec::with_capacity(schema.fields().len());
        for field in schema.fields() {
            let leaves = field_descr(&root_of(roots, field.name())?)?
                .columns()
                .iter()
                .map(|c| column_desc(c).map_err(Error::Request))
                .collect::<Result<_>>()?;
            fields.push((Arc::clone(field), leaves));
        }
        Ok(Sampler::new(
            fields,
            sample::plan_runs(total, self.runs, self.run_rows),
            self.writer.row_group_rows as u64,
            self.writer.dictionary_page_bytes as u64,
        ))
    }

    /// Tries the candidates on what `sampler` kept; `current` has what a file holds now,
    /// by column path, and `overhead` its bytes outside column chunks.
    fn finish(
        &self,
        sampler: Sampler,
        roots: &[TypePtr],
        current: &HashMap<String, Current>,
        overhead: u64,
    ) -> Result<Advice> {
        let total = sampler.rows();
        let group_rows = sampler.group_rows.clone();
        let mut tried = Vec::new();
        for field in &sampler.fields {
            let descr = field_descr(&root_of(roots, field.field.name())?)?;
            let rows = field.rows()?;
            let bench = trial::Bench::new(
                field,
                Arc::clone(&rows),
                descr,
                &self.writer,
                match self.costs {
                    DecodeCosts::Measured => 3,
                    DecodeCosts::Table(_) => 0,
                },
            )?;
            let mut sample_leaves = Vec::new();
            sample::leaf_arrays(&rows, &mut sample_leaves);
            for (i, leaf) in field.leaves.iter().enumerate() {
                let in_sample = sample_leaves.get(i).map(|array| {
                    let mut counter = DistinctCounter::new(leaf.column_type, u64::MAX);
                    counter.observe(array);
                    counter.finish()
                });
                let value_bytes = sample_leaves.get(i).map_or(0, value_bytes);
                let scale = Scale {
                    costs: self.costs,
                    physical: leaf.physical(),
                    value_bytes: value_bytes as f64,
                    total,
                    sample: bench.rows(),
                    groups: &field.groups[i],
                    group_rows: &group_rows,
                    in_sample: in_sample.unwrap_or(Distinct::Unknown),
                };
                let now = current.get(&leaf.path).cloned();
                tried.push(self.column(&bench, i, leaf, &scale, now)?);
            }
        }
        let current_bytes = (!current.is_empty())
            .then(|| current.values().map(|c| c.bytes).sum::<u64>() + overhead);
        let advice = Advice {
            objective: self.objective,
            columns: tried,
            current_bytes,
            predicted_bytes: 0,
            overhead,
        };
        Ok(advice.with_objective(self.objective))
    }

    /// One leaf column's candidates and pick.
    fn column(
        &self,
        bench: &trial::Bench<'_>,
        leaf: usize,
        desc: &ColumnDesc,
        scale: &Scale<'_>,
        current: Option<Current>,
    ) -> Result<ColumnAdvice> {
        let mut candidates = Vec::new();
        let mut notes = Vec::new();
        let dictionary_fits = !scale.groups.contains(&Distinct::OverLimit);
        if !dictionary_fits {
            notes.push(format!(
                "a dictionary would pass the writer's {} limit",
                ByteSize(self.writer.dictionary_page_bytes as u64)
            ));
        }
        let mut trials = Vec::new();
        for encoding in encodings_for(desc.physical(), self.alp) {
            if encoding.is_dictionary() && !dictionary_fits {
                continue;
            }
            for &compression in &self.codecs {
                let choice = Choice::new(encoding, compression);
                trials.push((choice, bench.write(leaf, choice.settings())?));
            }
        }
        // The candidates are read in turns, so that a moment the machine is slow falls on
        // them alike, not on one candidate's every read.
        for _ in 0..bench.reads() {
            for (_, written) in &mut trials {
                written.read()?;
            }
        }
        for (choice, written) in &trials {
            candidates.push(scale.estimate(*choice, &written.measured()));
        }
        if candidates.is_empty() {
            return Err(Error::Request("no codec to advise with".into()));
        }
        // What `Speed` must not exceed: the column as it is, or as the writer's defaults
        // would write it.
        let input = match &current {
            Some(c) => c.bytes,
            None => {
                let default = Choice::default_of(&self.writer, desc.physical());
                let default = if default.encoding.is_dictionary() && !dictionary_fits {
                    Choice::new(Encoding::Plain, default.compression)
                } else {
                    default
                };
                let written = bench.write(leaf, default.settings())?;
                scale.estimate(default, &written.measured()).bytes
            }
        };
        Ok(ColumnAdvice {
            path: desc.path.clone(),
            physical_type: desc.physical(),
            current,
            input_bytes: input,
            candidates,
            pick: 0,
            reason: String::new(),
            notes,
        })
    }
}

/// The encodings tried for a physical type: those every common reader reads, and ALP for
/// floats when allowed. A dictionary candidate falls back to PLAIN if it ever has to.
fn encodings_for(physical: PhysicalType, alp: bool) -> Vec<Encoding> {
    use Encoding::*;
    let mut encodings = match physical {
        PhysicalType::Boolean => vec![Plain, Rle],
        PhysicalType::Int32 | PhysicalType::Int64 => {
            vec![RleDictionary, Plain, DeltaBinaryPacked]
        }
        PhysicalType::Int96 => vec![RleDictionary, Plain],
        PhysicalType::Float | PhysicalType::Double => {
            vec![RleDictionary, Plain, ByteStreamSplit]
        }
        PhysicalType::ByteArray => vec![RleDictionary, Plain, DeltaLengthByteArray, DeltaByteArray],
        // DELTA_BYTE_ARRAY is allowed here, but polars (1.x) refuses it for this type.
        PhysicalType::FixedLenByteArray => vec![RleDictionary, Plain],
    };
    if alp && matches!(physical, PhysicalType::Float | PhysicalType::Double) {
        encodings.push(Alp);
    }
    encodings
}

/// How a sample's measures scale to the column.
struct Scale<'a> {
    costs: DecodeCosts,
    physical: PhysicalType,
    /// The sample's byte arrays' bytes.
    value_bytes: f64,
    /// Rows of the column, and of the sample.
    total: u64,
    sample: u64,
    /// Per row group, its distinct values and their bytes.
    groups: &'a [Distinct],
    group_rows: &'a [u64],
    /// The sample's own.
    in_sample: Distinct,
}

impl Scale<'_> {
    fn estimate(&self, choice: Choice, m: &trial::Measured) -> Estimate {
        let ratio = self.total as f64 / self.sample.max(1) as f64;
        let seconds = match self.costs {
            DecodeCosts::Measured => m.seconds * ratio,
            DecodeCosts::Table(table) => table.seconds(
                choice.encoding,
                choice.compression,
                self.physical,
                m.values as f64 * ratio,
                m.page_bytes as f64 * ratio,
                self.value_bytes * ratio,
            ),
        };
        let plain = ((m.data_bytes + m.dictionary_bytes) as f64 * ratio) as u64;
        let bytes = match (choice.encoding.is_dictionary(), self.in_sample) {
            (
                true,
                Distinct::Counted {
                    values: d,
                    bytes: b,
                },
            ) if b > 0 => {
                // Per row group: the indices at the group's bit width, the dictionary at
                // the sample dictionary page's bytes per value byte.
                let mut bytes = 0.0;
                for (g, rows) in self.groups.iter().zip(self.group_rows) {
                    let Distinct::Counted {
                        values: dg,
                        bytes: bg,
                    } = *g
                    else {
                        return Estimate::from(choice, plain, seconds);
                    };
                    let share = *rows as f64 / self.sample.max(1) as f64;
                    let widths = bit_width(dg) as f64 / bit_width(d) as f64;
                    bytes += m.data_bytes as f64 * share * widths
                        + m.dictionary_bytes as f64 * bg as f64 / b as f64;
                }
                bytes as u64
            }
            _ => plain,
        };
        Estimate::from(choice, bytes, seconds)
    }
}

/// The bytes of a leaf's byte-array values (0 for other types).
fn value_bytes(leaf: &arrow_array::ArrayRef) -> u64 {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_schema::DataType;
    let sum = |lengths: &mut dyn Iterator<Item = usize>| lengths.sum::<usize>() as u64;
    match leaf.data_type() {
        DataType::Utf8 => sum(&mut leaf.as_string::<i32>().iter().flatten().map(str::len)),
        DataType::LargeUtf8 => sum(&mut leaf.as_string::<i64>().iter().flatten().map(str::len)),
        DataType::Utf8View => sum(&mut leaf.as_string_view().iter().flatten().map(str::len)),
        DataType::Binary => sum(&mut leaf.as_binary::<i32>().iter().flatten().map(<[u8]>::len)),
        DataType::LargeBinary => {
            sum(&mut leaf.as_binary::<i64>().iter().flatten().map(<[u8]>::len))
        }
        DataType::BinaryView => sum(&mut leaf.as_binary_view().iter().flatten().map(<[u8]>::len)),
        DataType::FixedSizeBinary(w) => ((leaf.len() - leaf.null_count()) * *w as usize) as u64,
        _ => 0,
    }
}

/// Bits of an index into a dictionary of `values` values (at least 1).
fn bit_width(values: u64) -> u32 {
    (64 - values.saturating_sub(1).leading_zeros()).max(1)
}

/// The Parquet type of the top-level field `name`.
fn root_of(roots: &[TypePtr], name: &str) -> Result<TypePtr> {
    roots
        .iter()
        .find(|t| t.name() == name)
        .cloned()
        .ok_or_else(|| Error::Request(format!("no Parquet column for the field {name:?}")))
}

/// The Parquet schema of one top-level field alone: its leaf columns keep their paths.
fn field_descr(root: &TypePtr) -> Result<SchemaDescPtr> {
    let group = Type::group_type_builder("schema")
        .with_fields(vec![Arc::clone(root)])
        .build()
        .map_err(|e| Error::Format {
            context: format!("the Parquet schema of {}", root.name()),
            source: Box::new(e),
        })?;
    Ok(Arc::new(SchemaDescriptor::new(Arc::new(group))))
}

/// An encoding and a codec for a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Choice {
    /// The values' encoding; `RLE_DICTIONARY` means a dictionary first, PLAIN after a
    /// fallback.
    pub encoding: Encoding,
    /// The pages' codec.
    pub compression: Compression,
}

impl Choice {
    /// `encoding` with `compression`.
    pub fn new(encoding: Encoding, compression: Compression) -> Self {
        Choice {
            encoding,
            compression,
        }
    }

    /// The column settings that write it.
    pub fn settings(&self) -> ColumnSettings {
        ColumnSettings::new()
            .with_encoding(self.encoding)
            .with_compression(self.compression)
    }

    /// What `options` write for a column of `physical` type with no settings of its own.
    fn default_of(options: &WriterOptions, physical: PhysicalType) -> Self {
        let dictionary = options.dictionary && physical != PhysicalType::Boolean;
        let encoding = match (dictionary, options.encoding) {
            (true, _) => Encoding::RleDictionary,
            (false, Some(e)) => e,
            (false, None) => Encoding::Plain,
        };
        Choice::new(encoding, options.compression)
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.encoding.name(), self.compression)
    }
}

/// A candidate's bytes and decode time, estimated for the whole column.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Estimate {
    /// The encoding; `RLE_DICTIONARY` means a dictionary first.
    pub encoding: Encoding,
    /// The codec.
    pub compression: Compression,
    /// The column's bytes in the file (pages and their headers).
    pub bytes: u64,
    /// Seconds to decompress and decode it, on this machine, with pqcodec's reader.
    pub decode_seconds: f64,
}

impl Estimate {
    fn from(choice: Choice, bytes: u64, decode_seconds: f64) -> Self {
        Estimate {
            encoding: choice.encoding,
            compression: choice.compression,
            bytes,
            decode_seconds,
        }
    }

    /// The candidate's encoding and codec.
    pub fn choice(&self) -> Choice {
        Choice::new(self.encoding, self.compression)
    }
}

/// What a file's column holds now.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Current {
    /// The encodings its chunks list (as the footer names them).
    pub encodings: Vec<String>,
    /// Its codec (as the footer names it).
    pub compression: String,
    /// Its bytes, over every row group.
    pub bytes: u64,
}

/// The advice for one leaf column.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ColumnAdvice {
    /// The column's dotted path.
    pub path: String,
    /// Its physical type.
    pub physical_type: PhysicalType,
    /// What a file's column holds now (advising a file).
    pub current: Option<Current>,
    /// Its bytes now, or, advising batches, as the writer's default settings would write it:
    /// what `Speed` stays within.
    pub input_bytes: u64,
    /// Every candidate tried, in the order tried.
    pub candidates: Vec<Estimate>,
    /// The index of the pick in `candidates`.
    pub pick: usize,
    /// Why it was picked.
    pub reason: String,
    /// What else to say of it, whatever the pick.
    notes: Vec<String>,
}

impl ColumnAdvice {
    /// The candidate picked.
    pub fn picked(&self) -> &Estimate {
        &self.candidates[self.pick]
    }

    /// The pick as column settings: its encoding, dictionary and codec.
    pub(crate) fn settings(&self) -> ColumnSettings {
        let pick = self.picked();
        (ColumnSettings::new().with_encoding(pick.encoding))
            .with_dictionary(pick.encoding.is_dictionary())
            .with_compression(pick.compression)
    }
}

/// An encoding and codec for each column, and the file size predicted with them.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Advice {
    /// What was optimised for.
    pub objective: Objective,
    /// Per leaf column, in the schema's order.
    pub columns: Vec<ColumnAdvice>,
    /// The file's size now (advising a file).
    pub current_bytes: Option<u64>,
    /// The file's size with the picks: the columns' estimates, and the file's bytes outside
    /// column chunks (footer, page index) as they are now.
    pub predicted_bytes: u64,
    /// The file's bytes outside column chunks.
    overhead: u64,
}

impl Advice {
    /// The same candidates, picked for `objective`: advice for each objective from one
    /// sample and one set of measures.
    pub fn with_objective(mut self, objective: Objective) -> Self {
        let candidates: Vec<Vec<Estimate>> =
            self.columns.iter().map(|c| c.candidates.clone()).collect();
        let inputs: Vec<u64> = self.columns.iter().map(|c| c.input_bytes).collect();
        let picks = pick::plan(objective, &candidates, &inputs);
        for (column, (pick, why)) in self.columns.iter_mut().zip(picks) {
            column.pick = pick;
            column.reason = std::iter::once(why)
                .chain(column.notes.iter().cloned())
                .collect::<Vec<_>>()
                .join("; ");
        }
        self.objective = objective;
        self.predicted_bytes =
            self.columns.iter().map(|c| c.picked().bytes).sum::<u64>() + self.overhead;
        self
    }

    /// `options` with each column's pick as its settings.
    pub fn writer_options(&self, mut options: WriterOptions) -> WriterOptions {
        for column in &self.columns {
            options.choose_column(column.path.clone(), &column.settings());
        }
        options
    }
}

/// A number of bytes for people to read: `16.0 MB`, `2.55 GB`, `512 B` (powers of 1000).
///
/// ```
/// use pqcodec_file::advisor::ByteSize;
/// assert_eq!(ByteSize(16_040_000).to_string(), "16.0 MB");
/// assert_eq!(ByteSize(512).to_string(), "512 B");
/// assert_eq!(format!("{:>8}", ByteSize(512)), "   512 B");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteSize(pub u64);

impl fmt::Display for ByteSize {
    /// Padded and aligned as a string is (`{:>10}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self.0 {
            b if b >= 1_000_000_000 => format!("{:.2} GB", b as f64 / 1e9),
            b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
            b if b >= 1_000 => format!("{:.1} kB", b as f64 / 1e3),
            b => format!("{b} B"),
        };
        f.pad(&text)
    }
}
