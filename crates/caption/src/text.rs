//! Text normalization shared by the extractors: whitespace, ids, the
//! description that remains when the credit is cut out.

use crate::span::Span;

/// Collapses every run of whitespace into one space and trims both ends.
pub fn normalize_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Stable id of a caption: 16 hex digits of XXH3-64 over its normalized text.
/// XXH3's output is fixed by its specification, so ids survive upgrades.
pub(crate) fn caption_id(normalized: &str) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(normalized.as_bytes()))
}

/// The part of `text` before the credit (or after it, when the credit leads),
/// trimmed of separators left between the two.
pub(crate) fn description_span(text: &str, credit: Span) -> Span {
    let before = Span::new(0, credit.start);
    let after = Span::new(credit.end, text.len());
    let chosen = if before.of(text).trim().len() >= after.of(text).trim().len() {
        before
    } else {
        after
    };
    trim_span(text, chosen)
}

/// The caption without its credit.
pub(crate) fn description_text(text: &str, credit: Option<Span>) -> String {
    match credit {
        None => text.to_string(),
        Some(credit) => {
            let head = text[..credit.start]
                .trim_end_matches(|c: char| c.is_whitespace() || c == '/' || c == '|' || c == '-');
            let tail =
                text[credit.end..].trim_start_matches(|c: char| c.is_whitespace() || c == '.');
            normalize_whitespace(&format!("{head} {tail}"))
        }
    }
}

/// Shrinks a span past surrounding whitespace and credit separators.
pub(crate) fn trim_span(text: &str, span: Span) -> Span {
    let s = span.of(text);
    let is_sep = |c: char| c.is_whitespace() || c == '/' || c == '|';
    let start = span.start + (s.len() - s.trim_start_matches(is_sep).len());
    let end = span.end - (s.len() - s.trim_end_matches(is_sep).len());
    Span::new(start, end.max(start))
}
