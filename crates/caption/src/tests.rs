//! Whole-record tests of `parse`: golden snapshots of every record for the
//! captions in `test_data/ok` (written for these tests), the project's demo
//! gallery and the shared seed galleries.
//!
//! A missing snapshot is written; `UPDATE_EXPECT=1` rewrites all of them.
//! Each span is rendered next to the text it covers so a reviewer can check
//! the evidence by eye. Seed snapshots keep fields and spans but leave out
//! the caption text (the seeds are not ours to copy).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{parse, segment};

fn empty_gazetteer() -> gazetteer::Gazetteer {
    gazetteer::Gazetteer::builder().build()
}

#[test]
fn text_is_whitespace_normalized_and_id_is_stable() {
    let g = empty_gazetteer();
    let a = parse("  A man  walks\n in a street. ", &g);
    let b = parse("A man walks in a street.", &g);
    assert_eq!(a.text, "A man walks in a street.");
    assert_eq!(a.id, b.id);
    assert_eq!(a.id.len(), 16);
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What the snapshot of one gallery shows.
#[derive(Clone, Copy, PartialEq)]
enum Render {
    /// Everything, with each span's covered text beside it.
    WithText,
    /// Fields and spans only: no caption text.
    WithoutText,
}

/// Parses every caption of a gallery and renders the records as a pretty
/// JSON array. Also checks that segmenting lost no non-blank text.
fn snapshot_of(gallery: &str, render: Render) -> String {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let captions = segment(gallery);
    let kept: usize = captions
        .iter()
        .map(|c| c.text(gallery).split_whitespace().count())
        .sum();
    assert_eq!(
        kept,
        gallery.split_whitespace().count(),
        "segmenting lost words"
    );
    let records: Vec<Value> = captions
        .iter()
        .map(|c| {
            let record = parse(&c.text(gallery), gazetteer);
            let mut value = serde_json::to_value(&record).expect("records serialize");
            let text = record.text.clone();
            match render {
                Render::WithText => annotate_spans(&mut value, &text),
                Render::WithoutText => strip_text(&mut value),
            }
            value
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&records).expect("json");
    out.push('\n');
    out
}

/// Adds `span_text` beside every `span`.
fn annotate_spans(value: &mut Value, text: &str) {
    match value {
        Value::Object(map) => {
            if let Some([start, end]) = map.get("span").and_then(Value::as_array).map(Vec::as_slice)
            {
                let (start, end) = (
                    start.as_u64().unwrap_or(0) as usize,
                    end.as_u64().unwrap_or(0) as usize,
                );
                let covered = text
                    .get(start..end)
                    .expect("spans lie on char boundaries inside text");
                map.insert("span_text".into(), Value::String(covered.into()));
            }
            map.values_mut().for_each(|v| annotate_spans(v, text));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| annotate_spans(v, text)),
        _ => {}
    }
}

/// Removes every field that copies caption text.
fn strip_text(value: &mut Value) {
    if let Value::Object(map) = value {
        for key in ["text", "description", "raw"] {
            map.remove(key);
        }
        map.values_mut().for_each(strip_text);
    } else if let Value::Array(items) = value {
        items.iter_mut().for_each(strip_text);
    }
}

/// Compares with (or writes) the snapshot file.
fn check_snapshot(actual: &str, path: &Path) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    match std::fs::read_to_string(path) {
        Ok(expected) if !update => {
            if expected != actual {
                let diff_at = expected
                    .lines()
                    .zip(actual.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "snapshot {} differs at line {} (rerun with UPDATE_EXPECT=1 to accept):\n  expected: {}\n  actual:   {}",
                    path.display(),
                    diff_at + 1,
                    expected.lines().nth(diff_at).unwrap_or(""),
                    actual.lines().nth(diff_at).unwrap_or("")
                );
            }
        }
        _ => std::fs::write(path, actual).expect("write snapshot"),
    }
}

#[test]
fn golden_own_captions() {
    let dir = manifest_dir().join("test_data/ok");
    let mut galleries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("test_data/ok")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    galleries.sort();
    assert!(!galleries.is_empty());
    for gallery in galleries {
        let text = std::fs::read_to_string(&gallery).expect("gallery");
        check_snapshot(
            &snapshot_of(&text, Render::WithText),
            &gallery.with_extension("json"),
        );
    }
}

#[test]
fn golden_demo_gallery() {
    let demo = manifest_dir().join("../../demo/gallery.txt");
    let text = std::fs::read_to_string(demo).expect("demo gallery");
    check_snapshot(
        &snapshot_of(&text, Render::WithText),
        &manifest_dir().join("test_data/demo_gallery.json"),
    );
}

#[test]
fn golden_seed_galleries() {
    let seeds = manifest_dir().join("../../../shared/seeds");
    let Ok(entries) = std::fs::read_dir(&seeds) else {
        eprintln!("skipping: ../shared/seeds is not beside this checkout");
        return;
    };
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    for file in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
    {
        let text = std::fs::read_to_string(file).expect("seed gallery");
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("seed");
        check_snapshot(
            &snapshot_of(&text, Render::WithoutText),
            &manifest_dir().join(format!("test_data/seeds/{name}.json")),
        );
    }
}

/// Inputs that once crashed the fuzzer stay fixed: each parses, and every
/// span lies inside `text` on char boundaries.
#[test]
fn fuzz_failures_parse_cleanly() {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let dir = manifest_dir().join("test_data/fuzz-failures");
    for entry in std::fs::read_dir(dir)
        .expect("fuzz-failures")
        .filter_map(Result::ok)
    {
        let bytes = std::fs::read(entry.path()).expect("read");
        let input = String::from_utf8_lossy(&bytes);
        for caption in segment(&input) {
            let record = parse(&caption.text(&input), gazetteer);
            let value = serde_json::to_value(&record).expect("serialize");
            let mut copy = value.clone();
            annotate_spans(&mut copy, &record.text);
        }
    }
}

/// Namesakes are told apart by the caption's own context (issue 2): a
/// country or province named, else the most populous.
#[test]
fn namesakes_resolve_by_context() {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let located = |caption: &str| {
        let location = parse(caption, gazetteer).location.expect("located");
        (location.geonames_id, location.country_code)
    };
    assert_eq!(
        located("Boys swim off the corniche in Tripoli, Lebanon, May 2, 2019."),
        (Some(266_826), Some("LB".into()))
    );
    assert_eq!(
        located("Militiamen guard a street in Tripoli, Libya, May 2, 2019."),
        (Some(2_210_247), Some("LY".into()))
    );
    assert_eq!(
        located("Women shop at a market in Homs on May 2, 2019."),
        (Some(169_577), Some("SY".into()))
    );
}

/// `City, Division` that the gazetteer confirms reads the division, over
/// a country or a town of the same name; a pair it does not confirm keeps
/// the other reading.
#[test]
fn a_division_after_its_city() {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let located = |caption: &str| {
        let location = parse(caption, gazetteer).location.expect("located");
        (location.city, location.province_code, location.country_code)
    };
    let place = |city: &str, province: &str, country: &str| {
        (
            Some(city.to_string()),
            Some(province.to_string()),
            Some(country.to_string()),
        )
    };
    for (caption, expected) in [
        (
            "Fans queue outside a stadium in Augusta, Georgia, on April 12, 2024.",
            place("Augusta", "US.GA", "US"),
        ),
        (
            "Surfers wait for waves in Palm Beach, Florida, on March 3, 2024.",
            place("Palm Beach", "US.FL", "US"),
        ),
        (
            "Neon signs glow in Las Vegas, Nevada, on May 2, 2024.",
            place("Las Vegas", "US.NV", "US"),
        ),
        (
            "PORTLAND, MAINE - JANUARY 13: Waves hit the pier.",
            place("Portland", "US.ME", "US"),
        ),
        (
            "Tourists walk past the Capitol in Washington, DC, on July 4, 2024.",
            place("Washington", "US.DC", "US"),
        ),
        (
            "Boats moor in the harbour of Batumi, Georgia, on June 1, 2024.",
            place("Batumi", "GE.04", "GE"),
        ),
    ] {
        assert_eq!(located(caption), expected, "{caption}");
    }
}

/// A settlement head before `of` is no person ("the Old City of Mosul" is
/// not "Usain Bolt of Jamaica"), and a release verb releases only an image.
#[test]
fn old_city_of_and_distributed_aid() {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let record = parse(
        "A man walks through the Old City of Damascus, Syria, March 6, 2021.",
        gazetteer,
    );
    assert_eq!(record.location.and_then(|l| l.geonames_id), Some(170_654));
    let record = parse(
        "Women queue for flour distributed by a charity in Aden, Yemen, July 10, 2016.",
        gazetteer,
    );
    assert_eq!(
        record.date_created.map(|d| d.to_string()).as_deref(),
        Some("2016-07-10")
    );
}

/// A city before a possessive and a named facility, district or common
/// place noun is the scene (`in Kabul's main market`); a possessive before
/// a person or a title is not.
#[test]
fn a_possessive_city_with_its_facility() {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let city = |caption: &str| parse(caption, gazetteer).location.and_then(|l| l.city);
    for (caption, expected) in [
        (
            "Shoppers crowd Kabul's main market on May 3, 2021.",
            "Kabul",
        ),
        (
            "Protesters march across Kyiv's Independence Square on March 1, 2022.",
            "Kyiv",
        ),
        (
            "Fishermen land their catch on Lagos's lagoon waterfront on June 2, 2023.",
            "Lagos",
        ),
        (
            "Fans fill Manchester's football stadium on May 3, 2021.",
            "Manchester",
        ),
    ] {
        assert_eq!(city(caption).as_deref(), Some(expected), "{caption}");
    }
    for caption in [
        "Iran's supreme leader speaks to students on May 3, 2021.",
        "Kenya's Eliud Kipchoge crosses the line on May 3, 2021.",
    ] {
        assert_eq!(city(caption), None, "{caption}");
    }
}

#[test]
fn a_college_or_an_academy_is_a_sublocation_not_a_town() {
    let gazetteer = gazetteer::Gazetteer::embedded();
    for (caption, sublocation) in [
        (
            "Cadets march at the Lagos Police College in Lagos, Nigeria, May 3, 2021.",
            "Lagos Police College",
        ),
        (
            "Pupils sit an exam at the Nairobi Music Academy in Nairobi, Kenya, June 2, 2023.",
            "Nairobi Music Academy",
        ),
    ] {
        let location = parse(caption, gazetteer).location.expect("location");
        assert_eq!(
            location.sublocation.as_deref(),
            Some(sublocation),
            "{caption}"
        );
        assert_ne!(location.city.as_deref(), Some(sublocation), "{caption}");
    }
}

/// A dash between the description and its credit is a separator: a date
/// that closes the description before it is still a sentence of its own,
/// the date taken.
#[test]
fn a_dash_before_the_credit_leaves_the_closing_date_taken() {
    let gazetteer = gazetteer::Gazetteer::embedded();
    for caption in [
        "Smoke rises over a market in Lowtown, Freedonia. July 22, 2020 - Copyright Jane Doe/AP Photo",
        "Smoke rises over a market in Lowtown, Freedonia. July 22, 2020 \u{2014} Jane Doe/AP Photo",
    ] {
        let record = parse(caption, gazetteer);
        assert_eq!(
            record.date_created.map(|d| d.to_string()).as_deref(),
            Some("2020-07-22"),
            "{caption}"
        );
    }
}
