//! `dateline serve`: the archive's JSON API and its web page, every asset
//! embedded in the binary, safe on loopback by default.
//!
//! [`router`] builds the whole HTTP surface over a [`State`]; [`serve`] runs
//! it on a listener until a shutdown future completes. The page (`assets/`)
//! reads only the JSON API, which `/api/openapi.json` documents.

mod api;
mod assets;
mod error;
mod export;
mod flags;
mod map;
mod pool;
mod query;
mod security;

use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::ApiError;
pub use export::{ExportError, ExportFormat, Exporter};
pub use pool::Pool;
pub use security::{load_or_create_token, Token, TokenSource, CSP, TOKEN_FILE};

/// Largest request body accepted (reviews are small JSON objects).
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Longest query string accepted.
pub const MAX_QUERY_BYTES: usize = 4096;
/// Most hits a search page may ask for (exports have no cap).
pub const MAX_PAGE: usize = 200;

/// Archive handles for record pages, beside [`ServeConfig::readers`].
pub const RECORD_READERS: usize = 2;

/// What the server is configured with.
pub struct ServeConfig {
    /// The archive directory.
    pub archive: PathBuf,
    /// The address bound, for the `Host` check.
    pub bind: SocketAddr,
    /// The bearer token writes (and, off loopback, reads) need.
    pub token: Token,
    /// Archive handles searched in parallel.
    pub readers: usize,
}

/// Everything a request handler may use.
pub struct State {
    pub(crate) pool: Pool,
    /// Handles of their own for record pages, which read only the store and
    /// take a millisecond: they no longer wait in line behind searches
    /// (at 32 clients a record page's p99 was the searches' queue).
    pub(crate) records: Pool,
    pub(crate) gazetteer: &'static gazetteer::Gazetteer,
    pub(crate) exporter: Arc<dyn Exporter>,
    pub(crate) archive_dir: PathBuf,
    pub(crate) loopback: bool,
    pub(crate) token: Token,
    /// Held while the server writes the index (see `api::catch_up_index`).
    pub(crate) index_writes: std::sync::Mutex<()>,
}

impl State {
    /// Opens `readers` handles on the archive (read mode: the server never
    /// holds the index writer, so an ingest can run beside it).
    pub fn open(
        config: &ServeConfig,
        gazetteer: &'static gazetteer::Gazetteer,
        exporter: Arc<dyn Exporter>,
    ) -> Result<State, archive::Error> {
        Ok(State {
            pool: Pool::open(&config.archive, config.readers.max(1))?,
            records: Pool::open(&config.archive, RECORD_READERS)?,
            gazetteer,
            exporter,
            archive_dir: config.archive.clone(),
            loopback: config.bind.ip().is_loopback(),
            token: config.token.clone(),
            index_writes: std::sync::Mutex::new(()),
        })
    }

    /// The archive directory.
    pub fn archive_dir(&self) -> &Path {
        &self.archive_dir
    }
}

/// The whole HTTP surface: API, page, assets, with the security layers.
pub fn router(state: Arc<State>) -> axum::Router {
    security::layers(api::routes().merge(assets::routes()), state)
}

/// Serves `router(state)` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<State>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}
