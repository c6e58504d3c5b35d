//! Streamed exports of a selection: records are read in chunks on a
//! blocking thread, with their corrections applied, and written by the
//! binary's own format writers (the CLI's `export` formats) into the body as
//! they come. Nothing is capped; a failure midway aborts the body, so a
//! client never takes a cut-short file for a whole one.

use std::io::Write;
use std::sync::Arc;

use archive::{Archive, Mode};
use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::Value;

use crate::query::Params;
use crate::{ApiError, State};

/// An export failure, reported to the server's log.
pub type ExportError = Box<dyn std::error::Error + Send + Sync>;

/// An export format the API offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportFormat {
    /// Its name, the value of `format=`.
    pub name: &'static str,
    /// The body's media type.
    pub media_type: &'static str,
    /// The extension of the file name the download suggests.
    pub extension: &'static str,
}

/// Writes records in the export formats (the CLI's `dateline export`).
pub trait Exporter: Send + Sync {
    /// The formats offered.
    fn formats(&self) -> &[ExportFormat];

    /// Writes `records` (as the archive stores them, corrections applied and
    /// listed under `corrections`) to `out` in `format`, as one stream.
    fn export(
        &self,
        format: &str,
        records: &mut dyn Iterator<Item = Value>,
        out: &mut (dyn Write + Send),
    ) -> Result<(), ExportError>;
}

/// Records read from the store at a time.
const CHUNK: usize = 500;
/// Bytes gathered before a piece of the body is sent.
const PIECE: usize = 64 * 1024;

/// `GET /api/export`: the selection in `format`, streamed.
pub async fn export(state: Arc<State>, params: Params) -> Result<Response, ApiError> {
    let format = params.get("format").unwrap_or("jsonl").to_string();
    let Some(&chosen) = state.exporter.formats().iter().find(|f| f.name == format) else {
        let names: Vec<&str> = state.exporter.formats().iter().map(|f| f.name).collect();
        return Err(ApiError::bad_request(format!(
            "format {format:?} is not one of {}",
            names.join(", ")
        )));
    };
    let query = params.search(0, false)?;
    let everything = query.text.is_none()
        && crate::query::SELECT_PARAMS[1..]
            .iter()
            .all(|p| params.get(p).is_none());
    let gazetteer = params.has_place_filter().then_some(state.gazetteer);
    let dir = state.archive_dir.clone();
    // The selection is made before the first byte, so a bad query is a 400
    // and the total is known.
    let (archive, keys) = tokio::task::spawn_blocking(move || -> Result<_, ApiError> {
        let archive = Archive::open(&dir, Mode::Read)?;
        let keys = if everything {
            archive.all_keys()?
        } else {
            archive.search_keys(&query, gazetteer)?
        };
        Ok((archive, keys))
    })
    .await
    .map_err(|_| ApiError::internal())??;
    let total = keys.len();
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(4);
    let exporter = Arc::clone(&state.exporter);
    let format_name = format.clone();
    tokio::task::spawn_blocking(move || {
        let mut out = ChannelWriter {
            tx: tx.clone(),
            buffer: Vec::with_capacity(PIECE),
        };
        let mut failure: Option<String> = None;
        let mut records = Records {
            archive: &archive,
            keys: &keys,
            at: 0,
            chunk: Vec::new().into_iter(),
            failure: &mut failure,
        };
        let written = exporter
            .export(&format_name, &mut records, &mut out)
            .map_err(|e| e.to_string())
            .and_then(|()| out.flush().map_err(|e| e.to_string()));
        if let Some(why) = failure.or(written.err()) {
            if !why.contains("client went away") {
                eprintln!("dateline serve: export stopped: {why}");
            }
            let _ = tx.blocking_send(Err(std::io::Error::other(why)));
        }
    });
    let stream = tokio_stream::wrappers::ReceiverStream::new(rx);
    let mut response = Response::new(Body::from_stream(stream));
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(chosen.media_type),
    );
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"dateline-export.{}\"",
        chosen.extension
    )) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert("x-total-count", HeaderValue::from(total));
    Ok(response)
}

/// The selected records in order, chunk by chunk, corrections applied;
/// stops at the first store error, kept in `failure`.
struct Records<'a> {
    archive: &'a Archive,
    keys: &'a [u64],
    at: usize,
    chunk: std::vec::IntoIter<Value>,
    failure: &'a mut Option<String>,
}

impl Iterator for Records<'_> {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(record) = self.chunk.next() {
                return Some(record);
            }
            if self.at >= self.keys.len() || self.failure.is_some() {
                return None;
            }
            let end = (self.at + CHUNK).min(self.keys.len());
            match self
                .archive
                .records_with_corrections(&self.keys[self.at..end])
            {
                Ok(records) => self.chunk = records.into_iter(),
                Err(e) => {
                    *self.failure = Some(e.to_string());
                    return None;
                }
            }
            self.at = end;
        }
    }
}

/// A `Write` into the response body; fails once the client is gone.
struct ChannelWriter {
    tx: tokio::sync::mpsc::Sender<Result<Bytes, std::io::Error>>,
    buffer: Vec<u8>,
}

impl Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= PIECE {
            self.flush()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let piece = Bytes::from(std::mem::replace(
            &mut self.buffer,
            Vec::with_capacity(PIECE),
        ));
        self.tx.blocking_send(Ok(piece)).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
        })
    }
}
