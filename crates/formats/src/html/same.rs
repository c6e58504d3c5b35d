//! Whether two caption texts of a page describe the same picture: a
//! thumbnail's `alt` or teaser text beside the full figure caption, a
//! JSON-LD `ImageObject` beside the visible caption.
//!
//! Pages show one picture's caption several ways: in full with its credit
//! (the figure), without the credit (a thumbnail's `alt`, a JSON-LD
//! `caption`), or cut at a fixed length with `...` or `…` (teasers,
//! thumbnail strips). The short form is a *teaser* of the full one when,
//! after whitespace, quotes and closing punctuation are normalised:
//! - the two are equal; or
//! - the short one is cut (ends in a truncation mark) and what is left is
//!   a prefix of the full one, at least [`MIN_STEM_BYTES`] long; or
//! - the short one is the full one without its credit: the full text is the
//!   short text followed by the full caption's credit, or by a tail that
//!   reads as a credit (`REUTERS/Jane Roe`, `(Photo by …)`, `Photo: …`).
//!
//! A shared opening sentence alone is not enough: two captions of one
//! event often start alike and differ after it.

/// A cut caption must keep at least this much text to be matched by its
/// prefix: shorter stems are too common to tell pictures apart.
pub(super) const MIN_STEM_BYTES: usize = 24;

/// A tail longer than this is more description, not a credit.
const MAX_CREDIT_TAIL_BYTES: usize = 100;

/// Words a credit tail may open with (lower-cased, compared at the start).
const CREDIT_OPENINGS: [&str; 12] = [
    "photo",
    "(photo",
    "picture",
    "image",
    "(image",
    "credit",
    "(credit",
    "courtesy",
    "(courtesy",
    "©",
    "(©",
    "copyright",
];

/// The text as compared: whitespace collapsed, curly quotes straight,
/// closing dots and spaces dropped.
pub(super) fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201C}' | '\u{201D}' => '"',
            c => c,
        }));
    }
    let end = out.trim_end_matches(['.', ' ']).len();
    out.truncate(end);
    out
}

/// The key two teasers of one picture share: the normalised text's first
/// [`MIN_STEM_BYTES`] bytes (on a char boundary), lower-cased; `None` for
/// text too short to match by prefix.
pub(super) fn prefix_key(text: &str) -> Option<String> {
    let text = normalise(caption::strip_truncation_mark(text).unwrap_or(text));
    let mut end = MIN_STEM_BYTES;
    if text.len() < end {
        return None;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    Some(text[..end].to_lowercase())
}

/// Whether `short` is a teaser of `full` (whose credit element, if any, is
/// `full_credit`): see the module docs.
pub(super) fn is_teaser(short: &str, full: &str, full_credit: Option<&str>) -> bool {
    let full_norm = normalise(full);
    if let Some(stem) = caption::strip_truncation_mark(short) {
        let stem = normalise(stem.trim_end_matches(['.', '\u{2026}']));
        return stem.len() >= MIN_STEM_BYTES && full_norm.starts_with(&stem);
    }
    let short_norm = normalise(short);
    if short_norm == full_norm {
        return true;
    }
    if short_norm.len() < MIN_STEM_BYTES {
        return false;
    }
    let Some(tail) = full_norm.strip_prefix(&short_norm) else {
        return false;
    };
    // The full caption's own sentence end may follow the shared text.
    let tail = tail.trim_start_matches('.').trim_start();
    if tail.is_empty() {
        return true;
    }
    let credit_tail = full_credit.is_some_and(|c| normalise(c) == tail);
    credit_tail || reads_as_credit(tail)
}

/// A short tail written as credits are: an agency/name slash, a credit
/// cue word, or all in brackets.
fn reads_as_credit(tail: &str) -> bool {
    if tail.len() > MAX_CREDIT_TAIL_BYTES || tail.contains(". ") {
        return false;
    }
    let lower = tail.to_lowercase();
    tail.contains('/')
        || (tail.starts_with('(') && tail.ends_with(')'))
        || CREDIT_OPENINGS.iter().any(|cue| lower.starts_with(cue))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = "Fishermen pull their boat ashore at dawn in Tyre, Lebanon, June 3, 2023.";

    #[test]
    fn the_same_caption_with_or_without_its_credit() {
        let with_credit = format!("{FULL} REUTERS/Lina Saad");
        assert!(is_teaser(FULL, &with_credit, None));
        assert!(is_teaser(FULL, FULL, None));
        assert!(is_teaser(
            "Fishermen pull their boat ashore at dawn in Tyre, Lebanon, June 3, 2023",
            &format!("{FULL} Lina Saad"),
            Some("Lina Saad")
        ));
        assert!(is_teaser(
            FULL,
            &format!("{FULL} (Photo by Lina Saad)"),
            None
        ));
        assert!(is_teaser(
            "Fishermen  pull their boat ashore at dawn in Tyre, Lebanon, June 3, 2023.",
            FULL,
            None
        ));
    }

    #[test]
    fn a_caption_cut_at_a_fixed_length() {
        assert!(is_teaser(
            "Fishermen pull their boat ashore at dawn...",
            FULL,
            None
        ));
        assert!(is_teaser(
            "Fishermen pull their boat ashore at d\u{2026}",
            FULL,
            None
        ));
        assert!(
            !is_teaser("Fishermen pull...", FULL, None),
            "too short a stem"
        );
        assert!(!is_teaser(
            "Fishermen pull their nets ashore at dawn...",
            FULL,
            None
        ));
    }

    #[test]
    fn a_shared_opening_is_not_the_same_picture() {
        let other = "Fishermen pull their boat ashore at dawn in Tyre, Lebanon, June 3, 2023. \
                     Fishing has fallen by half since the port was damaged. REUTERS/Lina Saad";
        assert!(!is_teaser(FULL, other, None));
        let longer = format!("{FULL} A boy helps them with the ropes");
        assert!(!is_teaser(FULL, &longer, None));
    }

    #[test]
    fn keys_meet_for_teasers() {
        assert_eq!(
            prefix_key("Fishermen pull their boat ashore at dawn..."),
            prefix_key(FULL)
        );
        assert_eq!(prefix_key("Too short"), None);
        assert!(prefix_key("Ünïcödé characters at the cut boundary é é é é").is_some());
    }
}
