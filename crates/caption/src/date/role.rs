//! What a date in a caption is the date of: its governing words and sentence.
//!
//! - A release verb governing the date (`provided by SANA on`, `released
//!   Sunday,`, `uploaded on`) makes it `published`.
//! - A taken phrase (`Picture taken`, `taken on`, `photographed`) or the
//!   `this <date> photo` pattern makes it `created`, in any sentence.
//! - A background cue (`since`, `until`, `born`; weakly `after`, `before`)
//!   makes it `other`.
//! - Otherwise a date in the scene sentence (the first, after an editor's
//!   note) is `created`, and a date in a later sentence is `other`.
//!
//! "Governs" means the words between the cue and the date are the cue's own
//! phrase (`by Russia's Defence Ministry on`): prepositions, articles,
//! capitalized names and a few nouns of supply. A lower-case content word in
//! between (`released ... walk in`) breaks the link.

use std::sync::LazyLock;

use super::scan::{token_text, Kind, Token};
use crate::word_table::WordTable;

/// How far back a governing cue may stand, in tokens.
const LOOKBACK_TOKENS: usize = 14;

/// The role words and patterns found for one date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cue {
    /// A release verb governs it.
    Release,
    /// A taken phrase or `this <date> photo`.
    Taken,
    /// `since`, `until`, `born`, `died`: never the date taken.
    Background,
    /// `after`, `before`: background unless the scene has no other date.
    WeakBackground,
}

/// Verbs of release: the date they govern is when the image was published.
const RELEASE_WORDS: [&str; 16] = [
    "provided",
    "released",
    "uploaded",
    "posted",
    "available",
    "distributed",
    "issued",
    "published",
    "broadcast",
    "aired",
    "shared",
    "tweeted",
    "supplied",
    "circulated",
    "obtained",
    "transmitted",
];

/// Words of taking: the date they govern is when the image was made.
const TAKEN_WORDS: [&str; 7] = [
    "taken",
    "shot",
    "photographed",
    "dated",
    "filmed",
    "recorded",
    "captured",
];

/// Background cues that always make a date background.
const BACKGROUND_WORDS: [&str; 7] = [
    "since",
    "until",
    "till",
    "born",
    "died",
    "ago",
    "anniversary",
];

/// Background cues that may also introduce the scene (`after prayers on`).
const WEAK_BACKGROUND_WORDS: [&str; 5] = ["after", "before", "following", "prior", "ahead"];

/// Lower-case words that may stand between a release or taken cue and its
/// date without breaking the link. Sorted and lower case (a test checks).
const FILLERS: &[&str] = &[
    "a",
    "activist",
    "activists",
    "agency",
    "agency's",
    "amateur",
    "an",
    "and",
    "anti-government",
    "army",
    "at",
    "authorities",
    "been",
    "being",
    "broadcaster",
    "by",
    "camera",
    "center",
    "centre",
    "channel",
    "committee",
    "council",
    "defence",
    "defense",
    "drone",
    "early",
    "first",
    "footage",
    "forces",
    "from",
    "government",
    "group",
    "handout",
    "her",
    "his",
    "image",
    "in",
    "inside",
    "is",
    "its",
    "late",
    "local",
    "made",
    "media",
    "military",
    "ministry",
    "ministry's",
    "mobile",
    "national",
    "near",
    "network",
    "news",
    "of",
    "office",
    "office's",
    "official",
    "officials",
    "on",
    "online",
    "opposition",
    "outside",
    "phone",
    "photo",
    "photograph",
    "picture",
    "presidency",
    "press",
    "pro-government",
    "rebel",
    "rebels",
    "satellite",
    "service",
    "social",
    "state",
    "state-run",
    "station",
    "still",
    "television",
    "that",
    "the",
    "their",
    "this",
    "to",
    "tv",
    "via",
    "video",
    "was",
    "website",
    "websites",
    "were",
    "with",
];

/// Words that, after a date, make `this <date> photo` (`In this Tuesday,
/// July 29, 2014, photo`, `this Aug. 26, 2013, file photo`).
const PHOTO_WORDS: [&str; 14] = [
    "photo",
    "photos",
    "photograph",
    "picture",
    "pictures",
    "image",
    "images",
    "file",
    "handout",
    "video",
    "frame",
    "still",
    "pic",
    "snapshot",
];

/// Adjectives allowed between the date and its photo word.
const PHOTO_ADJECTIVES: [&str; 6] = ["file", "handout", "aerial", "satellite", "drone", "undated"];

/// Finds the cue that governs the date on tokens `first..=last`, looking no
/// further back than `sentence_start`.
pub(super) fn cue(
    text: &str,
    tokens: &[Token],
    first: usize,
    last: usize,
    sentence_start: usize,
) -> Option<Cue> {
    let behind = cue_behind(text, tokens, first, sentence_start);
    if behind == Some(Cue::Release) {
        return behind;
    }
    if photo_after(text, tokens, last) {
        return Some(Cue::Taken);
    }
    behind
}

/// The nearest cue word before the date, if it governs the date.
fn cue_behind(text: &str, tokens: &[Token], first: usize, sentence_start: usize) -> Option<Cue> {
    let floor = first.saturating_sub(LOOKBACK_TOKENS).max(sentence_start);
    let mut content_between = false;
    let mut comma_between = false;
    for i in (floor..first).rev() {
        // Past both a content word and a comma, no cue further back can
        // govern the date any more.
        if content_between && comma_between {
            return None;
        }
        let token = tokens[i];
        let word = match token.kind {
            Kind::Word => token_text(text, token),
            Kind::Number => {
                content_between = true;
                continue;
            }
            Kind::Punct(',') => {
                comma_between = true;
                continue;
            }
            Kind::Punct(';' | ':') => return None,
            Kind::Punct(_) => continue,
        };
        // ASCII answers without decoding.
        let capitalized = match word.as_bytes().first() {
            Some(b) if b.is_ascii() => b.is_ascii_uppercase(),
            _ => word.starts_with(char::is_uppercase),
        };
        if capitalized && i != sentence_start {
            // A name (`Russia's Defence Ministry`): part of the cue's phrase,
            // never a cue itself except as a sentence's first word.
            continue;
        }
        // One probe classifies the word against every cue list.
        let lists = CUE_LISTS.get(word.as_bytes()).unwrap_or(0);
        if lists & RELEASE != 0 && releases_the_image(text, tokens, i, sentence_start) {
            return (!content_between).then_some(Cue::Release);
        }
        if lists & TAKEN != 0 {
            return (!content_between).then_some(Cue::Taken);
        }
        if lists & BACKGROUND != 0 {
            return (!comma_between).then_some(Cue::Background);
        }
        if lists & WEAK_BACKGROUND != 0 {
            return (!comma_between).then_some(Cue::WeakBackground);
        }
        // Fillers are matched in ASCII only.
        let filler = lists & FILLER != 0 && word.is_ascii();
        if !capitalized && !filler {
            content_between = true;
        }
    }
    None
}

/// Bits of [`CUE_LISTS`]: which cue list a word is in.
const RELEASE: u8 = 1;
const TAKEN: u8 = 1 << 1;
const BACKGROUND: u8 = 1 << 2;
const WEAK_BACKGROUND: u8 = 1 << 3;
const FILLER: u8 = 1 << 4;

/// The lists [`cue_behind`] reads, in one table: words before a date are
/// looked up once each instead of compared with every list entry.
static CUE_LISTS: LazyLock<WordTable<u8>> = LazyLock::new(|| {
    let lists: [(&[&str], u8); 5] = [
        (&RELEASE_WORDS, RELEASE),
        (&TAKEN_WORDS, TAKEN),
        (&BACKGROUND_WORDS, BACKGROUND),
        (&WEAK_BACKGROUND_WORDS, WEAK_BACKGROUND),
        (FILLERS, FILLER),
    ];
    WordTable::new(
        lists
            .into_iter()
            .flat_map(|(list, bit)| list.iter().map(move |word| (word.as_bytes(), bit))),
    )
});

/// Release verbs of media themselves: whatever is uploaded or posted in a
/// caption is the image.
const MEDIA_RELEASE_WORDS: [&str; 6] = [
    "uploaded",
    "posted",
    "shared",
    "tweeted",
    "broadcast",
    "aired",
];

/// Whether the release verb at token `verb` releases the image: a media verb,
/// or one whose subject is a photo word just before it (`picture provided by`,
/// `footage released by`, `This photo released Sunday`). "Aid distributed by
/// the WFP in Maiduguri, Nigeria, July 10" dates the scene, not a release.
fn releases_the_image(text: &str, tokens: &[Token], verb: usize, sentence_start: usize) -> bool {
    if in_list(token_text(text, tokens[verb]), &MEDIA_RELEASE_WORDS) {
        return true;
    }
    let mut words = (sentence_start..verb)
        .rev()
        .filter(|&i| tokens[i].kind == Kind::Word)
        .map(|i| token_text(text, tokens[i]));
    let mut coordinated = false;
    for (k, word) in words.by_ref().take(COORDINATION_WORDS).enumerate() {
        if k < 3 && (in_list(word, &PHOTO_WORDS) || word == "footage") {
            return true;
        }
        // `a video filmed during the raid and released by ...`: released
        // together with a verb of taking, so what is released is the image.
        if word == "and" {
            coordinated = true;
        } else if coordinated && in_list(word, &TAKEN_WORDS) {
            return true;
        }
    }
    false
}

/// How many words back a release verb looks for a taking verb it is
/// coordinated with (`filmed during the seizure and released`).
const COORDINATION_WORDS: usize = 8;

/// `<date>[,] [file] photo`: the date names the picture.
fn photo_after(text: &str, tokens: &[Token], last: usize) -> bool {
    let mut i = last + 1;
    if tokens.get(i).is_some_and(|t| t.kind == Kind::Punct(',')) {
        i += 1;
    }
    let word_at = |i: usize| {
        tokens
            .get(i)
            .filter(|t| t.kind == Kind::Word)
            .map(|t| token_text(text, *t))
    };
    if word_at(i).is_some_and(|w| in_list(w, &PHOTO_ADJECTIVES))
        && word_at(i + 1).is_some_and(|w| in_list(w, &PHOTO_WORDS))
    {
        return true;
    }
    word_at(i).is_some_and(|w| in_list(w, &PHOTO_WORDS))
}

/// Where each sentence starts, as token indices (the first is 0). A sentence
/// ends at `.`, `!`, `?` or `…` (closing quotes and brackets may follow)
/// before a capitalized word or an opening quote, except after an initial or
/// a title (`U.S. Army`, `Gen. Smith`).
/// Only full stops before token `until` are looked at: a sentence that
/// starts after the last date changes no date's sentence.
pub(super) fn sentence_starts(text: &str, tokens: &[Token], until: usize) -> Vec<usize> {
    // Room for a few sentences: growing from one costs more than the scan.
    let mut starts = Vec::with_capacity(8);
    starts.push(0);
    for (i, token) in tokens.iter().enumerate().take(until) {
        let Kind::Punct(c @ ('.' | '!' | '?' | '…')) = token.kind else {
            continue;
        };
        let mut next = i + 1;
        while tokens
            .get(next)
            .is_some_and(|t| matches!(t.kind, Kind::Punct('"' | '\'' | ')' | ']' | '”' | '’')))
        {
            next += 1;
        }
        let Some(following) = tokens.get(next) else {
            continue;
        };
        let opens = match following.kind {
            Kind::Word => token_text(text, *following).starts_with(char::is_uppercase),
            Kind::Punct(p) => matches!(p, '"' | '“' | '(' | '\''),
            Kind::Number => false,
        };
        if !opens || following.start == tokens[next - 1].end {
            continue;
        }
        if c == '.' && i > 0 && is_abbreviation(token_text(text, tokens[i - 1])) {
            continue;
        }
        starts.push(next);
    }
    starts
}

/// Words whose full stop does not end a sentence: initials and titles.
fn is_abbreviation(word: &str) -> bool {
    const TITLES: [&str; 24] = [
        "Mr", "Mrs", "Ms", "Dr", "St", "Gen", "Lt", "Col", "Sgt", "Capt", "Maj", "Gov", "Sen",
        "Rep", "Prof", "Rev", "Mt", "Ft", "No", "Brig", "Cpl", "Pvt", "Adm", "Cmdr",
    ];
    let mut chars = word.chars();
    let single_capital =
        matches!((chars.next(), chars.next()), (Some(c), None) if c.is_uppercase());
    // Every title is two to four ASCII bytes, capital first: most words
    // before a full stop are ruled out before the list is.
    let title_shaped = (2..=4).contains(&word.len()) && word.as_bytes()[0].is_ascii_uppercase();
    single_capital || (title_shaped && TITLES.contains(&word))
}

/// Whether the sentence starting at token `start` is an editor's note
/// (`EDITOR'S NOTE: ...`, `WARNING: graphic content`), not the scene.
pub(super) fn is_editors_note(text: &str, tokens: &[Token], start: usize) -> bool {
    const NOTES: [&str; 6] = [
        "EDITOR'S",
        "EDITORS",
        "EDITOR’S",
        "ATTENTION",
        "WARNING",
        "GRAPHIC",
    ];
    tokens
        .get(start)
        .is_some_and(|t| NOTES.contains(&token_text(text, *t)))
}

/// Whether the date starting at token `first` follows a comma or a word
/// other than a preposition, as a dateline's date does (`Lowtown, May 2`,
/// `Syria Thursday December 11`, `Idlib city April 6`).
pub(super) fn is_dateline_position(text: &str, tokens: &[Token], first: usize) -> bool {
    const PREPOSITIONS: [&str; 14] = [
        "on", "in", "of", "from", "since", "by", "at", "until", "before", "after", "during",
        "between", "and", "to",
    ];
    let Some(previous) = first.checked_sub(1).and_then(|i| tokens.get(i)) else {
        return false;
    };
    match previous.kind {
        Kind::Punct(c) => c == ',',
        Kind::Word => !in_list(token_text(text, *previous), &PREPOSITIONS),
        Kind::Number => false,
    }
}

/// ASCII case-insensitive membership.
fn in_list(word: &str, list: &[&str]) -> bool {
    list.iter().any(|item| item.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_and_initials_keep_their_full_stop() {
        for word in ["Mr", "Cmdr", "Prof", "A", "É"] {
            assert!(is_abbreviation(word), "{word}");
        }
        for word in ["mr", "MR", "Aleppo", "2016", "", "Dr."] {
            assert!(!is_abbreviation(word), "{word}");
        }
    }

    #[test]
    fn fillers_are_sorted_lower_case_and_short() {
        assert!(FILLERS.windows(2).all(|w| w[0] < w[1]));
        assert!(FILLERS
            .iter()
            .all(|w| w.len() <= 16 && w.to_ascii_lowercase() == *w));
    }
}
