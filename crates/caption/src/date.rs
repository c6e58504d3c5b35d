//! Calendar dates in wire styles, their roles, and the date taken.
//!
//! [`scan`] finds the dates as written, [`role`] decides what each is the
//! date of, and this module settles years and picks `date_created`:
//! - a date written without a year takes the year of the caption's first
//!   `created` date that has one, else of the nearest date that has one; with
//!   no year anywhere in the caption it is no date at all (not in `dates`);
//! - a date that is not on the calendar (`February 30, 2016`) is no date;
//! - `date_created` is the `created` date stated by a taken phrase if there is
//!   one, else the most precise `created` date (day before month before
//!   year), then one in dateline position (after a comma or a name rather
//!   than a preposition: `a school hit on March 3, 2016, in Lowtown,
//!   Freedonia, May 2, 2016` is May 2), the first of equals;
//! - a stated weekday is checked only against a year written in the date
//!   itself, since a borrowed year may be the wrong one;
//! - a `dates` entry covers the words as written, a leading weekday included
//!   (`Friday, Nov. 25, 2021`), so a mismatch can be shown where it is.
//!
//! A date range (`Dec. 12-13, 2016`) is its first day.

mod role;
mod scan;

pub(crate) use scan::{names_month, names_weekday};

use crate::record::{DateMention, DateRole, PartialDate};
use crate::span::Span;

use crate::swar::last_ascii_digit;
use role::Cue;
use scan::RawDate;

/// How many tokens past the last number are read: a number looks at most
/// two tokens on (a glued suffix or separator and the digits after it), a
/// date ends at most one token past its last number (`7th`), and the photo
/// cue reads three tokens past the date (`, file photo`): four at most, and
/// two more for margin.
const LOOKAHEAD_TOKENS: usize = 6;

/// What the date scanner found.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct DatesFound {
    /// Every date, in text order.
    pub mentions: Vec<DateMention>,
    /// The date taken.
    pub created: Option<PartialDate>,
    /// A stated weekday disagrees with its date.
    pub weekday_mismatch: bool,
}

/// A date with its role decided, before its year is settled.
struct Classified {
    raw: RawDate,
    role: DateRole,
    /// Stated by a taken phrase (`Picture taken ...`).
    taken: bool,
    /// Written where a dateline puts the scene date: after a comma or a
    /// name, not after a preposition (`Lowtown, Freedonia May 2, 2016`, not
    /// `destroyed on March 3, 2016`).
    dateline: bool,
}

/// Scans the description part of `text` for dates.
// Out of line: it runs once per caption, and profiles then show its cost.
#[inline(never)]
pub(crate) fn find_dates(text: &str, description: Span) -> DatesFound {
    let description = clamp(text, description);
    // Every wire pattern has a digit (a day or a year): without one there is
    // nothing to tokenize, and past the last one only a few tokens matter.
    let Some(last_digit) = last_ascii_digit(description.of(text).as_bytes()) else {
        return DatesFound::default();
    };
    let mut tokens = scan::tokenize(
        text,
        description,
        description.start + last_digit,
        LOOKAHEAD_TOKENS,
    );
    // The scene of a caption that opens with an editor's note is its second
    // sentence, if it has one, which may start anywhere.
    if role::is_editors_note(text, &tokens, 0) {
        tokens = scan::tokenize(text, description, description.end, 0);
    }
    let raws = scan::scan(text, &tokens);
    if raws.is_empty() {
        return DatesFound::default();
    }
    let classified = classify(text, &tokens, raws);
    settle(text, &classified)
}

/// `description` cut to `text` and to char boundaries, so any span is safe.
fn clamp(text: &str, span: Span) -> Span {
    let mut end = span.end.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut start = span.start.min(end);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    Span::new(start, end)
}

/// Decides each date's role from its cue and its sentence.
fn classify(text: &str, tokens: &[scan::Token], raws: Vec<RawDate>) -> Vec<Classified> {
    let editors_note = role::is_editors_note(text, tokens, 0);
    // After an editor's note the scene is the second sentence wherever it
    // starts; otherwise sentences past the last date matter to none.
    let until = match raws.last() {
        Some(last) if !editors_note => last.first,
        _ => tokens.len(),
    };
    let starts = role::sentence_starts(text, tokens, until);
    let scene = usize::from(editors_note && starts.len() > 1);
    let mut out: Vec<Classified> = Vec::with_capacity(raws.len());
    let mut weak_in_scene = None;
    for raw in raws {
        let sentence = starts
            .partition_point(|&s| s <= raw.first)
            .saturating_sub(1);
        let sentence_start = starts[sentence];
        let in_scene = sentence == scene;
        let cue = role::cue(text, tokens, raw.first, raw.last, sentence_start);
        let (role, taken) = match cue {
            Some(Cue::Release) => (DateRole::Published, false),
            Some(Cue::Taken) => (DateRole::Created, true),
            Some(Cue::Background) => (DateRole::Other, false),
            Some(Cue::WeakBackground) => {
                if in_scene && !raw.bare_year && weak_in_scene.is_none() {
                    weak_in_scene = Some(out.len());
                }
                (DateRole::Other, false)
            }
            None if in_scene && !raw.bare_year => (DateRole::Created, false),
            None => {
                let scene_stamp = (in_scene && closes_scene_dateline(text, tokens, &raw))
                    || is_date_sentence(tokens, &raw, sentence_start);
                if weak_in_scene.is_none() && scene_stamp {
                    weak_in_scene = Some(out.len());
                }
                (DateRole::Other, false)
            }
        };
        let dateline = role::is_dateline_position(text, tokens, raw.first);
        out.push(Classified {
            raw,
            role,
            taken,
            dateline,
        });
    }
    // `Children play after school in Lowtown on May 2, 2016`: a weak cue does
    // not take the only candidate away from the scene, and neither does the
    // bare year closing a dateline (`... in Lowtown, Freedonia, in 2013.`).
    if let Some(index) = weak_in_scene {
        if !out.iter().any(|c| c.role == DateRole::Created) {
            out[index].role = DateRole::Created;
        }
    }
    out
}

/// `... in Lowtown, Freedonia. July 19, 2020`: a date that is a sentence
/// of its own, with no cue and no other word, stamps the picture the way a
/// dateline does; it is the date taken when the caption names no other.
fn is_date_sentence(tokens: &[scan::Token], raw: &RawDate, sentence_start: usize) -> bool {
    let ends_sentence = tokens
        .get(raw.last + 1)
        .is_none_or(|t| matches!(t.kind, scan::Kind::Punct('.' | '!' | '?')));
    !raw.bare_year && raw.day.is_some() && raw.first == sentence_start && ends_sentence
}

/// `..., Freedonia, in 2013.`: a bare year after `, in` that ends the
/// sentence, where a dateline puts the scene's date.
fn closes_scene_dateline(text: &str, tokens: &[scan::Token], raw: &RawDate) -> bool {
    let word_at = |i: usize| {
        tokens
            .get(i)
            .filter(|t| t.kind == scan::Kind::Word)
            .map(|t| scan::token_text(text, *t))
    };
    let ends_sentence = tokens
        .get(raw.last + 1)
        .is_none_or(|t| matches!(t.kind, scan::Kind::Punct('.' | '!' | '?')));
    raw.bare_year
        && ends_sentence
        && raw.first >= 2
        && word_at(raw.first - 1).is_some_and(|w| w.eq_ignore_ascii_case("in"))
        && tokens[raw.first - 2].kind == scan::Kind::Punct(',')
}

/// Settles years, checks weekdays, builds the mentions and picks the date taken.
fn settle(text: &str, classified: &[Classified]) -> DatesFound {
    let reference_year = classified
        .iter()
        .find(|c| c.role == DateRole::Created && c.raw.year.is_some())
        .and_then(|c| c.raw.year);
    let mut found = DatesFound {
        mentions: Vec::with_capacity(classified.len()),
        ..DatesFound::default()
    };
    let mut best: Option<((bool, u8, bool), PartialDate)> = None;
    for (index, item) in classified.iter().enumerate() {
        let raw = item.raw;
        let Some(year) = raw
            .year
            .or(reference_year)
            .or_else(|| nearest_year(classified, index))
        else {
            continue;
        };
        let Some(date) = on_calendar(year, raw.month, raw.day) else {
            continue;
        };
        if let (Some(stated), Some(_), Some(civil)) = (raw.weekday, raw.year, civil(date)) {
            if civil.weekday() != stated {
                found.weekday_mismatch = true;
            }
        }
        found.mentions.push(DateMention {
            date,
            role: item.role,
            text: raw.span.of(text).to_string(),
            span: raw.span,
        });
        if item.role == DateRole::Created {
            let precision = u8::from(date.month.is_some()) + u8::from(date.day.is_some());
            let rank = (item.taken, precision, item.dateline);
            if best.is_none_or(|(best_rank, _)| rank > best_rank) {
                best = Some((rank, date));
            }
        }
    }
    found.created = best.map(|(_, date)| date);
    found
}

/// The year of the written-year date nearest to `classified[index]`.
fn nearest_year(classified: &[Classified], index: usize) -> Option<i16> {
    classified
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.raw.year.map(|year| (i.abs_diff(index), year)))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, year)| year)
}

/// The date if it is on the calendar (`February 30` is not).
fn on_calendar(year: i16, month: Option<u8>, day: Option<u8>) -> Option<PartialDate> {
    let date = PartialDate {
        year,
        month,
        day: day.filter(|_| month.is_some()),
    };
    match (month, day) {
        (Some(_), Some(_)) => civil(date).map(|_| date),
        (Some(m), None) => (1..=12).contains(&m).then_some(date),
        _ => Some(date),
    }
}

/// The jiff date of a day-precise [`PartialDate`].
fn civil(date: PartialDate) -> Option<jiff::civil::Date> {
    let month = i8::try_from(date.month?).ok()?;
    let day = i8::try_from(date.day?).ok()?;
    jiff::civil::Date::new(date.year, month, day).ok()
}

#[cfg(test)]
mod tests;
