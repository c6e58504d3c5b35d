//! Verification flags, from the evidence the other extractors found and from
//! the wording of the description.
//!
//! Wording cues are matched case-insensitively on word boundaries with one
//! Aho-Corasick automaton built once, so the cost is one pass over the text.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use crate::credit::CreditFound;
use crate::date::DatesFound;
use crate::place::LocationFound;
use crate::record::Flag;
use crate::span::Span;

/// Everything the flags are decided from.
pub(crate) struct Evidence<'a> {
    pub text: &'a str,
    pub description: Span,
    pub credit: Option<&'a CreditFound>,
    pub dates: &'a DatesFound,
    pub location: &'a LocationFound,
}

/// Phrases that attribute the content to others or say it is unverified.
const UNVERIFIED: &[&str] = &[
    "activists said",
    "activists say",
    "activists described",
    "activists claim",
    "activists reported",
    "residents said",
    "residents say",
    "residents described",
    "witnesses said",
    "witnesses say",
    "what activists",
    "what residents",
    "what witnesses",
    "what rebels",
    "what the rebels",
    "what police said",
    "what police say",
    "what officials said",
    "what the military said",
    "what the army said",
    "what they said",
    "what locals",
    "location given as",
    "given as",
    "could not be independently verified",
    "cannot be independently verified",
    "could not independently verify",
    "cannot independently verify",
    "unable to independently verify",
    "not be independently verified",
    "has not been independently verified",
    "have not been independently verified",
    "could not be verified",
    "cannot be verified",
    "not independently verified",
    "could not immediately verify",
    "claimed to show",
    "said to show",
    "according to activists",
    "according to the activists",
    "authenticity of the footage",
    "authenticity could not",
];

/// Single words that attribute the content only when they stand in the
/// scene sentence: "purportedly shows", but not a background sentence's
/// "investigating alleged attacks".
const UNVERIFIED_IN_SCENE: &[&str] = &[
    "purportedly",
    "purported",
    "allegedly",
    "alleged",
    "reportedly",
    "unverified",
];

/// Phrases that say the image is a still from video.
const STILL_FROM_VIDEO: &[&str] = &[
    "still image taken from video",
    "still image from video",
    "still taken from video",
    "still from video",
    "image taken from video",
    "frame grab",
    "framegrab",
    "screen grab",
    "screengrab",
    "screenshot",
    "taken from a video",
    "taken from video",
    "from amateur video",
    "image from video",
    "grab taken from",
    "still image from amateur video",
    "still image taken from amateur video",
    "video grab",
    "videograb",
    "image made from video",
    "image made from a video",
    "from video footage",
    "from a video released",
    "still from a video",
    "from a video posted",
    "from a video published",
    "video still",
];

/// Phrases that mark a file photo.
const FILE_PHOTO: &[&str] = &[
    "file photo",
    "file picture",
    "file image",
    "file photograph",
    "(files)",
    "file -",
    "files -",
    "file pic",
    "archive photo",
    "archive picture",
];

/// Phrases that mark a handout in the description.
const HANDOUT: &[&str] = &[
    "handout picture",
    "handout photo",
    "handout image",
    "handout via",
    "this handout",
];

#[derive(Clone, Copy)]
enum Cue {
    Unverified,
    UnverifiedInScene,
    StillFromVideo,
    FilePhoto,
    Handout,
}

static CUES: LazyLock<(AhoCorasick, Vec<Cue>)> = LazyLock::new(|| {
    let mut patterns: Vec<&str> = Vec::new();
    let mut kinds = Vec::new();
    for (list, kind) in [
        (UNVERIFIED, Cue::Unverified),
        (UNVERIFIED_IN_SCENE, Cue::UnverifiedInScene),
        (STILL_FROM_VIDEO, Cue::StillFromVideo),
        (FILE_PHOTO, Cue::FilePhoto),
        (HANDOUT, Cue::Handout),
    ] {
        patterns.extend_from_slice(list);
        kinds.extend(std::iter::repeat_n(kind, list.len()));
    }
    let automaton = AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        // Built once, run over every description: the fastest automaton.
        .kind(Some(AhoCorasickKind::DFA))
        .build(&patterns)
        .expect("flag cue patterns are valid");
    (automaton, kinds)
});

/// Marks that a caption was cut short.
const TRUNCATION_MARKS: &[&str] = &[
    "...more",
    "\u{2026}more",
    "...",
    "\u{2026}",
    "... more",
    "Read more",
    "Show more",
];

/// The flags of one caption, in vocabulary order, each once.
pub(crate) fn collect(evidence: &Evidence<'_>) -> Vec<Flag> {
    let mut flags = Vec::new();
    if evidence.dates.weekday_mismatch {
        flags.push(Flag::WeekdayMismatch);
    }
    let description = evidence.description.of(evidence.text);
    // Only a scene-only cue needs the scene's end: find it on demand.
    let scene_end = std::cell::OnceCell::new();
    let (automaton, kinds) = &*CUES;
    for found in automaton.find_overlapping_iter(description) {
        if !on_word_boundaries(description, found.start(), found.end()) {
            continue;
        }
        flags.push(match kinds[found.pattern().as_usize()] {
            Cue::Unverified => Flag::Unverified,
            Cue::UnverifiedInScene
                if found.start() < *scene_end.get_or_init(|| first_sentence_end(description)) =>
            {
                Flag::Unverified
            }
            Cue::UnverifiedInScene => continue,
            Cue::StillFromVideo => Flag::StillFromVideo,
            Cue::FilePhoto => Flag::FilePhoto,
            Cue::Handout => Flag::Handout,
        });
    }
    if evidence.credit.is_some_and(|c| c.handout) {
        flags.push(Flag::Handout);
    }
    if evidence.credit.is_some_and(|c| c.file) {
        flags.push(Flag::FilePhoto);
    }
    if is_truncated(evidence.text) {
        flags.push(Flag::Truncated);
    }
    if evidence.credit.is_none() {
        flags.push(Flag::NoCredit);
    }
    if evidence.dates.created.is_none() {
        flags.push(Flag::NoDate);
    }
    if evidence.location.unresolved {
        flags.push(Flag::LocationUnresolved);
    }
    flags.sort();
    flags.dedup();
    flags
}

/// Whether the caption ends in a truncation mark (`...more`, `…`).
pub(crate) fn is_truncated(text: &str) -> bool {
    strip_truncation_mark(text).is_some()
}

/// The caption before its truncation mark (`...more`, `…`), trimmed; `None`
/// when it has none. An ellipsis of four dots is punctuation, not a cut.
pub fn strip_truncation_mark(text: &str) -> Option<&str> {
    let tail = text.trim_end();
    if tail.ends_with("....") {
        return None;
    }
    // Compare bytes: the tail may end inside a multi-byte character.
    let tail_bytes = tail.as_bytes();
    TRUNCATION_MARKS.iter().find_map(|mark| {
        let cut = tail_bytes.len().checked_sub(mark.len())?;
        tail_bytes[cut..]
            .eq_ignore_ascii_case(mark.as_bytes())
            .then(|| tail.get(..cut))
            .flatten()
            .map(str::trim_end)
    })
}

/// Where the first sentence ends: the first `. ` before a capital whose
/// word is longer than an abbreviation (`U.N.`, `Aug.`, `Fla.`).
fn first_sentence_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices(". ") {
        let next_is_upper = bytes.get(i + 2).is_some_and(u8::is_ascii_uppercase);
        let word = text[..i].rsplit(' ').next().unwrap_or("");
        let abbreviation = word.len() <= 4 || word.contains('.');
        if next_is_upper && !abbreviation {
            return i + 1;
        }
    }
    text.len()
}

fn on_word_boundaries(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let pattern_starts_alnum = text[start..]
        .chars()
        .next()
        .is_some_and(char::is_alphanumeric);
    let pattern_ends_alnum = text[..end]
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric);
    (!pattern_starts_alnum || !before.is_some_and(char::is_alphanumeric))
        && (!pattern_ends_alnum || !after.is_some_and(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::LocationFound;

    fn flags_of(text: &str) -> Vec<Flag> {
        let dates = DatesFound::default();
        let location = LocationFound::default();
        collect(&Evidence {
            text,
            description: Span::new(0, text.len()),
            credit: None,
            dates: &dates,
            location: &location,
        })
    }

    #[test]
    fn wording_cues() {
        let flags = flags_of("Smoke rises after what activists said was shelling, in this still image taken from video.");
        assert!(flags.contains(&Flag::Unverified));
        assert!(flags.contains(&Flag::StillFromVideo));
        assert!(flags_of("FILE - Soldiers march in a parade.").contains(&Flag::FilePhoto));
        assert!(
            flags_of("Men pray in this handout picture provided by a ministry.")
                .contains(&Flag::Handout)
        );
        assert!(!flags_of("The profile of a mountain.").contains(&Flag::FilePhoto));
        assert!(!flags_of("Police allege nothing; an unallegedly calm day.")
            .contains(&Flag::Unverified));
    }

    #[test]
    fn truncation_and_missing_fields() {
        let flags =
            flags_of("Floodwater runs through the centre of town, sweeping cars out...more");
        assert_eq!(flags, [Flag::Truncated, Flag::NoCredit, Flag::NoDate]);
        assert!(!flags_of("A calm evening.").contains(&Flag::Truncated));
        // Found by fuzzing: a multi-byte character where a mark would start.
        assert!(!flags_of("\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}").contains(&Flag::Truncated));
    }
}
