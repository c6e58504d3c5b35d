//! Resolution: settlement candidates against the gazetteer, with the
//! caption's countries and provinces as context.

use gazetteer::{CountryCode, Gazetteer, MatchKind, Place, PlaceMatch};

use super::score::{Features, WEIGHTS};
use super::{CandidateList, ScoredCandidate};

use super::lexicon::{demonym_country, is_one_of, starts_upper, strip_possessive, DIRECTIONS};
use super::mention::{Cue, Mention, MentionKind, ResolvedPlace};
use super::tokens::{tokenize, Token};
use crate::span::Span;

/// The countries a caption hints at (country names anywhere in its words
/// and nationality adjectives: `the Syrian Observatory`), for breaking
/// ties between namesakes; computed only when a name's candidates lie in
/// several countries (most captions never need them).
pub(super) struct CountryHints<'a> {
    pub(super) text: &'a str,
    pub(super) description: Span,
    /// The source the credit names, if any (never its agencies).
    pub(super) credit_source: Option<&'a str>,
    pub(super) gazetteer: &'a Gazetteer,
    pub(super) countries: std::cell::OnceCell<Vec<CountryCode>>,
}

impl CountryHints<'_> {
    pub(super) fn get(&self) -> &[CountryCode] {
        // The caption's own words: text before the description (a
        // dateline) and the description, then the credit's source (a
        // local provider: "Syrian Observatory for Human Rights"). The
        // agencies are left out: an agency's country ("Sipa USA",
        // "EPA-EFE") says nothing of where the picture was taken.
        self.countries.get_or_init(|| {
            let tokens = tokenize(self.text, Span::new(0, self.description.end));
            let mut countries = weak_country_context(self.text, &tokens, self.gazetteer);
            if let Some(source) = self.credit_source {
                let tokens = tokenize(source, Span::new(0, source.len()));
                for code in weak_country_context(source, &tokens, self.gazetteer) {
                    if !countries.contains(&code) {
                        countries.push(code);
                    }
                }
            }
            countries
        })
    }
}

pub(super) fn weak_country_context(
    text: &str,
    tokens: &[Token],
    gazetteer: &Gazetteer,
) -> Vec<CountryCode> {
    let mut out = Vec::new();
    for token in tokens.iter().filter(|t| t.is_word()) {
        let word = token.text(text);
        if !starts_upper(word) {
            continue;
        }
        let code = demonym_country(word)
            .and_then(CountryCode::new)
            .or_else(|| {
                gazetteer
                    .country_named(strip_possessive(word).unwrap_or(word))
                    .map(|c| c.code)
            });
        if let Some(code) = code {
            if !out.contains(&code) {
                out.push(code);
            }
        }
    }
    out
}

pub(super) fn resolve_settlements(
    text: &str,
    mentions: &mut [Mention],
    gazetteer: &Gazetteer,
    weak: &CountryHints<'_>,
    trace: &mut Option<Vec<CandidateList>>,
) {
    read_division_appositions(mentions, gazetteer);
    // A country is strong context (a filter) where it places something:
    // after a cue (`in Syria`), in apposition (`Aleppo, Syria`). A bare
    // country elsewhere (`as US trade officials arrive`) is only a hint.
    let strong_countries: Vec<CountryCode> = mentions
        .iter()
        .enumerate()
        .filter(|(k, m)| match m.cue {
            Cue::Weak => false,
            Cue::Bare => in_apposition(text, mentions, *k),
            _ => true,
        })
        .map(|(_, m)| m)
        .filter_map(|m| match &m.kind {
            MentionKind::Country(code) => Some(*code),
            MentionKind::Province {
                country: Some(code),
                ..
            } => Some(*code),
            _ => None,
        })
        .collect();
    let provinces: Vec<String> = mentions
        .iter()
        .filter_map(|m| match &m.kind {
            MentionKind::Province {
                code: Some(code), ..
            } => Some(code.clone()),
            _ => None,
        })
        .collect();
    for k in 0..mentions.len() {
        let MentionKind::Settlement { explicit_head, .. } = mentions[k].kind else {
            continue;
        };
        // "Stephenville, La.": a division right after the name is a filter.
        let attached_province = mentions
            .get(k + 1)
            .filter(|m| m.after_comma_of_mention)
            .and_then(|m| match &m.kind {
                MentionKind::Province {
                    code: Some(code), ..
                } => Some(code.clone()),
                _ => None,
            });
        let resolved = best_place(
            &mentions[k].name,
            gazetteer,
            &strong_countries,
            &provinces,
            weak,
            trace,
        )
        .or_else(|| {
            let stem = without_city_word(&mentions[k].name)?;
            best_place(stem, gazetteer, &strong_countries, &provinces, weak, trace)
        })
        .filter(|p| {
            attached_province
                .as_ref()
                .is_none_or(|code| p.admin1_code.as_deref() == Some(code.as_str()))
        });
        let resolved = match (&resolved, &attached_province) {
            (None, Some(code)) => gazetteer
                .places_named(&mentions[k].name)
                .into_iter()
                .filter(|m| m.place.admin1_code.as_deref() == Some(code.as_str()))
                .max_by_key(|m| m.place.population)
                .map(|m| m.place.clone()),
            _ => resolved,
        };
        mentions[k].kind = MentionKind::Settlement {
            resolved: resolved.map(ResolvedPlace::from),
            explicit_head,
        };
    }
    // Settlements of one caption lie in one country: the most prominent
    // resolved one anchors it, and a name that resolved elsewhere is
    // re-resolved there, or left unresolved when it has no namesake there
    // and stands next to the anchor ("Jubar, Damascus"). A name at a scene
    // cue (`in New Delhi`) outranks one without (`a shrine of Sufi saint`,
    // whatever town it spells): the scene says where the caption is.
    if strong_countries.is_empty() {
        let anchor = mentions
            .iter()
            .filter_map(|m| match &m.kind {
                MentionKind::Settlement {
                    resolved: Some(p), ..
                } => Some((m.cue == Cue::Scene, &p.place)),
                _ => None,
            })
            .max_by_key(|(at_scene, p)| (*at_scene, p.population))
            .map(|(_, p)| p.country);
        if let Some(anchor) = anchor {
            for k in 0..mentions.len() {
                let MentionKind::Settlement {
                    resolved: Some(ref p),
                    explicit_head,
                } = mentions[k].kind
                else {
                    continue;
                };
                if p.place.country == anchor {
                    continue;
                }
                let in_anchor = best_place(
                    &mentions[k].name,
                    gazetteer,
                    &[anchor],
                    &provinces,
                    weak,
                    trace,
                );
                let next_to_anchor = mentions[k].after_comma_of_mention
                    || mentions
                        .get(k + 1)
                        .is_some_and(|m| m.after_comma_of_mention);
                let hinted = weak.get().contains(&p.place.country);
                if in_anchor.is_some() || next_to_anchor || !hinted {
                    mentions[k].kind = MentionKind::Settlement {
                        resolved: in_anchor.map(ResolvedPlace::from),
                        explicit_head,
                    };
                }
            }
        }
    }
    read_unknown_divisions(mentions);
    // "Jubar, Damascus", "at X, in Teknaf": an unresolved name before a
    // resolved city is a part of it.
    for k in 1..mentions.len() {
        let parent_resolved = matches!(
            mentions[k].kind,
            MentionKind::Settlement {
                resolved: Some(_),
                ..
            }
        );
        let gap = Span::new(mentions[k - 1].span.end, mentions[k].span.start)
            .of(text)
            .trim();
        if (mentions[k].after_comma_of_mention || gap == ", in") && parent_resolved {
            if let MentionKind::Settlement {
                resolved: None,
                explicit_head: false,
            } = mentions[k - 1].kind
            {
                let name = mentions[k - 1].name.clone();
                mentions[k - 1].kind = MentionKind::Sublocation {
                    name,
                    district: true,
                };
                mentions[k - 1].district_of_next = true;
            }
        }
    }
}

/// "Doha, Baladiyat ad Dawhah, Qatar", "Chelmsford, Essex", "Olney, in
/// Buckinghamshire": an unresolved name right after a resolved town and a
/// comma is the town's division as written (a county the gazetteer does
/// not hold), not a finer place: captions go from the small place to the
/// large. After a facility ("Thirsk Hall Gardens, North Yorkshire, UK")
/// the same holds when a country closes the list.
fn read_unknown_divisions(mentions: &mut [Mention]) {
    for k in 1..mentions.len() {
        let unknown = matches!(
            mentions[k].kind,
            MentionKind::Settlement {
                resolved: None,
                explicit_head: false
            }
        );
        let after_town = matches!(
            mentions[k - 1].kind,
            MentionKind::Settlement {
                resolved: Some(_),
                ..
            }
        );
        let after_facility = matches!(
            mentions[k - 1].kind,
            MentionKind::Sublocation {
                district: false,
                ..
            }
        );
        // The country closes the list, possibly after the rest of a name
        // the scan cut ("Baladiyat ad Dawhah").
        let country_next = mentions[k + 1..]
            .iter()
            .take(2)
            .any(|m| m.after_comma_of_mention && matches!(m.kind, MentionKind::Country(_)));
        if unknown
            && mentions[k].after_comma_of_mention
            && (after_town || (after_facility && country_next))
        {
            mentions[k].kind = MentionKind::Region;
        }
    }
}

/// "Zhongwei City": the name without a trailing `City`, which Chinese
/// English writes after a town's name where the gazetteer has the name
/// alone.
fn without_city_word(name: &str) -> Option<&str> {
    name.strip_suffix(" City")
        .filter(|stem| !stem.is_empty() && !stem.ends_with(' '))
}

/// Whether mention `k` stands in apposition to the one before it:
/// `Aleppo, Syria`, or with a direction between, `Tripoli, northern
/// Lebanon`.
fn in_apposition(text: &str, mentions: &[Mention], k: usize) -> bool {
    if mentions[k].after_comma_of_mention {
        return true;
    }
    let Some(before) = k.checked_sub(1).map(|j| &mentions[j]) else {
        return false;
    };
    let gap = Span::new(before.span.end, mentions[k].span.start).of(text);
    gap.trim()
        .strip_prefix(',')
        .map(str::trim)
        .is_some_and(|d| !d.is_empty() && !d.contains(' ') && is_one_of(d, DIRECTIONS))
}

/// `Augusta, Georgia`, `Palm Beach, Florida`, `Las Vegas, Nevada`:
/// a name after a settlement and a comma that names a first-level division
/// holding a place of the settlement's name is that division, whatever
/// else the name could be (a country, a town, a division of another
/// country). The gazetteer confirms the pair, so `Batumi, Georgia` stays in
/// the country. The settlement is then resolved inside the division, as
/// after any division that follows it.
pub(super) fn read_division_appositions(mentions: &mut [Mention], gazetteer: &Gazetteer) {
    for k in 1..mentions.len() {
        // A settlement not yet resolved, then a name that may be a division
        // (one already resolved as a division needs no second reading).
        let pair = matches!(
            mentions[k - 1].kind,
            MentionKind::Settlement { resolved: None, .. }
        ) && matches!(
            mentions[k].kind,
            MentionKind::Country(_)
                | MentionKind::Settlement { .. }
                | MentionKind::Province { code: None, .. }
        );
        if !mentions[k].after_comma_of_mention || !pair {
            continue;
        }
        let mut divisions = gazetteer.admin1_named(&mentions[k].name, None);
        // `Washington, DC`, `Austin, TX`: a US postal code is the state's
        // GeoNames code.
        let name = mentions[k].name.as_str();
        if name.len() == 2 && name.bytes().all(|b| b.is_ascii_uppercase()) {
            divisions.extend(gazetteer.admin1(&format!("US.{name}")));
        }
        if divisions.is_empty() {
            continue;
        }
        let holding = gazetteer
            .places_named(&mentions[k - 1].name)
            .into_iter()
            .filter(|m| m.kind != MatchKind::Skeleton)
            .filter_map(|m| {
                divisions
                    .iter()
                    .find(|d| m.place.admin1_code.as_deref() == Some(d.code.as_str()))
                    .map(|d| (m.place.population, *d))
            })
            .max_by_key(|(population, _)| *population);
        if let Some((_, division)) = holding {
            mentions[k].kind = MentionKind::Province {
                code: Some(division.code.clone()),
                country: Some(division.country),
            };
        }
    }
}

/// The best gazetteer place for a name in context, or `None` when no
/// candidate fits the countries the caption names. Every fitting candidate
/// is scored by the model of [`super::score`]; with `trace`, the scored
/// list is kept for `--explain` and for fitting the weights.
pub(super) fn best_place(
    name: &str,
    gazetteer: &Gazetteer,
    countries: &[CountryCode],
    provinces: &[String],
    weak: &CountryHints<'_>,
    trace: &mut Option<Vec<CandidateList>>,
) -> Option<Place> {
    // With the country named, an exact name there is the answer: skip the
    // costlier spelling-variant lookup.
    let exact = if countries.is_empty() {
        Vec::new()
    } else {
        gazetteer.places_named_exactly(name)
    };
    let candidates = if exact.iter().any(|m| countries.contains(&m.place.country)) {
        exact
    } else {
        gazetteer.places_named(name)
    };
    // A named country is a filter; a skeleton match must also stay in a
    // country the caption suggests (named or hinted), so a consonant
    // lookalike never carries the scene abroad.
    let fitting: Vec<_> = candidates
        .iter()
        .filter(|m| countries.is_empty() || countries.contains(&m.place.country))
        .filter(|m| {
            m.kind != MatchKind::Skeleton
                || !countries.is_empty()
                || weak.get().contains(&m.place.country)
        })
        .collect();
    // Hints only matter between countries: most names never compute them.
    let several_countries = fitting
        .windows(2)
        .any(|pair| pair[0].place.country != pair[1].place.country);
    let hints: &[CountryCode] = if several_countries { weak.get() } else { &[] };
    // Main against alternate names only matters between candidates.
    let own_key = (fitting.len() > 1).then(|| gazetteer::fold(name));
    let features = |m: &PlaceMatch<'_>| Features {
        tier: m.kind,
        log_population: (f64::from(m.place.population) + 1.0).log10(),
        population_unknown: m.place.population == 0,
        weak_hint: hints.contains(&m.place.country),
        // A province named elsewhere in the sentence is a hint, not a
        // filter: "in Azaz, Syria, where families fleeing Idlib province".
        named_province: provinces
            .iter()
            .any(|code| m.place.admin1_code.as_deref() == Some(code.as_str())),
        own_name: own_key
            .as_deref()
            .is_some_and(|key| gazetteer::fold(&m.place.name) == key),
        capital: gazetteer.is_capital(m.place),
    };
    let mut scored: Vec<(f64, &PlaceMatch<'_>, Features)> = fitting
        .into_iter()
        .map(|m| {
            let f = features(m);
            (f.score(&WEIGHTS), m, f)
        })
        .collect();
    // Best first; the gazetteer's order (tier, population, id) breaks ties.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    if let Some(trace) = trace {
        trace.push(CandidateList {
            mention: name.to_string(),
            countries: countries.to_vec(),
            candidates: scored
                .iter()
                .map(|(score, m, features)| ScoredCandidate {
                    id: m.place.id,
                    name: m.place.name.to_string(),
                    country: m.place.country,
                    admin1_code: m.place.admin1_code.as_deref().map(String::from),
                    population: m.place.population,
                    features: *features,
                    score: *score,
                })
                .collect(),
        });
    }
    scored.first().map(|(_, m, _)| m.place.clone())
}

/// Great-circle distance in km between two places.
pub(super) fn distance_km(a: &Place, b: &Place) -> f64 {
    gazetteer::distance_km((a.latitude, a.longitude), (b.latitude, b.longitude))
}

/// How far a place may lie from the reference that locates it: twice a
/// stated distance ("60 km north of X"), else what "near X" plausibly means.
pub(super) fn reference_radius_km(text: &str, between: Span) -> f64 {
    let words: Vec<&str> = between
        .of(text)
        .split(|c: char| !c.is_alphanumeric() && c != '.')
        .filter(|w| !w.is_empty())
        .collect();
    let stated = words.windows(2).find_map(|pair| {
        let unit = pair[1].to_ascii_lowercase();
        let value: f64 = pair[0].replace(',', "").parse().ok()?;
        match unit.as_str() {
            "km" | "kms" | "kilometres" | "kilometers" => Some(value),
            "miles" | "mile" => Some(value * 1.609),
            _ => None,
        }
    });
    stated.map_or(80.0, |km| (2.0 * km).max(25.0))
}
