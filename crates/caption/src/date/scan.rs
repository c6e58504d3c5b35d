//! A hand-written scanner for dates as wire services write them.
//!
//! Patterns, each optionally after a weekday (`Friday, Nov. 25, 2021`):
//! - month, day, optional year: `October 7, 2016`, `Oct. 7 2016`, `Sept 3`,
//!   `October 7th, 2016`, `DECEMBER 15`, `Dec. 12-13, 2016` (the first day);
//! - day, month, optional year: `7 October 2016`, `05 August 2020`, `7th of October`;
//! - month year: `October 2016`, `mid-March 2021`;
//! - ISO: `2016-10-07`, `2016/10/07`;
//! - a bare year after a cue word (`in 2010`, `since 2013`, `this 2012 photo`).
//!
//! Months must be capitalized (`may` and `march` are words), abbreviations
//! without a full stop need a day (`Jan 5`, never `Jan 2016`), and a bare
//! year needs its cue, because four digits alone are as often a count.

use std::sync::LazyLock;

use jiff::civil::Weekday;

use crate::span::Span;
use crate::swar;
use crate::word_table::WordTable;

/// One lexical token of the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Token {
    /// First byte in the caption text.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// What it is.
    pub kind: Kind,
}

/// Token kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Letters, with apostrophes inside (`Russia's`).
    Word,
    /// ASCII digits.
    Number,
    /// Any other character, one per token.
    Punct(char),
}

/// Splits `span` of `text` into tokens; offsets are into `text`. Past byte
/// `through` only `lookahead` tokens are read: what follows the last digit
/// can hold no date, only the words after one that the scanner and the role
/// cues look at. ASCII is read eight bytes at a time; only other characters
/// are decoded.
pub(super) fn tokenize(text: &str, span: Span, through: usize, lookahead: usize) -> Vec<Token> {
    // Cut at the span's end, so that eight-byte loads stop there.
    let bytes = &text.as_bytes()[..span.end];
    let mut tokens = Vec::with_capacity((through.min(span.end) - span.start) / 5 + lookahead + 1);
    let mut read_past = 0;
    let mut i = span.start;
    while i < bytes.len() {
        let b = bytes[i];
        // A space is most often next; skip it before anything else.
        if b == b' ' {
            i += 1;
            continue;
        }
        let start = i;
        let kind = if b.is_ascii() {
            i += 1;
            if b.is_ascii_digit() {
                Kind::Number
            } else if b.is_ascii_alphabetic() {
                Kind::Word
            } else if matches!(b, b' ' | b'\t'..=b'\r') {
                // What `char::is_whitespace` says of ASCII.
                continue;
            } else {
                Kind::Punct(char::from(b))
            }
        } else {
            let (c, len) = char_at(text, bytes, i);
            i += len;
            if c.is_alphabetic() {
                Kind::Word
            } else if c.is_whitespace() {
                continue;
            } else {
                Kind::Punct(c)
            }
        };
        if matches!(kind, Kind::Number | Kind::Word) {
            i = token_end(text, bytes, i, kind);
        }
        tokens.push(Token {
            start,
            end: i,
            kind,
        });
        if start > through {
            read_past += 1;
            if read_past >= lookahead {
                break;
            }
        }
    }
    tokens
}

/// Where the word or number that goes on at byte `i` ends: ASCII eight
/// bytes at a time, other characters decoded.
#[inline(always)]
fn token_end(text: &str, bytes: &[u8], mut i: usize, kind: Kind) -> usize {
    loop {
        let eight = swar::eight_at(bytes, i);
        let continues = match kind {
            Kind::Number => swar::in_ascii_range(eight, b'0', b'9'),
            _ => swar::ascii_letters(eight) | swar::bytes_equal(eight, b'\''),
        };
        let run = swar::leading_flagged(continues);
        i += run;
        if run == 8 {
            continue;
        }
        // Past the span, or an ASCII byte that ends the token.
        if bytes.get(i).is_none_or(u8::is_ascii) || kind == Kind::Number {
            return i;
        }
        let (next, next_len) = char_at(text, bytes, i);
        if !(next.is_alphabetic() || next == '’') {
            return i;
        }
        i += next_len;
    }
}

/// The character at byte `i` (a char boundary) and its length.
fn char_at(text: &str, bytes: &[u8], i: usize) -> (char, usize) {
    match bytes[i] {
        b if b < 0x80 => (char::from(b), 1),
        _ => text[i..]
            .chars()
            .next()
            .map_or((' ', 1), |c| (c, c.len_utf8())),
    }
}

/// A date as written, before its year is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RawDate {
    /// The covered words, a leading weekday included.
    pub span: Span,
    /// Index of the first token (the weekday when there is one).
    pub first: usize,
    /// Index of the last token.
    pub last: usize,
    /// Year, when written.
    pub year: Option<i16>,
    /// Month, when written.
    pub month: Option<u8>,
    /// Day, when written.
    pub day: Option<u8>,
    /// The weekday written before it.
    pub weekday: Option<Weekday>,
    /// A year standing alone (`in 2010`): only a taken cue makes it the date taken.
    pub bare_year: bool,
}

/// Earliest and latest year read as a year; outside this a number is a count.
const YEARS: std::ops::RangeInclusive<i16> = 1800..=2199;

/// Range for a bare year, narrower because a cue word is weaker evidence.
const BARE_YEARS: std::ops::RangeInclusive<i16> = 1900..=2099;

/// Finds every date in the tokens, in order.
pub(super) fn scan(text: &str, tokens: &[Token]) -> Vec<RawDate> {
    // Room for the usual few, so that the first date does not grow it.
    let mut found = Vec::with_capacity(4);
    let mut i = 0;
    while i < tokens.len() {
        if let Some(date) = date_at(text, tokens, i) {
            i = date.last + 1;
            found.push(date);
        } else {
            i += 1;
        }
    }
    found
}

/// A date starting at token `i`.
fn date_at(text: &str, tokens: &[Token], i: usize) -> Option<RawDate> {
    let token = tokens[i];
    match token.kind {
        Kind::Word => {
            // Most words are not capitalized: rule those out first.
            if !text.as_bytes()[token.start].is_ascii_uppercase() {
                return None;
            }
            let word = &text[token.start..token.end];
            // A word starts a date only as a weekday or a month: one probe
            // rules out every other word.
            if calendar_bits(word) == 0 {
                return None;
            }
            if let Some(weekday) = weekday(word, tokens, i) {
                let mut j = i + 1;
                if is_punct(tokens, j, '.') {
                    j += 1;
                }
                if is_punct(tokens, j, ',') {
                    j += 1;
                }
                let mut date = date_core(text, tokens, j)?;
                date.first = i;
                date.span.start = token.start;
                date.weekday = Some(weekday);
                return Some(date);
            }
            date_core(text, tokens, i)
        }
        Kind::Number => date_core(text, tokens, i),
        Kind::Punct(_) => None,
    }
}

/// A date without its weekday, starting at token `i`.
fn date_core(text: &str, tokens: &[Token], i: usize) -> Option<RawDate> {
    let token = *tokens.get(i)?;
    match token.kind {
        Kind::Word => month_first(text, tokens, i),
        Kind::Number => iso(text, tokens, i)
            .or_else(|| day_first(text, tokens, i))
            .or_else(|| bare_year(text, tokens, i)),
        Kind::Punct(_) => None,
    }
}

/// `October 7, 2016`, `Oct. 7`, `October 2016`, `Dec. 12-13, 2016`.
fn month_first(text: &str, tokens: &[Token], i: usize) -> Option<RawDate> {
    let (month, abbreviated) = month(token_text(text, tokens[i]))?;
    let mut j = i + 1;
    let dotted = is_punct(tokens, j, '.') && tokens[j].start == tokens[i].end;
    if dotted {
        j += 1;
    }
    if let Some((day, after_day)) = day_number(text, tokens, j) {
        let mut last = after_day - 1;
        let mut k = after_day;
        // `Dec. 12-13`: a range keeps its first day.
        if is_punct(tokens, k, '-') && day_number(text, tokens, k + 1).is_some() {
            last = k + 1;
            k += 2;
        }
        // `DECEMBER 15: ...` (Getty) ends the day with a colon, which is fine;
        // `May 2 15:30` is a time and never reaches here as a year.
        let comma = usize::from(is_punct(tokens, k, ','));
        let mut year = None;
        if let Some(y) = year_number(text, tokens, k + comma) {
            year = Some(y);
            last = k + comma;
        }
        return Some(raw(tokens, i, last, year, Some(month), Some(day)));
    }
    // Month and year: only a full name or a dotted abbreviation (`Oct. 2016`).
    if abbreviated && !dotted {
        return None;
    }
    let comma = usize::from(is_punct(tokens, j, ','));
    let year = year_number(text, tokens, j + comma)?;
    Some(raw(tokens, i, j + comma, Some(year), Some(month), None))
}

/// `7 October 2016`, `05 August 2020`, `7th of October`.
fn day_first(text: &str, tokens: &[Token], i: usize) -> Option<RawDate> {
    let (day, mut j) = day_number(text, tokens, i)?;
    if tokens
        .get(j)
        .is_some_and(|t| t.kind == Kind::Word && token_text(text, *t).eq_ignore_ascii_case("of"))
    {
        j += 1;
    }
    let (month, abbreviated) = month(token_text(text, *tokens.get(j)?))?;
    let mut last = j;
    let mut k = j + 1;
    if is_punct(tokens, k, '.') && tokens[k].start == tokens[j].end {
        k += 1;
    }
    let comma = usize::from(is_punct(tokens, k, ','));
    let year = year_number(text, tokens, k + comma);
    if year.is_some() {
        last = k + comma;
    } else if abbreviated {
        // `3 Mar` without a year is too weak to be a date.
        return None;
    }
    Some(raw(tokens, i, last, year, Some(month), Some(day)))
}

/// `2016-10-07`, `2016/10/07`.
fn iso(text: &str, tokens: &[Token], i: usize) -> Option<RawDate> {
    let parts = tokens.get(i..i + 5)?;
    let sep = match parts[1].kind {
        Kind::Punct(c @ ('-' | '/')) => c,
        _ => return None,
    };
    let adjacent = parts.windows(2).all(|w| w[0].end == w[1].start);
    let shaped = parts[3].kind == Kind::Punct(sep)
        && [0, 2, 4].iter().all(|&p| parts[p].kind == Kind::Number)
        && parts[0].end - parts[0].start == 4
        && parts[2].end - parts[2].start == 2
        && parts[4].end - parts[4].start == 2;
    if !adjacent || !shaped || glued_after(tokens, i + 4) {
        return None;
    }
    let year: i16 = token_text(text, parts[0]).parse().ok()?;
    let month: u8 = token_text(text, parts[2]).parse().ok()?;
    let day: u8 = token_text(text, parts[4]).parse().ok()?;
    if !YEARS.contains(&year) || !(1..=12).contains(&month) {
        return None;
    }
    Some(raw(tokens, i, i + 4, Some(year), Some(month), Some(day)))
}

/// Words after which a four-digit number is a year (`in 2010`, `since
/// 2013`, `mid-2016`, `this 2012 photo`).
const BARE_YEAR_CUES: [&str; 18] = [
    "in", "since", "until", "till", "before", "after", "during", "from", "early", "late", "mid",
    "this", "of", "spring", "summer", "autumn", "fall", "winter",
];

/// Words after a year that make it the year of a picture (`a 2010 photo`).
const YEAR_PHOTO_WORDS: [&str; 6] = ["photo", "file", "picture", "image", "handout", "photograph"];

/// A four-digit year standing alone after a cue word.
fn bare_year(text: &str, tokens: &[Token], i: usize) -> Option<RawDate> {
    let year = year_number(text, tokens, i)?;
    if !BARE_YEARS.contains(&year) {
        return None;
    }
    let mut p = i.checked_sub(1)?;
    if is_punct(tokens, p, '-') && tokens[p].end == tokens[i].start {
        p = p.checked_sub(1)?;
    }
    let cue = token_text(text, tokens[p]);
    let cued =
        tokens[p].kind == Kind::Word && BARE_YEAR_CUES.iter().any(|c| c.eq_ignore_ascii_case(cue));
    // `a 2010 photo`, `this 2012 file picture`: the photo word is cue enough.
    let names_photo = tokens
        .get(i + 1)
        .filter(|t| t.kind == Kind::Word)
        .is_some_and(|t| {
            YEAR_PHOTO_WORDS
                .iter()
                .any(|w| w.eq_ignore_ascii_case(token_text(text, *t)))
        });
    if !cued && !names_photo {
        return None;
    }
    // `2015-16` is a season, not a year.
    if is_punct(tokens, i + 1, '-') && tokens[i + 1].start == tokens[i].end {
        return None;
    }
    let mut date = raw(tokens, i, i, Some(year), None, None);
    date.bare_year = true;
    Some(date)
}

/// Builds a [`RawDate`] over tokens `first..=last`.
fn raw(
    tokens: &[Token],
    first: usize,
    last: usize,
    year: Option<i16>,
    month: Option<u8>,
    day: Option<u8>,
) -> RawDate {
    RawDate {
        span: Span::new(tokens[first].start, tokens[last].end),
        first,
        last,
        year,
        month,
        day,
        weekday: None,
        bare_year: false,
    }
}

/// A day of month at token `i` (1–2 digits, 1–31, an optional ordinal
/// suffix), and the index after it.
fn day_number(text: &str, tokens: &[Token], i: usize) -> Option<(u8, usize)> {
    let token = *tokens.get(i)?;
    if token.kind != Kind::Number || token.end - token.start > 2 {
        return None;
    }
    let day: u8 = token_text(text, token).parse().ok()?;
    if !(1..=31).contains(&day) {
        return None;
    }
    let mut next = i + 1;
    if let Some(suffix) = tokens
        .get(next)
        .filter(|t| t.kind == Kind::Word && t.start == token.end)
    {
        if !["st", "nd", "rd", "th"]
            .iter()
            .any(|s| s.eq_ignore_ascii_case(token_text(text, *suffix)))
        {
            return None; // `5km`
        }
        next += 1;
    } else if glued_after(tokens, i) {
        return None;
    }
    Some((day, next))
}

/// A four-digit year at token `i`, not glued to more digits or letters.
fn year_number(text: &str, tokens: &[Token], i: usize) -> Option<i16> {
    let token = *tokens.get(i)?;
    if token.kind != Kind::Number || token.end - token.start != 4 {
        return None;
    }
    if tokens.get(i + 1).is_some_and(|next| {
        next.start == token.end && matches!(next.kind, Kind::Word | Kind::Number)
    }) {
        return None; // `2010s`
    }
    let year: i16 = token_text(text, token).parse().ok()?;
    YEARS.contains(&year).then_some(year)
}

/// Whether the token after `i` is glued to it and makes it something else
/// (`5.5`, `5,000`, `5km`, `10:30`).
fn glued_after(tokens: &[Token], i: usize) -> bool {
    let (Some(token), Some(next)) = (tokens.get(i), tokens.get(i + 1)) else {
        return false;
    };
    if next.start != token.end {
        return false;
    }
    match next.kind {
        Kind::Word | Kind::Number => true,
        Kind::Punct('.' | ',' | ':' | '/') => tokens
            .get(i + 2)
            .is_some_and(|after| after.start == next.end && after.kind == Kind::Number),
        Kind::Punct(_) => false,
    }
}

/// Month names, full then abbreviated.
const MONTHS_FULL: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const MONTHS_SHORT: [(&str, u8); 12] = [
    ("jan", 1),
    ("feb", 2),
    ("mar", 3),
    ("apr", 4),
    ("jun", 6),
    ("jul", 7),
    ("aug", 8),
    ("sep", 9),
    ("sept", 9),
    ("oct", 10),
    ("nov", 11),
    ("dec", 12),
];

/// Weekday names, full then abbreviated.
const WEEKDAYS_FULL: [(&str, Weekday); 7] = [
    ("monday", Weekday::Monday),
    ("tuesday", Weekday::Tuesday),
    ("wednesday", Weekday::Wednesday),
    ("thursday", Weekday::Thursday),
    ("friday", Weekday::Friday),
    ("saturday", Weekday::Saturday),
    ("sunday", Weekday::Sunday),
];
const WEEKDAYS_SHORT: [(&str, Weekday); 10] = [
    ("mon", Weekday::Monday),
    ("tue", Weekday::Tuesday),
    ("tues", Weekday::Tuesday),
    ("wed", Weekday::Wednesday),
    ("thu", Weekday::Thursday),
    ("thur", Weekday::Thursday),
    ("thurs", Weekday::Thursday),
    ("fri", Weekday::Friday),
    ("sat", Weekday::Saturday),
    ("sun", Weekday::Sunday),
];

/// Every month and weekday name in one table, so that a capitalized word
/// costs one probe. Four bits each: the month of a full name, the month of
/// an abbreviation, then 1 + the index into [`WEEKDAYS_FULL`] and into
/// [`WEEKDAYS_SHORT`] (no name is in two lists of one kind).
static CALENDAR_WORDS: LazyLock<WordTable<u16>> = LazyLock::new(|| {
    let months_full = MONTHS_FULL
        .iter()
        .zip(1u16..)
        .map(|(name, month)| (name.as_bytes(), month));
    let months_short = MONTHS_SHORT
        .iter()
        .map(|(name, month)| (name.as_bytes(), u16::from(*month) << 4));
    let weekdays_full = WEEKDAYS_FULL
        .iter()
        .zip(1u16..)
        .map(|((name, _), n)| (name.as_bytes(), n << 8));
    let weekdays_short = WEEKDAYS_SHORT
        .iter()
        .zip(1u16..)
        .map(|((name, _), n)| (name.as_bytes(), n << 12));
    WordTable::new(
        months_full
            .chain(months_short)
            .chain(weekdays_full)
            .chain(weekdays_short),
    )
});

/// Whether a capitalized word names a month, in full or abbreviated.
pub(crate) fn names_month(word: &str) -> bool {
    calendar_bits(word) & 0xff != 0
}

/// Whether a capitalized word names a weekday, in full or abbreviated.
pub(crate) fn names_weekday(word: &str) -> bool {
    calendar_bits(word) & 0xff00 != 0
}

/// A capitalized word's [`CALENDAR_WORDS`] entry, 0 when it has none.
fn calendar_bits(word: &str) -> u16 {
    let bytes = word.as_bytes();
    // Every name has three to nine letters.
    let [first @ b'A'..=b'Z', second, ..] = *bytes else {
        return 0;
    };
    if !(3..=9).contains(&bytes.len()) || !opens_calendar_word(first, second) {
        return 0;
    }
    CALENDAR_WORDS.get(bytes).unwrap_or(0)
}

/// For each capital, the small letters that follow it in some month or
/// weekday name, one bit each: most capitalized words (`Syria`, `Aleppo`)
/// are ruled out before a probe.
const CALENDAR_OPENINGS: [u32; 26] = {
    let mut openings = [0u32; 26];
    let mut i = 0;
    while i < MONTHS_FULL.len() {
        openings = with_opening(openings, MONTHS_FULL[i]);
        i += 1;
    }
    let mut i = 0;
    while i < MONTHS_SHORT.len() {
        openings = with_opening(openings, MONTHS_SHORT[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < WEEKDAYS_FULL.len() {
        openings = with_opening(openings, WEEKDAYS_FULL[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < WEEKDAYS_SHORT.len() {
        openings = with_opening(openings, WEEKDAYS_SHORT[i].0);
        i += 1;
    }
    openings
};

/// `openings` with the first two letters of `name` (small letters) added.
const fn with_opening(mut openings: [u32; 26], name: &str) -> [u32; 26] {
    let bytes = name.as_bytes();
    openings[(bytes[0] - b'a') as usize] |= 1 << (bytes[1] - b'a');
    openings
}

/// Whether a month or weekday name starts with the capital `first` and the
/// letter `second` in any case.
fn opens_calendar_word(first: u8, second: u8) -> bool {
    let second = second.to_ascii_lowercase();
    second.is_ascii_lowercase()
        && CALENDAR_OPENINGS[usize::from(first - b'A')] & (1 << (second - b'a')) != 0
}

/// The four-bit field of `bits` at `shift`.
fn field(bits: u16, shift: u32) -> usize {
    usize::from((bits >> shift) & 0xf)
}

/// The month a capitalized word names, and whether it is an abbreviation.
fn month(word: &str) -> Option<(u8, bool)> {
    let bits = calendar_bits(word);
    match (field(bits, 0), field(bits, 4)) {
        (0, 0) => None,
        (0, short) => Some((short as u8, true)),
        (full, _) => Some((full as u8, false)),
    }
}

/// The weekday a capitalized word names (`Friday`, or `Fri.` with its stop).
fn weekday(word: &str, tokens: &[Token], i: usize) -> Option<Weekday> {
    let bits = calendar_bits(word);
    if bits == 0 {
        return None;
    }
    let full = field(bits, 8);
    if full > 0 {
        return Some(WEEKDAYS_FULL[full - 1].1);
    }
    // An abbreviation only with its full stop: `Sun` alone is a newspaper.
    let short = field(bits, 12);
    let dotted = is_punct(tokens, i + 1, '.');
    (dotted && short > 0).then(|| WEEKDAYS_SHORT[short - 1].1)
}

/// Whether token `i` is the punctuation `c`.
pub(super) fn is_punct(tokens: &[Token], i: usize, c: char) -> bool {
    tokens.get(i).is_some_and(|t| t.kind == Kind::Punct(c))
}

/// The text of a token.
pub(super) fn token_text(text: &str, token: Token) -> &str {
    text.get(token.start..token.end).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_calendar_name_passes_the_opening_test() {
        let names = MONTHS_FULL
            .iter()
            .copied()
            .chain(MONTHS_SHORT.iter().map(|(name, _)| *name))
            .chain(WEEKDAYS_FULL.iter().map(|(name, _)| *name))
            .chain(WEEKDAYS_SHORT.iter().map(|(name, _)| *name));
        for name in names {
            let [first, second, ..] = *name.as_bytes() else {
                unreachable!("{name}")
            };
            let capital = first.to_ascii_uppercase();
            assert!(opens_calendar_word(capital, second), "{name}");
            assert!(
                opens_calendar_word(capital, second.to_ascii_uppercase()),
                "{name}"
            );
            let capitalized = format!("{}{}", char::from(capital), &name[1..]);
            assert_ne!(calendar_bits(&capitalized), 0, "{name}");
        }
        assert!(!opens_calendar_word(b'S', b'y'));
        assert_eq!(calendar_bits("Syria"), 0);
    }
}
