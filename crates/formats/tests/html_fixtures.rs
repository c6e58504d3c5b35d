//! The HTML reader on hand-written pages in several layouts
//! (`tests/data/html/*.html`), each beside its expected captions
//! (`*.expected.json`). `UPDATE_EXPECTED=1 cargo test -p formats --test
//! html_fixtures` rewrites the expectations; review the diff before
//! committing it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use formats::html::{looks_like_html, read_html, HtmlCaptions, PageCaption, Warning};
use serde_json::{json, Value};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/html")
}

fn caption_json(caption: &PageCaption) -> Value {
    let stated = &caption.stated;
    let mut value = json!({
        "offset": caption.offset,
        "origin": format!("{:?}", caption.origin),
        "text": caption.text,
        "credit": caption.credit,
        "image_url": caption.image_url,
    });
    if !stated.is_empty() {
        value["stated"] = json!({
            "creators": stated.creators,
            "credit_text": stated.credit_text,
            "copyright_holder": stated.copyright_holder,
            "copyright_notice": stated.copyright_notice,
            "date_created": stated.date_created,
            "content_location": stated.content_location,
        });
    }
    value
}

fn warning_json(warning: &Warning) -> Value {
    match warning {
        Warning::BadJsonLd { offset, .. } => json!({ "bad_json_ld": offset }),
        other => json!(format!("{other:?}")),
    }
}

fn as_json(found: &HtmlCaptions) -> Value {
    json!({
        "captions": found.captions.iter().map(caption_json).collect::<Vec<_>>(),
        "warnings": found.warnings.iter().map(warning_json).collect::<Vec<_>>(),
    })
}

#[test]
fn fixtures_match_their_expected_captions() {
    let update = std::env::var_os("UPDATE_EXPECTED").is_some();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("fixture dir")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 8, "fixtures missing");
    let mut failures = Vec::new();
    for page in &pages {
        let bytes = std::fs::read(page).expect("fixture");
        assert!(
            looks_like_html(&bytes),
            "{} not sniffed as HTML",
            page.display()
        );
        let got = as_json(&read_html(&bytes[..]).expect("reads"));
        let expected_path = page.with_extension("expected.json");
        if update {
            let text = serde_json::to_string_pretty(&got).expect("json") + "\n";
            std::fs::write(&expected_path, text).expect("write expectation");
            continue;
        }
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(&expected_path).expect("expected file"))
                .expect("expected JSON");
        if got != expected {
            failures.push(format!(
                "{}:\n{}",
                page.display(),
                serde_json::to_string_pretty(&got).expect("json")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A gallery page of about `bytes`: figures, slides, article text, scripts.
fn big_page(bytes: usize) -> (String, usize) {
    let mut page = String::from("<!doctype html><html><head><title>Big</title></head><body>");
    let mut pictures = 0;
    while page.len() < bytes {
        pictures += 1;
        page.push_str(&format!(
            "<figure><img src=\"/p/{pictures}.jpg\"><figcaption>Workers repair a power line in \
             Kharkiv, Ukraine, on day {pictures}. <span class=\"credit\">Jane Roe/Reuters</span>\
             </figcaption></figure><p>Article text &amp; more text about the day&#8217;s news.</p>\
             <script>var n = {pictures};</script><div><div><span>x</span></div></div>\n"
        ));
    }
    page.push_str("</body></html>");
    (page, pictures)
}

#[test]
fn five_megabyte_page_reads_every_caption_quickly() {
    let (page, pictures) = big_page(5 << 20);
    let start = Instant::now();
    let found = read_html(page.as_bytes()).expect("reads");
    let took = start.elapsed();
    assert_eq!(found.captions.len(), pictures);
    assert!(found.warnings.is_empty());
    assert_eq!(
        found.captions[7].text,
        "Workers repair a power line in Kharkiv, Ukraine, on day 8. Jane Roe/Reuters"
    );
    // Generous: a debug-profile run on a loaded machine.
    assert!(took.as_secs() < 30, "took {took:?}");
}

/// 50 MB pages of several shapes: no panic, bounded work, a clear result.
#[test]
#[ignore = "slow: 50 MB pages; run with --ignored"]
fn fifty_megabyte_pages() {
    const SIZE: usize = 50 << 20;
    let (page, pictures) = big_page(SIZE);
    let found = read_html(page.as_bytes()).expect("reads");
    assert_eq!(found.captions.len(), pictures);

    // One caption of 50 MB: cut at the cap, with a warning.
    let one = format!(
        "<figure><figcaption>{}</figcaption></figure>",
        "word ".repeat(SIZE / 5)
    );
    let found = read_html(one.as_bytes()).expect("reads");
    assert_eq!(found.captions.len(), 1);
    assert!(matches!(
        found.warnings[..],
        [Warning::OversizeCaption { .. }]
    ));

    // An unterminated comment: reading stops with a warning, what came before is kept.
    let comment = format!(
        "<figure><figcaption>Before the comment.</figcaption></figure><!-- {}",
        "x".repeat(SIZE)
    );
    let found = read_html(comment.as_bytes()).expect("reads");
    assert_eq!(found.captions.len(), 1);
    assert!(matches!(found.warnings[..], [Warning::Stopped { .. }]));

    // Deep nesting all the way.
    let deep = "<div>".repeat(SIZE / 5);
    let found = read_html(deep.as_bytes()).expect("reads");
    assert!(found.captions.is_empty());
    assert!(matches!(found.warnings[..], [Warning::DeepNesting { .. }]));

    // Text without a single tag.
    let plain = "A caption-less wall of text. ".repeat(SIZE / 29);
    assert!(read_html(plain.as_bytes())
        .expect("reads")
        .captions
        .is_empty());
}

#[test]
fn binary_garbage_is_refused_or_read_without_panic() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..200 {
        let len = 1 + round * 97;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if round % 2 == 0 {
                    state as u8
                } else {
                    // Mostly markup characters, to reach deeper states.
                    b"<>/=\"' afigcptonmdsrlx-&#;!\n"[(state % 28) as usize]
                }
            })
            .collect();
        let _ = read_html(&bytes[..]);
    }
}

/// Shapes that would be quadratic in a careless reader (deep stacks of
/// open elements, stray end tags, nested contexts, endless JSON): each
/// 1 MB page reads within a generous time bound (well under a second
/// each, unloaded, in the test profile).
#[test]
fn pathological_shapes_stay_linear() {
    const SIZE: usize = 1 << 20;
    let spans = "<span>".repeat(600);
    let shapes = [
        format!("{spans}{}", "<div></div>".repeat(SIZE / 11)),
        format!("{spans}{}", "</x>".repeat(SIZE / 4)),
        "<figure><figcaption><span class=credit>".repeat(SIZE / 40),
        "<p class=caption>a".repeat(SIZE / 18),
        "<li><p class=caption>x<li>".repeat(SIZE / 26),
        "<img alt='one two three four five' src=a.jpg>".repeat(SIZE / 45),
        format!("<script type=application/ld+json>{}", "[".repeat(SIZE)),
        "&amp;&#8217;&nbsp;".repeat(SIZE / 18),
    ];
    for shape in &shapes {
        let start = Instant::now();
        let found = read_html(shape.as_bytes()).expect("reads");
        let took = start.elapsed();
        assert!(
            took.as_secs() < 20,
            "{:?}: {took:?}, {} captions",
            &shape[..60.min(shape.len())],
            found.captions.len()
        );
    }
}
