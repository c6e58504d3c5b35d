//! Mentions: the capitalized phrases of a sentence that may be places, each
//! with the cue before it.

use std::borrow::Cow;

use gazetteer::{CountryCode, Gazetteer, Place};

use super::classify::classify;
use super::lexicon::{
    is_demonym, is_name_particle, is_one_of, never_in_place_name, starts_upper, strip_possessive,
    DIRECTIONS, ROLE_WORDS,
};
use super::tokens::Token;
use crate::date::{names_month, names_weekday};
use crate::span::Span;

/// The cue before a place phrase, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Cue {
    /// `in`, `at`, `on`, `inside`, `town of`, a Getty dateline.
    Scene,
    /// `of` (`the main street of X`), `into`.
    Of,
    /// No preposition, but a place pattern follows (`X, Syria`, `X, north of`).
    Bare,
    /// `from`, `over`, `towards`, `across`, `to`, `with`.
    Weak,
    /// `near`, `outside`, `outskirts of`, `N km north of`: locates another place.
    Reference,
}

// ---------------------------------------------------------------------------
// Mentions

#[derive(Debug, Clone, PartialEq)]
pub(super) enum MentionKind {
    Country(CountryCode),
    /// An admin1 division, resolved when the gazetteer knows it.
    Province {
        code: Option<String>,
        country: Option<CountryCode>,
    },
    /// A named place finer than a town.
    Sublocation {
        name: String,
        district: bool,
    },
    /// A town, city or village, possibly resolved.
    Settlement {
        resolved: Option<ResolvedPlace>,
        explicit_head: bool,
    },
    /// A region (`eastern Ghouta`): context only.
    Region,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct ResolvedPlace {
    pub(super) place: Place,
}

impl From<Place> for ResolvedPlace {
    fn from(place: Place) -> ResolvedPlace {
        ResolvedPlace { place }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Mention {
    pub(super) kind: MentionKind,
    /// The name as written (without its head word).
    pub(super) name: String,
    /// The words as written, head included.
    pub(super) span: Span,
    pub(super) cue: Cue,
    /// Index of the first token, for ordering and adjacency.
    pub(super) first_token: usize,
    pub(super) last_token: usize,
    /// `X, Y`: this mention directly follows another mention after a comma.
    pub(super) after_comma_of_mention: bool,
    /// `X neighbourhood of Y`: the next mention is this one's parent.
    pub(super) district_of_next: bool,
    /// A date stands between an earlier scene settlement and this
    /// mention: "in Palm Beach, Fla., Tuesday, April 4, after a hearing
    /// in New York City" (the date closes the scene; what follows is
    /// background).
    pub(super) after_scene_date: bool,
}

impl Mention {
    pub(super) fn is_place(&self) -> bool {
        !matches!(self.kind, MentionKind::Region)
    }
}

/// Capitalized phrases of a sentence, classified.
pub(super) fn find_mentions(text: &str, tokens: &[Token], gazetteer: &Gazetteer) -> Vec<Mention> {
    let mut mentions: Vec<Mention> = Vec::new();
    // One buffer for every phrase's words: most phrases turn out to be no place.
    let mut words: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let Some(end) = phrase_end(text, tokens, i, gazetteer) else {
            i += 1;
            continue;
        };
        words.clear();
        words.extend(tokens[i..end].iter().map(|t| t.text(text)));
        let cue = cue_before(text, tokens, i);
        // "Olney, in Buckinghamshire", "Noosa, in Queensland": `, in`
        // after a place joins the container to it as a comma does (so
        // does a title's "Poole, In Memoriam": no finer place either).
        let comma_in = i >= 2
            && tokens[i - 1].is_word()
            && tokens[i - 1].text(text).eq_ignore_ascii_case("in")
            && tokens[i - 2].is_punct(',')
            && mentions.last().is_some_and(|m| m.last_token + 3 == i);
        let after_comma = comma_in
            || (i >= 1
                && tokens[i - 1].is_punct(',')
                && mentions.last().is_some_and(|m| m.last_token + 2 == i));
        // "at the Olympic Stadium, Rio de Janeiro": a place after a comma
        // continues the previous one and shares its cue.
        let cue = match mentions.last() {
            Some(previous) if after_comma && previous.cue < cue => previous.cue,
            _ => cue,
        };
        // "Damascus's Sabaa Bahrat Square": a place owned by the town
        // before it shares its cue.
        let after_possessive = mentions.last().is_some_and(|m| {
            m.last_token + 1 == i
                && matches!(m.kind, MentionKind::Settlement { .. })
                && strip_possessive(tokens[m.last_token].text(text)).is_some()
        });
        // "in eastern Sudan's Kassala state": so does a place a country owns.
        let after_country_possessive = mentions.last().is_some_and(|m| {
            m.last_token + 1 == i
                && matches!(m.kind, MentionKind::Country(_))
                && strip_possessive(tokens[m.last_token].text(text)).is_some()
        });
        let cue = match mentions.last() {
            Some(previous) if after_possessive && previous.cue < cue => previous.cue,
            _ => cue,
        };
        let country_cue = mentions
            .last()
            .filter(|_| after_country_possessive)
            .map(|m| m.cue);
        let joined = (after_comma, after_possessive);
        if let Some(mut mention) = classify(text, tokens, i, end, &words, cue, joined, gazetteer) {
            // ... when it is a division ("Spain's North African enclave"
            // is no place of Spain's).
            if let Some(owner_cue) = country_cue {
                if matches!(mention.kind, MentionKind::Province { .. }) && owner_cue < mention.cue {
                    mention.cue = owner_cue;
                }
            }
            i = mention.last_token + 1;
            mentions.push(mention);
        } else {
            i = end;
        }
    }
    // "Manger Square in Bethlehem stands ...", "along Front Street in
    // Lahaina": a sublocation placed in the town right after it is where
    // that town's cue puts it, whatever word stands before it.
    for k in 0..mentions.len().saturating_sub(1) {
        let (this, next) = (&mentions[k], &mentions[k + 1]);
        if matches!(this.kind, MentionKind::Sublocation { .. })
            && this.cue == Cue::Bare
            && matches!(next.kind, MentionKind::Settlement { .. })
            && next.first_token == this.last_token + 2
            && tokens[this.last_token + 1].is_word()
            && tokens[this.last_token + 1].text(text) == "in"
        {
            mentions[k].cue = mentions[k + 1].cue;
        }
    }
    mark_after_scene_date(text, tokens, &mut mentions);
    // `X district of Y`: Y is X's parent.
    for k in 0..mentions.len().saturating_sub(1) {
        if let MentionKind::Sublocation { district: true, .. } = mentions[k].kind {
            let gap = &tokens[mentions[k].last_token + 1..mentions[k + 1].first_token];
            let words: Vec<&str> = gap
                .iter()
                .filter(|t| t.is_word())
                .map(|t| t.text(text))
                .collect();
            if words.first().is_some_and(|w| *w == "of" || *w == "in") && words.len() <= 5 {
                mentions[k].district_of_next = true;
            }
        }
    }
    mentions
}

/// Sets [`Mention::after_scene_date`]: mentions after a date (a weekday,
/// or a month and a day) that follows the first settlement placed with a
/// scene cue.
fn mark_after_scene_date(text: &str, tokens: &[Token], mentions: &mut [Mention]) {
    let Some(first) = mentions
        .iter()
        .position(|m| m.cue == Cue::Scene && matches!(m.kind, MentionKind::Settlement { .. }))
    else {
        return;
    };
    let word = |k: usize| tokens.get(k).filter(|t| t.is_word()).map(|t| t.text(text));
    let date_at = |k: usize| {
        let Some(w) = word(k) else { return false };
        let w = w.trim_end_matches('.');
        names_weekday(w)
            || (names_month(w)
                && word(k + 1)
                    .is_some_and(|d| d.bytes().next().is_some_and(|b| b.is_ascii_digit())))
    };
    let Some(date) = (mentions[first].last_token + 1..tokens.len()).find(|&k| date_at(k)) else {
        return;
    };
    // Getty style writes the town right after the date ("at Parel on
    // April 1, 2022 in Mumbai", "Monday, Oct. 20, 2025, in Toronto"):
    // only words of another clause between make the place background.
    let dateline_word = |w: &str| {
        let w = w.trim_end_matches('.');
        names_weekday(w)
            || names_month(w)
            || w.bytes().all(|b| b.is_ascii_digit())
            || matches!(w, "in" | "at" | "on")
    };
    for m in &mut mentions[first + 1..] {
        if m.first_token > date {
            m.after_scene_date = (date..m.first_token)
                .filter_map(&word)
                .any(|w| !dateline_word(w));
        }
    }
}

/// End (exclusive) of a capitalized name phrase starting at `start`, if one
/// starts there.
pub(super) fn phrase_end(
    text: &str,
    tokens: &[Token],
    start: usize,
    gazetteer: &Gazetteer,
) -> Option<usize> {
    let first = tokens[start];
    if !first.is_word() {
        return None;
    }
    let word = first.text(text);
    // Capitals first: most words are lower case and no particle.
    let leading_particle = || first.hyphenated && is_name_particle(word);
    if !(starts_upper(word) || leading_particle()) || never_in_place_name(word) {
        return None;
    }
    let mut end = start + 1;
    while end < tokens.len() && tokens[end].is_word() {
        // A possessive ends the name ("Russia's Defence Ministry"), unless
        // the gazetteer knows the longer name ("Cox's Bazar") or a
        // country's full name runs through it ("People's Republic of
        // China", which would otherwise leave "Republic of China").
        if strip_possessive(tokens[end - 1].text(text)).is_some() {
            let country_end = longest_end_within_four_words(tokens, end, |e| {
                let name = Span::new(tokens[start].span.start, tokens[e - 1].span.end).of(text);
                gazetteer.country_named(name).is_some()
            });
            if country_end.is_some() {
                return country_end;
            }
            let longer = Span::new(tokens[start].span.start, tokens[end].span.end).of(text);
            if !gazetteer.knows_name(longer) {
                break;
            }
        }
        let word = tokens[end].text(text);
        // A capitalized function word inside a name the gazetteer knows
        // (`Hoi An`, `Nghe An`) is part of it; elsewhere (`Kigali The`) it
        // ends the name.
        if never_in_place_name(word)
            && !matches!(word, "of")
            && !(starts_upper(word) && known_name(text, tokens, start, end + 1, gazetteer))
        {
            break;
        }
        if starts_upper(word) || is_name_particle(word) {
            end += 1;
            continue;
        }
        break;
    }
    // A particle cannot end a name.
    while end > start + 1
        && !starts_upper(tokens[end - 1].text(text))
        && !tokens[end - 1].hyphenated
    {
        end -= 1;
    }
    Some(
        country_name_end(text, tokens, start, end, gazetteer)
            .or_else(|| known_longer_name_end(text, tokens, start, end, gazetteer))
            .or_else(|| {
                town_before_country(text, &tokens[start..end], gazetteer).map(|cut| start + cut)
            })
            .unwrap_or(end),
    )
}

/// "in Brussels Belgium October 4": a town and its country written
/// without the comma between them are two names; the phrase (its tokens
/// given) ends before the country, at the index returned, when the words before it name a town of that country and
/// the whole is no name of its own ("Papua New Guinea", "New Mexico").
fn town_before_country(text: &str, phrase: &[Token], gazetteer: &Gazetteer) -> Option<usize> {
    if phrase.len() < 2 {
        return None;
    }
    let span =
        |a: usize, b: usize| Span::new(phrase[a].span.start, phrase[b - 1].span.end).of(text);
    let n = phrase.len();
    // Longest country first: "Saint Lucia" before "Lucia".
    let (cut, country) =
        (1..n).find_map(|j| gazetteer.country_named(span(j, n)).map(|c| (j, c.code)))?;
    let whole = span(0, n);
    if gazetteer.country_named(whole).is_some()
        || gazetteer.knows_name(whole)
        || !gazetteer.admin1_named(whole, None).is_empty()
    {
        return None;
    }
    let town_there = gazetteer
        .places_named_exactly(span(0, cut))
        .iter()
        .any(|m| m.place.country == country);
    town_there.then_some(cut)
}

/// The end of a longer name the gazetteer knows, when the phrase stops at
/// a short lower-case word or a number inside it: "Port of Spain",
/// "Dar es Salaam", "Sector 3", "Al Matar al Atiq". Longest first, up to
/// three more words.
fn known_longer_name_end(
    text: &str,
    tokens: &[Token],
    start: usize,
    end: usize,
    gazetteer: &Gazetteer,
) -> Option<usize> {
    let next = tokens.get(end).filter(|t| t.is_word())?.text(text);
    // Cue words and conjunctions never join a name (and asking the
    // gazetteer after every "X in", "X on" would cost every caption).
    let common = matches!(
        next,
        "in" | "at"
            | "on"
            | "to"
            | "and"
            | "for"
            | "by"
            | "the"
            | "a"
            | "an"
            | "or"
            | "is"
            | "was"
            | "are"
            | "has"
            | "its"
            | "his"
            | "her"
            | "who"
    );
    let joins = next.chars().all(|c| c.is_ascii_digit())
        || (!common && next.len() <= 3 && next.chars().all(|c| c.is_lowercase()))
        || next.split_once('-').is_some_and(|(head, tail)| {
            head.len() <= 3 && head.chars().all(|c| c.is_lowercase()) && starts_upper(tail)
        });
    if !joins {
        return None;
    }
    longest_end_within_four_words(tokens, end, |e| {
        let word = tokens[e - 1].text(text);
        let ends_in_name = starts_upper(word)
            || word.chars().all(|c| c.is_ascii_digit())
            || tokens[e - 1].hyphenated;
        ends_in_name && known_name(text, tokens, start, e, gazetteer)
    })
}

/// The largest end past `end`, over at most four more words, that `fits`.
fn longest_end_within_four_words(
    tokens: &[Token],
    end: usize,
    fits: impl Fn(usize) -> bool,
) -> Option<usize> {
    let mut last = end;
    while last < (end + 4).min(tokens.len()) && tokens[last].is_word() {
        last += 1;
    }
    (end + 1..=last).rev().find(|&e| fits(e))
}

/// Whether the gazetteer knows `tokens[start..end]` as a place's name.
fn known_name(
    text: &str,
    tokens: &[Token],
    start: usize,
    end: usize,
    gazetteer: &Gazetteer,
) -> bool {
    let name = Span::new(tokens[start].span.start, tokens[end - 1].span.end).of(text);
    gazetteer.knows_name(name)
}

/// The end of a country name joined by `and` or `of` ("Antigua and
/// Barbuda", "Saint Vincent and the Grenadines", "Isle of Man",
/// "Republic of the Congo"), when the phrase `start..end` opens one.
fn country_name_end(
    text: &str,
    tokens: &[Token],
    start: usize,
    end: usize,
    gazetteer: &Gazetteer,
) -> Option<usize> {
    let word = |k: usize| tokens.get(k).filter(|t| t.is_word()).map(|t| t.text(text));
    // Any case: a Getty dateline writes "REPUBLIC OF THE CONGO".
    let is = |k: usize, w: &str| word(k).is_some_and(|x| x.eq_ignore_ascii_case(w));
    if !(is(end, "and") || is(end, "of")) {
        return None;
    }
    let mut longer = end + 1;
    if is(longer, "the") {
        longer += 1;
    }
    let first_upper = longer;
    while word(longer).is_some_and(starts_upper) && longer < first_upper + 3 {
        longer += 1;
    }
    // Longest first: "Saint Kitts and Nevis" before any shorter reading.
    (first_upper + 1..=longer).rev().find(|&e| {
        let name = Span::new(tokens[start].span.start, tokens[e - 1].span.end).of(text);
        gazetteer.country_named(name).is_some()
    })
}

/// The cue words before token `at`.
pub(super) fn cue_before(text: &str, tokens: &[Token], at: usize) -> Cue {
    // Up to six words back, stopping at punctuation other than `(`/`)` of a
    // distance (`47 km (29 miles) north of`).
    // Running text is mostly lower case already: borrow, and lower-case a
    // copy only of the words that need it (this runs for every phrase).
    // On the stack: this runs for every phrase.
    // "in the capital, Khartoum": the name in apposition to `capital`
    // stands where the capital does.
    if at >= 2
        && tokens[at - 1].is_punct(',')
        && tokens[at - 2].is_word()
        && tokens[at - 2].text(text).eq_ignore_ascii_case("capital")
    {
        return cue_before(text, tokens, at - 2);
    }
    let mut words: [Cow<'_, str>; 7] = Default::default();
    let mut len = 0;
    let mut k = at;
    while k > 0 && len < words.len() {
        k -= 1;
        let token = tokens[k];
        if token.is_word() {
            let word = token.text(text);
            words[len] = if word.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(word.to_ascii_lowercase())
            } else {
                Cow::Borrowed(word)
            };
            len += 1;
        } else if token.is_punct('(') || token.is_punct(')') {
            continue;
        } else {
            break;
        }
    }
    let words = &words[..len];
    // words[0] is the nearest word.
    let nearest = |n: usize| words.get(n).map(|w| w.as_ref());
    // Articles and adjectives between the cue and the name: "in the
    // rebel-held", "the southeastern Turkish town of".
    let is_adjective = |w: &str| {
        (w.contains('-') && !w.ends_with("-year-old"))
            || is_one_of(w, DIRECTIONS)
            || is_demonym(w)
            || matches!(
                w,
                "the"
                    | "a"
                    | "an"
                    | "besieged"
                    | "restive"
                    | "border"
                    | "nearby"
                    | "capital"
                    | "ancient"
                    | "old"
                    | "rebel"
                    | "held"
                    | "autonomous"
                    | "remote"
                    | "coastal"
                    | "frontline"
                    | "embattled"
                    | "neighbouring"
                    | "neighboring"
                    | "key"
                    | "strategic"
                    | "devastated"
                    | "flooded"
                    | "occupied"
                    | "landmark"
                    | "iconic"
                    | "historic"
                    | "famous"
            )
    };
    let skip = |mut n: usize| {
        while nearest(n).is_some_and(is_adjective) {
            n += 1;
        }
        n
    };
    let n = skip(0);
    match nearest(n) {
        Some("near" | "outside" | "nearby") => Cue::Reference,
        Some("of") => {
            let before = nearest(n + 1).unwrap_or("");
            if is_one_of(before, DIRECTIONS)
                || matches!(
                    before,
                    "outskirts" | "edge" | "countryside" | "suburbs" | "west" | "east"
                )
            {
                Cue::Reference
            } else if matches!(
                before,
                "town" | "city" | "village" | "province" | "region" | "hamlet"
            ) {
                // "the town of X" is a scene; "near the Jordanian city of X" a reference.
                match nearest(skip(n + 2)) {
                    Some("near" | "outside") => Cue::Reference,
                    _ if words.iter().any(|w| w == "outskirts") => Cue::Reference,
                    _ => Cue::Scene,
                }
            } else if is_one_of(before, ROLE_WORDS) {
                // "chief executive of Vodafone", "members of X": the
                // organisation a person works for, not where they stand.
                Cue::Weak
            } else {
                Cue::Of
            }
        }
        Some("from")
            if nearest(n + 1).is_some_and(|w| w == "km" || w == "miles" || w.ends_with("km")) =>
        {
            Cue::Reference
        }
        // "seen from X": the camera stood in X, and the place is where the
        // camera stood (RECORD.md).
        Some("from")
            if nearest(n + 1).is_some_and(|w| {
                matches!(
                    w,
                    "seen" | "viewed" | "photographed" | "pictured" | "filmed"
                )
            }) =>
        {
            Cue::Scene
        }
        Some("in" | "at" | "on" | "inside" | "within") => Cue::Scene,
        // "in a location given as X".
        Some("as") if nearest(n + 1) == Some("given") => Cue::Scene,
        // "jumps off the Wuhan bridge", "off Lampedusa": at the place,
        // as near as `of` puts it.
        Some("into" | "off") => Cue::Of,
        // "Families leave Kramatorsk ... bound for Lviv": the photo is
        // taken where the travel starts, so the place left is as good as
        // "of", and beats the destination's weak "for"/"to".
        Some("leave" | "leaves" | "leaving") => Cue::Of,
        Some("fleeing") => Cue::Bare,
        Some(
            "from" | "over" | "towards" | "toward" | "across" | "to" | "with" | "through" | "via"
            | "by" | "for" | "left" | "reach" | "reached",
        ) => Cue::Weak,
        _ => Cue::Bare,
    }
}
