//! The archive commands end to end: ingest (idempotent, clustered), search
//! with filters and facets, show, export, check and reindex.

use std::path::{Path, PathBuf};

use crate::util::{dateline, scratch};

/// Invented wire captions: two photos of one scene, a corrected copy, a cut
/// copy, places in several spellings, a file photo.
const WIRE: &str = "\
A vendor arranges oranges at a stall in the old market of Homs, Syria, April 4, 2016. REUTERS/Lina Haddad

Members of a volunteer crew clear debris from a street in Raqqa, Syria, October 20, 2017. REUTERS/Samir Khoury

A boy rides a bicycle past damaged buildings in the rebel-held Douma neighbourhood of Damascus, Syria, May 3, 2016. (AP Photo/Karim Mansour)

A vendor arranges oranges at a stall in the old market of Homs, Syria, April 14, 2016. Prices of fresh fruit have tripled since the siege began. REUTERS/Lina Haddad

A man carries a wounded child past damaged buildings in the rebel-held Douma neighbourhood of Damascus, Syria, May 3, 2016. (AP Photo/Karim Mansour)

FILE - Fishermen mend their nets at dawn in the port of Latakia, Syria, June 12, 2014. (AP Photo/Karim Mansour)

Members of a volunteer crew clear debris from a street in Raqqa, Syria, October 20...more
";

fn archive_args(dir: &Path) -> Vec<String> {
    vec!["--archive".into(), dir.display().to_string()]
}

/// Runs a command with `--archive dir` appended; asserts it succeeded.
fn run_ok(args: &[&str], dir: &Path) -> String {
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(archive_args(dir));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let output = dateline(&refs, b"");
    assert!(
        output.status.success(),
        "dateline {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

fn search_json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["search", "--json", "--facets"];
    all.extend_from_slice(args);
    serde_json::from_str(&run_ok(&all, dir)).expect("search --json prints JSON")
}

fn total(v: &serde_json::Value) -> u64 {
    v["total"].as_u64().expect("a total")
}

fn wire_archive(name: &str) -> (PathBuf, PathBuf) {
    let root = scratch(name);
    let file = root.join("wire.txt");
    std::fs::write(&file, WIRE).expect("write the fixture");
    let dir = root.join("archive");
    let out = run_ok(&["ingest", file.to_str().expect("UTF-8 path")], &dir);
    assert!(out.contains("7 occurrence(s)"), "{out}");
    (root, dir)
}

#[test]
fn seeds_give_19_records_from_24_occurrences_once() {
    let Some(shared) = crate::util::shared_dir() else {
        assert!(
            std::env::var("CI").is_err(),
            "../shared/seeds is required in CI"
        );
        return;
    };
    let seeds = shared.join("seeds");
    let dir = scratch("archive-seeds").join("archive");
    let out = run_ok(&["ingest", seeds.to_str().expect("UTF-8 path")], &dir);
    assert!(
        out.contains("holds 19 record(s)") && out.contains("24 occurrence(s) from 3 document(s)"),
        "{out}"
    );
    // The same documents again add nothing, and say so.
    let mut args = vec!["ingest".to_string(), seeds.display().to_string()];
    args.extend(archive_args(&dir));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let again = dateline(&refs, b"");
    assert!(again.status.success());
    let stdout = String::from_utf8_lossy(&again.stdout);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stdout.contains("ingested 0 document(s), 3 already"),
        "{stdout}"
    );
    assert!(stdout.contains("holds 19 record(s)"), "{stdout}");
    assert_eq!(
        stderr.matches("already in the archive").count(),
        3,
        "{stderr}"
    );
    assert!(run_ok(&["check"], &dir).ends_with("ok\n"));
}

#[test]
fn ingest_clusters_search_filters_and_facets() {
    let (root, dir) = wire_archive("archive-search");
    // 7 occurrences: the corrected-and-extended market caption and the cut
    // Raqqa copy join their photos; the two Douma scenes stay apart.
    let all = search_json(&dir, &["--limit", "50"]);
    assert_eq!(total(&all), 5, "{all}");

    // Stdin is a document like any other, and idempotent too.
    let mut args = vec!["ingest".to_string(), "-".to_string()];
    args.extend(archive_args(&dir));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let again = dateline(&refs, WIRE.as_bytes());
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("ingested 0 document(s), 1 already"));

    // Full text with snippets, ranked, every word required.
    let found = search_json(&dir, &["oranges"]);
    assert_eq!(total(&found), 1);
    let hit = &found["hits"][0];
    assert_eq!(hit["record"]["archive"]["variants"], 2);
    assert!(hit["snippet"]
        .as_str()
        .expect("a snippet")
        .contains("oranges"));
    assert!(!hit["highlights"].as_array().expect("highlights").is_empty());
    // The longer, corrected version represents the photo.
    assert!(hit["record"]["description"]
        .as_str()
        .expect("description")
        .contains("tripled"));

    // Filters.
    assert_eq!(total(&search_json(&dir, &["--agency", "AP"])), 3);
    assert_eq!(total(&search_json(&dir, &["--creator", "Mansour"])), 3);
    assert_eq!(
        total(&search_json(&dir, &["--creator", "karim mansour", "child"])),
        1
    );
    assert_eq!(
        total(&search_json(&dir, &["--from", "2016-05", "--to", "2016"])),
        2
    );
    assert_eq!(total(&search_json(&dir, &["--from", "2017"])), 1);
    assert_eq!(total(&search_json(&dir, &["--flag", "file_photo"])), 1);
    assert_eq!(total(&search_json(&dir, &["--country", "SY"])), 5);
    assert_eq!(total(&search_json(&dir, &["--country", "Syria"])), 5);
    // Within 50 km of Homs: the market only.
    assert_eq!(total(&search_json(&dir, &["--near", "34.73,36.72,50"])), 1);
    assert_eq!(total(&search_json(&dir, &["--near", "34.73,36.72,500"])), 5);

    // A place filter matches every spelling: Raqa finds Raqqa.
    let raqa = search_json(&dir, &["--city", "Raqa"]);
    assert_eq!(total(&raqa), 1, "{raqa}");
    assert_eq!(raqa["hits"][0]["record"]["archive"]["occurrences"], 2);

    // Facets over all matching records.
    let facets = &all["facets"];
    let count_of = |dim: &str, value: &str| {
        facets[dim]
            .as_array()
            .expect("a facet list")
            .iter()
            .find(|v| v["value"] == value)
            .map_or(0, |v| v["count"].as_u64().unwrap_or(0))
    };
    assert_eq!(count_of("agency", "AP"), 3);
    assert_eq!(count_of("agency", "Reuters"), 2);
    assert_eq!(count_of("year", "2016"), 3);
    assert_eq!(count_of("flag", "file_photo"), 1);

    // Stable order: the same query twice gives the same ids.
    let ids = |v: &serde_json::Value| -> Vec<String> {
        v["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .map(|h| h["id"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(
        ids(&search_json(&dir, &["syria"])),
        ids(&search_json(&dir, &["syria"]))
    );

    // show: the record with both variants and every occurrence.
    let id = hit["id"].as_str().expect("an id");
    let shown = run_ok(&["show", id], &dir);
    assert!(
        shown.contains("2 variant(s)") && shown.contains("2 occurrence(s)"),
        "{shown}"
    );

    // export: JSON Lines, CSV (IPTC columns), GeoJSON.
    let jsonl = run_ok(&["export", "--format", "jsonl"], &dir);
    assert_eq!(jsonl.lines().count(), 5);
    let csv = run_ok(&["export", "--format", "csv", "--agency", "Reuters"], &dir);
    assert!(csv.starts_with("id,Description,Creator,"));
    assert_eq!(csv.lines().count(), 3, "{csv}");
    let geojson: serde_json::Value =
        serde_json::from_str(&run_ok(&["export", "--format", "geojson"], &dir)).expect("GeoJSON");
    assert_eq!(geojson["features"].as_array().map(Vec::len), Some(5));
    // One sidecar per record (ExifTool reads them: tests/photos.rs).
    let sidecars = root.join("sidecars");
    let sidecars_arg = sidecars.to_str().expect("UTF-8 path");
    run_ok(&["export", "--format", "xmp", "--out", sidecars_arg], &dir);
    let written: Vec<String> = std::fs::read_dir(&sidecars)
        .expect("sidecar dir")
        .filter_map(Result::ok)
        .map(|e| std::fs::read_to_string(e.path()).expect("sidecar"))
        .collect();
    assert_eq!(written.len(), 5);
    assert!(written.iter().all(|x| x.contains("<dc:description>")));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn check_catches_a_tampered_store_and_reindex_repairs_the_index() {
    let (root, dir) = wire_archive("archive-check");
    assert!(run_ok(&["check"], &dir).ends_with("ok\n"));

    // An index thrown away is rebuilt from the store, with a message.
    std::fs::remove_dir_all(dir.join("index")).expect("remove the index");
    std::fs::create_dir_all(dir.join("index")).expect("an empty index dir");
    let mut args = vec!["check", "--archive", dir.to_str().expect("UTF-8 path")];
    let rebuilt = dateline(&args, b"");
    assert!(rebuilt.status.success());
    assert!(String::from_utf8_lossy(&rebuilt.stderr).contains("rebuilding it from the store"));
    assert!(run_ok(&["reindex"], &dir).contains("reindexed 5 record(s)"));
    assert!(run_ok(&["check"], &dir).ends_with("ok\n"));

    // A record deleted behind the archive's back: check fails.
    {
        let conn = rusqlite::Connection::open(dir.join("archive.sqlite3")).expect("open the store");
        conn.execute_batch(
            "PRAGMA foreign_keys = OFF;
             DELETE FROM records WHERE key = (SELECT min(key) FROM records);",
        )
        .expect("tamper");
    }
    args = vec!["check", "--archive", dir.to_str().expect("UTF-8 path")];
    let tampered = dateline(&args, b"");
    assert_eq!(tampered.status.code(), Some(1));
    let report = String::from_utf8_lossy(&tampered.stdout);
    assert!(report.contains("problem:"), "{report}");

    // A folder that is not an archive is refused, and left alone.
    let not_archive = root.join("notes");
    std::fs::create_dir_all(&not_archive).expect("a folder");
    std::fs::write(not_archive.join("todo.txt"), "buy milk").expect("a file");
    let file = root.join("wire.txt");
    let refused = dateline(
        &[
            "ingest",
            file.to_str().expect("UTF-8 path"),
            "--archive",
            not_archive.to_str().expect("UTF-8 path"),
        ],
        b"",
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a dateline archive"));
    assert_eq!(
        std::fs::read_dir(&not_archive)
            .expect("still there")
            .count(),
        1
    );
    let _ = std::fs::remove_dir_all(root);
}
