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

//!
//! The captions come from [`gazetteer::generated`], which `xtask fit-place`
//! trains on too.

use caption::parse;
use gazetteer::generated::{generated_captions, Kind, Style};
use gazetteer::Gazetteer;
use std::collections::BTreeMap;

/// Below this the test fails.
// issue 11: target 0.98; today 0.981
const FLOOR: f64 = 0.978;

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
    let captions = generated_captions(g);
    let max_failures: usize = std::env::var("DATELINE_GEN_FAILURES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);

    let mut by_style: BTreeMap<Style, Tally> = BTreeMap::new();
    let mut by_continent: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut by_kind: BTreeMap<Kind, Tally> = BTreeMap::new();
    let mut overall = Tally::default();
    let mut failures = Vec::new();
    let n_reassigned = captions.iter().filter(|c| c.expected != c.place).count();
    let mut places: Vec<u32> = captions.iter().map(|c| c.place).collect();
    places.dedup();

    for c in &captions {
        let record = parse(&c.caption, g);
        let got = record.location.as_ref().and_then(|l| l.geonames_id);
        let ok = got == Some(c.expected);
        by_style.entry(c.style).or_default().add(ok);
        by_continent.entry(c.continent).or_default().add(ok);
        by_kind.entry(c.kind).or_default().add(ok);
        overall.add(ok);
        if !ok {
            failures.push((c.style, c.caption.clone(), c.expected, got, record.location));
        }
    }

    println!(
        "{} places, {} captions ({} expect a larger namesake in the same scope)\n",
        places.len(),
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
