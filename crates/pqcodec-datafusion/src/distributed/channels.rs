//! [`Channels`]: the gRPC channels to the workers, with bounded waits, whose errors name the
//! worker.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use datafusion::arrow::array::RecordBatch;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::TaskContext;
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion_distributed::grpc::{BoxCloneSyncChannel, create_worker_client};
use datafusion_distributed::{
    ChannelResolver, CoordinatorToWorkerMsg, ExecuteTaskRequest, GetWorkerInfoRequest,
    GetWorkerInfoResponse, SetPlanRequest, WorkerChannel, WorkerToCoordinatorMsg,
};
use futures::StreamExt;
use futures::stream::BoxStream;
use http::HeaderMap;
use tonic::transport::{Channel, Endpoint};
use url::Url;

/// How long a connection to a worker may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How often an open connection is pinged, and how long a ping may go unanswered before the
/// worker counts as gone (a machine that stopped, not only a process that died).
const KEEP_ALIVE_INTERVAL: Duration = Duration::from_secs(10);
const KEEP_ALIVE_TIMEOUT: Duration = Duration::from_secs(20);

/// One channel per worker URL, opened on first use and reconnecting after. A worker that cannot
/// be reached fails a query within [`CONNECT_TIMEOUT`], one that stops answering within
/// [`KEEP_ALIVE_INTERVAL`] + [`KEEP_ALIVE_TIMEOUT`], and every error says which worker it was.
#[derive(Debug, Clone, Default)]
pub(crate) struct Channels {
    open: Arc<Mutex<HashMap<Url, Channel>>>,
}

impl Channels {
    fn channel(&self, url: &Url) -> Result<Channel> {
        let mut open = self
            .open
            .lock()
            .map_err(|_| DataFusionError::Internal("worker channels: poisoned lock".into()))?;
        if let Some(channel) = open.get(url) {
            return Ok(channel.clone());
        }
        let channel = Endpoint::from_shared(url.to_string())
            .map_err(|e| DataFusionError::Configuration(format!("worker {url}: {e}")))?
            .connect_timeout(CONNECT_TIMEOUT)
            .http2_keep_alive_interval(KEEP_ALIVE_INTERVAL)
            .keep_alive_timeout(KEEP_ALIVE_TIMEOUT)
            .keep_alive_while_idle(true)
            .tcp_nodelay(true)
            .connect_lazy();
        open.insert(url.clone(), channel.clone());
        Ok(channel)
    }
}

#[async_trait]
impl ChannelResolver for Channels {
    async fn get_worker_client_for_url(&self, url: &Url) -> Result<Box<dyn WorkerChannel>> {
        let channel = BoxCloneSyncChannel::new(self.channel(url)?);
        Ok(Box::new(Named {
            url: url.clone(),
            inner: create_worker_client(channel),
        }))
    }
}

/// A worker's client whose errors name the worker.
struct Named {
    url: Url,
    inner: Box<dyn WorkerChannel>,
}

/// `e`, said to come from the worker at `url`.
fn at(url: &Url, e: DataFusionError) -> DataFusionError {
    DataFusionError::Context(format!("worker {url}"), Box::new(e))
}

/// `stream`, its errors said to come from the worker at `url`.
fn named_stream<T: Send + 'static>(
    url: &Url,
    stream: BoxStream<'static, Result<T>>,
) -> BoxStream<'static, Result<T>> {
    let url = url.clone();
    stream.map(move |r| r.map_err(|e| at(&url, e))).boxed()
}

#[async_trait]
impl WorkerChannel for Named {
    async fn coordinator_channel(
        &mut self,
        headers: HeaderMap,
        set_plan_request: SetPlanRequest,
        c2w_stream: BoxStream<'static, CoordinatorToWorkerMsg>,
        metrics: ExecutionPlanMetricsSet,
        task_ctx: &Arc<TaskContext>,
    ) -> Result<BoxStream<'static, Result<WorkerToCoordinatorMsg>>> {
        let stream = self
            .inner
            .coordinator_channel(headers, set_plan_request, c2w_stream, metrics, task_ctx)
            .await
            .map_err(|e| at(&self.url, e))?;
        Ok(named_stream(&self.url, stream))
    }

    async fn execute_task(
        &mut self,
        headers: HeaderMap,
        request: ExecuteTaskRequest,
        metrics: ExecutionPlanMetricsSet,
        task_ctx: &Arc<TaskContext>,
    ) -> Result<Vec<BoxStream<'static, Result<RecordBatch>>>> {
        let streams = self
            .inner
            .execute_task(headers, request, metrics, task_ctx)
            .await
            .map_err(|e| at(&self.url, e))?;
        Ok(streams
            .into_iter()
            .map(|s| named_stream(&self.url, s))
            .collect())
    }

    async fn get_worker_info(
        &mut self,
        request: GetWorkerInfoRequest,
    ) -> Result<GetWorkerInfoResponse> {
        self.inner
            .get_worker_info(request)
            .await
            .map_err(|e| at(&self.url, e))
    }
}
