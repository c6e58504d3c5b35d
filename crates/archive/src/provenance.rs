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
                "SELECT id, path, content_hash, size, ingested_at FROM documents WHERE id = ?1",
            )
            .and_then(|mut stmt| {
                stmt.query_row([id], |r| {
                    Ok(StoredDocument {
                        id: r.get(0)?,
                        path: r.get(1)?,
                        content_hash: r.get(2)?,
                        size: r.get(3)?,
                        ingested_at: r.get(4)?,
                    })
                })
                .optional()
            })
            .map_err(|e| Error::sqlite("reading a document", e))
    }
}
