//! Adding a document: one store transaction holding the document row, its
//! occurrences, new variants and records, and the clustering decisions.

use std::collections::BTreeSet;

use caption::CaptionRecord;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Value};

use crate::candidates::{decode_keys, encode_keys, Candidates};
use crate::dedup::{Features, Fingerprint};
use crate::{store, Archive, Error};

/// One caption as found in a document: the seam between input readers
/// (text now; pages and JPEGs later) and the archive.
#[derive(Debug, Clone)]
pub struct NewOccurrence {
    /// Byte offset of the caption in the document.
    pub offset: u64,
    /// The caption exactly as the document has it.
    pub exact_text: String,
    /// Its parsed record (`record.image_url` names the image, when known).
    pub record: CaptionRecord,
}

/// What adding one document did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IngestSummary {
    /// Occurrences stored.
    pub occurrences: u64,
    /// New records (photos not seen before).
    pub new_records: u64,
    /// Occurrences that joined an existing record as a new variant
    /// (near-duplicate or cut-short copy).
    pub new_variants_merged: u64,
    /// Occurrences whose exact caption text was already known.
    pub repeats: u64,
}

/// An occurrence made ready for [`DocumentWriter::add_prepared`]: its record
/// as JSON, its dedup fingerprint and LSH keys. Preparing costs more than
/// storing, and needs nothing from the archive, so an ingest prepares on its
/// parsing threads and leaves the one writer only look-ups and inserts.
#[derive(Debug, Clone)]
pub struct PreparedOccurrence {
    occurrence: NewOccurrence,
    json: String,
    fingerprint: Fingerprint<u64>,
    keys: Vec<i64>,
}

impl NewOccurrence {
    /// Prepares the occurrence for storing (see [`PreparedOccurrence`]).
    pub fn prepare(self) -> PreparedOccurrence {
        let mut json = Vec::with_capacity(2048);
        self.record.write_json(&mut json);
        let json = String::from_utf8(json).unwrap_or_else(|e| {
            // The writer emits only the record's strings and ASCII; kept
            // total all the same.
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        });
        let features = Features::of_caption(&self.record);
        PreparedOccurrence {
            keys: features.lsh_keys(),
            fingerprint: features.fingerprint(),
            json,
            occurrence: self,
        }
    }
}

/// A document being added; nothing is visible to readers until
/// [`commit`](DocumentWriter::commit), and dropping it without committing
/// leaves the archive as it was.
pub struct DocumentWriter<'a> {
    tx: Transaction<'a>,
    candidates: &'a mut Candidates,
    document: i64,
    position: i64,
    seq: i64,
    /// Records merged into without being rewritten: their change number
    /// is set at the commit.
    touched: BTreeSet<i64>,
    /// A record was written (with this document's change number).
    changed: bool,
    summary: IngestSummary,
}

impl Archive {
    /// Starts adding a document; `None` when a document with this content
    /// hash is already in the archive (ingest is idempotent). A known
    /// document ingested before schema 3 gets its SHA-256 recorded then
    /// (see [`Archive::record_sha256`]): these are its bytes again.
    pub fn begin_document(
        &mut self,
        path: &str,
        size: u64,
        hashes: &crate::DocumentHashes,
    ) -> Result<Option<DocumentWriter<'_>>, Error> {
        let content_hash = hashes.content_hash.as_str();
        if let Some(known) = self.document_by_hash(content_hash)? {
            if known.sha256.is_none() {
                self.record_sha256(known.id, &hashes.sha256)?;
            }
            return Ok(None);
        }
        if self.candidates.as_ref().is_some_and(|c| c.in_document) {
            // The last document was not committed: its variants are in the
            // map but not in the store.
            self.candidates = None;
        }
        if self.candidates.is_none() {
            self.candidates = Some(load_candidates(&self.conn)?);
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| Error::sqlite("starting a document transaction", e))?;
        let inserted = tx.execute(
            "INSERT INTO documents (content_hash, path, size, ingested_at, occurrences, sha256)
             VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 0, ?4)
             ON CONFLICT(content_hash) DO NOTHING",
            params![content_hash, path, size as i64, hashes.sha256],
        );
        let inserted = inserted.map_err(|e| Error::sqlite("adding a document", e))?;
        if inserted == 0 {
            // Another process added it since the look-up.
            return Ok(None);
        }
        let document = tx.last_insert_rowid();
        let seq = store::get_meta_i64(&tx, "seq")? + 1;
        let Some(candidates) = self.candidates.as_mut() else {
            return Ok(None);
        };
        candidates.in_document = true;
        Ok(Some(DocumentWriter {
            tx,
            candidates,
            document,
            position: 0,
            seq,
            touched: BTreeSet::new(),
            changed: false,
            summary: IngestSummary::default(),
        }))
    }
}

/// The candidate map of the records in the store: every variant's keys,
/// and each record's first variants by id (their fingerprints are read
/// when first compared).
fn load_candidates(conn: &Connection) -> Result<Candidates, Error> {
    let mut candidates = Candidates::default();
    let mut stmt = conn
        .prepare("SELECT record, id, lsh FROM variants")
        .map_err(sql("reading dedup keys"))?;
    let mut rows = stmt.query([]).map_err(sql("reading dedup keys"))?;
    while let Some(row) = rows.next().map_err(sql("reading dedup keys"))? {
        let record: i64 = row.get(0).map_err(sql("reading dedup keys"))?;
        let id: String = row.get(1).map_err(sql("reading dedup keys"))?;
        let keys = row
            .get_ref(2)
            .and_then(|v| v.as_blob().map_err(Into::into))
            .map_err(sql("reading dedup keys"))?;
        let keys: Vec<i64> = decode_keys(keys).collect();
        candidates.add_keys(record, &keys);
        candidates.add_variant(record, &id, None);
    }
    Ok(candidates)
}

fn sql(what: &'static str) -> impl Fn(rusqlite::Error) -> Error {
    move |e| Error::sqlite(what, e)
}

impl DocumentWriter<'_> {
    /// Adds one occurrence, clustering its caption with the archive's.
    pub fn add(&mut self, occurrence: NewOccurrence) -> Result<(), Error> {
        self.add_prepared(occurrence.prepare())
    }

    /// Adds one occurrence prepared by [`NewOccurrence::prepare`].
    pub fn add_prepared(&mut self, prepared: PreparedOccurrence) -> Result<(), Error> {
        let record = &prepared.occurrence.record;
        let known: Option<i64> = self
            .tx
            .prepare_cached("SELECT record FROM variants WHERE id = ?1")
            .and_then(|mut s| s.query_row([&record.id], |r| r.get(0)).optional())
            .map_err(sql("looking up a caption"))?;
        let record_key = match known {
            Some(key) => {
                self.summary.repeats += 1;
                key
            }
            None => self.add_variant(&prepared)?,
        };
        let NewOccurrence {
            offset,
            exact_text,
            record,
        } = &prepared.occurrence;
        let stored_text = (*exact_text != record.text).then_some(exact_text.as_str());
        self.tx
            .prepare_cached(
                "INSERT INTO occurrences
                 (document, position, byte_offset, byte_len, exact_text, variant, record, image_url)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    self.document,
                    self.position,
                    *offset as i64,
                    exact_text.len() as i64,
                    stored_text,
                    record.id,
                    record_key,
                    record.image_url,
                ])
            })
            .map_err(sql("adding an occurrence"))?;
        self.position += 1;
        self.summary.occurrences += 1;
        Ok(())
    }

    /// Stores a caption text not seen before: in the cluster of a matching
    /// variant, or as a new record. The record's JSON is stored once: in
    /// `records.json` for the representative, in `variants.json` for the
    /// others.
    fn add_variant(&mut self, prepared: &PreparedOccurrence) -> Result<i64, Error> {
        let record = &prepared.occurrence.record;
        let fingerprint = prepared.fingerprint.intern(&mut self.candidates.interner);
        let cluster = self.find_cluster(&fingerprint, &prepared.keys)?;
        let (record_key, variant_json) = match cluster {
            Some(key) => {
                self.summary.new_variants_merged += 1;
                let (rep_id, rep_text): (String, String) = self
                    .tx
                    .prepare_cached(
                        "SELECT r.variant, v.text FROM records r JOIN variants v ON v.id = r.variant
                         WHERE r.key = ?1",
                    )
                    .and_then(|mut s| s.query_row([key], |r| Ok((r.get(0)?, r.get(1)?))))
                    .map_err(sql("reading a record"))?;
                if better_representative(&record.text, &rep_text) {
                    // The old representative keeps its JSON in its variant row.
                    self.tx
                        .prepare_cached(
                            "UPDATE variants SET json = (SELECT json FROM records WHERE key = ?1)
                             WHERE id = ?2",
                        )
                        .and_then(|mut s| s.execute(params![key, rep_id]))
                        .map_err(sql("updating a variant"))?;
                    self.write_record(Some(key), record, &prepared.json)?;
                    (key, None)
                } else {
                    self.touched.insert(key);
                    (key, Some(prepared.json.as_str()))
                }
            }
            None => {
                self.summary.new_records += 1;
                (self.write_record(None, record, &prepared.json)?, None)
            }
        };
        self.tx
            .prepare_cached(
                "INSERT INTO variants (id, record, text, json, first_document, lsh)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    record.id,
                    record_key,
                    record.text,
                    variant_json,
                    self.document,
                    encode_keys(&prepared.keys),
                ])
            })
            .map_err(sql("adding a variant"))?;
        self.candidates.add_keys(record_key, &prepared.keys);
        self.candidates
            .add_variant(record_key, &record.id, Some(fingerprint));
        Ok(record_key)
    }

    /// The first cluster (lowest key among those sharing most keys) with a
    /// variant that is the same photo.
    fn find_cluster(
        &mut self,
        fingerprint: &Fingerprint<u32>,
        keys: &[i64],
    ) -> Result<Option<i64>, Error> {
        for candidate in self.candidates.ranked(keys) {
            for i in 0..self.candidates.variants_mut(candidate).len() {
                let known = &self.candidates.variants_mut(candidate)[i];
                let other = match &known.fingerprint {
                    Some(f) => f,
                    None => {
                        // Added by an earlier session: read once.
                        let id = known.id.clone();
                        let loaded = self.read_fingerprint(&id)?;
                        let known = &mut self.candidates.variants_mut(candidate)[i];
                        &*known.fingerprint.insert(loaded)
                    }
                };
                if other.same_photo(fingerprint) {
                    return Ok(Some(candidate));
                }
            }
        }
        Ok(None)
    }

    /// The fingerprint of a stored variant, from its JSON.
    fn read_fingerprint(&mut self, id: &str) -> Result<Fingerprint<u32>, Error> {
        let json: String = self
            .tx
            .prepare_cached(
                "SELECT coalesce(v.json, r.json) FROM variants v JOIN records r ON r.key = v.record
                 WHERE v.id = ?1",
            )
            .and_then(|mut s| s.query_row([id], |r| r.get(0)))
            .map_err(sql("reading variants"))?;
        let record: CaptionRecord =
            serde_json::from_str(&json).map_err(|_| Error::BadRecord(id.to_string()))?;
        Ok(Features::of_caption(&record)
            .fingerprint()
            .intern(&mut self.candidates.interner))
    }

    /// Writes a record row (a new one when `key` is `None`) with `record` as
    /// its representative; returns its key.
    fn write_record(
        &mut self,
        key: Option<i64>,
        record: &CaptionRecord,
        json: &str,
    ) -> Result<i64, Error> {
        let key = match key {
            Some(key) => {
                update_record_row(&self.tx, key, record, json, self.seq)?;
                key
            }
            None => {
                let columns = RecordColumns::of(record)?;
                let mut stmt = self
                    .tx
                    .prepare_cached(
                        "INSERT INTO records (variant, json, seq, date_created, country_code,
                         city, province_code, geonames_id, latitude, longitude, agencies,
                         creators, flags, id)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                    )
                    .map_err(sql("adding a record"))?;
                let mut all = columns.params(record, &json, &self.seq);
                all.push(&record.id);
                stmt.execute(all.as_slice())
                    .map_err(sql("adding a record"))?;
                self.tx.last_insert_rowid()
            }
        };
        // Written with this document's change number: not in `touched`.
        self.changed = true;
        Ok(key)
    }

    /// Commits the document and everything it added.
    pub fn commit(self) -> Result<IngestSummary, Error> {
        self.tx
            .execute(
                "UPDATE documents SET occurrences = ?1 WHERE id = ?2",
                params![self.position, self.document],
            )
            .map_err(sql("finishing a document"))?;
        if self.changed || !self.touched.is_empty() {
            // Every record the document touched gets this change number, so
            // the index catches up on them (a merged variant changes the
            // record's archive view even when the representative stays).
            let mut stmt = self
                .tx
                .prepare_cached("UPDATE records SET seq = ?1 WHERE key = ?2")
                .map_err(sql("finishing a document"))?;
            for key in &self.touched {
                stmt.execute(params![self.seq, key])
                    .map_err(sql("finishing a document"))?;
            }
            drop(stmt);
            store::set_meta(&self.tx, "seq", &self.seq.to_string())?;
        }
        self.tx.commit().map_err(sql("committing a document"))?;
        self.candidates.in_document = false;
        Ok(self.summary)
    }
}

/// The columns of a record row that searches filter on, derived from its
/// representative record.
struct RecordColumns {
    date_created: Option<String>,
    agencies: String,
    creators: String,
    flags: String,
}

impl RecordColumns {
    fn of(record: &CaptionRecord) -> Result<RecordColumns, Error> {
        let bad = |_| Error::BadRecord(record.id.clone());
        Ok(RecordColumns {
            date_created: record.date_created.map(|d| d.to_string()),
            agencies: serde_json::to_string(&record.credit.agencies).map_err(bad)?,
            creators: serde_json::to_string(&record.credit.creators).map_err(bad)?,
            flags: serde_json::to_string(&record.flags).map_err(bad)?,
        })
    }

    /// `?1` to `?13` of the record statements: variant, json, seq, then the
    /// filter columns.
    fn params<'a>(
        &'a self,
        record: &'a CaptionRecord,
        json: &'a dyn rusqlite::ToSql,
        seq: &'a i64,
    ) -> Vec<&'a dyn rusqlite::ToSql> {
        let location = record.location.as_ref();
        let none_text: &'static Option<String> = &None;
        let none_id: &'static Option<u32> = &None;
        let none_f64: &'static Option<f64> = &None;
        vec![
            &record.id,
            json,
            seq,
            &self.date_created,
            location.map_or(none_text, |l| &l.country_code),
            location.map_or(none_text, |l| &l.city),
            location.map_or(none_text, |l| &l.province_code),
            location.map_or(none_id, |l| &l.geonames_id),
            location.map_or(none_f64, |l| &l.latitude),
            location.map_or(none_f64, |l| &l.longitude),
            &self.agencies,
            &self.creators,
            &self.flags,
        ]
    }
}

/// Rewrites record `key`'s row with `record` as its representative and
/// change number `seq` (ingest, when a better variant arrives; reparse).
pub(crate) fn update_record_row(
    conn: &Connection,
    key: i64,
    record: &CaptionRecord,
    json: &str,
    seq: i64,
) -> Result<(), Error> {
    let columns = RecordColumns::of(record)?;
    let mut stmt = conn
        .prepare_cached(
            "UPDATE records SET variant = ?1, json = ?2, seq = ?3, date_created = ?4,
             country_code = ?5, city = ?6, province_code = ?7, geonames_id = ?8,
             latitude = ?9, longitude = ?10, agencies = ?11, creators = ?12,
             flags = ?13 WHERE key = ?14",
        )
        .map_err(sql("updating a record"))?;
    let mut all = columns.params(record, &json, &seq);
    all.push(&key);
    stmt.execute(all.as_slice())
        .map_err(sql("updating a record"))?;
    Ok(())
}

/// A full caption beats a cut-short one; then the longer text wins (a
/// version with a sentence added says more); ties keep the first.
fn better_representative(new: &str, current: &str) -> bool {
    let cut = |t: &str| caption::strip_truncation_mark(t).is_some();
    match (cut(new), cut(current)) {
        (false, true) => true,
        (true, false) => false,
        _ => new.len() > current.len(),
    }
}

/// See [`Archive::record_details`].
pub(crate) fn record_details(conn: &Connection, id: &str) -> Result<Option<Value>, Error> {
    // Cached statements: the server's record page runs these each time.
    let key: Option<i64> = conn
        // A record's public id is its first variant's id.
        .prepare_cached("SELECT record FROM variants WHERE id = ?1")
        .and_then(|mut stmt| stmt.query_row([id], |r| r.get(0)).optional())
        .map_err(sql("looking up a record"))?;
    let Some(key) = key else { return Ok(None) };
    let (public_id, variant, json): (String, String, String) = conn
        .prepare_cached("SELECT id, variant, json FROM records WHERE key = ?1")
        .and_then(|mut stmt| stmt.query_row([key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))))
        .map_err(sql("reading a record"))?;
    let parse = |id: &str, json: &str| -> Result<Value, Error> {
        serde_json::from_str(json).map_err(|_| Error::BadRecord(id.to_string()))
    };
    let mut variants = Vec::new();
    {
        let mut stmt = conn
            .prepare_cached(
                "SELECT v.id, v.text, coalesce(v.json, r.json), d.path FROM variants v
                 JOIN records r ON r.key = v.record
                 JOIN documents d ON d.id = v.first_document
                 WHERE v.record = ?1 ORDER BY v.first_document, v.id",
            )
            .map_err(sql("reading variants"))?;
        let rows = stmt
            .query_map([key], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .map_err(sql("reading variants"))?;
        for row in rows {
            let (vid, text, json, path) = row.map_err(sql("reading variants"))?;
            variants.push(json!({
                "id": vid,
                "representative": vid == variant,
                "first_seen_in": path,
                "text": text,
                "record": parse(&vid, &json)?,
            }));
        }
    }
    let mut occurrences = Vec::new();
    {
        let mut stmt = conn
            .prepare_cached(
                "SELECT o.document, d.path, o.position, o.byte_offset, o.byte_len,
                        coalesce(o.exact_text, v.text), o.variant, o.image_url, d.sha256
                 FROM occurrences o JOIN documents d ON d.id = o.document
                 JOIN variants v ON v.id = o.variant
                 WHERE o.record = ?1 ORDER BY o.document, o.position",
            )
            .map_err(sql("reading occurrences"))?;
        let rows = stmt
            .query_map([key], |r| {
                Ok(json!({
                    "document": r.get::<_, i64>(0)?,
                    "path": r.get::<_, String>(1)?,
                    "position": r.get::<_, i64>(2)?,
                    "offset": r.get::<_, i64>(3)?,
                    "length": r.get::<_, i64>(4)?,
                    "text": r.get::<_, String>(5)?,
                    "variant": r.get::<_, String>(6)?,
                    "image_url": r.get::<_, Option<String>>(7)?,
                    "sha256": r.get::<_, Option<String>>(8)?,
                }))
            })
            .map_err(sql("reading occurrences"))?;
        for row in rows {
            occurrences.push(row.map_err(sql("reading occurrences"))?);
        }
    }
    Ok(Some(json!({
        "id": public_id,
        "record": parse(&public_id, &json)?,
        "variants": variants,
        "occurrences": occurrences,
    })))
}
