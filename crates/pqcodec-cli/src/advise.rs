//! `pqcodec advise FILE`: an encoding and a codec for each column, what they would make of
//! the file, and why.

use std::error::Error;
use std::fmt::Write as _;
use std::path::Path;

use pqcodec_file::advisor::{
    Advice, Advisor, ByteSize, ColumnAdvice, CostTable, DecodeCosts, Estimate,
};
use pqcodec_file::{Compression, LocalFile, Objective, ReaderBuilder, WriterOptions};

/// The advisor's flags, shared by `advise` and `rewrite --auto`.
#[derive(clap::Args, Debug, Clone)]
pub struct AdvisorArgs {
    /// What to optimise: `size` (the smallest), `balanced` (the fastest to decode within 25 %
    /// of the smallest) or `speed` (the fastest to decode, no larger than the input).
    #[arg(long, default_value = "balanced")]
    pub objective: Objective,
    /// The codecs to choose from, comma-separated `CODEC[:LEVEL]` [default:
    /// uncompressed,snappy,lz4_raw:6,zstd:9].
    #[arg(long, value_delimiter = ',')]
    pub codecs: Option<Vec<Compression>>,
    /// Let FLOAT and DOUBLE columns be ALP (few readers read it yet).
    #[arg(long)]
    pub allow_alp: bool,
    /// Decode costs: `measured` (each candidate read back here) or `reference` (the
    /// reference table: the same advice on every machine).
    #[arg(long, value_enum, default_value_t = Costs::Measured)]
    pub costs: Costs,
}

/// Where decode costs come from.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Costs {
    /// Each candidate's sample read back on this machine.
    Measured,
    /// The reference table.
    Reference,
}

impl AdvisorArgs {
    /// The advisor these flags ask for, trying candidates as `options` would write them.
    pub fn advisor(&self, options: WriterOptions) -> Advisor {
        let costs = match self.costs {
            Costs::Measured => DecodeCosts::Measured,
            Costs::Reference => DecodeCosts::Table(CostTable::REFERENCE),
        };
        let advisor = Advisor::new()
            .with_objective(self.objective)
            .with_alp(self.allow_alp)
            .with_decode_costs(costs)
            .with_writer_options(options);
        match &self.codecs {
            Some(codecs) => advisor.with_codecs(codecs.clone()),
            None => advisor,
        }
    }
}

/// The advice for `file`, for the writer's default layout.
pub fn advise(file: &Path, args: &AdvisorArgs) -> Result<Advice, Box<dyn Error>> {
    let source = LocalFile::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let builder = ReaderBuilder::try_new(source).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(args
        .advisor(WriterOptions::new())
        .advise_file(builder)
        .map_err(|e| format!("{}: {e}", file.display()))?)
}

/// The advice as a table: per column what it is now and its pick, then every candidate.
pub fn table(advice: &Advice) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "objective: {}", advice.objective);
    for column in &advice.columns {
        let now = match &column.current {
            Some(c) => format!(
                "{} {}, {}",
                c.encodings.join(","),
                c.compression,
                ByteSize(c.bytes)
            ),
            None => "-".into(),
        };
        let pick = column.picked();
        let _ = writeln!(
            out,
            "\n{} ({:?})\n  now:  {now}\n  pick: {} {}, {}, decode {}: {}",
            column.path,
            column.physical_type,
            pick.encoding.name(),
            pick.compression,
            ByteSize(pick.bytes),
            millis(pick.decode_seconds),
            column.reason
        );
        for (i, c) in column.candidates.iter().enumerate() {
            let mark = if i == column.pick { '*' } else { ' ' };
            let _ = writeln!(
                out,
                "   {mark} {:<24} {:<14} {:>10} {:>12}",
                c.encoding.name(),
                c.compression.to_string(),
                ByteSize(c.bytes),
                millis(c.decode_seconds)
            );
        }
    }
    let now = advice
        .current_bytes
        .map_or("-".into(), |b| ByteSize(b).to_string());
    let _ = writeln!(
        out,
        "\nfile: now {now}, predicted {}",
        ByteSize(advice.predicted_bytes)
    );
    out
}

/// The advice as JSON: `{"objective", "current_bytes", "predicted_bytes", "columns": [...]}`.
pub fn json(advice: &Advice) -> String {
    let columns: Vec<String> = advice.columns.iter().map(column_json).collect();
    format!(
        "{{\"objective\":\"{}\",\"current_bytes\":{},\"predicted_bytes\":{},\"columns\":[{}]}}\n",
        advice.objective,
        advice
            .current_bytes
            .map_or("null".to_owned(), |b| b.to_string()),
        advice.predicted_bytes,
        columns.join(",")
    )
}

fn column_json(column: &ColumnAdvice) -> String {
    let current = match &column.current {
        Some(c) => format!(
            "{{\"encodings\":[{}],\"compression\":{},\"bytes\":{}}}",
            c.encodings
                .iter()
                .map(|e| quote(e))
                .collect::<Vec<_>>()
                .join(","),
            quote(&c.compression),
            c.bytes
        ),
        None => "null".into(),
    };
    let candidates: Vec<String> = column.candidates.iter().map(estimate_json).collect();
    format!(
        "{{\"path\":{},\"physical_type\":{},\"current\":{current},\"pick\":{},\"reason\":{},\"candidates\":[{}]}}",
        quote(&column.path),
        quote(&format!("{:?}", column.physical_type)),
        estimate_json(column.picked()),
        quote(&column.reason),
        candidates.join(",")
    )
}

fn estimate_json(e: &Estimate) -> String {
    format!(
        "{{\"encoding\":{},\"compression\":{},\"bytes\":{},\"decode_seconds\":{:.6}}}",
        quote(e.encoding.name()),
        quote(&e.compression.to_string()),
        e.bytes,
        e.decode_seconds
    )
}

/// `s` as a JSON string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn millis(seconds: f64) -> String {
    format!("{:.2} ms", seconds * 1e3)
}
