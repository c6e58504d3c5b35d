//! `check`: is the store sound, and does the index agree with it?

use std::collections::HashMap;

use crate::{store, Archive, Error};

/// What a check found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Disagreements and damage: the archive is not sound when any.
    pub problems: Vec<String>,
    /// Things worth knowing that are not damage (an index that lags).
    pub notes: Vec<String>,
    /// Records in the store.
    pub records: u64,
    /// Documents in the index.
    pub indexed: u64,
}

impl CheckReport {
    /// No problem found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Problems listed one by one, at most this many of each kind.
const MAX_LISTED: usize = 10;

impl Archive {
    /// Verifies the archive: SQLite's integrity check, the store's own
    /// invariants (every document whole, every reference resolving), and the
    /// index against the store (every record indexed at its change number
    /// up to the watermark, nothing else indexed). Changes past the
    /// watermark are a note, not a problem: the next writer indexes them.
    pub fn check(&self) -> Result<CheckReport, Error> {
        let mut report = CheckReport::default();
        let conn = &self.conn;
        let sql = |what: &'static str| move |e| Error::sqlite(what, e);
        // A store file damaged beyond SQLite's reading shows as an error here,
        // and is reported as such rather than as a failed command.
        let integrity: Result<Vec<String>, rusqlite::Error> =
            conn.prepare("PRAGMA integrity_check").and_then(|mut s| {
                s.query_map([], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()
            });
        match integrity {
            Ok(lines) if lines == ["ok"] => {}
            Ok(lines) => report.problems.extend(
                lines
                    .into_iter()
                    .take(MAX_LISTED)
                    .map(|l| format!("store integrity: {l}")),
            ),
            Err(e) => report
                .problems
                .push(format!("store integrity check failed: {e}")),
        }
        let queries: &[(&str, &str)] = &[
            (
                "documents whose stored occurrences differ from their count",
                "SELECT d.path FROM documents d
                 WHERE d.occurrences != (SELECT count(*) FROM occurrences o WHERE o.document = d.id)",
            ),
            (
                "occurrences pointing to a missing record or variant",
                "SELECT o.document || ':' || o.position FROM occurrences o
                 WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.key = o.record)
                    OR NOT EXISTS (SELECT 1 FROM variants v WHERE v.id = o.variant AND v.record = o.record)",
            ),
            (
                "variants of a missing record",
                "SELECT v.id FROM variants v
                 WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.key = v.record)",
            ),
            (
                "records whose representative variant is missing or not theirs",
                "SELECT r.id FROM records r
                 WHERE NOT EXISTS (SELECT 1 FROM variants v WHERE v.id = r.variant AND v.record = r.key)",
            ),
            (
                "variants whose record JSON is missing or stored twice",
                "SELECT v.id FROM variants v JOIN records r ON r.key = v.record
                 WHERE (v.json IS NULL) != (v.id = r.variant)",
            ),
            (
                "records with no occurrence",
                "SELECT r.id FROM records r
                 WHERE NOT EXISTS (SELECT 1 FROM occurrences o WHERE o.record = r.key)",
            ),
            (
                "documents whose SHA-256 is not 64 lower-case hex digits",
                "SELECT path FROM documents
                 WHERE sha256 IS NOT NULL AND (length(sha256) != 64 OR sha256 GLOB '*[^0-9a-f]*')",
            ),
            (
                "documents ingested since schema 3 without a SHA-256",
                "SELECT path FROM documents WHERE sha256 IS NULL
                 AND id >= (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'sha256_from')",
            ),
            (
                "records changed after the store's last change number",
                "SELECT r.id FROM records r
                 WHERE r.seq > (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'seq')",
            ),
        ];
        for (what, query) in queries {
            let found: Result<Vec<String>, _> = conn.prepare(query).and_then(|mut s| {
                s.query_map([], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()
            });
            match found {
                Ok(found) if found.is_empty() => {}
                Ok(found) => report.problems.push(format!(
                    "{what}: {} ({}{})",
                    found.len(),
                    found
                        .iter()
                        .take(MAX_LISTED)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", "),
                    if found.len() > MAX_LISTED {
                        ", …"
                    } else {
                        ""
                    }
                )),
                Err(e) => report.problems.push(format!("{what}: cannot tell ({e})")),
            }
        }

        let unhashed: i64 = conn
            .query_row(
                "SELECT count(*) FROM documents WHERE sha256 IS NULL",
                [],
                |r| r.get(0),
            )
            .map_err(sql("counting documents without a SHA-256"))?;
        if unhashed > 0 {
            report.notes.push(format!(
                "{unhashed} document(s) ingested before schema 3 have no SHA-256; \
                 ingesting their files again records it"
            ));
        }

        // The store's view: key → change number.
        let mut store_seq: HashMap<u64, u64> = HashMap::new();
        {
            let mut stmt = conn
                .prepare("SELECT key, seq FROM records")
                .map_err(sql("reading records"))?;
            let rows = stmt
                .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
                .map_err(sql("reading records"))?;
            for row in rows {
                let (key, seq) = row.map_err(sql("reading records"))?;
                store_seq.insert(key as u64, seq as u64);
            }
        }
        report.records = store_seq.len() as u64;

        // The index's view.
        let watermark = self.index_watermark()?;
        let stored_watermark = store::get_meta_i64(conn, "indexed_seq")?;
        let last_change = self.store_seq()?;
        if watermark > last_change {
            report.problems.push(format!(
                "the index claims store changes up to {watermark}, the store has only {last_change}"
            ));
        }
        if stored_watermark > watermark {
            report.problems.push(format!(
                "the store says the index holds changes up to {stored_watermark}, the index only {watermark}"
            ));
        }
        let searcher = self.reader.searcher();
        let mut indexed: HashMap<u64, u64> = HashMap::new();
        let mut duplicated = Vec::new();
        for segment in searcher.segment_readers() {
            let read = |name: &str| {
                segment
                    .fast_fields()
                    .u64(name)
                    .map(|c| c.first_or_default_col(u64::MAX))
                    .map_err(|e| Error::index("reading the index", e))
            };
            let (keys, seqs) = (read("key")?, read("seq")?);
            for doc in segment.doc_ids_alive() {
                let key = keys.get_val(doc);
                if indexed.insert(key, seqs.get_val(doc)).is_some() {
                    duplicated.push(key);
                }
            }
        }
        report.indexed = indexed.len() as u64 + duplicated.len() as u64;
        let mut missing = Vec::new();
        let mut stale = Vec::new();
        let mut pending = 0u64;
        for (&key, &seq) in &store_seq {
            if seq as i64 > watermark {
                pending += 1;
                continue;
            }
            match indexed.get(&key) {
                None => missing.push(key),
                Some(&s) if s != seq => stale.push(key),
                Some(_) => {}
            }
        }
        let extra: Vec<u64> = indexed
            .keys()
            .filter(|k| !store_seq.contains_key(k))
            .copied()
            .collect();
        for (what, keys) in [
            ("records missing from the index", missing),
            ("records indexed in an older version", stale),
            ("index entries for no record in the store", extra),
            ("records indexed twice", duplicated),
        ] {
            if !keys.is_empty() {
                let mut keys = keys;
                keys.sort_unstable();
                report.problems.push(format!(
                    "{what}: {} (store keys {})",
                    keys.len(),
                    keys.iter()
                        .take(MAX_LISTED)
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        if pending > 0 {
            report.notes.push(format!(
                "{pending} record(s) changed since the index was last committed; \
                 the next ingest or `dateline reindex` indexes them"
            ));
        }
        if !report.problems.is_empty() {
            report
                .notes
                .push("`dateline reindex` rebuilds the index from the store".to_string());
        }
        Ok(report)
    }
}
