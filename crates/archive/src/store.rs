//! The SQLite store: schema, versioning and the row-level operations the
//! archive needs. It is the source of truth; the index is derived from it.

use rusqlite::{params, Connection, OptionalExtension};

use crate::Error;

/// Marks a database as a dateline archive (`meta.format`).
pub const FORMAT: &str = "dateline-archive";

/// The schema version this library reads and writes.
pub const SCHEMA_VERSION: i64 = 3;

/// Version 3 of the schema: version 2 ([`SCHEMA_V2`]) plus
/// `documents.sha256`, the document's SHA-256 (64 lower-case hex digits),
/// which every occurrence's provenance shows (an occurrence names its
/// document; the hash is stored once per document, not per occurrence).
///
/// A version-2 store is migrated when it is first opened where it can be
/// written, by any command ([`migrate`]; adding a column rewrites no row, so
/// it is instant at any size). Existing documents get NULL, never a guess:
/// the store keeps the captions found in a document, not its bytes, and the
/// migration does not go back to the source paths (they may be relative to
/// another directory, URLs, `<stdin>`, or changed since). Ingesting a file
/// again recomputes it: its XXH3 content hash proves the bytes are the ones
/// first ingested, and the SHA-256 is then recorded
/// ([`crate::Archive::record_sha256`]). `meta.sha256_from` is the first
/// document id that must have one, so `check` can tell a document from
/// before the migration (a note) from one that lost its hash (a problem).
const SCHEMA_V3: &str = "ALTER TABLE documents ADD COLUMN sha256 TEXT;";

/// Version 2 of the schema.
///
/// - `documents`: one row per distinct input (content hash), with the path
///   it was first read from, its size, when, and how many occurrences it
///   holds (so `check` can tell a whole document from a part of one).
/// - `records`: one row per photo (cluster). `id` is the public id (the
///   caption id of its first variant, so found through `variants.id`: an
///   index of its own would be one more B-tree of random keys, rewritten by
///   every document's transaction); `variant` is the representative
///   variant whose parsed record `json` is; the other columns are what
///   filters and facets read. `seq` is the change counter the index
///   watermark compares against.
/// - `variants`: every distinct caption text of a record. `json` is its
///   parsed record, NULL for the representative, whose record is
///   `records.json`: each record's JSON is stored once (version 1 stored the
///   representative's twice, a third of the store). `lsh` holds its
///   near-duplicate keys (see `dedup`), 8 bytes each, little endian: an
///   ingest reads them all into memory once (`candidates`) instead of
///   looking each up in a key table (version 1's `lsh` table, thirteen
///   random B-tree inserts per variant). A rowid table: its rows are too
///   large for WITHOUT ROWID, where each spills into an overflow page of its
///   own.
/// - `occurrences`: every caption as found in a document: position, byte
///   offset and length, the exact text (NULL when it equals the variant's
///   normalized text, to save space), the variant and the record.
/// - `meta`: format, schema version, `seq` (last change number) and
///   `indexed_seq` (the index watermark as last written).
const SCHEMA_V2: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    content_hash TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    ingested_at TEXT NOT NULL,
    occurrences INTEGER NOT NULL
);
CREATE TABLE records (
    key INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    variant TEXT NOT NULL,
    json TEXT NOT NULL,
    seq INTEGER NOT NULL,
    date_created TEXT,
    country_code TEXT,
    city TEXT,
    province_code TEXT,
    geonames_id INTEGER,
    latitude REAL,
    longitude REAL,
    agencies TEXT NOT NULL,
    creators TEXT NOT NULL,
    flags TEXT NOT NULL
);
CREATE INDEX records_seq ON records(seq);
CREATE TABLE variants (
    id TEXT NOT NULL UNIQUE,
    record INTEGER NOT NULL REFERENCES records(key),
    text TEXT NOT NULL,
    json TEXT,
    first_document INTEGER NOT NULL REFERENCES documents(id),
    lsh BLOB NOT NULL
);
CREATE INDEX variants_record ON variants(record, id);
CREATE TABLE occurrences (
    document INTEGER NOT NULL REFERENCES documents(id),
    position INTEGER NOT NULL,
    byte_offset INTEGER NOT NULL,
    byte_len INTEGER NOT NULL,
    exact_text TEXT,
    variant TEXT NOT NULL REFERENCES variants(id),
    record INTEGER NOT NULL REFERENCES records(key),
    image_url TEXT,
    PRIMARY KEY (document, position)
) WITHOUT ROWID;
CREATE INDEX occurrences_record ON occurrences(record);
";

/// The name prefix of a store being created ([`create_atomically`]): one
/// left behind by a killed process is debris, never an archive.
pub const CREATING_PREFIX: &str = "archive.sqlite3.creating-";

/// Opens (creating when `create`) the database and checks it is an archive
/// this library can read.
pub fn open(path: &std::path::Path, create: bool) -> Result<Connection, Error> {
    if create && !path.exists() {
        create_atomically(path)?;
    }
    let conn = Connection::open(path).map_err(|e| Error::sqlite("opening the store", e))?;
    conn.busy_timeout(std::time::Duration::from_secs(30))
        .map_err(|e| Error::sqlite("configuring the store", e))?;
    // WAL: readers never block the writer nor the writer them. NORMAL
    // synchronous is durable against a killed process (the WAL is written
    // before commit returns) and consistent after a power cut.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| Error::sqlite("opening the store in WAL mode", e))?;
    // A checkpoint every 64 MB of WAL instead of SQLite's 4 MB: the index
    // pages a document's transaction changes are copied to the database
    // once for several documents, not once for each. (An archive opened for
    // writing leaves it to a `Checkpointer`.)
    conn.execute_batch(
        "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536;
         PRAGMA wal_autocheckpoint = 16384;",
    )
    .map_err(|e| Error::sqlite("configuring the store", e))?;
    let has_meta: bool = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map_err(|e| Error::not_an_archive(path, e.to_string()))?
        > 0;
    if !has_meta {
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(|e| Error::not_an_archive(path, e.to_string()))?;
        if !create || tables > 0 {
            return Err(Error::not_an_archive(path, "no archive tables".into()));
        }
        // An empty database file, as versions before atomic creation left
        // when killed between creating the file and committing the schema.
        init_schema(&conn)?;
    }
    let format = get_meta(&conn, "format")?;
    if format.as_deref() != Some(FORMAT) {
        return Err(Error::not_an_archive(path, "not a dateline archive".into()));
    }
    let mut version: i64 = get_meta(&conn, "schema_version")?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if version == 2 {
        migrate(&conn)?;
        version = get_meta_i64(&conn, "schema_version")?;
    }
    if version != SCHEMA_VERSION {
        return Err(Error::SchemaVersion {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(conn)
}

/// Creates the store at `path` so that it appears whole or not at all: the
/// schema is committed in a file of this process's own, which is then
/// linked to `path`. A process killed at any moment leaves either no store
/// (and debris [`CREATING_PREFIX`] the next open ignores) or a complete,
/// empty archive; before, a kill between SQLite creating the file and the
/// schema's commit left an empty file that `check` rightly refused.
fn create_atomically(path: &std::path::Path) -> Result<(), Error> {
    let failed = |e| Error::sqlite("creating the store", e);
    let name = format!("{CREATING_PREFIX}{}", std::process::id());
    let staging = path.with_file_name(name);
    remove_staging(&staging);
    {
        // The default rollback journal: once the commit returns the file
        // holds the whole schema and no journal is needed beside it.
        let conn = Connection::open(&staging).map_err(failed)?;
        init_schema(&conn)?;
        conn.close().map_err(|(_, e)| failed(e))?;
    }
    let io = |what: &str, e| Error::io(format!("{what} {}", path.display()), e);
    std::fs::File::open(&staging)
        .and_then(|f| f.sync_all())
        .map_err(|e| io("syncing the new store for", e))?;
    // A hard link never replaces a store another process created meanwhile
    // (a rename would): that one is kept and this copy dropped.
    match std::fs::hard_link(&staging, path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            remove_staging(&staging);
            return Err(io("creating the store", e));
        }
    }
    remove_staging(&staging);
    if let Some(dir) = path.parent() {
        // The new directory entry outlives a power cut too.
        let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// Removes a staging file and its journal, if there.
fn remove_staging(staging: &std::path::Path) {
    let _ = std::fs::remove_file(staging);
    let mut journal = staging.as_os_str().to_owned();
    journal.push("-journal");
    let _ = std::fs::remove_file(journal);
}

/// Writes the current schema and the initial `meta` rows, in one
/// transaction, into a database without tables.
fn init_schema(conn: &Connection) -> Result<(), Error> {
    let failed = |e| Error::sqlite("creating the store", e);
    let tx = conn.unchecked_transaction().map_err(failed)?;
    tx.execute_batch(SCHEMA_V2)
        .and_then(|_| tx.execute_batch(SCHEMA_V3))
        .map_err(failed)?;
    for (key, value) in [
        ("format", FORMAT.to_string()),
        ("schema_version", SCHEMA_VERSION.to_string()),
        ("seq", "0".to_string()),
        ("indexed_seq", "0".to_string()),
        ("sha256_from", "1".to_string()),
    ] {
        tx.execute(
            "INSERT INTO meta(key, value) VALUES (?1, ?2)",
            params![key, value],
        )
        .map_err(failed)?;
    }
    tx.commit().map_err(failed)
}

/// Migrates a version-2 store to version 3 in one transaction (another
/// process may have done it meanwhile: then nothing is done). See
/// [`SCHEMA_V3`].
fn migrate(conn: &Connection) -> Result<(), Error> {
    let failed = |e| Error::sqlite("migrating the store to schema 3", e);
    let tx = rusqlite::Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)
        .map_err(failed)?;
    if get_meta_i64(&tx, "schema_version")? == 2 {
        tx.execute_batch(SCHEMA_V3).map_err(failed)?;
        let next_document: i64 = tx
            .query_row("SELECT coalesce(max(id), 0) + 1 FROM documents", [], |r| {
                r.get(0)
            })
            .map_err(failed)?;
        set_meta(&tx, "sha256_from", &next_document.to_string())?;
        set_meta(&tx, "schema_version", &SCHEMA_VERSION.to_string())?;
    }
    tx.commit().map_err(failed)
}

/// A `meta` value.
pub fn get_meta(conn: &Connection, key: &str) -> Result<Option<String>, Error> {
    // Cached: a served search reads the store's change number each time.
    let failed = |e| Error::sqlite("reading the store's meta table", e);
    conn.prepare_cached("SELECT value FROM meta WHERE key = ?1")
        .map_err(failed)?
        .query_row([key], |r| r.get(0))
        .optional()
        .map_err(failed)
}

/// A numeric `meta` value (0 when absent).
pub fn get_meta_i64(conn: &Connection, key: &str) -> Result<i64, Error> {
    Ok(get_meta(conn, key)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0))
}

/// Sets a `meta` value.
pub fn set_meta(conn: &Connection, key: &str, value: &str) -> Result<(), Error> {
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        params![key, value],
    )
    .map_err(|e| Error::sqlite("writing the store's meta table", e))?;
    Ok(())
}

/// WAL pages the writer lets pile up before it checkpoints itself, while a
/// [`Checkpointer`] runs: a safety net only.
pub const WRITER_AUTOCHECKPOINT: i64 = 131_072;

/// Copies the WAL into the database from a thread and a connection of its
/// own, every two seconds (a passive checkpoint: it never waits for the
/// writer nor readers). A writer's own checkpoints run inside its commits;
/// an ingest's single writer thread spent a tenth of its time there.
pub struct Checkpointer {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts checkpointing the store at `path`; `None` when it cannot (the
    /// writer then checkpoints as SQLite does by default).
    pub fn start(path: &std::path::Path) -> Option<Checkpointer> {
        let conn = Connection::open(path).ok()?;
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("store-checkpoint".into())
            .spawn(move || {
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(std::time::Duration::from_secs(2))
                {
                    // A failure (a full disk) is retried next time; the WAL
                    // keeps every committed change meanwhile.
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .ok()?;
        Some(Checkpointer {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests;
