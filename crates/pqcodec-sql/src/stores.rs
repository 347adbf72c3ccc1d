//! The object stores `sql` and `worker` read tables from: local files, and with the
//! `object-stores` feature `s3://` buckets and `http(s)://` servers, each store made the first
//! time a URL names it.

use std::sync::Arc;

#[cfg(feature = "object-stores")]
use datafusion::error::DataFusionError;
use datafusion::error::Result;
use datafusion::execution::object_store::{DefaultObjectStoreRegistry, ObjectStoreRegistry};
use datafusion::execution::runtime_env::{RuntimeEnv, RuntimeEnvBuilder};
use object_store::ObjectStore;
use url::Url;

/// A runtime whose object stores are [`Stores`].
pub fn runtime() -> Result<Arc<RuntimeEnv>> {
    RuntimeEnvBuilder::new()
        .with_object_store_registry(Arc::new(Stores::default()))
        .build_arc()
}

/// DataFusion's registry (local files, and stores registered by hand), which makes a store for
/// an `s3://BUCKET` (credentials and region from the environment's `AWS_*`, as the AWS tools
/// take them) or an `http(s)://HOST[:PORT]` it does not hold yet.
#[derive(Debug, Default)]
pub struct Stores {
    known: DefaultObjectStoreRegistry,
}

impl ObjectStoreRegistry for Stores {
    fn register_store(
        &self,
        url: &Url,
        store: Arc<dyn ObjectStore>,
    ) -> Option<Arc<dyn ObjectStore>> {
        self.known.register_store(url, store)
    }

    fn deregister_store(&self, url: &Url) -> Result<Arc<dyn ObjectStore>> {
        self.known.deregister_store(url)
    }

    fn get_store(&self, url: &Url) -> Result<Arc<dyn ObjectStore>> {
        let known = self.known.get_store(url);
        #[cfg(feature = "object-stores")]
        if known.is_err()
            && let Some(store) = make(url)?
        {
            self.known.register_store(url, Arc::clone(&store));
            return Ok(store);
        }
        known
    }
}

/// The store `url` names, if this build makes stores of its scheme.
#[cfg(feature = "object-stores")]
fn make(url: &Url) -> Result<Option<Arc<dyn ObjectStore>>> {
    use object_store::ClientOptions;
    use object_store::aws::AmazonS3Builder;
    use object_store::http::HttpBuilder;

    let failed = |e: object_store::Error| DataFusionError::ObjectStore(Box::new(e));
    let store: Arc<dyn ObjectStore> = match url.scheme() {
        "s3" => Arc::new(
            AmazonS3Builder::from_env()
                .with_url(url.as_str())
                .build()
                .map_err(failed)?,
        ),
        "http" | "https" => {
            // Plain HTTP is refused unless allowed: the URL says which it is.
            let options = ClientOptions::new().with_allow_http(url.scheme() == "http");
            let store = HttpBuilder::new()
                .with_url(url.origin().ascii_serialization())
                .with_client_options(options)
                .build()
                .map_err(failed)?;
            Arc::new(store)
        }
        _ => return Ok(None),
    };
    Ok(Some(store))
}
