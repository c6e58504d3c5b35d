//! Named organizations in the description.
//!
//! An organization is found by one of five kinds of evidence, strongest
//! first: a well-known name (`Hamas`, `UNICEF`, `U.N.`); a capitalized phrase
//! that ends in an organization head word (`Free Syrian Army`, `Greek
//! Parliament`, `Organization for the Prohibition of Chemical Weapons`); an
//! Arabic armed-group name (`Ahrar al-Sham`); a capitalized phrase next to a
//! group noun (`the rebel group X`, `the X brigade`); and `Name (ABBR)`.
//! Mentions of one organization (its abbreviation, its alias, a demonym
//! prefix) are listed once, under the spelled-out name when the caption
//! gives it.
//!
//! Decisions where `RECORD.md` leaves room:
//! - `U.N.`/`UN` used attributively (`U.N. chemical weapons experts`) names
//!   the body, so it is an organization; `U.N.`, `UN` and `United Nations`
//!   are one organization, listed as `United Nations` when the caption
//!   spells it out and as written otherwise. Other alias groups (`ISIS` /
//!   `Islamic State`, `FSA` / `Free Syrian Army`) work the same way.
//! - A news agency named in the description (`provided by SANA`) is an
//!   organization; any agency in a stock attribution (`other AP reporting`,
//!   `Reuters could not independently verify`) is not, credited or not.
//! - An owner in the possessive is not part of the name (`Russia's Defence
//!   Ministry` → `Defence Ministry`); a demonym before a well-known name is
//!   (`Turkish Red Crescent`), except before an abbreviation (`Kurdish YPG`
//!   → `YPG`).
//! - Places and facilities are never organizations, even with a head word
//!   (`Olympic Stadium`, `West Bank`, `Red Crescent Hospital` names no new
//!   organization, though the well-known `Red Crescent` in it still counts).
//!   Buildings used for their occupants (`the Kremlin`, `the Pentagon`,
//!   `the White House`) are places. Sports teams and events are not
//!   organizations.
//! - Lowercase mentions are generic, except `peshmerga`, the force's own
//!   name in any case. `Houthi`/`Houthis` name the armed group.
//! - A portfolio is no organization (`Defence Minister`), and `Islamic State
//!   group` is `Islamic State`.

#[cfg(test)]
use crate::credit::CreditFound;
use crate::name::{
    classes_of, strip_possessive, KnownKind, Shape, Words, COUNTRY, DEMONYM, EVENT, FUNCTION,
    MONTH, ORG_HEAD, ORG_NOUN, ORG_PREFIX, PARTICLE, PLACE, STORM, TITLE, TITLE_MOD, WEEKDAY,
};
use crate::span::Span;

/// Finds the organizations named in the description.
#[cfg(test)]
pub(crate) fn find_organizations(
    text: &str,
    description: Span,
    _credit: &Option<CreditFound>,
) -> Vec<String> {
    // The credit is cut out of `description` already; the credited agency
    // in stock phrases is dropped by `is_stock_phrase` for any agency.
    let words = Words::new(text, description);
    names(&words, &mentions(&words))
}

/// One mention of an organization.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OrgMention {
    /// Where the name stands in the caption text.
    pub span: Span,
    /// First token of the name.
    pub first: usize,
    /// Last token of the name.
    pub last: usize,
    /// What identifies the organization across mentions: the folded
    /// spelled-out name.
    key: String,
    /// The mention is the spelled-out name (or defines an abbreviation).
    full: bool,
}

/// Words that keep a possessive inside an organization name (`People's
/// Protection Units`); any other possessive belongs to an owner before it
/// (`Russia's Defence Ministry`).
const NAME_POSSESSIVES: &[&str] = &[
    "people", "women", "children", "workers", "martyrs", "men", "youth",
];

/// Words before `Center`/`Centre` that make it an organization (`Idlib Media
/// Center`); otherwise a center is a building (`World Trade Center`).
const CENTER_QUALIFIERS: &[&str] = &[
    "media",
    "press",
    "news",
    "information",
    "documentation",
    "research",
    "coordination",
    "operations",
    "relief",
    "rights",
    "violations",
    "crisis",
    "emergency",
    "monitoring",
    "studies",
    "policy",
    "command",
];

/// Connectors inside an organization name after its head word.
const CONNECTORS: &[&str] = &["of", "for", "de", "du", "des", "against"];

/// Words near an agency name that make the phrase a stock attribution of
/// the photo (`other AP reporting`, `Reuters could not verify`).
#[rustfmt::skip]
const STOCK_WORDS: &[&str] = &[
    "reporting", "verify", "verified", "confirm", "confirmed", "independently", "authenticate", "authenticated", "unable", "able", "authenticity", "verification", "obtained",
];

/// The organization mentions in the description, in text order.
pub(crate) fn mentions(words: &Words<'_>) -> Vec<OrgMention> {
    // An agency that attributes the photo anywhere in the caption (`obtained
    // by Reuters`, `Reuters could not verify`) is the publisher throughout.
    let stock_agencies: Vec<&str> = words
        .known
        .iter()
        .filter(|m| m.kind == KnownKind::Agency)
        .filter_map(|m| {
            let (first, last) = token_range(words, m.start, m.end);
            let (first, last) = first.zip(last)?;
            is_stock_phrase(words, first, last).then(|| &words.text[m.start..m.end])
        })
        .collect();
    let mut candidates: Vec<OrgMention> = Vec::new();
    for m in &words.known {
        let (first, last) = token_range(words, m.start, m.end);
        let Some((first, last)) = first.zip(last) else {
            continue;
        };
        let full = match m.kind {
            KnownKind::Place => continue,
            KnownKind::Agency if stock_agencies.contains(&&words.text[m.start..m.end]) => continue,
            KnownKind::Agency => "",
            KnownKind::Org { full } => full,
        };
        // A demonym before a well-known name is part of it (`Turkish Red Crescent`).
        let mut start = first;
        let abbreviation = words.get(first).is_some_and(|t| t.shape == Shape::Upper);
        while start > 0
            && !abbreviation
            && words
                .get(start - 1)
                .is_some_and(|t| t.is_cap() && t.has(DEMONYM) && !t.possessive)
        {
            start -= 1;
        }
        // The match's own bytes: `UNICEF` in `UNICEF-supported`.
        let span_start = words
            .get(start)
            .filter(|_| start < first)
            .map_or(m.start, |t| t.span.start);
        let span = Span::new(span_start, m.end);
        let name = if full.is_empty() {
            span.of(words.text)
        } else {
            full
        };
        candidates.push(OrgMention {
            span,
            first: start,
            last,
            key: fold(name),
            full: full.is_empty(),
        });
    }
    for phrase in phrases(words) {
        if let Some((first, last)) = classify(words, phrase) {
            candidates.push(OrgMention {
                span: words.phrase_span(first, last),
                first,
                last,
                key: fold(words.phrase(first, last)),
                full: true,
            });
        }
    }
    let mut kept = keep_longest(candidates);
    resolve_abbreviations(words, &mut kept);
    kept
}

/// The organization names to report: one per organization, in order of
/// first mention, under its spelled-out name when one is written.
pub(crate) fn names(words: &Words<'_>, mentions: &[OrgMention]) -> Vec<String> {
    let mut groups: Vec<(String, String, bool)> = Vec::new();
    for m in mentions {
        let display = words.text.get(m.span.start..m.span.end).unwrap_or("");
        match groups.iter_mut().find(|(key, _, _)| same_org(key, &m.key)) {
            Some(group) => {
                // The longer demonym-prefixed form, or the spelled-out name, wins.
                if (m.full && !group.2) || (m.full == group.2 && m.key.len() > group.0.len()) {
                    *group = (m.key.clone(), display.to_string(), m.full);
                }
            }
            None => groups.push((m.key.clone(), display.to_string(), m.full)),
        }
    }
    groups.into_iter().map(|(_, display, _)| display).collect()
}

/// Whether two folded keys name one organization: equal, or one is the
/// other with demonyms before it (`turkish red crescent`, `red crescent`).
fn same_org(a: &str, b: &str) -> bool {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    if long == short {
        return true;
    }
    match long.strip_suffix(short) {
        Some(prefix) if prefix.ends_with(' ') => prefix
            .split_whitespace()
            .all(|w| classes_of(w) & DEMONYM != 0),
        _ => false,
    }
}

/// The first and last tokens that overlap `[start, end)`.
fn token_range(words: &Words<'_>, start: usize, end: usize) -> (Option<usize>, Option<usize>) {
    let first = words.tokens.partition_point(|t| t.span.end <= start);
    let last = words.tokens.partition_point(|t| t.span.start < end);
    if first < last {
        (Some(first), Some(last - 1))
    } else {
        (None, None)
    }
}

/// A run of capitalized tokens (with inner particles, and connectors after
/// an organization head), as token indices `first..=last`.
#[derive(Debug, Clone, Copy)]
struct Phrase {
    first: usize,
    last: usize,
}

/// Whether token `i` can be part of an organization phrase.
fn is_phrase_word(words: &Words<'_>, i: usize) -> bool {
    words
        .get(i)
        .is_some_and(|t| !t.masked && matches!(t.shape, Shape::Cap | Shape::Upper))
}

/// Whether token `i` is an organization head word in its context.
fn is_head(words: &Words<'_>, i: usize) -> bool {
    let Some(t) = words.get(i) else { return false };
    if t.shape != Shape::Cap || !t.has(ORG_HEAD) {
        return false;
    }
    let word = words.base(i);
    if word.eq_ignore_ascii_case("center") || word.eq_ignore_ascii_case("centre") {
        let before = if i > 0 { words.base(i - 1) } else { "" };
        return CENTER_QUALIFIERS
            .iter()
            .any(|q| q.eq_ignore_ascii_case(before));
    }
    true
}

/// The capitalized phrases of the description.
fn phrases(words: &Words<'_>) -> Vec<Phrase> {
    let n = words.tokens.len();
    // Room for a long caption's runs up front: growing from empty cost two
    // reallocations a caption.
    let mut out = Vec::with_capacity(16);
    let mut i = 0;
    while i < n {
        if !is_phrase_word(words, i) {
            i += 1;
            continue;
        }
        let first = i;
        let mut last = i;
        let mut has_head = is_head(words, i);
        let mut joined = false;
        loop {
            let next = last + 1;
            if is_phrase_word(words, next) {
                last = next;
                has_head |= is_head(words, next);
                continue;
            }
            let lower_particle = words
                .get(next)
                .is_some_and(|t| t.shape == Shape::Lower && t.has(PARTICLE));
            if lower_particle && is_phrase_word(words, next + 1) {
                last = next + 1;
                continue;
            }
            let connector = CONNECTORS.iter().any(|c| words.is_word(next, c))
                || (joined && words.is_word(next, "and"));
            if has_head && connector {
                let target = if words.is_word(next + 1, "the") {
                    next + 2
                } else {
                    next + 1
                };
                let plain = words
                    .get(target)
                    .is_some_and(|t| !t.has(MONTH | WEEKDAY | FUNCTION));
                if is_phrase_word(words, target) && plain {
                    last = target;
                    joined = true;
                    continue;
                }
            }
            break;
        }
        out.push(Phrase { first, last });
        i = last + 1;
    }
    out
}

/// The organization inside a phrase, as a token range, if the phrase names one.
fn classify(words: &Words<'_>, phrase: Phrase) -> Option<(usize, usize)> {
    let first = trimmed_start(words, phrase)?;
    let last = phrase.last;
    let bad = |i: usize| {
        words
            .get(i)
            .is_none_or(|t| t.has(MONTH | WEEKDAY | EVENT | STORM))
    };
    // A place may lead an organization (`Los Angeles Police Department`) but
    // not be all of it (`West Bank`).
    let all_place =
        |a: usize, b: usize| (a..=b).all(|i| words.get(i).is_some_and(|t| t.known.place));
    // Head-based: up to the last head word, or through the complement that
    // a connector joined after it.
    if let Some(head) = (first..=last).rev().find(|&i| is_head(words, i)) {
        let joined_after_head =
            (head + 1..=last).any(|i| words.get(i).is_some_and(|t| t.shape == Shape::Lower));
        let end = if joined_after_head { last } else { head };
        let facility_after = words
            .get(end + 1)
            .is_some_and(|t| t.shape == Shape::Cap && t.has(PLACE))
            && end < last;
        // `Islamic State Group` is the well-known `Islamic State`.
        let known_before_group = words.base(head).eq_ignore_ascii_case("group")
            && head == end
            && head > first
            && words.get(head - 1).is_some_and(|t| t.known.org);
        if end > first
            && !facility_after
            && !known_before_group
            && !(first..=end).any(bad)
            && !all_place(first, end)
        {
            return Some((first, end));
        }
    }
    // Arabic armed-group names: a group word, then a name with a particle.
    let prefix = words.get(first).is_some_and(|t| t.has(ORG_PREFIX));
    let has_particle = (first + 1..=last).any(|i| {
        let w = words.word(i);
        words.get(i).is_some_and(|t| t.has(PARTICLE))
            || w.split('-')
                .next()
                .is_some_and(|p| p.len() < w.len() && classes_of(p) & PARTICLE != 0)
    });
    if prefix && last > first && has_particle && !(first..=last).any(bad) && !all_place(first, last)
    {
        return Some((first, last));
    }
    // A name next to a group noun: `the rebel group X`, `the X brigade`.
    let noun_before = first == phrase.first
        && first > 0
        && words
            .get(first - 1)
            .is_some_and(|t| t.shape == Shape::Lower && t.has(ORG_NOUN) && !t.possessive);
    let noun_after = words
        .get(last + 1)
        .is_some_and(|t| t.shape == Shape::Lower && t.has(ORG_NOUN))
        || (words.is_word(last + 1, "news") && words.is_word(last + 2, "agency"));
    // A place (`the Banat Valley brigade`) or a bare demonym is no group name.
    let ordinary = (first..=last).all(|i| {
        words.get(i).is_some_and(|t| {
            t.has(DEMONYM | COUNTRY | PLACE | FUNCTION | TITLE | TITLE_MOD)
                || t.shape == Shape::Upper
        })
    }) || words.get(last).is_some_and(|t| t.has(PLACE));
    if (noun_before || noun_after)
        && !ordinary
        && !(first..=last).any(bad)
        && !(first..=last).any(|i| words.get(i).is_some_and(|t| t.known.place))
    {
        return Some((first, last));
    }
    // `Name (ABBR)` whose initials spell the abbreviation.
    if last > first && !(first..=last).any(bad) && !all_place(first, last) {
        if let Some(abbr) = abbreviation_after(words, last) {
            if initials_match(words, first, last, abbr) {
                return Some((first, last));
            }
        }
    }
    None
}

/// The first token of a phrase that can begin an organization name: past
/// articles, dates, and an owner in the possessive (`Russia's`).
fn trimmed_start(words: &Words<'_>, phrase: Phrase) -> Option<usize> {
    let mut first = phrase.first;
    // Everything up to the last owner possessive goes.
    for i in phrase.first..=phrase.last {
        let t = words.get(i)?;
        if t.possessive && i < phrase.last {
            let base = strip_possessive(words.word(i));
            if !NAME_POSSESSIVES
                .iter()
                .any(|w| w.eq_ignore_ascii_case(base))
            {
                first = i + 1;
            }
        }
    }
    while first <= phrase.last
        && words
            .get(first)
            .is_some_and(|t| t.has(FUNCTION | MONTH | WEEKDAY))
    {
        first += 1;
    }
    (first <= phrase.last).then_some(first)
}

/// The abbreviation in `( ABBR )` right after token `last`.
fn abbreviation_after<'t>(words: &Words<'t>, last: usize) -> Option<&'t str> {
    let open = words.get(last + 1)?;
    let abbr = words.get(last + 2)?;
    let close = words.get(last + 3)?;
    (open.is('(') && abbr.shape == Shape::Upper && close.is(')')).then(|| words.word(last + 2))
}

/// Whether the letters of `abbr` are, in order, initials of the phrase's
/// words (or of their hyphenated parts), beginning with the first word.
fn initials_match(words: &Words<'_>, first: usize, last: usize, abbr: &str) -> bool {
    let initials: Vec<char> = (first..=last)
        .flat_map(|i| {
            words
                .base(i)
                .split('-')
                .filter_map(|p| p.chars().next())
                .collect::<Vec<_>>()
        })
        .filter(|c| c.is_uppercase())
        .collect();
    let letters: Vec<char> = abbr.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() < 2 || initials.first() != letters.first() {
        return false;
    }
    let mut rest = initials.iter();
    letters.iter().all(|l| rest.any(|c| c == l))
}

/// Whether an agency name at tokens `first..=last` is a stock attribution.
fn is_stock_phrase(words: &Words<'_>, first: usize, last: usize) -> bool {
    const WINDOW_AFTER: usize = 5;
    const WINDOW_BEFORE: usize = 4;
    let stock = |i: usize| STOCK_WORDS.iter().any(|w| words.is_word(i, w));
    let before_other = first > 0 && words.is_word(first - 1, "other");
    let after = (last + 1..last + 1 + WINDOW_AFTER)
        .take_while(|&i| words.get(i).is_some_and(|t| t.is_word()))
        .any(stock);
    let before = (first.saturating_sub(WINDOW_BEFORE)..first).any(stock);
    before_other || after || before
}

/// Keeps, of overlapping candidates, the one covering most bytes.
fn keep_longest(mut candidates: Vec<OrgMention>) -> Vec<OrgMention> {
    candidates.sort_by_key(|m| (m.span.start, std::cmp::Reverse(m.span.len())));
    let mut kept: Vec<OrgMention> = Vec::with_capacity(candidates.len());
    for m in candidates {
        match kept.last_mut() {
            Some(prev) if m.span.start < prev.span.end => {
                if m.span.len() > prev.span.len() {
                    *prev = m;
                }
            }
            _ => kept.push(m),
        }
    }
    kept
}

/// Links `Name (ABBR)` definitions to later uses of `ABBR`: the bracketed
/// abbreviation is no mention of its own, and a later `ABBR` (even one not
/// found otherwise) takes the defined organization's key.
fn resolve_abbreviations(words: &Words<'_>, mentions: &mut Vec<OrgMention>) {
    let mut defined: Vec<(&str, String)> = Vec::new();
    let mut out: Vec<OrgMention> = Vec::with_capacity(mentions.len());
    for m in mentions.drain(..) {
        let inside_definition = m.first > 0
            && m.first == m.last
            && words.get(m.first - 1).is_some_and(|t| t.is('('))
            && out.last().is_some_and(|prev| prev.last + 1 == m.first - 1);
        if inside_definition {
            continue;
        }
        if let Some(abbr) = abbreviation_after(words, m.last) {
            defined.push((abbr, m.key.clone()));
        }
        out.push(m);
    }
    // A later bare use of a defined abbreviation.
    for (i, t) in words.tokens.iter().enumerate() {
        if t.shape != Shape::Upper || t.masked || t.known.org {
            continue;
        }
        let word = words.base(i);
        let in_definition = i > 0 && words.get(i - 1).is_some_and(|p| p.is('('));
        if in_definition {
            continue;
        }
        if let Some((_, key)) = defined.iter().find(|(abbr, _)| *abbr == word) {
            out.push(OrgMention {
                span: t.span,
                first: i,
                last: i,
                key: key.clone(),
                full: false,
            });
        }
    }
    for m in out.iter_mut() {
        let word = words.phrase(m.first, m.last);
        if let Some((_, key)) = defined.iter().find(|(abbr, _)| *abbr == word) {
            m.key = key.clone();
            m.full = false;
        }
    }
    out.sort_by_key(|m| m.span.start);
    *mentions = out;
}

/// The scorer's folded form of a name: lowercase ASCII letters and digits,
/// single spaces, no apostrophes, no leading `the`/`al`/`el`.
pub(crate) fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut space = false;
    for c in name.chars() {
        if matches!(c, '\'' | '’' | '‘' | 'ʼ' | 'ʻ' | '`') {
            continue;
        }
        if c.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            // ASCII, nearly every name's letters, lowercases to one letter
            // without the general case mapping.
            if c.is_ascii() {
                out.push(c.to_ascii_lowercase());
            } else {
                out.extend(c.to_lowercase().filter(|l| l.is_alphanumeric()));
            }
        } else {
            space = true;
        }
    }
    for article in ["the ", "al ", "el "] {
        if let Some(rest) = out.strip_prefix(article) {
            return rest.to_string();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orgs(text: &str) -> Vec<String> {
        find_organizations(text, Span::new(0, text.len()), &None)
    }

    #[test]
    fn head_word_phrases_are_organizations() {
        assert_eq!(
            orgs("A Free Syrian Army fighter rests in Hama."),
            ["Free Syrian Army"]
        );
        assert_eq!(
            orgs("Members of the Ukrainian Armed Forces train."),
            ["Ukrainian Armed Forces"]
        );
        assert_eq!(
            orgs("Footage released by Turkey's Defence Ministry shows a convoy."),
            ["Defence Ministry"]
        );
        assert_eq!(
            orgs("On Monday the Organisation for the Prohibition of Chemical Weapons said inspectors left."),
            ["Organisation for the Prohibition of Chemical Weapons"]
        );
        assert_eq!(
            orgs("Nurses of the Kenyan Navy unload boxes."),
            ["Kenyan Navy"]
        );
    }

    #[test]
    fn portfolios_are_not_organizations() {
        assert!(orgs("Ruritanian Defence Minister Ivo Ban visits troops.").is_empty());
        assert_eq!(orgs("Members of the Civil Defence dig."), ["Civil Defence"]);
    }

    #[test]
    fn generic_and_facility_mentions_are_not() {
        assert!(orgs("A Syrian army soldier walks past the Russian air force base.").is_empty());
        assert!(orgs("Patients wait at Al-Amal Hospital near the Olympic Stadium.").is_empty());
        assert!(orgs("Smoke rises over the West Bank during Storm Nadia.").is_empty());
        assert!(orgs("A Defence Minister visits.").is_empty());
    }

    #[test]
    fn abbreviations_join_their_definition() {
        let found = orgs(
            "A fighter of the Southern Liberation Front (SLF) rests; an SLF commander watches.",
        );
        assert_eq!(found, ["Southern Liberation Front"]);
        let found =
            orgs("Volunteers of the Kurdish Women's Protection Units (YPJ) march; YPJ flags fly.");
        assert_eq!(found, ["Kurdish Women's Protection Units"]);
    }

    #[test]
    fn aliases_collapse_to_the_spelled_out_name() {
        assert_eq!(
            orgs("U.N. inspectors met United Nations staff."),
            ["United Nations"]
        );
        assert_eq!(orgs("U.N. experts arrive."), ["U.N."]);
        assert_eq!(
            orgs("Islamic State group fighters fled Islamic State positions."),
            ["Islamic State"]
        );
        assert_eq!(
            orgs("Aid from the Turkish Red Crescent and the Red Crescent."),
            ["Turkish Red Crescent"]
        );
    }

    #[test]
    fn arabic_group_names_and_group_nouns() {
        assert_eq!(orgs("Fighters from Jaish al-Nasr wait."), ["Jaish al-Nasr"]);
        assert_eq!(
            orgs("A bakery run by the rebel group Liwa Tawhid opens."),
            ["Liwa Tawhid"]
        );
        assert_eq!(
            orgs("Gunmen of the Banat Valley brigade stand guard."),
            Vec::<String>::new()
        );
        assert_eq!(
            orgs("Gunmen of the Abu Omar brigade stand guard."),
            ["Abu Omar"]
        );
        assert_eq!(
            orgs("An image released by Iran's Mehrnaz news agency."),
            ["Mehrnaz"]
        );
    }

    #[test]
    fn a_place_may_lead_an_organization_but_not_be_one() {
        assert_eq!(
            orgs("New York Police Department officers watch."),
            ["New York Police Department"]
        );
        assert!(orgs("Farmers in the West Bank harvest olives.").is_empty());
        assert_eq!(orgs("Kurdish YPG fighters rest."), ["YPG"]);
    }

    #[test]
    fn a_well_known_name_inside_a_compound_keeps_its_own_bytes() {
        assert_eq!(orgs("Pupils at a UNICEF-supported school."), ["UNICEF"]);
    }

    #[test]
    fn stock_agency_phrases_are_not_organizations() {
        assert!(orgs("The photo was authenticated based on other AP reporting.").is_empty());
        assert!(orgs("Reuters could not independently verify the footage.").is_empty());
        assert!(orgs("A photo obtained by Reuters. Reuters was unable to reach them.").is_empty());
        assert_eq!(
            orgs("The picture was provided by SANA on Monday."),
            ["SANA"]
        );
    }

    #[test]
    fn credit_runs_are_not_organizations() {
        assert!(orgs("Boys play. REUTERS/Omar Saleh").is_empty());
        assert!(orgs("Boys play. Handout/Ministry of Defence of Ruritania via REUTERS").is_empty());
    }

    #[test]
    fn fold_matches_the_scorer() {
        assert_eq!(
            fold("The Kurdish People's Protection Units"),
            "kurdish peoples protection units"
        );
        assert_eq!(fold("al-Qaeda"), "qaeda");
        assert_eq!(fold("U.N."), "u n");
        assert_eq!(fold("Médecins Sans Frontières"), "médecins sans frontières");
        // `İ` lowercases to `i` and a combining dot, which is dropped.
        assert_eq!(fold("İSTANBUL Ünİ"), "istanbul üni");
    }
}
