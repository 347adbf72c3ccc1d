//! [`PqcodecExtensionCodec`]: pqcodec's scans through datafusion-proto, so that a plan made in
//! one process runs in another (a distributed engine's worker).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use datafusion::common::{internal_datafusion_err, internal_err};
use datafusion::datasource::physical_plan::{FileScanConfig, FileSource};
use datafusion::datasource::source::DataSourceExec;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::TaskContext;
use datafusion::physical_plan::ExecutionPlan;
use datafusion_proto::physical_plan::from_proto::{
    parse_protobuf_file_scan_config, parse_table_schema_from_proto,
};
use datafusion_proto::physical_plan::to_proto::serialize_file_scan_config;
use datafusion_proto::physical_plan::{
    PhysicalExtensionCodec, PhysicalPlanDecodeContext, PhysicalProtoConverterExtension,
};
use datafusion_proto::protobuf::{FileScanExecConf, PhysicalExprNode};
use prost::Message;

use crate::metadata::Loads;
use crate::options::PqcodecOptions;
use crate::source::PqcodecSource;

/// What marks a node as this codec's, and the version of its layout.
const TAG: &str = "pqcodec-scan/1";

/// datafusion-proto's [`PhysicalExtensionCodec`] for pqcodec's scans: a [`DataSourceExec`] of
/// [`PqcodecSource`] (its files and byte ranges, projection, limit, filters and
/// [`PqcodecOptions`]) to bytes and back. Other nodes are not its own: it refuses them, so
/// that a composed codec tries the next.
///
/// Decoded in a process, a scan keeps the files' metadata in that process's DataFusion
/// cache, and one codec waits for a single load of a file however many scans ask for it.
///
/// ```
/// # use std::sync::Arc;
/// # use datafusion::physical_plan::ExecutionPlan;
/// use datafusion_proto::physical_plan::{AsExecutionPlan, DefaultPhysicalProtoConverter};
/// use datafusion_proto::protobuf::PhysicalPlanNode;
/// use pqcodec_datafusion::PqcodecExtensionCodec;
///
/// # async fn demo() -> datafusion::error::Result<()> {
/// let ctx = pqcodec_datafusion::session_context(Default::default())?;
/// let df = ctx.sql("SELECT * FROM 'tests/data/pyarrow_dict_opt_v1.parquet'").await?;
/// let plan = df.create_physical_plan().await?;
///
/// let codec = PqcodecExtensionCodec::new();
/// let node = PhysicalPlanNode::try_from_physical_plan(plan, &codec)?;
/// let plan: Arc<dyn ExecutionPlan> = node.try_into_physical_plan(&ctx.task_ctx(), &codec)?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Default)]
pub struct PqcodecExtensionCodec {
    loads: Arc<Loads>,
}

impl PqcodecExtensionCodec {
    /// A codec whose decoded scans share their loads of metadata.
    pub fn new() -> Self {
        Self::default()
    }

    /// A scan from `buf`.
    fn decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let node = ScanNode::decode(buf)
            .map_err(|e| internal_datafusion_err!("not a pqcodec scan: {e}"))?;
        if node.tag != TAG {
            return internal_err!("not a pqcodec scan (tag {:?}, expected {TAG:?})", node.tag);
        }
        if !inputs.is_empty() {
            return internal_err!("pqcodec scan: {} inputs, expected none", inputs.len());
        }
        let missing = |field: &str| internal_datafusion_err!("pqcodec scan: no {field}");
        let base = node.base.as_ref().ok_or_else(|| missing("base"))?;
        let options = node.options.as_ref().ok_or_else(|| missing("options"))?;
        let table_schema = parse_table_schema_from_proto(base)?;
        let decode = PhysicalPlanDecodeContext::new(ctx, self);
        let cache = ctx.runtime_env().cache_manager.get_file_metadata_cache();
        let mut source = PqcodecSource::new(table_schema.clone())
            .with_options(PqcodecOptions::try_from(options)?)
            .with_metadata_cache(cache)
            .with_loads(Arc::clone(&self.loads));
        if let Some(predicate) = &node.predicate {
            let schema = table_schema.table_schema();
            let predicate = proto_converter.proto_to_physical_expr(predicate, schema, &decode)?;
            source = source.with_predicate(predicate);
        }
        let source: Arc<dyn FileSource> = Arc::new(source);
        let conf = parse_protobuf_file_scan_config(base, &decode, proto_converter, source)?;
        Ok(DataSourceExec::from_data_source(conf))
    }
}

/// A scan on the wire.
#[derive(Clone, PartialEq, Message)]
struct ScanNode {
    /// [`TAG`].
    #[prost(string, tag = "1")]
    tag: String,
    /// What every file scan has: files, schema, projection, limit, statistics...
    #[prost(message, optional, tag = "2")]
    base: Option<FileScanExecConf>,
    /// The filters, over the table's schema.
    #[prost(message, optional, tag = "3")]
    predicate: Option<PhysicalExprNode>,
    #[prost(message, optional, tag = "4")]
    options: Option<OptionsNode>,
}

/// [`PqcodecOptions`] on the wire, field for field.
#[derive(Clone, PartialEq, Message)]
struct OptionsNode {
    #[prost(bool, tag = "1")]
    pruning: bool,
    #[prost(bool, tag = "2")]
    page_index: bool,
    #[prost(bool, tag = "3")]
    force_view_types: bool,
    #[prost(bool, tag = "4")]
    binary_as_string: bool,
    #[prost(bool, tag = "5")]
    skip_metadata: bool,
    #[prost(uint64, tag = "6")]
    max_in_list_size: u64,
    #[prost(uint64, tag = "7")]
    coalesce_gap: u64,
    #[prost(bool, tag = "8")]
    pushdown_filters: bool,
    #[prost(bool, tag = "9")]
    reorder_filters: bool,
    #[prost(uint64, optional, tag = "10")]
    max_predicate_cache_size: Option<u64>,
}

impl From<&PqcodecOptions> for OptionsNode {
    fn from(o: &PqcodecOptions) -> Self {
        OptionsNode {
            pruning: o.pruning,
            page_index: o.page_index,
            force_view_types: o.force_view_types,
            binary_as_string: o.binary_as_string,
            skip_metadata: o.skip_metadata,
            max_in_list_size: o.max_in_list_size as u64,
            coalesce_gap: o.coalesce_gap,
            pushdown_filters: o.pushdown_filters,
            reorder_filters: o.reorder_filters,
            max_predicate_cache_size: o.max_predicate_cache_size.map(|n| n as u64),
        }
    }
}

impl TryFrom<&OptionsNode> for PqcodecOptions {
    type Error = DataFusionError;

    fn try_from(o: &OptionsNode) -> Result<Self> {
        let size = |name: &str, n: u64| {
            usize::try_from(n)
                .map_err(|_| internal_datafusion_err!("pqcodec scan: {name} {n} is too large"))
        };
        Ok(PqcodecOptions::default()
            .with_pruning(o.pruning)
            .with_page_index(o.page_index)
            .with_force_view_types(o.force_view_types)
            .with_binary_as_string(o.binary_as_string)
            .with_skip_metadata(o.skip_metadata)
            .with_max_in_list_size(size("max_in_list_size", o.max_in_list_size)?)
            .with_coalesce_gap(o.coalesce_gap)
            .with_pushdown_filters(o.pushdown_filters)
            .with_reorder_filters(o.reorder_filters)
            .with_max_predicate_cache_size(
                o.max_predicate_cache_size
                    .map(|n| size("max_predicate_cache_size", n))
                    .transpose()?,
            ))
    }
}

impl PhysicalExtensionCodec for PqcodecExtensionCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        // The bytes may come from the network. DataFusion's decoding of statistics goes
        // through Arrow IPC, which panics on some malformed input: an error here.
        std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.decode(buf, inputs, ctx, proto_converter)
        }))
        .unwrap_or_else(|_| internal_err!("pqcodec scan: malformed (decoding it panicked)"))
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        let Some((conf, source)) = pqcodec_scan(node.as_ref()) else {
            return internal_err!("{} is not a pqcodec scan", node.name());
        };
        let predicate = source
            .filter()
            .map(|p| proto_converter.physical_expr_to_proto(&p, self))
            .transpose()?;
        let node = ScanNode {
            tag: TAG.to_string(),
            base: Some(serialize_file_scan_config(conf, self, proto_converter)?),
            predicate,
            options: Some(OptionsNode::from(source.options())),
        };
        node.encode(buf)
            .map_err(|e| internal_datafusion_err!("pqcodec scan: {e}"))
    }
}

/// The file scan and pqcodec source of `plan`, if it is a scan by pqcodec.
fn pqcodec_scan(plan: &dyn ExecutionPlan) -> Option<(&FileScanConfig, &PqcodecSource)> {
    let exec = plan.downcast_ref::<DataSourceExec>()?;
    let conf = exec.data_source().downcast_ref::<FileScanConfig>()?;
    let source = conf.file_source().downcast_ref::<PqcodecSource>()?;
    Some((conf, source))
}
