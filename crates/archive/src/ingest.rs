//! Adding a document: one store transaction holding the document row, its
//! occurrences, new variants and records, and the clustering decisions.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use caption::CaptionRecord;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Value};

use crate::dedup::Features;
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

/// A document being added; nothing is visible to readers until
/// [`commit`](DocumentWriter::commit), and dropping it without committing
/// leaves the archive as it was.
pub struct DocumentWriter<'a> {
    tx: Transaction<'a>,
    features: &'a mut HashMap<String, Rc<Features>>,
    document: i64,
    position: i64,
    seq: i64,
    touched: BTreeSet<i64>,
    summary: IngestSummary,
}

/// A near-duplicate key shared by more records than this is skipped.
const MAX_KEY_RECORDS: usize = 64;

/// Candidate clusters compared at most, those sharing most keys first.
const MAX_CANDIDATES: usize = 16;

/// Variants of one candidate cluster compared at most.
const MAX_VARIANTS_COMPARED: usize = 8;

/// Variant features kept between documents, at most this many.
const FEATURE_CACHE: usize = 200_000;

impl Archive {
    /// Starts adding a document; `None` when a document with this content
    /// hash is already in the archive (ingest is idempotent).
    pub fn begin_document(
        &mut self,
        path: &str,
        size: u64,
        content_hash: &str,
    ) -> Result<Option<DocumentWriter<'_>>, Error> {
        if self.document_by_hash(content_hash)?.is_some() {
            return Ok(None);
        }
        if self.features.len() > FEATURE_CACHE {
            self.features.clear();
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| Error::sqlite("starting a document transaction", e))?;
        let inserted = tx.execute(
            "INSERT INTO documents (content_hash, path, size, ingested_at, occurrences)
             VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 0)
             ON CONFLICT(content_hash) DO NOTHING",
            params![content_hash, path, size as i64],
        );
        let inserted = inserted.map_err(|e| Error::sqlite("adding a document", e))?;
        if inserted == 0 {
            // Another process added it since the look-up.
            return Ok(None);
        }
        let document = tx.last_insert_rowid();
        let seq = store::get_meta_i64(&tx, "seq")? + 1;
        Ok(Some(DocumentWriter {
            tx,
            features: &mut self.features,
            document,
            position: 0,
            seq,
            touched: BTreeSet::new(),
            summary: IngestSummary::default(),
        }))
    }
}

fn sql(what: &'static str) -> impl Fn(rusqlite::Error) -> Error {
    move |e| Error::sqlite(what, e)
}

impl DocumentWriter<'_> {
    /// Adds one occurrence, clustering its caption with the archive's.
    pub fn add(&mut self, occurrence: NewOccurrence) -> Result<(), Error> {
        let NewOccurrence {
            offset,
            exact_text,
            record,
        } = occurrence;
        let variant_id = record.id.clone();
        let known: Option<i64> = self
            .tx
            .prepare_cached("SELECT record FROM variants WHERE id = ?1")
            .and_then(|mut s| s.query_row([&variant_id], |r| r.get(0)).optional())
            .map_err(sql("looking up a caption"))?;
        let record_key = match known {
            Some(key) => {
                self.summary.repeats += 1;
                key
            }
            None => self.add_variant(&record)?,
        };
        let stored_text = (exact_text != record.text).then_some(exact_text.as_str());
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
                    offset as i64,
                    exact_text.len() as i64,
                    stored_text,
                    variant_id,
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
    /// variant, or as a new record.
    fn add_variant(&mut self, record: &CaptionRecord) -> Result<i64, Error> {
        let value =
            serde_json::to_value(record).map_err(|_| Error::BadRecord(record.id.clone()))?;
        let json = value.to_string();
        let features = Rc::new(Features::of_record(&value));
        let keys = features.lsh_keys();
        let cluster = self.find_cluster(&features, &keys)?;
        let record_key = match cluster {
            Some(key) => {
                self.summary.new_variants_merged += 1;
                let (rep_text,): (String,) = self
                    .tx
                    .prepare_cached(
                        "SELECT v.text FROM records r JOIN variants v ON v.id = r.variant
                         WHERE r.key = ?1",
                    )
                    .and_then(|mut s| s.query_row([key], |r| Ok((r.get(0)?,))))
                    .map_err(sql("reading a record"))?;
                if better_representative(&record.text, &rep_text) {
                    self.write_record(Some(key), &record.id, &value, &json)?;
                } else {
                    self.touched.insert(key);
                }
                key
            }
            None => {
                self.summary.new_records += 1;
                self.write_record(None, &record.id, &value, &json)?
            }
        };
        self.tx
            .prepare_cached(
                "INSERT INTO variants (id, record, text, json, first_document)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    record.id,
                    record_key,
                    record.text,
                    json,
                    self.document
                ])
            })
            .map_err(sql("adding a variant"))?;
        {
            let mut stmt = self
                .tx
                .prepare_cached("INSERT OR IGNORE INTO lsh (key, record) VALUES (?1, ?2)")
                .map_err(sql("adding dedup keys"))?;
            for key in &keys {
                stmt.execute(params![key, record_key])
                    .map_err(sql("adding dedup keys"))?;
            }
        }
        self.features.insert(record.id.clone(), features);
        Ok(record_key)
    }

    /// The first cluster (lowest key) with a variant that is the same photo.
    fn find_cluster(&mut self, features: &Features, keys: &[i64]) -> Result<Option<i64>, Error> {
        if keys.is_empty() {
            return Ok(None);
        }
        // Candidates ranked by how many keys they share; a key shared by
        // very many records (templated wording) says little and is skipped,
        // so a lookup costs a bounded number of comparisons.
        let mut shared: HashMap<i64, usize> = HashMap::new();
        {
            let mut stmt = self
                .tx
                .prepare_cached("SELECT record FROM lsh WHERE key = ?1 LIMIT ?2")
                .map_err(sql("looking up dedup keys"))?;
            for key in keys {
                let rows: Vec<i64> = stmt
                    .query_map(params![key, MAX_KEY_RECORDS as i64 + 1], |r| r.get(0))
                    .map_err(sql("looking up dedup keys"))?
                    .collect::<Result<_, _>>()
                    .map_err(sql("looking up dedup keys"))?;
                if rows.len() > MAX_KEY_RECORDS {
                    continue;
                }
                for record in rows {
                    *shared.entry(record).or_default() += 1;
                }
            }
        }
        let mut ranked: Vec<(usize, i64)> = shared.into_iter().map(|(r, n)| (n, r)).collect();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let candidates: Vec<i64> = ranked
            .into_iter()
            .take(MAX_CANDIDATES)
            .map(|(_, r)| r)
            .collect();
        for candidate in candidates {
            // A photo captioned very often (or a loose cluster) has many
            // variants; a few of them say whether a caption is the same
            // photo, and reading all would make each look-up cost grow with
            // the archive.
            let ids: Vec<String> = {
                let mut stmt = self
                    .tx
                    .prepare_cached("SELECT id FROM variants WHERE record = ?1 LIMIT ?2")
                    .map_err(sql("reading variants"))?;
                let rows = stmt
                    .query_map(params![candidate, MAX_VARIANTS_COMPARED as i64], |r| {
                        r.get(0)
                    })
                    .map_err(sql("reading variants"))?;
                rows.collect::<Result<_, _>>()
                    .map_err(sql("reading variants"))?
            };
            for id in ids {
                let other = match self.features.get(&id) {
                    Some(f) => Rc::clone(f),
                    None => {
                        // Features are cached by variant: the JSON is read
                        // and parsed once per session.
                        let json: String = self
                            .tx
                            .prepare_cached("SELECT json FROM variants WHERE id = ?1")
                            .and_then(|mut s| s.query_row([&id], |r| r.get(0)))
                            .map_err(sql("reading variants"))?;
                        let value: Value = serde_json::from_str(&json)
                            .map_err(|_| Error::BadRecord(id.clone()))?;
                        let f = Rc::new(Features::of_record(&value));
                        self.features.insert(id, Rc::clone(&f));
                        f
                    }
                };
                if crate::dedup::same_photo(features, &other) {
                    return Ok(Some(candidate));
                }
            }
        }
        Ok(None)
    }

    /// Writes a record row (a new one when `key` is `None`) with `variant` as
    /// its representative; returns its key.
    fn write_record(
        &mut self,
        key: Option<i64>,
        variant: &str,
        value: &Value,
        json: &str,
    ) -> Result<i64, Error> {
        let location = &value["location"];
        let date_created = value["date_created"].as_str();
        let country_code = location["country_code"].as_str();
        let city = location["city"].as_str();
        let province_code = location["province_code"].as_str();
        let geonames_id = location["geonames_id"].as_i64();
        let latitude = location["latitude"].as_f64();
        let longitude = location["longitude"].as_f64();
        let agencies = value["credit"]["agencies"].to_string();
        let creators = value["credit"]["creators"].to_string();
        let flags = value["flags"].to_string();
        let seq = self.seq;
        let columns = params![
            variant,
            json,
            seq,
            date_created,
            country_code,
            city,
            province_code,
            geonames_id,
            latitude,
            longitude,
            agencies,
            creators,
            flags,
        ];
        let key = match key {
            Some(key) => {
                let mut stmt = self
                    .tx
                    .prepare_cached(
                        "UPDATE records SET variant = ?1, json = ?2, seq = ?3, date_created = ?4,
                         country_code = ?5, city = ?6, province_code = ?7, geonames_id = ?8,
                         latitude = ?9, longitude = ?10, agencies = ?11, creators = ?12,
                         flags = ?13 WHERE key = ?14",
                    )
                    .map_err(sql("updating a record"))?;
                let mut all: Vec<&dyn rusqlite::ToSql> = columns.to_vec();
                all.push(&key);
                stmt.execute(all.as_slice())
                    .map_err(sql("updating a record"))?;
                key
            }
            None => {
                let mut stmt = self
                    .tx
                    .prepare_cached(
                        "INSERT INTO records (variant, json, seq, date_created, country_code,
                         city, province_code, geonames_id, latitude, longitude, agencies,
                         creators, flags, id)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                    )
                    .map_err(sql("adding a record"))?;
                let mut all: Vec<&dyn rusqlite::ToSql> = columns.to_vec();
                all.push(&variant);
                stmt.execute(all.as_slice())
                    .map_err(sql("adding a record"))?;
                self.tx.last_insert_rowid()
            }
        };
        self.touched.insert(key);
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
        if !self.touched.is_empty() {
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
        Ok(self.summary)
    }
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
    let key: Option<i64> = conn
        .query_row(
            "SELECT key FROM records WHERE id = ?1
             UNION ALL SELECT record FROM variants WHERE id = ?1 LIMIT 1",
            [id],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql("looking up a record"))?;
    let Some(key) = key else { return Ok(None) };
    let (public_id, variant, json): (String, String, String) = conn
        .query_row(
            "SELECT id, variant, json FROM records WHERE key = ?1",
            [key],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .map_err(sql("reading a record"))?;
    let parse = |id: &str, json: &str| -> Result<Value, Error> {
        serde_json::from_str(json).map_err(|_| Error::BadRecord(id.to_string()))
    };
    let mut variants = Vec::new();
    {
        let mut stmt = conn
            .prepare(
                "SELECT v.id, v.text, v.json, d.path FROM variants v
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
            .prepare(
                "SELECT o.document, d.path, o.position, o.byte_offset, o.byte_len,
                        coalesce(o.exact_text, v.text), o.variant, o.image_url
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
