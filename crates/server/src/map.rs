//! Map aggregates: matching records counted per country and per
//! first-level division (ISO and `CC.NN` codes from the facet counts), each
//! area named and placed by the gazetteer (a division at its most populous
//! place, since the gazetteer has no division centroids).

use std::collections::HashMap;
use std::sync::OnceLock;

use gazetteer::Gazetteer;
use serde::Serialize;

/// The level of the areas counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Countries (ISO 3166-1 alpha-2).
    Country,
    /// First-level divisions (`CC.NN`).
    Admin1,
}

impl Level {
    /// Parses `country` or `admin1`.
    pub fn parse(s: &str) -> Option<Level> {
        match s {
            "country" => Some(Level::Country),
            "admin1" => Some(Level::Admin1),
            _ => None,
        }
    }

    /// The facet dimension holding this level's codes.
    pub fn facet(self) -> &'static str {
        match self {
            Level::Country => "country_code",
            Level::Admin1 => "admin1",
        }
    }
}

/// One area with its count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Area {
    /// ISO code or `CC.NN`.
    pub code: String,
    /// Its name in the gazetteer (the code when unknown).
    pub name: String,
    /// Records.
    pub count: u64,
    /// Where a marker goes: latitude.
    pub latitude: Option<f64>,
    /// Where a marker goes: longitude.
    pub longitude: Option<f64>,
}

/// Names and positions of facet codes.
pub fn areas(level: Level, counts: &[(String, u64)], gazetteer: &'static Gazetteer) -> Vec<Area> {
    counts
        .iter()
        .map(|(code, count)| {
            let (name, at) = match level {
                Level::Country => (
                    gazetteer::CountryCode::new(code)
                        .and_then(|c| gazetteer.country(c))
                        .map(|c| c.name.clone()),
                    seats(gazetteer).get(code.as_str()).copied(),
                ),
                Level::Admin1 => (
                    gazetteer.admin1(code).map(|a| a.name.clone()),
                    seats(gazetteer).get(code.as_str()).copied(),
                ),
            };
            Area {
                code: code.clone(),
                name: name.unwrap_or_else(|| code.clone()),
                count: *count,
                latitude: at.map(|(lat, _)| lat),
                longitude: at.map(|(_, lon)| lon),
            }
        })
        .collect()
}

/// The position of the most populous place of each country (by ISO code)
/// and each division (by `CC.NN`), found once.
fn seats(gazetteer: &'static Gazetteer) -> &'static HashMap<String, (f64, f64)> {
    static SEATS: OnceLock<HashMap<String, (f64, f64)>> = OnceLock::new();
    SEATS.get_or_init(|| {
        let mut best: HashMap<String, (u32, f64, f64)> = HashMap::new();
        let mut offer = |key: String, population: u32, lat: f64, lon: f64| {
            let slot = best.entry(key).or_insert((0, lat, lon));
            if population > slot.0 {
                *slot = (population, lat, lon);
            }
        };
        for place in gazetteer.places() {
            let country = place.country.as_str().to_string();
            if let Some(admin1) = &place.admin1_code {
                offer(
                    admin1.to_string(),
                    place.population,
                    place.latitude,
                    place.longitude,
                );
            }
            offer(country, place.population, place.latitude, place.longitude);
        }
        best.into_iter()
            .map(|(k, (_, lat, lon))| (k, (lat, lon)))
            .collect()
    })
}
