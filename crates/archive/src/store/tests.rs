//! Schema migrations, from a store as the previous version wrote it.

use rusqlite::Connection;

use crate::{test_archive, Archive, DocumentHashes, Mode, SearchQuery, STORE_FILE};

const CAPTIONS: &[&str] = &[
    "A man rides a bicycle past shuttered shops in Homs, Syria, May 4, 2014. REUTERS/Lina Haddad",
    "Smoke rises over a neighbourhood of Aleppo, Syria, May 4, 2014. (AP Photo/Karim Mansour)",
];

/// Turns the store in `dir` into a version-2 store: `documents` without
/// the `sha256` column (SQLite drops a column by rewriting the table, so
/// its layout is then exactly version 2's) and `schema_version` 2.
fn downgrade_to_v2(dir: &std::path::Path) {
    let conn = Connection::open(dir.join(STORE_FILE)).expect("store");
    conn.execute_batch(
        "ALTER TABLE documents DROP COLUMN sha256;
         DELETE FROM meta WHERE key = 'sha256_from';
         UPDATE meta SET value = '2' WHERE key = 'schema_version';",
    )
    .expect("downgrade");
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('documents')")
        .and_then(|mut s| {
            s.query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()
        })
        .expect("columns");
    assert_eq!(
        columns,
        [
            "id",
            "content_hash",
            "path",
            "size",
            "ingested_at",
            "occurrences"
        ]
    );
}

fn meta(dir: &std::path::Path, key: &str) -> Option<String> {
    let conn = Connection::open(dir.join(STORE_FILE)).expect("store");
    super::get_meta(&conn, key).expect("meta")
}

#[test]
fn a_v2_store_is_migrated_keeping_everything() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (archive, ids) = test_archive::with_captions(dir.path(), CAPTIONS);
    let before = archive.stats().expect("stats");
    let details_before = archive.record_details(&ids[0]).expect("details");
    drop(archive);
    downgrade_to_v2(dir.path());

    // A reader migrates too: adding the column is instant.
    let archive = Archive::open(dir.path(), Mode::Read).expect("migrated on open");
    assert_eq!(meta(dir.path(), "schema_version").as_deref(), Some("3"));
    assert_eq!(meta(dir.path(), "sha256_from").as_deref(), Some("3"));
    assert_eq!(archive.stats().expect("stats"), before);
    let mut details = archive
        .record_details(&ids[0])
        .expect("details")
        .expect("record");
    let occurrence = &mut details["occurrences"][0];
    assert!(occurrence["sha256"].is_null(), "no guess: {occurrence}");
    if let Some(o) = occurrence.as_object_mut() {
        o.remove("sha256");
    }
    let mut expected = details_before.expect("record");
    if let Some(o) = expected["occurrences"][0].as_object_mut() {
        o.remove("sha256");
    }
    assert_eq!(details, expected, "the record as before, but for the hash");
    assert_eq!(
        archive
            .search(&SearchQuery::text("bicycle"), None)
            .expect("search")
            .total,
        1
    );
    let report = archive.check().expect("check");
    assert!(report.is_ok(), "{report:?}");
    assert!(
        report.notes.iter().any(|n| n.contains("2 document(s)")),
        "{report:?}"
    );
    drop(archive);

    // The same bytes ingested again: nothing added, the SHA-256 recorded.
    let mut archive = Archive::open(dir.path(), Mode::Write).expect("open");
    let hashes = DocumentHashes::of(CAPTIONS[0].as_bytes());
    assert!(archive
        .begin_document("again.txt", CAPTIONS[0].len() as u64, &hashes)
        .expect("begin")
        .is_none());
    assert_eq!(archive.stats().expect("stats"), before);
    let details = archive.record_details(&ids[0]).expect("d").expect("r");
    assert_eq!(details["occurrences"][0]["sha256"], hashes.sha256.as_str());
    let other = archive.record_details(&ids[1]).expect("d").expect("r");
    assert!(other["occurrences"][0]["sha256"].is_null());

    // A document added since must have one; check says so when it has not.
    let text = "Rubble in Raqqa, Syria, March 2016. REUTERS/Samir Khoury";
    let hashes = DocumentHashes::of(text.as_bytes());
    let mut doc = archive
        .begin_document("new.txt", text.len() as u64, &hashes)
        .expect("begin")
        .expect("new");
    doc.add(crate::NewOccurrence {
        offset: 0,
        exact_text: text.to_string(),
        record: caption::parse(text, gazetteer::Gazetteer::embedded()),
    })
    .expect("add");
    doc.commit().expect("commit");
    archive.sync_index().expect("sync");
    assert!(archive.check().expect("check").is_ok());
    archive
        .conn
        .execute_batch(
            "UPDATE documents SET sha256 = NULL WHERE path = 'new.txt';
             UPDATE documents SET sha256 = 'ABC' WHERE path = 'd1.txt';",
        )
        .expect("damage");
    let problems = archive.check().expect("check").problems;
    assert!(
        problems
            .iter()
            .any(|p| p.contains("since schema 3 without a SHA-256") && p.contains("new.txt")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("not 64 lower-case hex") && p.contains("d1.txt")),
        "{problems:?}"
    );
}

#[test]
fn a_v2_store_on_a_read_only_directory_names_the_migration() {
    let dir = tempfile::tempdir().expect("tempdir");
    drop(test_archive::with_captions(dir.path(), CAPTIONS));
    downgrade_to_v2(dir.path());
    let conn = Connection::open(dir.path().join(STORE_FILE)).expect("store");
    conn.pragma_update(None, "journal_mode", "DELETE")
        .expect("no WAL left");
    drop(conn);
    let store = crate::open_store_immutable(&dir.path().join(STORE_FILE));
    let message = store.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("schema version 2"), "{message}");
    assert!(message.contains("where it can be written"), "{message}");
}

#[test]
fn hashes_are_sha256_and_xxh3_streamed_or_whole() {
    let whole = DocumentHashes::of(b"abc");
    assert_eq!(
        whole.sha256,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(whole.content_hash, crate::content_hash(b"abc"));
    let mut streamed = crate::ContentHasher::default();
    streamed.update(b"a");
    streamed.update(b"bc");
    assert_eq!(streamed.finish(), whole);
}

/// What a process killed while creating an archive leaves: a write probe
/// and a half-written staging store. The directory still opens as a new
/// archive, and the store that appears is complete, with no staging file
/// left beside it.
#[test]
fn debris_of_a_killed_creation_does_not_block_a_new_archive() {
    let dir = tempfile::tempdir().expect("temp dir");
    let archive_dir = dir.path().join("archive");
    std::fs::create_dir(&archive_dir).expect("dir");
    std::fs::write(archive_dir.join(".write-probe-4242"), b"").expect("probe");
    std::fs::write(
        archive_dir.join(format!("{}4242", super::CREATING_PREFIX)),
        b"SQLite format 3\0 half a header",
    )
    .expect("staging");
    let archive = Archive::open(&archive_dir, Mode::Write).expect("a new archive");
    drop(archive);
    let conn = super::open(&archive_dir.join(STORE_FILE), false).expect("a whole store");
    assert_eq!(
        super::get_meta(&conn, "format").expect("meta").as_deref(),
        Some(super::FORMAT)
    );
    let own = format!("{}{}", super::CREATING_PREFIX, std::process::id());
    assert!(
        !archive_dir.join(own).exists(),
        "the staging file is removed"
    );
}

/// A store is never opened for reading before it is whole: an empty
/// database file (what a kill left before creation was atomic) is refused
/// by a reader, and completed by a writer.
#[test]
fn an_empty_store_file_is_refused_by_readers_and_completed_by_writers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(STORE_FILE);
    std::fs::write(&path, b"").expect("empty file");
    assert!(super::open(&path, false).is_err());
    let conn = super::open(&path, true).expect("completed");
    assert_eq!(
        super::get_meta_i64(&conn, "schema_version").expect("meta"),
        super::SCHEMA_VERSION
    );
}
