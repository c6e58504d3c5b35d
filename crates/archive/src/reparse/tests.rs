//! Reparse: the engine's new values replace the machine's, field by field
//! counted; corrections stay on top; the index follows; the archive checks.

use serde_json::json;

use crate::{Archive, Filters, ReviewAction, SearchQuery};

const TEXTS: &[&str] = &[
    "A man rides a bicycle past shuttered shops in Homs, Syria, May 4, 2014. REUTERS/Lina Haddad",
    "A man rides his bicycle past the shuttered shops in Homs, Syria, May 4, 2014. REUTERS/Lina Haddad",
    "FILE PHOTO: Fishermen mend nets on the shore in Tyre, Lebanon. (AP Photo/Karim Mansour)",
];

fn archive(dir: &std::path::Path) -> (Archive, Vec<String>) {
    crate::test_archive::with_captions(dir, TEXTS)
}

fn by_city(archive: &Archive, city: &str) -> usize {
    let query = SearchQuery {
        text: None,
        filters: Filters {
            city: Some(city.into()),
            ..Filters::default()
        },
        limit: 10,
        facets: false,
    };
    archive
        .search(&query, Some(gazetteer::Gazetteer::embedded()))
        .expect("search")
        .total
}

#[test]
fn the_same_engine_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut archive, _) = archive(dir.path());
    let gazetteer = gazetteer::Gazetteer::embedded();
    let report = archive
        .reparse(|text, _| caption::parse(text, gazetteer))
        .expect("reparse");
    assert_eq!(report.variants, 3);
    assert_eq!(report.variants_changed, 0, "{report:?}");
    assert!(report.fields.is_empty());
    assert!(archive.check().expect("check").is_ok());
}

#[test]
fn new_values_are_counted_indexed_and_corrections_stay_on_top() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut archive, ids) = archive(dir.path());
    let homs = &ids[0];
    // A reviewer corrected the creator of the Homs record.
    archive
        .review(
            homs,
            "Ana",
            ReviewAction::Correct {
                field: "credit.creators".into(),
                value: json!(["L. Haddad"]),
            },
            "",
        )
        .expect("review")
        .expect("record");
    assert_eq!(by_city(&archive, "Homs"), 1);
    let gazetteer = gazetteer::Gazetteer::embedded();
    // An engine that now reads Homs captions as taken in Hama, and the
    // creator differently: both variants of the Homs record change.
    let report = archive
        .reparse(|text, _| {
            let mut record = caption::parse(&text.replace("Homs", "Hama"), gazetteer);
            record.text = text.to_string();
            if let Some(first) = record.credit.creators.first_mut() {
                *first = first.to_uppercase();
            }
            record
        })
        .expect("reparse");
    assert_eq!(report.variants, 3);
    assert_eq!(
        report.variants_changed, 3,
        "every creator is upper-cased: {report:?}"
    );
    assert_eq!(report.records_changed, 2);
    assert_eq!(report.fields.get("location.city"), Some(&2), "{report:?}");
    assert_eq!(report.fields.get("credit.creators"), Some(&3));
    assert_eq!(report.corrected_records, 1);
    assert_eq!(report.corrections_over_changed_values, 1);

    // The index follows the store.
    assert_eq!(by_city(&archive, "Homs"), 0);
    assert_eq!(by_city(&archive, "Hama"), 1);
    // Ids kept; the machine's new values shown, the correction on top.
    let details = archive
        .record_details(homs)
        .expect("details")
        .expect("record");
    assert_eq!(details["id"], homs.as_str());
    let mut record = details["record"].clone();
    record["id"] = json!(homs);
    let hama = caption::parse(&TEXTS[0].replace("Homs", "Hama"), gazetteer);
    let hama = hama.location.and_then(|l| l.city).expect("Hama is a city");
    assert_eq!(record["location"]["city"], hama.as_str());
    let corrections = archive.apply_corrections(&mut record).expect("apply");
    assert_eq!(record["credit"]["creators"], json!(["L. Haddad"]));
    assert_eq!(corrections[0].machine, json!(["LINA HADDAD"]));
    assert!(
        archive.check().expect("check").is_ok(),
        "{:?}",
        archive.check()
    );
    // The review log is untouched.
    assert_eq!(archive.review_log(homs).expect("log").len(), 1);
}
