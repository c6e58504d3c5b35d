//! Our own scraped gallery pages, in layouts beside those of the shared
//! set: `parse --unique` must recover exactly the captions each page's
//! `.gold.jsonl` lists (the shared scorer's pages format), no more, no less.

use std::collections::BTreeSet;
use std::path::Path;

use crate::util::{dateline, records, records_of_success};

#[test]
fn own_gallery_pages_give_exactly_their_captions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pages");
    let mut n_pages = 0;
    for entry in std::fs::read_dir(&dir)
        .expect("pages dir")
        .filter_map(Result::ok)
    {
        let page = entry.path();
        if page.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let gold_path = page.with_extension("gold.jsonl");
        let gold = std::fs::read_to_string(&gold_path).expect("gold file beside each page");
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
        let missing: Vec<_> = expected.difference(&found).collect();
        let extra: Vec<_> = found.difference(&expected).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{}: missing {missing:#?}\nextra {extra:#?}",
            page.display()
        );
        n_pages += 1;
    }
    assert!(n_pages >= 4, "the fixtures are there");
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
