//! The caption archive: every document ingested, every caption occurrence in
//! it, one record per photo (near-duplicates clustered, every variant kept),
//! searchable with filters and facets.
//!
//! An archive is a directory:
//! - `archive.sqlite3` (WAL mode), the source of truth: documents,
//!   occurrences, records, variants and the near-duplicate keys (schema in
//!   `store`);
//! - `index/`, a tantivy index derived from the store. Each index commit
//!   carries the store change number it reflects (its *watermark*) in its
//!   payload; the store keeps a copy in `meta.indexed_seq`. A writer catches
//!   the index up on opening, so an ingest killed between a store commit and
//!   an index commit loses nothing: the next writer indexes what is missing.
//!
//! One store transaction per document: a killed ingest leaves each document
//! wholly present or absent. Readers (search, show, check) never block on a
//! running ingest: SQLite readers see the last committed state, tantivy
//! readers the last committed index.
//!
//! ```no_run
//! # fn main() -> Result<(), archive::Error> {
//! let gazetteer = gazetteer::Gazetteer::embedded();
//! let mut archive = archive::Archive::open("/tmp/a".as_ref(), archive::Mode::Write)?;
//! let text = "Men walk in a street in Aleppo, Syria, May 2, 2016. REUTERS/Jane Doe";
//! let mut doc = archive
//!     .begin_document("note.txt", text.len() as u64, &archive::DocumentHashes::of(text.as_bytes()))?
//!     .expect("a new document");
//! doc.add(archive::NewOccurrence {
//!     offset: 0,
//!     exact_text: text.to_string(),
//!     record: caption::parse(text, gazetteer),
//! })?;
//! doc.commit()?;
//! archive.sync_index()?;
//! let found = archive.search(&archive::SearchQuery::text("street"), None)?;
//! assert_eq!(found.total, 1);
//! # Ok(()) }
//! ```

mod candidates;
mod check;
pub mod dedup;
mod histogram;
mod index;
mod ingest;
mod provenance;
mod reparse;
mod review;
mod search;
mod store;
#[cfg(any(test, feature = "test-support"))]
pub mod test_archive;

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy};

pub use check::CheckReport;
pub use histogram::{Bucket, DateHistogram, HistogramBar, Precision};
pub use ingest::{DocumentWriter, IngestSummary, NewOccurrence, PreparedOccurrence};
pub use provenance::StoredDocument;
pub use reparse::ReparseReport;
pub use review::{
    Correction, ReviewAction, ReviewEntry, ReviewKind, ReviewState, CORRECTABLE, MAX_REVIEW_TEXT,
};
pub use search::{Facets, Filters, Hit, Near, SearchQuery, SearchResults, Snippet};

/// File name of the store inside the archive directory.
pub const STORE_FILE: &str = "archive.sqlite3";
/// Directory name of the index inside the archive directory.
pub const INDEX_DIR: &str = "index";

/// Memory the index writer may use before it flushes a segment: bounded so
/// a large ingest stays within its memory budget.
const INDEX_WRITER_BYTES: usize = 64 * 1024 * 1024;

/// The largest segment (in records) a brief writer merges (see
/// [`Archive::catch_up_index`]): merges of segments this small take a few
/// milliseconds, so they can finish before the writer closes.
const BRIEF_MERGE_MAX_DOCS: usize = 2_000;

/// Threads that turn stored records into index documents in `sync_index`
/// (parsing their JSON is most of its work).
const SYNC_HELPERS: usize = 2;

/// What went wrong, named for the user.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No archive at the path (for commands that only read).
    #[error("no archive at {0} (create one with `dateline ingest`)")]
    NoArchive(PathBuf),
    /// The directory exists and holds something that is not an archive.
    #[error("{path} is not a dateline archive ({why}); refusing to touch it")]
    NotAnArchive {
        /// The directory or store file.
        path: PathBuf,
        /// What was found.
        why: String,
    },
    /// The store was written by another schema version.
    #[error("the archive has schema version {found}, this dateline reads version {supported}")]
    SchemaVersion {
        /// Version in the store.
        found: i64,
        /// Version this library reads and writes.
        supported: i64,
    },
    /// The archive cannot be written (read-only file system or
    /// permissions); nothing in it was changed.
    #[error("the archive {path} cannot be written ({source}); nothing was changed")]
    ReadOnly {
        /// The archive directory.
        path: PathBuf,
        /// Why a file could not be created in it.
        source: std::io::Error,
    },
    /// Another process holds the index writer.
    #[error("another dateline process is writing to this archive (ingest or reindex); try again when it finishes")]
    Busy,
    /// A store operation failed.
    #[error("{what}: {source}")]
    Sqlite {
        /// What was being done.
        what: String,
        /// The SQLite error.
        source: rusqlite::Error,
    },
    /// An index operation failed.
    #[error("{what}: {source}")]
    Index {
        /// What was being done.
        what: String,
        /// The tantivy error.
        source: tantivy::TantivyError,
    },
    /// A file operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A search query or filter is malformed.
    #[error("{0}")]
    BadQuery(String),
    /// A stored record could not be read back.
    #[error("record {0} in the store is not valid JSON")]
    BadRecord(String),
}

impl Error {
    fn sqlite(what: &str, source: rusqlite::Error) -> Error {
        Error::Sqlite {
            what: what.to_string(),
            source,
        }
    }

    fn index(what: &str, source: tantivy::TantivyError) -> Error {
        if let tantivy::TantivyError::LockFailure(..) = source {
            return Error::Busy;
        }
        Error::Index {
            what: what.to_string(),
            source,
        }
    }

    fn io(what: String, source: std::io::Error) -> Error {
        Error::Io { what, source }
    }

    fn not_an_archive(path: &Path, why: String) -> Error {
        Error::NotAnArchive {
            path: path.to_path_buf(),
            why,
        }
    }
}

/// How an archive is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Search, show, check: the archive must exist; nothing is written
    /// (except rebuilding a damaged index, and migrating a store of an
    /// older schema version, see `store::SCHEMA_V3`).
    Read,
    /// Ingest, reindex: created when absent; holds the index writer, so one
    /// writer at a time.
    Write,
}

/// Content hash of a document: 32 hex digits of XXH3-128 (fixed by its
/// specification, so hashes survive upgrades).
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// The two hashes of a document: [`content_hash`] (XXH3-128), by which
/// the archive knows a document it has seen, and its SHA-256, which others
/// can check a source against (`sha256sum`) and which every occurrence's
/// provenance shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentHashes {
    /// XXH3-128, 32 hex digits ([`content_hash`]).
    pub content_hash: String,
    /// SHA-256, 64 lower-case hex digits.
    pub sha256: String,
}

impl DocumentHashes {
    /// The hashes of a document held whole in memory.
    pub fn of(bytes: &[u8]) -> DocumentHashes {
        let mut hasher = ContentHasher::default();
        hasher.update(bytes);
        hasher.finish()
    }
}

/// Whether `s` is a SHA-256 as [`DocumentHashes`] writes it (what `check`
/// holds the store to).
pub(crate) fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A streaming [`DocumentHashes::of`], for documents read in pieces: both
/// hashes in the one pass over the bytes.
#[derive(Default)]
pub struct ContentHasher {
    xxh3: xxhash_rust::xxh3::Xxh3Default,
    sha256: sha2::Sha256,
}

impl ContentHasher {
    /// Feeds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        use sha2::Digest;
        self.xxh3.update(bytes);
        self.sha256.update(bytes);
    }

    /// The hashes of everything fed.
    pub fn finish(self) -> DocumentHashes {
        use sha2::Digest;
        use std::fmt::Write;
        let digest = self.sha256.finalize();
        let mut sha256 = String::with_capacity(64);
        for byte in digest.iter() {
            let _ = write!(sha256, "{byte:02x}");
        }
        DocumentHashes {
            content_hash: format!("{:032x}", self.xxh3.digest128()),
            sha256,
        }
    }
}

/// A document already in the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentInfo {
    /// Store id.
    pub id: i64,
    /// The path it was first ingested from.
    pub path: String,
    /// When (RFC 3339, UTC).
    pub ingested_at: String,
    /// Its caption occurrences.
    pub occurrences: i64,
    /// Its SHA-256; `None` for a document ingested before schema 3 and not
    /// ingested again since (see [`Archive::begin_document`]).
    pub sha256: Option<String>,
}

/// Counts of what an archive holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Documents.
    pub documents: i64,
    /// Caption occurrences.
    pub occurrences: i64,
    /// Records (photos, clusters).
    pub records: i64,
    /// Distinct caption texts.
    pub variants: i64,
}

/// Prepared statements a handle keeps (see [`Archive::assemble`]).
const STATEMENT_CACHE: usize = 64;

/// An open archive.
pub struct Archive {
    dir: PathBuf,
    conn: Connection,
    index: Index,
    fields: index::Fields,
    reader: IndexReader,
    writer: Option<IndexWriter>,
    notices: Vec<String>,
    /// The near-duplicate candidates, loaded when the session adds its
    /// first document.
    candidates: Option<candidates::Candidates>,
    /// Records with a key above this were created after the last index
    /// commit of this session, so are not in the index (no delete needed);
    /// `None` before the first commit.
    indexed_max_key: Option<i64>,
    /// Checkpoints the store's WAL beside a writer (`Mode::Write`).
    _checkpointer: Option<store::Checkpointer>,
    /// Facet values and the watermark of the index generation searched.
    search_cache: std::cell::RefCell<search::SearchCache>,
    /// Whether the index writer, once taken, merges only small segments.
    brief: bool,
    /// The commit opstamp and segments of the index the reader last loaded
    /// in [`Archive::refresh`].
    loaded: std::cell::RefCell<Option<(tantivy::Opstamp, Vec<tantivy::index::SegmentId>)>>,
}

impl Archive {
    /// Opens the archive in `dir`. In [`Mode::Write`] a missing or empty
    /// directory becomes a new archive, and the index is caught up with the
    /// store; a damaged index is rebuilt from the store in either mode (see
    /// [`Archive::take_notices`]).
    pub fn open(dir: &Path, mode: Mode) -> Result<Archive, Error> {
        Archive::open_writing(dir, mode, false)
    }

    /// Brings the index of the archive in `dir` up to its store, then
    /// closes the writer again: for a process that otherwise only reads (a
    /// server indexing a reviewer's correction), so another process (an
    /// ingest) can take the writer between two calls. Each call commits a
    /// segment; it is merged only with other small ones, and that merge is
    /// finished before returning, so frequent calls neither pile up
    /// one-record segments (every search pays per segment) nor leave a
    /// merge of the large segments running after the writer is gone (its
    /// work lost). [`Error::Busy`] while another process holds the writer.
    pub fn catch_up_index(dir: &Path) -> Result<(), Error> {
        let mut archive = Archive::open_writing(dir, Mode::Write, true)?;
        if let Some(writer) = archive.writer.take() {
            writer
                .wait_merging_threads()
                .map_err(|e| Error::index("merging the index", e))?;
        }
        Ok(())
    }

    /// [`Archive::open`]; `brief`: the writer merges only small segments.
    fn open_writing(dir: &Path, mode: Mode, brief: bool) -> Result<Archive, Error> {
        let store_path = dir.join(STORE_FILE);
        let exists = store_path.is_file();
        if !exists {
            match mode {
                Mode::Read => return Err(Error::NoArchive(dir.to_path_buf())),
                Mode::Write => {
                    if dir.exists() {
                        let mut entries = std::fs::read_dir(dir)
                            .map_err(|e| Error::io(format!("reading {}", dir.display()), e))?
                            .filter(|entry| !entry.as_ref().is_ok_and(is_debris));
                        if !dir.is_dir() || entries.next().is_some() {
                            return Err(Error::not_an_archive(
                                dir,
                                format!("it exists and has no {STORE_FILE}"),
                            ));
                        }
                    }
                    std::fs::create_dir_all(dir)
                        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
                }
            }
        }
        if mode == Mode::Write {
            check_writable(dir)?;
        }
        // A reader on a read-only directory: SQLite cannot create the WAL
        // index beside the store, tantivy cannot take its reader lock. When
        // no WAL is left over the store file holds everything: it is read
        // as immutable, the index without locks (nobody can write there).
        let mut read_only = false;
        let conn = match store::open(&store_path, mode == Mode::Write) {
            Ok(conn) => conn,
            Err(e) if mode == Mode::Read && cannot_open(&e) && !wal_of(&store_path).exists() => {
                read_only = true;
                open_store_immutable(&store_path).map_err(|_| e)?
            }
            Err(e) => return Err(e),
        };
        let (schema, fields) = index::schema();
        let mut notices = Vec::new();
        let index_dir = dir.join(INDEX_DIR);
        let mut opened = open_index(&index_dir, &schema, read_only);
        if mode == Mode::Read && !read_only && matches!(opened, Err(IndexTrouble::Lock(_))) {
            read_only = true;
            opened = open_index(&index_dir, &schema, true);
        }
        if read_only {
            return match opened {
                Ok(index) => Archive::read_only(dir, conn, index, fields),
                Err(why) => Err(Error::ReadOnly {
                    path: dir.to_path_buf(),
                    source: std::io::Error::new(
                        std::io::ErrorKind::ReadOnlyFilesystem,
                        format!(
                            "its index must be rebuilt ({why}); run `dateline reindex` where it can be written"
                        ),
                    ),
                }),
            };
        }
        let checkpointer = if mode == Mode::Write {
            store::Checkpointer::start(&store_path)
        } else {
            None
        };
        if checkpointer.is_some() {
            conn.pragma_update(None, "wal_autocheckpoint", store::WRITER_AUTOCHECKPOINT)
                .map_err(|e| Error::sqlite("configuring the store", e))?;
        }
        let index = match opened {
            Ok(index) => index,
            Err(why) => {
                if index_dir.exists() {
                    notices.push(format!(
                        "the index was damaged ({why}); rebuilding it from the store"
                    ));
                    std::fs::remove_dir_all(&index_dir).map_err(|e| {
                        Error::io(
                            format!("removing the damaged index {}", index_dir.display()),
                            e,
                        )
                    })?;
                }
                std::fs::create_dir_all(&index_dir)
                    .map_err(|e| Error::io(format!("creating {}", index_dir.display()), e))?;
                let index = Index::create_in_dir(&index_dir, schema)
                    .map_err(|e| Error::index("creating the index", e))?;
                index::register_tokenizers(&index);
                index
            }
        };
        let mut archive = Archive::assemble(dir, conn, index, fields, checkpointer)?;
        archive.notices = notices;
        archive.brief = brief;
        let behind = archive.index_watermark()? < archive.store_seq()?;
        if mode == Mode::Write || (behind && archive.index_is_empty()) {
            // A reader rebuilds only an index it found missing or damaged; a
            // lagging one is left to the writer that is (or was) running.
            archive.take_writer()?;
            archive.sync_index()?;
            if mode == Mode::Read {
                archive.writer = None;
            }
        }
        Ok(archive)
    }

    /// The archive around an open store and index, with an index reader and
    /// nothing loaded yet.
    fn assemble(
        dir: &Path,
        conn: Connection,
        index: Index,
        fields: index::Fields,
        checkpointer: Option<store::Checkpointer>,
    ) -> Result<Archive, Error> {
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| Error::index("opening the index", e))?;
        // The read path (a served search page, a record page) uses a score
        // of cached statements; SQLite's default of 16 would evict them.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        Ok(Archive {
            dir: dir.to_path_buf(),
            conn,
            index,
            fields,
            reader,
            writer: None,
            notices: Vec::new(),
            candidates: None,
            indexed_max_key: None,
            _checkpointer: checkpointer,
            search_cache: Default::default(),
            brief: false,
            loaded: Default::default(),
        })
    }

    /// An archive opened for reading where nothing can be written: an index
    /// behind the store is searched as it is (the results say how far
    /// behind), an empty one cannot be rebuilt here.
    fn read_only(
        dir: &Path,
        conn: Connection,
        index: Index,
        fields: index::Fields,
    ) -> Result<Archive, Error> {
        let archive = Archive::assemble(dir, conn, index, fields, None)?;
        if archive.index_is_empty() && archive.index_watermark()? < archive.store_seq()? {
            return Err(Error::ReadOnly {
                path: dir.to_path_buf(),
                source: std::io::Error::new(
                    std::io::ErrorKind::ReadOnlyFilesystem,
                    "its index is empty and must be built from the store; run `dateline reindex` where it can be written",
                ),
            });
        }
        Ok(archive)
    }

    /// The archive directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Messages for the user gathered while opening (a rebuilt index).
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    fn take_writer(&mut self) -> Result<(), Error> {
        if self.writer.is_none() {
            let writer = self
                .index
                .writer_with_num_threads(1, INDEX_WRITER_BYTES)
                .map_err(|e| Error::index("opening the index writer", e))?;
            if self.brief {
                let mut policy = tantivy::merge_policy::LogMergePolicy::default();
                policy.set_max_docs_before_merge(BRIEF_MERGE_MAX_DOCS);
                writer.set_merge_policy(Box::new(policy));
            }
            self.writer = Some(writer);
        }
        Ok(())
    }

    fn index_is_empty(&self) -> bool {
        self.index
            .searchable_segment_metas()
            .map(|m| m.is_empty())
            .unwrap_or(true)
    }

    /// The store's last change number.
    fn store_seq(&self) -> Result<i64, Error> {
        store::get_meta_i64(&self.conn, "seq")
    }

    /// The change number the committed index reflects.
    fn index_watermark(&self) -> Result<i64, Error> {
        index::watermark(&self.index).map_err(|e| Error::index("reading the index watermark", e))
    }

    /// Indexes every record changed since the index watermark and commits;
    /// returns how many. Needs [`Mode::Write`].
    pub fn sync_index(&mut self) -> Result<usize, Error> {
        let from = self.index_watermark()?;
        let to = self.store_seq()?;
        if from >= to {
            return Ok(0);
        }
        self.take_writer()?;
        let Some(writer) = self.writer.as_mut() else {
            return Ok(0);
        };
        let max_key: i64 = self
            .conn
            .query_row("SELECT coalesce(max(key), 0) FROM records", [], |r| {
                r.get(0)
            })
            .map_err(|e| Error::sqlite("reading records to index", e))?;
        let mut stmt = self
            .conn
            .prepare("SELECT key, seq, json, id FROM records WHERE seq > ?1 AND seq <= ?2")
            .map_err(|e| Error::sqlite("reading records to index", e))?;
        let mut rows = stmt
            .query([from, to])
            .map_err(|e| Error::sqlite("reading records to index", e))?;
        // A record created since the last commit is not in the index: a
        // delete term for it would cost a look-up in every segment at the
        // commit for nothing. An empty index (watermark 0) holds none.
        let indexed_max_key = self.indexed_max_key;
        let needs_delete = |key: i64| from > 0 && indexed_max_key.is_none_or(|max| key <= max);
        // Searches see the reviewer's values: the index is built from the
        // corrected records (a correction changes the record's change
        // number, so it is indexed again here).
        let corrections = review::all_current_values(&self.conn)?;
        let fields = &self.fields;
        let shared = &*writer;
        // This thread reads the rows; helpers parse the JSON and build the
        // documents (most of the work), a record always by the same helper
        // so its delete and add stay in order.
        let count = std::thread::scope(|scope| -> Result<usize, Error> {
            let mut senders = Vec::new();
            let mut helpers = Vec::new();
            for _ in 0..SYNC_HELPERS {
                let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<ToIndex>>(4);
                senders.push(tx);
                helpers.push(scope.spawn(move || -> Result<(), Error> {
                    for batch in rx {
                        for (key, seq, json, corrected) in batch {
                            let mut record: serde_json::Value = serde_json::from_str(&json)
                                .map_err(|_| Error::BadRecord(key.to_string()))?;
                            if let Some(values) = corrected {
                                review::corrected_for_index(&mut record, values);
                            }
                            if needs_delete(key) {
                                shared.delete_term(index::key_term(fields, key as u64));
                            }
                            shared
                                .add_document(index::document(
                                    fields, key as u64, seq as u64, &record,
                                ))
                                .map_err(|e| Error::index("indexing a record", e))?;
                        }
                    }
                    Ok(())
                }));
            }
            let mut batches: Vec<Vec<ToIndex>> = (0..SYNC_HELPERS).map(|_| Vec::new()).collect();
            let mut count = 0;
            let mut read = || -> Result<(), Error> {
                while let Some(row) = rows
                    .next()
                    .map_err(|e| Error::sqlite("reading records to index", e))?
                {
                    let get = |e| Error::sqlite("reading records", e);
                    let key: i64 = row.get(0).map_err(get)?;
                    let seq: i64 = row.get(1).map_err(get)?;
                    let json: String = row.get(2).map_err(get)?;
                    let id = row.get_ref(3).map_err(get)?;
                    let corrected = match id.as_str() {
                        Ok(id) => corrections.get(id).map(Vec::as_slice),
                        Err(e) => return Err(get(e.into())),
                    };
                    let helper = key.rem_euclid(SYNC_HELPERS as i64) as usize;
                    batches[helper].push((key, seq, json, corrected));
                    if batches[helper].len() == 256 {
                        let batch = std::mem::take(&mut batches[helper]);
                        if senders[helper].send(batch).is_err() {
                            // The helper stopped on an error: it says which.
                            return Ok(());
                        }
                    }
                    count += 1;
                }
                for (batch, sender) in batches.drain(..).zip(&senders) {
                    let _ = sender.send(batch);
                }
                Ok(())
            };
            let read = read();
            drop(senders);
            for helper in helpers {
                helper
                    .join()
                    .unwrap_or_else(|_| Err(Error::BadRecord("(indexing panicked)".into())))?;
            }
            read.map(|()| count)
        })?;
        let mut prepared = writer
            .prepare_commit()
            .map_err(|e| Error::index("committing the index", e))?;
        prepared.set_payload(&to.to_string());
        prepared
            .commit()
            .map_err(|e| Error::index("committing the index", e))?;
        store::set_meta(&self.conn, "indexed_seq", &to.to_string())?;
        self.indexed_max_key = Some(max_key);
        self.reader
            .reload()
            .map_err(|e| Error::index("reloading the index", e))?;
        Ok(count)
    }

    /// Throws the index away and builds it again from the store; returns
    /// how many records it holds. Needs [`Mode::Write`].
    pub fn reindex(&mut self) -> Result<usize, Error> {
        self.take_writer()?;
        let Some(writer) = self.writer.as_mut() else {
            return Ok(0);
        };
        writer
            .delete_all_documents()
            .map_err(|e| Error::index("clearing the index", e))?;
        let mut prepared = writer
            .prepare_commit()
            .map_err(|e| Error::index("clearing the index", e))?;
        prepared.set_payload("0");
        prepared
            .commit()
            .map_err(|e| Error::index("clearing the index", e))?;
        let count = self.sync_index()?;
        self.merge_index()?;
        Ok(count)
    }

    /// Merges the index into one segment (a search pays a little per
    /// segment: term look-ups, column openings) and drops the files no
    /// longer used; returns how many segments there were. Best effort: a
    /// merge the background merges already hold is skipped. Needs
    /// [`Mode::Write`].
    pub fn merge_index(&mut self) -> Result<usize, Error> {
        let Some(writer) = self.writer.as_mut() else {
            return Ok(0);
        };
        let segments = self
            .index
            .searchable_segment_ids()
            .map_err(|e| Error::index("listing the index segments", e))?;
        if segments.len() > 1 {
            let _ = writer.merge(&segments).wait();
        }
        let _ = writer.garbage_collect_files().wait();
        self.reader
            .reload()
            .map_err(|e| Error::index("reloading the index", e))?;
        Ok(segments.len())
    }

    /// Makes searches see the last committed index (another process may
    /// have ingested since this one opened it). Cheap when nothing changed:
    /// a reload opens every segment again (and takes the index's meta lock,
    /// so handles reloading at once wait for each other), so it is done
    /// only when the committed index differs from the one last loaded.
    pub fn refresh(&self) -> Result<(), Error> {
        let failed = |e| Error::index("reloading the index", e);
        let meta = self.index.load_metas().map_err(failed)?;
        // A commit renews the opstamp; a merge changes the segments alone.
        let committed = (
            meta.opstamp,
            meta.segments.iter().map(|s| s.id()).collect::<Vec<_>>(),
        );
        if self.loaded.borrow().as_ref() == Some(&committed) {
            return Ok(());
        }
        self.reader.reload().map_err(failed)?;
        // The reload may have read a later commit than `meta`: the next
        // refresh then reloads once more, which is only wasted work.
        *self.loaded.borrow_mut() = Some(committed);
        Ok(())
    }

    /// What the archive holds.
    pub fn stats(&self) -> Result<Stats, Error> {
        let count = |table: &str| -> Result<i64, Error> {
            self.conn
                .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
                .map_err(|e| Error::sqlite("counting", e))
        };
        Ok(Stats {
            documents: count("documents")?,
            occurrences: count("occurrences")?,
            records: count("records")?,
            variants: count("variants")?,
        })
    }

    /// The document with this content hash, when already ingested.
    pub fn document_by_hash(&self, hash: &str) -> Result<Option<DocumentInfo>, Error> {
        use rusqlite::OptionalExtension;
        self.conn
            .query_row(
                "SELECT id, path, ingested_at, occurrences, sha256 FROM documents
                 WHERE content_hash = ?1",
                [hash],
                |r| {
                    Ok(DocumentInfo {
                        id: r.get(0)?,
                        path: r.get(1)?,
                        ingested_at: r.get(2)?,
                        occurrences: r.get(3)?,
                        sha256: r.get(4)?,
                    })
                },
            )
            .optional()
            .map_err(|e| Error::sqlite("looking up a document", e))
    }

    /// Records by public id (or any variant's id), with their occurrences and
    /// variants, as JSON: `{id, record, variants: [{id, text, record}],
    /// occurrences: [{document, path, position, offset, length, text,
    /// variant, image_url, sha256}]}` (`sha256`: the document's, null for
    /// one ingested before schema 3). `None` when no record has that id.
    pub fn record_details(&self, id: &str) -> Result<Option<serde_json::Value>, Error> {
        ingest::record_details(&self.conn, id)
    }

    /// Records (the representative's JSON, with the public `id` and the
    /// archive's counts added) by store key, in the order given.
    pub fn records_by_key(&self, keys: &[u64]) -> Result<Vec<serde_json::Value>, Error> {
        search::records_by_key(&self.conn, keys)
    }

    /// Every record key in store order (for exporting everything).
    pub fn all_keys(&self) -> Result<Vec<u64>, Error> {
        let mut stmt = self
            .conn
            .prepare("SELECT key FROM records ORDER BY key")
            .map_err(|e| Error::sqlite("listing records", e))?;
        let keys = stmt
            .query_map([], |r| r.get::<_, i64>(0))
            .map_err(|e| Error::sqlite("listing records", e))?
            .map(|k| k.map(|k| k as u64))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Error::sqlite("listing records", e))?;
        Ok(keys)
    }
}

/// A record for `sync_index`'s helpers: store key, change number, JSON,
/// and the reviewer's values over it.
type ToIndex<'a> = (i64, i64, String, Option<&'a [(String, serde_json::Value)]>);

/// The name prefix of [`check_writable`]'s probe file.
const WRITE_PROBE_PREFIX: &str = ".write-probe-";

/// A file an opening process killed midway leaves in a new archive's
/// directory: a write probe or a store being created. The directory still
/// counts as empty, so a rerun creates the archive.
fn is_debris(entry: &std::fs::DirEntry) -> bool {
    let name = entry.file_name();
    let name = name.to_string_lossy();
    name.starts_with(WRITE_PROBE_PREFIX) || name.starts_with(store::CREATING_PREFIX)
}

/// Fails with [`Error::ReadOnly`] unless a file can be created in `dir`:
/// SQLite and tantivy would otherwise fail later with messages that do not
/// name the cause ("unable to open database file").
fn check_writable(dir: &Path) -> Result<(), Error> {
    let probe = dir.join(format!("{WRITE_PROBE_PREFIX}{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(source) => Err(Error::ReadOnly {
            path: dir.to_path_buf(),
            source,
        }),
    }
}

/// Why an index could not be opened.
#[derive(Debug)]
enum IndexTrouble {
    /// Missing, damaged or of another schema: rebuilt from the store.
    Damaged(String),
    /// Its reader lock could not be taken (a read-only directory).
    Lock(String),
}

impl std::fmt::Display for IndexTrouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexTrouble::Damaged(why) => f.write_str(why),
            IndexTrouble::Lock(why) => write!(f, "its lock cannot be taken: {why}"),
        }
    }
}

/// Opens an existing index, checking it has this library's schema;
/// `read_only`: without taking locks (see [`ReadOnlyDirectory`]).
fn open_index(
    dir: &Path,
    schema: &tantivy::schema::Schema,
    read_only: bool,
) -> Result<Index, IndexTrouble> {
    let damaged = |e: tantivy::TantivyError| match e {
        tantivy::TantivyError::LockFailure(..) => IndexTrouble::Lock(e.to_string()),
        e => IndexTrouble::Damaged(e.to_string()),
    };
    if !dir.join("meta.json").is_file() {
        return Err(IndexTrouble::Damaged("no index".to_string()));
    }
    let index = if read_only {
        let directory = tantivy::directory::MmapDirectory::open(dir)
            .map_err(|e| IndexTrouble::Damaged(e.to_string()))?;
        Index::open(ReadOnlyDirectory(directory)).map_err(damaged)?
    } else {
        Index::open_in_dir(dir).map_err(damaged)?
    };
    if index.schema() != *schema {
        return Err(IndexTrouble::Damaged(
            "its schema is not this version's".to_string(),
        ));
    }
    index::register_tokenizers(&index);
    // Opening a reader reads every segment's files: damage shows here.
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()
        .map_err(damaged)?;
    let searcher = reader.searcher();
    for segment in searcher.segment_readers() {
        segment
            .get_store_reader(0)
            .map_err(|e| IndexTrouble::Damaged(e.to_string()))?;
    }
    Ok(index)
}

/// An index directory nothing can be written to: every lock is granted
/// without a lock file (no writer can run there, so no file goes away
/// while a reader opens it); writes fail as the file system makes them.
#[derive(Debug, Clone)]
struct ReadOnlyDirectory(tantivy::directory::MmapDirectory);

impl tantivy::Directory for ReadOnlyDirectory {
    fn get_file_handle(
        &self,
        path: &Path,
    ) -> Result<
        std::sync::Arc<dyn tantivy::directory::FileHandle>,
        tantivy::directory::error::OpenReadError,
    > {
        self.0.get_file_handle(path)
    }

    fn delete(&self, path: &Path) -> Result<(), tantivy::directory::error::DeleteError> {
        self.0.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, tantivy::directory::error::OpenReadError> {
        self.0.exists(path)
    }

    fn open_write(
        &self,
        path: &Path,
    ) -> Result<tantivy::directory::WritePtr, tantivy::directory::error::OpenWriteError> {
        self.0.open_write(path)
    }

    fn atomic_read(
        &self,
        path: &Path,
    ) -> Result<Vec<u8>, tantivy::directory::error::OpenReadError> {
        self.0.atomic_read(path)
    }

    fn atomic_write(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        self.0.atomic_write(path, data)
    }

    fn sync_directory(&self) -> std::io::Result<()> {
        self.0.sync_directory()
    }

    fn acquire_lock(
        &self,
        _lock: &tantivy::directory::Lock,
    ) -> Result<tantivy::directory::DirectoryLock, tantivy::directory::error::LockError> {
        Ok(tantivy::directory::DirectoryLock::from(Box::new(())))
    }

    fn watch(
        &self,
        watch_callback: tantivy::directory::WatchCallback,
    ) -> tantivy::Result<tantivy::directory::WatchHandle> {
        self.0.watch(watch_callback)
    }
}

/// Whether a store error is SQLite failing to open a file (a read-only
/// directory where the WAL index cannot be created says so).
fn cannot_open(e: &Error) -> bool {
    matches!(
        e,
        Error::Sqlite {
            source: rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error {
                    code: rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly,
                    ..
                },
                _
            ),
            ..
        }
    )
}

/// The WAL file beside a store.
fn wal_of(store: &Path) -> PathBuf {
    let mut name = store.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// Opens a store that nobody can be writing (a read-only directory with no
/// WAL left over) as immutable: no locks, no WAL index.
fn open_store_immutable(path: &Path) -> Result<Connection, Error> {
    let mut uri = String::from("file:");
    for c in path.to_string_lossy().chars() {
        match c {
            '?' | '#' | '%' => uri.push_str(&format!("%{:02X}", c as u32)),
            c => uri.push(c),
        }
    }
    uri.push_str("?immutable=1");
    let conn = Connection::open_with_flags(
        &uri,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
            | rusqlite::OpenFlags::SQLITE_OPEN_URI
            | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| Error::sqlite("opening the store read-only", e))?;
    if store::get_meta(&conn, "format")?.as_deref() != Some(store::FORMAT) {
        return Err(Error::not_an_archive(path, "not a dateline archive".into()));
    }
    let version = store::get_meta_i64(&conn, "schema_version")?;
    if version == 2 {
        // Migrating writes the store, which cannot be done here.
        return Err(Error::ReadOnly {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::ReadOnlyFilesystem,
                "its store has schema version 2 and must be migrated to version 3; \
                 open it once where it can be written (any dateline command does it)",
            ),
        });
    }
    if version != store::SCHEMA_VERSION {
        return Err(Error::SchemaVersion {
            found: version,
            supported: store::SCHEMA_VERSION,
        });
    }
    Ok(conn)
}
