//! [`PqcodecFormat`], DataFusion's [`FileFormat`] for Parquet files decoded by pqcodec, and its
//! [`PqcodecFormatFactory`], registered for the `parquet` extension in place of DataFusion's.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use arrow_schema::{Field, Fields, Schema, SchemaRef};
use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::common::config::{ConfigFileType, TableParquetOptions};
use datafusion::common::parsers::CompressionTypeVariant;
use datafusion::common::{GetExt, Statistics, internal_datafusion_err, internal_err};
use datafusion::datasource::file_format::file_compression_type::FileCompressionType;
use datafusion::datasource::file_format::parquet::ParquetFormat;
use datafusion::datasource::file_format::{FileFormat, FileFormatFactory, FileMeta};
use datafusion::datasource::physical_plan::parquet::metadata::{
    DFParquetMetadata, ordering_from_parquet_metadata,
};
use datafusion::datasource::physical_plan::parquet::{
    transform_binary_to_string, transform_schema_to_view,
};
use datafusion::datasource::physical_plan::{
    FileScanConfig, FileScanConfigBuilder, FileSinkConfig, FileSource,
};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::error::Result;
use datafusion::physical_expr::LexRequirement;
use datafusion::physical_expr_common::sort_expr::LexOrdering;
use datafusion::physical_plan::ExecutionPlan;
use futures::{StreamExt, TryStreamExt};
use object_store::{ObjectMeta, ObjectStore};
use pqcodec_file::FileMetadata;

use crate::metadata::{Loads, Source};
use crate::options::PqcodecOptions;
use crate::source::PqcodecSource;

/// Makes [`PqcodecFormat`]s for the `parquet` extension: `CREATE EXTERNAL TABLE ... STORED AS
/// PARQUET`, URL tables (`SELECT ... FROM 'x.parquet'`) and listing tables found by
/// extension. Without options of its own it takes the session's
/// (`datafusion.execution.parquet.*`, and a statement's `OPTIONS (...)`).
#[derive(Debug, Clone, Default)]
pub struct PqcodecFormatFactory {
    options: Option<PqcodecOptions>,
}

impl PqcodecFormatFactory {
    /// A factory taking the session's options.
    pub fn new() -> Self {
        PqcodecFormatFactory { options: None }
    }

    /// A factory making formats with `options`, whatever the session's.
    pub fn new_with_options(options: PqcodecOptions) -> Self {
        PqcodecFormatFactory {
            options: Some(options),
        }
    }
}

impl GetExt for PqcodecFormatFactory {
    fn get_ext(&self) -> String {
        "parquet".to_string()
    }
}

impl FileFormatFactory for PqcodecFormatFactory {
    fn create(
        &self,
        state: &dyn Session,
        format_options: &HashMap<String, String>,
    ) -> Result<Arc<dyn FileFormat>> {
        let options = match &self.options {
            Some(options) => options.clone(),
            None => PqcodecOptions::from(&parquet_options(state, format_options)?.global),
        };
        Ok(Arc::new(PqcodecFormat::new(options)))
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        Arc::new(PqcodecFormat::new(self.options.clone().unwrap_or_default()))
    }
}

/// The session's Parquet options with a statement's `OPTIONS (...)` applied.
fn parquet_options(
    state: &dyn Session,
    format_options: &HashMap<String, String>,
) -> Result<TableParquetOptions> {
    let mut table_options = state.default_table_options();
    table_options.set_config_format(ConfigFileType::PARQUET);
    table_options.alter_with_string_hash_map(format_options)?;
    Ok(table_options.parquet)
}

/// Parquet files read by pqcodec: schemas and statistics from the footers, scans by
/// [`PqcodecSource`]. Writing (`COPY TO`, `INSERT INTO`) is DataFusion's own.
#[derive(Debug, Clone, Default)]
pub struct PqcodecFormat {
    options: PqcodecOptions,
    loads: Arc<Loads>,
}

impl PqcodecFormat {
    /// A format reading with `options`.
    pub fn new(options: PqcodecOptions) -> Self {
        PqcodecFormat {
            options,
            loads: Arc::default(),
        }
    }

    /// How it reads.
    pub fn options(&self) -> &PqcodecOptions {
        &self.options
    }

    async fn metadata(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        object: &ObjectMeta,
    ) -> Result<Arc<FileMetadata>> {
        let cache = state.runtime_env().cache_manager.get_file_metadata_cache();
        let source = Source::new(Arc::clone(store), object, None);
        // With the page index when scans may use it, as DataFusion's reader does with a
        // cache: read once here, it serves every partition of every query.
        let page_index = self.options.page_index;
        Ok(self
            .loads
            .load(&source, object, Some(&cache), page_index, None)
            .await?)
    }
}

#[async_trait]
impl FileFormat for PqcodecFormat {
    fn get_ext(&self) -> String {
        "parquet".to_string()
    }

    fn get_ext_with_compression(&self, compression: &FileCompressionType) -> Result<String> {
        match compression.get_variant() {
            CompressionTypeVariant::UNCOMPRESSED => Ok(self.get_ext()),
            _ => internal_err!("Parquet files are not compressed as a whole"),
        }
    }

    fn compression_type(&self) -> Option<FileCompressionType> {
        None
    }

    async fn infer_schema(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        objects: &[ObjectMeta],
    ) -> Result<SchemaRef> {
        let concurrency = state
            .config_options()
            .execution
            .meta_fetch_concurrency
            .get();
        let mut schemas: Vec<(String, SchemaRef)> = futures::stream::iter(objects)
            .map(|object| async move {
                let meta = self.metadata(state, store, object).await?;
                Ok::<_, datafusion::error::DataFusionError>((
                    object.location.to_string(),
                    meta.schema(),
                ))
            })
            .boxed()
            .buffer_unordered(concurrency)
            .try_collect()
            .await?;
        // Fields are merged in the order met: files sorted by path, so the schema does not
        // depend on the listing's order.
        schemas.sort_by(|a, b| a.0.cmp(&b.0));
        let schemas = schemas.into_iter().map(|(_, schema)| {
            if self.options.skip_metadata {
                let fields: Fields = schema
                    .fields()
                    .iter()
                    .map(|f| Field::clone(f).with_metadata(HashMap::new()))
                    .collect();
                Schema::new(fields)
            } else {
                Schema::clone(&schema)
            }
        });
        let mut schema = Schema::try_merge(schemas)?;
        if self.options.binary_as_string {
            schema = transform_binary_to_string(&schema);
        }
        if self.options.force_view_types {
            schema = transform_schema_to_view(&schema);
        }
        Ok(Arc::new(schema))
    }

    async fn infer_stats(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        table_schema: SchemaRef,
        object: &ObjectMeta,
    ) -> Result<Statistics> {
        let meta = self.metadata(state, store, object).await?;
        DFParquetMetadata::statistics_from_parquet_metadata(meta.metadata(), &table_schema)
    }

    async fn infer_ordering(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        table_schema: SchemaRef,
        object: &ObjectMeta,
    ) -> Result<Option<LexOrdering>> {
        let meta = self.metadata(state, store, object).await?;
        ordering_from_parquet_metadata(meta.metadata(), &table_schema)
    }

    async fn infer_stats_and_ordering(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        table_schema: SchemaRef,
        object: &ObjectMeta,
    ) -> Result<FileMeta> {
        let meta = self.metadata(state, store, object).await?;
        let statistics =
            DFParquetMetadata::statistics_from_parquet_metadata(meta.metadata(), &table_schema)?;
        let ordering = ordering_from_parquet_metadata(meta.metadata(), &table_schema)?;
        Ok(FileMeta::new(statistics).with_ordering(ordering))
    }

    async fn create_physical_plan(
        &self,
        state: &dyn Session,
        conf: FileScanConfig,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let source = conf
            .file_source()
            .downcast_ref::<PqcodecSource>()
            .cloned()
            .ok_or_else(|| internal_datafusion_err!("expected a PqcodecSource"))?
            .with_options(self.options.clone())
            .with_metadata_cache(state.runtime_env().cache_manager.get_file_metadata_cache())
            .with_loads(Arc::clone(&self.loads));
        let conf = FileScanConfigBuilder::from(conf)
            .with_source(Arc::new(source))
            .build();
        Ok(DataSourceExec::from_data_source(conf))
    }

    async fn create_writer_physical_plan(
        &self,
        input: Arc<dyn ExecutionPlan>,
        state: &dyn Session,
        conf: FileSinkConfig,
        order_requirements: Option<LexRequirement>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let options = parquet_options(state, &HashMap::new())?;
        ParquetFormat::default()
            .with_options(options)
            .create_writer_physical_plan(input, state, conf, order_requirements)
            .await
    }

    fn file_source(&self, table_schema: TableSchema) -> Arc<dyn FileSource> {
        Arc::new(PqcodecSource::new(table_schema).with_options(self.options.clone()))
    }
}

impl fmt::Display for PqcodecFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("parquet (pqcodec)")
    }
}
