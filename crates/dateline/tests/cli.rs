//! The `parse` command end to end: record shape, order, `--unique`,
//! `--threads`, and bad input.

use crate::util::{dateline, records, scratch};

const GALLERY: &str = include_str!("../../../demo/gallery.txt");

/// Every field RECORD.md names, present in every record.
const FIELDS: &[&str] = &[
    "id",
    "text",
    "description",
    "credit",
    "date_created",
    "dates",
    "location",
    "persons",
    "organizations",
    "flags",
];

#[test]
fn every_record_has_every_field() {
    let output = dateline(&["parse"], GALLERY.as_bytes());
    assert!(output.status.success());
    let records = records(&output);
    assert_eq!(records.len(), 15);
    for record in &records {
        for field in FIELDS {
            assert!(record.get(field).is_some(), "missing {field} in {record}");
        }
        for field in ["raw", "creators", "agencies", "source"] {
            assert!(
                record["credit"].get(field).is_some(),
                "missing credit.{field}"
            );
        }
    }
}

#[test]
fn unique_merges_exact_repeats_and_keeps_order() {
    let all = records(&dateline(&["parse"], GALLERY.as_bytes()));
    let unique = records(&dateline(&["parse", "--unique"], GALLERY.as_bytes()));
    assert_eq!(unique.len(), all.len() - 1);
    // First occurrences in input order (issue 10): a cut-short copy with no
    // full version stays where it first appeared.
    let mut seen = std::collections::HashSet::new();
    let expected: Vec<_> = all
        .iter()
        .filter(|r| seen.insert(r["id"].clone()))
        .collect();
    assert_eq!(unique.iter().collect::<Vec<_>>(), expected);
}

#[test]
fn unique_merges_a_cut_short_copy_into_its_full_version() {
    let page = "Image 1 of 2\nNext\nFamilies queue for water at a camp in Karsa, Freedonia, February 11,…\n\n\
                Families queue for water at a camp in Karsa, Freedonia, February 11, 2020. REUTERS/Jane Doe\nClose\n1 / 2\n";
    let unique = records(&dateline(&["parse", "--unique"], page.as_bytes()));
    assert_eq!(unique.len(), 1);
    assert!(unique[0]["text"]
        .as_str()
        .unwrap_or("")
        .ends_with("REUTERS/Jane Doe"));
    let all = records(&dateline(&["parse"], page.as_bytes()));
    assert_eq!(all.len(), 2);
}

#[test]
fn unique_merges_an_uncredited_teaser_into_its_credited_caption() {
    // A gallery's thumbnail strip repeats each caption without its credit,
    // one before and one after the full captions; a caption that only
    // starts like another ("A ferry waits..." / "A ferry crosses...") is a
    // picture of its own: a copy's whole text must open the credited one.
    let page = "Lanterns float on the river at dusk in Hoi An, Vietnam, on May 1, 2024.\n\n\
                Lanterns float on the river at dusk in Hoi An, Vietnam, on May 1, 2024. (Image credit: Mai Tran/AFP)\n\n\
                A ferry crosses the bay at dawn near Halong, Vietnam, on May 2, 2024. (Image credit: Minh Le/EPA)\n\n\
                A ferry crosses the bay at dawn near Halong, Vietnam, on May 2, 2024.\n\n\
                A ferry waits at the pier in Cat Ba, Vietnam, on May 2, 2024, without passengers.\n";
    let unique = records(&dateline(&["parse", "--unique"], page.as_bytes()));
    let texts: Vec<&str> = unique
        .iter()
        .map(|r| r["text"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(texts[0].ends_with("Mai Tran/AFP)"), "{texts:?}");
    assert!(texts[1].ends_with("Minh Le/EPA)"), "{texts:?}");
    assert!(texts[2].starts_with("A ferry waits"), "{texts:?}");
    // Without `--unique` each copy is a record of its own.
    let all = records(&dateline(&["parse"], page.as_bytes()));
    assert_eq!(all.len(), 5);
}

#[test]
fn threads_do_not_change_the_output() {
    let big = vec![GALLERY; 300].join("\n\n");
    let one = dateline(&["parse", "--threads", "1"], big.as_bytes());
    let four = dateline(&["parse", "--threads", "4"], big.as_bytes());
    assert!(one.status.success() && four.status.success());
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(records(&one).len(), 15 * 300);
}

#[test]
fn files_are_read_in_order_and_stdin_when_none() {
    let dir = scratch("cli_files");
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    std::fs::write(
        &a,
        "First caption: boats in the harbour of Beirut, Lebanon, May 2, 2016. REUTERS/Jane Doe\n",
    )
    .expect("write");
    std::fs::write(
        &b,
        "Second caption: a street market in Homs, Syria, May 3, 2016. REUTERS/Ana Ruiz\n",
    )
    .expect("write");
    let output = dateline(
        &[
            "parse",
            b.to_str().expect("utf-8 path"),
            a.to_str().expect("utf-8 path"),
        ],
        b"",
    );
    let texts: Vec<_> = records(&output)
        .iter()
        .map(|r| r["text"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        texts,
        [
            "Second caption: a street market in Homs, Syria, May 3, 2016. REUTERS/Ana Ruiz",
            "First caption: boats in the harbour of Beirut, Lebanon, May 2, 2016. REUTERS/Jane Doe"
        ]
    );
}

#[test]
fn empty_input_gives_no_records_and_success() {
    let output = dateline(&["parse"], b"");
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
}

#[test]
fn invalid_utf8_is_kept_with_a_located_warning() {
    let dir = scratch("cli_utf8");
    let file = dir.join("latin1.txt");
    std::fs::write(
        &file,
        b"Men rest in a caf\xe9 in Beirut, Lebanon, May 2, 2016. REUTERS/Jane Doe\n",
    )
    .expect("write");
    let output = dateline(&["parse", file.to_str().expect("utf-8 path")], b"");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("latin1.txt") && stderr.contains("byte offset 17"),
        "{stderr}"
    );
    let records = records(&output);
    assert_eq!(records.len(), 1);
    assert!(records[0]["text"]
        .as_str()
        .unwrap_or("")
        .contains("caf\u{FFFD}"));
}

#[test]
fn binary_input_is_refused_but_other_files_still_parse() {
    let dir = scratch("cli_binary");
    // A PNG: an image dateline does not read captions from.
    let image = dir.join("photo.png");
    std::fs::write(
        &image,
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10",
    )
    .expect("write");
    let text = dir.join("captions.txt");
    std::fs::write(
        &text,
        "Boats in the harbour of Tartus, Syria, May 2, 2016. REUTERS/Jane Doe\n",
    )
    .expect("write");
    let output = dateline(
        &[
            "parse",
            image.to_str().expect("utf-8 path"),
            text.to_str().expect("utf-8 path"),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("photo.png") && stderr.contains("not text"),
        "{stderr}"
    );
    assert_eq!(records(&output).len(), 1);
}

#[test]
fn huge_line_and_long_caption_do_not_break_parsing() {
    let long_caption =
        "Smoke rises over the hills near Homs, Syria. ".repeat(1_400) + "REUTERS/Jane Doe"; // ~60 KB
    let output = dateline(&["parse"], long_caption.as_bytes());
    assert!(output.status.success());
    assert_eq!(records(&output).len(), 1);

    let huge_line = "word ".repeat(6 * 1024 * 1024); // 30 MB, no newline
    let output = dateline(&["parse", "--threads", "2"], huge_line.as_bytes());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let total: usize = records(&output)
        .iter()
        .map(|r| r["text"].as_str().unwrap_or("").len())
        .sum();
    assert!(total >= huge_line.trim_end().len() - records(&output).len());
}

#[test]
fn seed_galleries_give_24_occurrences_and_19_unique_records() {
    let Some(shared) = crate::util::shared_dir() else {
        return;
    };
    let mut seeds: Vec<String> = std::fs::read_dir(shared.join("seeds"))
        .expect("seeds")
        .filter_map(|e| e.ok().map(|e| e.path().display().to_string()))
        .filter(|p| p.ends_with(".txt"))
        .collect();
    seeds.sort();
    let args: Vec<&str> = seeds.iter().map(String::as_str).collect();
    let all = dateline(&[&["parse"][..], &args].concat(), b"");
    let unique = dateline(&[&["parse", "--unique"][..], &args].concat(), b"");
    assert_eq!(records(&all).len(), 24);
    assert_eq!(records(&unique).len(), 19);
}

#[test]
fn gazetteer_dir_loads_geonames_dump_files() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../gazetteer/tests/data/geonames"
    );
    let output = dateline(
        &["parse", "--gazetteer", dir],
        b"Men queue for bread in Raqqa, Syria, May 2, 2016. REUTERS/Jane Doe\n",
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let records = records(&output);
    assert_eq!(records[0]["location"]["geonames_id"], 172955);
    assert_eq!(records[0]["location"]["province_code"], "SY.04");

    let missing = dateline(&["parse", "--gazetteer", "/nonexistent/geonames"], b"");
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/geonames"));
}

#[test]
fn explain_shows_why_this_place() {
    // London, with the credit's agency in another country: the candidates
    // are listed best first with their scores and what decided between the
    // first two, and the agency's country does not pull the place abroad.
    let caption = "Fans gather outside a stadium in London, June 1, 2024. Jane Roe/Sipa USA\n";
    let output = dateline(&["parse", "--explain"], caption.as_bytes());
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(text.contains("place mention \"London\""), "{text}");
    let best = text
        .lines()
        .find(|l| l.trim_start().starts_with('*'))
        .expect("a chosen candidate");
    assert!(best.contains("(GB GB.ENG"), "{best}");
    assert!(best.contains("ahead by log_population"), "{best}");
}
