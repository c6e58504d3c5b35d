//! Verification flags, from the evidence the other extractors found and from
//! the wording of the description.
//!
//! Wording cues are matched case-insensitively on word boundaries, looked
//! up only where a word starts (see [`Cues`]).

use std::sync::LazyLock;

use crate::credit::CreditFound;
use crate::date::DatesFound;
use crate::place::LocationFound;
use crate::record::Flag;
use crate::span::Span;
use crate::swar::{ascii_alnum, bytes_equal, little_endian, HIGH};
use crate::text::is_boundary_before;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cue {
    Unverified,
    UnverifiedInScene,
    StillFromVideo,
    FilePhoto,
    Handout,
}

/// The cue phrases, all lowercase ASCII, with their kinds.
fn cue_patterns() -> impl Iterator<Item = (&'static str, Cue)> {
    [
        (UNVERIFIED, Cue::Unverified),
        (UNVERIFIED_IN_SCENE, Cue::UnverifiedInScene),
        (STILL_FROM_VIDEO, Cue::StillFromVideo),
        (FILE_PHOTO, Cue::FilePhoto),
        (HANDOUT, Cue::Handout),
    ]
    .into_iter()
    .flat_map(|(list, kind)| list.iter().map(move |&p| (p, kind)))
}

/// The cue phrases grouped by how they open.
///
/// A cue starts a word (or is `(files)`), so the scan looks only at word
/// starts and at `(`: their first four bytes (lowercased) index a table
/// small enough for the first-level cache, which names the group of phrases
/// that open with them, if any. A common word (`the`, `from`) costs a few
/// instructions. A whole-text automaton (Aho-Corasick over every byte,
/// overlapping) cost more, as its table does not stay in the cache; so did
/// a binary search over the openings at every word start.
struct Cues {
    /// By [`opening_slot`]: 1 + the index in `groups` of the phrases that
    /// open that way, 0 for none. No two openings share a slot (a test checks).
    slots: [u8; OPENING_SLOTS],
    /// One bit per slot, set where `slots` holds a group: asked for every
    /// word start, and 512 bytes stay in the closest cache where the 4 KB
    /// of `slots` do not.
    occupied: [u64; OPENING_SLOTS / 64],
    /// `(opening, phrases)`: four lowercase bytes as a little-endian integer,
    /// and the phrases that open with them.
    groups: Vec<(u32, Vec<Phrase>)>,
}

/// A cue phrase (lowercase ASCII) and what it says.
type Phrase = (&'static [u8], Cue);

/// Slots of [`Cues::slots`]: some 40 openings in 4,096 slots let about one
/// word start in a hundred through by chance.
const OPENING_SLOTS: usize = 4096;

/// The slot of an opening (four lowercase bytes, little-endian).
fn opening_slot(opening: u32) -> usize {
    (opening.wrapping_mul(0x9E37_79B1) >> (32 - OPENING_SLOTS.trailing_zeros())) as usize
}

static CUES: LazyLock<Cues> = LazyLock::new(|| {
    let mut slots = [0u8; OPENING_SLOTS];
    let mut groups: Vec<(u32, Vec<Phrase>)> = Vec::new();
    for (phrase, kind) in cue_patterns() {
        // Every phrase has four bytes at least; a test checks.
        let Some(&opening) = phrase.as_bytes().first_chunk::<4>() else {
            continue;
        };
        let opening = u32::from_le_bytes(opening);
        let slot = &mut slots[opening_slot(opening)];
        match groups.iter().position(|&(o, _)| o == opening) {
            Some(group) => groups[group].1.push((phrase.as_bytes(), kind)),
            None => {
                groups.push((opening, vec![(phrase.as_bytes(), kind)]));
                *slot = u8::try_from(groups.len()).unwrap_or(0);
            }
        }
    }
    let mut occupied = [0u64; OPENING_SLOTS / 64];
    for (slot, _) in slots.iter().enumerate().filter(|(_, &group)| group != 0) {
        occupied[slot / 64] |= 1 << (slot % 64);
    }
    Cues {
        slots,
        occupied,
        groups,
    }
});

impl Cues {
    /// Every cue phrase in `text`, in any ASCII case, on word boundaries
    /// (see [`on_word_boundaries`]), overlapping ones included: its start
    /// and kind.
    fn find(&self, text: &str, mut found: impl FnMut(usize, Cue)) {
        let bytes = text.as_bytes();
        // The previous chunk's last byte: a letter or digit, non-ASCII.
        let (mut carry_alnum, mut carry_other) = (0u64, 0u64);
        // Eight bytes at a time: word starts and `(` found with integer
        // masks, the rest of the text never looked at byte by byte.
        for (chunk_index, chunk) in bytes.chunks(8).enumerate() {
            let eight = little_endian(chunk);
            let alnum = ascii_alnum(eight);
            let non_ascii = eight & HIGH;
            let after_alnum = alnum << 8 | carry_alnum;
            let after_non_ascii = non_ascii << 8 | carry_other;
            carry_alnum = alnum >> 56;
            carry_other = non_ascii >> 56;
            let mut starts = alnum & !after_alnum | bytes_equal(eight, b'(');
            while starts != 0 {
                let lane = starts.trailing_zeros() as usize / 8;
                let at = chunk_index * 8 + lane;
                let flag = 0x80u64 << (lane * 8);
                starts &= !flag;
                // After a non-ASCII character: a word start only if that
                // character is no letter (`é` continues a word, `—` not).
                if bytes[at] != b'(' && after_non_ascii & flag != 0 && !is_boundary_before(text, at)
                {
                    continue;
                }
                self.phrases_at(bytes, at, |end, kind| {
                    if on_word_boundaries(text, at, end) {
                        found(at, kind);
                    }
                });
            }
        }
    }

    /// The phrases written at byte `at` (in any ASCII case): each one's end
    /// and kind.
    fn phrases_at(&self, bytes: &[u8], at: usize, mut found: impl FnMut(usize, Cue)) {
        let Some(&opening) = bytes.get(at..).and_then(<[u8]>::first_chunk::<4>) else {
            return;
        };
        let opening = u32::from_le_bytes(opening.map(|b| b.to_ascii_lowercase()));
        let slot = opening_slot(opening);
        if self.occupied[slot / 64] & (1 << (slot % 64)) == 0 {
            return;
        }
        let group = usize::from(self.slots[slot]);
        let Some((group_opening, phrases)) = group.checked_sub(1).and_then(|g| self.groups.get(g))
        else {
            return;
        };
        if *group_opening != opening {
            return;
        }
        for &(phrase, kind) in phrases {
            let end = at + phrase.len();
            if bytes
                .get(at + 4..end)
                .is_some_and(|written| written.eq_ignore_ascii_case(&phrase[4..]))
            {
                found(end, kind);
            }
        }
    }
}

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
    CUES.find(description, |start, kind| {
        flags.push(match kind {
            Cue::Unverified => Flag::Unverified,
            Cue::UnverifiedInScene
                if start < *scene_end.get_or_init(|| first_sentence_end(description)) =>
            {
                Flag::Unverified
            }
            Cue::UnverifiedInScene => return,
            Cue::StillFromVideo => Flag::StillFromVideo,
            Cue::FilePhoto => Flag::FilePhoto,
            Cue::Handout => Flag::Handout,
        });
    });
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
    use proptest::strategy::Strategy;

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

    /// Every (start, kind) the whole-text way finds: an overlapping
    /// Aho-Corasick search, kept on word boundaries.
    fn cues_by_automaton(text: &str) -> Vec<(usize, Cue)> {
        let (patterns, kinds): (Vec<&str>, Vec<Cue>) = cue_patterns().unzip();
        let automaton = aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&patterns)
            .expect("cue patterns build");
        let mut found: Vec<(usize, Cue)> = automaton
            .find_overlapping_iter(text)
            .filter(|m| on_word_boundaries(text, m.start(), m.end()))
            .map(|m| (m.start(), kinds[m.pattern().as_usize()]))
            .collect();
        found.sort_by_key(|&(start, kind)| (start, kind as u8));
        found
    }

    fn cues_found(text: &str) -> Vec<(usize, Cue)> {
        let mut found = Vec::new();
        CUES.find(text, |start, kind| found.push((start, kind)));
        found.sort_by_key(|&(start, kind)| (start, kind as u8));
        found
    }

    #[test]
    fn every_cue_opening_has_a_slot_of_its_own() {
        let mut openings: Vec<u32> = cue_patterns()
            .filter_map(|(p, _)| p.as_bytes().first_chunk::<4>().copied())
            .map(u32::from_le_bytes)
            .collect();
        openings.sort_unstable();
        openings.dedup();
        let mut slots: Vec<usize> = openings.iter().map(|&o| opening_slot(o)).collect();
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(slots.len(), openings.len());
        assert!(openings.len() < usize::from(u8::MAX));
    }

    #[test]
    fn every_cue_has_four_lowercase_ascii_bytes() {
        for (phrase, _) in cue_patterns() {
            assert!(phrase.len() >= 4, "{phrase}");
            assert!(
                phrase.is_ascii() && phrase == phrase.to_lowercase(),
                "{phrase}"
            );
        }
    }

    #[test]
    fn cues_overlap_and_respect_boundaries() {
        let text = "What Activists Said (FILES) and file pictures; a Video Still, unverifiedX é(files)éfile photo";
        assert_eq!(cues_found(text), cues_by_automaton(text));
        assert!(cues_found(text).len() >= 4);
    }

    fn cue_phrases() -> Vec<&'static str> {
        cue_patterns().map(|(p, _)| p).collect()
    }

    proptest::proptest! {
        /// The word-start scan finds exactly what the whole-text automaton
        /// finds, on text made of cue pieces, letters, accents and marks.
        #[test]
        fn word_start_scan_agrees_with_the_automaton(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(cue_phrases()).prop_map(str::to_string),
                    proptest::sample::select(cue_phrases()).prop_map(str::to_uppercase),
                    "[a-zA-Z]{0,3}",
                    proptest::sample::select(vec![" ", "(", ")", "-", "é", "ß", "1", ".", "'", "\u{2019}", ""])
                        .prop_map(str::to_string),
                ],
                0..12,
            )
        ) {
            let text: String = pieces.concat();
            proptest::prop_assert_eq!(cues_found(&text), cues_by_automaton(&text));
        }
    }
}
