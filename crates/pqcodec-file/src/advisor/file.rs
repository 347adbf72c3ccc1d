//! Advising on a file: its rows read once, and what its columns hold now.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::RecordBatchReader;

use super::{Advice, Advisor, Current};
use crate::error::Result;
use crate::{RangeRead, ReaderBuilder};

impl Advisor {
    /// Advice for rewriting the file `builder` reads: every row of its projected columns,
    /// each read once (the sample's runs kept, the distinct values counted), then the
    /// candidates tried on the sample. Row selections, filters, offsets and limits set on
    /// `builder` are not for advising: leave them unset.
    pub fn advise_file<T: RangeRead + 'static>(&self, builder: ReaderBuilder<T>) -> Result<Advice> {
        let metadata = Arc::clone(builder.metadata());
        let parquet = Arc::clone(metadata.metadata());
        let file = parquet.file_metadata();
        let roots = file.schema_descr().root_schema().get_fields().to_vec();
        let total = u64::try_from(file.num_rows()).unwrap_or(0);
        let mut reader = builder.build()?;
        let mut sampler = self.sampler(&reader.schema(), &roots, total)?;
        while let Some(batch) = reader.next_batch()? {
            sampler.observe(&batch)?;
        }
        sampler.end_group();

        let leaves: Vec<&str> = sampler
            .fields
            .iter()
            .flat_map(|f| f.leaves.iter().map(|l| l.path.as_str()))
            .collect();
        let mut current: HashMap<String, Current> = HashMap::new();
        let mut in_chunks = 0u64;
        for group in parquet.row_groups() {
            for chunk in group.columns() {
                let bytes = u64::try_from(chunk.compressed_size()).unwrap_or(0);
                in_chunks += bytes;
                let path = chunk.column_path().string();
                if !leaves.contains(&path.as_str()) {
                    continue;
                }
                let codec = format!("{:?}", chunk.compression());
                let entry = current.entry(path).or_insert_with(|| Current {
                    encodings: Vec::new(),
                    // `ZSTD(ZstdLevel(1))` names its level as the writer asked, not as the
                    // file says: the codec alone.
                    compression: codec.split('(').next().unwrap_or_default().to_owned(),
                    bytes: 0,
                });
                entry.bytes += bytes;
                for encoding in chunk.encodings() {
                    let name = format!("{encoding:?}");
                    if !entry.encodings.contains(&name) {
                        entry.encodings.push(name);
                    }
                }
            }
        }
        let overhead = metadata.file_size().saturating_sub(in_chunks);
        self.finish(sampler, &roots, &current, overhead)
    }
}
