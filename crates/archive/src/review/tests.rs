//! Review log: corrections overlay the machine's values without replacing
//! them, the state and notes are appended, the log refuses edits.

use serde_json::json;

use super::ReviewAction;
use crate::{Archive, ReviewKind, ReviewState};

/// An archive of two records, one flagged as a file photo.
fn archive(dir: &std::path::Path) -> (Archive, String, String) {
    let texts = [
        "A man rides a bicycle past shuttered shops in Homs, Syria, May 4, 2014. REUTERS/Lina Haddad",
        "FILE PHOTO: Fishermen mend nets on the shore in Tyre, Lebanon. (AP Photo/Karim Mansour)",
    ];
    let (archive, mut ids) = crate::test_archive::with_captions(dir, &texts);
    let second = ids.pop().expect("two");
    let first = ids.pop().expect("two");
    (archive, first, second)
}

#[test]
fn corrections_overlay_the_machine_value_and_log_old_and_new() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (archive, id, _) = archive(dir.path());
    let machine = archive.records_by_key(&[1]).expect("read").remove(0);
    assert_eq!(machine["location"]["city"], "Homs");
    let correct = |value: serde_json::Value, note: &str| {
        archive
            .review(
                &id,
                "Ana",
                ReviewAction::Correct {
                    field: "location.city".into(),
                    value,
                },
                note,
            )
            .expect("review")
            .expect("record exists")
    };
    let first = correct(json!("Hama"), "the street sign says Hama");
    assert_eq!(
        (first.old.clone(), first.new.clone()),
        (Some(json!("Homs")), Some(json!("Hama")))
    );
    let second = correct(json!("Hims"), "");
    // The old value of a second correction is the first one's new value.
    assert_eq!(second.old, Some(json!("Hama")));
    let mut record = machine.clone();
    let corrections = archive.apply_corrections(&mut record).expect("apply");
    assert_eq!(record["location"]["city"], "Hims");
    assert_eq!(corrections.len(), 1);
    assert_eq!(corrections[0].machine, json!("Homs"));
    assert_eq!(corrections[0].value, json!("Hims"));
    // The store's record is the machine's still.
    assert_eq!(
        archive.records_by_key(&[1]).expect("read")[0]["location"]["city"],
        "Homs"
    );
    let log = archive.review_log(&id).expect("log");
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].note, "the street sign says Hama");
    assert_eq!(log[0].kind, ReviewKind::Correction);
}

#[test]
fn every_correctable_field_applies_to_a_record_with_nothing_found() {
    // No place, no credit, no date: the fields the machine left empty.
    let dir = tempfile::tempdir().expect("tempdir");
    let (archive, ids) =
        crate::test_archive::with_captions(dir.path(), &["A portrait of the painter."]);
    let id = &ids[0];
    let machine = archive.records_by_key(&[1]).expect("read").remove(0);
    assert!(machine["location"].is_null(), "{machine}");
    let value_for = |field: &str| match field {
        "location.geonames_id" => json!(170_063),
        "location.latitude" | "location.longitude" => json!(35.1),
        "date_created" => json!("2014-05-04"),
        "credit.creators" | "credit.agencies" | "organizations" => json!(["X"]),
        "persons" => json!([]),
        "flags" => json!(["unverified"]),
        _ => json!("X"),
    };
    for field in crate::CORRECTABLE {
        archive
            .review(
                id,
                "Ana",
                ReviewAction::Correct {
                    field: field.to_string(),
                    value: value_for(field),
                },
                "",
            )
            .unwrap_or_else(|e| panic!("{field}: {e}"))
            .expect("record exists");
    }
    let mut record = machine.clone();
    let corrections = archive.apply_corrections(&mut record).expect("apply");
    assert_eq!(corrections.len(), crate::CORRECTABLE.len());
    for field in crate::CORRECTABLE {
        assert_eq!(
            super::at_path(&record, field),
            Some(&value_for(field)),
            "{field} shows the correction"
        );
    }
    // The location filled in holds every field of the contract.
    let location: caption::Location =
        serde_json::from_value(record["location"].clone()).expect("a location");
    assert_eq!(location.city.as_deref(), Some("X"));
    assert!(record["location"]
        .as_object()
        .expect("object")
        .contains_key("span"));
}

#[test]
fn bad_corrections_are_refused_with_reasons() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (archive, id, _) = archive(dir.path());
    let refuse = |field: &str, value: serde_json::Value, reviewer: &str| {
        let action = ReviewAction::Correct {
            field: field.into(),
            value,
        };
        archive
            .review(&id, reviewer, action, "")
            .expect_err("refused")
            .to_string()
    };
    assert!(refuse("text", json!("x"), "Ana").contains("not a correctable field"));
    assert!(refuse("credit.roles", json!("x"), "Ana").contains("not a correctable field"));
    assert!(refuse("location.city", json!(3), "Ana").contains("a string, not a number"));
    assert!(refuse("location.city", json!("x"), "  ").contains("reviewer"));
    assert!(archive
        .review("no-such-id", "Ana", ReviewAction::Note, "")
        .expect("no error")
        .is_none());
    assert!(archive.review_log(&id).expect("log").is_empty());
}

#[test]
fn states_and_the_queue_put_flagged_unreviewed_records_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (archive, first, second) = archive(dir.path());
    let queue = |limit| -> Vec<String> {
        let keys = archive.review_queue(limit).expect("queue");
        let records = archive.records_by_key(&keys).expect("records");
        records
            .iter()
            .map(|r| r["id"].as_str().expect("id").to_string())
            .collect()
    };
    // The file photo is flagged, so it leads.
    assert_eq!(queue(10), vec![second.clone(), first.clone()]);
    archive
        .review(
            &second,
            "Ana",
            ReviewAction::SetState(ReviewState::Checked),
            "ok",
        )
        .expect("review");
    assert_eq!(
        archive.review_state(&second).expect("state"),
        ReviewState::Checked
    );
    assert_eq!(queue(10), vec![first.clone()]);
    archive
        .review(
            &second,
            "Ana",
            ReviewAction::SetState(ReviewState::Unreviewed),
            "",
        )
        .expect("review");
    assert_eq!(queue(1), vec![second.clone()]);
    archive
        .review(&first, "Ana", ReviewAction::Note, "ask the desk")
        .expect("review");
    assert_eq!(
        archive.review_state(&first).expect("state"),
        ReviewState::Unreviewed
    );
    // A page's states read at once are each record's latest, in the order
    // asked, unknown ids unreviewed.
    archive
        .review(
            &first,
            "Ana",
            ReviewAction::SetState(ReviewState::Disputed),
            "",
        )
        .expect("review");
    let ids = [
        first.as_str(),
        second.as_str(),
        "no-such-id",
        first.as_str(),
    ];
    let one_by_one: Vec<ReviewState> = ids
        .iter()
        .map(|id| archive.review_state(id).expect("state"))
        .collect();
    assert_eq!(archive.review_states(&ids).expect("states"), one_by_one);
    assert_eq!(
        one_by_one,
        [
            ReviewState::Disputed,
            ReviewState::Unreviewed,
            ReviewState::Unreviewed,
            ReviewState::Disputed
        ]
    );
    assert!(archive.review_states(&[]).expect("states").is_empty());
}

#[test]
fn the_log_refuses_updates_and_deletes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (archive, id, _) = archive(dir.path());
    archive
        .review(&id, "Ana", ReviewAction::Note, "first")
        .expect("review");
    let conn = rusqlite::Connection::open(dir.path().join(crate::STORE_FILE)).expect("open");
    for sql in [
        "UPDATE review_log SET note = 'changed'",
        "DELETE FROM review_log",
    ] {
        let err = conn.execute(sql, []).expect_err("refused").to_string();
        assert!(err.contains("append-only"), "{err}");
    }
    assert_eq!(archive.review_log(&id).expect("log")[0].note, "first");
}

/// A reader beside brief writers, as a server indexes each correction: the
/// one-record segments are merged instead of piling up, the reader sees
/// each correction once refreshed, its facet counts (maps of unchanged
/// segments reused) are those of a handle opened afresh, and a refresh with
/// nothing committed keeps the searcher it has.
#[test]
fn brief_writers_keep_few_segments_and_readers_see_each_correction() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (writer, id, _) = archive(dir.path());
    drop(writer);
    let reader = Archive::open(dir.path(), crate::Mode::Read).expect("reader");
    let segments = || {
        reader
            .index
            .searchable_segment_ids()
            .expect("segments")
            .len()
    };
    let everything = crate::SearchQuery {
        limit: 5,
        facets: true,
        ..Default::default()
    };
    let before = segments();
    for i in 0..30 {
        let city = format!("Townsville {i}");
        let action = ReviewAction::Correct {
            field: "location.city".into(),
            value: json!(city),
        };
        reader.review(&id, "Ana", action, "").expect("review");
        Archive::catch_up_index(dir.path()).expect("catch up");
        reader.refresh().expect("refresh");
        let in_city = crate::SearchQuery {
            filters: crate::Filters {
                city: Some(city.clone()),
                ..Default::default()
            },
            limit: 5,
            facets: true,
            ..Default::default()
        };
        let found = reader.search(&in_city, None).expect("search");
        assert_eq!(found.total, 1, "correction {i} is searchable");
        let fresh = Archive::open(dir.path(), crate::Mode::Read).expect("fresh");
        for query in [&in_city, &everything] {
            assert_eq!(
                reader.search(query, None).expect("search").facets,
                fresh.search(query, None).expect("search").facets,
                "facets after correction {i}"
            );
        }
        assert!(
            segments() <= before + 8,
            "{} segments after {} corrections",
            segments(),
            i + 1
        );
    }
    let generation = reader.reader.searcher().generation().generation_id();
    reader.refresh().expect("refresh");
    assert_eq!(
        reader.reader.searcher().generation().generation_id(),
        generation,
        "nothing committed: no reload"
    );
}
