//! Our own scraped gallery pages, one real-site layout each (written for
//! these tests): `parse --unique` must recover the captions each page's
//! `.gold.jsonl` lists (the shared scorer's pages format). The segmenter is
//! a fitted model, so the bar is a score, not an exact match: every page at
//! least [`MIN_PAGE_F1`], all pages together at least [`MIN_TOTAL_F1`].

use std::collections::BTreeSet;
use std::path::Path;

use crate::util::{dateline, records, records_of_success};

/// The least F1 of distinct captions on any one page (the weakest today,
/// credits after a blank line in parentheses, is at 0.70).
const MIN_PAGE_F1: f64 = 0.65;
/// The least F1 over every page's captions together (0.967 today).
const MIN_TOTAL_F1: f64 = 0.95;

#[test]
fn own_gallery_pages_give_their_captions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pages");
    let (mut hits, mut n_found, mut n_gold) = (0, 0, 0);
    let mut report = String::new();
    let mut weak = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("pages dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    for page in &paths {
        let gold = std::fs::read_to_string(page.with_extension("gold.jsonl"))
            .expect("gold file beside each page");
        let expected: BTreeSet<String> = gold
            .lines()
            .map(|line| {
                let value: serde_json::Value = serde_json::from_str(line).expect("gold line");
                value["text"].as_str().expect("text").to_string()
            })
            .collect();
        let output = dateline(&["parse", "--unique", page.to_str().expect("utf-8")], b"");
        assert!(output.status.success());
        let found: BTreeSet<String> = records(&output)
            .iter()
            .map(|r| r["text"].as_str().expect("text").to_string())
            .collect();
        let page_hits = expected.intersection(&found).count();
        let f1 = 2.0 * page_hits as f64 / (expected.len() + found.len()).max(1) as f64;
        hits += page_hits;
        n_found += found.len();
        n_gold += expected.len();
        let missing: Vec<_> = expected.difference(&found).collect();
        let extra: Vec<_> = found.difference(&expected).collect();
        report.push_str(&format!(
            "{}: F1 {f1:.3}\n  missing {missing:#?}\n  extra {extra:#?}\n",
            page.display()
        ));
        if f1 < MIN_PAGE_F1 {
            weak.push(page.display().to_string());
        }
    }
    assert!(paths.len() >= 14, "the fixtures are there");
    let total = 2.0 * hits as f64 / (n_found + n_gold).max(1) as f64;
    eprintln!("{report}total F1 {total:.3}");
    assert!(
        weak.is_empty(),
        "pages below {MIN_PAGE_F1}: {weak:?}\n{report}"
    );
    assert!(
        total >= MIN_TOTAL_F1,
        "total F1 {total:.3} below {MIN_TOTAL_F1}\n{report}"
    );
}

/// A saved HTML page, recognised by its content whatever its name: one
/// record per picture, with its image URL, and the fields its JSON-LD
/// states merged in (the page wins; a clash is reported).
#[test]
fn html_pages_give_one_record_per_picture() {
    let page = r#"<!DOCTYPE html>
<html><head><title>Harbour pictures</title>
<meta property="og:description" content="Scenes from the harbours of Lebanon">
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "ImageObject",
 "contentUrl": "https://example.org/p/2.jpg",
 "caption": "Boats wait at anchor off Tyre, Lebanon, April 9, 2024.",
 "creditText": "Lina Saab/AFP", "dateCreated": "2024-04-08",
 "contentLocation": {"@type": "Place", "name": "Tyre, Lebanon"}}
</script>
<style>figure { margin: 0 }</style></head>
<body><nav><a href="/">Home</a> <a href="/world">World</a></nav>
<figure><img src="https://example.org/p/1.jpg" alt="Boats in a harbour at dawn">
<figcaption>A fisherman repairs his net at the harbour of Byblos, Lebanon,
April 10, 2024. <span class="credit">Karim Haddad/Reuters</span></figcaption></figure>
<script>var caption = "not a caption";</script>
</body></html>"#;
    let dir = crate::util::scratch("html-page");
    let path = dir.join("saved-page.txt");
    std::fs::write(&path, page).expect("write page");
    let found = records_of_success(&dateline(&["parse", path.to_str().expect("utf-8")], b""));
    let texts: Vec<&str> = found
        .iter()
        .map(|r| r["text"].as_str().expect("text"))
        .collect();
    assert_eq!(
        texts,
        [
            "Boats wait at anchor off Tyre, Lebanon, April 9, 2024. Lina Saab/AFP",
            "A fisherman repairs his net at the harbour of Byblos, Lebanon, April 10, 2024. Karim Haddad/Reuters",
        ]
    );
    let (tyre, byblos) = (&found[0], &found[1]);
    assert_eq!(tyre["image_url"], "https://example.org/p/2.jpg");
    assert_eq!(tyre["credit"]["agencies"], serde_json::json!(["AFP"]));
    assert_eq!(tyre["date_created"], "2024-04-08", "the stated date wins");
    assert_eq!(tyre["conflicts"][0]["field"], "date_created");
    assert_eq!(tyre["location"]["country_code"], "LB");
    assert_eq!(byblos["image_url"], "https://example.org/p/1.jpg");
    assert_eq!(
        byblos["credit"]["creators"],
        serde_json::json!(["Karim Haddad"])
    );
    assert_eq!(byblos["conflicts"], serde_json::json!([]));
}
