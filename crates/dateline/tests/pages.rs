//! Our own scraped gallery pages, in layouts beside those of the shared
//! set: `parse --unique` must recover exactly the captions each page's
//! `.gold.jsonl` lists (the shared scorer's pages format), no more, no less.

use std::collections::BTreeSet;
use std::path::Path;

use crate::util::{dateline, records};

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
