//! Fields an input states explicitly, beside the caption text: IPTC-IIM and
//! XMP in a JPEG, JSON-LD on a web page. [`apply_stated`] merges them into
//! the record parsed from the caption.
//!
//! The rule of the issue: a field the file states wins over what the text
//! implies, and a disagreement between them is reported in
//! `record.conflicts`. Decisions where that leaves room:
//! - Agreement is judged on meaning, not spelling: names fold case and
//!   accents; a stated city agrees with the parsed one when both resolve to
//!   the same GeoNames place (`Raqqa` stated, `Ar Raqqah` parsed), and the
//!   record then keeps the gazetteer's name so that facets join.
//! - A stated `Source` that is a news agency (IPTC photo desks often put
//!   `Reuters` there) is an agency in the record, not a `source`: RECORD.md
//!   never lets an agency be a source.
//! - A stated city that is another place than the parsed one replaces the
//!   whole location: the parsed sublocation, province and coordinates belong
//!   to the other place. The location's `text` and `span` (evidence in the
//!   caption) are then dropped.
//! - Persons and organisations stated in the file are not merged: the record
//!   keeps what the caption names, with spans as evidence.
//! - **Nothing stated is lost.** The record's own fields hold normalised
//!   values (creators title-cased, agencies canonical, a Source that is an
//!   agency among the agencies, places under their gazetteer names), and
//!   `record.stated` keeps every stated field exactly as the input wrote
//!   it. So the stated Credit Line lives in `record.stated.credit_line`
//!   (its creators and agencies are read into `credit`), while
//!   `credit.raw` stays the credit as the caption text writes it, whose
//!   `span` points into `text`; `credit.raw` is the stated line only when
//!   the caption has no credit of its own.
//! - **A stated place is confirmed or left as stated.** A stated city is
//!   the gazetteer's place only when one of its namesakes lies inside the
//!   stated country and the stated province (a name, an admin1 code such
//!   as the US postal `CA`, or a Canadian or Australian postal
//!   abbreviation); otherwise it stays as written, unresolved
//!   (`location_unresolved`), and is never moved to a namesake elsewhere.
//!   A parsed place outside the stated country or province is dropped the
//!   same way.

use gazetteer::{Admin1, CountryCode, Gazetteer, Place};
use serde::{Deserialize, Serialize};

use crate::record::{CaptionRecord, Conflict, Flag, Location, PartialDate};

/// Distance beyond which stated coordinates and the parsed place disagree.
const COORDINATES_AGREE_KM: f64 = 50.0;

/// Fields an input states explicitly, as written there. Empty when absent.
/// Kept whole in [`CaptionRecord::stated`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stated {
    /// Creators (IPTC By-line, XMP `dc:creator`, JSON-LD `creator`).
    pub creators: Vec<String>,
    /// Credit line (IPTC Credit, JSON-LD `creditText`).
    pub credit_line: Option<String>,
    /// Source (IPTC Source).
    pub source: Option<String>,
    /// Date created, ISO 8601 (`2016-05-21`, `2016-05`, `2016`).
    pub date_created: Option<String>,
    /// Sublocation.
    pub sublocation: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Province or state.
    pub province: Option<String>,
    /// Country name.
    pub country: Option<String>,
    /// Country code, ISO 3166-1 alpha-2 (alpha-3 is read too).
    pub country_code: Option<String>,
    /// Coordinates of the location shown (latitude, longitude).
    pub coordinates: Option<(f64, f64)>,
}

impl Stated {
    /// Whether nothing is stated.
    pub fn is_empty(&self) -> bool {
        *self == Stated::default()
    }
}

/// Merges stated fields into a record parsed from the caption: stated values
/// win, disagreements go to `record.conflicts`, and the flags that said a
/// field was missing are lifted when the file fills it.
pub fn apply_stated(record: &mut CaptionRecord, stated: &Stated, gazetteer: &Gazetteer) {
    let mut merge = Merge {
        record,
        gazetteer,
        conflicts: Vec::new(),
    };
    merge.credit(stated);
    merge.date(stated);
    merge.location(stated);
    let Merge {
        record, conflicts, ..
    } = merge;
    record.conflicts.extend(conflicts);
    if !stated.is_empty() {
        record.stated = Some(stated.clone());
    }
    if record.credit.raw.is_some() || !record.credit.creators.is_empty() {
        record.flags.retain(|f| *f != Flag::NoCredit);
    }
    if record.date_created.is_some() {
        record.flags.retain(|f| *f != Flag::NoDate);
    }
}

struct Merge<'r, 'g> {
    record: &'r mut CaptionRecord,
    gazetteer: &'g Gazetteer,
    conflicts: Vec<Conflict>,
}

impl Merge<'_, '_> {
    fn conflict(&mut self, field: &str, stated: impl Into<String>, parsed: impl Into<String>) {
        self.conflicts.push(Conflict {
            field: field.to_string(),
            stated: stated.into(),
            parsed: parsed.into(),
        });
    }

    fn credit(&mut self, stated: &Stated) {
        let line = stated
            .credit_line
            .as_deref()
            .filter(|l| !l.trim().is_empty());
        let from_line = line.and_then(crate::credit::parse_stated);
        if self.record.credit.raw.is_none() {
            if let Some(line) = line {
                self.record.credit.raw = Some(line.trim().to_string());
            }
        }

        let creators: Vec<String> = stated
            .creators
            .iter()
            .map(|c| crate::credit::title_case(c.trim()))
            .filter(|c| !c.is_empty())
            .collect();
        if !creators.is_empty() {
            let parsed = &self.record.credit.creators;
            if !parsed.is_empty() && !same_names(parsed, &creators) {
                let parsed = parsed.join("; ");
                self.conflict("credit.creators", creators.join("; "), parsed);
            }
            self.record.credit.creators = creators;
        } else if self.record.credit.creators.is_empty() {
            if let Some(credit) = &from_line {
                self.record.credit.creators = credit.creators.clone();
            }
        }

        // Agencies: from the credit line, and a Source that is an agency.
        let mut agencies = from_line
            .as_ref()
            .map(|c| c.agencies.clone())
            .unwrap_or_default();
        let mut source = from_line.as_ref().and_then(|c| c.source.clone());
        if let Some(stated_source) = stated.source.as_deref().map(str::trim) {
            match crate::credit::parse_stated(stated_source) {
                Some(read) if read.source.is_none() && !read.agencies.is_empty() => {
                    for agency in read.agencies {
                        if !agencies.contains(&agency) {
                            agencies.push(agency);
                        }
                    }
                }
                _ if !stated_source.is_empty() => source = Some(stated_source.to_string()),
                _ => {}
            }
        }
        if !agencies.is_empty() {
            let parsed = &self.record.credit.agencies;
            if !parsed.is_empty() && !same_names(parsed, &agencies) {
                let parsed = parsed.join("; ");
                self.conflict("credit.agencies", agencies.join("; "), parsed);
            }
            self.record.credit.agencies = agencies;
        }
        if let Some(source) = source {
            if let Some(parsed) = &self.record.credit.source {
                if !same_name(parsed, &source) {
                    let parsed = parsed.clone();
                    self.conflict("credit.source", source.clone(), parsed);
                }
            }
            self.record.credit.source = Some(source);
        }
    }

    fn date(&mut self, stated: &Stated) {
        let Some(text) = stated.date_created.as_deref() else {
            return;
        };
        let Ok(date) = text.parse::<PartialDate>() else {
            // An unreadable stated date cannot win; say so beside the record.
            let parsed = self
                .record
                .date_created
                .map(|d| d.to_string())
                .unwrap_or_default();
            self.conflict("date_created", text.trim(), parsed);
            return;
        };
        if let Some(parsed) = self.record.date_created {
            if parsed != date {
                self.conflict("date_created", date.to_string(), parsed.to_string());
            }
        }
        self.record.date_created = Some(date);
    }

    fn location(&mut self, stated: &Stated) {
        let country = self.stated_country(stated);
        let (city, sublocation, province) = (
            non_empty(&stated.city),
            non_empty(&stated.sublocation),
            non_empty(&stated.province),
        );
        if country.is_none()
            && non_empty(&stated.country).is_none()
            && city.is_none()
            && sublocation.is_none()
            && province.is_none()
            && stated.coordinates.is_none()
        {
            return;
        }
        let mut location = self.record.location.take().unwrap_or_default();

        if let Some(code) = country {
            if let Some(parsed) = location.country_code.as_deref() {
                if parsed != code.as_str() {
                    let parsed = parsed.to_string();
                    self.conflict("location.country_code", code.as_str(), parsed);
                    // The parsed place lies in another country.
                    location = Location::default();
                }
            }
            location.country_code = Some(code.as_str().to_string());
            location.country = self
                .gazetteer
                .country(code)
                .map(|c| c.name.clone())
                .or_else(|| non_empty(&stated.country).map(str::to_string));
        } else if let Some(name) = non_empty(&stated.country) {
            // A country the gazetteer does not know stays as written.
            location.country = Some(name.to_string());
        }
        let country =
            country.or_else(|| location.country_code.as_deref().and_then(CountryCode::new));

        let admin1 = province.and_then(|name| admin1_stated(self.gazetteer, name, country));
        if let Some(province) = province {
            let (code, name) = admin1.map_or((None, province.to_string()), |a| {
                (Some(a.code.clone()), a.name.clone())
            });
            let agrees = match (&code, &location.province_code) {
                (Some(code), Some(parsed)) => code == parsed,
                _ => location
                    .province
                    .as_deref()
                    .is_none_or(|p| same_name(p, province)),
            };
            if !agrees {
                let parsed = location.province.clone().unwrap_or_default();
                self.conflict("location.province", name.clone(), parsed);
                // The parsed city and coordinates belong to another province.
                clear_place(&mut location);
                location.city = None;
            }
            location.province = Some(name);
            location.province_code = code;
        }

        if let Some(city) = city {
            let place = resolve_city(self.gazetteer, city, country, province, admin1);
            let agrees = match (place, location.geonames_id) {
                (Some(place), Some(id)) => place.id == id,
                _ => location.city.as_deref().is_none_or(|c| same_name(c, city)),
            };
            if !agrees {
                let parsed = location.city.clone().unwrap_or_default();
                self.conflict("location.city", city, parsed);
                clear_place(&mut location);
                if province.is_none() {
                    // The parsed province was the parsed city's.
                    location.province = None;
                    location.province_code = None;
                }
            }
            match place {
                Some(place) if !agrees || location.geonames_id.is_none() => {
                    fill_from_place(self.gazetteer, &mut location, place)
                }
                Some(_) => {}
                None => {
                    // Not confirmed inside the stated country and province:
                    // the city as stated, with no namesake's id or coordinates.
                    clear_place(&mut location);
                    location.city = Some(city.to_string());
                }
            }
        }

        if let Some(sublocation) = sublocation {
            if let Some(parsed) = location.sublocation.as_deref() {
                if !same_name(parsed, sublocation) {
                    let parsed = parsed.to_string();
                    self.conflict("location.sublocation", sublocation, parsed);
                }
            }
            location.sublocation = Some(sublocation.to_string());
        }

        if let Some((latitude, longitude)) = stated.coordinates {
            if let (Some(lat), Some(lon)) = (location.latitude, location.longitude) {
                if gazetteer::distance_km((lat, lon), (latitude, longitude)) > COORDINATES_AGREE_KM
                {
                    self.conflict(
                        "location.coordinates",
                        format!("{latitude}, {longitude}"),
                        format!("{lat}, {lon}"),
                    );
                }
            }
            location.latitude = Some(latitude);
            location.longitude = Some(longitude);
        }

        // RECORD.md: a place finer than the province with no GeoNames id.
        let flags = &mut self.record.flags;
        flags.retain(|f| *f != Flag::LocationUnresolved);
        if location.geonames_id.is_none()
            && (location.city.is_some() || location.sublocation.is_some())
        {
            flags.push(Flag::LocationUnresolved);
            flags.sort_unstable();
        }
        self.record.location = Some(location);
    }

    /// The stated country as a code: the code when given (alpha-2 or
    /// alpha-3), else the country name.
    fn stated_country(&self, stated: &Stated) -> Option<CountryCode> {
        let by_code = non_empty(&stated.country_code).and_then(|code| {
            let code = code.to_ascii_uppercase();
            match code.len() {
                2 => CountryCode::new(&code),
                _ => self.gazetteer.country_named(&code).map(|c| c.code),
            }
        });
        by_code.or_else(|| {
            non_empty(&stated.country)
                .and_then(|name| self.gazetteer.country_named(name))
                .map(|c| c.code)
        })
    }
}

/// The place a stated city name means: the most populous of its
/// namesakes inside the stated country and the stated province. A
/// province the gazetteer cannot name (`admin1` is `None`) is matched
/// against each namesake's own division name; `None` when no namesake
/// lies inside both, so a stated place never becomes one elsewhere.
fn resolve_city<'g>(
    gazetteer: &'g Gazetteer,
    city: &str,
    country: Option<CountryCode>,
    province: Option<&str>,
    admin1: Option<&Admin1>,
) -> Option<&'g Place> {
    let in_province = |place: &Place| match (province, admin1) {
        (None, _) => true,
        (Some(_), Some(admin1)) => place.admin1_code.as_deref() == Some(admin1.code.as_str()),
        (Some(name), None) => place
            .admin1_code
            .as_deref()
            .and_then(|code| gazetteer.admin1(code))
            .is_some_and(|a| same_name(&a.name, name)),
    };
    gazetteer
        .places_named(city)
        .into_iter()
        .filter(|m| country.is_none_or(|c| m.place.country == c))
        .filter(|m| in_province(m.place))
        .min_by_key(|m| (m.kind, std::cmp::Reverse(m.place.population), m.place.id))
        .map(|m| m.place)
}

/// Canadian and Australian postal abbreviations of provinces and states,
/// whose GeoNames admin1 codes are numbers (US codes are the postal
/// abbreviations themselves, so they need no table).
const POSTAL_ADMIN1: [(&str, &str, &str); 21] = [
    ("CA", "AB", "CA.01"),
    ("CA", "BC", "CA.02"),
    ("CA", "MB", "CA.03"),
    ("CA", "NB", "CA.04"),
    ("CA", "NL", "CA.05"),
    ("CA", "NS", "CA.07"),
    ("CA", "ON", "CA.08"),
    ("CA", "PE", "CA.09"),
    ("CA", "QC", "CA.10"),
    ("CA", "SK", "CA.11"),
    ("CA", "YT", "CA.12"),
    ("CA", "NT", "CA.13"),
    ("CA", "NU", "CA.14"),
    ("AU", "ACT", "AU.01"),
    ("AU", "NSW", "AU.02"),
    ("AU", "NT", "AU.03"),
    ("AU", "QLD", "AU.04"),
    ("AU", "SA", "AU.05"),
    ("AU", "TAS", "AU.06"),
    ("AU", "VIC", "AU.07"),
    ("AU", "WA", "AU.08"),
];

/// The first-level division a stated province names, in the stated
/// country: its admin1 code written alone (`CA` in the US is `US.CA`), a
/// postal abbreviation, or its name.
fn admin1_stated<'g>(
    gazetteer: &'g Gazetteer,
    province: &str,
    country: Option<CountryCode>,
) -> Option<&'g Admin1> {
    let by_code = country.and_then(|country| {
        let code = province.trim_end_matches('.').to_ascii_uppercase();
        if code.is_empty() || code.len() > 3 || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        let postal = POSTAL_ADMIN1
            .iter()
            .find(|(c, abbr, _)| *c == country.as_str() && *abbr == code)
            .map(|(_, _, admin1)| (*admin1).to_string());
        let code = postal.unwrap_or_else(|| format!("{}.{code}", country.as_str()));
        gazetteer.admin1(&code)
    });
    // The name as the gazetteer writes it before a looser match (`Chernihiv`
    // is not `Chernivtsi`).
    let named = gazetteer.admin1_named(province, country);
    by_code
        .or_else(|| named.iter().find(|a| same_name(&a.name, province)).copied())
        .or_else(|| named.first().copied())
}

/// Drops what pins a location to one gazetteer place: its id, coordinates
/// and the evidence span of a caption phrase that named it.
fn clear_place(location: &mut Location) {
    location.sublocation = None;
    location.text = None;
    location.span = None;
    location.geonames_id = None;
    location.latitude = None;
    location.longitude = None;
}

fn fill_from_place(gazetteer: &Gazetteer, location: &mut Location, place: &Place) {
    location.city = Some(place.name.to_string());
    location.geonames_id = Some(place.id);
    location.latitude = Some(place.latitude);
    location.longitude = Some(place.longitude);
    location.country_code = Some(place.country.as_str().to_string());
    location.country = gazetteer.country(place.country).map(|c| c.name.clone());
    if let Some(admin1) = place
        .admin1_code
        .as_deref()
        .and_then(|code| gazetteer.admin1(code))
    {
        location.province = Some(admin1.name.clone());
        location.province_code = Some(admin1.code.clone());
    }
}

fn non_empty(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn same_name(a: &str, b: &str) -> bool {
    gazetteer::fold(a) == gazetteer::fold(b)
}

/// Same names in any order, folded.
fn same_names(a: &[String], b: &[String]) -> bool {
    let fold_all = |names: &[String]| {
        let mut folded: Vec<String> = names.iter().map(|n| gazetteer::fold(n)).collect();
        folded.sort();
        folded.dedup();
        folded
    };
    fold_all(a) == fold_all(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gazetteer() -> &'static Gazetteer {
        Gazetteer::embedded()
    }

    fn parsed(caption: &str) -> CaptionRecord {
        crate::parse(caption, gazetteer())
    }

    fn stated() -> Stated {
        Stated::default()
    }

    #[test]
    fn nothing_stated_changes_nothing() {
        let caption = "A man walks past a market in Aleppo, Syria March 3, 2016. REUTERS/Jane Roe";
        let mut record = parsed(caption);
        apply_stated(&mut record, &stated(), gazetteer());
        assert_eq!(record, parsed(caption));
    }

    #[test]
    fn stated_fields_fill_a_bare_caption() {
        let mut record = parsed("Children play football in a street.");
        assert!(record.flags.contains(&Flag::NoCredit));
        let stated = Stated {
            creators: vec!["JANE ROE".into()],
            credit_line: Some("AFP/Getty Images".into()),
            date_created: Some("2016-03-03T10:15:00+02:00".into()),
            city: Some("Raqqa".into()),
            country_code: Some("SY".into()),
            ..stated()
        };
        apply_stated(&mut record, &stated, gazetteer());
        assert_eq!(record.credit.creators, ["Jane Roe"]);
        assert_eq!(record.credit.agencies, ["AFP", "Getty Images"]);
        assert_eq!(
            record.date_created.map(|d| d.to_string()).as_deref(),
            Some("2016-03-03")
        );
        let location = record.location.as_ref().expect("location");
        assert_eq!(location.city.as_deref(), Some("Ar Raqqah"));
        assert_eq!(location.country.as_deref(), Some("Syria"));
        assert!(location
            .province_code
            .as_deref()
            .is_some_and(|c| c.starts_with("SY.")));
        assert!(record.conflicts.is_empty(), "{:?}", record.conflicts);
        assert!(!record.flags.contains(&Flag::NoCredit));
        assert!(!record.flags.contains(&Flag::NoDate));
    }

    #[test]
    fn agreement_is_on_meaning_not_spelling() {
        let mut record = parsed("Smoke rises over Raqa, Syria June 5, 2017. REUTERS/Jane Roe");
        let stated = Stated {
            creators: vec!["jane roe".into()],
            city: Some("Ar Raqqah".into()),
            country: Some("Syria".into()),
            source: Some("Reuters".into()),
            date_created: Some("2017-06-05".into()),
            ..stated()
        };
        apply_stated(&mut record, &stated, gazetteer());
        assert!(record.conflicts.is_empty(), "{:?}", record.conflicts);
        assert_eq!(record.credit.source, None, "an agency is never a source");
        assert_eq!(record.credit.agencies, ["Reuters"]);
        let location = record.location.expect("location");
        assert!(
            location.span.is_some(),
            "evidence kept when the places agree"
        );
    }

    #[test]
    fn disagreements_are_reported_and_the_file_wins() {
        let mut record = parsed(
            "A boy stands in Saadallah al-Jabiri Square in Aleppo, Syria March 3, 2016. REUTERS/Jane Roe",
        );
        let stated = Stated {
            creators: vec!["John Doe".into()],
            date_created: Some("2016-03-04".into()),
            city: Some("Homs".into()),
            ..stated()
        };
        apply_stated(&mut record, &stated, gazetteer());
        let fields: Vec<&str> = record.conflicts.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(fields, ["credit.creators", "date_created", "location.city"]);
        assert_eq!(record.conflicts[2].stated, "Homs");
        assert_eq!(record.conflicts[2].parsed, "Aleppo");
        assert_eq!(record.credit.creators, ["John Doe"]);
        assert_eq!(
            record.date_created.map(|d| d.to_string()).as_deref(),
            Some("2016-03-04")
        );
        let location = record.location.expect("location");
        assert_eq!(location.city.as_deref(), Some("Homs"));
        assert_eq!(location.country_code.as_deref(), Some("SY"));
        assert_eq!(
            location.sublocation, None,
            "the square was in the other city"
        );
        assert_eq!(location.span, None);
    }

    #[test]
    fn a_stated_us_postal_state_confirms_the_city_and_nothing_is_lost() {
        let mut record =
            parsed("Fans cheer at the Rose Bowl during the final. Jane Roe/Getty Images");
        let stated = Stated {
            city: Some("Pasadena".into()),
            province: Some("CA".into()),
            country: Some("United States".into()),
            credit_line: Some("Getty Images".into()),
            source: Some("Getty Images North America".into()),
            ..stated()
        };
        apply_stated(&mut record, &stated, gazetteer());
        let location = record.location.as_ref().expect("location");
        assert_eq!(location.province_code.as_deref(), Some("US.CA"));
        assert_eq!(location.city.as_deref(), Some("Pasadena"));
        assert!(location.geonames_id.is_some());
        assert_eq!(record.stated.as_ref(), Some(&stated), "kept as stated");
    }

    #[test]
    fn a_stated_place_the_gazetteer_cannot_confirm_stays_as_stated() {
        let mut record = parsed("Rain falls on a market square. REUTERS/Jane Roe");
        let stated = Stated {
            city: Some("Pasadena".into()),
            province: Some("Nowhere Land".into()),
            country_code: Some("US".into()),
            ..stated()
        };
        apply_stated(&mut record, &stated, gazetteer());
        let location = record.location.as_ref().expect("location");
        assert_eq!(location.city.as_deref(), Some("Pasadena"));
        assert_eq!(location.province.as_deref(), Some("Nowhere Land"));
        assert_eq!(location.geonames_id, None, "no namesake elsewhere");
        assert_eq!(location.latitude, None);
        assert!(record.flags.contains(&Flag::LocationUnresolved));
    }

    #[test]
    fn unreadable_stated_date_is_a_conflict_and_does_not_win() {
        let mut record = parsed("Rain falls on Kyiv, Ukraine October 7, 2022. REUTERS/Jane Roe");
        let stated = Stated {
            date_created: Some("yesterday".into()),
            ..stated()
        };
        apply_stated(&mut record, &stated, gazetteer());
        assert_eq!(
            record.date_created.map(|d| d.to_string()).as_deref(),
            Some("2022-10-07")
        );
        assert_eq!(record.conflicts.len(), 1);
    }

    #[test]
    fn far_coordinates_conflict() {
        let mut record = parsed("Rain falls on Kyiv, Ukraine October 7, 2022. REUTERS/Jane Roe");
        let stated = Stated {
            coordinates: Some((49.99, 36.23)), // Kharkiv
            ..stated()
        };
        apply_stated(&mut record, &stated, gazetteer());
        assert_eq!(record.conflicts[0].field, "location.coordinates");
        assert_eq!(record.location.and_then(|l| l.latitude), Some(49.99));
    }

    #[test]
    fn iso_dates_parse_with_their_precision() {
        let ok = |s: &str| s.parse::<PartialDate>().map(|d| d.to_string()).ok();
        assert_eq!(ok("2016").as_deref(), Some("2016"));
        assert_eq!(ok("2016-05").as_deref(), Some("2016-05"));
        assert_eq!(ok(" 2016-05-21 ").as_deref(), Some("2016-05-21"));
        assert_eq!(ok("2016-05-00").as_deref(), Some("2016-05"));
        assert_eq!(ok("2016-00-00").as_deref(), Some("2016"));
        assert_eq!(ok("2016-05-21T08:00:00Z").as_deref(), Some("2016-05-21"));
        for bad in [
            "",
            "16",
            "2016-13",
            "2016-02-30",
            "2016-5-1",
            "May 2016",
            "2016-05-21-01",
        ] {
            assert_eq!(ok(bad), None, "{bad:?}");
        }
    }
}
