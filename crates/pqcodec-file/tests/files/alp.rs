//! Files whose FLOAT and DOUBLE columns are ALP-encoded. Written by arrow-rs 60.1 (the other
//! writer of ALP, taken as `parquet60`), read by pqcodec's reader (the footer names an encoding
//! the workspace's parquet crate does not know; the pages are framed by pqcodec); written by
//! pqcodec's writer, read by arrow-rs 60.1. Every value bit for bit, with nulls, several pages,
//! compression, and row selections over the page index.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Float32Array, Float64Array, Int32Array, RecordBatch};
use bytes::Bytes;
use parquet60::basic::{Compression, Encoding as PqEncoding};
use parquet60::column::reader::ColumnReader;
use parquet60::data_type::{DoubleType, FloatType};
use parquet60::file::properties::{WriterProperties, WriterVersion};
use parquet60::file::reader::{FileReader, SerializedFileReader};
use parquet60::file::writer::SerializedFileWriter;
use parquet60::schema::parser::parse_message_type;
use pqcodec_arrow::PageSource;
use pqcodec_core::Encoding;
use pqcodec_file::ParquetFile;
use pqcodec_file::{
    ColumnSettings, Compression as Codec, FileWriter, PageVersion, ReaderBuilder, ReaderOptions,
    RowSelection, RowSelector, WriterOptions,
};

const ROWS: usize = 10_000;

/// Prices with two decimals, and a few values ALP keeps as exceptions.
fn doubles() -> Vec<f64> {
    (0..ROWS)
        .map(|i| match i % 997 {
            0 => f64::NAN,
            1 => -0.0,
            2 => f64::INFINITY,
            3 => f64::from_bits(0x7FF8_0000_0000_00AB),
            4 => 5e-324,
            _ => ((i * 7919) % 100_000) as f64 / 100.0,
        })
        .collect()
}

/// Floats with every fifth null: the values of the rows that are not.
fn floats() -> Vec<Option<f32>> {
    (0..ROWS)
        .map(|i| (i % 5 != 2).then(|| ((i * 31) % 5000) as f32 / 10.0 - 100.0))
        .collect()
}

fn write(version: WriterVersion, compression: Compression) -> Bytes {
    let schema = parse_message_type("message m { required double d; optional float f; }").unwrap();
    let props = WriterProperties::builder()
        .set_writer_version(version)
        .set_compression(compression)
        .set_dictionary_enabled(false)
        .set_encoding(PqEncoding::ALP)
        .set_data_page_row_count_limit(1500)
        .set_write_batch_size(500)
        .build();
    let mut out = Vec::new();
    let mut writer =
        SerializedFileWriter::new(&mut out, Arc::new(schema), Arc::new(props)).unwrap();
    // Two row groups.
    let (d, f) = (doubles(), floats());
    for half in [0..ROWS / 2, ROWS / 2..ROWS] {
        let mut group = writer.next_row_group().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<DoubleType>()
            .write_batch(&d[half.clone()], None, None)
            .unwrap();
        column.close().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        let present: Vec<f32> = f[half.clone()].iter().flatten().copied().collect();
        let levels: Vec<i16> = f[half].iter().map(|v| i16::from(v.is_some())).collect();
        column
            .typed::<FloatType>()
            .write_batch(&present, Some(&levels), None)
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
    }
    writer.close().unwrap();
    Bytes::from(out)
}

/// The columns read, as bits.
fn read(data: Bytes, selection: Option<RowSelection>) -> (Vec<u64>, Vec<Option<u32>>) {
    let options = ReaderOptions::new().with_page_index(true);
    let mut builder = ReaderBuilder::try_new_with_options(data, options).unwrap();
    if let Some(selection) = selection {
        builder = builder.with_row_selection(selection);
    }
    let (mut d, mut f) = (Vec::new(), Vec::new());
    for batch in builder.build().unwrap() {
        let batch = batch.unwrap();
        let doubles = batch
            .column(0)
            .as_any()
            .downcast_ref::<Float64Array>()
            .unwrap();
        d.extend(doubles.values().iter().map(|v| v.to_bits()));
        let floats = batch
            .column(1)
            .as_any()
            .downcast_ref::<Float32Array>()
            .unwrap();
        assert_eq!(
            floats.null_count(),
            floats.iter().filter(Option::is_none).count()
        );
        f.extend(floats.iter().map(|v| v.map(f32::to_bits)));
    }
    (d, f)
}

#[test]
fn alp_files_of_arrow_rs_read_bit_for_bit() {
    let want_d: Vec<u64> = doubles().iter().map(|v| v.to_bits()).collect();
    let want_f: Vec<Option<u32>> = floats().iter().map(|v| v.map(f32::to_bits)).collect();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for compression in [Compression::UNCOMPRESSED, Compression::SNAPPY] {
            let data = write(version, compression);
            // Every data page is ALP.
            let file = ParquetFile::from_bytes(data.clone()).unwrap();
            for column in 0..2 {
                let mut pages = file.chunk_pages(0, column).unwrap();
                let mut n = 0;
                while let Some(page) = pages.next_page().unwrap() {
                    assert_eq!(page.encoding(), Encoding::Alp);
                    n += 1;
                }
                assert!(n >= 3, "{n} pages");
            }
            let (d, f) = read(data.clone(), None);
            assert!(d == want_d, "{version:?} {compression:?}: doubles differ");
            assert_eq!(f, want_f, "{version:?} {compression:?}");

            // Rows of both row groups, pages passed over by the offset index.
            let selection: RowSelection = vec![
                RowSelector::skip(1700),
                RowSelector::select(40),
                RowSelector::skip(4000),
                RowSelector::select(3000),
            ]
            .into();
            let (d, f) = read(data, Some(selection));
            let rows: Vec<usize> = (1700..1740).chain(5740..8740).collect();
            assert!(d == rows.iter().map(|&r| want_d[r]).collect::<Vec<_>>());
            assert_eq!(f, rows.iter().map(|&r| want_f[r]).collect::<Vec<_>>());
        }
    }
}

/// Each row group's values of one column, read by arrow-rs 60.1: the values and the
/// definition levels.
macro_rules! read_60 {
    ($file:expr, $column:expr, $variant:ident, $t:ty) => {{
        let mut values: Vec<$t> = Vec::new();
        let mut levels: Vec<i16> = Vec::new();
        for g in 0..$file.num_row_groups() {
            let group = $file.get_row_group(g).unwrap();
            let ColumnReader::$variant(mut reader) = group.get_column_reader($column).unwrap()
            else {
                panic!("another type");
            };
            let (mut v, mut l) = (Vec::new(), Vec::new());
            reader
                .read_records(usize::MAX, Some(&mut l), None, &mut v)
                .unwrap();
            values.extend(v);
            levels.extend(l);
        }
        (values, levels)
    }};
}

#[test]
fn alp_files_of_pqcodec_read_bit_for_bit_by_arrow_rs() {
    let d = Float64Array::from(doubles());
    let f = Float32Array::from(floats());
    let ids = Int32Array::from_iter_values(0..ROWS as i32);
    let batch = RecordBatch::try_from_iter([
        ("id", Arc::new(ids) as ArrayRef),
        ("d", Arc::new(d.clone()) as ArrayRef),
        ("f", Arc::new(f.clone()) as ArrayRef),
    ])
    .unwrap();
    let alp = ColumnSettings::new()
        .with_encoding(Encoding::Alp)
        .with_dictionary(false);
    for version in [PageVersion::V1, PageVersion::V2] {
        for codec in [Codec::Uncompressed, Codec::Snappy] {
            let options = WriterOptions::new()
                .with_compression(codec)
                .with_data_page_version(version)
                .with_data_page_row_count_limit(1500)
                .with_max_row_group_row_count(6000)
                .with_column("d", alp.clone())
                .with_column("f", alp.clone());
            let mut writer = FileWriter::try_new(Vec::new(), batch.schema(), options).unwrap();
            writer.write(&batch).unwrap();
            let data = Bytes::from(writer.into_inner().unwrap());

            // arrow-rs 60.1 reads the footer as listing ALP, and the values.
            let file = SerializedFileReader::new(data.clone()).unwrap();
            for g in 0..file.num_row_groups() {
                let group = file.metadata().row_group(g);
                let has = |c: usize| group.column(c).encodings().any(|e| e == PqEncoding::ALP);
                assert!(!has(0) && has(1) && has(2), "{version:?} {codec:?}");
            }
            let (values, _) = read_60!(file, 1, DoubleColumnReader, f64);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert!(bits(&values) == bits(d.values()), "{version:?} {codec:?}");
            let (values, levels) = read_60!(file, 2, FloatColumnReader, f32);
            let mut values = values.into_iter();
            let read: Vec<Option<u32>> = levels
                .iter()
                .map(|&l| (l == 1).then(|| values.next().unwrap().to_bits()))
                .collect();
            let want: Vec<Option<u32>> = f.iter().map(|v| v.map(f32::to_bits)).collect();
            assert_eq!(read, want, "{version:?} {codec:?}");

            // And pqcodec reads it back as written.
            let read: Vec<RecordBatch> = ReaderBuilder::try_new(data)
                .unwrap()
                .build()
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let read = arrow_select::concat::concat_batches(&batch.schema(), &read).unwrap();
            assert_eq!(read.column(0), batch.column(0));
            let read_d = read
                .column(1)
                .as_any()
                .downcast_ref::<Float64Array>()
                .unwrap();
            assert!(bits(read_d.values()) == bits(d.values()));
        }
    }
}
