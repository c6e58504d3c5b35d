//! Named people in the description, with their ages.
//!
//! A person is a run of capitalized name words (with particles such as
//! `al-`, `bin`, `De`) after any titles, owners and demonyms before it
//! (`Syria's President`, `Kurdish fighter`). A run of two or more words is a
//! person unless it reads as a place, a facility, an organization, a storm
//! or an event. A single word needs a cue: an age, a title, a kinship or
//! role noun before it, an appositive (`Mariam, a nurse`), or a sentence of
//! its own (`Jamila weeps as she ...`).
//!
//! Decisions where `RECORD.md` leaves room:
//! - Titles, ranks, honorifics and their modifiers are not part of the name
//!   (`Vice President`, `Grand Ayatollah`, `Sayyed`, `Dr.`); a name starts
//!   after the last title in its run (`New Zealand Prime Minister X`). A
//!   title that also begins place names (`Sheikh`, `King`, `Imam`, `St.`)
//!   is no cue after `in`/`at`/`the` (`in Sheikh Jarrah`).
//! - An owner before a name (`Kenya's`, `Real Madrid's`) is a country or a
//!   team, not a person.
//! - `age` is in years, from `, 32,` / `, a 9-year-old` / `9-year-old X` /
//!   `, aged 5` / `(7)`, in digits or in words, across a position marker
//!   (`X (L), 34,`); `6-month-old` states no age in years, so none.
//! - A credited photographer is never a person, and neither is a name in a
//!   credit-like run the credit scanner left in the description.
//! - Repeated mentions of one person merge (`Bashar al-Assad` … `President
//!   Assad`), keeping the longer name and any age.

use crate::credit::CreditFound;
use crate::name::{
    number_word, Shape, Words, COMMON, COUNTRY, DEMONYM, EVENT, FUNCTION, KIN, MONTH, OF_PLACE,
    ORG_HEAD, ORG_PREFIX, PARTICLE, PERSON_ADJ, PLACE, PLACE_APPOSITIVE, PLACE_PREFIX, PLACE_PREP,
    PRONOUN, ROLE, SAY, STORM, TITLE, TITLE_MOD, WEEKDAY,
};
use crate::org::{self, fold};
use crate::record::Person;
#[cfg(test)]
use crate::span::Span;

/// Finds the people named in the description (not the credited photographers).
#[cfg(test)]
pub(crate) fn find_persons(
    text: &str,
    description: Span,
    credit: &Option<CreditFound>,
) -> Vec<Person> {
    let words = Words::new(text, description);
    persons_in(&words, &org::mentions(&words), credit)
}

/// The people named in tokenized description `words`, given the
/// organizations found there (whose words are no person's name).
pub(crate) fn persons_in(
    words: &Words<'_>,
    org_mentions: &[org::OrgMention],
    credit: &Option<CreditFound>,
) -> Vec<Person> {
    let mut in_org = vec![false; words.tokens.len()];
    for m in org_mentions {
        for flag in in_org.iter_mut().take(m.last + 1).skip(m.first) {
            *flag = true;
        }
    }
    let ages_ahead = ages_ahead(words);
    // The credited supplier is no person either (`a photograph released by
    // Lowtown Parks. Lowtown Parks/Reuters`).
    let creators: Vec<String> = credit
        .iter()
        .flat_map(|c| c.credit.creators.iter().chain(c.credit.source.iter()))
        .map(|name| fold(name))
        .collect();
    let mut persons: Vec<Person> = Vec::new();
    for chunk in chunks(words) {
        let Some(found) = person_in(words, chunk, &in_org, &ages_ahead) else {
            continue;
        };
        let folded = fold(&found.name);
        if creators.contains(&folded) {
            continue;
        }
        add(&mut persons, found);
    }
    persons
}

/// Adds a person, merging it with an earlier mention of the same name
/// (`Bashar al-Assad` … `President Assad`): the longer name and any age stay.
fn add(persons: &mut Vec<Person>, found: Person) {
    let folded = fold(&found.name);
    let same = |p: &Person| {
        let other = fold(&p.name);
        contains_words(&other, &folded) || contains_words(&folded, &other)
    };
    match persons.iter_mut().find(|p| same(p)) {
        Some(p) => {
            if found.name.len() > p.name.len() {
                p.name = found.name;
                p.span = found.span;
            }
            p.age = p.age.or(found.age);
        }
        None => persons.push(found),
    }
}

/// Whether the words of `needle` appear together in `haystack`.
fn contains_words(haystack: &str, needle: &str) -> bool {
    !needle.is_empty() && format!(" {haystack} ").contains(&format!(" {needle} "))
}

/// A run of name words, token indices `first..=last`.
#[derive(Debug, Clone, Copy)]
struct Chunk {
    first: usize,
    last: usize,
}

/// The runs of capitalized words (with particles between them); a
/// possessive word ends its run (`Kenya's | Eliud Kipchoge`).
fn chunks(words: &Words<'_>) -> Vec<Chunk> {
    let n = words.tokens.len();
    let cap = |i: usize| words.get(i).is_some_and(|t| t.is_cap());
    // Room for a long caption's runs up front: growing from empty cost two
    // reallocations a caption.
    let mut out = Vec::with_capacity(16);
    let mut i = 0;
    while i < n {
        if !cap(i) {
            i += 1;
            continue;
        }
        let first = i;
        let mut last = i;
        while words.get(last).is_some_and(|t| !t.possessive) {
            if cap(last + 1) {
                last += 1;
                continue;
            }
            // Lowercase particles between names: `Jawad al Rifai`, `Rio de la Plata`.
            let mut j = last + 1;
            while words
                .get(j)
                .is_some_and(|t| t.shape == Shape::Lower && t.has(PARTICLE))
                && j < last + 3
            {
                j += 1;
            }
            if j > last + 1 && cap(j) {
                last = j;
                continue;
            }
            break;
        }
        out.push(Chunk { first, last });
        i = last + 1;
    }
    out
}

/// Words that introduce a name (`a boy named Omar`).
const NAMING_VERBS: &[&str] = &["named", "called", "nicknamed"];

/// The age written as `N-year-old` (`9-year-old`, `Three-year-old`,
/// `twenty-two-year-old`).
fn year_old_age(word: &str) -> Option<u16> {
    // Runs for every word: most are too short to hold a number and the
    // shortest ending (`1-year-old`); compare the ending in place, no copy.
    if word.len() < "1-year-old".len() {
        return None;
    }
    let number = ["-year-old", "-years-old", "-year-olds", "-year old"]
        .iter()
        .find_map(|suffix| strip_suffix_ignore_ascii_case(word, suffix))?;
    age_value(number)
}

/// `word` without `suffix` (ASCII) at its end, in any ASCII case.
fn strip_suffix_ignore_ascii_case<'w>(word: &'w str, suffix: &str) -> Option<&'w str> {
    let cut = word.len().checked_sub(suffix.len())?;
    let ending = word.as_bytes().get(cut..)?;
    if ending.eq_ignore_ascii_case(suffix.as_bytes()) {
        word.get(..cut)
    } else {
        None
    }
}

/// An age written in digits (1 to 120) or in words (`one` to `ninety-nine`).
fn age_value(word: &str) -> Option<u16> {
    const MAX_AGE: u16 = 120;
    if !word.is_empty() && word.len() <= 3 && word.bytes().all(|b| b.is_ascii_digit()) {
        return word
            .parse::<u16>()
            .ok()
            .filter(|&age| (1..=MAX_AGE).contains(&age));
    }
    number_word(word)
}

/// For each token, the age of a `N-year-old` before it that describes the
/// name starting there (`8-year-old Kurdish fighter Rana` → Rana).
fn ages_ahead(words: &Words<'_>) -> Vec<Option<u16>> {
    const MAX_DESCRIPTORS: usize = 5;
    let mut out = vec![None; words.tokens.len()];
    for (k, t) in words.tokens.iter().enumerate() {
        if !t.is_word() {
            continue;
        }
        let Some(age) = year_old_age(words.word(k)) else {
            continue;
        };
        let mut j = k + 1;
        while j <= k + MAX_DESCRIPTORS {
            let Some(d) = words.get(j) else { break };
            let descriptor = match d.shape {
                Shape::Cap => d.has(DEMONYM | TITLE | TITLE_MOD) && !d.possessive,
                Shape::Lower => {
                    d.has(ROLE | KIN | PERSON_ADJ | TITLE | TITLE_MOD | DEMONYM)
                        || NAMING_VERBS.iter().any(|w| words.is_word(j, w))
                }
                _ => false,
            };
            if !descriptor {
                break;
            }
            j += 1;
        }
        if let Some(slot) = out.get_mut(j) {
            if words.get(j).is_some_and(|d| d.is_cap()) {
                *slot = Some(age);
            }
        }
    }
    out
}

/// The age stated right after a name: `, 32,` / `, a 9-year-old` / `, aged 5` / `(7)`.
fn age_after(words: &Words<'_>, last: usize) -> Option<u16> {
    let last = past_position_marker(words, last);
    let t1 = words.get(last + 1)?;
    if t1.is('(') {
        let closes = words.get(last + 3).is_some_and(|t| t.is(')'));
        return if closes {
            age_value(words.word(last + 2)).filter(|_| is_digits(words.word(last + 2)))
        } else {
            None
        };
    }
    if !t1.is(',') {
        return None;
    }
    let second = words.word(last + 2);
    if is_digits(second) || number_word(second).is_some() {
        let age = age_value(second)?;
        // The number must stand alone: `, 32,` but not `, 20 km` or `, 2016`.
        let ends = match words.get(last + 3) {
            None => true,
            Some(t) if t.shape == Shape::Punct => {
                matches!(t.punct, ',' | '.' | ';' | ')' | ':' | '–' | '—')
            }
            Some(_) => {
                let next = words.word(last + 3);
                let joins = [
                    "and", "who", "whose", "of", "from", "was", "is", "has", "had", "were",
                ];
                let years_old = ["year", "years"]
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case(next))
                    && words.is_word(last + 4, "old");
                is_digits(second) && joins.iter().any(|w| w.eq_ignore_ascii_case(next))
                    || next.eq_ignore_ascii_case("and")
                    || years_old
            }
        };
        return ends.then_some(age);
    }
    // `, who is 10,` / `, who was 10 years old`.
    if words.is_word(last + 2, "who")
        && (words.is_word(last + 3, "is") || words.is_word(last + 3, "was"))
    {
        let number = words.word(last + 4);
        let stands_alone = words.get(last + 5).is_none_or(|t| t.shape == Shape::Punct)
            || (words.is_word(last + 5, "years") && words.is_word(last + 6, "old"));
        return age_value(number)
            .filter(|_| stands_alone && (is_digits(number) || number_word(number).is_some()));
    }
    if words.is_word(last + 2, "a") || words.is_word(last + 2, "an") {
        return year_old_age(words.word(last + 3));
    }
    if words.is_word(last + 2, "aged") {
        return age_value(words.word(last + 3));
    }
    year_old_age(second)
}

/// The last token of a picture-position marker after a name (`(L)`,
/// `(2nd R)`, `(front)`), or `last` when none follows.
fn past_position_marker(words: &Words<'_>, last: usize) -> usize {
    const MAX_MARKER_WORDS: usize = 3;
    const MARKER_WORDS: &[&str] = &[
        "l", "r", "c", "left", "right", "centre", "center", "front", "back", "top", "bottom",
        "l-r", "r-l", "2nd", "3rd", "4th", "second", "third", "rear", "middle",
    ];
    if !words.get(last + 1).is_some_and(|t| t.is('(')) {
        return last;
    }
    let close =
        (last + 2..=last + 2 + MAX_MARKER_WORDS).find(|&i| words.get(i).is_some_and(|t| t.is(')')));
    match close {
        Some(close)
            if close > last + 2
                && (last + 2..close).all(|i| MARKER_WORDS.iter().any(|m| words.is_word(i, m))) =>
        {
            close
        }
        _ => last,
    }
}

/// Whether a word is all ASCII digits.
fn is_digits(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

/// How an appositive after a name (`NAME, a …`) reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Appositive {
    /// `, a nurse`, `, the father of`, `, a 9-year-old`: a person.
    Person,
    /// `, a village east of`, `, the Syrian capital`: a place.
    Place,
    /// No appositive, or one that says neither.
    Neither,
}

/// Reads the appositive after token `last`.
fn appositive(words: &Words<'_>, last: usize) -> Appositive {
    const MAX_WORDS: usize = 8;
    let last = past_position_marker(words, last);
    let article = ["a", "an", "the"]
        .iter()
        .any(|a| words.is_word(last + 2, a));
    if !words.get(last + 1).is_some_and(|t| t.is(',')) || !article {
        return Appositive::Neither;
    }
    for j in last + 3..last + 3 + MAX_WORDS {
        let Some(t) = words.get(j) else { break };
        if !t.is_word() {
            break;
        }
        if t.shape == Shape::Lower && t.has(PLACE_APPOSITIVE) {
            return Appositive::Place;
        }
        if (t.shape == Shape::Lower && t.has(ROLE | KIN | TITLE))
            || year_old_age(words.word(j)).is_some()
        {
            return Appositive::Person;
        }
    }
    Appositive::Neither
}

/// Titles that also begin names of places (`Sheikh Jarrah`, `King Fahd
/// Road`, `Imam Ali shrine`, `St. Louis`).
const PLACE_TITLES: &[&str] = &[
    "sheikh", "sheik", "saint", "st", "st.", "imam", "king", "queen", "prince", "princess", "emir",
    "sultan", "sayyed", "sayyid", "sidi", "mar",
];

/// Words before a place-title that make it a place (`in Sheikh Jarrah`,
/// `the Sheikh Maqsoud district`); `to King X` stays a person.
const PLACE_TITLE_CONTEXT: &[&str] = &[
    "in", "at", "near", "from", "inside", "outside", "into", "across", "the", "of", "around",
    "through",
];

/// The titles skipped before a name.
#[derive(Debug, Default)]
struct TitleWords {
    /// A title that only ever stands before a person (`President` aside).
    strong: bool,
    /// A title that also begins place names.
    weak: bool,
}

impl TitleWords {
    /// Records one title word.
    fn add(&mut self, word: &str) {
        if PLACE_TITLES.iter().any(|w| w.eq_ignore_ascii_case(word)) {
            self.weak = true;
        } else {
            self.strong = true;
        }
    }

    /// Whether no title was skipped.
    fn none(&self) -> bool {
        !self.strong && !self.weak
    }
}

/// The person named by a chunk, if it names one.
fn person_in(
    words: &Words<'_>,
    chunk: Chunk,
    in_org: &[bool],
    ages_ahead: &[Option<u16>],
) -> Option<Person> {
    let token = |i: usize| words.get(i);
    let in_org = |i: usize| in_org.get(i).copied().unwrap_or(false);
    let lower_before = |class| {
        chunk.first > 0
            && token(chunk.first - 1)
                .is_some_and(|t| t.shape == Shape::Lower && t.has(class) && !t.possessive)
    };

    // Storms and events are never people, even behind a title-like word.
    if (chunk.first..=chunk.last).any(|i| {
        token(i).is_some_and(|t| t.has(STORM) || (t.has(EVENT) && !t.has(TITLE | TITLE_MOD)))
    }) {
        return None;
    }
    // A name in quotes is a title of something (`"I Love Damascus" marathon`).
    let quoted = chunk.first > 0
        && token(chunk.first - 1).is_some_and(|t| t.is('"') || t.is('“'))
        && token(chunk.last + 1).is_some_and(|t| t.is('"') || t.is('”'));
    // A short name in brackets after an organization is its other name
    // (`California Department of Forestry and Fire Protection (Cal Fire)`).
    let bracketed_after_org = chunk.first > 1
        && token(chunk.first - 1).is_some_and(|t| t.is('('))
        && token(chunk.last + 1).is_some_and(|t| t.is(')'))
        && in_org(chunk.first - 2);
    if quoted || bracketed_after_org {
        return None;
    }

    // Skip what stands before the name: titles, owners, demonyms, articles.
    let mut first = chunk.first;
    let mut title_words = TitleWords::default();
    let mut after_preposition = false;
    while first <= chunk.last {
        let t = token(first)?;
        if in_org(first) || t.has(TITLE | TITLE_MOD) {
            if !in_org(first) && t.has(TITLE) {
                title_words.add(words.base(first));
            }
        } else if t.has(DEMONYM | FUNCTION | COMMON) {
            // `In Khan Younis`, `The Holy See`: a capitalized preposition or
            // article reads like its lowercase form.
            after_preposition |= t.has(PLACE_PREP) || words.word(first) == "The";
        } else {
            break;
        }
        first += 1;
    }
    // A title further in starts the name after it, whatever precedes it
    // (`New Zealand Prime Minister X`, `South Sudanese President X`).
    // Only a run of title words holding a real title counts: `State` alone
    // (`Golden State Warriors`) is no title.
    let is_title_word =
        |i: usize| token(i).is_some_and(|t| t.has(TITLE | TITLE_MOD) && !t.possessive);
    if let Some(title_end) = (first..chunk.last)
        .rev()
        .find(|&i| is_title_word(i) && !is_title_word(i + 1))
    {
        let mut title_start = title_end;
        while title_start > first && is_title_word(title_start - 1) {
            title_start -= 1;
        }
        let heads: Vec<usize> = (title_start..=title_end)
            .filter(|&i| token(i).is_some_and(|t| t.has(TITLE)))
            .collect();
        if !heads.is_empty() {
            for i in heads {
                title_words.add(words.base(i));
            }
            first = title_end + 1;
        }
    }
    // An owner before a name is a team, country or organization
    // (`Manchester United's Marcus Rashford`), not a person of its own.
    let owner = token(chunk.last).is_some_and(|t| t.possessive)
        && token(chunk.last + 1).is_some_and(|t| t.is_cap() || t.shape == Shape::Upper);
    // `Donetsk People's Republic`: a possessive that belongs inside a name.
    let inner_possessive = token(chunk.last)
        .is_some_and(|t| t.possessive && t.has(ROLE | COMMON) && chunk.last > first);
    if (owner && title_words.none()) || inner_possessive {
        return None;
    }
    // A date after the name ends it (`Karim Tuesday` cannot be a name).
    let mut last = chunk.last;
    if let Some(date) = (first..=chunk.last).find(|&i| is_date_word(words, i)) {
        if date == first {
            return None;
        }
        last = date - 1;
    }
    if first > last {
        return None;
    }
    let single = first == last;
    let name_tokens = || first..=last;

    // Organizations, known places, place and facility names are not people:
    // `Nasser Hospital`, `Bekaa Valley`, `Sheikh Jarrah neighbourhood`.
    if name_tokens().any(|i| {
        in_org(i)
            || token(i)
                .is_some_and(|t| t.known.place || (t.has(ORG_HEAD) && !t.has(TITLE | TITLE_MOD)))
    }) {
        return None;
    }
    if token(first).is_some_and(|t| t.has(PLACE_PREFIX | ORG_PREFIX)) {
        return None;
    }
    if single && token(first).is_some_and(|t| t.has(COUNTRY | DEMONYM | COMMON | FUNCTION)) {
        return None;
    }
    let place_noun_after = token(last + 1).is_some_and(|t| t.shape == Shape::Lower && t.has(PLACE));
    let age = ages_ahead
        .get(first)
        .copied()
        .flatten()
        .or_else(|| ages_ahead.get(chunk.first).copied().flatten())
        .or_else(|| age_after(words, last));
    // A surname may be a place word (`President Lena Park`) only behind a
    // title that never begins a place name, or with an age.
    let place_last = token(last).is_some_and(|t| t.has(PLACE));
    if place_noun_after || (place_last && !title_words.strong && age.is_none()) {
        return None;
    }
    let place_context = reads_as_place(words, chunk.first, last, after_preposition);
    // A capitalized Arabic article opens names of teams, channels and places
    // (`Al Ahly`, `Al Mayadeen`), not of people, unless a cue says so.
    let article_first = ["Al", "El"].contains(&words.word(first)) && !single;
    // A title that also begins place names (`Sheikh Jarrah`, `King Fahd`)
    // only counts where no place is expected.
    let before_place_title = chunk.first > 0
        && PLACE_TITLE_CONTEXT
            .iter()
            .any(|w| words.is_word(chunk.first - 1, w))
        || after_preposition;
    let title =
        title_words.strong || (title_words.weak && !before_place_title) || lower_before(TITLE);
    // `her sister Marwa`, `his son, Omar,`, `a boy named Omar`.
    let kin = lower_before(KIN | ROLE)
        || (chunk.first > 1
            && token(chunk.first - 1).is_some_and(|t| t.is(','))
            && token(chunk.first - 2).is_some_and(|t| t.shape == Shape::Lower && t.has(KIN)))
        || (chunk.first > 0
            && NAMING_VERBS
                .iter()
                .any(|w| words.is_word(chunk.first - 1, w)));
    // `Hamza, who lost …` / `Hamza, whose father …`: only people take `who`;
    // `said Mahmoud`: only people speak.
    let relative = words.get(last + 1).is_some_and(|t| t.is(','))
        && (words.is_word(last + 2, "who") || words.is_word(last + 2, "whose"));
    let speaker = chunk.first > 0
        && token(chunk.first - 1).is_some_and(|t| t.shape == Shape::Lower && t.has(SAY));
    let kin = kin || relative || speaker;
    let apposition = appositive(words, last);
    let strong = age.is_some() || title || kin || apposition == Appositive::Person;

    if apposition == Appositive::Place {
        return None;
    }
    // `Jubilant Palestinians`, `Ethnic Rohingya`: an adjective that opens a
    // sentence before a people is no first name.
    let demonym_inside = (first + 1..=last).any(|i| token(i).is_some_and(|t| t.has(DEMONYM)));
    if !strong && (article_first || demonym_inside) {
        return None;
    }
    if !strong && place_context && !of_country_after(words, last) {
        return None;
    }
    if single && !strong && !weak_single_cue(words, first, last) {
        return None;
    }
    Some(Person {
        name: words.phrase(first, last).to_string(),
        age,
        span: words.phrase_span(first, last),
    })
}

/// Whether token `i` is a weekday, or a month used as a date: a month
/// before a name word is a first name (`Jan Egeland`, `April Ryan`) unless a
/// number or a date preposition stands before it.
fn is_date_word(words: &Words<'_>, i: usize) -> bool {
    const DATE_LEAD: &[&str] = &[
        "in", "on", "of", "since", "until", "by", "from", "during", "early", "late", "mid", "last",
        "next", "this", "through", "till",
    ];
    let Some(t) = words.get(i) else { return false };
    if t.has(WEEKDAY) {
        return true;
    }
    if !t.has(MONTH) {
        return false;
    }
    let name_follows = words.get(i + 1).is_some_and(|n| n.is_cap());
    let number_before = i > 0 && words.get(i - 1).is_some_and(|p| p.shape == Shape::Number);
    let lead = i > 0 && DATE_LEAD.iter().any(|w| words.is_word(i - 1, w));
    let abbreviated = words.word(i).ends_with('.');
    !name_follows || number_before || lead || abbreviated
}

/// Whether the words around a name make it a place: a preposition of place
/// before it (`in`, `near`, `the town of`), `the` before it, a place noun
/// after it (`X street`, `X camp`), or `, Country` after it.
fn reads_as_place(
    words: &Words<'_>,
    chunk_first: usize,
    last: usize,
    after_preposition: bool,
) -> bool {
    if after_preposition {
        return true;
    }
    if chunk_first > 0 {
        let before = words.get(chunk_first - 1);
        let lower = |class| before.is_some_and(|t| t.shape == Shape::Lower && t.has(class));
        if lower(PLACE_PREP) || words.is_word(chunk_first - 1, "the") {
            return true;
        }
        if words.is_word(chunk_first - 1, "of") && chunk_first > 1 {
            let owner = words.get(chunk_first - 2);
            if owner.is_some_and(|t| t.has(OF_PLACE | PLACE)) {
                return true;
            }
        }
    }
    if words
        .get(last + 1)
        .is_some_and(|t| t.shape == Shape::Lower && t.has(PLACE))
    {
        return true;
    }
    // `Stephenville, La.` / `Rio de Janeiro, Brazil`.
    if words.get(last + 1).is_some_and(|t| t.is(',')) {
        let next = words.get(last + 2);
        if next.is_some_and(|t| {
            matches!(t.shape, Shape::Cap | Shape::Upper) && (t.has(COUNTRY) || t.known.place)
        }) {
            return true;
        }
    }
    false
}

/// Whether `of <Country>` follows the name (`Usain Bolt of Jamaica`): a
/// sports caption naming the athlete's country, not a place.
fn of_country_after(words: &Words<'_>, last: usize) -> bool {
    if !words.is_word(last + 1, "of") {
        return false;
    }
    let at = if words.is_word(last + 2, "the") {
        last + 3
    } else {
        last + 2
    };
    words.get(at).is_some_and(|t| {
        matches!(t.shape, Shape::Cap | Shape::Upper) && (t.has(COUNTRY) || t.known.place)
    })
}

/// The weaker cues that let a single word be a name: it opens a sentence
/// as the subject of a verb with a pronoun pointing back (`Jamila weeps as
/// she …`), it says something (`…, Karim said`), it is followed by `and
/// his/her`, or it owns a relative (`Karim's mother`).
fn weak_single_cue(words: &Words<'_>, first: usize, last: usize) -> bool {
    let Some(t) = words.get(first) else {
        return false;
    };
    let next = words.get(last + 1);
    if next.is_some_and(|n| n.shape == Shape::Lower && n.has(SAY)) && !t.possessive {
        return true;
    }
    if t.possessive {
        return next.is_some_and(|n| n.shape == Shape::Lower && n.has(KIN));
    }
    if words.is_word(last + 1, "and")
        && (words.is_word(last + 2, "his") || words.is_word(last + 2, "her"))
    {
        return true;
    }
    if !t.sentence_start {
        return false;
    }
    let verb = words.word(last + 1);
    let third_person = next
        .is_some_and(|n| n.shape == Shape::Lower && !n.has(FUNCTION | PLACE_PREP))
        && verb.len() >= 3
        && verb.ends_with('s')
        && !verb.ends_with("ss");
    third_person && pronoun_follows(words, last + 2)
}

/// Whether a personal pronoun follows before the sentence ends.
fn pronoun_follows(words: &Words<'_>, from: usize) -> bool {
    words.tokens[from.min(words.tokens.len())..]
        .iter()
        .take_while(|t| !(t.is('.') || t.is('!') || t.is('?')))
        .any(|t| t.shape == Shape::Lower && t.has(PRONOUN))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text and any description span: no panic, and every person's
        /// span covers exactly its name, inside the description.
        #[test]
        fn never_panics_and_spans_hold_the_names(
            text in "([A-Z][a-z]{0,6}|al-|[0-9]{1,3}|-year-old|’s|'s|[ ,.()“”/:-]|é|ß|İ){0,40}",
            a in 0usize..300,
            b in 0usize..300,
        ) {
            let (start, end) = (a.min(b), a.max(b));
            let found = find_persons(&text, Span::new(start, end), &None);
            for person in &found {
                prop_assert_eq!(person.span.of(&text), person.name.as_str());
                prop_assert!(person.span.end <= text.len());
                prop_assert!(!person.name.is_empty());
            }
            let _ = org::find_organizations(&text, Span::new(start, end), &None);
        }

        /// Arbitrary Unicode never panics either.
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,120}", a in 0usize..500, b in 0usize..500) {
            let span = Span::new(a.min(b), a.max(b));
            let _ = find_persons(&text, span, &None);
            let _ = org::find_organizations(&text, span, &None);
        }
    }

    fn persons(text: &str) -> Vec<(String, Option<u16>)> {
        find_persons(text, Span::new(0, text.len()), &None)
            .into_iter()
            .map(|p| (p.name, p.age))
            .collect()
    }

    fn p(name: &str, age: Option<u16>) -> (String, Option<u16>) {
        (name.to_string(), age)
    }

    #[test]
    fn titles_and_owners_are_not_part_of_the_name() {
        assert_eq!(
            persons("A mural shows Ruritania's President Omar al-Fadi beside opposition leader Sami Haddad."),
            [p("Omar al-Fadi", None), p("Sami Haddad", None)]
        );
        assert_eq!(
            persons("Vice President Lena Park listens."),
            [p("Lena Park", None)]
        );
        assert_eq!(
            persons("Chile's Rosa Quintero raises her arms."),
            [p("Rosa Quintero", None)]
        );
        assert_eq!(
            persons("Grand Ayatollah Hadi Karimi prays."),
            [p("Hadi Karimi", None)]
        );
    }

    #[test]
    fn ages_attach_in_every_form() {
        assert_eq!(
            persons("Leyla, a 7-year-old girl, plays."),
            [p("Leyla", Some(7))]
        );
        assert_eq!(
            persons("Displaced boy Omid, 5, sleeps."),
            [p("Omid", Some(5))]
        );
        assert_eq!(
            persons("Neighbours help 10-year-old Sami Aziz home."),
            [p("Sami Aziz", Some(10))]
        );
        assert_eq!(
            persons("Her sister, 21-year-old Yazidi nurse Nadia Bako, waits."),
            [p("Nadia Bako", Some(21))]
        );
        assert_eq!(
            persons("Four-year-old Ilya Petrov waits."),
            [p("Ilya Petrov", Some(4))]
        );
        assert_eq!(
            persons("Refugee Karim, one, sleeps."),
            [p("Karim", Some(1))]
        );
        assert_eq!(
            persons("Mona Diab, 40, whose 12-year-old son Ali Diab is missing, waits."),
            [p("Mona Diab", Some(40)), p("Ali Diab", Some(12))]
        );
    }

    #[test]
    fn ages_in_years_old_and_relative_clauses() {
        assert_eq!(
            persons("Lina Aziz, 9 years old, waits."),
            [p("Lina Aziz", Some(9))]
        );
        assert_eq!(
            persons("Omar Haddad, who is 12, waits."),
            [p("Omar Haddad", Some(12))]
        );
        assert_eq!(
            persons("Omar Haddad, who is 12 km away, waits."),
            [p("Omar Haddad", None)]
        );
    }

    #[test]
    fn ages_skip_position_markers_and_naming_words() {
        assert_eq!(
            persons("Rami Saad (L), 34, and his son, Karim, 6, wait."),
            [p("Rami Saad", Some(34)), p("Karim", Some(6))]
        );
        assert_eq!(
            persons("A 12-year-old girl named Hiba smiles."),
            [p("Hiba", Some(12))]
        );
    }

    #[test]
    fn relative_clauses_and_speech_mark_people() {
        assert_eq!(
            persons("Hamza, whose father was killed, stands."),
            [p("Hamza", None)]
        );
        assert_eq!(
            persons("\"Gone,\" said Rasha, a teacher."),
            [p("Rasha", None)]
        );
        assert!(persons("Aleppo, which was besieged, recovers.").is_empty());
    }

    #[test]
    fn single_names_need_a_cue() {
        assert_eq!(
            persons("Amira weeps as she holds her son."),
            [p("Amira", None)]
        );
        assert_eq!(
            persons("A boy is comforted by his brother Yusuf."),
            [p("Yusuf", None)]
        );
        assert!(persons("Rescuers dig as Idlib burns.").is_empty());
        assert!(persons("Aleppo residents wait.").is_empty());
    }

    #[test]
    fn places_storms_and_facilities_are_not_people() {
        assert!(persons("Cars drive in Port Said, near Tal Hamra, past Karim Street.").is_empty());
        assert!(
            persons("Homes flooded after Hurricane Nadine and Tropical Storm Oscar.").is_empty()
        );
        assert!(
            persons("Patients wait at Rafik Hariri Hospital in the town of Beit Umar.").is_empty()
        );
        assert!(persons("Supplies reach Jabal Harun, a village east of Homs.").is_empty());
        assert!(persons("Fans gather at Lusail Stadium, Doha, Qatar.").is_empty());
    }

    #[test]
    fn titles_deeper_in_a_run_start_the_name() {
        assert_eq!(
            persons("Costa Verde Prime Minister Tomas Varga speaks."),
            [p("Tomas Varga", None)]
        );
        assert_eq!(persons("Crowds cheer King Faisal."), [p("Faisal", None)]);
        assert!(persons("Police stand in the Sheikh Hamad neighbourhood.").is_empty());
        assert!(persons("Shops reopen in Sheikh Hamad, north of Homs.").is_empty());
    }

    #[test]
    fn a_month_before_a_name_is_a_first_name() {
        assert_eq!(
            persons("Jan Lindqvist, the agency's chief, visited on May 3."),
            [p("Jan Lindqvist", None)]
        );
        assert!(persons("Crowds gathered in March Tarek Square.").is_empty());
    }

    #[test]
    fn title_modifiers_alone_are_no_title() {
        assert!(persons("Fans of the Golden State Warriors cheer.").is_empty());
        assert_eq!(
            persons("WHO Director-General Ana Torres speaks."),
            [p("Ana Torres", None)]
        );
        assert_eq!(
            persons("Hong Kong Chief Executive Mei Lin speaks."),
            [p("Mei Lin", None)]
        );
    }

    #[test]
    fn owners_before_a_name_are_not_people() {
        assert_eq!(
            persons("Real Oviedo's Pablo Ruiz scores."),
            [p("Pablo Ruiz", None)]
        );
        assert!(persons("Residents of the Luhansk People's Republic queue.").is_empty());
    }

    #[test]
    fn codes_articles_and_other_names_are_not_people() {
        assert!(persons("An Airbus A320 lands.").is_empty());
        assert!(persons("Fans of Al Wahda cheer.").is_empty());
        assert!(persons("The Holy Grail exhibit opens.").is_empty());
        assert!(persons("Crews of the Ruritania Fire Service (Red Watch) rest.").is_empty());
        assert_eq!(
            persons("Former Vice President Al Gore speaks."),
            [p("Al Gore", None)]
        );
    }

    #[test]
    fn an_adjective_before_a_people_is_no_name() {
        assert!(persons("Jubilant Palestinians wave flags. Ethnic Rohingya wait.").is_empty());
    }

    #[test]
    fn athletes_of_a_country_are_people() {
        assert_eq!(
            persons("Mei Tanaka of Japan smiles at Ana Silva of Brazil."),
            [p("Mei Tanaka", None), p("Ana Silva", None)]
        );
    }

    #[test]
    fn repeated_mentions_merge() {
        assert_eq!(
            persons("President Omar al-Fadi waves; al-Fadi's aide and President Fadi wait."),
            [p("Omar al-Fadi", None)]
        );
    }

    #[test]
    fn photographers_in_credit_runs_are_not_people() {
        assert_eq!(
            persons("Salma Idris, 30, waits. REUTERS/Omar Khalil"),
            [p("Salma Idris", Some(30))]
        );
        assert!(persons("Boys wait. (AP Photo/Ruth Green)").is_empty());
    }
}
