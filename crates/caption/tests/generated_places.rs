//! Captions generated from the gazetteer itself (issue 11 item 4): every
//! country's capital and its five most populous places, every US state's
//! three most populous places and 200 namesake pairs (one name, two
//! countries), each written in nine wire dateline styles; the parsed record's
//! GeoNames id must be the place's.
//!
//! ```sh
//! cargo test -p caption --test generated_places -- --nocapture
//! ```
//!
//! prints accuracy by style, by continent and by kind of place, and up to 30
//! failures. `DATELINE_GEN_FAILURES=N` lists N failures instead.
//!
//! # What a reader could know
//! The expected id is the place a careful reader would pick from the words
//! of the caption: the most populous place whose GeoNames main name is the
//! one written, in the country (and, when the caption names it, the first-
//! level division) the caption states. Usually that is the generated place
//! itself; when a bigger place of the same name lies in the same scope (two
//! `San Jose` in the Philippines), the bigger one is expected, since nothing
//! in the caption tells them apart.
//!
//! AFP style names the country only where an editor would: it leaves it out
//! for a place that is the most populous of its name in the world by a
//! factor of 50 and has 100,000 inhabitants or more (`in Kabul on ...`), and
//! writes `in {City}, {Country}` otherwise.
//!
//! Countries are written with their GeoNames English short name (`Republic
//! of the Congo`, `Palestinian Territory`), cities with their GeoNames main
//! name, first letter capitalized (`La Massana`). The embedded places carry
//! no feature codes, so "most populous places" may include sections of a
//! city (`Sector 3`, Bucharest) that GeoNames lists as populated places.
//! Capitals come from GeoNames `countryInfo.txt` via
//! [`Gazetteer::capital_of`]; continents likewise.
//!
//! US places are written with their state, as US wires do: `Reno, Nevada`
//! (with `, U.S.` in Reuters and `USA` in EPA style), AP abbreviations in AP
//! datelines (`RENO, Nev. (AP) —`).

use caption::parse;
use gazetteer::{fold, Continent, CountryCode, Gazetteer, Place};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Below this the test fails.
// issue 11: target 0.98; today 0.925
const FLOOR: f64 = 0.92;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Kind {
    Capital,
    Top5,
    UsState,
    Namesake,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Style {
    Reuters,
    ApDateline,
    ApPhoto,
    Afp,
    GettyUpper,
    Epa,
    Division,
    Possessive,
    Near,
}

const STYLES: [Style; 9] = [
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
fn select(g: &'static Gazetteer) -> Vec<Target<'static>> {
    let mut by_country: HashMap<CountryCode, Vec<&'static Place>> = HashMap::new();
    for p in g.places() {
        by_country.entry(p.country).or_default().push(p);
    }
    for places in by_country.values_mut() {
        places.sort_by_key(|p| (std::cmp::Reverse(p.population), p.id));
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut push = |place: &'static Place, kind: Kind, out: &mut Vec<Target<'static>>| {
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
    let mut by_state: BTreeMap<&str, Vec<&'static Place>> = BTreeMap::new();
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
fn namesake_pairs(g: &'static Gazetteer, n: usize) -> Vec<(&'static Place, &'static Place)> {
    let mut best: HashMap<(String, CountryCode), &'static Place> = HashMap::new();
    for p in g.places() {
        let key = (fold(&p.name), p.country);
        let slot = best.entry(key).or_insert(p);
        if (p.population, std::cmp::Reverse(p.id)) > (slot.population, std::cmp::Reverse(slot.id)) {
            *slot = p;
        }
    }
    let mut by_name: HashMap<String, Vec<&'static Place>> = HashMap::new();
    for ((name, _), p) in best {
        by_name.entry(name).or_default().push(p);
    }
    let mut pairs: Vec<(u64, String, &'static Place, &'static Place)> = by_name
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

#[derive(Default, Clone, Copy)]
struct Tally {
    ok: u32,
    n: u32,
}

impl Tally {
    fn add(&mut self, ok: bool) {
        self.n += 1;
        self.ok += u32::from(ok);
    }
    fn rate(self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            f64::from(self.ok) / f64::from(self.n)
        }
    }
}

fn print_table<K: std::fmt::Debug>(title: &str, rows: &BTreeMap<K, Tally>) {
    println!("{title:<14} {:>6} {:>6} {:>8}", "ok", "n", "accuracy");
    for (k, t) in rows {
        println!(
            "{:<14} {:>6} {:>6} {:>8.3}",
            format!("{k:?}"),
            t.ok,
            t.n,
            t.rate()
        );
    }
    println!();
}

#[test]
fn captions_generated_from_the_gazetteer_resolve_to_their_place() {
    let g = Gazetteer::embedded();
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
    let max_failures: usize = std::env::var("DATELINE_GEN_FAILURES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);

    let mut by_style: BTreeMap<Style, Tally> = BTreeMap::new();
    let mut by_continent: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut by_kind: BTreeMap<Kind, Tally> = BTreeMap::new();
    let mut overall = Tally::default();
    let mut failures = Vec::new();
    let mut n_reassigned = 0;

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
            let want = expected_id(g, t.place, by_division);
            if want != t.place.id {
                n_reassigned += 1;
            }
            let record = parse(&caption, g);
            let got = record.location.as_ref().and_then(|l| l.geonames_id);
            let ok = got == Some(want);
            by_style.entry(style).or_default().add(ok);
            by_continent.entry(continent).or_default().add(ok);
            by_kind.entry(t.kind).or_default().add(ok);
            overall.add(ok);
            if !ok {
                failures.push((style, caption, want, got, record.location));
            }
        }
    }

    println!(
        "{} places, {} captions ({} expect a larger namesake in the same scope)\n",
        targets.len(),
        overall.n,
        n_reassigned
    );
    print_table("style", &by_style);
    print_table("continent", &by_continent);
    print_table("kind", &by_kind);
    println!(
        "overall        {:>6} {:>6} {:>8.3}\n",
        overall.ok,
        overall.n,
        overall.rate()
    );
    // How the failures fail: no id at all, a place in another country, or
    // another place in the right country.
    let mut by_cause: BTreeMap<&str, u32> = BTreeMap::new();
    for (_, _, want, got, _) in &failures {
        let want_country = g.place(*want).map(|p| p.country);
        let cause = match got.and_then(|id| g.place(id)) {
            None => "no id",
            Some(p) if Some(p.country) != want_country => "other country",
            Some(_) => "same country, other place",
        };
        *by_cause.entry(cause).or_default() += 1;
    }
    println!("failures by cause: {by_cause:?}\n");
    // An even spread of the failures, in generation order.
    let stride = failures.len().div_ceil(max_failures.max(1)).max(1);
    for (style, caption, want, got, loc) in failures.iter().step_by(stride) {
        let show = |id: Option<u32>| {
            id.and_then(|id| g.place(id)).map_or_else(
                || "nothing".to_owned(),
                |p| format!("{} {} ({})", p.id, p.name, p.country),
            )
        };
        let loc = loc.as_ref();
        println!(
            "[{style:?}] {caption}\n    expected {}; got {}; city {:?} province {:?} country {:?}",
            show(Some(*want)),
            show(*got),
            loc.and_then(|l| l.city.as_deref()),
            loc.and_then(|l| l.province.as_deref()),
            loc.and_then(|l| l.country_code.as_deref()),
        );
    }
    assert!(overall.n > 10_000, "only {} captions generated", overall.n);
    assert!(
        overall.rate() >= FLOOR,
        "accuracy {:.3} fell below the floor {FLOOR}",
        overall.rate()
    );
}
