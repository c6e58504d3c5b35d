//! `dateline serve`: the archive's JSON API and web page on a local port.

use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use archive::Mode;
use server::{ExportFormat, ServeConfig, TokenSource};

use super::export::{write_records, Format};
use super::ingest::ArchiveArg;

/// The default port; the next free one after it is taken when it is busy.
const DEFAULT_PORT: u16 = 8750;
/// Ports tried after the default before giving up.
const PORTS_TRIED: u16 = 20;

/// Arguments of `dateline serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    archive: ArchiveArg,
    /// Address to listen on (default 127.0.0.1:8750, or the first free port
    /// after it). Off loopback, reads need the token too.
    #[arg(long, value_name = "ADDR:PORT")]
    bind: Option<SocketAddr>,
    /// Archive handles answering requests in parallel.
    #[arg(long, value_name = "N", default_value_t = 4)]
    readers: usize,
}

/// The CLI's export formats, each as one stream, for the API's export route.
struct CliFormats;

/// What the API offers: every `dateline export --format`, in its order.
const API_FORMATS: &[(Format, ExportFormat)] = &[
    (
        Format::Jsonl,
        ExportFormat {
            name: "jsonl",
            media_type: "application/x-ndjson",
            extension: "jsonl",
        },
    ),
    (
        Format::Csv,
        ExportFormat {
            name: "csv",
            media_type: "text/csv; charset=utf-8",
            extension: "csv",
        },
    ),
    (
        Format::Geojson,
        ExportFormat {
            name: "geojson",
            media_type: "application/geo+json",
            extension: "geojson",
        },
    ),
    (
        Format::Xmp,
        ExportFormat {
            name: "xmp",
            media_type: "application/x-tar",
            extension: "xmp.tar",
        },
    ),
    (
        Format::Parquet,
        ExportFormat {
            name: "parquet",
            media_type: "application/vnd.apache.parquet",
            extension: "parquet",
        },
    ),
];

/// The export formats alone, as the server lists them.
static FORMATS: std::sync::LazyLock<Vec<ExportFormat>> =
    std::sync::LazyLock::new(|| API_FORMATS.iter().map(|(_, f)| *f).collect());

impl server::Exporter for CliFormats {
    fn formats(&self) -> &[ExportFormat] {
        &FORMATS
    }

    fn export(
        &self,
        format: &str,
        records: &mut dyn Iterator<Item = serde_json::Value>,
        out: &mut (dyn std::io::Write + Send),
    ) -> Result<(), server::ExportError> {
        let Some((format, _)) = API_FORMATS.iter().find(|(_, f)| f.name == format) else {
            return Err(format!("no export format {format:?}").into());
        };
        write_records(*format, records, out).map_err(Into::into)
    }
}

/// Runs `dateline serve` until interrupted.
pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let dir = args.archive.dir()?;
    // Opened once first: a missing archive is an error here, and an index
    // that must be rebuilt is rebuilt (and said so) before the port opens.
    drop(args.archive.open(Mode::Read)?);
    let (token, source) = server::load_or_create_token(&dir)
        .with_context(|| format!("reading or making the token beside {}", dir.display()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's threads")?;
    runtime.block_on(async move {
        let listener = bind(args.bind).await?;
        let addr = listener.local_addr()?;
        let config = ServeConfig {
            archive: dir.clone(),
            bind: addr,
            token,
            readers: args.readers,
        };
        let state = server::State::open(&config, gazetteer::Gazetteer::embedded(), Arc::new(CliFormats))
            .with_context(|| format!("opening the archive {}", dir.display()))?;
        let host = if addr.ip().is_unspecified() { "127.0.0.1".to_string() } else { addr.ip().to_string() };
        let host = if addr.is_ipv6() && !addr.ip().is_unspecified() { format!("[{host}]") } else { host };
        println!("dateline serve: http://{host}:{}/  (archive {})", addr.port(), dir.display());
        match &source {
            TokenSource::Created(path) => println!(
                "token for corrections (shown once; kept in {}): {}",
                path.display(),
                config.token.as_str()
            ),
            TokenSource::Stored(path) => println!("token for corrections: in {}", path.display()),
            TokenSource::Ephemeral => println!(
                "token for corrections (this run only: the archive directory cannot be written): {}",
                config.token.as_str()
            ),
        }
        if !addr.ip().is_loopback() {
            eprintln!(
                "dateline: warning: listening on {addr}, beyond this machine: every API request needs the token"
            );
        }
        server::serve(listener, Arc::new(state), async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Binds the address given, or the default port or the first free one after it.
async fn bind(addr: Option<SocketAddr>) -> anyhow::Result<tokio::net::TcpListener> {
    if let Some(addr) = addr {
        return tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("listening on {addr}"));
    }
    let mut last = None;
    for port in DEFAULT_PORT..DEFAULT_PORT + PORTS_TRIED {
        match tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(anyhow::anyhow!(
        "no free port in 127.0.0.1:{DEFAULT_PORT}..{} ({}); pass --bind",
        DEFAULT_PORT + PORTS_TRIED - 1,
        last.map(|e| e.to_string()).unwrap_or_default()
    ))
}
