//! dateline against ExifTool on public JPEG test suites (ExifTool's
//! `t/images`, Exiv2's `test/data`, drewnoakes' metadata-extractor-images).
//!
//! The files are not ours, so they stay out of the repository: the test
//! reads the directory named by `DATELINE_JPEG_SUITES` (one subdirectory
//! per suite, JPEGs inside) and skips with a message when it is unset or
//! absent, in CI too. DEVELOPERS.md says how to fetch the suites.
//!
//! For every file it asserts: dateline does not crash; when ExifTool finds
//! a caption, dateline prints one record whose `text` is that caption
//! (whitespace normalised, as every record's text is); and every field the
//! file states (Creator, Credit Line, Source, Sublocation, City,
//! Province/State, Country, Country Code) is in `record.stated` as ExifTool
//! reads it. Where IPTC-IIM and XMP both hold a field, the expected value is
//! the one the Metadata Working Group rule picks, as ExifTool's own MWG
//! module does (`MWG.pm`): XMP, unless the IPTC digest shows IIM was edited
//! after it. The figures are printed per suite.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{dateline, exiftool, records};

/// The environment variable naming the suites' directory.
const SUITES: &str = "DATELINE_JPEG_SUITES";

/// Stated fields: the record's `stated` key, the IPTC-IIM tag and the XMP
/// tag as ExifTool names them with `-G1`.
const FIELDS: [(&str, &str, &str); 8] = [
    ("creators", "IPTC:By-line", "XMP-dc:Creator"),
    ("credit_line", "IPTC:Credit", "XMP-photoshop:Credit"),
    ("source", "IPTC:Source", "XMP-photoshop:Source"),
    ("sublocation", "IPTC:Sub-location", "XMP-iptcCore:Location"),
    ("city", "IPTC:City", "XMP-photoshop:City"),
    ("province", "IPTC:Province-State", "XMP-photoshop:State"),
    (
        "country",
        "IPTC:Country-PrimaryLocationName",
        "XMP-photoshop:Country",
    ),
    (
        "country_code",
        "IPTC:Country-PrimaryLocationCode",
        "XMP-iptcCore:CountryCode",
    ),
];

/// The caption: IPTC Caption-Abstract and XMP dc:description.
const CAPTION: (&str, &str) = ("IPTC:Caption-Abstract", "XMP-dc:Description");

#[derive(Debug, Default)]
struct Tally {
    files: usize,
    crashes: Vec<String>,
    with_caption: usize,
    caption_equal: usize,
    stated_compared: usize,
    stated_equal: usize,
    mismatches: Vec<String>,
}

#[test]
fn jpeg_suites_read_as_exiftool_reads_them() {
    let Some(root) = std::env::var_os(SUITES).map(PathBuf::from) else {
        eprintln!("skipping: set {SUITES}=DIR (one subdirectory of JPEGs per suite) to run the ExifTool conformance test");
        return;
    };
    if !root.is_dir() {
        eprintln!("skipping: {SUITES}={} is not a directory", root.display());
        return;
    }
    let Some(exiftool) = exiftool() else { return };
    let mut suites: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("suites directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    suites.sort();
    let mut failed = false;
    for suite in &suites {
        let tally = check_suite(exiftool, suite);
        let name = suite.file_name().map(|n| n.to_string_lossy().into_owned());
        eprintln!(
            "{}: {} files, {} crashes, {} with a caption, {} captions equal, \
             {} stated fields compared, {} equal",
            name.unwrap_or_default(),
            tally.files,
            tally.crashes.len(),
            tally.with_caption,
            tally.caption_equal,
            tally.stated_compared,
            tally.stated_equal
        );
        for line in tally.crashes.iter().chain(&tally.mismatches) {
            eprintln!("  {line}");
        }
        failed |= !tally.crashes.is_empty() || !tally.mismatches.is_empty();
    }
    assert!(!failed, "dateline and ExifTool disagree (see above)");
}

fn jpegs_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("suite directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"))
        })
        .collect();
    files.sort();
    files
}

fn check_suite(exiftool: &str, suite: &Path) -> Tally {
    let files = jpegs_in(suite);
    let mut tally = Tally {
        files: files.len(),
        ..Tally::default()
    };
    if files.is_empty() {
        return tally;
    }
    let tags = exiftool_tags(exiftool, &files);
    let printed = dateline_records(&files, &mut tally);
    for file in &files {
        let key = file.to_string_lossy().into_owned();
        let Some(tags) = tags.get(&key) else {
            continue;
        };
        let record = printed.get(&key);
        let caption = mwg_pick(tags, CAPTION.0, CAPTION.1).map(|c| normalise(&c));
        let Some(caption) = caption.filter(|c| !c.is_empty()) else {
            if record.is_some() {
                tally
                    .mismatches
                    .push(format!("{key}: a record where ExifTool finds no caption"));
            }
            continue;
        };
        tally.with_caption += 1;
        let Some(record) = record else {
            tally.mismatches.push(format!(
                "{key}: no record; ExifTool's caption is {caption:?}"
            ));
            continue;
        };
        let text = record["text"].as_str().map(normalise).unwrap_or_default();
        if text == caption {
            tally.caption_equal += 1;
        } else {
            tally
                .mismatches
                .push(format!("{key}: caption {text:?}, ExifTool {caption:?}"));
        }
        for (field, iptc, xmp) in FIELDS {
            let expected = mwg_pick(tags, iptc, xmp).map(|v| normalise(&v));
            let Some(expected) = expected.filter(|v| !v.is_empty()) else {
                continue;
            };
            tally.stated_compared += 1;
            let stated = &record["stated"][field];
            let actual = normalise(&value_text(stated).unwrap_or_default());
            if actual == expected {
                tally.stated_equal += 1;
            } else {
                tally.mismatches.push(format!(
                    "{key}: stated {field} {actual:?}, ExifTool {expected:?}"
                ));
            }
        }
    }
    tally
}

/// ExifTool's tags for each file, by path, read with the IIM character set
/// that fits each value. ExifTool reads IIM without a declared character
/// set as Latin (Windows-1252) unless told `-charset iptc=UTF8`; dateline
/// reads such a value as UTF-8 when it is valid UTF-8 and as Windows-1252
/// otherwise (`photometa::iim`). So both readings are asked for, and the
/// UTF-8 one is taken where the Latin one is its mojibake.
fn exiftool_tags(exiftool: &str, files: &[PathBuf]) -> BTreeMap<String, Value> {
    let run = |charset: &[&str]| -> BTreeMap<String, Value> {
        let output = Command::new(exiftool)
            .args(["-q", "-q", "-j", "-G1", "-struct"])
            .args(charset)
            .args(files)
            .output()
            .expect("exiftool runs");
        let list: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap_or_default();
        list.into_iter()
            .filter_map(|tags| {
                let path = tags["SourceFile"].as_str()?.to_string();
                Some((path, tags))
            })
            .collect()
    };
    let mut latin = run(&[]);
    let utf8 = run(&["-charset", "iptc=UTF8"]);
    for (path, tags) in &mut latin {
        let (Some(fields), Some(as_utf8)) = (tags.as_object_mut(), utf8.get(path)) else {
            continue;
        };
        for (name, value) in fields.iter_mut() {
            let Some(read) = as_utf8.get(name) else {
                continue;
            };
            if name.starts_with("IPTC:") && mojibake(read) == *value {
                *value = read.clone();
            }
        }
    }
    latin
}

/// A value's UTF-8 bytes read as Windows-1252, as ExifTool's Latin reading
/// shows UTF-8 text.
fn mojibake(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(s.bytes().map(photometa::cp1252).collect()),
        Value::Array(items) => Value::Array(items.iter().map(mojibake).collect()),
        other => other.clone(),
    }
}

/// dateline's records for each file, by path (`image_url`). All files go
/// to one run; a crash makes each file run alone, to name the ones that
/// crash.
fn dateline_records(files: &[PathBuf], tally: &mut Tally) -> BTreeMap<String, Value> {
    let run = |files: &[PathBuf]| {
        let mut args = vec!["parse".to_string()];
        args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        dateline(&args, b"")
    };
    let crashed = |output: &std::process::Output| {
        // Exit codes 0 and 1 are answers (1: an input refused); anything
        // else, or a panic message, is a crash.
        !matches!(output.status.code(), Some(0 | 1))
            || String::from_utf8_lossy(&output.stderr).contains("panicked")
    };
    let mut by_path = BTreeMap::new();
    let mut keep = |output: &std::process::Output| {
        for record in records(output) {
            if let Some(url) = record["image_url"].as_str() {
                by_path.insert(url.to_string(), record.clone());
            }
        }
    };
    let all = run(files);
    if !crashed(&all) {
        keep(&all);
        return by_path;
    }
    for file in files {
        let one = run(std::slice::from_ref(file));
        if crashed(&one) {
            tally.crashes.push(format!(
                "{}: crashed: {}",
                file.display(),
                String::from_utf8_lossy(&one.stderr).trim()
            ));
        } else {
            keep(&one);
        }
    }
    by_path
}

/// The value the MWG rule reads for a field held in IIM and XMP: XMP when
/// the file has no IIM, or when XMP has the field and the stored IPTC
/// digest is absent or matches the IIM; otherwise IIM.
fn mwg_pick(tags: &Value, iptc: &str, xmp: &str) -> Option<String> {
    let current = tags.get("File:CurrentIPTCDigest");
    let stored = tags.get("Photoshop:IPTCDigest");
    let xmp_value = tags.get(xmp).and_then(value_text);
    let xmp_wins =
        current.is_none() || (xmp_value.is_some() && stored.is_none_or(|s| Some(s) == current));
    if xmp_wins {
        xmp_value.or_else(|| tags.get(iptc).and_then(value_text))
    } else {
        tags.get(iptc).and_then(value_text).or(xmp_value)
    }
}

/// A tag's text: a string, a number, or a list joined with `; `.
fn value_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().filter_map(value_text).collect();
            (!items.is_empty()).then(|| items.join("; "))
        }
        _ => None,
    }
}

/// Whitespace collapsed, ends trimmed.
fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
