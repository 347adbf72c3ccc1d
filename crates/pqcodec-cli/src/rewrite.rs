//! `pqcodec rewrite IN OUT`: a file read by pqcodec's reader and written again by pqcodec's
//! writer with other encodings, codecs or layout, never another meaning: the input's Parquet
//! schema (names, repetition, logical and converted types, field ids) and key-value metadata
//! (`ARROW:schema` included) are kept.

use std::error::Error;
use std::fs::File;
use std::io::{BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::{RecordBatch, RecordBatchReader};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::{WriterProperties, WriterVersion};

use parquet::schema::types::{SchemaDescriptor, Type};
use pqcodec_core::Encoding;
use pqcodec_file::{
    Compression, FileWriter, LocalFile, PageVersion, Projection, ReaderBuilder, WriterOptions,
};

/// The flags of `pqcodec rewrite`.
#[derive(clap::Args, Debug)]
pub struct RewriteArgs {
    /// The Parquet file to read.
    pub input: PathBuf,
    /// The Parquet file to write (replaced once the new one is whole).
    pub output: PathBuf,
    /// A column's encoding, `COLUMN=ENCODING` (dotted path; PLAIN, RLE_DICTIONARY,
    /// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT,
    /// ALP for floats, RLE for booleans); repeatable. `*=ENCODING` sets it for every column it applies to.
    #[arg(long = "encoding", value_parser = parse_encoding)]
    pub encodings: Vec<(String, Encoding)>,
    /// Page compression, `CODEC[:LEVEL]`: uncompressed, snappy, gzip, lz4_raw (1 fast, 2-12
    /// high-compression), zstd, brotli.
    #[arg(long, default_value = "snappy")]
    pub compression: Compression,
    /// Rows per row group.
    #[arg(long, default_value_t = 1 << 20)]
    pub row_group_size: usize,
    /// Bytes of levels and values per data page, before compression.
    #[arg(long, default_value_t = 1 << 20)]
    pub page_size: usize,
    /// The data page format: 1 or 2.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub data_page_version: u8,
    /// Dictionary-encode columns first (`on`, the default) or never (`off`).
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub dictionary: String,
    /// Keep only these top-level columns, comma-separated, in the input's order.
    #[arg(long, value_delimiter = ',')]
    pub columns: Option<Vec<String>>,
    /// The writer: pqcodec, or arrow-rs's `ArrowWriter` with the same options, to compare
    /// (arrow-rs makes its Parquet schema from the Arrow schema).
    #[arg(long, value_enum, default_value_t = Writer::Pqcodec)]
    pub writer: Writer,
    /// Each column's encoding and codec chosen by the advisor (`pqcodec advise`), from a first
    /// read of the input; `--encoding` flags still override it.
    #[arg(long)]
    pub auto: bool,
    /// The advisor's choices, with `--auto`.
    #[command(flatten)]
    pub advisor: crate::advise::AdvisorArgs,
}

/// Which writer `rewrite` uses.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// pqcodec's `FileWriter`.
    Pqcodec,
    /// arrow-rs's `ArrowWriter`.
    ArrowRs,
}

fn parse_encoding(s: &str) -> Result<(String, Encoding), String> {
    let (column, encoding) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?} is not COLUMN=ENCODING"))?;
    let encoding: Encoding = encoding.parse().map_err(|e| format!("{e}"))?;
    Ok((column.to_owned(), encoding))
}

/// What a rewrite did.
#[derive(Debug)]
pub struct Summary {
    /// Rows written.
    pub rows: u64,
    /// Size of the input file.
    pub bytes_in: u64,
    /// Size of the output file.
    pub bytes_out: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Seconds spent in the writer's calls (encoding, compressing, writing out).
    pub write_seconds: f64,
    /// With `--auto`: the size the advisor predicted.
    pub predicted_bytes: Option<u64>,
}

/// Rewrites `args.input` into `args.output`.
///
/// The file is written beside the output (`OUTPUT.partial`) and renamed over it once whole: a
/// rewrite that fails leaves the output as it was.
pub fn rewrite(args: &RewriteArgs) -> Result<Summary, Box<dyn Error>> {
    let mut partial = args.output.clone().into_os_string();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let written = write_to(args, &partial).and_then(|summary| {
        std::fs::rename(&partial, &args.output)
            .map_err(|e| format!("{}: {e}", args.output.display()))?;
        Ok(summary)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// Reads the input and writes it again to `path`; errors name the output given.
fn write_to(args: &RewriteArgs, path: &Path) -> Result<Summary, Box<dyn Error>> {
    let start = Instant::now();
    let at = |path: &Path| {
        let path = path.display().to_string();
        move |e: pqcodec_file::Error| format!("{path}: {e}")
    };
    let source =
        LocalFile::open(&args.input).map_err(|e| format!("{}: {e}", args.input.display()))?;
    let builder = ReaderBuilder::try_new(source).map_err(at(&args.input))?;
    let metadata = Arc::clone(builder.metadata());
    let file_metadata = metadata.metadata().file_metadata();
    let root = file_metadata.schema_descr().root_schema_ptr();
    let mut kept_roots = None;
    let (builder, parquet_root) = match &args.columns {
        None => (builder, root),
        Some(names) => {
            let fields = root.get_fields();
            let mut keep = Vec::with_capacity(names.len());
            for name in names {
                let i = fields
                    .iter()
                    .position(|f| f.name() == name)
                    .ok_or_else(|| {
                        format!("{}: no top-level column {name:?}", args.input.display())
                    })?;
                keep.push(i);
            }
            keep.sort_unstable();
            keep.dedup();
            kept_roots = Some(keep.clone());
            let kept = keep.iter().map(|&i| Arc::clone(&fields[i])).collect();
            let root = Type::group_type_builder(root.name())
                .with_fields(kept)
                .build()?;
            (
                builder.with_projection(Projection::roots(keep)),
                Arc::new(root),
            )
        }
    };
    let reader = builder.build().map_err(at(&args.input))?;
    let schema = reader.schema();
    let mut options = WriterOptions::new()
        .with_compression(args.compression)
        .with_max_row_group_row_count(args.row_group_size)
        .with_data_page_size_limit(args.page_size)
        .with_data_page_version(if args.data_page_version == 2 {
            PageVersion::V2
        } else {
            PageVersion::V1
        })
        .with_dictionary(args.dictionary == "on");
    let mut predicted_bytes = None;
    if args.auto {
        if args.writer == Writer::ArrowRs {
            return Err("--auto is for pqcodec's writer".into());
        }
        let source =
            LocalFile::open(&args.input).map_err(|e| format!("{}: {e}", args.input.display()))?;
        let mut first_read = ReaderBuilder::try_new(source).map_err(at(&args.input))?;
        if let Some(keep) = &kept_roots {
            first_read = first_read.with_projection(Projection::roots(keep.clone()));
        }
        let advice = args
            .advisor
            .advisor(options.clone())
            .advise_file(first_read)
            .map_err(at(&args.input))?;
        predicted_bytes = Some(advice.predicted_bytes);
        options = advice.writer_options(options);
    }
    let encodings = column_encodings(&args.encodings, &parquet_root);
    for (column, encoding) in &encodings {
        let settings = options.column_mut(column.clone());
        settings.encoding = Some(*encoding);
        settings.dictionary = None;
    }
    // The input's key-value metadata goes through; its Arrow schema too, unless columns were
    // dropped (then the writer embeds the schema read).
    let projected = args.columns.is_some();
    for kv in file_metadata.key_value_metadata().into_iter().flatten() {
        if kv.key == "ARROW:schema" && projected {
            continue;
        }
        options = options.with_key_value(kv.key.clone(), kv.value.clone().unwrap_or_default());
    }
    options = options.with_arrow_schema(projected);
    let descr = Arc::new(SchemaDescriptor::new(parquet_root));
    let out = File::create(path).map_err(|e| format!("{}: {e}", args.output.display()))?;
    let mut writer = match args.writer {
        Writer::Pqcodec => Output::Pqcodec(
            FileWriter::try_new_with_parquet_schema(BufWriter::new(out), schema, descr, options)
                .map_err(at(&args.output))?,
        ),
        Writer::ArrowRs => Output::ArrowRs(ArrowWriter::try_new(
            BufWriter::new(out),
            schema,
            Some(arrow_rs_properties(args, &encodings)),
        )?),
    };
    let total = u64::try_from(file_metadata.num_rows()).unwrap_or(0);
    let progress = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} rows {elapsed} eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let mut rows = 0u64;
    let mut writing = Duration::ZERO;
    let mut reader = reader;
    while let Some(batch) = reader.next_batch().map_err(at(&args.input))? {
        let started = Instant::now();
        writer
            .write(&batch)
            .map_err(|e| format!("{}: {e}", args.output.display()))?;
        writing += started.elapsed();
        rows += batch.num_rows() as u64;
        if let Some(bar) = &progress {
            bar.set_position(rows);
        }
    }
    let started = Instant::now();
    let out = writer
        .into_inner()
        .map_err(|e| format!("{}: {e}", args.output.display()))?;
    writing += started.elapsed();
    out.into_inner()
        .map_err(|e| format!("{}: {}", args.output.display(), e.error()))?
        .sync_all()
        .map_err(|e| format!("{}: {e}", args.output.display()))?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    Ok(Summary {
        rows,
        bytes_in: metadata.file_size(),
        bytes_out: std::fs::metadata(path)?.len(),
        seconds: start.elapsed().as_secs_f64(),
        write_seconds: writing.as_secs_f64(),
        predicted_bytes,
    })
}

/// The `--encoding` flags per leaf column path: `*` for every column the encoding applies to,
/// a column's own flag over it.
fn column_encodings(flags: &[(String, Encoding)], root: &Arc<Type>) -> Vec<(String, Encoding)> {
    let descr = SchemaDescriptor::new(Arc::clone(root));
    let mut out: Vec<(String, Encoding)> = Vec::new();
    for (_, encoding) in flags.iter().filter(|(c, _)| c == "*") {
        for leaf in descr.columns() {
            let physical = pqcodec_file::framing::physical(leaf.physical_type());
            if pqcodec_encodings::dynamic::encodes(*encoding, physical) {
                out.retain(|(c, _)| *c != leaf.path().string());
                out.push((leaf.path().string(), *encoding));
            }
        }
    }
    for (column, encoding) in flags.iter().filter(|(c, _)| c != "*") {
        out.retain(|(c, _)| c != column);
        out.push((column.clone(), *encoding));
    }
    out
}

/// The output file, written by either writer.
enum Output {
    Pqcodec(FileWriter<BufWriter<File>>),
    ArrowRs(ArrowWriter<BufWriter<File>>),
}

impl Output {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), Box<dyn Error>> {
        match self {
            Output::Pqcodec(w) => w.write(batch)?,
            Output::ArrowRs(w) => w.write(batch)?,
        }
        Ok(())
    }

    fn into_inner(self) -> Result<BufWriter<File>, Box<dyn Error>> {
        Ok(match self {
            Output::Pqcodec(w) => w.into_inner()?,
            Output::ArrowRs(w) => w.into_inner()?,
        })
    }
}

/// arrow-rs's writer properties for the same flags.
fn arrow_rs_properties(args: &RewriteArgs, encodings: &[(String, Encoding)]) -> WriterProperties {
    let mut props = WriterProperties::builder()
        .set_compression(args.compression.into())
        .set_max_row_group_row_count(Some(args.row_group_size))
        .set_data_page_size_limit(args.page_size)
        .set_dictionary_enabled(args.dictionary == "on")
        .set_writer_version(if args.data_page_version == 2 {
            WriterVersion::PARQUET_2_0
        } else {
            WriterVersion::PARQUET_1_0
        });
    for (column, encoding) in encodings {
        let Ok(e) = encoding.name().parse::<parquet::basic::Encoding>() else {
            continue;
        };
        let path = parquet::schema::types::ColumnPath::from(column.as_str());
        let dictionary = encoding.is_dictionary();
        props = props.set_column_dictionary_enabled(path.clone(), dictionary);
        if !dictionary {
            props = props.set_column_encoding(path, e);
        }
    }
    props.build()
}
