//! Choosing the scene among the resolved mentions, and filling the
//! location from it.
//!
//! [`choose_scene`] runs in steps: which mention is the scene settlement
//! ([`scene_settlement`]) and which the sublocation ([`scene_sublocation`]);
//! which place the settlement is ([`place_of_settlement`], or the town a
//! facility is named after, [`town_of_facility`]); then the location is
//! filled from the place ([`fill_from_place`]) and from the province and
//! country the caption states ([`fill_stated_divisions`]).

use gazetteer::{CountryCode, Gazetteer, MatchKind, Place};

use super::lexicon::{is_name_particle, is_one_of, starts_upper, TERRAIN_WORDS};
use super::mention::{Cue, Mention, MentionKind};
use super::resolve::{distance_km, reference_radius_km};
use super::LocationFound;
use crate::record::Location;
use crate::span::Span;

pub(super) fn choose_scene(
    text: &str,
    mentions: &[Mention],
    gazetteer: &Gazetteer,
) -> Option<LocationFound> {
    let scene = scene_settlement(mentions);
    let sublocation = scene_sublocation(mentions);
    let mut used: Vec<Span> = Vec::new();
    let mut scene_place = ScenePlace::default();
    if let Some(s) = scene {
        scene_place = place_of_settlement(text, mentions, s, gazetteer, &mut used)?;
    }
    if scene_place.place.is_none() && scene_place.city_as_written.is_none() {
        // "at the Marina Bay Street Circuit in Singapore": a city-state
        // the caption names beats a town guessed from the facility's name.
        scene_place.place = city_state(mentions, gazetteer)
            .or_else(|| sublocation.and_then(|i| town_of_facility(mentions, i, gazetteer)));
    }
    // An unresolved name led by a terrain word is a sublocation.
    let mut sub_name = sublocation.map(|i| {
        used.push(mentions[i].span);
        match &mentions[i].kind {
            MentionKind::Sublocation { name, .. } => name.clone(),
            _ => mentions[i].name.clone(),
        }
    });
    if let Some(name) = &scene_place.city_as_written {
        let first = name.split([' ', '-']).next().unwrap_or("");
        if is_one_of(first, TERRAIN_WORDS) && sub_name.is_none() {
            sub_name = scene_place.city_as_written.take();
        }
    }
    let mut location = Location {
        sublocation: sub_name,
        ..Location::default()
    };
    fill_from_place(&mut location, &scene_place);
    fill_stated_divisions(&mut location, mentions, &mut used);
    if location.country_code.is_none() && location.city.is_none() && location.sublocation.is_none()
    {
        return None;
    }
    name_divisions(&mut location, gazetteer);
    let span = Span::new(
        used.iter().map(|s| s.start).min()?,
        used.iter().map(|s| s.end).max()?,
    );
    location.text = Some(span.of(text).to_string());
    location.span = Some(span);
    let unresolved = location.geonames_id.is_none()
        && (location.city.is_some() || location.sublocation.is_some());
    Some(LocationFound {
        location: Some(location),
        unresolved,
    })
}

/// The place of the scene settlement, and its name as written when the
/// gazetteer does not know it.
#[derive(Default)]
struct ScenePlace {
    place: Option<Place>,
    city_as_written: Option<String>,
}

/// The scene settlement: strongest cue, then the later mention; a
/// district's parent; else the first reference place.
fn scene_settlement(mentions: &[Mention]) -> Option<usize> {
    // An unknown name is a scene only where a place must stand
    // ("in X", "the town of X"), not after "over" or "by".
    let settlement_rank = |m: &Mention| match m.kind {
        MentionKind::Settlement {
            ref resolved,
            explicit_head,
        } if m.cue != Cue::Reference
            && (resolved.is_some() || explicit_head || m.cue <= Cue::Of) =>
        {
            Some(m.cue)
        }
        _ => None,
    };
    let best_cue = mentions.iter().filter_map(settlement_rank).min();
    // The later on a tie, but not past a date that closes the scene
    // ("in Palm Beach, Fla., Tuesday, April 4, after a hearing earlier in
    // the day in New York City").
    let mut scene = best_cue.and_then(|cue| {
        let tied = |m: &Mention| settlement_rank(m) == Some(cue);
        mentions
            .iter()
            .rposition(|m| tied(m) && !m.after_scene_date)
            .or_else(|| mentions.iter().rposition(tied))
    });
    // A district's parent is the city: "the Amiriyah district of Aleppo".
    let district = mentions.iter().position(|m| {
        matches!(m.kind, MentionKind::Sublocation { district: true, .. }) && m.cue <= Cue::Of
    });
    if let Some(d) = district {
        if mentions[d].district_of_next
            && matches!(
                mentions.get(d + 1).map(|m| &m.kind),
                Some(MentionKind::Settlement { .. })
            )
        {
            scene = Some(d + 1);
        }
    }
    // With no scene settlement, the first reference place is the scene:
    // "near the village of X, 20 km on the outskirts of Y", "near Latakia".
    scene.or_else(|| {
        mentions.iter().position(|m| {
            m.cue == Cue::Reference && matches!(m.kind, MentionKind::Settlement { .. })
        })
    })
}

/// A sublocation stands where a place must ("at X", "the courtyard of
/// X", "near X"), not as an actor ("by the activist Idlib Media Center").
/// "through the Zaatari camp" still places the scene, when nothing else does.
fn scene_sublocation(mentions: &[Mention]) -> Option<usize> {
    let is_sublocation = |m: &Mention| matches!(m.kind, MentionKind::Sublocation { .. });
    mentions
        .iter()
        .position(|m| {
            is_sublocation(m)
                && (matches!(m.cue, Cue::Scene | Cue::Of | Cue::Reference)
                    || m.after_comma_of_mention)
        })
        .or_else(|| {
            mentions
                .iter()
                .position(|m| is_sublocation(m) && m.cue == Cue::Weak)
        })
}

/// The place of the scene settlement `mentions[s]`, checked against a
/// later reference place that locates it; `None` when `s` is no settlement.
fn place_of_settlement(
    text: &str,
    mentions: &[Mention],
    s: usize,
    gazetteer: &Gazetteer,
    used: &mut Vec<Span>,
) -> Option<ScenePlace> {
    let MentionKind::Settlement {
        resolved: place, ..
    } = &mentions[s].kind
    else {
        return None;
    };
    used.push(mentions[s].span);
    let reference = later_reference(mentions, s);
    let mut found = ScenePlace {
        place: match (place, reference) {
            // A namesake far from the reference is not the place meant:
            // "Mrah village, 60 km north of Damascus".
            (Some(p), Some((r, anchor))) => {
                let radius = reference_radius_km(
                    text,
                    Span::new(mentions[s].span.end, mentions[r].span.start),
                );
                if distance_km(&p.place, anchor) <= radius {
                    Some(p.place.clone())
                } else {
                    gazetteer
                        .places_named(&mentions[s].name)
                        .into_iter()
                        .map(|m| m.place)
                        .filter(|candidate| distance_km(candidate, anchor) <= radius)
                        .max_by_key(|candidate| candidate.population)
                        .cloned()
                }
            }
            (p, _) => p.as_ref().map(|p| p.place.clone()),
        },
        city_as_written: None,
    };
    if found.place.is_none() {
        // An unknown village takes the id of the place that locates it.
        found.city_as_written = Some(mentions[s].name.clone());
        if let Some((r, anchor)) = reference {
            found.place = Some(anchor.clone());
            used.push(mentions[r].span);
        }
    }
    Some(found)
}

/// The first resolved reference place after mention `s`, with its index.
fn later_reference(mentions: &[Mention], s: usize) -> Option<(usize, &Place)> {
    let r = mentions[s + 1..].iter().position(|m| {
        m.cue == Cue::Reference
            && matches!(
                m.kind,
                MentionKind::Settlement {
                    resolved: Some(_),
                    ..
                }
            )
    })? + s
        + 1;
    match &mentions[r].kind {
        MentionKind::Settlement {
            resolved: Some(p), ..
        } => Some((r, &p.place)),
        _ => None,
    }
}

/// "at Kabul airport", "the Kigali Genocide Memorial", "Aleppo
/// University": with no settlement named, a facility named after its town
/// places the photo in that town (held to a stated country). The town is
/// the longest run of the leading capitalized words, short of the whole
/// name, that the gazetteer knows; a run cut before a name particle is no
/// name ("Bab al-Hawa border crossing" is not in Al Bab).
fn town_of_facility(mentions: &[Mention], i: usize, gazetteer: &Gazetteer) -> Option<Place> {
    let words: Vec<&str> = mentions[i].name.split(' ').collect();
    let leading = words
        .iter()
        .take_while(|w| starts_upper(w) || is_name_particle(w))
        .count()
        .min(words.len() - 1);
    (1..=leading)
        .rev()
        .filter(|&n| n == leading || starts_upper(words[n]))
        .find_map(|n| town_named(&words[..n].join(" "), mentions, gazetteer))
}

/// "in Hong Kong", "in Singapore": with no finer place named, a country
/// written with its capital's name, where that capital is a city of
/// [`CITY_STATE_MIN_POPULATION`] or more, is that city (a city-state). A
/// country whose capital is a small town of its name (`Luxembourg`,
/// `Monaco`) stays a country: the name there is as often the whole land.
fn city_state(mentions: &[Mention], gazetteer: &Gazetteer) -> Option<Place> {
    let (name, code) = mentions.iter().find_map(|m| match m.kind {
        MentionKind::Country(code) if m.cue != Cue::Weak || m.after_comma_of_mention => {
            Some((&m.name, code))
        }
        _ => None,
    })?;
    let capital = gazetteer::country_info_of(code)?.capital?;
    let place = gazetteer
        .capital_of(code)
        .filter(|p| p.population >= CITY_STATE_MIN_POPULATION)?;
    // The capital under any of its names: `Macao` is the city `Macau`.
    let same_name = gazetteer::fold(capital) == gazetteer::fold(name)
        || gazetteer
            .places_named_exactly(name)
            .iter()
            .any(|m| m.place.id == place.id);
    same_name.then(|| place.clone())
}

/// The smallest capital [`city_state`] takes for its country.
const CITY_STATE_MIN_POPULATION: u32 = 500_000;

/// The most populous settlement spelled `name`, in a country the caption
/// names if it names one.
fn town_named(name: &str, mentions: &[Mention], gazetteer: &Gazetteer) -> Option<Place> {
    // The countries with the strongest cue: "on the Egyptian side of the
    // Rafah border crossing before entering the Gaza Strip" is in Egypt.
    let is_country = |m: &&Mention| matches!(m.kind, MentionKind::Country(_));
    let best_cue = mentions.iter().filter(is_country).map(|m| m.cue).min();
    let countries: Vec<CountryCode> = mentions
        .iter()
        .filter(is_country)
        .filter(|m| Some(m.cue) == best_cue)
        .filter_map(|m| {
            if let MentionKind::Country(c) = m.kind {
                Some(c)
            } else {
                None
            }
        })
        .collect();
    gazetteer
        .places_named(name)
        .into_iter()
        .filter(|m| {
            m.kind == MatchKind::Folded
                && (countries.is_empty() || countries.contains(&m.place.country))
        })
        .max_by_key(|m| m.place.population)
        .map(|m| m.place.clone())
}

/// City, id, coordinates, country and province from the scene place; the
/// city keeps the name as written when the place is a reference's.
fn fill_from_place(location: &mut Location, scene: &ScenePlace) {
    let Some(place) = &scene.place else {
        location.city = scene.city_as_written.clone();
        return;
    };
    location.city = Some(
        scene
            .city_as_written
            .clone()
            .unwrap_or_else(|| place.name.to_string()),
    );
    location.geonames_id = Some(place.id);
    location.latitude = Some(place.latitude);
    location.longitude = Some(place.longitude);
    location.country_code = Some(place.country.to_string());
    location.province_code = place.admin1_code.as_deref().map(String::from);
}

/// Province and country named in the text fill what the place did not;
/// their spans join the location's text when they agree with it.
fn fill_stated_divisions(location: &mut Location, mentions: &[Mention], used: &mut Vec<Span>) {
    // The strongest cue, the later on a tie, as for settlements: "who
    // fled the Tigray region arrive ... in eastern Sudan's Kassala state".
    let best_cue = mentions
        .iter()
        .filter(|m| matches!(m.kind, MentionKind::Province { .. }) && m.cue != Cue::Weak)
        .map(|m| m.cue)
        .min();
    let province = mentions.iter().rev().find_map(|m| match &m.kind {
        MentionKind::Province { code, country } if Some(m.cue) == best_cue => {
            Some((m.span, code.clone(), *country))
        }
        _ => None,
    });
    let country = mentions.iter().find_map(|m| match m.kind {
        MentionKind::Country(code) if m.cue != Cue::Weak || m.after_comma_of_mention => {
            Some((m.span, code))
        }
        _ => None,
    });
    if location.province_code.is_none() {
        if let Some((span, code, country_of_province)) = &province {
            let fits = location.country_code.is_none()
                || country_of_province.map(|c| c.to_string()) == location.country_code;
            if fits {
                location.province_code = code.clone();
                used.push(*span);
                if location.country_code.is_none() {
                    location.country_code = country_of_province.map(|c| c.to_string());
                }
            }
        }
    } else if let Some((span, code, _)) = &province {
        if code == &location.province_code {
            used.push(*span);
        }
    }
    if let Some((span, code)) = country {
        if location.country_code.is_none() {
            location.country_code = Some(code.to_string());
        }
        if location.country_code.as_deref() == Some(code.as_str()) {
            used.push(span);
        }
    }
}

/// The province's and country's names from their codes.
fn name_divisions(location: &mut Location, gazetteer: &Gazetteer) {
    if let Some(code) = &location.province_code {
        location.province = gazetteer.admin1(code).map(|a| a.common_name().to_string());
    }
    if let Some(code) = location.country_code.as_deref().and_then(CountryCode::new) {
        location.country = gazetteer.country(code).map(|c| c.common_name().to_string());
    }
}
