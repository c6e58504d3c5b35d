//! Building a [`Gazetteer`] from entries: the path every loader goes through.

use crate::index::NameIndex;
use crate::key::{self, fold};
use crate::{aliases, Admin1, Country, CountryCode, Gazetteer, GeonameId, Place, PlaceEntry};
use rustc_hash::FxHashMap;

/// Builds a [`Gazetteer`] from entries; every loader goes through it.
#[derive(Default)]
pub struct GazetteerBuilder {
    places: Vec<PlaceEntry>,
    admin1: Vec<Admin1>,
    admin1_aliases: Vec<(String, String)>,
    countries: Vec<Country>,
}

impl GazetteerBuilder {
    /// Adds a country with its GeoNames id. The first country given for a
    /// code wins.
    pub fn country(&mut self, code: &str, name: &str, id: GeonameId) -> &mut Self {
        if let Some(code) = CountryCode::new(code) {
            self.countries.push(Country {
                code,
                name: name.to_string(),
                id,
            });
        }
        self
    }

    /// Adds an admin1 division (`code` is `CC.NN`). The first division given
    /// for a code wins.
    pub fn admin1(&mut self, code: &str, name: &str, id: Option<GeonameId>) -> &mut Self {
        if let Some(country) = code.get(..2).and_then(CountryCode::new) {
            self.admin1.push(Admin1 {
                code: code.to_string(),
                name: name.to_string(),
                country,
                id,
            });
        }
        self
    }

    /// Adds another name under which the admin1 division `code` is found
    /// (`Rural Damascus` for `SY.08`). Ignored when no division has the code.
    pub fn admin1_alias(&mut self, code: &str, alias: &str) -> &mut Self {
        self.admin1_aliases
            .push((code.to_string(), alias.to_string()));
        self
    }

    /// Adds a place. Places with an invalid country code are skipped; of two
    /// places with one id, the first wins.
    pub fn place(&mut self, entry: PlaceEntry) -> &mut Self {
        self.places.push(entry);
        self
    }

    /// Builds the indexes.
    pub fn build(self) -> Gazetteer {
        let mut entries: Vec<PlaceEntry> = self
            .places
            .into_iter()
            .filter(|e| CountryCode::new(&e.country).is_some())
            .collect();
        entries.sort_by_key(|e| e.id);
        entries.dedup_by_key(|e| e.id);

        let mut places = Vec::with_capacity(entries.len());
        let mut pairs: Vec<(String, u32)> = Vec::new();
        for entry in entries {
            let Some(country) = CountryCode::new(&entry.country) else {
                continue;
            };
            let idx = places.len() as u32;
            let main = fold(&entry.name);
            if !main.is_empty() {
                pairs.push((main, idx));
            }
            for alternate in &entry.alternate_names {
                if let Some(folded) = indexable_alternate(alternate) {
                    pairs.push((folded, idx));
                }
            }
            places.push(Place {
                id: entry.id,
                name: entry.name.into(),
                latitude: entry.latitude,
                longitude: entry.longitude,
                admin1_code: entry
                    .admin1
                    .filter(|a| !a.is_empty())
                    .map(|a| format!("{country}.{a}").into()),
                country,
                population: entry.population,
            });
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut names: Vec<(&str, Vec<u32>)> = Vec::new();
        for (name, place) in &pairs {
            match names.last_mut() {
                Some((last, places)) if last == name => places.push(*place),
                _ => names.push((name, vec![*place])),
            }
        }
        let names = NameIndex::build(names.iter().map(|(name, places)| (*name, &places[..])));

        let mut admin1 = self.admin1;
        admin1.sort_by(|a, b| a.code.cmp(&b.code));
        admin1.dedup_by(|b, a| a.code == b.code);
        let mut admin1_aliases = vec![Vec::new(); admin1.len()];
        for (code, alias) in self.admin1_aliases {
            if let Ok(i) = admin1.binary_search_by(|a| a.code.cmp(&code)) {
                if !admin1_aliases[i].contains(&alias) {
                    admin1_aliases[i].push(alias);
                }
            }
        }
        let mut countries = self.countries;
        countries.sort_by_key(|c| c.code);
        countries.dedup_by_key(|c| c.code);

        assemble(Parts {
            places,
            admin1,
            admin1_aliases,
            countries,
            names,
        })
    }
}

/// The folded form of an alternate name worth indexing, or `None` for names
/// captions never contain: other scripts, no capital letter at all
/// (GeoNames' machine romanizations like `alrqt`), or all-capital codes of up
/// to four letters (`DEZ`, `IEV`).
pub(crate) fn indexable_alternate(name: &str) -> Option<String> {
    if !name.chars().any(char::is_uppercase) {
        return None;
    }
    if name.len() <= 4 && name.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let folded = fold(name);
    if folded.is_empty() || !folded.chars().all(|c| c.is_ascii() || !c.is_alphabetic()) {
        return None;
    }
    Some(folded)
}

/// Everything a [`Gazetteer`] is made of before its lookup tables.
pub(crate) struct Parts {
    /// Sorted by id, distinct ids.
    pub(crate) places: Vec<Place>,
    /// Sorted by code, distinct codes.
    pub(crate) admin1: Vec<Admin1>,
    /// Same length as `admin1`.
    pub(crate) admin1_aliases: Vec<Vec<String>>,
    /// Sorted by code, distinct codes.
    pub(crate) countries: Vec<Country>,
    /// The folded names of the places and their key tables.
    pub(crate) names: NameIndex,
}

/// Builds the admin1 and country tables over the parts; both the builder and
/// the compact decoder end here, so they can never index differently. (The
/// name index comes built: the decoder reads it as the builder built it.)
pub(crate) fn assemble(parts: Parts) -> Gazetteer {
    let Parts {
        places,
        admin1,
        mut admin1_aliases,
        countries,
        names,
    } = parts;
    admin1_aliases.resize(admin1.len(), Vec::new());

    let mut admin1_by_base: FxHashMap<String, Vec<u32>> = FxHashMap::default();
    let mut admin1_by_strict: FxHashMap<Vec<u8>, Vec<u32>> = FxHashMap::default();
    let mut admin1_by_skeleton: FxHashMap<Vec<u8>, Vec<(u32, Vec<u8>)>> = FxHashMap::default();
    for (i, division) in admin1.iter().enumerate() {
        let i = i as u32;
        let static_aliases = aliases::admin1_aliases(&division.code)
            .iter()
            .map(|s| s.to_string());
        let all_names = std::iter::once(division.name.clone())
            .chain(admin1_aliases[i as usize].iter().cloned())
            .chain(static_aliases);
        for name in all_names {
            let base = key::admin1_base(&name);
            if base.is_empty() {
                continue;
            }
            let mut strict = Vec::new();
            key::strict_from_folded(&base, &mut strict);
            let mut skeleton = Vec::new();
            key::skeleton_from_strict(&strict, &mut skeleton);
            push_unique(admin1_by_base.entry(base).or_default(), i);
            push_unique(admin1_by_strict.entry(strict.clone()).or_default(), i);
            let list = admin1_by_skeleton.entry(skeleton).or_default();
            if !list.iter().any(|(j, s)| *j == i && *s == strict) {
                list.push((i, strict));
            }
        }
    }

    let mut country_by_name: FxHashMap<String, u32> = FxHashMap::default();
    for (i, country) in countries.iter().enumerate() {
        country_by_name.insert(key::country_key(&country.name), i as u32);
    }
    for (i, country) in countries.iter().enumerate() {
        for alias in aliases::country_aliases(country.code) {
            country_by_name
                .entry(key::country_key(alias))
                .or_insert(i as u32);
        }
    }

    let admin1_by_code = admin1
        .iter()
        .enumerate()
        .map(|(i, division)| (division.code.clone(), i as u32))
        .collect();
    Gazetteer {
        names,
        places,
        admin1,
        admin1_aliases,
        countries,
        admin1_by_code,
        admin1_by_base,
        admin1_by_strict,
        admin1_by_skeleton,
        country_by_name,
        capitals: std::sync::OnceLock::new(),
        admin1_populations: std::sync::OnceLock::new(),
    }
}

fn push_unique(list: &mut Vec<u32>, idx: u32) {
    if !list.contains(&idx) {
        list.push(idx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternate_names_filter() {
        assert_eq!(
            indexable_alternate("Ar Raqqah").as_deref(),
            Some("ar raqqah")
        );
        assert_eq!(
            indexable_alternate("al-Maʿarra").as_deref(),
            Some("al maarra")
        );
        assert_eq!(indexable_alternate("alrqt"), None);
        assert_eq!(indexable_alternate("DEZ"), None);
        assert_eq!(indexable_alternate("Ракка"), None);
        assert_eq!(indexable_alternate("ڕەqqە"), None);
        assert_eq!(
            indexable_alternate("KYIV CITY").as_deref(),
            Some("kyiv city")
        );
    }

    #[test]
    fn duplicate_ids_and_bad_countries_are_dropped() {
        let mut builder = Gazetteer::builder();
        for (id, country) in [(2, "SY"), (1, "SY"), (2, "LB"), (3, "S")] {
            builder.place(PlaceEntry {
                id,
                name: format!("Place {id}"),
                latitude: 0.0,
                longitude: 0.0,
                country: country.into(),
                admin1: None,
                population: 0,
                alternate_names: vec![],
            });
        }
        let g = builder.build();
        assert_eq!(
            g.places().iter().map(|p| p.id).collect::<Vec<_>>(),
            vec![1, 2]
        );
        assert_eq!(g.place(2).map(|p| p.country.as_str()), Some("SY"));
        assert!(g.place(3).is_none());
    }
}
