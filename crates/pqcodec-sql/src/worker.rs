//! `pqcodec worker`: a worker of distributed DataFusion (datafusion-distributed) whose scans
//! decode with pqcodec, serving the stages `pqcodec sql --workers` sends it.

use std::net::SocketAddr;

use tokio::signal::unix::{SignalKind, signal};

/// What `pqcodec worker` was asked.
#[derive(Debug, clap::Args)]
pub struct WorkerArgs {
    /// The address to listen on, `HOST:PORT` (port 0: one the system picks, printed).
    #[arg(long, value_name = "HOST:PORT")]
    pub listen: SocketAddr,
    /// Threads running the tasks; the number of cores by default.
    #[arg(long)]
    pub threads: Option<usize>,
}

type BoxError = Box<dyn std::error::Error>;

/// Serves until SIGINT or SIGTERM, logging to stderr where it listens and when it stops.
pub fn worker(args: &WorkerArgs) -> Result<(), BoxError> {
    let threads = match args.threads {
        Some(0) => return Err("--threads must be at least 1".into()),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|e| format!("--listen {}: {e}", args.listen))?;
        let address = listener.local_addr()?;
        let mut terminate = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        let stop = async move {
            let name = tokio::select! {
                _ = terminate.recv() => "SIGTERM",
                _ = interrupt.recv() => "SIGINT",
            };
            eprintln!("pqcodec worker: {name}: stopping");
        };
        eprintln!("pqcodec worker: listening on http://{address}");
        let worker =
            pqcodec_datafusion::distributed::worker().with_runtime_env(crate::stores::runtime()?);
        pqcodec_datafusion::distributed::serve(worker, listener, stop).await?;
        eprintln!("pqcodec worker: stopped");
        Ok(())
    })
}
