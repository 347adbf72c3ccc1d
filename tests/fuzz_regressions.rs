//! Replays the fuzz targets' saved inputs as ordinary tests: every file of
//! `fuzz/corpus/<target>/` (the minimised corpus) and `fuzz/artifacts/<target>/` (each crash,
//! hang or out-of-memory a campaign found, kept once fixed) goes through the same function the
//! cargo-fuzz target calls. The target bodies live in `fuzz/src/harness/`, included here, so
//! the fuzz crate (outside the workspace, built by cargo-fuzz with sanitizers) and this test
//! run the same code. See FUZZING.md.

#[allow(dead_code)]
#[path = "../fuzz/src/harness/mod.rs"]
mod harness;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of `dir`, sorted; none if it does not exist.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every saved input of `folder` (`corpus` or `artifacts`) through its target; returns
/// how many ran. Each panic names the target and file.
fn replay(folder: &str) -> usize {
    let mut ran = 0;
    for &(name, target) in harness::TARGETS {
        for file in inputs(&root().join(folder).join(name)) {
            let data = std::fs::read(&file).unwrap();
            eprintln!("{name}: {}", file.display());
            target(&data);
            ran += 1;
        }
    }
    ran
}

#[test]
fn every_target_has_a_fuzz_binary_and_a_seed_corpus() {
    for &(name, _) in harness::TARGETS {
        let binary = root().join("fuzz_targets").join(format!("{name}.rs"));
        assert!(binary.is_file(), "no {}", binary.display());
        let corpus = inputs(&root().join("corpus").join(name));
        assert!(!corpus.is_empty(), "no saved corpus for {name}");
    }
}

#[test]
fn saved_corpus_replays_without_a_finding() {
    let ran = replay("corpus");
    assert!(ran >= harness::TARGETS.len(), "only {ran} corpus inputs");
}

#[test]
fn every_crash_found_so_far_stays_fixed() {
    replay("artifacts");
}

#[test]
fn empty_and_tiny_inputs_are_no_finding() {
    for &(_, target) in harness::TARGETS {
        target(&[]);
        for b in 0..=255u8 {
            target(&[b]);
            target(&[b; 24]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The seed corpus: `cargo test --test fuzz_regressions -- --ignored write_seed_corpus` writes
// seeds for every target into fuzz/seeds/<target>/ (not kept in git); FUZZING.md says how they
// become the minimised fuzz/corpus/.

#[test]
#[ignore = "writes fuzz/seeds/: run by hand, see FUZZING.md"]
fn write_seed_corpus() {
    let mut seeds = seeds::Seeds::new(root().join("seeds"));
    seeds::synthesized(&mut seeds);
    seeds::from_files(&mut seeds);
    seeds::written_files(&mut seeds);
    seeds::read_file(&mut seeds);
    eprintln!("{} seeds written", seeds.written);
}

mod seeds {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    use std::path::PathBuf;
    use std::sync::Arc;

    use arrow_array::builder::{Int32Builder, ListBuilder};
    use arrow_array::{
        ArrayRef, BooleanArray, FixedSizeBinaryArray, Float64Array, Int32Array, Int64Array,
        RecordBatch, StringArray, StructArray,
    };
    use arrow_schema::{DataType, Field, Fields, Schema};
    use parquet::arrow::ArrowWriter;
    use parquet::basic::{Compression, Encoding as PqEncoding};
    use parquet::file::properties::{WriterProperties, WriterVersion};
    use pqcodec_arrow::Page;
    use pqcodec_core::{ByteArrays, ColumnType, Encoding, Int96, PhysicalType};
    use pqcodec_encodings::bit_packed::BitPackedEncoder;
    use pqcodec_encodings::dynamic::{Values, encode};
    use pqcodec_encodings::rle::{RleDecoder, RleEncoder, split_length_prefix};
    use pqcodec_file::ParquetFile;

    use super::harness::{
        ALP_TYPES, BYTE_STREAM_SPLIT_TYPES, DELTA_BYTE_ARRAY_TYPES, INTEGER_TYPES,
        READ_FILE_PREFIX, leaf_type, write_pages,
    };

    /// Largest seed written: bigger inputs make slow fuzzing.
    const MAX_SEED: usize = 64 * 1024;

    pub struct Seeds {
        dir: PathBuf,
        pub written: usize,
    }

    impl Seeds {
        pub fn new(dir: PathBuf) -> Self {
            Seeds { dir, written: 0 }
        }

        pub fn add(&mut self, target: &str, bytes: &[u8]) {
            if bytes.len() > MAX_SEED {
                return;
            }
            let dir = self.dir.join(target);
            std::fs::create_dir_all(&dir).unwrap();
            let mut h = DefaultHasher::new();
            bytes.hash(&mut h);
            std::fs::write(dir.join(format!("seed-{:016x}", h.finish())), bytes).unwrap();
            self.written += 1;
        }
    }

    fn count(n: usize) -> [u8; 4] {
        (n as u32).to_le_bytes()
    }

    fn index(types: &[PhysicalType], p: PhysicalType) -> Option<u8> {
        types.iter().position(|&t| t == p).map(|i| i as u8)
    }

    /// A typed decode target's input: type, type length byte (FIXED_LEN_BYTE_ARRAY's width),
    /// count, schedule seed, page.
    fn typed(selector: u8, type_length_byte: u8, n: usize, seed: u16, page: &[u8]) -> Vec<u8> {
        let mut out = vec![selector, type_length_byte];
        out.extend(count(n));
        out.extend(seed.to_le_bytes());
        out.extend_from_slice(page);
        out
    }

    /// `n` sample values of type `column_type`: repeats, runs, extremes, a NaN.
    fn sample(column_type: ColumnType, n: usize) -> Values {
        let i32s = (0..n).map(|i| match i % 11 {
            0 => i32::MIN,
            1 => i32::MAX,
            _ => ((i * i * 7) % 1000) as i32 - 300 + (i / 40) as i32,
        });
        let type_length = column_type.value_width().unwrap_or(0);
        match column_type.physical() {
            PhysicalType::Boolean => {
                Values::Boolean((0..n).map(|i| i % 3 == 0 || i > n / 2).collect())
            }
            PhysicalType::Int32 => Values::Int32(i32s.collect()),
            PhysicalType::Int64 => {
                Values::Int64(i32s.map(|v| i64::from(v) * 1_000_000_007).collect())
            }
            PhysicalType::Int96 => Values::Int96(
                (0..n)
                    .map(|i| Int96([i as u32 * 1000, 0, 2_440_588 + (i % 3) as u32]))
                    .collect(),
            ),
            PhysicalType::Float => Values::Float(
                (0..n)
                    .map(|i| {
                        if i % 17 == 5 {
                            f32::NAN
                        } else {
                            i as f32 * 0.25 - 3.0
                        }
                    })
                    .collect(),
            ),
            PhysicalType::Double => Values::Double(
                (0..n)
                    .map(|i| {
                        if i % 13 == 2 {
                            -0.0
                        } else {
                            (i % 9) as f64 * 1.5e10
                        }
                    })
                    .collect(),
            ),
            PhysicalType::ByteArray => {
                let strings: Vec<Vec<u8>> = (0..n)
                    .map(|i| format!("value-{}-{}", i % 13, "x".repeat(i % 5)).into_bytes())
                    .collect();
                Values::ByteArray(strings.iter().map(Vec::as_slice).collect::<ByteArrays>())
            }
            PhysicalType::FixedLenByteArray => {
                let values: Vec<Vec<u8>> = (0..n)
                    .map(|i| (0..type_length).map(|j| ((i % 7) * 31 + j) as u8).collect())
                    .collect();
                Values::FixedLenByteArray(values.iter().map(Vec::as_slice).collect::<ByteArrays>())
            }
        }
    }

    const COUNTS: [usize; 7] = [0, 1, 7, 8, 33, 130, 1000];

    /// Pages of our own encoders, for every target.
    pub fn synthesized(seeds: &mut Seeds) {
        // SNAPPY: data compressed by `snap` (an even mode byte), and raw bytes to compress (an
        // odd one, two bytes of prefix): runs, repeats at short and long distances, and text.
        let text = b"carefully final deposits detect slyly; furiously final deposits sleep";
        let mut samples: Vec<Vec<u8>> = vec![vec![], text.to_vec(), vec![0; 300]];
        samples.push((0..2000u32).flat_map(|i| (i / 3).to_le_bytes()).collect());
        samples.push(text.iter().cycle().take(5000).copied().collect());
        for sample in samples {
            let compressed = snap::raw::Encoder::new().compress_vec(&sample).unwrap();
            seeds.add("decompress_snappy", &[&[0][..], &compressed].concat());
            seeds.add("decompress_snappy", &[&[0x41][..], &sample].concat());
        }
        let typed_targets: [(&str, Encoding, &[PhysicalType]); 7] = [
            ("decode_plain", Encoding::Plain, &PhysicalType::ALL),
            (
                "decode_delta_binary_packed",
                Encoding::DeltaBinaryPacked,
                &INTEGER_TYPES,
            ),
            (
                "decode_delta_length_byte_array",
                Encoding::DeltaLengthByteArray,
                &[PhysicalType::ByteArray],
            ),
            (
                "decode_delta_byte_array",
                Encoding::DeltaByteArray,
                &DELTA_BYTE_ARRAY_TYPES,
            ),
            (
                "decode_byte_stream_split",
                Encoding::ByteStreamSplit,
                &BYTE_STREAM_SPLIT_TYPES,
            ),
            (
                "decode_group_var_int",
                Encoding::GroupVarInt,
                &INTEGER_TYPES,
            ),
            ("decode_alp", Encoding::Alp, &ALP_TYPES),
        ];
        for (target, encoding, types) in typed_targets {
            for (selector, &p) in types.iter().enumerate() {
                let tl = if p == PhysicalType::FixedLenByteArray {
                    5
                } else {
                    0
                };
                let column_type = ColumnType::new(p, tl).unwrap();
                for (k, &n) in COUNTS.iter().enumerate() {
                    let page = encode(encoding, &sample(column_type, n), column_type).unwrap();
                    seeds.add(
                        target,
                        &typed(selector as u8, tl as u8, n, k as u16 * 977, &page.data),
                    );
                }
            }
        }
        // Dictionary: values with their dictionary page, and indices alone.
        for (selector, &p) in PhysicalType::ALL.iter().enumerate() {
            let tl = if p == PhysicalType::FixedLenByteArray {
                5
            } else {
                0
            };
            let column_type = ColumnType::new(p, tl).unwrap();
            for (k, &n) in COUNTS.iter().enumerate() {
                for (flag, encoding) in [
                    (0u8, Encoding::RleDictionary),
                    (0x80, Encoding::PlainDictionary),
                ] {
                    let page = encode(encoding, &sample(column_type, n), column_type).unwrap();
                    let dictionary = page.dictionary.unwrap();
                    let mut input = vec![selector as u8 | flag, tl as u8];
                    input.extend(count(n));
                    input.extend((k as u16 * 31).to_le_bytes());
                    input.extend((dictionary.len() as u16).to_le_bytes());
                    input.extend_from_slice(&dictionary);
                    input.extend_from_slice(&page.data);
                    seeds.add("decode_dictionary", &input);
                    if p == PhysicalType::ByteArray {
                        let mut indices = vec![8, 0];
                        indices.extend(count(n));
                        indices.extend((k as u16).to_le_bytes());
                        indices.extend(13u16.to_le_bytes());
                        indices.extend_from_slice(&page.data);
                        seeds.add("decode_dictionary", &indices);
                    }
                }
            }
        }
        // RLE and BIT_PACKED levels at several widths; RLE booleans.
        for width in [0u32, 1, 2, 3, 7, 8, 13, 20, 31, 32] {
            let mask = if width == 32 {
                u32::MAX
            } else {
                (1u32 << width) - 1
            };
            for &n in &COUNTS {
                let values: Vec<u32> = (0..n)
                    .map(|i| {
                        if i % 50 < 20 {
                            1
                        } else {
                            (i as u32).wrapping_mul(2_654_435_761)
                        }
                    })
                    .map(|v| v & mask)
                    .collect();
                let mut rle = RleEncoder::new(width);
                rle.put_slice(&values);
                let mut page = Vec::new();
                rle.flush_into(&mut page);
                let mut input = vec![0, width as u8];
                input.extend(count(n));
                input.extend(7u16.to_le_bytes());
                input.extend_from_slice(&page);
                seeds.add("decode_rle", &input);
                let mut prefixed = vec![2, width as u8];
                prefixed.extend(count(n));
                prefixed.extend(9u16.to_le_bytes());
                prefixed.extend(count(page.len()));
                prefixed.extend_from_slice(&page);
                prefixed.extend_from_slice(b"values");
                seeds.add("decode_rle", &prefixed);

                let mut packed = BitPackedEncoder::new(width);
                values.iter().for_each(|&v| packed.put(v));
                let mut page = Vec::new();
                packed.flush_into(&mut page);
                let mut input = vec![width as u8];
                input.extend(count(n));
                input.extend(3u16.to_le_bytes());
                input.extend_from_slice(&page);
                seeds.add("decode_bit_packed", &input);

                // Round trips: the ops of roundtrip_rle, the values of roundtrip_bit_packed.
                let mut ops = vec![0, width as u8, 5, 0];
                for (i, v) in values.iter().enumerate().take(200) {
                    ops.push((i % 3) as u8 | 0x20);
                    ops.extend(v.to_le_bytes());
                    if i % 3 == 1 {
                        ops.extend(((i * 7) as u16).to_le_bytes());
                    }
                }
                seeds.add("roundtrip_rle", &ops);
                let mut input = vec![width as u8, 1, 0];
                values
                    .iter()
                    .take(300)
                    .for_each(|v| input.extend(v.to_le_bytes()));
                seeds.add("roundtrip_bit_packed", &input);
            }
        }
        for (k, &n) in COUNTS.iter().enumerate() {
            let page = encode(
                Encoding::Rle,
                &sample(ColumnType::Boolean, n),
                ColumnType::Boolean,
            )
            .unwrap();
            let mut input = vec![1, 0];
            input.extend(count(n));
            input.extend((k as u16).to_le_bytes());
            input.extend_from_slice(&page.data);
            seeds.add("decode_rle", &input);
        }
        // Round trips of the typed encodings: each type, each value mode.
        let bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        let roundtrips: [(&str, &[PhysicalType], u8); 9] = [
            ("roundtrip_plain", &PhysicalType::ALL, 0),
            ("roundtrip_dictionary", &PhysicalType::ALL, 0),
            ("roundtrip_dictionary", &PhysicalType::ALL, 0x80),
            ("roundtrip_delta_binary_packed", &INTEGER_TYPES, 0),
            (
                "roundtrip_delta_length_byte_array",
                &[PhysicalType::ByteArray],
                0,
            ),
            ("roundtrip_delta_byte_array", &DELTA_BYTE_ARRAY_TYPES, 0),
            ("roundtrip_byte_stream_split", &BYTE_STREAM_SPLIT_TYPES, 0),
            ("roundtrip_group_var_int", &INTEGER_TYPES, 0),
            ("roundtrip_alp", &ALP_TYPES, 0),
        ];
        for (target, types, flag) in roundtrips {
            let types_len = if target == "roundtrip_dictionary" {
                9
            } else {
                types.len()
            };
            for selector in 0..types_len {
                for mode in 0..4u8 {
                    // selector, FLBA type length (read only for FLBA), seed, three cuts, the
                    // value mode, then values.
                    let mut input = vec![selector as u8 | flag];
                    if types.get(selector) == Some(&PhysicalType::FixedLenByteArray) {
                        input.push(3 + mode);
                    }
                    input.extend([mode, 1, 10, 0, 100, 0, 50, 0, mode]);
                    input.extend_from_slice(&bytes);
                    seeds.add(target, &input);
                }
            }
        }
        for mode in 0..4u8 {
            let mut input = vec![1, mode, 0, 7, 0, 30, 0, 60, 0];
            input.extend_from_slice(&bytes);
            seeds.add("roundtrip_rle", &input);
        }
    }

    /// The values section of a flat column's data page, with the number of values in it.
    fn values_of(page: &Page, max_def: u16) -> Option<(Vec<u8>, usize, Vec<u8>)> {
        match page {
            Page::DataV1(p) => {
                if max_def == 0 {
                    return Some((p.data.to_vec(), p.num_values, Vec::new()));
                }
                if p.def_level_encoding != Encoding::Rle {
                    return None;
                }
                let (levels, values) = split_length_prefix(&p.data).ok()?;
                let mut decoded = Vec::new();
                RleDecoder::new(bytes::Bytes::copy_from_slice(levels), p.num_values, 1)
                    .ok()?
                    .read(&mut decoded, p.num_values)
                    .ok()?;
                let present = decoded.iter().filter(|&&l| l == 1).count();
                let prefixed = p.data[..p.data.len() - values.len()].to_vec();
                Some((values.to_vec(), present, prefixed))
            }
            Page::DataV2(p) => {
                let start = p.def_levels_byte_len + p.rep_levels_byte_len;
                let levels = p.data.get(p.rep_levels_byte_len..start)?.to_vec();
                Some((
                    p.data.get(start..)?.to_vec(),
                    p.num_values - p.num_nulls,
                    levels,
                ))
            }
            Page::Dictionary(_) => None,
        }
    }

    fn test_files() -> Vec<PathBuf> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
            .collect();
        files.sort();
        files
    }

    /// Pages of the files in tests/data: their values for the decode targets, their levels for
    /// decode_rle, flat columns for arrow_pages, small files whole for cat_file.
    pub fn from_files(seeds: &mut Seeds) {
        let mut files = test_files();
        files.extend(written().into_iter().map(|(path, _)| path));
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            seeds.add("cat_file", &bytes);
            let file = ParquetFile::from_bytes(bytes.into()).unwrap();
            let schema = file.schema();
            let flat = schema.fields().len() == file.column_descs().len();
            for (c, desc) in file.column_descs().into_iter().enumerate() {
                if desc.max_rep_level > 0 || desc.max_def_level > 1 {
                    continue;
                }
                let pages: Vec<Page> = file.pages(c).take(3).collect::<Result<_, _>>().unwrap();
                let p = desc.physical();
                // The input's type length byte: FIXED_LEN_BYTE_ARRAY's width, else 0.
                let tl = match desc.column_type {
                    ColumnType::FixedLenByteArray(ty) => ty.width(),
                    _ => 0,
                };
                let selector = PhysicalType::ALL.iter().position(|&t| t == p).unwrap() as u8;
                if flat {
                    let data_type = schema.field(c).data_type();
                    let choice = (0..16u8)
                        .find(|&b| leaf_type(desc.column_type, b) == *data_type)
                        .unwrap_or(0);
                    let mut input =
                        vec![selector, tl as u8, desc.max_def_level as u8, choice, 1, 2];
                    write_pages(&mut input, std::slice::from_ref(&pages));
                    seeds.add("arrow_pages", &input);
                }
                let mut dictionary: Option<Vec<u8>> = None;
                for (k, page) in pages.iter().enumerate() {
                    if let Page::Dictionary(d) = page {
                        dictionary = Some(d.data.to_vec());
                        continue;
                    }
                    let Some((values, n, levels)) = values_of(page, desc.max_def_level) else {
                        continue;
                    };
                    let seed = k as u16 * 101;
                    if !levels.is_empty() {
                        let v1 = matches!(page, Page::DataV1(_));
                        let mut input = vec![if v1 { 2 } else { 0 }, 1];
                        input.extend(count(page.num_values()));
                        input.extend(seed.to_le_bytes());
                        input.extend_from_slice(&levels);
                        seeds.add("decode_rle", &input);
                    }
                    let tl8 = tl as u8;
                    let mut add_typed = |target: &str, types: &[PhysicalType]| {
                        if let Some(s) = index(types, p) {
                            seeds.add(target, &typed(s, tl8, n, seed, &values));
                        }
                    };
                    match page.encoding() {
                        Encoding::Plain => add_typed("decode_plain", &PhysicalType::ALL),
                        Encoding::DeltaBinaryPacked => {
                            add_typed("decode_delta_binary_packed", &INTEGER_TYPES)
                        }
                        Encoding::DeltaLengthByteArray => {
                            add_typed("decode_delta_length_byte_array", &[PhysicalType::ByteArray])
                        }
                        Encoding::DeltaByteArray => {
                            add_typed("decode_delta_byte_array", &DELTA_BYTE_ARRAY_TYPES)
                        }
                        Encoding::ByteStreamSplit => {
                            add_typed("decode_byte_stream_split", &BYTE_STREAM_SPLIT_TYPES)
                        }
                        Encoding::Rle if p == PhysicalType::Boolean => {
                            let mut input = vec![1, 0];
                            input.extend(count(n));
                            input.extend(seed.to_le_bytes());
                            input.extend_from_slice(&values);
                            seeds.add("decode_rle", &input);
                        }
                        Encoding::RleDictionary | Encoding::PlainDictionary => {
                            let Some(dict) = dictionary.as_ref().filter(|d| d.len() < 0x1_0000)
                            else {
                                continue;
                            };
                            let flag = if page.encoding() == Encoding::PlainDictionary {
                                0x80
                            } else {
                                0
                            };
                            let mut input = vec![selector | flag, tl8];
                            input.extend(count(n));
                            input.extend(seed.to_le_bytes());
                            input.extend((dict.len() as u16).to_le_bytes());
                            input.extend_from_slice(dict);
                            input.extend_from_slice(&values);
                            seeds.add("decode_dictionary", &input);
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// Small files the parquet crate writes: nested columns, every encoding it writes, data
    /// pages v1 and v2, a few codecs. Returned with their paths in a temporary folder.
    fn written() -> Vec<(PathBuf, Vec<u8>)> {
        let n = 70;
        let ints = Int32Array::from_iter((0..n).map(|i| (i % 4 != 1).then_some(i * 37 - 500)));
        let longs = Int64Array::from_iter_values((0..n).map(|i| i64::from(i) << 20));
        let strings =
            StringArray::from_iter((0..n).map(|i| (i % 5 != 0).then(|| format!("s{}", i % 9))));
        let bools = BooleanArray::from_iter((0..n).map(|i| Some(i % 3 == 0)));
        let doubles =
            Float64Array::from_iter((0..n).map(|i| (i % 6 != 2).then_some(f64::from(i) / 3.0)));
        let fixed =
            FixedSizeBinaryArray::try_from_iter((0..n).map(|i| [i as u8, 1, 2, 3])).unwrap();
        let mut list = ListBuilder::new(Int32Builder::new());
        for i in 0..n {
            if i % 7 == 3 {
                list.append_null();
            } else {
                for j in 0..(i % 4) {
                    list.values().append_option((j != 2).then_some(i + j));
                }
                list.append(true);
            }
        }
        let list = list.finish();
        // The shape arrow_pages calls 7: a required and an optional leaf in an optional struct.
        let s = StructArray::try_new(
            Fields::from(vec![
                Field::new("x", DataType::Int32, false),
                Field::new("y", DataType::Int32, true),
            ]),
            vec![
                Arc::new(Int32Array::from_iter_values(0..n)),
                Arc::new(ints.clone()),
            ],
            Some((0..n).map(|i| i % 9 != 4).collect()),
        )
        .unwrap();
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("i", Arc::new(ints)),
            ("l", Arc::new(longs)),
            ("s", Arc::new(strings)),
            ("b", Arc::new(bools)),
            ("d", Arc::new(doubles)),
            ("f", Arc::new(fixed)),
            ("list", Arc::new(list)),
            ("st", Arc::new(s)),
        ];
        let schema = Arc::new(Schema::new(
            columns
                .iter()
                .map(|(name, a)| Field::new(*name, a.data_type().clone(), true))
                .collect::<Fields>(),
        ));
        let batch = RecordBatch::try_new(
            schema.clone(),
            columns.into_iter().map(|(_, a)| a).collect(),
        )
        .unwrap();
        let dir = std::env::temp_dir().join("pqcodec-fuzz-seeds");
        std::fs::create_dir_all(&dir).unwrap();
        let mut out = Vec::new();
        let configs: [(&str, Option<PqEncoding>, bool, WriterVersion, Compression); 11] = [
            (
                "dict_v1",
                None,
                true,
                WriterVersion::PARQUET_1_0,
                Compression::UNCOMPRESSED,
            ),
            (
                "dict_v2_snappy",
                None,
                true,
                WriterVersion::PARQUET_2_0,
                Compression::SNAPPY,
            ),
            (
                "plain_v1",
                Some(PqEncoding::PLAIN),
                false,
                WriterVersion::PARQUET_1_0,
                Compression::UNCOMPRESSED,
            ),
            (
                "plain_v2",
                Some(PqEncoding::PLAIN),
                false,
                WriterVersion::PARQUET_2_0,
                Compression::UNCOMPRESSED,
            ),
            (
                "dbp_v2",
                Some(PqEncoding::DELTA_BINARY_PACKED),
                false,
                WriterVersion::PARQUET_2_0,
                Compression::UNCOMPRESSED,
            ),
            (
                "dba_v2",
                Some(PqEncoding::DELTA_BYTE_ARRAY),
                false,
                WriterVersion::PARQUET_2_0,
                Compression::UNCOMPRESSED,
            ),
            (
                "bss_v1",
                Some(PqEncoding::BYTE_STREAM_SPLIT),
                false,
                WriterVersion::PARQUET_1_0,
                Compression::UNCOMPRESSED,
            ),
            (
                "rle_v2_zstd",
                Some(PqEncoding::RLE),
                false,
                WriterVersion::PARQUET_2_0,
                Compression::ZSTD(Default::default()),
            ),
            // The other codecs' decompressors, as arrow-rs compresses (LZ4 in Hadoop's framing).
            (
                "plain_v1_gzip",
                Some(PqEncoding::PLAIN),
                false,
                WriterVersion::PARQUET_1_0,
                Compression::GZIP(Default::default()),
            ),
            (
                "dict_v2_lz4",
                None,
                true,
                WriterVersion::PARQUET_2_0,
                Compression::LZ4,
            ),
            (
                "plain_v2_lz4_raw",
                Some(PqEncoding::PLAIN),
                false,
                WriterVersion::PARQUET_2_0,
                Compression::LZ4_RAW,
            ),
        ];
        for (name, encoding, dictionary, version, compression) in configs {
            let mut props = WriterProperties::builder()
                .set_writer_version(version)
                .set_compression(compression)
                .set_dictionary_enabled(dictionary)
                .set_data_page_row_count_limit(30)
                .set_write_batch_size(30);
            // An encoding that does not apply to a column's type stays that column's default.
            if let Some(e) = encoding {
                for column in [
                    "i",
                    "l",
                    "s",
                    "b",
                    "d",
                    "f",
                    "list.list.item",
                    "st.x",
                    "st.y",
                ] {
                    let applies = match e {
                        PqEncoding::DELTA_BINARY_PACKED | PqEncoding::BYTE_STREAM_SPLIT => {
                            ["i", "l", "list.list.item", "st.x", "st.y"].contains(&column)
                                || (e == PqEncoding::BYTE_STREAM_SPLIT
                                    && ["d", "f"].contains(&column))
                        }
                        PqEncoding::DELTA_BYTE_ARRAY => ["s", "f"].contains(&column),
                        PqEncoding::RLE => column == "b",
                        _ => true,
                    };
                    if applies {
                        props = props.set_column_encoding(column.into(), e);
                    }
                }
            }
            let mut bytes = Vec::new();
            let mut writer =
                ArrowWriter::try_new(&mut bytes, schema.clone(), Some(props.build())).unwrap();
            writer.write(&batch).unwrap();
            writer.close().unwrap();
            let path = dir.join(format!("{name}.parquet"));
            std::fs::write(&path, &bytes).unwrap();
            out.push((path, bytes));
        }
        out
    }

    /// The nested columns of the written files as arrow_pages inputs of the matching shape
    /// (3: optional list of optional items, 7: an optional struct of two).
    pub fn written_files(seeds: &mut Seeds) {
        for (_, bytes) in written() {
            let file = ParquetFile::from_bytes(bytes.into()).unwrap();
            let descs = file.column_descs();
            let pages = |path: &str| -> Vec<Page> {
                let c = descs.iter().position(|d| d.path == path).unwrap();
                file.pages(c).collect::<Result<_, _>>().unwrap()
            };
            let mut input = vec![1, 0, 3, 0, 4, 0];
            write_pages(&mut input, &[pages("list.list.item")]);
            seeds.add("arrow_pages", &input);
            let mut input = vec![1, 0, 7, 0, 5, 0];
            write_pages(&mut input, &[pages("st.x"), pages("st.y")]);
            seeds.add("arrow_pages", &input);
        }
    }

    /// `read_file`'s prefixes: everything in batches of 1024; leaf columns 0 and 2, rows
    /// 10..35 selected, offset 3, limit 20, batches of 8; top-level fields 0 and 1 of every
    /// row group in reverse, batches of 6.
    pub const READ_FILE_PREFIXES: [[u8; READ_FILE_PREFIX]; 3] = [
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x03],
        [0xf1, 0b101, 0, 0, 10, 0, 25, 0, 5, 0, 3, 0, 20, 0, 7, 0],
        [0x0f, 0b11, 0, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0],
    ];

    /// Each file of tests/data and each written file after each of `read_file`'s prefixes.
    pub fn read_file(seeds: &mut Seeds) {
        let mut files: Vec<Vec<u8>> = test_files()
            .iter()
            .map(|path| std::fs::read(path).unwrap())
            .collect();
        files.extend(written().into_iter().map(|(_, bytes)| bytes));
        for bytes in files {
            for prefix in READ_FILE_PREFIXES {
                seeds.add("read_file", &[&prefix[..], &bytes].concat());
            }
        }
    }
}
