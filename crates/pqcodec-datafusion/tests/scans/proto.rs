//! `PqcodecExtensionCodec`: a plan's pqcodec scans to bytes and back, with every option, its
//! files and byte ranges, projection, limit and filters; what is not a pqcodec scan, and bytes
//! that are not one, refused with an error.

use std::sync::Arc;

use datafusion::datasource::physical_plan::FileScanConfig;
use datafusion::datasource::source::DataSourceExec;
use datafusion::execution::TaskContext;
use datafusion::physical_plan::{ExecutionPlan, collect};
use datafusion::prelude::SessionContext;
use datafusion_proto::physical_plan::{
    AsExecutionPlan, DefaultPhysicalExtensionCodec, DefaultPhysicalProtoConverter,
    PhysicalExtensionCodec,
};
use datafusion_proto::protobuf::PhysicalPlanNode;
use pqcodec_datafusion::{PqcodecExtensionCodec, PqcodecOptions, PqcodecSource};
use prost::Message;

use crate::common::*;

/// `plan` through bytes with `codec`, as another process decodes it.
fn round_trip(
    plan: Arc<dyn ExecutionPlan>,
    codec: &dyn PhysicalExtensionCodec,
    ctx: &TaskContext,
) -> Arc<dyn ExecutionPlan> {
    let bytes = PhysicalPlanNode::try_from_physical_plan(plan, codec)
        .unwrap()
        .encode_to_vec();
    PhysicalPlanNode::decode(bytes.as_slice())
        .unwrap()
        .try_into_physical_plan(ctx, codec)
        .unwrap()
}

/// The plan's scans: their file scans and pqcodec sources.
fn scans(plan: &Arc<dyn ExecutionPlan>) -> Vec<(FileScanConfig, PqcodecSource)> {
    let mut out = Vec::new();
    let mut nodes = vec![Arc::clone(plan)];
    while let Some(node) = nodes.pop() {
        if let Some(exec) = node.downcast_ref::<DataSourceExec>()
            && let Some(conf) = exec.data_source().downcast_ref::<FileScanConfig>()
            && let Some(source) = conf.file_source().downcast_ref::<PqcodecSource>()
        {
            out.push((conf.clone(), source.clone()));
        }
        nodes.extend(node.children().into_iter().cloned());
    }
    out
}

/// The files of each group of `conf`: path, size, byte range (datafusion-proto does not carry
/// an object's e-tag).
fn files(conf: &FileScanConfig) -> Vec<Vec<String>> {
    conf.file_groups
        .iter()
        .map(|group| {
            group
                .iter()
                .map(|f| {
                    let meta = &f.object_meta;
                    let range = f.range.as_ref().map(|r| (r.start, r.end));
                    format!("{} {} {range:?}", meta.location, meta.size)
                })
                .collect()
        })
        .collect()
}

/// Options each unlike the defaults.
fn unusual_options() -> Vec<PqcodecOptions> {
    let d = PqcodecOptions::default();
    vec![
        d.clone(),
        d.clone().with_pruning(!d.pruning),
        d.clone().with_page_index(!d.page_index),
        d.clone().with_force_view_types(!d.force_view_types),
        d.clone().with_binary_as_string(!d.binary_as_string),
        d.clone().with_skip_metadata(!d.skip_metadata),
        d.clone().with_max_in_list_size(d.max_in_list_size + 7),
        d.clone().with_coalesce_gap(d.coalesce_gap + 4096),
        d.clone().with_pushdown_filters(!d.pushdown_filters),
        d.clone().with_reorder_filters(!d.reorder_filters),
        d.clone().with_max_predicate_cache_size(Some(12345)),
        d.clone().with_max_predicate_cache_size(None),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scan_comes_back_with_its_options_files_projection_limit_and_filters() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let codec = PqcodecExtensionCodec::new();
    for options in unusual_options() {
        let mut config = config(3);
        config.options_mut().optimizer.repartition_file_min_size = 0;
        let ctx = SessionContext::new_with_config(config).enable_url_table();
        pqcodec_datafusion::register_with_options(&ctx, options.clone()).unwrap();
        let sql = format!(
            "SELECT name, id * 2 AS twice FROM '{}' WHERE id % 7 = 3 AND score > 10 LIMIT 700",
            path.display()
        );
        let plan = physical_plan(&ctx, &sql).await;
        let back = round_trip(Arc::clone(&plan), &codec, &ctx.task_ctx());
        let (before, after) = (scans(&plan), scans(&back));
        assert_eq!(before.len(), 1, "{options:?}");
        assert_eq!(after.len(), 1, "{options:?}");
        let ((conf, source), (conf_back, source_back)) = (&before[0], &after[0]);
        assert_eq!(source_back.options(), &options);
        assert_eq!(source_back.options(), source.options());
        // Files and their byte ranges (3 partitions: one file split), the projection, the
        // limit, the filters, the schema.
        assert_eq!(conf_back.file_groups.len(), 3);
        assert_eq!(files(conf_back), files(conf));
        assert_eq!(conf_back.limit, conf.limit);
        use datafusion::datasource::physical_plan::FileSource;
        assert_eq!(
            source_back.projection().map(|p| format!("{p:?}")),
            source.projection().map(|p| format!("{p:?}"))
        );
        let (filter, filter_back) = (source.filter(), source_back.filter());
        assert!(filter.is_some());
        assert_eq!(
            filter_back.map(|f| f.to_string()),
            filter.map(|f| f.to_string())
        );
        assert_eq!(conf_back.file_schema(), conf.file_schema());
        // The plan reads as many rows (which 700 of them depends on the partitions' race),
        // and without the limit the same rows.
        let ours = rows(&collect(plan, ctx.task_ctx()).await.unwrap());
        let back = rows(&collect(back, ctx.task_ctx()).await.unwrap());
        assert_eq!((ours.len(), back.len()), (700, 700), "{options:?}");
        let all = sql.replace(" LIMIT 700", "");
        let plan = physical_plan(&ctx, &all).await;
        let back = round_trip(Arc::clone(&plan), &codec, &ctx.task_ctx());
        let ours = rows(&collect(plan, ctx.task_ctx()).await.unwrap());
        let back = rows(&collect(back, ctx.task_ctx()).await.unwrap());
        assert!(ours.len() > 700);
        assert!(back == ours, "{options:?}: other rows");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partition_columns_and_folders_come_back() {
    let dir = tempfile::tempdir().unwrap();
    for part in ["a", "b"] {
        let folder = dir.path().join(format!("part={part}"));
        std::fs::create_dir(&folder).unwrap();
        let start = if part == "a" { 0 } else { 5000 };
        write(
            &folder.join("x.parquet"),
            &[sample(3000, start)],
            layered(1000, 100),
        );
    }
    let ctx = pqcodec_datafusion::session_context(config(2)).unwrap();
    let create = format!(
        "CREATE EXTERNAL TABLE t STORED AS PARQUET PARTITIONED BY (part) LOCATION '{}/'",
        dir.path().display()
    );
    ctx.sql(&create).await.unwrap();
    let sql = "SELECT part, count(*), max(id) FROM t WHERE part = 'b' OR id < 10 GROUP BY part";
    let plan = physical_plan(&ctx, sql).await;
    let back = round_trip(
        Arc::clone(&plan),
        &PqcodecExtensionCodec::new(),
        &ctx.task_ctx(),
    );
    let (conf, conf_back) = (&scans(&plan)[0].0, &scans(&back)[0].0);
    assert_eq!(
        conf_back.table_partition_cols(),
        conf.table_partition_cols()
    );
    let ours = rows(&collect(plan, ctx.task_ctx()).await.unwrap());
    assert_eq!(ours.len(), 2);
    assert_eq!(rows(&collect(back, ctx.task_ctx()).await.unwrap()), ours);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_not_a_pqcodec_scan_is_refused() {
    let codec = PqcodecExtensionCodec::new();
    let ctx = SessionContext::new();
    let task = ctx.task_ctx();
    let converter = DefaultPhysicalProtoConverter {};
    // Another node.
    let other = physical_plan(&ctx, "SELECT 1").await;
    let err = codec
        .try_encode(other, &mut Vec::new(), &converter)
        .unwrap_err();
    assert!(err.to_string().contains("is not a pqcodec scan"), "{err}");
    // Bytes that are not one: garbage, another codec's, a truncated scan.
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let ctx = pqcodec_datafusion::session_context(config(1)).unwrap();
    let plan = physical_plan(&ctx, &format!("SELECT id FROM '{}'", path.display())).await;
    let scan = scans(&plan);
    assert_eq!(scan.len(), 1);
    let exec: Arc<dyn ExecutionPlan> = DataSourceExec::from_data_source(scan[0].0.clone());
    let mut good = Vec::new();
    codec.try_encode(exec, &mut good, &converter).unwrap();
    assert!(codec.try_decode(&good, &[], &task, &converter).is_ok());
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("garbage", vec![0xff; 40]),
        ("truncated", good[..good.len() / 2].to_vec()),
        ("a string", b"\x0a\x05hello".to_vec()),
    ];
    for (what, bytes) in cases {
        let err = codec
            .try_decode(&bytes, &[], &task, &converter)
            .unwrap_err();
        assert!(err.to_string().contains("pqcodec scan"), "{what}: {err}");
    }
    // Every prefix, and every byte flipped: an error or a plan, never a panic.
    for end in 0..good.len() {
        let _ = codec.try_decode(&good[..end], &[], &task, &converter);
    }
    for i in 0..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x5a;
        let _ = codec.try_decode(&bad, &[], &task, &converter);
    }
    // A scan is no other codec's.
    let default = DefaultPhysicalExtensionCodec {};
    assert!(default.try_decode(&good, &[], &task, &converter).is_err());
}
