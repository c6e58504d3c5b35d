//! English names that GeoNames' own names miss: country aliases (`Turkey`,
//! `U.S.`, `Britain`, `Gaza Strip`) and first-level divisions as English
//! captions name them (`Rural Damascus`, `Nineveh`, `Bekaa`).
//!
//! Tables are applied to whatever data is loaded, so they hold only names a
//! reader would agree on; ambiguous ones (`Korea`, `Guinea`) stay out.

use crate::CountryCode;

/// Country code → names captions use besides the English short name.
const COUNTRY_ALIASES: &[(&str, &[&str])] = &[
    ("AE", &["UAE", "U.A.E.", "Emirates", "United Arab Emirates"]),
    (
        "BA",
        &["Bosnia", "Bosnia-Herzegovina", "Bosnia and Herzegovina"],
    ),
    ("BN", &["Brunei Darussalam"]),
    ("BO", &["Bolivia"]),
    ("BS", &["The Bahamas"]),
    (
        "CD",
        &[
            "Congo",
            "DRC",
            "D.R.C.",
            "DR Congo",
            "Democratic Republic of Congo",
            "Congo-Kinshasa",
            "Zaire",
        ],
    ),
    (
        "CG",
        &["Republic of Congo", "Congo Republic", "Congo-Brazzaville"],
    ),
    ("CI", &["Ivory Coast", "Cote d'Ivoire", "Côte d'Ivoire"]),
    (
        "CN",
        &[
            "China",
            "People's Republic of China",
            "PRC",
            "Mainland China",
        ],
    ),
    ("CV", &["Cape Verde"]),
    ("CZ", &["Czech Republic", "Czechia"]),
    ("FM", &["Federated States of Micronesia"]),
    (
        "GB",
        &[
            "UK",
            "U.K.",
            "Britain",
            "Great Britain",
            "United Kingdom",
            "England",
            "Scotland",
            "Wales",
            "Northern Ireland",
        ],
    ),
    ("GM", &["The Gambia"]),
    ("IR", &["Iran", "Islamic Republic of Iran"]),
    (
        "KP",
        &[
            "North Korea",
            "N. Korea",
            "DPRK",
            "Democratic People's Republic of Korea",
        ],
    ),
    (
        "KR",
        &["South Korea", "S. Korea", "Republic of Korea", "ROK"],
    ),
    ("LA", &["Laos", "Lao PDR"]),
    ("LY", &["Libya"]),
    ("MD", &["Moldova", "Republic of Moldova"]),
    ("MK", &["Macedonia", "North Macedonia"]),
    ("MM", &["Burma", "Myanmar"]),
    ("MO", &["Macau", "Macao"]),
    ("NL", &["Holland", "Netherlands", "The Netherlands"]),
    (
        "PS",
        &[
            "Palestine",
            "State of Palestine",
            "Palestinian Territories",
            "Palestinian Territory",
            "Occupied Palestinian Territories",
            "Occupied Palestinian Territory",
            "Gaza Strip",
            "Gaza",
            "West Bank",
            "Occupied West Bank",
        ],
    ),
    ("RU", &["Russia", "Russian Federation"]),
    ("SY", &["Syria", "Syrian Arab Republic"]),
    ("SZ", &["Swaziland", "Eswatini"]),
    ("TL", &["East Timor", "Timor-Leste"]),
    ("TR", &["Turkey", "Türkiye", "Turkiye"]),
    ("TW", &["Taiwan", "Republic of China"]),
    ("TZ", &["Tanzania", "United Republic of Tanzania"]),
    (
        "US",
        &[
            "US",
            "U.S.",
            "USA",
            "U.S.A.",
            "United States",
            "United States of America",
            "America",
        ],
    ),
    ("VA", &["Vatican", "Vatican City", "Holy See"]),
    ("VE", &["Venezuela"]),
    ("VN", &["Vietnam", "Viet Nam"]),
];

/// Aliases of a country (not counting its own name).
pub(crate) fn country_aliases(code: CountryCode) -> &'static [&'static str] {
    COUNTRY_ALIASES
        .iter()
        .find(|(c, _)| *c == code.as_str())
        .map_or(&[], |(_, names)| names)
}

/// Admin1 code → English names captions use that neither GeoNames' name nor
/// its transliteration keys reach. Only for the regions news photos come from
/// most; generic words (`Governorate`) need no entry, keys drop them.
const ADMIN1_ALIASES: &[(&str, &[&str])] = &[
    ("SY.01", &["Hasakah", "Hasaka", "Hassakeh", "Al-Hasakah"]),
    ("SY.02", &["Latakia", "Lattakia"]),
    ("SY.04", &["Raqqa"]),
    ("SY.05", &["Sweida", "Suwayda"]),
    ("SY.06", &["Deraa", "Daraa", "Dara'a"]),
    ("SY.07", &["Deir el-Zour", "Deir al-Zor"]),
    (
        "SY.08",
        &[
            "Rural Damascus",
            "Damascus Countryside",
            "Reef Damascus",
            "Rif Damascus",
            "Damascus suburbs",
        ],
    ),
    ("SY.09", &["Aleppo", "Halab"]),
    ("SY.10", &["Hama", "Hamah"]),
    ("SY.11", &["Homs", "Hims"]),
    ("SY.12", &["Idlib", "Idleb"]),
    ("SY.13", &["Damascus"]),
    ("SY.14", &["Tartus", "Tartous"]),
    ("IQ.01", &["Anbar", "Al Anbar"]),
    ("IQ.02", &["Basra", "Basrah"]),
    ("IQ.05", &["Sulaimaniyah", "Sulaymaniyah", "Sulaimani"]),
    ("IQ.07", &["Baghdad"]),
    ("IQ.08", &["Duhok", "Dohuk", "Dahuk"]),
    ("IQ.11", &["Erbil", "Arbil", "Irbil"]),
    ("IQ.12", &["Karbala"]),
    ("IQ.13", &["Kirkuk"]),
    ("IQ.15", &["Nineveh", "Ninawa", "Ninewa"]),
    ("IQ.17", &["Najaf"]),
    ("IQ.18", &["Salahuddin", "Salah al-Din", "Saladin"]),
    ("LB.04", &["Beirut"]),
    ("LB.05", &["Mount Lebanon"]),
    ("LB.06", &["South Lebanon", "South Governorate"]),
    ("LB.07", &["Nabatieh"]),
    ("LB.08", &["Bekaa", "Beqaa"]),
    ("LB.09", &["North Lebanon", "North Governorate"]),
    ("LB.10", &["Akkar"]),
    ("LB.11", &["Baalbek-Hermel", "Baalbek"]),
    ("PS.GZ", &["Gaza Strip", "Gaza"]),
    ("PS.WE", &["West Bank"]),
    ("UA.23", &["Vinnytsia", "Vinnitsa"]),
];

/// Extra names of an admin1 division, by full code.
pub(crate) fn admin1_aliases(code: &str) -> &'static [&'static str] {
    ADMIN1_ALIASES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(&[], |(_, names)| names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_codes_valid() {
        for pair in COUNTRY_ALIASES.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} before {}", pair[0].0, pair[1].0);
        }
        for pair in ADMIN1_ALIASES.windows(2) {
            assert!(pair[0].0 != pair[1].0, "{} twice", pair[0].0);
        }
        for (code, _) in COUNTRY_ALIASES {
            assert!(CountryCode::new(code).is_some(), "{code}");
        }
        for (code, _) in ADMIN1_ALIASES {
            assert!(
                code.get(..2).and_then(CountryCode::new).is_some()
                    && code.as_bytes().get(2) == Some(&b'.'),
                "{code}"
            );
        }
    }
}
