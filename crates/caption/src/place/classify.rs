//! Classification: whether a phrase is a country, a province, a
//! sublocation or a settlement candidate, from its head words, its
//! neighbours and the gazetteer.

use std::borrow::Cow;

use gazetteer::{CountryCode, Gazetteer, MatchKind};

use super::lexicon::{
    is_demonym, is_one_of, starts_upper, strip_possessive, us_state_abbreviation, DIRECTIONS,
    DISTRICT_HEADS, FACILITY_HEADS, FACILITY_MODIFIERS, POSSESSED_PLACE_WORDS, PROVINCE_HEADS,
    REGION_WORDS, SETTLEMENT_HEADS,
};
use super::mention::{Cue, Mention, MentionKind};
use super::tokens::Token;
use crate::span::Span;

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
    after_comma: bool,
    gazetteer: &Gazetteer,
) -> Option<Mention> {
    let span_of = |a: usize, b: usize| Span::new(tokens[a].span.start, tokens[b - 1].span.end);
    let name_of = |a: usize, b: usize| span_of(a, b).of(text);
    let mention = |kind, name: &str, last: usize| Mention {
        kind,
        name: name.to_string(),
        span: span_of(start, last + 1),
        cue,
        first_token: start,
        last_token: last,
        after_comma_of_mention: after_comma,
        district_of_next: false,
    };
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
        return None;
    }
    if words.len() == 1
        && words[0].contains('-')
        && words[0]
            .split('-')
            .all(|part| gazetteer.country_named(part).is_some())
    {
        return None;
    }
    let last_word = words[words.len() - 1];
    // A possessive before a person or title is no place ("Kenya's Eliud", "Syria's President").
    let (words, possessive): (Cow<'_, [&str]>, bool) = match strip_possessive(last_word) {
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
    let mut phrase = span_of(start, end).of(text);
    if possessive {
        if let Some(stem) = strip_possessive(phrase) {
            phrase = stem;
        }
    }
    let next_word = |k: usize| tokens.get(k).filter(|t| t.is_word()).map(|t| t.text(text));
    if possessive {
        // "Aleppo's old city", "Syria's Idlib province", "Kabul's main
        // market", "Kyiv's Independence Square" are places; "Iran's supreme
        // leader", "Kenya's Eliud Kipchoge" are not.
        let ahead: Vec<&str> = (end..end + 4).map_while(next_word).collect();
        let place_word = ahead.iter().any(|w| {
            is_one_of(w, PROVINCE_HEADS)
                || is_one_of(w, POSSESSED_PLACE_WORDS)
                || is_one_of(w, DIRECTIONS)
                || is_one_of(w, FACILITY_HEADS)
        });
        if !place_word {
            return None;
        }
    }
    // "flee Mosul's Old City": a possessive before a place word is a place
    // wherever it stands.
    let cue = if possessive && cue == Cue::Bare {
        Cue::Of
    } else {
        cue
    };

    // Heads inside the phrase: "Umayyad Square", "Homs Governorate", "Gaza City".
    let inner_head = words.last().copied().unwrap_or("");
    if words.len() >= 2 {
        let name_without_head = name_of(start, end - 1);
        if is_one_of(inner_head, PROVINCE_HEADS) && !inner_head.eq_ignore_ascii_case("district") {
            return Some(province_mention(
                mention(MentionKind::Region, name_without_head, end - 1),
                name_without_head,
                gazetteer,
            ));
        }
        // "Umayyad Square" is a sublocation; "Mexico Beach" is a town.
        let known_town = gazetteer
            .places_named(phrase)
            .iter()
            .any(|m| m.kind == MatchKind::Folded);
        if is_one_of(inner_head, FACILITY_HEADS) && !known_town {
            return Some(mention(
                MentionKind::Sublocation {
                    name: phrase.to_string(),
                    district: false,
                },
                phrase,
                end - 1,
            ));
        }
        if is_one_of(inner_head, DISTRICT_HEADS) {
            return Some(mention(
                MentionKind::Sublocation {
                    name: name_without_head.to_string(),
                    district: true,
                },
                name_without_head,
                end - 1,
            ));
        }
    }

    // Heads after the phrase: "Zaatari refugee camp", "Idlib province", "Jobar area".
    let mut k = end;
    while next_word(k).is_some_and(|w| is_one_of(w, FACILITY_MODIFIERS)) && k < end + 2 {
        k += 1;
    }
    if let Some(head) = next_word(k) {
        if is_one_of(head, FACILITY_HEADS) && !possessive {
            let name = name_of(start, k + 1);
            return Some(mention(
                MentionKind::Sublocation {
                    name: name.to_string(),
                    district: false,
                },
                name,
                k,
            ));
        }
    }
    if let Some(head) = next_word(end) {
        if is_one_of(head, PROVINCE_HEADS) && head != "district" {
            return Some(province_mention(
                mention(MentionKind::Region, phrase, end),
                phrase,
                gazetteer,
            ));
        }
        if is_one_of(head, DISTRICT_HEADS) {
            return Some(mention(
                MentionKind::Sublocation {
                    name: phrase.to_string(),
                    district: true,
                },
                phrase,
                end,
            ));
        }
        if is_one_of(head, SETTLEMENT_HEADS) {
            return Some(mention(
                MentionKind::Settlement {
                    resolved: None,
                    explicit_head: true,
                },
                phrase,
                end,
            ));
        }
    }
    // An appositive says what the place is: "Jobar, a rebel-held district",
    // "Khuzaa, a village east of ...".
    if tokens.get(end).is_some_and(|t| t.is_punct(','))
        && next_word(end + 1).is_some_and(|w| w == "a" || w == "an")
    {
        let head = (end + 2..end + 7)
            .map_while(next_word)
            .find(|w| is_one_of(w, DISTRICT_HEADS) || is_one_of(w, SETTLEMENT_HEADS));
        match head {
            Some(h) if is_one_of(h, DISTRICT_HEADS) => {
                return Some(mention(
                    MentionKind::Sublocation {
                        name: phrase.to_string(),
                        district: true,
                    },
                    phrase,
                    end - 1,
                ));
            }
            Some(_) => {
                return Some(mention(
                    MentionKind::Settlement {
                        resolved: None,
                        explicit_head: true,
                    },
                    phrase,
                    end - 1,
                ))
            }
            None => {}
        }
    }
    // "Andre Smith of Canada" is a person and a nationality.
    if next_word(end) == Some("of") {
        let country_after = (end + 1..end + 3)
            .map_while(next_word)
            .find(|w| *w != "the");
        if country_after.is_some_and(|w| gazetteer.country_named(w).is_some())
            && gazetteer.country_named(phrase).is_none()
        {
            return None;
        }
    }
    // "the countryside of Idlib" is the province alone.
    if cue == Cue::Reference && start >= 2 && tokens[start - 1].text(text) == "of" {
        let before = tokens[start - 2].text(text);
        if before == "countryside" {
            return Some(province_mention(
                mention(MentionKind::Region, phrase, end - 1),
                phrase,
                gazetteer,
            ));
        }
    }

    // "the island of Lesbos", "the Greek island of Evia": an island holds
    // towns, so it is context like a region, never the city ("near
    // Mytilene, on the island of Lesbos" is Mytilene).
    if start >= 2
        && tokens[start - 1].text(text) == "of"
        && matches!(tokens[start - 2].text(text), "island" | "islands" | "isle")
    {
        return Some(mention(MentionKind::Region, phrase, end - 1));
    }

    // A person's hometown ("Chris Nation, of Commerce, Ga.") or nationality
    // ("Usain Bolt of Jamaica", "Katie Ledecky of the U.S.") is not the scene.
    let of_at = if start >= 3 && tokens[start - 1].text(text) == "the" {
        start - 2
    } else {
        start - 1.min(start)
    };
    if of_at >= 1 && start >= 1 && tokens[of_at].text(text) == "of" {
        let before = tokens[of_at - 1];
        let before_before = of_at.checked_sub(2).map(|k| tokens[k]);
        let after_name = before.is_word()
            && starts_upper(before.text(text))
            && !is_one_of(before.text(text), FACILITY_HEADS)
            && !is_one_of(before.text(text), DISTRICT_HEADS)
            // "the Old City of Mosul", "the Province of Idlib".
            && !is_one_of(before.text(text), SETTLEMENT_HEADS)
            && !is_one_of(before.text(text), PROVINCE_HEADS);
        let after_name_comma =
            before.is_punct(',') && before_before.is_some_and(|t| starts_upper(t.text(text)));
        if after_name || after_name_comma {
            return None;
        }
    }
    if let Some(code) = words
        .first()
        .and_then(|w| us_state_abbreviation(w))
        .filter(|_| words.len() == 1 && after_comma)
    {
        let country = CountryCode::new("US");
        return Some(mention(
            MentionKind::Province {
                code: Some(code.to_string()),
                country,
            },
            phrase,
            end - 1,
        ));
    }
    if let Some(country) = gazetteer.country_named(phrase) {
        return Some(mention(MentionKind::Country(country.code), phrase, end - 1));
    }
    if words.iter().any(|w| is_one_of(w, REGION_WORDS)) {
        return Some(mention(MentionKind::Region, phrase, end - 1));
    }
    // "Harvey, Louisiana": a division after a comma.
    if after_comma {
        let divisions = gazetteer.admin1_named(phrase, None);
        if let [division] = divisions.as_slice() {
            if gazetteer
                .places_named(phrase)
                .iter()
                .all(|m| m.place.population < 50_000)
            {
                let kind = MentionKind::Province {
                    code: Some(division.code.clone()),
                    country: Some(division.country),
                };
                return Some(mention(kind, phrase, end - 1));
            }
        }
    }
    // Only phrases in a place position are settlement candidates: after a
    // preposition, or followed by ", <direction> of" / ", Country".
    let followed_by_place_pattern = tokens.get(end).is_some_and(|t| t.is_punct(','))
        && next_word(end + 1).is_some_and(|w| {
            is_one_of(w, DIRECTIONS)
                || starts_upper(w)
                || matches!(w, "some" | "near" | "on" | "in" | "just")
        });
    if cue == Cue::Bare && !after_comma && !followed_by_place_pattern {
        return None;
    }
    // Towns take no article: "in the Euphrates" is a river.
    if start >= 1 && tokens[start - 1].text(text) == "the" {
        return None;
    }
    Some(mention(
        MentionKind::Settlement {
            resolved: None,
            explicit_head: false,
        },
        phrase,
        end - 1,
    ))
}

/// A province mention resolved by name, or by the division of the biggest
/// settlement of that name (`Kherson region` -> Kherson's oblast).
pub(super) fn province_mention(mut mention: Mention, name: &str, gazetteer: &Gazetteer) -> Mention {
    let named = gazetteer.admin1_named(name, None);
    let (code, country) = match named.as_slice() {
        [one, ..] => (Some(one.code.clone()), Some(one.country)),
        [] => match gazetteer.places_named(name).first() {
            Some(m) => (
                m.place.admin1_code.as_deref().map(String::from),
                Some(m.place.country),
            ),
            None => (None, None),
        },
    };
    mention.kind = MentionKind::Province { code, country };
    mention
}

// ---------------------------------------------------------------------------
