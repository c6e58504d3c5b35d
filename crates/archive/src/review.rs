//! Review: a reviewer's corrections of a record's fields, its review state
//! (checked, disputed) and notes, kept as an append-only log beside the
//! machine's values, which are never overwritten.
//!
//! The log is its own table (`review_log`), created by the first review
//! written: an archive nobody reviewed is unchanged, and the store's other
//! tables, which ingest and the index read, never hold a reviewer's value.
//! Triggers refuse every UPDATE and DELETE on it, so the trail is
//! append-only for every writer, not only for this library.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use serde_json::Value;

use crate::{store, Archive, Error};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS review_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    record TEXT NOT NULL,
    at TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('correction', 'state', 'note')),
    field TEXT,
    old TEXT,
    new TEXT,
    note TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS review_log_record ON review_log(record, seq);
CREATE TRIGGER IF NOT EXISTS review_log_no_update BEFORE UPDATE ON review_log
BEGIN SELECT RAISE(ABORT, 'the review log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS review_log_no_delete BEFORE DELETE ON review_log
BEGIN SELECT RAISE(ABORT, 'the review log is append-only'); END;
";

/// Longest reviewer name, note or corrected value accepted, in bytes.
pub const MAX_REVIEW_TEXT: usize = 16 * 1024;

/// Record fields a reviewer may correct (paths into the record's JSON):
/// every field the extraction fills. `text`, `id` and the spans are the
/// evidence, not a finding, and stay as found.
pub const CORRECTABLE: &[&str] = &[
    "description",
    "credit.raw",
    "credit.creators",
    "credit.agencies",
    "credit.source",
    "date_created",
    "location.text",
    "location.sublocation",
    "location.city",
    "location.province",
    "location.province_code",
    "location.country",
    "location.country_code",
    "location.geonames_id",
    "location.latitude",
    "location.longitude",
    "persons",
    "organizations",
    "flags",
];

/// What a log entry does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewKind {
    /// A field's value replaced.
    Correction,
    /// The review state set.
    State,
    /// A note added.
    Note,
}

impl ReviewKind {
    fn as_str(self) -> &'static str {
        match self {
            ReviewKind::Correction => "correction",
            ReviewKind::State => "state",
            ReviewKind::Note => "note",
        }
    }

    fn parse(s: &str) -> ReviewKind {
        match s {
            "correction" => ReviewKind::Correction,
            "state" => ReviewKind::State,
            _ => ReviewKind::Note,
        }
    }
}

/// Where a record stands in review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewState {
    /// Nobody looked at it yet.
    Unreviewed,
    /// A reviewer confirmed it.
    Checked,
    /// A reviewer doubts it.
    Disputed,
}

impl ReviewState {
    /// Parses `unreviewed`, `checked` or `disputed`.
    pub fn parse(s: &str) -> Option<ReviewState> {
        match s {
            "unreviewed" => Some(ReviewState::Unreviewed),
            "checked" => Some(ReviewState::Checked),
            "disputed" => Some(ReviewState::Disputed),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            ReviewState::Unreviewed => "unreviewed",
            ReviewState::Checked => "checked",
            ReviewState::Disputed => "disputed",
        }
    }
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReviewEntry {
    /// Order of writing, over the whole archive.
    pub seq: i64,
    /// The record's public id.
    pub record: String,
    /// When (RFC 3339, UTC).
    pub at: String,
    /// Who.
    pub reviewer: String,
    /// What.
    pub kind: ReviewKind,
    /// The corrected field (a correction), or `state`.
    pub field: Option<String>,
    /// The value before (JSON for a correction, the state name for a state).
    pub old: Option<Value>,
    /// The value after.
    pub new: Option<Value>,
    /// Why, in the reviewer's words (may be empty).
    pub note: String,
}

/// A corrected field as the record shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Correction {
    /// The field's path (`location.city`).
    pub field: String,
    /// The machine's value.
    pub machine: Value,
    /// The reviewer's value, shown in the record.
    pub value: Value,
    /// Who corrected it last.
    pub reviewer: String,
    /// When.
    pub at: String,
}

/// What a reviewer asks to write.
#[derive(Debug, Clone, PartialEq)]
pub enum ReviewAction {
    /// Replace a field's value.
    Correct {
        /// One of [`CORRECTABLE`].
        field: String,
        /// The new value: of the machine value's JSON type, or null.
        value: Value,
    },
    /// Set the review state.
    SetState(ReviewState),
    /// Add a note only.
    Note,
}

impl Archive {
    /// Appends an entry to a record's review log (its public id or any
    /// variant's id) and returns it. `None` when no record has that id.
    pub fn review(
        &self,
        id: &str,
        reviewer: &str,
        action: ReviewAction,
        note: &str,
    ) -> Result<Option<ReviewEntry>, Error> {
        let reviewer = reviewer.trim();
        if reviewer.is_empty() {
            return Err(Error::BadQuery("a review needs the reviewer's name".into()));
        }
        if reviewer.len() > MAX_REVIEW_TEXT || note.len() > MAX_REVIEW_TEXT {
            return Err(Error::BadQuery(format!(
                "a reviewer name or note is limited to {MAX_REVIEW_TEXT} bytes"
            )));
        }
        let Some((key, public_id, machine)) = machine_record(&self.conn, id)? else {
            return Ok(None);
        };
        let sql = |what: &'static str| move |e| Error::sqlite(what, e);
        self.conn
            .execute_batch(SCHEMA)
            .map_err(sql("creating the review log"))?;
        // Read the current value and append in one write transaction, so two
        // reviewers correcting at once each log the value the other left.
        // IMMEDIATE: the write lock first, so the read is never of a
        // snapshot another writer already moved past.
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(sql("writing a review"))?;
        let (kind, field, old, new) = match action {
            ReviewAction::Correct { field, value } => {
                if !CORRECTABLE.contains(&field.as_str()) {
                    return Err(Error::BadQuery(format!(
                        "{field:?} is not a correctable field (one of: {})",
                        CORRECTABLE.join(", ")
                    )));
                }
                let machine_value = at_path(&machine, &field).cloned().unwrap_or(Value::Null);
                if !same_kind(&machine_value, &value) {
                    return Err(Error::BadQuery(format!(
                        "{field} holds {}, not {}",
                        kind_name(&machine_value),
                        kind_name(&value)
                    )));
                }
                // Every correction accepted is one the record shows: a
                // field the record has no place for is refused here, not
                // logged and then silently never applied.
                if set_field(&mut machine.clone(), &field, value.clone()).is_none() {
                    return Err(Error::BadQuery(format!(
                        "{field} is not a field of this record"
                    )));
                }
                if value.to_string().len() > MAX_REVIEW_TEXT {
                    return Err(Error::BadQuery(format!(
                        "a corrected value is limited to {MAX_REVIEW_TEXT} bytes"
                    )));
                }
                let current = current_values(&tx, &public_id)?
                    .into_iter()
                    .find(|(f, _)| *f == field)
                    .map_or(machine_value, |(_, v)| v);
                (
                    ReviewKind::Correction,
                    Some(field),
                    Some(current),
                    Some(value),
                )
            }
            ReviewAction::SetState(state) => {
                let old = state_of(&tx, &public_id)?;
                (
                    ReviewKind::State,
                    Some("state".to_string()),
                    Some(Value::String(old.as_str().into())),
                    Some(Value::String(state.as_str().into())),
                )
            }
            ReviewAction::Note => (ReviewKind::Note, None, None, None),
        };
        let text = |v: &Option<Value>| v.as_ref().map(Value::to_string);
        tx.execute(
            "INSERT INTO review_log (record, at, reviewer, kind, field, old, new, note)
             VALUES (?1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                public_id,
                reviewer,
                kind.as_str(),
                field,
                text(&old),
                text(&new),
                note
            ],
        )
        .map_err(sql("writing a review"))?;
        let seq = tx.last_insert_rowid();
        if kind == ReviewKind::Correction {
            // A store change like an ingest's: the record's index document
            // is built again, with the reviewer's value, by the next
            // `sync_index` (the one writer of the index).
            let change = store::get_meta_i64(&tx, "seq")? + 1;
            tx.execute(
                "UPDATE records SET seq = ?1 WHERE key = ?2",
                params![change, key],
            )
            .map_err(sql("writing a review"))?;
            store::set_meta(&tx, "seq", &change.to_string())?;
        }
        let entry = entries(&tx, "WHERE seq = ?1", params![seq])?.pop();
        tx.commit().map_err(sql("writing a review"))?;
        Ok(entry)
    }

    /// A record's review log, oldest first (empty when never reviewed).
    pub fn review_log(&self, public_id: &str) -> Result<Vec<ReviewEntry>, Error> {
        if !has_log(&self.conn)? {
            return Ok(Vec::new());
        }
        entries(
            &self.conn,
            "WHERE record = ?1 ORDER BY seq",
            params![public_id],
        )
    }

    /// A record's review state.
    pub fn review_state(&self, public_id: &str) -> Result<ReviewState, Error> {
        if !has_log(&self.conn)? {
            return Ok(ReviewState::Unreviewed);
        }
        state_of(&self.conn, public_id)
    }

    /// The review states of several records (as [`Archive::review_state`]
    /// gives each), in the order given, read in one query: a search page
    /// asks for all of its hits'.
    pub fn review_states(&self, public_ids: &[&str]) -> Result<Vec<ReviewState>, Error> {
        if public_ids.is_empty() || !has_log(&self.conn)? {
            return Ok(vec![ReviewState::Unreviewed; public_ids.len()]);
        }
        let sql = |e| Error::sqlite("reading the review log", e);
        let ids = serde_json::json!(public_ids).to_string();
        // Not ordered in SQL (an ORDER BY seq could walk the whole log in
        // rowid order): the latest state of each record is kept here.
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT record, seq, new FROM review_log
                 WHERE record IN (SELECT value FROM json_each(?1)) AND kind = 'state'",
            )
            .map_err(sql)?;
        let rows = stmt
            .query_map([ids], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })
            .map_err(sql)?;
        let mut last: HashMap<String, (i64, Option<String>)> = HashMap::new();
        for row in rows {
            let (record, seq, new) = row.map_err(sql)?;
            match last.get_mut(&record) {
                Some(kept) if kept.0 > seq => {}
                Some(kept) => *kept = (seq, new),
                None => {
                    last.insert(record, (seq, new));
                }
            }
        }
        Ok(public_ids
            .iter()
            .map(|id| {
                last.get(*id)
                    .and_then(|(_, new)| new.as_deref())
                    .and_then(parse_state)
                    .unwrap_or(ReviewState::Unreviewed)
            })
            .collect())
    }

    /// Applies a record's corrections to its JSON (`record["id"]` names
    /// it) and returns them; the record then shows the reviewer's values,
    /// and `corrections` what the machine said.
    pub fn apply_corrections(&self, record: &mut Value) -> Result<Vec<Correction>, Error> {
        let Some(id) = record["id"].as_str().map(str::to_string) else {
            return Ok(Vec::new());
        };
        if !has_log(&self.conn)? {
            return Ok(Vec::new());
        }
        let log = entries(
            &self.conn,
            "WHERE record = ?1 AND kind = 'correction' ORDER BY seq",
            params![id],
        )?;
        Ok(apply_entries(record, log))
    }

    /// Records by store key (as [`Archive::records_by_key`] gives them) with
    /// their corrections applied and listed under `corrections`. The
    /// corrections of all of them are read in one query (a search page
    /// reads 20 records).
    pub fn records_with_corrections(&self, keys: &[u64]) -> Result<Vec<Value>, Error> {
        let mut records = self.records_by_key(keys)?;
        let mut logs: HashMap<String, Vec<ReviewEntry>> = HashMap::new();
        if !records.is_empty() && has_log(&self.conn)? {
            let ids: Vec<&str> = records.iter().filter_map(|r| r["id"].as_str()).collect();
            let ids = serde_json::json!(ids).to_string();
            // Ordered here, not in SQL (see `review_states`).
            let mut found = entries(
                &self.conn,
                "WHERE record IN (SELECT value FROM json_each(?1)) AND kind = 'correction'",
                params![ids],
            )?;
            found.sort_by_key(|entry| entry.seq);
            for entry in found {
                logs.entry(entry.record.clone()).or_default().push(entry);
            }
        }
        for record in &mut records {
            let log = match record["id"].as_str().and_then(|id| logs.get(id)) {
                Some(log) => log.clone(),
                None => Vec::new(),
            };
            let corrections = apply_entries(record, log);
            if let Some(object) = record.as_object_mut() {
                let listed = serde_json::to_value(corrections).unwrap_or(Value::Null);
                object.insert("corrections".into(), listed);
            }
        }
        Ok(records)
    }

    /// Up to `limit` store keys of records nobody has marked checked or
    /// disputed: flagged records first, then the others, each in store order
    /// (read them with [`Archive::records_by_key`]). Flagged means by the
    /// reviewer's flags where they were corrected: a record whose flags a
    /// reviewer cleared waits with the unflagged ones, one a reviewer
    /// flagged leads.
    pub fn review_queue(&self, limit: usize) -> Result<Vec<u64>, Error> {
        let sql = |e| Error::sqlite("listing records to review", e);
        let logged = has_log(&self.conn)?;
        let reviewed = if logged {
            "AND NOT EXISTS (SELECT 1 FROM review_log l WHERE l.record = r.id AND l.kind = 'state'
                 AND l.seq = (SELECT max(seq) FROM review_log m WHERE m.record = r.id AND m.kind = 'state')
                 AND l.new != '\"unreviewed\"')"
        } else {
            ""
        };
        // The flags the record shows: the latest correction of them (its
        // JSON, `[]` or `null` when cleared), else the machine's.
        let flags = if logged {
            "coalesce((SELECT c.new FROM review_log c WHERE c.record = r.id
                 AND c.kind = 'correction' AND c.field = 'flags' ORDER BY c.seq DESC LIMIT 1),
               r.flags)"
        } else {
            "r.flags"
        };
        let mut out = Vec::new();
        for flagged in ["NOT IN ('[]', 'null')", "IN ('[]', 'null')"] {
            let want = limit.saturating_sub(out.len());
            if want == 0 {
                break;
            }
            let mut stmt = self
                .conn
                .prepare(&format!(
                    "SELECT r.key FROM records r WHERE {flags} {flagged} {reviewed}
                     ORDER BY r.key LIMIT ?1"
                ))
                .map_err(sql)?;
            let keys = stmt
                .query_map([want as i64], |r| r.get::<_, i64>(0))
                .map_err(sql)?;
            for key in keys {
                out.push(key.map_err(sql)? as u64);
            }
        }
        Ok(out)
    }
}

/// The public id and the machine's record JSON of a record, by its public
/// id or any variant's id.
fn machine_record(conn: &Connection, id: &str) -> Result<Option<(i64, String, Value)>, Error> {
    let row: Option<(i64, String, String)> = conn
        .query_row(
            "SELECT r.key, r.id, r.json FROM variants v JOIN records r ON r.key = v.record
             WHERE v.id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()
        .map_err(|e| Error::sqlite("looking up a record", e))?;
    row.map(|(key, public_id, json)| {
        serde_json::from_str(&json)
            .map(|v| (key, public_id.clone(), v))
            .map_err(|_| Error::BadRecord(public_id))
    })
    .transpose()
}

// Cached statements: a search page asks these once per hit, and preparing
// (parsing the SQL) cost more than running them.
pub(crate) fn has_log(conn: &Connection) -> Result<bool, Error> {
    let sql = |e| Error::sqlite("reading the review log", e);
    conn.prepare_cached(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'review_log'",
    )
    .map_err(sql)?
    .query_row([], |r| r.get::<_, i64>(0))
    .map(|n| n > 0)
    .map_err(sql)
}

fn entries(
    conn: &Connection,
    filter: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<ReviewEntry>, Error> {
    let sql = |e| Error::sqlite("reading the review log", e);
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT seq, record, at, reviewer, kind, field, old, new, note FROM review_log {filter}"
        ))
        .map_err(sql)?;
    let json = |s: Option<String>| s.and_then(|s| serde_json::from_str(&s).ok());
    let rows = stmt
        .query_map(args, |r| {
            Ok(ReviewEntry {
                seq: r.get(0)?,
                record: r.get(1)?,
                at: r.get(2)?,
                reviewer: r.get(3)?,
                kind: ReviewKind::parse(&r.get::<_, String>(4)?),
                field: r.get(5)?,
                old: json(r.get(6)?),
                new: json(r.get(7)?),
                note: r.get(8)?,
            })
        })
        .map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}

/// The latest corrected value of each field of a record.
fn current_values(conn: &Connection, public_id: &str) -> Result<Vec<(String, Value)>, Error> {
    let mut out = Vec::new();
    for entry in entries(
        conn,
        "WHERE record = ?1 AND kind = 'correction' ORDER BY seq",
        params![public_id],
    )? {
        latest(&mut out, entry);
    }
    Ok(out)
}

/// [`current_values`] of every corrected record, by public id (what the
/// index is built from; empty when nobody reviewed).
pub(crate) fn all_current_values(
    conn: &Connection,
) -> Result<HashMap<String, Vec<(String, Value)>>, Error> {
    let mut out: HashMap<String, Vec<(String, Value)>> = HashMap::new();
    if !has_log(conn)? {
        return Ok(out);
    }
    for entry in entries(conn, "WHERE kind = 'correction' ORDER BY seq", [])? {
        latest(out.entry(entry.record.clone()).or_default(), entry);
    }
    Ok(out)
}

/// Keeps a correction's value as its field's latest.
fn latest(values: &mut Vec<(String, Value)>, entry: ReviewEntry) {
    if let (Some(field), Some(value)) = (entry.field, entry.new) {
        values.retain(|(f, _)| *f != field);
        values.push((field, value));
    }
}

/// Identifiers the machine derived from a place name, which name the
/// machine's place: when the reviewer corrects the name and not the
/// identifier, the identifier names the place the reviewer said is wrong.
const DERIVED_IDS: &[(&str, &str)] = &[
    ("location.city", "location.geonames_id"),
    ("location.country", "location.country_code"),
    ("location.province", "location.province_code"),
];

/// A record as searches, filters and facets see it: the reviewer's values
/// over the machine's, and the machine's identifiers of a corrected place
/// name left out (see [`DERIVED_IDS`]; else `--city Homs` would still find a
/// record corrected to Hama by its GeoNames id). Coordinates stay: a
/// corrected spelling does not move a photo, and a reviewer corrects them
/// on their own. The record page and exports show the corrected record
/// with every machine value, this is for the index only.
pub(crate) fn corrected_for_index(record: &mut Value, values: &[(String, Value)]) {
    for (field, value) in values {
        set_field(record, field, value.clone());
    }
    for (name, id) in DERIVED_IDS {
        let corrected = |f: &str| values.iter().any(|(field, _)| field == f);
        if corrected(name) && !corrected(id) {
            set_field(record, id, Value::Null);
        }
    }
}

/// Replaces the value at a dotted path, returning the one it held; `None`
/// (and nothing changed) when the record has no such field.
///
/// A field of a part the machine left empty (`location` is null when the
/// caption names no place) is a correction like any other: the part is
/// filled in with every field of the contract, null but the corrected one
/// (a null correction of it leaves the part empty).
fn set_field(record: &mut Value, path: &str, value: Value) -> Option<Value> {
    if let Some((part, _)) = path.split_once('.') {
        let slot = record.as_object_mut()?.get_mut(part)?;
        if slot.is_null() {
            if value.is_null() {
                return Some(Value::Null);
            }
            *slot = empty_part(part)?;
        }
    }
    at_path_mut(record, path).map(|slot| std::mem::replace(slot, value))
}

/// A record part with every field of the contract and nothing found, for a
/// part a correction fills in.
fn empty_part(part: &str) -> Option<Value> {
    let empty = match part {
        "location" => serde_json::to_value(caption::Location::default()),
        "credit" => serde_json::to_value(caption::Credit::default()),
        _ => return None,
    };
    empty.ok()
}

/// Applies a record's correction entries (oldest first) to its JSON and
/// returns the corrections, each field's latest (see
/// [`Archive::apply_corrections`]).
fn apply_entries(record: &mut Value, log: Vec<ReviewEntry>) -> Vec<Correction> {
    let mut out = Vec::new();
    for entry in log {
        let (Some(field), Some(value)) = (entry.field, entry.new) else {
            continue;
        };
        let Some(machine) = set_field(record, &field, value.clone()) else {
            continue;
        };
        match out.iter_mut().find(|c: &&mut Correction| c.field == field) {
            Some(c) => {
                c.value = value;
                c.reviewer = entry.reviewer;
                c.at = entry.at;
            }
            None => out.push(Correction {
                field,
                machine,
                value,
                reviewer: entry.reviewer,
                at: entry.at,
            }),
        }
    }
    out
}

/// A state as the log keeps it (a JSON string).
fn parse_state(new: &str) -> Option<ReviewState> {
    serde_json::from_str::<String>(new)
        .ok()
        .and_then(|s| ReviewState::parse(&s))
}

fn state_of(conn: &Connection, public_id: &str) -> Result<ReviewState, Error> {
    let sql = |e| Error::sqlite("reading the review log", e);
    let last: Option<String> = conn
        .prepare_cached(
            "SELECT new FROM review_log WHERE record = ?1 AND kind = 'state' ORDER BY seq DESC LIMIT 1",
        )
        .map_err(sql)?
        .query_row([public_id], |r| r.get(0))
        .optional()
        .map_err(sql)?;
    Ok(last
        .as_deref()
        .and_then(parse_state)
        .unwrap_or(ReviewState::Unreviewed))
}

/// The value at a dotted path of a JSON object.
pub(crate) fn at_path<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(value, |v, key| v.as_object()?.get(key))
}

fn at_path_mut<'a>(value: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    path.split('.')
        .try_fold(value, |v, key| v.as_object_mut()?.get_mut(key))
}

/// Whether a correction keeps a field's JSON type (null: either way, since
/// an absent finding may be filled in and a wrong one removed).
fn same_kind(machine: &Value, new: &Value) -> bool {
    machine.is_null()
        || new.is_null()
        || std::mem::discriminant(machine) == std::mem::discriminant(new)
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests;
