//! pqcodec's scans on more than one machine, with
//! [datafusion-distributed](https://github.com/datafusion-contrib/datafusion-distributed).
//!
//! A coordinating session ([`distributed_session_context`]) plans each query as DataFusion
//! does, then cuts it into stages run as tasks on workers. A pqcodec scan is split across its
//! stage's tasks as DataFusion's Parquet scans are, by files and by byte ranges of one file,
//! and crosses the network through [`PqcodecExtensionCodec`]. A worker ([`worker`], served by
//! [`serve`]) decodes it with pqcodec, keeping the files' metadata for the queries that follow.
//! Files are named by path or URL: every worker must reach them under the same name.
//!
//! The rest of datafusion-distributed (its options, plan display, metrics) is
//! [`crate::datafusion_distributed`], the version this crate builds on.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use pqcodec_datafusion::distributed::{self, WorkerUrls};
//!
//! // Two workers on this machine...
//! for port in [50051, 50052] {
//!     let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
//!     tokio::spawn(distributed::serve(distributed::worker(), listener, std::future::pending()));
//! }
//! // ...and a session whose queries run on them.
//! let workers = WorkerUrls::parse(["http://127.0.0.1:50051", "http://127.0.0.1:50052"])?;
//! let ctx = distributed::distributed_session_context(Default::default(), workers)?;
//! ctx.sql("SELECT count(*) FROM '/data/lineitem.parquet'").await?.show().await?;
//! # Ok(())
//! # }
//! ```

use std::future::Future;
use std::sync::Arc;

use datafusion::error::{DataFusionError, Result};
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_distributed::{
    DistributedExt, SessionStateBuilderExt, Worker, WorkerQueryContext, WorkerResolver,
};
use futures::future::BoxFuture;
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use url::{Host, Url};

use crate::proto::PqcodecExtensionCodec;
use channels::Channels;

mod channels;

/// A fixed list of workers, by URL (`http://host:port`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerUrls(Vec<Url>);

impl WorkerUrls {
    /// The workers at `urls`.
    pub fn new(urls: Vec<Url>) -> Self {
        WorkerUrls(urls)
    }

    /// The workers at `urls`, parsed; an error names the first that is no URL.
    ///
    /// ```
    /// use pqcodec_datafusion::distributed::WorkerUrls;
    ///
    /// assert!(WorkerUrls::parse(["http://127.0.0.1:50051"]).is_ok());
    /// assert!(WorkerUrls::parse(["127.0.0.1 50051"]).is_err());
    /// ```
    pub fn parse<S: AsRef<str>>(urls: impl IntoIterator<Item = S>) -> Result<Self> {
        urls.into_iter()
            .map(|u| {
                let u = u.as_ref();
                Url::parse(u)
                    .map_err(|e| DataFusionError::Configuration(format!("worker {u:?}: {e}")))
            })
            .collect::<Result<Vec<_>>>()
            .map(WorkerUrls)
    }

    /// The URLs.
    pub fn urls(&self) -> &[Url] {
        &self.0
    }

    /// Whether every worker is on this machine (a loopback address, or `localhost`): then
    /// compressing what they send each other only costs CPU.
    ///
    /// ```
    /// use pqcodec_datafusion::distributed::WorkerUrls;
    ///
    /// let local = WorkerUrls::parse(["http://127.0.0.1:1", "http://localhost:2", "http://[::1]:3"]);
    /// assert!(local.unwrap().on_this_machine());
    /// assert!(!WorkerUrls::parse(["http://10.0.0.7:1"]).unwrap().on_this_machine());
    /// ```
    pub fn on_this_machine(&self) -> bool {
        self.0.iter().all(|url| match url.host() {
            Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
            Some(Host::Ipv4(ip)) => ip.is_loopback(),
            Some(Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        })
    }
}

impl WorkerResolver for WorkerUrls {
    fn get_urls(&self) -> Result<Vec<Url>> {
        Ok(self.0.clone())
    }
}

/// A coordinating session of `config` over `workers`: as [`session_context`](crate::session_context)
/// (Parquet read by pqcodec, URL tables), its queries planned by the distributed planner and run
/// on the workers.
pub fn distributed_session_context(
    config: SessionConfig,
    workers: impl WorkerResolver + 'static,
) -> Result<SessionContext> {
    let state = distributed_state_builder(config, workers).build();
    let ctx = SessionContext::new_with_state(state).enable_url_table();
    crate::register(&ctx)?;
    Ok(ctx)
}

/// What [`distributed_session_context`] builds on, for a session of one's own: DataFusion's
/// defaults, the distributed planner over `workers`, [`PqcodecExtensionCodec`], and channels
/// to the workers as [`worker`]'s (bounded waits, errors that name the worker). pqcodec's
/// format is not registered (see [`register`](crate::register)).
pub fn distributed_state_builder(
    config: SessionConfig,
    workers: impl WorkerResolver + 'static,
) -> SessionStateBuilder {
    SessionStateBuilder::new()
        .with_config(config)
        .with_default_features()
        .with_distributed_worker_resolver(workers)
        .with_distributed_planner()
        .with_distributed_user_codec(PqcodecExtensionCodec::new())
        .with_distributed_channel_resolver(Channels::default())
}

/// A worker that runs the stages of coordinating sessions, pqcodec's scans among them. Its
/// queries share one DataFusion runtime, and with it the files' metadata cache; give it one
/// with the object stores the tables live in (`worker().with_runtime_env(runtime)`: the
/// default reads local files only).
///
/// Connections to workers, the coordinator's and the workers' own (a stage reading another),
/// open within 10 s and are pinged every 10 s: a worker that cannot be reached or stops
/// answering fails the query with an error that names it, within about 30 s.
pub fn worker() -> Worker {
    let codec = Arc::new(PqcodecExtensionCodec::new());
    let channels = Channels::default();
    Worker::from_session_builder(move |ctx: WorkerQueryContext| {
        let codec = Arc::clone(&codec);
        let channels = channels.clone();
        async move {
            Ok(ctx
                .builder
                .with_distributed_user_codec_arc(codec)
                .with_distributed_channel_resolver(channels)
                .build())
        }
    })
}

/// Serves `worker` over gRPC on `listener` until `shutdown` completes (then lets the calls in
/// flight end).
pub fn serve(
    worker: Worker,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> impl Future<Output = Result<(), tonic::transport::Error>> + Send {
    served(worker, listener, Box::pin(shutdown))
}

/// [`serve`] without generics, so that the server (tonic's and hyper's generic code) is
/// compiled in this crate, as optimised as the rest of the scans, and not in the crate that
/// awaits it (the CLI's session builds at a lower opt-level).
fn served(
    worker: Worker,
    listener: TcpListener,
    shutdown: BoxFuture<'static, ()>,
) -> BoxFuture<'static, Result<(), tonic::transport::Error>> {
    Box::pin(async move {
        tonic::transport::Server::builder()
            .add_service(worker.into_worker_server())
            .serve_with_incoming_shutdown(TcpListenerStream::new(listener), shutdown)
            .await
    })
}
