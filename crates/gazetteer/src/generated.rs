//! Captions generated from the gazetteer itself: every country's capital
//! and its five most populous places, every US state's three most populous
//! places and 200 namesake pairs (one name, two countries), each written in
//! nine wire dateline styles, with the GeoNames id a careful reader would
//! give each. `caption`'s test `generated_places` measures the parser on
//! them, and `xtask fit-place` trains the place scoring model on them: one
//! generator for both.
//!
//! The expected id is the most populous place whose GeoNames main name is
//! the one written, in the country (and, when the caption names it, the
//! first-level division) the caption states; AFP style leaves the country
//! out for a place that is the most populous of its name by a factor of 50
//! and has 100,000 inhabitants or more. Countries are written with their
//! GeoNames English short name, cities with their main name, first letter
//! capitalized. US places are written with their state, as US wires do.

use crate::{fold, Continent, CountryCode, Gazetteer, GeonameId, Place};
use std::collections::{BTreeMap, HashMap, HashSet};

/// One generated caption and what it must resolve to.
#[derive(Debug, Clone)]
pub struct GeneratedCaption {
    /// The wire style it is written in.
    pub style: Style,
    /// Why the place was chosen.
    pub kind: Kind,
    /// Continent code of the place's country (`??` when unknown).
    pub continent: &'static str,
    /// The caption text.
    pub caption: String,
    /// The id a reader could know from the caption's words.
    pub expected: GeonameId,
    /// The place the caption was written about (`expected` differs when a
    /// bigger namesake lies in the same scope).
    pub place: GeonameId,
}

/// Every generated caption, in a fixed order.
pub fn generated_captions(g: &Gazetteer) -> Vec<GeneratedCaption> {
    let targets = select(g);
    // For AFP style: each main name's largest and second-largest population.
    let mut dominant: HashMap<String, (u32, u32)> = HashMap::new();
    for p in g.places() {
        let e = dominant.entry(fold(&p.name)).or_insert((0, 0));
        if p.population > e.0 {
            *e = (p.population, e.0);
        } else if p.population > e.1 {
            e.1 = p.population;
        }
    }
    let mut out = Vec::new();
    for t in &targets {
        let n = names(g, t.place, &dominant);
        let continent = g
            .continent_of(t.place.country)
            .map_or("??", Continent::code);
        for style in STYLES {
            let Some(caption) = render(style, &n) else {
                continue;
            };
            let by_division = style == Style::Division || n.us;
            out.push(GeneratedCaption {
                style,
                kind: t.kind,
                continent,
                caption,
                expected: expected_id(g, t.place, by_division),
                place: t.place.id,
            });
        }
    }
    out
}
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
/// Why a place was chosen.
pub enum Kind {
    /// A country's capital.
    Capital,
    /// One of a country's five most populous places.
    Top5,
    /// One of a US state's three most populous places.
    UsState,
    /// One of a pair of namesakes in two countries.
    Namesake,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
/// A wire style of writing the place.
pub enum Style {
    /// `in City, Country Month D, YYYY. REUTERS/...`.
    Reuters,
    /// `CITY, Country (AP) —` dateline.
    ApDateline,
    /// `in City, Country, ... (AP Photo/...)`.
    ApPhoto,
    /// AFP: the country only where an editor would write it.
    Afp,
    /// `CITY, COUNTRY - MONTH DD:` Getty dateline.
    GettyUpper,
    /// `epaNNN ... in City, Country, DD Month YYYY. EPA-EFE/...`.
    Epa,
    /// the city with its first-level division.
    Division,
    /// `City's main market`, the country named later.
    Possessive,
    /// `near City`.
    Near,
}

/// Every style, in report order.
pub const STYLES: [Style; 9] = [
    Style::Reuters,
    Style::ApDateline,
    Style::ApPhoto,
    Style::Afp,
    Style::GettyUpper,
    Style::Epa,
    Style::Division,
    Style::Possessive,
    Style::Near,
];

struct Target<'g> {
    place: &'g Place,
    kind: Kind,
}

fn code(c: &str) -> CountryCode {
    CountryCode::new(c).expect("a two-letter code")
}

/// The places to write captions about, each once, in a fixed order.
fn select<'g>(g: &'g Gazetteer) -> Vec<Target<'g>> {
    let mut by_country: HashMap<CountryCode, Vec<&'g Place>> = HashMap::new();
    for p in g.places() {
        by_country.entry(p.country).or_default().push(p);
    }
    for places in by_country.values_mut() {
        places.sort_by_key(|p| (std::cmp::Reverse(p.population), p.id));
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut push = |place: &'g Place, kind: Kind, out: &mut Vec<Target<'g>>| {
        if seen.insert(place.id) {
            out.push(Target { place, kind });
        }
    };
    let mut countries: Vec<_> = g.countries().iter().map(|c| c.code).collect();
    countries.sort();
    for &cc in &countries {
        if let Some(capital) = g.capital_of(cc) {
            push(capital, Kind::Capital, &mut out);
        }
        if let Some(places) = by_country.get(&cc) {
            for &p in places.iter().take(5) {
                push(p, Kind::Top5, &mut out);
            }
        }
    }
    let us = code("US");
    let mut by_state: BTreeMap<&str, Vec<&'g Place>> = BTreeMap::new();
    for p in by_country.get(&us).into_iter().flatten() {
        if let Some(a1) = p.admin1_code.as_deref() {
            by_state.entry(a1).or_default().push(p);
        }
    }
    for places in by_state.values() {
        // Already most populous first.
        for &p in places.iter().take(3) {
            push(p, Kind::UsState, &mut out);
        }
    }
    for (a, b) in namesake_pairs(g, 200) {
        push(a, Kind::Namesake, &mut out);
        push(b, Kind::Namesake, &mut out);
    }
    out
}

/// `n` pairs of places with the same main name in two countries: for each
/// name, the most populous place of it in each country, the two most
/// populous of those; the pairs of largest combined population first.
fn namesake_pairs<'g>(g: &'g Gazetteer, n: usize) -> Vec<(&'g Place, &'g Place)> {
    let mut best: HashMap<(String, CountryCode), &'g Place> = HashMap::new();
    for p in g.places() {
        let key = (fold(&p.name), p.country);
        let slot = best.entry(key).or_insert(p);
        if (p.population, std::cmp::Reverse(p.id)) > (slot.population, std::cmp::Reverse(slot.id)) {
            *slot = p;
        }
    }
    let mut by_name: HashMap<String, Vec<&'g Place>> = HashMap::new();
    for ((name, _), p) in best {
        by_name.entry(name).or_default().push(p);
    }
    let mut pairs: Vec<(u64, String, &'g Place, &'g Place)> = by_name
        .into_iter()
        .filter_map(|(name, mut places)| {
            if places.len() < 2 {
                return None;
            }
            places.sort_by_key(|p| (std::cmp::Reverse(p.population), p.id));
            let (a, b) = (places[0], places[1]);
            Some((
                u64::from(a.population) + u64::from(b.population),
                name,
                a,
                b,
            ))
        })
        .collect();
    pairs.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
    pairs
        .into_iter()
        .take(n)
        .map(|(_, _, a, b)| (a, b))
        .collect()
}

/// AP's abbreviations of state names in datelines (none for the eight
/// states AP spells out).
fn ap_state(postal: &str) -> Option<&'static str> {
    Some(match postal {
        "AL" => "Ala.",
        "AZ" => "Ariz.",
        "AR" => "Ark.",
        "CA" => "Calif.",
        "CO" => "Colo.",
        "CT" => "Conn.",
        "DE" => "Del.",
        "DC" => "D.C.",
        "FL" => "Fla.",
        "GA" => "Ga.",
        "IL" => "Ill.",
        "IN" => "Ind.",
        "KS" => "Kan.",
        "KY" => "Ky.",
        "LA" => "La.",
        "MD" => "Md.",
        "MA" => "Mass.",
        "MI" => "Mich.",
        "MN" => "Minn.",
        "MS" => "Miss.",
        "MO" => "Mo.",
        "MT" => "Mont.",
        "NE" => "Neb.",
        "NV" => "Nev.",
        "NH" => "N.H.",
        "NJ" => "N.J.",
        "NM" => "N.M.",
        "NY" => "N.Y.",
        "NC" => "N.C.",
        "ND" => "N.D.",
        "OK" => "Okla.",
        "OR" => "Ore.",
        "PA" => "Pa.",
        "RI" => "R.I.",
        "SC" => "S.C.",
        "SD" => "S.D.",
        "TN" => "Tenn.",
        "VT" => "Vt.",
        "VA" => "Va.",
        "WA" => "Wash.",
        "WV" => "W.Va.",
        "WI" => "Wis.",
        "WY" => "Wyo.",
        _ => return None,
    })
}

/// The words a caption uses for a place.
struct Names {
    city: String,
    /// The country, or for US places the state.
    region: String,
    /// First-level division, when GeoNames names it and it is not the city's
    /// own name.
    division: Option<String>,
    /// The country's name.
    country: String,
    us: bool,
    /// AP dateline form of the region (`Nev.`, or the country).
    ap_region: String,
    /// Whether AFP style may leave the country out.
    afp_bare: bool,
}

fn names(g: &Gazetteer, p: &Place, dominant: &HashMap<String, (u32, u32)>) -> Names {
    let country = g
        .country(p.country)
        .map(|c| c.name.trim().to_owned())
        .unwrap_or_else(|| p.country.to_string());
    let admin1 = p
        .admin1_code
        .as_deref()
        .and_then(|a| g.admin1(a))
        .map(|a| a.name.clone());
    let us = p.country == code("US");
    let postal = p.admin1_code.as_deref().and_then(|a| a.strip_prefix("US."));
    let region = match (&admin1, us) {
        // GeoNames' US.DC is named `Maryland` in the embedded data (its
        // admin1 names come from a join on the nearest town).
        _ if postal == Some("DC") => "D.C.".to_owned(),
        (Some(state), true) => state.clone(),
        _ => country.clone(),
    };
    let ap_region = match postal.and_then(ap_state) {
        Some(abbr) if us => abbr.to_owned(),
        _ => region.clone(),
    };
    let division = admin1.filter(|d| fold(d) != fold(&p.name)).map(|d| {
        if postal == Some("DC") {
            region.clone()
        } else {
            d
        }
    });
    let (largest, second) = dominant.get(&fold(&p.name)).copied().unwrap_or((0, 0));
    let afp_bare = p.population == largest
        && p.population >= 100_000
        && u64::from(p.population) >= 50 * u64::from(second);
    Names {
        city: capitalized(&p.name),
        region,
        division,
        country,
        us,
        ap_region,
        afp_bare,
    }
}

/// `la Massana` as a caption writes it: `La Massana`.
fn capitalized(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The caption for a place in a style; `None` when the style cannot be
/// written for it (no division known).
fn render(style: Style, n: &Names) -> Option<String> {
    let Names {
        city,
        region,
        country,
        ..
    } = n;
    let reuters_where = if n.us {
        format!("{city}, {region}, U.S.")
    } else {
        format!("{city}, {region}")
    };
    Some(match style {
        Style::Reuters => {
            format!("People walk along a street in {reuters_where} May 3, 2024. REUTERS/Jane Roe")
        }
        Style::ApDateline => format!(
            "{}, {} (AP) — Volunteers hand out water to people waiting in line on Friday, May 3, 2024. (AP Photo/John Doe)",
            city.to_uppercase(),
            n.ap_region
        ),
        Style::ApPhoto => format!(
            "A vendor arranges fruit at a market in {city}, {region}, on Friday, May 3, 2024. (AP Photo/John Doe)"
        ),
        Style::Afp => {
            let place = if n.afp_bare {
                city.clone()
            } else {
                format!("{city}, {region},")
            };
            format!("Commuters wait for a bus in {place} on May 3, 2024. (Photo by Ann Lee / AFP)")
        }
        Style::GettyUpper => format!(
            "{}, {} - MAY 03: Visitors look at a mural on May 03, 2024. (Photo by Sam Park/Getty Images)",
            city.to_uppercase(),
            region.to_uppercase()
        ),
        Style::Epa => {
            let region = if n.us { format!("{region}, USA") } else { region.clone() };
            format!(
                "epa11312345 Children play football in a square in {city}, {region}, 03 May 2024. EPA-EFE/MARIA LOPEZ"
            )
        }
        Style::Division => {
            let division = n.division.as_ref()?;
            // For US places the division is the state: `Reno, Nevada, U.S.`.
            let tail = if n.us { "U.S." } else { country.as_str() };
            format!(
                "Residents queue outside a bakery in {city}, {division}, {tail}, on May 3, 2024. (Xinhua/Li Wei)"
            )
        }
        Style::Possessive => {
            // `in New York` alone would read as the city.
            let region = if n.us {
                format!("the U.S. state of {region}")
            } else {
                region.clone()
            };
            format!(
                "Shoppers crowd {city}'s main market on May 3, 2024, ahead of a public holiday in {region}. REUTERS/Jane Roe"
            )
        }
        Style::Near => format!(
            "Smoke rises from a field near {city}, {region}, May 3, 2024. REUTERS/Jane Roe"
        ),
    })
}

/// The id a reader would choose: the most populous place of the same main
/// name in the stated scope (country; division too when `by_division`).
fn expected_id(g: &Gazetteer, p: &Place, by_division: bool) -> u32 {
    let name = fold(&p.name);
    g.places_named_exactly(&p.name)
        .into_iter()
        .map(|m| m.place)
        .filter(|q| q.country == p.country && fold(&q.name) == name)
        .filter(|q| !by_division || q.admin1_code == p.admin1_code)
        .max_by_key(|q| (q.population, std::cmp::Reverse(q.id)))
        .map_or(p.id, |q| q.id)
}
