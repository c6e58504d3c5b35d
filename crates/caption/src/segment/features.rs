//! What the segmenter knows of a line: yes/no properties of its words, of
//! its neighbours' words and of the blank lines around it, numbered so a
//! weight table can score them.
//!
//! Properties describe the line's shape, never one page's wording: length,
//! how it starts and ends, whether it is or ends in a credit, holds a date,
//! a counter, a truncation mark, navigation words, a byline or second-person
//! hints, and whether the same words stand elsewhere on the page.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;
#[cfg(test)]
use rustc_hash::FxHashSet;

use super::line::{Label, Line};
use crate::credit::CreditFound;

/// A set of [`Prop`]s, one bit each.
pub(crate) type Props = u64;

/// Declares the properties with their names (as `--explain` prints them).
macro_rules! props {
    ($($name:ident = $bit:literal, $text:literal;)*) => {
        $(pub(crate) const $name: Props = 1 << $bit;)*
        /// Each property's bit and its name.
        pub(crate) const PROP_NAMES: &[(Props, &str)] = &[$(($name, $text)),*];
    };
}

props! {
    TINY = 0, "under 16 bytes";
    SHORT = 1, "16-47 bytes";
    MEDIUM = 2, "48-99 bytes";
    LONG = 3, "100-199 bytes";
    HUGE = 4, "200 bytes or more";
    FEW_WORDS = 5, "three words or fewer";
    ENDS_SENTENCE = 6, "ends like a sentence";
    ENDS_OPEN = 7, "ends mid-sentence (comma, colon or a bare word)";
    STARTS_LOWER = 8, "starts in lower case";
    STARTS_DIGIT = 9, "starts with a digit";
    CREDIT_ONLY = 10, "is a credit and nothing else";
    ENDS_CREDIT = 11, "ends in a credit";
    CREDIT_LABEL = 12, "has a credit label";
    CAPTION_LABEL = 13, "has a caption label";
    DATE = 14, "names a day of a month";
    YEAR = 15, "holds a year";
    TRUNCATED = 16, "is cut short";
    COUNTER = 17, "holds a counter";
    EMPTY = 18, "is empty once counters and labels are cut";
    NAVIGATION = 19, "is navigation words";
    BARS = 20, "has parts between bars or spaced slashes";
    FIELD = 21, "is a `Label: value` field";
    DIGITS = 22, "is mostly digits";
    CLOCK = 23, "holds a time of day";
    BYLINE = 24, "opens with `by` (a byline or curated-by line)";
    ADDRESSES_READER = 25, "addresses the reader (you, your, we, our)";
    TITLE_CASE = 26, "capitalizes most words (a headline)";
    SENTENCES = 27, "holds several sentences";
    CAPS_DATELINE = 28, "opens with an upper-case dateline";
    REPEATED = 29, "stands elsewhere on the page too";
    CUT_COPY = 30, "is a cut copy of a longer line on the page";
    BULLET = 31, "is a list item";
    LINK = 32, "holds a web address";
    PLACE_CUE = 33, "says where (`in`/`at` and a name)";
    QUOTED = 34, "is in quotes";
    UNCREDITED = 35, "is a sentence without a credit on a page whose captions have credits";
    COPYRIGHT = 36, "is a copyright notice";
    SCENE_VERB = 37, "has a present-tense verb before a preposition (`looks at`)";
    PAST_VERB = 38, "has a past-tense verb before a preposition (`walked to`)";
    HEADLINE = 39, "stops without a sentence end or credit, and no words or credit go on below";
    ABOUT_PICTURES = 40, "speaks of pictures in the plural (an intro to the gallery)";
    PLACE_HEADING = 41, "is a place heading (`Name, Name` and nothing else)";
    SHOUTED_NAME = 42, "is a name in capitals and nothing else (`JANE DOE`)";
    TEASER = 43, "is the opening of the line after (its picture's text without the credit)";
    BEFORE_CREDIT_LABEL = 44, "stands before a credit label on the same line (an image's alt text)";
    RUNS_ON_TO_CREDIT = 45, "is uncredited, and uncredited paragraphs run on from it to one a credit ends (a caption over several paragraphs)";
}

/// The properties of what was cut off a line rather than of its words
/// ([`marks_props`]); the rest are the words' own ([`text_props`]).
const MARKS: Props = CAPTION_LABEL | CREDIT_LABEL | COUNTER | BULLET;

/// How many properties a line has.
const N_PROPS: usize = 46;

/// Features besides the line's and its neighbours' properties.
const BIAS: usize = 3 * N_PROPS;
const GAP_BEFORE: usize = BIAS + 1;
const GAP_AFTER: usize = BIAS + 2;
const FIRST_LINE: usize = BIAS + 3;
const LAST_LINE: usize = BIAS + 4;
/// The line goes on from the one before with no blank line between: that
/// one stops mid-sentence and this one starts in lower case (a caption
/// wrapped by the page). A conjunction the weights of single properties
/// cannot express.
const WRAPS_ON: usize = BIAS + 5;

/// How many features a line has: its own properties, the line before's,
/// the line after's, and six about its place.
pub(crate) const N_FEATURES: usize = 3 * N_PROPS + 6;

/// The active features of each line, as indices below [`N_FEATURES`].
pub(crate) fn features(lines: &[Props], gaps: &[bool]) -> Vec<Vec<u16>> {
    let n = lines.len();
    (0..n)
        .map(|i| {
            let mut active = Vec::with_capacity(24);
            push_bits(&mut active, lines[i], 0);
            if i > 0 {
                push_bits(&mut active, lines[i - 1], N_PROPS);
            } else {
                active.push(FIRST_LINE as u16);
            }
            if i + 1 < n {
                push_bits(&mut active, lines[i + 1], 2 * N_PROPS);
            } else {
                active.push(LAST_LINE as u16);
            }
            active.push(BIAS as u16);
            if gaps[i] {
                active.push(GAP_BEFORE as u16);
            }
            if gaps.get(i + 1).copied().unwrap_or(true) {
                active.push(GAP_AFTER as u16);
            }
            if i > 0 && !gaps[i] && lines[i - 1] & ENDS_OPEN != 0 && lines[i] & STARTS_LOWER != 0 {
                active.push(WRAPS_ON as u16);
            }
            active
        })
        .collect()
}

fn push_bits(active: &mut Vec<u16>, props: Props, base: usize) {
    let mut bits = props;
    while bits != 0 {
        let bit = bits.trailing_zeros() as usize;
        active.push((base + bit) as u16);
        bits &= bits - 1;
    }
}

/// A feature's name, as `--explain` prints it.
pub(crate) fn feature_name(feature: usize) -> String {
    let prop = |bit: usize| {
        PROP_NAMES
            .iter()
            .find(|(p, _)| *p == 1 << bit)
            .map_or("?", |(_, name)| name)
    };
    match feature {
        f if f < N_PROPS => prop(f).to_string(),
        f if f < 2 * N_PROPS => format!("the line before {}", prop(f - N_PROPS)),
        f if f < BIAS => format!("the line after {}", prop(f - 2 * N_PROPS)),
        BIAS => "prior".to_string(),
        GAP_BEFORE => "a blank line before".to_string(),
        GAP_AFTER => "a blank line after".to_string(),
        FIRST_LINE => "first line".to_string(),
        LAST_LINE => "last line".to_string(),
        _ => "goes on from the line before (which stops mid-sentence) in lower case".to_string(),
    }
}

/// Every feature's name, in index order: the weight table is checked
/// against it, so a change of features without refitting fails a test.
pub(crate) fn feature_names() -> Vec<String> {
    (0..N_FEATURES).map(feature_name).collect()
}

/// The properties of every line, with the page-level ones (repeats, cut
/// copies) filled in.
pub(crate) fn props_of(input: &str, lines: &[Line]) -> (Vec<Props>, Vec<Option<CreditFound>>) {
    let (mut props, credits, seen) = each_line_props(input, lines);
    // Cut copies: a truncated line whose kept words start a longer line
    // (the sorted texts are needed only on a page with a cut line).
    let mut sorted: Vec<&str> = Vec::new();
    if props.iter().any(|p| p & TRUNCATED != 0) {
        sorted = seen.keys().copied().filter(|t| !t.is_empty()).collect();
        sorted.sort_unstable();
    }
    mark_uncredited(&mut props);
    mark_headlines(input, lines, &mut props);
    mark_teasers(input, lines, &mut props);
    mark_before_credit_labels(input, lines, &mut props);
    for (line, p) in lines.iter().zip(props.iter_mut()) {
        let text = line.text(input);
        if !text.is_empty() && seen.get(text).is_some_and(|&(count, _)| count > 1) {
            *p |= REPEATED;
        }
        if *p & TRUNCATED != 0 {
            if let Some(kept) = crate::flags::strip_truncation_mark(text) {
                let prefix = cut_word_prefix(kept);
                let at = sorted.partition_point(|t| *t < prefix);
                if sorted[at..]
                    .iter()
                    .take_while(|t| t.starts_with(prefix))
                    .any(|t| t.len() > kept.len() + 3)
                {
                    *p |= CUT_COPY;
                }
            }
        }
    }
    (props, credits)
}

/// Each distinct text of the page with how many lines hold it and the first
/// that does.
type Seen<'a> = FxHashMap<&'a str, (u32, usize)>;

/// [`line_props`] of every line, each distinct text read once: a repeat
/// takes over the word properties and credit of the line that first holds
/// its text.
fn each_line_props<'a>(
    input: &'a str,
    lines: &[Line],
) -> (Vec<Props>, Vec<Option<CreditFound>>, Seen<'a>) {
    let mut seen: Seen<'a> = FxHashMap::with_capacity_and_hasher(lines.len(), Default::default());
    let mut props = Vec::with_capacity(lines.len());
    let mut credits: Vec<Option<CreditFound>> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let text = line.text(input);
        let (count, first) = seen.entry(text).or_insert((0, i));
        *count += 1;
        let (p, credit) = if *first == i {
            text_props(text)
        } else {
            (props[*first] & !MARKS, credits[*first].clone())
        };
        props.push(p | marks_props(line));
        credits.push(credit);
    }
    (props, credits, seen)
}

/// On a page where most sentences of caption length carry a credit (at
/// their end, on the line after, or labelled on the line before), marks
/// those that carry none: an intro, a standfirst or article prose reads
/// like a caption but is not credited like one.
fn mark_uncredited(props: &mut [Props]) {
    /// Sentences needed to judge a page's habit, and the share of them
    /// credited that makes it one.
    const MIN_SENTENCES: usize = 3;
    const MIN_CREDITED_SHARE: f64 = 0.6;
    let sentence = |p: Props| {
        p & (MEDIUM | LONG | HUGE) != 0
            && p & (ENDS_SENTENCE | ENDS_CREDIT) != 0
            && p & CREDIT_ONLY == 0
    };
    let credited: Vec<bool> = (0..props.len())
        .map(|i| {
            props[i] & ENDS_CREDIT != 0
                || props
                    .get(i + 1)
                    .is_some_and(|n| n & (CREDIT_ONLY | CREDIT_LABEL) != 0)
                || (i > 0 && props[i - 1] & CREDIT_LABEL != 0)
        })
        .collect();
    let n_sentences = props.iter().filter(|p| sentence(**p)).count();
    let n_credited = (0..props.len())
        .filter(|&i| sentence(props[i]) && credited[i])
        .count();
    if n_sentences < MIN_SENTENCES || (n_credited as f64) < MIN_CREDITED_SHARE * n_sentences as f64
    {
        return;
    }
    /// The most paragraphs a caption runs on over before its credit.
    const MAX_RUN: usize = 4;
    for i in 0..props.len() {
        if sentence(props[i]) && !credited[i] {
            props[i] |= UNCREDITED;
            let run_on = (i + 1..props.len().min(i + 1 + MAX_RUN))
                .take_while(|&j| sentence(props[j]))
                .any(|j| credited[j]);
            if run_on {
                props[i] |= RUNS_ON_TO_CREDIT;
            }
        }
    }
}

/// Marks the text that a page line holds before a credit label (`ALT TEXT
/// Image copyright NAME/AGENCY`): the picture's alt text, which repeats or
/// sums up the caption that follows the credit.
fn mark_before_credit_labels(input: &str, lines: &[Line], props: &mut [Props]) {
    for i in 0..lines.len().saturating_sub(1) {
        let next = &lines[i + 1];
        let between = input
            .get(lines[i].span.end..next.span.start)
            .unwrap_or("\n");
        if next.label == Label::Credit && !between.contains('\n') {
            props[i] |= BEFORE_CREDIT_LABEL;
        }
    }
}

/// Marks lines whose whole text opens the line after, which goes on past
/// it (`A giant figure burns in Guatemala City` above `A giant figure burns
/// in Guatemala City (Image credit: ...)`): a thumbnail's text or a slide's
/// title that repeats its caption without the credit.
fn mark_teasers(input: &str, lines: &[Line], props: &mut [Props]) {
    /// Shorter openings are headings that a caption may start with by chance.
    const MIN_TEASER: usize = 24;
    for i in 0..lines.len().saturating_sub(1) {
        let text = lines[i].text(input);
        if text.len() < MIN_TEASER {
            continue;
        }
        let next = lines[i + 1].text(input);
        if next.len() > text.len()
            && next.starts_with(text)
            && !next[text.len()..].starts_with(char::is_alphanumeric)
        {
            props[i] |= TEASER;
        }
    }
}

/// Marks lines that stop without a sentence end, a credit or a cut mark
/// while the line below does not carry them on (a blank line, the end, or
/// a capital): headings, titles and menu entries.
fn mark_headlines(input: &str, lines: &[Line], props: &mut [Props]) {
    for i in 0..lines.len() {
        let p = props[i];
        if p & (ENDS_SENTENCE | ENDS_CREDIT | CREDIT_ONLY | TRUNCATED | EMPTY) != 0
            || p & ENDS_OPEN == 0 && !lines[i].text(input).ends_with(char::is_alphanumeric)
        {
            continue;
        }
        if lines[i].text(input).ends_with(',') {
            continue;
        }
        // Carried on by the next line's words, or closed by the credit
        // right under it (`... southeast France` / `JANE DOE`): a caption
        // that the page sets without its full stop.
        let carried_on = lines.get(i + 1).is_some_and(|next| {
            let next_props = props[i + 1];
            !next.blank_before
                && (next
                    .text(input)
                    .starts_with(|c: char| c.is_lowercase() || c.is_ascii_digit())
                    || (next_props & (CREDIT_ONLY | SHOUTED_NAME) != 0
                        && next_props & CREDIT_LABEL == 0))
        });
        if !carried_on {
            props[i] |= HEADLINE;
        }
    }
}

/// The words of a cut copy up to its last whole word (`... in the stre`).
fn cut_word_prefix(kept: &str) -> &str {
    match kept.rfind(' ') {
        Some(space) if space > kept.len() / 2 => &kept[..space],
        _ => kept,
    }
}

/// Navigation and page-furniture words: a line made only of these is a
/// button, a menu or a link row.
const NAVIGATION_WORDS: &[&str] = &[
    "advertisement",
    "back",
    "browse",
    "close",
    "comments",
    "copy",
    "download",
    "edit",
    "editorial",
    "email",
    "embed",
    "enlarge",
    "expand",
    "facebook",
    "fullscreen",
    "gallery",
    "home",
    "link",
    "linkedin",
    "load",
    "log",
    "menu",
    "more",
    "newsletter",
    "next",
    "only",
    "pause",
    "pinterest",
    "play",
    "prev",
    "previous",
    "print",
    "read",
    "reuse",
    "save",
    "search",
    "see",
    "share",
    "show",
    "sign",
    "skip",
    "slideshow",
    "subscribe",
    "this",
    "to",
    "top",
    "tweet",
    "twitter",
    "use",
    "view",
    "whatsapp",
    "x",
    "all",
    "content",
    "less",
    "in",
    "up",
    "photos",
    "images",
    "image",
    "related",
    "topics",
    "licensing",
    "buy",
    "cart",
    "sort",
    "filters",
    "filter",
];

/// Words after which a verb's tense shows (`looks at`, `walked to`).
fn is_preposition(word: &str) -> bool {
    matches!(
        word,
        "at" | "in"
            | "on"
            | "to"
            | "from"
            | "with"
            | "during"
            | "through"
            | "near"
            | "past"
            | "across"
            | "into"
            | "along"
            | "outside"
            | "inside"
            | "under"
            | "over"
            | "after"
            | "as"
            | "for"
            | "by"
            | "around"
    )
}

/// A line's properties, and the credit read off its whitespace-normalized
/// words (kept, so that a caption of this one line is not scanned twice).
#[cfg(test)]
fn line_props(input: &str, line: &Line) -> (Props, Option<CreditFound>) {
    let (p, credit) = text_props(line.text(input));
    (p | marks_props(line), credit)
}

/// The properties of what was cut off a line: its label, counter, bullet.
fn marks_props(line: &Line) -> Props {
    let mut p: Props = 0;
    match line.label {
        Label::Caption => p |= CAPTION_LABEL,
        Label::Credit => p |= CREDIT_LABEL,
        Label::None => {}
    }
    if line.counter {
        p |= COUNTER;
    }
    if line.bullet {
        p |= BULLET;
    }
    p
}

/// The properties of a line's content words, and the credit read off them
/// (see [`line_props`]): a function of the words alone, so that a page
/// that repeats a line (`Download`, `Getty Images`, a gallery's share
/// buttons under each picture) reads it once.
fn text_props(text: &str) -> (Props, Option<CreditFound>) {
    let mut p: Props = 0;
    if text.is_empty() {
        return (EMPTY | TINY | FEW_WORDS, None);
    }
    p |= match text.len() {
        0..16 => TINY,
        16..48 => SHORT,
        48..100 => MEDIUM,
        100..200 => LONG,
        _ => HUGE,
    };
    let last = text.chars().next_back().unwrap_or(' ');
    if matches!(
        last,
        '.' | '!' | '?' | ')' | ']' | '"' | '\u{201d}' | '\u{2019}'
    ) {
        p |= ENDS_SENTENCE;
    } else if matches!(last, ',' | ';' | ':' | '-' | '\u{2013}') || last.is_lowercase() {
        p |= ENDS_OPEN;
    }
    let first = text.chars().next().unwrap_or(' ');
    if first.is_lowercase() {
        p |= STARTS_LOWER;
    } else if first.is_ascii_digit() {
        p |= STARTS_DIGIT;
    } else if matches!(first, '"' | '\u{201c}' | '\'' | '\u{2018}')
        && matches!(last, '"' | '\u{201d}')
    {
        p |= QUOTED;
    }
    // Lines rarely hold runs of white space: copy only those that do.
    let normalized = crate::text::normalized(text);
    let credit = crate::credit::find_credit(&normalized);
    if let Some(found) = &credit {
        // A closing credit may start after an opening bracket or slash.
        p |= if found.span.start <= 2 && found.span.end == normalized.len() {
            CREDIT_ONLY
        } else {
            ENDS_CREDIT
        };
    } else if normalized.len() < 48 && crate::credit::is_shouted_name(&normalized) {
        p |= SHOUTED_NAME;
    }
    if crate::flags::is_truncated(text) {
        p |= TRUNCATED;
    }
    p |= word_props(text, &normalized);
    (p, credit)
}

/// Whether `word` is one of [`NAVIGATION_WORDS`], in any case: one probe
/// of a [`WordTable`](crate::word_table::WordTable), no lowercase copy.
/// (A word here is trimmed to its letters and digits, so no NUL byte pads
/// its end, the one way two words could share a key.)
pub(super) fn is_navigation_word(word: &str) -> bool {
    static WORDS: LazyLock<crate::word_table::WordTable<u8>> = LazyLock::new(|| {
        crate::word_table::WordTable::new(NAVIGATION_WORDS.iter().map(|w| (w.as_bytes(), 1)))
    });
    WORDS.get(word.as_bytes()).is_some()
}

/// [`is_navigation_word`] by a lowercase copy and a set: its oracle.
#[cfg(test)]
fn is_navigation_word_by_set(word: &str) -> bool {
    let set: FxHashSet<String> = NAVIGATION_WORDS.iter().map(|w| w.to_string()).collect();
    set.contains(&word.to_ascii_lowercase())
}

/// Words for pictures in the plural (see [`ABOUT_PICTURES`]); each is six
/// letters or more and starts with p, i or g.
const PICTURE_WORDS: [&str; 6] = [
    "photos",
    "pictures",
    "images",
    "photographs",
    "photojournalists",
    "gallery",
];

/// `word` without the characters that are not letters or digits at its
/// ends, as `trim_matches(|c| !c.is_alphanumeric())` has it; a word that
/// starts and ends with an ASCII letter or digit (most) is returned as it
/// is without decoding a char.
fn trim_to_alphanumeric(word: &str) -> &str {
    let bytes = word.as_bytes();
    if bytes.first().is_some_and(u8::is_ascii_alphanumeric)
        && bytes.last().is_some_and(u8::is_ascii_alphanumeric)
    {
        return word;
    }
    word.trim_matches(|c: char| !c.is_alphanumeric())
}

/// Properties read off the words; `normalized` is `text` with its white
/// space normalized (see [`words`]).
fn word_props(text: &str, normalized: &str) -> Props {
    let mut p: Props = 0;
    let is_month = |w: &str| crate::name::classes_of(w) & crate::name::MONTH != 0;
    let is_day_number =
        |w: &str| !w.is_empty() && w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit());
    // Navigation words matter only on a short line (a long one is no
    // button), so only the first few words are looked up.
    const MAX_NAVIGATION_WORDS: usize = 5;
    let mut n_words = 0;
    let mut previous = "";
    let mut n_capitalized = 0;
    let mut n_long = 0;
    let mut n_navigation = 0;
    for (k, raw) in words(normalized).enumerate() {
        n_words += 1;
        let word = trim_to_alphanumeric(raw);
        if k < MAX_NAVIGATION_WORDS && (word.is_empty() || is_navigation_word(word)) {
            n_navigation += 1;
        }
        if word.len() >= 4 {
            n_long += 1;
            if word.starts_with(char::is_uppercase) {
                n_capitalized += 1;
            }
        }
        if (is_day_number(word) && is_month(previous))
            || (is_day_number(previous) && is_month(word))
        {
            p |= DATE;
        }
        if word.len() == 4
            && (word.starts_with("19") || word.starts_with("20"))
            && word.bytes().all(|b| b.is_ascii_digit())
        {
            p |= YEAR;
        }
        if matches!(
            word,
            "you"
                | "You"
                | "your"
                | "Your"
                | "we"
                | "We"
                | "our"
                | "Our"
                | "us"
                | "subscribe"
                | "Subscribe"
        ) {
            p |= ADDRESSES_READER;
        }
        // A caption shows one picture; the text that introduces a gallery
        // speaks of its pictures (`the best photos of the week`).
        // A capitalized picture word after a capitalized word is a name's
        // (`Getty Images`, `Magnum Photos`), not pictures spoken of.
        let in_a_name = word.starts_with(|c: char| c.is_ascii_uppercase())
            && previous.starts_with(|c: char| c.is_uppercase());
        if word.len() >= 6
            && matches!(word.as_bytes()[0], b'p' | b'P' | b'i' | b'I' | b'g' | b'G')
            && !in_a_name
            && PICTURE_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
        {
            p |= ABOUT_PICTURES;
        }
        if k <= 1 && (word == "by" || word == "By") {
            p |= BYLINE;
        }
        if is_preposition(word)
            && previous.len() > 3
            && previous.bytes().all(|b| b.is_ascii_lowercase())
        {
            if previous.ends_with('s') && !previous.ends_with("ss") {
                p |= SCENE_VERB;
            } else if previous.ends_with("ed") {
                p |= PAST_VERB;
            }
        }
        if matches!(previous, "in" | "In" | "at" | "At") && word.starts_with(char::is_uppercase) {
            p |= PLACE_CUE;
        }
        if is_clock(raw) {
            p |= CLOCK;
        }
        if !word.is_empty() {
            previous = word;
        }
    }
    if n_navigation == n_words && n_words <= MAX_NAVIGATION_WORDS {
        p |= NAVIGATION;
    }
    if n_words <= 3 {
        p |= FEW_WORDS;
    }
    if crate::text::find_short(text, "://").is_some()
        || crate::text::find_short(text, "www.").is_some()
    {
        p |= LINK;
    }
    if n_long >= 2 && n_capitalized * 10 >= n_long * 7 {
        p |= TITLE_CASE;
    }
    // The digits of the words are those of the whole text: white space
    // holds none. Counted eight bytes at a time.
    let n_digit_bytes = crate::swar::count_ascii_digits(normalized.as_bytes());
    if n_digit_bytes * 10 >= text.len() * 3 {
        p |= DIGITS;
    }
    let bytes = text.as_bytes();
    if memchr::memchr2_iter(b'|', b'/', bytes)
        .any(|i| i > 0 && bytes[i - 1] == b' ' && bytes.get(i + 1) == Some(&b' '))
    {
        p |= BARS;
    }
    if is_field(text) {
        p |= FIELD;
    }
    if has_sentence_break(text) {
        p |= SENTENCES;
    }
    if caps_dateline(text) {
        p |= CAPS_DATELINE;
    }
    if is_place_heading(text) {
        p |= PLACE_HEADING;
    }
    if text.starts_with('\u{a9}')
        || text.starts_with("Copyright")
        || crate::text::find_short(text, "All rights reserved").is_some()
    {
        p |= COPYRIGHT;
    }
    p
}

/// The words of a whitespace-normalized text: `text.split_whitespace()` of
/// the text it was normalized from, by a scan for spaces alone, eight
/// bytes at a time (words are a few bytes long: no char is decoded, and no
/// SIMD search is set up for each).
fn words(normalized: &str) -> impl Iterator<Item = &str> {
    let bytes = normalized.as_bytes();
    let mut start = 0;
    let mut done = normalized.is_empty();
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let end = crate::swar::find_byte(bytes, start, b' ').unwrap_or(bytes.len());
        let word = &normalized[start..end];
        done = end == bytes.len();
        start = end + 1;
        Some(word)
    })
}

/// `12:02am`, `16.05`, `09:30`: a time of day.
fn is_clock(word: &str) -> bool {
    let bytes = word.as_bytes();
    bytes.len() >= 4
        && bytes[0].is_ascii_digit()
        && bytes
            .iter()
            .position(|&b| b == b':' || b == b'.')
            .is_some_and(|sep| {
                (1..=2).contains(&sep)
                    && bytes.len() >= sep + 3
                    && bytes[sep + 1].is_ascii_digit()
                    && bytes[sep + 2].is_ascii_digit()
                    && bytes[sep + 3..].iter().all(|b| b.is_ascii_alphabetic())
            })
}

/// `Collection: Anadolu Agency`, `Date created: May 2, 2016`: a short line
/// led by a label of at most three words and a colon.
fn is_field(text: &str) -> bool {
    const MAX_FIELD_LINE_BYTES: usize = 80;
    if text.len() >= MAX_FIELD_LINE_BYTES || !text.starts_with(char::is_uppercase) {
        return false;
    }
    let Some((label, value)) = text.split_once(": ") else {
        return false;
    };
    !value.trim().is_empty()
        && label.split(' ').count() <= 3
        && label
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, ' ' | '#' | '-' | '\''))
}

/// Whether the text has a sentence break: `. ` before a capital, after a
/// word longer than an abbreviation.
fn has_sentence_break(text: &str) -> bool {
    let bytes = text.as_bytes();
    crate::text::match_starts(text, ". ").any(|i| {
        let next_upper = bytes.get(i + 2).is_some_and(u8::is_ascii_uppercase);
        // The word before the full stop: `rsplit(' ').next()`, by a byte loop.
        let word = &text[bytes[..i]
            .iter()
            .rposition(|&b| b == b' ')
            .map_or(0, |s| s + 1)..i];
        next_upper && word.len() > 3 && !word.contains('.')
    })
}

/// `Kharkiv, Ukraine`, `Porto Alegre, Rio Grande do Sul, Brazil`: a short
/// line of capitalized names joined by commas and nothing else, the place
/// heading some pages set above a caption. Particles (`de`, `do`, `al`)
/// may stand inside a name; digits, other punctuation and lower-case words
/// say the line is something else.
pub(crate) fn is_place_heading(text: &str) -> bool {
    const MAX_BYTES: usize = 64;
    if text.len() > MAX_BYTES || !text.contains(", ") {
        return false;
    }
    // A sentence's full stop, not an abbreviation's (`Washington, D.C.`).
    if let Some(kept) = text.strip_suffix('.') {
        if !kept.rsplit(' ').next().is_some_and(|w| w.contains('.')) {
            return false;
        }
    }
    let mut n_names = 0;
    for name in text.split(", ") {
        let words: Vec<&str> = name.split(' ').collect();
        let first = words.first().copied().unwrap_or("");
        let last = words.last().copied().unwrap_or("");
        let is_name_word = |w: &str| {
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars()
                    .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '\u{2019}' | '.'))
        };
        let is_particle = |w: &str| {
            matches!(
                w,
                "de" | "do"
                    | "da"
                    | "del"
                    | "di"
                    | "al"
                    | "el"
                    | "la"
                    | "le"
                    | "of"
                    | "and"
                    | "upon"
                    | "on"
            )
        };
        if words.len() > 4
            || !is_name_word(first)
            || !is_name_word(last)
            || !words.iter().all(|w| is_name_word(w) || is_particle(w))
        {
            return false;
        }
        n_names += 1;
    }
    (2..=3).contains(&n_names)
}

/// `LAS VEGAS, NEVADA - FEBRUARY 11:`: a line opening with upper-case words
/// (three letters or more) and a comma, dash or colon.
fn caps_dateline(text: &str) -> bool {
    let mut n_letters = 0;
    for c in text.chars() {
        if matches!(c, ',' | '-' | '\u{2013}' | ':') {
            return n_letters >= 3;
        }
        if c.is_alphabetic() {
            if !c.is_uppercase() {
                return false;
            }
            n_letters += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::line::read_lines;

    fn props(line: &str) -> Props {
        let lines = read_lines(line);
        props_of(line, &lines).0[0]
    }

    #[test]
    fn shapes_of_lines() {
        assert_ne!(props("Share") & NAVIGATION, 0);
        assert_ne!(props("Download Save Embed") & NAVIGATION, 0);
        assert_eq!(props("Boats wait at anchor in Tyre.") & NAVIGATION, 0);
        assert_ne!(props("Image 3 of 14") & EMPTY, 0);
        assert_ne!(props("Jane Doe/Reuters") & CREDIT_ONLY, 0);
        assert_ne!(props("Fri 26 Jul 2024 16.05 BST") & CLOCK, 0);
        assert_ne!(props("Date created: May 2, 2016") & FIELD, 0);
        assert_ne!(
            props("Use the arrow keys to move through your gallery") & ADDRESSES_READER,
            0
        );
        assert_ne!(
            props("KARSA, FREEDONIA - MAY 2: Men rest.") & CAPS_DATELINE,
            0
        );
        assert_ne!(props("Men rest in Karsa on May 2, 2016.") & DATE, 0);
        assert_ne!(props("Curated by Jane Doe, picture editor") & BYLINE, 0);
        assert_ne!(props("The Long Road To The Coast") & TITLE_CASE, 0);
        assert_ne!(
            props("Porto Alegre, Rio Grande do Sul, Brazil") & PLACE_HEADING,
            0
        );
        assert_ne!(props("Karsa, Freedonia") & PLACE_HEADING, 0);
        assert_eq!(props("Karsa, Freedonia.") & PLACE_HEADING, 0);
        assert_eq!(props("Men rest, Karsa") & PLACE_HEADING, 0);
        assert_eq!(props("Jane Doe, Reuters, 2024") & PLACE_HEADING, 0);
        assert_eq!(props("Karsa") & PLACE_HEADING, 0);
        assert_ne!(props("Washington, D.C.") & PLACE_HEADING, 0);
        assert_ne!(props("SEAMUS RYAN") & SHOUTED_NAME, 0);
        assert_eq!(props("SHARE THIS") & SHOUTED_NAME, 0);
        assert_eq!(props("Seamus Ryan") & SHOUTED_NAME, 0);
    }

    #[test]
    fn teasers_and_alt_texts_are_seen_beside_their_captions() {
        let input = "A lantern procession crosses the old bridge\n\nA lantern procession crosses the old bridge (Image credit: Tran Minh / AFP)\nA lantern procession crosses the old bridgework\nMen rest on a bench. Image copyright Jane Doe/AFP\nImage caption Men rest on a bench in Karsa.\n";
        let lines = read_lines(input);
        let (p, _) = props_of(input, &lines);
        let texts: Vec<&str> = lines.iter().map(|l| l.text(input)).collect();
        assert_eq!(texts.len(), 6, "{texts:?}");
        assert_ne!(p[0] & TEASER, 0);
        // Not at a word's end: no teaser.
        assert_eq!(p[1] & TEASER, 0);
        assert_ne!(p[3] & BEFORE_CREDIT_LABEL, 0, "{texts:?}");
        assert_eq!(p[4] & BEFORE_CREDIT_LABEL, 0);
        assert_eq!(p[0] & BEFORE_CREDIT_LABEL, 0);
    }

    #[test]
    fn cut_copies_and_repeats_are_seen_across_the_page() {
        let input = "Men rest on a bench in the old town of...\nMen rest on a bench in the old town of Karsa, May 2, 2016.\nShare\nShare\n";
        let lines = read_lines(input);
        let (p, _) = props_of(input, &lines);
        assert_ne!(p[0] & CUT_COPY, 0);
        assert_ne!(p[2] & REPEATED, 0);
        assert_eq!(p[1] & (CUT_COPY | REPEATED), 0);
    }

    #[test]
    fn words_of_normalized_text_are_the_whitespace_split_words() {
        for text in [
            "",
            " ",
            "Share",
            "  Men  rest\tin Karsa. ",
            "a\u{a0}b \u{2009} c\u{3000}",
            "Jane Doe/Reuters\n",
        ] {
            let normalized = crate::text::normalized(text);
            let fast: Vec<&str> = words(&normalized).collect();
            let slow: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(fast, slow, "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn trim_to_alphanumeric_is_trim_matches(w in "[a-zA-Z0-9.,'()\"é’ -]{0,8}") {
            proptest::prop_assert_eq!(
                trim_to_alphanumeric(&w),
                w.trim_matches(|c: char| !c.is_alphanumeric())
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn words_match_split_whitespace(text in "[a. \t\u{a0}\u{2009}\u{e9}]{0,20}") {
            let normalized = crate::text::normalized(&text);
            let fast: Vec<&str> = words(&normalized).collect();
            let slow: Vec<&str> = text.split_whitespace().collect();
            proptest::prop_assert_eq!(fast, slow);
        }
    }

    /// Lines of a gallery page, some of which it repeats.
    const GALLERY_LINES: [&str; 9] = [
        "Download",
        "Image caption, Boats wait at the quay in Lowtown.",
        "Boats wait at the quay in Lowtown. Jane Doe/AFP",
        "Getty Images",
        "Image copyright Getty Images",
        "3 / 17 Men rest on a bench...",
        "- Share",
        "",
        "Men rest on a bench in the park. (Photo by Ana Ruiz/Reuters)",
    ];

    proptest::proptest! {
        /// Reading each distinct text once gives every line what reading
        /// each line on its own does.
        #[test]
        fn repeated_lines_read_once_read_alike(picks in proptest::collection::vec(0..GALLERY_LINES.len(), 1..12)) {
            let input: String = picks.iter().map(|&k| GALLERY_LINES[k]).collect::<Vec<_>>().join("\n");
            let lines = read_lines(&input);
            let (props, credits, _) = each_line_props(&input, &lines);
            let (each, each_credits): (Vec<Props>, Vec<Option<CreditFound>>) =
                lines.iter().map(|l| line_props(&input, l)).unzip();
            proptest::prop_assert_eq!(props, each);
            proptest::prop_assert_eq!(credits, each_credits);
        }
    }

    #[test]
    fn navigation_words_by_table_match_the_set() {
        let mut words: Vec<String> = Vec::new();
        for w in NAVIGATION_WORDS {
            words.push(w.to_string());
            words.push(w.to_uppercase());
            words.push(format!("{w}s"));
            words.push(w[..w.len() - 1].to_string());
        }
        words.extend(
            [
                "",
                "Share",
                "SHARE",
                "caf\u{e9}",
                "Gallery",
                "a",
                "xx",
                "photographers",
            ]
            .map(String::from),
        );
        for w in &words {
            assert_eq!(is_navigation_word(w), is_navigation_word_by_set(w), "{w:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn navigation_words_by_table_match_the_set_on_any_word(w in "[a-zA-Z\u{e9}]{1,20}") {
            proptest::prop_assert_eq!(is_navigation_word(&w), is_navigation_word_by_set(&w));
        }
    }

    #[test]
    fn every_feature_has_a_name() {
        assert_eq!(PROP_NAMES.len(), N_PROPS);
        let names = feature_names();
        assert_eq!(names.len(), N_FEATURES);
        assert!(names.iter().all(|n| n != "?"));
    }
}
