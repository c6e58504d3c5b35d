//! Re-extraction: the current engine run again over every stored caption,
//! so an archive gains what the parser learned since its documents were
//! ingested without anyone finding the sources again.
//!
//! Each variant's stored text is parsed anew (the caller supplies the
//! engine, with the stored record so fields an input stated, such as a
//! JPEG's IPTC, are applied again). Identity stays: the variant and record
//! ids, the clusters and the occurrences are kept, so the review log, keyed
//! by record id, stays on top of the new machine values. One store
//! transaction: a killed reparse leaves the archive as it was.

use std::collections::BTreeMap;

use caption::CaptionRecord;
use rusqlite::params;
use serde_json::Value;

use crate::candidates::encode_keys;
use crate::dedup::Features;
use crate::review::at_path;
use crate::{ingest, store, Archive, Error, CORRECTABLE};

/// Record paths compared besides [`CORRECTABLE`]: the evidence and the
/// parts no reviewer edits.
const ALSO_COMPARED: &[&str] = &["dates", "credit.span", "location.span", "conflicts"];

/// What a reparse changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReparseReport {
    /// Caption texts parsed again.
    pub variants: u64,
    /// Of those, the ones whose record changed in any way.
    pub variants_changed: u64,
    /// Records (clusters) whose representative changed.
    pub records_changed: u64,
    /// Per field path, the variants whose value changed.
    pub fields: BTreeMap<String, u64>,
    /// Records with corrections, which stay on top of the new values.
    pub corrected_records: u64,
    /// Of their corrected fields, those whose machine value under the
    /// correction changed.
    pub corrections_over_changed_values: u64,
    /// Variants whose text the engine now reads differently (another
    /// normal form): kept as they were, since occurrences refer to the
    /// stored text.
    pub kept_text_changed: u64,
}

impl Archive {
    /// Parses every stored caption again with `engine(text, stored)` and
    /// writes the new records where they differ, then brings the index up
    /// to date. Needs [`crate::Mode::Write`].
    pub fn reparse(
        &mut self,
        engine: impl Fn(&str, &CaptionRecord) -> CaptionRecord,
    ) -> Result<ReparseReport, Error> {
        let sql = |what: &'static str| move |e| Error::sqlite(what, e);
        let mut report = ReparseReport::default();
        let corrected = corrected_fields(&self.conn)?;
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(sql("starting a reparse"))?;
        let seq = store::get_meta_i64(&tx, "seq")? + 1;
        let mut changed_keys = Vec::new();
        {
            let mut rows = tx
                .prepare(
                    "SELECT v.id, v.record, v.text, coalesce(v.json, r.json), v.id = r.variant, r.id
                     FROM variants v JOIN records r ON r.key = v.record ORDER BY v.record, v.id",
                )
                .map_err(sql("reading variants"))?;
            let mut rows = rows.query([]).map_err(sql("reading variants"))?;
            let mut update_variant = tx
                .prepare_cached("UPDATE variants SET json = ?1, lsh = ?2 WHERE id = ?3")
                .map_err(sql("updating a variant"))?;
            let mut update_lsh = tx
                .prepare_cached("UPDATE variants SET lsh = ?1 WHERE id = ?2")
                .map_err(sql("updating a variant"))?;
            let mut touch = tx
                .prepare_cached("UPDATE records SET seq = ?1 WHERE key = ?2")
                .map_err(sql("updating a record"))?;
            while let Some(row) = rows.next().map_err(sql("reading variants"))? {
                let get = |i| row.get::<_, String>(i).map_err(sql("reading variants"));
                let (id, text, json, public_id) = (get(0)?, get(2)?, get(3)?, get(5)?);
                let key: i64 = row.get(1).map_err(sql("reading variants"))?;
                let representative: bool = row.get(4).map_err(sql("reading variants"))?;
                report.variants += 1;
                let old: CaptionRecord =
                    serde_json::from_str(&json).map_err(|_| Error::BadRecord(id.clone()))?;
                let mut new = engine(&text, &old);
                if new.text != old.text {
                    report.kept_text_changed += 1;
                    continue;
                }
                new.id.clone_from(&old.id);
                let mut new_json = Vec::with_capacity(json.len() + 256);
                new.write_json(&mut new_json);
                let new_json = String::from_utf8_lossy(&new_json).into_owned();
                let (old_value, new_value) = (parse(&json, &id)?, parse(&new_json, &id)?);
                if old_value == new_value {
                    continue;
                }
                report.variants_changed += 1;
                for path in CORRECTABLE.iter().chain(ALSO_COMPARED) {
                    if at_path(&old_value, path) != at_path(&new_value, path) {
                        *report.fields.entry((*path).to_string()).or_default() += 1;
                        if representative
                            && corrected
                                .get(&public_id)
                                .is_some_and(|fields| fields.iter().any(|f| f == path))
                        {
                            report.corrections_over_changed_values += 1;
                        }
                    }
                }
                let keys = encode_keys(&Features::of_caption(&new).lsh_keys());
                if representative {
                    ingest::update_record_row(&tx, key, &new, &new_json, seq)?;
                    update_lsh
                        .execute(params![keys, id])
                        .map_err(sql("updating a variant"))?;
                    report.records_changed += 1;
                } else {
                    update_variant
                        .execute(params![new_json, keys, id])
                        .map_err(sql("updating a variant"))?;
                    // The record's archive view (its variants) changed.
                    touch
                        .execute(params![seq, key])
                        .map_err(sql("updating a record"))?;
                }
                changed_keys.push(key);
            }
        }
        report.corrected_records = corrected.len() as u64;
        if !changed_keys.is_empty() {
            store::set_meta(&tx, "seq", &seq.to_string())?;
        }
        tx.commit().map_err(sql("committing a reparse"))?;
        // The dedup keys changed: the next ingest reloads them.
        self.candidates = None;
        self.sync_index()?;
        Ok(report)
    }
}

fn parse(json: &str, id: &str) -> Result<Value, Error> {
    serde_json::from_str(json).map_err(|_| Error::BadRecord(id.to_string()))
}

/// Record id → its corrected fields.
fn corrected_fields(conn: &rusqlite::Connection) -> Result<BTreeMap<String, Vec<String>>, Error> {
    let sql = |e| Error::sqlite("reading the review log", e);
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if !crate::review::has_log(conn)? {
        return Ok(out);
    }
    let mut stmt = conn
        .prepare("SELECT DISTINCT record, field FROM review_log WHERE kind = 'correction'")
        .map_err(sql)?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .map_err(sql)?;
    for row in rows {
        let (record, field) = row.map_err(sql)?;
        out.entry(record).or_default().push(field);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
