//! The advisor on data whose best choice is known, its objectives' order, its predictions
//! against the files written with them, and the writer choosing on its own.

use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use bytes::Bytes;
use parquet::basic::Encoding as PqEncoding;
use pqcodec_core::Encoding;
use pqcodec_file::advisor::{Advice, Advisor, CostTable, DecodeCosts};
use pqcodec_file::{ColumnSettings, Compression, FileWriter, Objective, WriterOptions};
use pqcodec_testkit::Rng;

use crate::writer::{read_arrow_rs, write};

const ROWS: usize = 200_000;

fn batch(name: &str, array: ArrayRef) -> RecordBatch {
    RecordBatch::try_from_iter([(name, array)]).unwrap()
}

/// The advisor with the reference table's decode costs: the same picks on every machine
/// and build (a debug build decodes several times slower, and not evenly).
fn advisor() -> Advisor {
    Advisor::new().with_decode_costs(DecodeCosts::Table(CostTable::REFERENCE))
}

fn advise(batch: &RecordBatch, objective: Objective) -> Advice {
    advisor()
        .with_objective(objective)
        .advise(std::slice::from_ref(batch))
        .unwrap()
}

/// Sorted, with gaps of 1 to 16.
fn sorted_integers() -> ArrayRef {
    let mut rng = Rng::new(1);
    let mut v = 0i64;
    Arc::new(Int64Array::from_iter_values((0..ROWS).map(|_| {
        v += 1 + rng.below(16) as i64;
        v
    })))
}

/// Six values in random order.
fn few_distinct() -> ArrayRef {
    let words = ["AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP"];
    let mut rng = Rng::new(2);
    Arc::new(StringArray::from_iter_values(
        (0..ROWS).map(|_| words[rng.below(words.len())]),
    ))
}

/// A measure sampled often: slow waves and a little noise, at full precision.
fn smooth_floats() -> ArrayRef {
    let mut rng = Rng::new(3);
    Arc::new(Float64Array::from_iter_values((0..ROWS).map(|i| {
        18.0 + 6.0 * (i as f64 / 5_000.0).sin() + rng.below(1 << 20) as f64 / (1 << 22) as f64
    })))
}

/// Sorted paths that share most of their bytes with the one before.
fn shared_prefixes() -> ArrayRef {
    let mut rng = Rng::new(4);
    let mut n = 0;
    Arc::new(StringArray::from_iter_values((0..ROWS).map(|_| {
        n += 1 + rng.below(9);
        format!("s3://warehouse.example.org/events/region=eu-west-1/year=2026/part-{n:010}.parquet")
    })))
}

/// Sentences of words from a vocabulary of a few hundred: no two alike, far from random bytes.
fn text() -> ArrayRef {
    let mut rng = Rng::new(5);
    let vocabulary: Vec<String> = (0..400)
        .map(|i| {
            let len = 3 + rng.below(7);
            (0..len)
                .map(|j| (b'a' + ((i * 7 + j * 13 + rng.below(3)) % 26) as u8) as char)
                .collect()
        })
        .collect();
    Arc::new(StringArray::from_iter_values((0..ROWS / 4).map(|_| {
        let words = 4 + rng.below(12);
        (0..words)
            .map(|_| vocabulary[rng.below(vocabulary.len())].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    })))
}

#[test]
fn sorted_integers_take_a_delta_encoding_and_no_codec() {
    let advice = advise(&batch("id", sorted_integers()), Objective::Balanced);
    let pick = advice.columns[0].picked();
    assert_eq!(
        (pick.encoding, pick.compression),
        (Encoding::DeltaBinaryPacked, Compression::Uncompressed),
        "{advice:#?}"
    );
}

#[test]
fn few_distinct_values_take_a_dictionary() {
    let b = batch("mode", few_distinct());
    for objective in [Objective::Size, Objective::Balanced, Objective::Speed] {
        let advice = advise(&b, objective);
        assert_eq!(
            advice.columns[0].picked().encoding,
            Encoding::RleDictionary,
            "{objective}: {advice:#?}"
        );
    }
}

#[test]
fn smooth_floats_take_byte_stream_split_with_a_codec() {
    let advice = advise(&batch("temperature", smooth_floats()), Objective::Size);
    let pick = advice.columns[0].picked();
    assert_eq!(pick.encoding, Encoding::ByteStreamSplit, "{advice:#?}");
    assert_ne!(pick.compression, Compression::Uncompressed, "{advice:#?}");
}

#[test]
fn long_shared_prefixes_take_delta_byte_array() {
    let advice = advise(&batch("path", shared_prefixes()), Objective::Size);
    assert_eq!(
        advice.columns[0].picked().encoding,
        Encoding::DeltaByteArray,
        "{advice:#?}"
    );
}

#[test]
fn text_takes_zstd() {
    let advice = advise(&batch("comment", text()), Objective::Balanced);
    assert!(
        matches!(advice.columns[0].picked().compression, Compression::Zstd(_)),
        "{advice:#?}"
    );
}

/// TPC-H's comments, words of a small vocabulary: at `Balanced`, within the file's slack, LZ4's
/// high-compression blocks (a third smaller than its fast ones, and as fast to read) are taken
/// over ZSTD's smaller ones, which take twice as long to decompress.
#[cfg(feature = "lz4-hc")]
#[test]
fn tpch_comments_take_lz4_high_compression_when_balanced() {
    use tpchgen::generators::OrderGenerator;
    use tpchgen_arrow::OrderArrow;
    let orders: Vec<RecordBatch> = OrderArrow::new(OrderGenerator::new(0.05, 1, 1))
        .map(Result::unwrap)
        .collect();
    let advice = advisor()
        .with_objective(Objective::Balanced)
        .advise(&orders)
        .unwrap();
    let comment = advice
        .columns
        .iter()
        .find(|c| c.path == "o_comment")
        .unwrap();
    assert!(
        matches!(comment.picked().compression, Compression::Lz4Raw(l) if l > 1),
        "{comment:#?}"
    );
}

/// Every column of the known cases, in one batch.
fn mixed() -> RecordBatch {
    let text = text();
    let n = text.len();
    RecordBatch::try_from_iter([
        ("id", sorted_integers().slice(0, n)),
        ("mode", few_distinct().slice(0, n)),
        ("temperature", smooth_floats().slice(0, n)),
        ("path", shared_prefixes().slice(0, n)),
        ("comment", text),
    ])
    .unwrap()
}

fn decode_seconds(advice: &Advice) -> f64 {
    advice
        .columns
        .iter()
        .map(|c| c.picked().decode_seconds)
        .sum()
}

#[test]
fn the_objectives_are_ordered_as_documented() {
    // One sample and one set of measures, picked for each objective.
    let balanced = advise(&mixed(), Objective::Balanced);
    let size = balanced.clone().with_objective(Objective::Size);
    let speed = balanced.clone().with_objective(Objective::Speed);
    for c in &size.columns {
        let least = c.candidates.iter().map(|e| e.bytes).min().unwrap();
        assert_eq!(c.picked().bytes, least, "size takes each column's smallest");
    }
    assert!(size.predicted_bytes <= balanced.predicted_bytes);
    assert!(balanced.predicted_bytes as f64 <= size.predicted_bytes as f64 * 1.25);
    assert!(decode_seconds(&balanced) <= decode_seconds(&size));
    let input: u64 = speed.columns.iter().map(|c| c.input_bytes).sum();
    assert!(speed.predicted_bytes <= input);
    assert!(decode_seconds(&speed) <= decode_seconds(&size));
}

#[test]
fn predictions_are_within_five_percent_of_the_files_written() {
    use tpchgen::generators::{LineItemGenerator, OrderGenerator};
    use tpchgen_arrow::{LineItemArrow, OrderArrow};
    let lineitem: Vec<RecordBatch> = LineItemArrow::new(LineItemGenerator::new(0.05, 1, 1))
        .map(Result::unwrap)
        .collect();
    let orders: Vec<RecordBatch> = OrderArrow::new(OrderGenerator::new(0.05, 1, 1))
        .map(Result::unwrap)
        .collect();
    for (table, batches) in [("lineitem", lineitem), ("orders", orders)] {
        // Decode costs measured here: the picks may differ from run to run, the bytes
        // predicted for them must not be off.
        let balanced = Advisor::new().advise(&batches).unwrap();
        for objective in [Objective::Size, Objective::Balanced, Objective::Speed] {
            let advice = balanced.clone().with_objective(objective);
            let file = write(&batches, advice.writer_options(WriterOptions::new()));
            let error = file.len() as f64 / advice.predicted_bytes as f64 - 1.0;
            assert!(
                error.abs() <= 0.05,
                "{table} {objective}: {} bytes written, {} predicted",
                file.len(),
                advice.predicted_bytes
            );
            let source =
                arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap();
            assert_eq!(read_arrow_rs(file), source, "{table} {objective}");
        }
    }
}

#[test]
fn the_writer_chooses_with_auto_and_keeps_a_columns_own_settings() {
    let whole = mixed();
    let batches: Vec<RecordBatch> = (0..whole.num_rows())
        .step_by(7_000)
        .map(|at| whole.slice(at, 7_000.min(whole.num_rows() - at)))
        .collect();
    let options = WriterOptions::new().with_auto(advisor()).with_column(
        "comment",
        ColumnSettings::new()
            .with_encoding(Encoding::Plain)
            .with_compression(Compression::Snappy),
    );
    let file = write(&batches, options);
    let metadata = ParquetMetaDataOf::of(&file);
    assert_delta(&metadata, "id");
    let mode = metadata.column("mode");
    assert!(mode.encodings().any(|e| e == PqEncoding::RLE_DICTIONARY));
    let comment = metadata.column("comment");
    assert_eq!(comment.compression(), parquet::basic::Compression::SNAPPY);
    assert!(comment.encodings().all(|e| e != PqEncoding::RLE_DICTIONARY));
    assert_eq!(read_arrow_rs(file), whole);
}

#[test]
fn a_column_alone_can_be_auto() {
    let whole = mixed();
    let options = WriterOptions::new()
        .with_dictionary(false)
        .with_column("id", ColumnSettings::new().with_auto(true));
    // Told to choose a column, the writer needs an advisor.
    let refused = FileWriter::try_new(Vec::new(), whole.schema(), options.clone()).unwrap_err();
    assert!(
        refused.to_string().contains("column id is to be chosen"),
        "{refused}"
    );
    // Given one, the others told not to be chosen: they are as the file's settings say (no
    // dictionary, SNAPPY); `id` is chosen, with the reference costs a delta encoding.
    let mut options = options.with_auto(advisor());
    for other in ["mode", "temperature", "path", "comment"] {
        options = options.with_column(other, ColumnSettings::new().with_auto(false));
    }
    let file = write(std::slice::from_ref(&whole), options);
    let metadata = ParquetMetaDataOf::of(&file);
    assert_delta(&metadata, "id");
    let mode = metadata.column("mode");
    assert!(mode.encodings().all(|e| e != PqEncoding::RLE_DICTIONARY));
    assert_eq!(mode.compression(), parquet::basic::Compression::SNAPPY);
    assert_eq!(read_arrow_rs(file), whole);
}

/// Asserts that column `name`'s pages are DELTA_BINARY_PACKED.
fn assert_delta(metadata: &ParquetMetaDataOf, name: &str) {
    let encodings: Vec<_> = metadata.column(name).encodings().collect();
    assert!(
        encodings.contains(&PqEncoding::DELTA_BINARY_PACKED),
        "{name}: {encodings:?}"
    );
}

/// A file's first row group's column chunks by name.
struct ParquetMetaDataOf(parquet::file::metadata::ParquetMetaData);

impl ParquetMetaDataOf {
    fn of(file: &Bytes) -> Self {
        ParquetMetaDataOf(
            parquet::file::metadata::ParquetMetaDataReader::new()
                .parse_and_finish(file)
                .unwrap(),
        )
    }

    fn column(&self, name: &str) -> &parquet::file::metadata::ColumnChunkMetaData {
        let group = self.0.row_group(0);
        group
            .columns()
            .iter()
            .find(|c| c.column_path().string() == name)
            .unwrap()
    }
}

#[test]
fn with_auto_a_bad_batch_is_refused_when_given_and_the_writer_goes_on() {
    use arrow_array::DictionaryArray;
    use arrow_array::types::Int32Type;
    let dictionary = |keys: Vec<i32>| -> RecordBatch {
        let values: ArrayRef = Arc::new(StringArray::from(vec!["x", "y"]));
        // SAFETY: a key past the dictionary is the point of the bad batch; only the writer
        // reads these arrays, and it checks their keys.
        let array = unsafe { DictionaryArray::<Int32Type>::new_unchecked(keys.into(), values) };
        batch("d", Arc::new(array))
    };
    let (good, bad) = (dictionary(vec![0, 1, 1]), dictionary(vec![0, 5, 1]));
    let options = WriterOptions::new().with_auto(advisor());
    let mut writer = pqcodec_file::FileWriter::try_new(Vec::new(), good.schema(), options).unwrap();
    // Refused as it is given, before the advisor has chosen anything, as without `auto`.
    let err = writer.write(&bad).unwrap_err();
    assert!(err.to_string().contains("key 5"), "{err}");
    assert_eq!(writer.in_progress_rows(), 0);
    writer.write(&good).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    let read = read_arrow_rs(file);
    assert_eq!(read.num_rows(), 3);
}
