//! Classification: whether a phrase is a country, a province, a
//! sublocation or a settlement candidate, from its head words, its
//! neighbours and the gazetteer.
//!
//! [`classify`] runs named steps in order; each step either decides what
//! the phrase is (or that it is no place), or passes it on.

use std::borrow::Cow;

use gazetteer::{CountryCode, Gazetteer, MatchKind};

use super::lexicon::{
    demonym_country, division_abbreviation, is_demonym, is_one_of, starts_upper, strip_possessive,
    DIRECTIONS, DISTRICT_HEADS, FACILITY_HEADS, FACILITY_MODIFIERS, HEAVENLY_BODIES, LEAD_HEADS,
    POSSESSED_PLACE_WORDS, PROVINCE_HEADS, REGION_WORDS, RESIDENT_WORDS, SETTLEMENT_HEADS,
    SETTLEMENT_LEADS,
};
use super::mention::{phrase_end, Cue, Mention, MentionKind};
use super::tokens::Token;
use crate::span::Span;

/// What one step decided: `Some(None)` is "no place", `Some(Some(m))` a
/// mention, `None` "not decided here".
type Decision = Option<Option<Mention>>;

/// The phrase `tokens[start..end]` being classified, with what every step
/// reads.
struct Phrase<'a> {
    text: &'a str,
    tokens: &'a [Token],
    start: usize,
    end: usize,
    /// The words, a trailing possessive stripped.
    words: Cow<'a, [&'a str]>,
    /// The phrase as written, a trailing possessive stripped.
    name: &'a str,
    possessive: bool,
    cue: Cue,
    after_comma: bool,
    /// Directly after a possessive settlement ("Mexico City's Zocalo").
    after_possessive: bool,
    gazetteer: &'a Gazetteer,
}

impl<'a> Phrase<'a> {
    fn span_of(&self, a: usize, b: usize) -> Span {
        Span::new(self.tokens[a].span.start, self.tokens[b - 1].span.end)
    }

    fn name_of(&self, a: usize, b: usize) -> &'a str {
        self.span_of(a, b).of(self.text)
    }

    /// A mention of the phrase extended to token `last`.
    fn mention(&self, kind: MentionKind, name: &str, last: usize) -> Mention {
        Mention {
            kind,
            name: name.to_string(),
            span: self.span_of(self.start, last + 1),
            cue: self.cue,
            first_token: self.start,
            last_token: last,
            after_comma_of_mention: self.after_comma,
            district_of_next: false,
            after_scene_date: false,
        }
    }

    fn sublocation(&self, name: &str, district: bool, last: usize) -> Mention {
        let kind = MentionKind::Sublocation {
            name: name.to_string(),
            district,
        };
        self.mention(kind, name, last)
    }

    fn settlement(&self, explicit_head: bool, last: usize) -> Mention {
        let kind = MentionKind::Settlement {
            resolved: None,
            explicit_head,
        };
        self.mention(kind, self.name, last)
    }

    fn province(&self, name: &str, last: usize) -> Mention {
        province_mention(
            self.mention(MentionKind::Region, name, last),
            name,
            self.country_after(last + 1),
            self.gazetteer,
        )
    }

    /// The country named right after a comma at token `k` (`..., Uganda`),
    /// with the end of its name.
    fn country_named_at(&self, k: usize) -> Option<(CountryCode, usize)> {
        if !self.tokens.get(k).is_some_and(|t| t.is_punct(',')) || k + 1 >= self.tokens.len() {
            return None;
        }
        let after = phrase_end(self.text, self.tokens, k + 1, self.gazetteer)?;
        let country = self.gazetteer.country_named(self.name_of(k + 1, after))?;
        Some((country.code, after))
    }

    /// The country a division at token `k` belongs to, as the caption
    /// states it next: `, Uganda` or `, Central Region, Uganda`.
    fn country_after(&self, k: usize) -> Option<CountryCode> {
        self.country_named_at(k).map(|(code, _)| code)
    }

    fn next_word(&self, k: usize) -> Option<&'a str> {
        self.tokens
            .get(k)
            .filter(|t| t.is_word())
            .map(|t| t.text(self.text))
    }

    fn word_at(&self, k: usize) -> &'a str {
        self.tokens[k].text(self.text)
    }
}

/// Classifies the phrase `tokens[start..end]`, possibly extending it over a
/// following head word.
#[allow(clippy::too_many_arguments)]
pub(super) fn classify(
    text: &str,
    tokens: &[Token],
    start: usize,
    end: usize,
    words: &[&str],
    cue: Cue,
    (after_comma, after_possessive): (bool, bool),
    gazetteer: &Gazetteer,
) -> Option<Mention> {
    if is_adjectival(words, gazetteer) {
        return side_of_border(text, tokens, start, end, words, cue, gazetteer);
    }
    let mut phrase =
        strip_phrase_possessive(text, tokens, start, end, words, cue, after_comma, gazetteer);
    phrase.after_possessive = after_possessive;
    if phrase.possessive && !possessive_names_place(&phrase) {
        return None;
    }
    let steps: [fn(&Phrase<'_>) -> Decision; 11] = [
        heavenly_body,
        lead_head,
        head_inside,
        head_after,
        appositive,
        possessed_by_city,
        person_of_country,
        context_after_of,
        hometown_or_nationality,
        named_in_gazetteer,
        named_part_of_town,
    ];
    for step in steps {
        if let Some(decision) = step(&phrase) {
            return decision;
        }
    }
    settlement_candidate(&phrase)
}

/// "on the Egyptian side of the border": the side places the photo in the
/// demonym's country, as the country's name would.
fn side_of_border(
    text: &str,
    tokens: &[Token],
    start: usize,
    end: usize,
    words: &[&str],
    cue: Cue,
    gazetteer: &Gazetteer,
) -> Option<Mention> {
    let word = |k: usize| tokens.get(k).filter(|t| t.is_word()).map(|t| t.text(text));
    let side = words.len() == 1
        && start >= 1
        && word(start - 1).is_some_and(|w| w.eq_ignore_ascii_case("the"))
        && word(end) == Some("side");
    if !side {
        return None;
    }
    let code = demonym_country(words[0]).and_then(CountryCode::new)?;
    let phrase = strip_phrase_possessive(text, tokens, start, end, words, cue, false, gazetteer);
    Some(phrase.mention(MentionKind::Country(code), phrase.name, end - 1))
}

/// A demonym or a compound adjective ("Syrian", "Turkish-backed",
/// "Russia-Ukraine") describes, it names no place; but a country whose
/// name holds a demonym ("Saudi Arabia", "Czech Republic") is named.
fn is_adjectival(words: &[&str], gazetteer: &Gazetteer) -> bool {
    let is_adjective = |w: &str| {
        is_demonym(w)
            || [
                "-backed",
                "-led",
                "-held",
                "-controlled",
                "-based",
                "-born",
                "-made",
                "-style",
                "-era",
            ]
            .iter()
            .any(|suffix| {
                w.len() >= suffix.len()
                    && w.as_bytes()[w.len() - suffix.len()..]
                        .eq_ignore_ascii_case(suffix.as_bytes())
            })
    };
    if words.iter().any(|w| is_adjective(w)) {
        // "Saudi Arabia", and a town so named: "Spanish Town".
        if words.len() < 2 {
            return true;
        }
        let name = words.join(" ");
        return gazetteer.country_named(&name).is_none() && !gazetteer.knows_name(&name);
    }
    words.len() == 1
        && words[0].contains('-')
        && words[0]
            .split('-')
            .all(|part| gazetteer.country_named(part).is_some())
}

/// The phrase with a trailing possessive stripped from its last word and
/// from its name; "flee Mosul's Old City": a possessive before a place
/// word is a place wherever it stands, so a bare cue becomes `of`.
#[allow(clippy::too_many_arguments)]
fn strip_phrase_possessive<'a>(
    text: &'a str,
    tokens: &'a [Token],
    start: usize,
    end: usize,
    words: &'a [&'a str],
    cue: Cue,
    after_comma: bool,
    gazetteer: &'a Gazetteer,
) -> Phrase<'a> {
    let last_word = words[words.len() - 1];
    // A possessive owns the word after it; before punctuation the `'s` is
    // the name's own ("Saint John's, Antigua").
    let owns_next = tokens.get(end).is_some_and(|t| t.is_word());
    let stripped = strip_possessive(last_word).filter(|_| owns_next);
    let (words, possessive): (Cow<'a, [&'a str]>, bool) = match stripped {
        Some(stem) => {
            let mut trimmed = words.to_vec();
            let last = trimmed.len() - 1;
            trimmed[last] = stem;
            (Cow::Owned(trimmed), true)
        }
        None => (Cow::Borrowed(words), false),
    };
    // Borrowed from the caption: most phrases turn out to be no place, and
    // only a mention keeps its name.
    let mut name = Span::new(tokens[start].span.start, tokens[end - 1].span.end).of(text);
    if possessive {
        if let Some(stem) = strip_possessive(name) {
            name = stem;
        }
    }
    let cue = if possessive && cue == Cue::Bare {
        Cue::Of
    } else {
        cue
    };
    Phrase {
        text,
        tokens,
        start,
        end,
        words,
        name,
        possessive,
        cue,
        after_comma,
        after_possessive: false,
        gazetteer,
    }
}

/// A possessive before a place word names a place ("Aleppo's old city",
/// "Syria's Idlib province", "Kabul's main market", "Kyiv's Independence
/// Square"); before a person or title it does not ("Iran's supreme
/// leader", "Kenya's Eliud Kipchoge").
///
/// A town's possessive before a name is a place in that town too ("Mexico
/// City's Zocalo", "Mumbai's Dharavi"), unless the name is a title or an
/// event ("Istanbul's Mayor ..."); a country's is not ("Kenya's Eliud").
fn possessive_names_place(phrase: &Phrase<'_>) -> bool {
    let end = phrase.end;
    let place_word_ahead = (end..end + 4).map_while(|k| phrase.next_word(k)).any(|w| {
        is_one_of(w, PROVINCE_HEADS)
            || is_one_of(w, POSSESSED_PLACE_WORDS)
            || is_one_of(w, DIRECTIONS)
            || is_one_of(w, FACILITY_HEADS)
    });
    // "in Ukraine's parliament": what a country owns at a scene cue is in
    // that country, whatever it is.
    let country_at_scene =
        phrase.cue == Cue::Scene && phrase.gazetteer.country_named(phrase.name).is_some();
    place_word_ahead
        || country_at_scene
        || (possessed_name_follows(phrase) && is_known_town(phrase))
}

/// A capitalized word follows that is no title, event or demonym.
fn possessed_name_follows(p: &Phrase<'_>) -> bool {
    use crate::name::{classes_of, DEMONYM, EVENT, TITLE};
    p.next_word(p.end)
        .is_some_and(|w| starts_upper(w) && classes_of(w) & (TITLE | EVENT | DEMONYM) == 0)
}

/// The gazetteer knows the name as a settlement (spelled so), not a country.
fn is_known_town(p: &Phrase<'_>) -> bool {
    p.gazetteer.country_named(p.name).is_none() && p.gazetteer.knows_name(p.name)
}

/// A name possessed by a town with no head of its own ("Mexico City's
/// Zocalo", "Mumbai's Dharavi") is a part of that town: a district, the
/// town being its city.
fn possessed_by_city(p: &Phrase<'_>) -> Decision {
    if !p.after_possessive || p.possessive {
        return None;
    }
    Some(Some(p.sublocation(p.name, true, p.end - 1)))
}

/// "the rover landing on Mars": a planet or the Moon is no place on
/// Earth, unless a division follows after a comma ("Mars, Pennsylvania").
fn heavenly_body(p: &Phrase<'_>) -> Decision {
    if p.words.len() != 1 || !is_one_of(p.words[0], HEAVENLY_BODIES) {
        return None;
    }
    let placed = p.tokens.get(p.end).is_some_and(|t| t.is_punct(','))
        && p.next_word(p.end + 1).is_some_and(starts_upper);
    (!placed).then_some(None)
}

/// Heads inside the phrase: "Umayyad Square", "Homs Governorate", "Gaza City".
fn head_inside(p: &Phrase<'_>) -> Decision {
    if p.words.len() < 2 {
        return None;
    }
    let (start, end) = (p.start, p.end);
    let inner_head = p.words.last().copied().unwrap_or("");
    let name_without_head = p.name_of(start, end - 1);
    if is_one_of(inner_head, PROVINCE_HEADS) && !inner_head.eq_ignore_ascii_case("district") {
        return Some(Some(p.province(name_without_head, end - 1)));
    }
    // "Umayyad Square" is a sublocation; "Mexico Beach" is a town.
    let known_town = p.gazetteer.knows_name(p.name);
    if is_one_of(inner_head, FACILITY_HEADS) && !known_town {
        return Some(Some(p.sublocation(p.name, false, end - 1)));
    }
    if is_one_of(inner_head, DISTRICT_HEADS) {
        return Some(Some(p.sublocation(name_without_head, true, end - 1)));
    }
    None
}

/// Heads after the phrase: "Zaatari refugee camp", "Idlib province",
/// "Jobar area", "Kafr Nabl town".
fn head_after(p: &Phrase<'_>) -> Decision {
    let end = p.end;
    let mut k = end;
    while p
        .next_word(k)
        .is_some_and(|w| is_one_of(w, FACILITY_MODIFIERS))
        && k < end + 2
    {
        k += 1;
    }
    if let Some(head) = p.next_word(k) {
        if is_one_of(head, FACILITY_HEADS) && !p.possessive {
            let name = p.name_of(p.start, k + 1);
            return Some(Some(p.sublocation(name, false, k)));
        }
    }
    let head = p.next_word(end)?;
    // "the U.S. state of Florida": a country before "state of" is the
    // division's country, not a division itself.
    let country_of_next =
        p.next_word(end + 1) == Some("of") && p.gazetteer.country_named(p.name).is_some();
    if is_one_of(head, PROVINCE_HEADS) && head != "district" && !country_of_next {
        return Some(Some(p.province(p.name, end)));
    }
    if is_one_of(head, DISTRICT_HEADS) {
        return Some(Some(p.sublocation(p.name, true, end)));
    }
    if is_one_of(head, SETTLEMENT_HEADS) {
        return Some(Some(p.settlement(true, end)));
    }
    None
}

/// An appositive says what the place is: "Jobar, a rebel-held district",
/// "Khuzaa, a village east of ...".
fn appositive(p: &Phrase<'_>) -> Decision {
    let end = p.end;
    if !(p.tokens.get(end).is_some_and(|t| t.is_punct(','))
        && p.next_word(end + 1).is_some_and(|w| w == "a" || w == "an"))
    {
        return None;
    }
    let head = (end + 2..end + 7)
        .map_while(|k| p.next_word(k))
        .find(|w| is_one_of(w, DISTRICT_HEADS) || is_one_of(w, SETTLEMENT_HEADS))?;
    if is_one_of(head, DISTRICT_HEADS) {
        Some(Some(p.sublocation(p.name, true, end - 1)))
    } else {
        Some(Some(p.settlement(true, end - 1)))
    }
}

/// "Andre Smith of Canada" is a person and a nationality.
fn person_of_country(p: &Phrase<'_>) -> Decision {
    let end = p.end;
    if p.next_word(end) != Some("of") {
        return None;
    }
    let country_after = (end + 1..end + 3)
        .map_while(|k| p.next_word(k))
        .find(|w| *w != "the");
    let is_person = country_after.is_some_and(|w| p.gazetteer.country_named(w).is_some())
        && p.gazetteer.country_named(p.name).is_none();
    is_person.then_some(None)
}

/// The word before "of": "the countryside of Idlib" is the province alone;
/// "the island of Lesbos", "the Greek island of Evia": an island holds
/// towns, so it is context like a region, never the city ("near Mytilene,
/// on the island of Lesbos" is Mytilene).
fn context_after_of(p: &Phrase<'_>) -> Decision {
    let start = p.start;
    if start < 2 || p.word_at(start - 1) != "of" {
        return None;
    }
    let before = p.word_at(start - 2);
    if p.cue == Cue::Reference && before == "countryside" {
        return Some(Some(p.province(p.name, p.end - 1)));
    }
    // "the U.S. state of Kentucky", "the province of Zhejiang": a division.
    if matches!(
        before,
        "state" | "province" | "governorate" | "prefecture" | "oblast"
    ) {
        // "the U.S. state of Florida" is Florida in the U.S.
        let stated = (start >= 3)
            .then(|| p.gazetteer.country_named(p.word_at(start - 3)))
            .flatten()
            .map(|c| c.code);
        let mention = p.mention(MentionKind::Region, p.name, p.end - 1);
        return Some(Some(province_mention(mention, p.name, stated, p.gazetteer)));
    }
    if matches!(before, "island" | "islands" | "isle") {
        return Some(Some(p.mention(MentionKind::Region, p.name, p.end - 1)));
    }
    None
}

/// A person's hometown ("Chris Nation, of Commerce, Ga.") or nationality
/// ("Usain Bolt of Jamaica", "Katie Ledecky of the U.S.") is not the scene.
fn hometown_or_nationality(p: &Phrase<'_>) -> Decision {
    let start = p.start;
    let of_at = if start >= 3 && p.word_at(start - 1) == "the" {
        start - 2
    } else {
        start - 1.min(start)
    };
    if !(of_at >= 1 && start >= 1 && p.word_at(of_at) == "of") {
        return None;
    }
    let before = p.tokens[of_at - 1];
    let before_before = of_at.checked_sub(2).map(|k| p.tokens[k]);
    let before_text = before.text(p.text);
    let after_name = before.is_word()
        && starts_upper(before_text)
        && !is_one_of(before_text, FACILITY_HEADS)
        && !is_one_of(before_text, DISTRICT_HEADS)
        // "the Old City of Mosul", "the Province of Idlib".
        && !is_one_of(before_text, SETTLEMENT_HEADS)
        && !is_one_of(before_text, PROVINCE_HEADS);
    let after_name_comma =
        before.is_punct(',') && before_before.is_some_and(|t| starts_upper(t.text(p.text)));
    (after_name || after_name_comma).then_some(None)
}

/// How many times the people of a rival (another division of the name, or
/// the largest town of it) a division's towns must hold for the name to
/// mean the division: the same margin by which a namesake outweighs a weak
/// hint in the scorer (`score::HINT_MAX_POPULATION_RATIO`).
const DIVISION_OUTWEIGHS: u64 = 50;

/// The one division a name means: the only one so named, or one whose
/// towns hold [`DIVISION_OUTWEIGHS`] times the people of every other's
/// (Florida, the US state, over Florida, the Uruguayan department).
fn dominant_division<'g>(
    divisions: &[&'g gazetteer::Admin1],
    gazetteer: &Gazetteer,
) -> Option<&'g gazetteer::Admin1> {
    if let [only] = divisions {
        return Some(only);
    }
    let mut sized: Vec<(u64, &'g gazetteer::Admin1)> = divisions
        .iter()
        .map(|&d| (gazetteer.admin1_population(d), d))
        .collect();
    sized.sort_by_key(|&(people, _)| std::cmp::Reverse(people));
    let (&(size, biggest), rest) = sized.split_first()?;
    let others = rest.first().map_or(0, |&(people, _)| people);
    (size > 0 && size >= DIVISION_OUTWEIGHS * others).then_some(biggest)
}

/// What the gazetteer and the word lists know the name as: a state or
/// province abbreviation after a comma, a country, a region, a division after a
/// comma ("Harvey, Louisiana").
fn named_in_gazetteer(p: &Phrase<'_>) -> Decision {
    let last = p.end - 1;
    if let Some(code) = p
        .words
        .first()
        .and_then(|w| division_abbreviation(w))
        .filter(|_| p.words.len() == 1 && p.after_comma)
    {
        let kind = MentionKind::Province {
            code: Some(code.to_string()),
            country: code.get(..2).and_then(CountryCode::new),
        };
        return Some(Some(p.mention(kind, p.name, last)));
    }
    if let Some(country) = p.gazetteer.country_named(p.name) {
        if town_named_like_country(p, country.code) {
            return None;
        }
        return Some(Some(p.mention(
            MentionKind::Country(country.code),
            p.name,
            last,
        )));
    }
    // "East China", "Northern Syria": a part of a country named by its
    // compass point places the caption in that country, and is no town.
    if let Some(first) = p.words.first() {
        let rest = p.name[first.len()..].trim_start();
        // Not a name of its own (`West Virginia`); a bare compass point
        // (`East`, not `Eastern`) only as an owner (`East China's Jiangsu
        // Province`), since it opens names (`South Georgia`).
        let part_of_country = p.words.len() >= 2
            && is_one_of(first, DIRECTIONS)
            && (first.ends_with("ern") || p.possessive)
            && !p.gazetteer.knows_name(p.name)
            && p.gazetteer.admin1_named_exactly(p.name, None).is_empty();
        if let Some(country) = part_of_country
            .then(|| p.gazetteer.country_named(rest))
            .flatten()
        {
            let kind = MentionKind::Country(country.code);
            return Some(Some(p.mention(kind, p.name, last)));
        }
    }
    if p.words.iter().any(|w| is_one_of(w, REGION_WORDS)) {
        return Some(Some(p.mention(MentionKind::Region, p.name, last)));
    }
    // "Harvey, Louisiana" after a comma; "in Rhineland-Palatinate", "in
    // western North Carolina" anywhere, when no town of the division
    // bears its name (Idlib is a town in Idlib province) and the name is
    // too long to be a namesake of another word.
    let long_name = p.words.len() >= 2 || p.words[0].contains('-');
    let only_exact = !(p.after_comma || long_name);
    // "in Tibet", "in Queensland": a division's one-word name where a
    // place must stand. When no town bears that very name, the town found
    // would only be a lookalike spelling (`Taïbet` for `Tibet`); the
    // largest town that does bear it is weighed against the division below.
    let at_scene = only_exact && p.cue == Cue::Scene;
    let largest_town = at_scene
        .then(|| {
            p.gazetteer
                .places_named_exactly(p.name)
                .iter()
                .map(|m| m.place.population)
                .max()
        })
        .flatten();
    if !only_exact || at_scene {
        // Without the comma's context a spelling variant is no division
        // ("In the Blood" is not `Bled`).
        let divisions = if only_exact {
            p.gazetteer
                .admin1_named_exactly(p.name, p.country_after(p.end))
        } else {
            p.gazetteer.admin1_named(p.name, p.country_after(p.end))
        };
        if let Some(division) = dominant_division(&divisions, p.gazetteer) {
            // "in Florida" is the state, not Florida, New York: a division
            // whose towns outweigh the largest town of its name wins
            // (Washington, D.C., next to Washington state does not; a town
            // of the division's own name inside it, as Idlib, is the town).
            let outweighs_towns = largest_town.is_some_and(|town| {
                p.gazetteer.admin1_population(division) >= DIVISION_OUTWEIGHS * u64::from(town)
            });
            if largest_town.is_some() && !outweighs_towns {
                return None;
            }
            let places = p.gazetteer.places_named(p.name);
            let own_town = places.iter().any(|m| {
                m.kind == MatchKind::Folded
                    && m.place.country == division.country
                    && m.place.admin1_code.as_deref() == Some(division.code.as_str())
            });
            // A namesake counts only under its main name, in any spelling
            // (`Deir Ezzor` is the city of Deir ez-Zor): `Maine` is an
            // alternate name of Des Plaines, Illinois, not what the town
            // is called.
            let key = gazetteer::strict_key(p.name);
            let big_namesake = places.iter().any(|m| {
                m.place.population >= 50_000 && gazetteer::strict_key(&m.place.name) == key
            });
            if (outweighs_towns || !big_namesake) && (p.after_comma || !own_town) {
                let kind = MentionKind::Province {
                    code: Some(division.code.clone()),
                    country: Some(division.country),
                };
                return Some(Some(p.mention(kind, p.name, last)));
            }
        }
    }
    None
}

/// "Luxembourg, Luxembourg", "Liberia, Costa Rica": a name that is a
/// country's, followed by a country in which the gazetteer knows a town so
/// named, is that town (not when the name is a division there: "Georgia,
/// U.S." is the state).
fn town_named_like_country(p: &Phrase<'_>, named: CountryCode) -> bool {
    // The country after the comma, or after a division and a comma
    // ("Liberia, Guanacaste, Costa Rica").
    let stated = p.country_named_at(p.end).map(|(code, _)| code).or_else(|| {
        let comma = p.tokens.get(p.end).is_some_and(|t| t.is_punct(','));
        if !comma || p.end + 1 >= p.tokens.len() {
            return None;
        }
        let division_end = phrase_end(p.text, p.tokens, p.end + 1, p.gazetteer)?;
        let code = p.country_after(division_end)?;
        let division = p.name_of(p.end + 1, division_end);
        (!p.gazetteer.admin1_named(division, Some(code)).is_empty()).then_some(code)
    });
    let Some(code) = stated else {
        return false;
    };
    let town_there = p
        .gazetteer
        .places_named_exactly(p.name)
        .iter()
        .any(|m| m.place.country == code);
    town_there && (code == named || p.gazetteer.admin1_named(p.name, Some(code)).is_empty())
}

/// "Plaza Italia", "Stade de France", "Mount Arafat": a name led by a
/// place word is a sublocation, unless the gazetteer knows it as a town
/// ("Mount Pleasant").
fn lead_head(p: &Phrase<'_>) -> Decision {
    if p.words.len() < 2 || p.possessive {
        return None;
    }
    // "Kibbutz Nir Oz": the settlement word before the name is its head.
    if is_one_of(p.words[0], SETTLEMENT_LEADS) {
        let name = p.name_of(p.start + 1, p.end);
        let kind = MentionKind::Settlement {
            resolved: None,
            explicit_head: true,
        };
        return Some(Some(p.mention(kind, name, p.end - 1)));
    }
    // "Midleton, Co Cork", "in County Kerry": a county written word first
    // (Ireland, Northern Ireland) is a second-level division, which the
    // gazetteer does not hold: context for the town, never the town.
    let county_lead = p.words[0] == "County" || (p.words[0] == "Co" && p.after_comma);
    if county_lead
        && p.words[1..].iter().all(|w| starts_upper(w))
        && !p.gazetteer.knows_name(p.name)
    {
        return Some(Some(p.mention(MentionKind::Region, p.name, p.end - 1)));
    }
    if !is_one_of(p.words[0], LEAD_HEADS) {
        return None;
    }
    let known_town = p.gazetteer.knows_name(p.name);
    (!known_town).then(|| Some(p.sublocation(p.name, false, p.end - 1)))
}

/// A named part of a town, written with an article before the town:
/// "the Kremlin in Moscow", "the Corniche in Alexandria" (towns take no
/// article); "the Citadel of Aleppo", "the Old City of Homs" (a facility
/// or a town's part, then the town). The town stays a mention of its own.
fn named_part_of_town(p: &Phrase<'_>) -> Decision {
    if p.start == 0 || !p.word_at(p.start - 1).eq_ignore_ascii_case("the") || p.possessive {
        return None;
    }
    let next = p.next_word(p.end)?;
    let mut town = p.end + 1;
    if next == "of" && p.next_word(town) == Some("the") {
        town += 1;
    }
    if !p.next_word(town).is_some_and(starts_upper) {
        return None;
    }
    if next == "in" {
        if p.words.iter().any(|w| is_demonym(w)) {
            return None;
        }
        return Some(Some(p.sublocation(p.name, false, p.end - 1)));
    }
    let last = p.words[p.words.len() - 1];
    let part_head = (p.words.len() == 1 && is_one_of(last, FACILITY_HEADS))
        || (p.words.len() >= 2 && is_one_of(last, SETTLEMENT_HEADS));
    if next != "of" || !part_head {
        return None;
    }
    let town_end = phrase_end(p.text, p.tokens, town, p.gazetteer)?;
    let whole = p.name_of(p.start, town_end);
    let known_town = p.gazetteer.knows_name(whole);
    (!known_town).then(|| Some(p.sublocation(whole, false, p.end - 1)))
}

/// "Kherson residents wave flags": a town before the people who live in
/// it is where they are.
fn before_residents(p: &Phrase<'_>) -> bool {
    p.next_word(p.end)
        .is_some_and(|w| is_one_of(w, RESIDENT_WORDS))
}

/// Only phrases in a place position are settlement candidates: after a
/// preposition, or followed by ", <direction> of" / ", Country".
fn settlement_candidate(p: &Phrase<'_>) -> Option<Mention> {
    let end = p.end;
    let followed_by_place_pattern = p.tokens.get(end).is_some_and(|t| t.is_punct(','))
        && p.next_word(end + 1).is_some_and(|w| {
            is_one_of(w, DIRECTIONS)
                || starts_upper(w)
                || matches!(w, "some" | "near" | "on" | "in" | "just")
        });
    if p.cue == Cue::Bare && !p.after_comma && !followed_by_place_pattern && !before_residents(p) {
        return None;
    }
    // Towns take no article: "in the Euphrates" is a river.
    if p.start >= 1 && p.word_at(p.start - 1) == "the" {
        return None;
    }
    if names_a_person_or_an_event(p) {
        return None;
    }
    Some(p.settlement(false, end - 1))
}

/// A title before a name ("Mayor Ekrem Imamoglu") or an event word in it
/// ("Christmas Eve", "Independence Day") makes no town, unless the
/// gazetteer knows the whole name as one ("General Santos").
fn names_a_person_or_an_event(p: &Phrase<'_>) -> bool {
    use crate::name::{classes_of, EVENT, TITLE};
    let titled = p.words.len() >= 2 && p.words.first().is_some_and(|w| classes_of(w) & TITLE != 0);
    let event = p.words.iter().any(|w| classes_of(w) & EVENT != 0);
    (titled || event) && !p.gazetteer.knows_name(p.name)
}

/// A province mention resolved by name, or by the division of the biggest
/// settlement of that name (`Kherson region` -> Kherson's oblast).
pub(super) fn province_mention(
    mut mention: Mention,
    name: &str,
    stated_country: Option<CountryCode>,
    gazetteer: &Gazetteer,
) -> Mention {
    // "Central Region, Uganda": the stated country's division, never a
    // namesake of another country's.
    let named = gazetteer.admin1_named(name, stated_country);
    let (code, country) = match named.as_slice() {
        [one, ..] => (Some(one.code.clone()), Some(one.country)),
        [] => match gazetteer
            .places_named(name)
            .into_iter()
            .find(|m| stated_country.is_none_or(|c| m.place.country == c))
        {
            Some(m) => (
                m.place.admin1_code.as_deref().map(String::from),
                Some(m.place.country),
            ),
            None => (None, stated_country),
        },
    };
    mention.kind = MentionKind::Province { code, country };
    mention
}

// ---------------------------------------------------------------------------
