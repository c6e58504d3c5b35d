//! GeoNames places, first-level divisions (admin1) and countries, looked up by
//! name keys that survive transliteration (`Raqa` / `Raqqa` / `Ar Raqqah`).
//!
//! The gazetteer knows nothing about captions: it answers "which places could
//! this name be?" and leaves choosing among them to its caller.
//!
//! ```
//! use gazetteer::{Gazetteer, PlaceEntry};
//! let mut builder = Gazetteer::builder();
//! builder.country("SY", "Syria", 163843);
//! builder.admin1("SY.04", "Ar-Raqqah", None);
//! builder.place(PlaceEntry {
//!     id: 172955, name: "Ar Raqqah".into(), latitude: 35.95, longitude: 39.01,
//!     country: "SY".into(), admin1: Some("04".into()), population: 531952,
//!     alternate_names: vec!["Raqqa".into()],
//! });
//! let gazetteer = builder.build();
//! let found = gazetteer.places_named("Raqqa");
//! assert_eq!(found[0].place.id, 172955);
//! ```

mod key;

pub use key::{fold, translit_key};

use std::collections::HashMap;

/// A GeoNames feature id (`geonameid`).
pub type GeonameId = u32;

/// An ISO 3166-1 alpha-2 country code, upper case (`SY`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CountryCode([u8; 2]);

impl CountryCode {
    /// Parses a two-letter code (either case); `None` for anything else.
    pub fn new(code: &str) -> Option<CountryCode> {
        let bytes = code.as_bytes();
        if bytes.len() == 2 && bytes.iter().all(u8::is_ascii_alphabetic) {
            Some(CountryCode([bytes[0].to_ascii_uppercase(), bytes[1].to_ascii_uppercase()]))
        } else {
            None
        }
    }

    /// The code as text (`"SY"`).
    pub fn as_str(&self) -> &str {
        // Both bytes are ASCII letters by construction.
        std::str::from_utf8(&self.0).unwrap_or("??")
    }
}

impl std::fmt::Debug for CountryCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for CountryCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A populated place (city, town, village) from GeoNames.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// GeoNames id.
    pub id: GeonameId,
    /// The GeoNames main name (`Ar Raqqah`).
    pub name: String,
    /// WGS84 latitude.
    pub latitude: f64,
    /// WGS84 longitude.
    pub longitude: f64,
    /// Country the place lies in.
    pub country: CountryCode,
    /// Full admin1 code `CC.NN` (`SY.04`), when GeoNames gives one.
    pub admin1_code: Option<String>,
    /// Population as GeoNames states it (0 when unknown).
    pub population: u32,
}

/// A first-level administrative division (governorate, state, oblast).
#[derive(Debug, Clone, PartialEq)]
pub struct Admin1 {
    /// Full code `CC.NN` (`SY.13`).
    pub code: String,
    /// Name as GeoNames gives it (`Dimashq`).
    pub name: String,
    /// Country of the division.
    pub country: CountryCode,
    /// GeoNames id of the division, when known.
    pub id: Option<GeonameId>,
}

/// A country.
#[derive(Debug, Clone, PartialEq)]
pub struct Country {
    /// ISO code.
    pub code: CountryCode,
    /// English short name (`Syria`).
    pub name: String,
    /// GeoNames id of the country.
    pub id: GeonameId,
}

/// How a name met a place's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchKind {
    /// Equal after case and accent folding (`Suruc` = `Suruç`).
    Folded,
    /// Equal only after transliteration keys (`Haresta` = `Ḩarastā`).
    Transliterated,
}

/// One candidate place for a name.
#[derive(Debug, Clone, Copy)]
pub struct PlaceMatch<'g> {
    /// The place.
    pub place: &'g Place,
    /// How the name met it.
    pub kind: MatchKind,
}

/// Input for [`GazetteerBuilder::place`].
#[derive(Debug, Clone)]
pub struct PlaceEntry {
    /// GeoNames id.
    pub id: GeonameId,
    /// Main name.
    pub name: String,
    /// Latitude.
    pub latitude: f64,
    /// Longitude.
    pub longitude: f64,
    /// Two-letter country code.
    pub country: String,
    /// Admin1 code without the country prefix (`"04"`), as in GeoNames dumps.
    pub admin1: Option<String>,
    /// Population.
    pub population: u32,
    /// Alternate names.
    pub alternate_names: Vec<String>,
}

/// Errors from loading GeoNames files.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read.
    #[error("reading {path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A line of a dump file did not have the expected shape.
    #[error("{path}:{line}: {what}")]
    BadLine {
        /// The file.
        path: std::path::PathBuf,
        /// 1-based line number.
        line: usize,
        /// What was expected and found.
        what: String,
    },
    /// A required file is missing from the directory.
    #[error("{dir}: no {expected} (expected a GeoNames dump file)")]
    MissingFile {
        /// The directory searched.
        dir: std::path::PathBuf,
        /// The file name(s) looked for.
        expected: &'static str,
    },
}

/// The loaded gazetteer: places, admin1 divisions, countries and name indexes.
pub struct Gazetteer {
    places: Vec<Place>,
    admin1: Vec<Admin1>,
    countries: Vec<Country>,
    /// folded name -> place indexes
    by_folded: HashMap<String, Vec<u32>>,
    /// transliteration key -> place indexes
    by_key: HashMap<String, Vec<u32>>,
    admin1_by_code: HashMap<String, u32>,
    /// translit key of an admin1 name -> admin1 indexes
    admin1_by_key: HashMap<String, Vec<u32>>,
    country_by_code: HashMap<CountryCode, u32>,
    /// folded country name or alias -> country index
    country_by_name: HashMap<String, u32>,
    place_by_id: HashMap<GeonameId, u32>,
}

impl Gazetteer {
    /// An empty builder, for tests and for loaders.
    pub fn builder() -> GazetteerBuilder {
        GazetteerBuilder::default()
    }

    /// Candidate places for a name, best kind first, then by population.
    pub fn places_named(&self, name: &str) -> Vec<PlaceMatch<'_>> {
        let mut out: Vec<PlaceMatch<'_>> = Vec::new();
        if let Some(ids) = self.by_folded.get(&fold(name)) {
            out.extend(ids.iter().map(|&i| PlaceMatch { place: &self.places[i as usize], kind: MatchKind::Folded }));
        }
        if let Some(ids) = self.by_key.get(&translit_key(name)) {
            for &i in ids {
                let place = &self.places[i as usize];
                if !out.iter().any(|m| m.place.id == place.id) {
                    out.push(PlaceMatch { place, kind: MatchKind::Transliterated });
                }
            }
        }
        out.sort_by(|a, b| a.kind.cmp(&b.kind).then(b.place.population.cmp(&a.place.population)));
        out
    }

    /// The place with this GeoNames id.
    pub fn place(&self, id: GeonameId) -> Option<&Place> {
        self.place_by_id.get(&id).map(|&i| &self.places[i as usize])
    }

    /// Country by English name or common alias (`Syria`, `Türkiye`, `U.S.`).
    pub fn country_named(&self, name: &str) -> Option<&Country> {
        self.country_by_name.get(&fold(name)).map(|&i| &self.countries[i as usize])
    }

    /// Country by code.
    pub fn country(&self, code: CountryCode) -> Option<&Country> {
        self.country_by_code.get(&code).map(|&i| &self.countries[i as usize])
    }

    /// Admin1 divisions whose name matches (transliteration-robust), optionally
    /// limited to one country.
    pub fn admin1_named(&self, name: &str, country: Option<CountryCode>) -> Vec<&Admin1> {
        self.admin1_by_key
            .get(&translit_key(name))
            .into_iter()
            .flatten()
            .map(|&i| &self.admin1[i as usize])
            .filter(|a| country.is_none_or(|c| a.country == c))
            .collect()
    }

    /// Admin1 division by full code (`SY.13`).
    pub fn admin1(&self, code: &str) -> Option<&Admin1> {
        self.admin1_by_code.get(code).map(|&i| &self.admin1[i as usize])
    }

    /// Number of places.
    pub fn n_places(&self) -> usize {
        self.places.len()
    }
}

/// Builds a [`Gazetteer`] from entries; every loader goes through it.
#[derive(Default)]
pub struct GazetteerBuilder {
    places: Vec<PlaceEntry>,
    admin1: Vec<Admin1>,
    countries: Vec<(Country, Vec<String>)>,
}

impl GazetteerBuilder {
    /// Adds a country with its GeoNames id.
    pub fn country(&mut self, code: &str, name: &str, id: GeonameId) -> &mut Self {
        if let Some(code) = CountryCode::new(code) {
            self.countries.push((Country { code, name: name.to_string(), id }, Vec::new()));
        }
        self
    }

    /// Adds an admin1 division (`code` is `CC.NN`).
    pub fn admin1(&mut self, code: &str, name: &str, id: Option<GeonameId>) -> &mut Self {
        if let Some(country) = code.get(..2).and_then(CountryCode::new) {
            self.admin1.push(Admin1 { code: code.to_string(), name: name.to_string(), country, id });
        }
        self
    }

    /// Adds a place.
    pub fn place(&mut self, entry: PlaceEntry) -> &mut Self {
        self.places.push(entry);
        self
    }

    /// Builds the indexes.
    pub fn build(self) -> Gazetteer {
        let mut g = Gazetteer {
            places: Vec::with_capacity(self.places.len()),
            admin1: self.admin1,
            countries: Vec::new(),
            by_folded: HashMap::new(),
            by_key: HashMap::new(),
            admin1_by_code: HashMap::new(),
            admin1_by_key: HashMap::new(),
            country_by_code: HashMap::new(),
            country_by_name: HashMap::new(),
            place_by_id: HashMap::new(),
        };
        for entry in self.places {
            let Some(country) = CountryCode::new(&entry.country) else { continue };
            let idx = g.places.len() as u32;
            let mut names = entry.alternate_names;
            names.push(entry.name.clone());
            for name in &names {
                push_unique(g.by_folded.entry(fold(name)).or_default(), idx);
                push_unique(g.by_key.entry(translit_key(name)).or_default(), idx);
            }
            g.place_by_id.insert(entry.id, idx);
            g.places.push(Place {
                id: entry.id,
                name: entry.name,
                latitude: entry.latitude,
                longitude: entry.longitude,
                admin1_code: entry.admin1.map(|a| format!("{country}.{a}")),
                country,
                population: entry.population,
            });
        }
        for (i, a) in g.admin1.iter().enumerate() {
            g.admin1_by_code.insert(a.code.clone(), i as u32);
            push_unique(g.admin1_by_key.entry(translit_key(&a.name)).or_default(), i as u32);
        }
        for (i, (country, aliases)) in self.countries.into_iter().enumerate() {
            g.country_by_code.insert(country.code, i as u32);
            g.country_by_name.insert(fold(&country.name), i as u32);
            for alias in aliases {
                g.country_by_name.insert(fold(&alias), i as u32);
            }
            g.countries.push(country);
        }
        g
    }
}

fn push_unique(list: &mut Vec<u32>, idx: u32) {
    if !list.contains(&idx) {
        list.push(idx);
    }
}
