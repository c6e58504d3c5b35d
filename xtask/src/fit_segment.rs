//! `cargo xtask fit-segment`: fits the segmenter's line-kind weights on
//! labelled pages and writes `crates/caption/src/segment/weights.rs`.
//!
//! The training pages are every page fixture that has a gold list of its
//! captions (`NAME.txt` beside `NAME.gold.jsonl`: the shared `eval/pages*`
//! sets and our own `crates/dateline/tests/data/pages`) and the shared
//! caption sets laid out as blank-line separated paragraphs. A page's line
//! kinds come from its gold list: a line whose words start a gold caption
//! starts a caption, the lines that carry on its words continue it (the
//! last one is its credit when it is a credit alone), a credit label line
//! whose words end the caption after it is that caption's credit, and
//! every other line is chrome. Before writing, each page fixture is also
//! scored by a model fitted without it (leave one page out), so the figure
//! printed says how the model does on a layout it has not seen.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::fit_args::FitArgs;
use caption::{LabelLine, LineKind, Model};

/// Passes of the perceptron over the pages, chosen by the leave-one-page-out
/// F1 on the 57 training pages of 2026-12-03: 0.791 for 8 passes, 0.793
/// for 10, 0.817 for 12, 0.818 for 14, 0.831 for 16, 0.829 for 20. A new
/// page order each pass gave less (0.79 for 30 shuffled passes against
/// 0.84 for 12 fixed ones, on the 30 pages of 2026-11).
const EPOCHS: usize = 32;

/// Captions of a shared caption set per training page.
const CAPTIONS_PER_PAGE: usize = 20;

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let args = FitArgs::parse(args, "crates/caption/src/segment/weights.rs")?;
    let (top, shared) = (&args.top, &args.shared);
    let fixtures = page_fixtures(shared, top)?;
    let mut training: Vec<(String, Vec<LineKind>)> = Vec::new();
    for fixture in &fixtures {
        training.push((fixture.text.clone(), fixture.kinds.clone()));
    }
    for set in ["dev", "dev-world", "dev-pages"] {
        training.extend(caption_pages(&shared.join(format!("eval/{set}.jsonl")))?);
    }
    println!(
        "{} page fixtures, {} training pages, {} lines",
        fixtures.len(),
        training.len(),
        training.iter().map(|(_, k)| k.len()).sum::<usize>()
    );
    let mut total = 0.0;
    for (held_out, fixture) in fixtures.iter().enumerate() {
        let rest: Vec<(&str, Vec<LineKind>)> = training
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != held_out)
            .map(|(_, (t, k))| (t.as_str(), k.clone()))
            .collect();
        let model = Model::fit(&rest, EPOCHS);
        let f1 = segmentation_f1(&model, fixture);
        total += f1;
        println!("  held out {:<40} F1 {f1:.3}", fixture.name);
    }
    println!(
        "leave-one-page-out mean F1 {:.3}",
        total / fixtures.len().max(1) as f64
    );
    let all: Vec<(&str, Vec<LineKind>)> = training
        .iter()
        .map(|(t, k)| (t.as_str(), k.clone()))
        .collect();
    let model = Model::fit(&all, EPOCHS);
    for fixture in &fixtures {
        println!(
            "  fitted on all   {:<40} F1 {:.3}",
            fixture.name,
            segmentation_f1(&model, fixture)
        );
    }
    let source = model.to_source();
    args.write_or_check(&source, "cargo xtask fit-segment")?;
    Ok(())
}

/// A page fixture: its text, its gold captions and the line kinds they give.
struct Fixture {
    name: String,
    text: String,
    gold: BTreeSet<String>,
    kinds: Vec<LineKind>,
}

fn page_fixtures(shared: &Path, top: &Path) -> anyhow::Result<Vec<Fixture>> {
    let dirs: Vec<PathBuf> = vec![
        shared.join("eval/pages"),
        shared.join("eval/pages-world"),
        top.join("crates/dateline/tests/data/pages"),
    ];
    let mut fixtures = Vec::new();
    for dir in dirs {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        entries.sort();
        for page in entries {
            let gold_path = page.with_extension("gold.jsonl");
            let Ok(gold_text) = std::fs::read_to_string(&gold_path) else {
                continue;
            };
            let gold: Vec<String> = gold_text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| -> anyhow::Result<String> {
                    let row: serde_json::Value = serde_json::from_str(l)?;
                    Ok(caption::normalize_whitespace(
                        row["text"].as_str().context("gold text")?,
                    ))
                })
                .collect::<anyhow::Result<_>>()?;
            let text = std::fs::read_to_string(&page)?;
            let kinds = kinds_from_gold(&caption::label_lines(&text), &gold);
            let name = format!(
                "{}/{}",
                dir.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                page.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            );
            fixtures.push(Fixture {
                name,
                text,
                gold: gold.into_iter().collect(),
                kinds,
            });
        }
    }
    Ok(fixtures)
}

/// A shared caption set as pages of blank-line separated captions.
fn caption_pages(path: &Path) -> anyhow::Result<Vec<(String, Vec<LineKind>)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let captions: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| -> anyhow::Result<String> {
            let row: serde_json::Value = serde_json::from_str(l)?;
            Ok(row["text"].as_str().context("caption text")?.to_string())
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(captions
        .chunks(CAPTIONS_PER_PAGE)
        .map(|chunk| {
            let page = chunk.join("\n\n");
            let lines = caption::label_lines(&page);
            let gold: Vec<String> = chunk
                .iter()
                .map(|c| caption::normalize_whitespace(c))
                .collect();
            let kinds = kinds_from_gold(&lines, &gold);
            (page, kinds)
        })
        .collect())
}

/// The kind of each line, read off the page's gold captions.
/// The most lines of chrome looked across between a credit and the caption
/// below it, after a slide counter.
const MAX_CHROME_BEFORE_CAPTION: usize = 3;

fn kinds_from_gold(lines: &[LabelLine], gold: &[String]) -> Vec<LineKind> {
    let mut kinds = vec![LineKind::Chrome; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let words = lines[i].words.as_str();
        if words.is_empty() {
            i += 1;
            continue;
        }
        // Alt text glued before a labelled credit line, then the caption:
        // the alt text is chrome to the model (`caption::segment` joins it).
        if let (Some(credit), Some(caption)) = (lines.get(i + 1), lines.get(i + 2)) {
            let joined = format!("{words} {} {}", caption.words, credit.words);
            if !credit.words.is_empty() && gold.contains(&joined) {
                kinds[i + 1] = LineKind::CreditBefore;
                kinds[i + 2] = LineKind::CaptionStart;
                i += 3;
                continue;
            }
        }
        // A credit line, then its caption: next to it, or after a slide
        // counter and a few lines of chrome (the slide's headline) that
        // stay chrome.
        let reach = if lines.get(i + 1).is_some_and(|l| l.slide_header) {
            MAX_CHROME_BEFORE_CAPTION
        } else {
            0
        };
        // The caption's first line below, and the caption without this
        // credit, which the page put first.
        let credit_last = format!(" {words}");
        let caption_below = (i + 1..lines.len().min(i + 2 + reach)).find_map(|j| {
            let first = lines[j].words.as_str();
            if first.is_empty() {
                return None;
            }
            gold.iter()
                .filter_map(|g| g.strip_suffix(&credit_last))
                .find(|rest| starts_with_words(rest, first))
                .map(|rest| (j, rest))
        });
        if let Some((j, caption)) = caption_below {
            kinds[i] = LineKind::CreditBefore;
            i = label_caption(lines, &mut kinds, j, caption);
            continue;
        }
        let Some(caption) = gold_started_by(words, gold) else {
            i += 1;
            continue;
        };
        i = label_caption(lines, &mut kinds, i, caption);
    }
    // A heading above its caption (a place, or a date and a place) is
    // chrome to the model: the segmenter joins it to the caption below
    // (`caption::segment`).
    for i in 0..lines.len() {
        if kinds[i] != LineKind::CaptionStart || !lines[i].heading {
            continue;
        }
        let next = (i + 1..lines.len()).find(|&j| !lines[j].words.is_empty());
        if let Some(j) = next.filter(|&j| kinds[j] == LineKind::CaptionContinuation) {
            kinds[i] = LineKind::Chrome;
            kinds[j] = LineKind::CaptionStart;
        }
    }
    kinds
}

/// Labels line `i` as the start of `caption` and the lines after it that
/// go on with its words; the index after the caption's last line.
fn label_caption(lines: &[LabelLine], kinds: &mut [LineKind], i: usize, caption: &str) -> usize {
    let words = lines[i].words.as_str();
    kinds[i] = LineKind::CaptionStart;
    let mut consumed = words.len();
    let mut j = i + 1;
    while j < lines.len() && consumed < caption.len() {
        let rest = caption[consumed..].trim_start();
        let next = lines[j].words.as_str();
        if next.is_empty() || !starts_with_words(rest, next) {
            break;
        }
        kinds[j] = if rest.len() == next.len() && lines[j].credit_only {
            LineKind::CreditAfter
        } else {
            LineKind::CaptionContinuation
        };
        consumed = caption.len() - rest.len() + next.len();
        j += 1;
    }
    // A teaser: the line after repeats this one's words and goes on
    // with the caption; this one is chrome, the caption starts there.
    if j == i + 1
        && consumed < caption.len()
        && lines
            .get(j)
            .is_some_and(|next| next.words.len() > words.len() && next.words.starts_with(words))
    {
        kinds[i] = LineKind::Chrome;
    }
    j
}

/// The gold caption a line's words start, whole or cut short.
fn gold_started_by<'g>(words: &str, gold: &'g [String]) -> Option<&'g str> {
    if let Some(caption) = gold.iter().find(|g| starts_with_words(g, words)) {
        return Some(caption);
    }
    let kept = caption::strip_truncation_mark(words)?;
    let prefix = match kept.rfind(' ') {
        Some(space) if space > kept.len() / 2 => &kept[..space],
        _ => kept,
    };
    gold.iter()
        .find(|g| g.starts_with(prefix))
        .map(String::as_str)
}

/// Whether `text` starts with `words` followed by nothing or a space.
fn starts_with_words(text: &str, words: &str) -> bool {
    text.starts_with(words) && (text.len() == words.len() || text[words.len()..].starts_with(' '))
}

/// The pages scorer's F1 for one fixture: distinct full captions found
/// (cut copies merged into a full caption they start) against the gold.
fn segmentation_f1(model: &Model, fixture: &Fixture) -> f64 {
    let mut full = BTreeSet::new();
    let mut cut = Vec::new();
    for found in model.segment(&fixture.text) {
        let text = caption::normalize_whitespace(&found.text(&fixture.text));
        if found.truncated {
            cut.push(text);
        } else {
            full.insert(text);
        }
    }
    for copy in cut {
        let kept = caption::strip_truncation_mark(&copy)
            .unwrap_or(&copy)
            .to_string();
        if !full
            .iter()
            .any(|f| f.starts_with(kept.rsplit_once(' ').map_or(kept.as_str(), |(h, _)| h)))
        {
            full.insert(copy);
        }
    }
    let hits = full.intersection(&fixture.gold).count() as f64;
    let precision = hits / full.len().max(1) as f64;
    let recall = hits / fixture.gold.len().max(1) as f64;
    if hits == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    }
}
