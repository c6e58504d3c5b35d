//! Where a record's captions were found: the documents behind its
//! occurrences, with their content hashes and when they were first seen.

use rusqlite::OptionalExtension;
use serde::Serialize;

use crate::{Archive, Error};

/// A stored document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredDocument {
    /// Store id.
    pub id: i64,
    /// The path (or URL) it was first ingested from.
    pub path: String,
    /// Its content hash ([`crate::content_hash`]: XXH3-128, 32 hex digits).
    pub content_hash: String,
    /// Its SHA-256 (64 hex digits); `None` for a document ingested before
    /// schema 3 and not ingested again since (the store does not keep a
    /// document's bytes, so the migration cannot compute it).
    pub sha256: Option<String>,
    /// Its size in bytes.
    pub size: i64,
    /// When it was first ingested (RFC 3339, UTC).
    pub ingested_at: String,
}

impl Archive {
    /// The document with this store id.
    pub fn document(&self, id: i64) -> Result<Option<StoredDocument>, Error> {
        self.conn
            .prepare_cached(
                "SELECT id, path, content_hash, size, ingested_at, sha256
                 FROM documents WHERE id = ?1",
            )
            .and_then(|mut stmt| {
                stmt.query_row([id], |r| {
                    Ok(StoredDocument {
                        id: r.get(0)?,
                        path: r.get(1)?,
                        content_hash: r.get(2)?,
                        size: r.get(3)?,
                        ingested_at: r.get(4)?,
                        sha256: r.get(5)?,
                    })
                })
                .optional()
            })
            .map_err(|e| Error::sqlite("reading a document", e))
    }

    /// Records the SHA-256 of a document that has none (ingested before
    /// schema 3), from its bytes read again; returns whether it was
    /// missing. A SHA-256 already recorded is never replaced: the XXH3
    /// content hash matched, so the bytes are the ones it was computed
    /// from. Needs a writable archive.
    pub fn record_sha256(&self, document: i64, sha256: &str) -> Result<bool, Error> {
        if !crate::is_sha256_hex(sha256) {
            return Err(Error::BadQuery(format!(
                "{sha256:?} is not a SHA-256 (64 lower-case hex digits)"
            )));
        }
        self.conn
            .execute(
                "UPDATE documents SET sha256 = ?1 WHERE id = ?2 AND sha256 IS NULL",
                rusqlite::params![sha256, document],
            )
            .map(|n| n > 0)
            .map_err(|e| Error::sqlite("recording a document's SHA-256", e))
    }
}
