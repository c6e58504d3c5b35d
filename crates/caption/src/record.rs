//! The caption record: the contract of `shared/spec/RECORD.md`, typed inside,
//! serialized exactly as the contract says (every field present), and read
//! back from it (the archive stores records as JSON).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::span::Span;
use crate::stated::Stated;

/// One caption, with every field the contract names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaptionRecord {
    /// Stable id derived from the whitespace-normalized text.
    pub id: String,
    /// The whole caption, whitespace-normalized, credit included.
    pub text: String,
    /// The caption without its credit.
    pub description: String,
    /// The credit line.
    pub credit: Credit,
    /// The day the photo was taken.
    pub date_created: Option<PartialDate>,
    /// Every calendar date in the caption, with its role.
    pub dates: Vec<DateMention>,
    /// Where the photo was taken.
    pub location: Option<Location>,
    /// Named people in the description.
    pub persons: Vec<Person>,
    /// Named organizations in the description.
    pub organizations: Vec<String>,
    /// Verification flags, in vocabulary order.
    pub flags: Vec<Flag>,
    /// The image the caption belongs to, when the input names it (an HTML
    /// page's image URL, a JPEG's path); an added field.
    pub image_url: Option<String>,
    /// Fields the input states explicitly (IPTC/XMP in a JPEG, JSON-LD in a
    /// page) that disagree with what the caption text says; the stated value
    /// is the one in the record. An added field.
    pub conflicts: Vec<Conflict>,
    /// Every field the input states explicitly (IPTC-IIM/XMP in a JPEG,
    /// JSON-LD in a page), exactly as stated; `None` when it states none
    /// (text inputs). The fields above hold the normalised values (folded
    /// agencies, gazetteer names), so a stated value is never lost to its
    /// normal form. An added field (see `caption::stated`).
    #[serde(default)]
    pub stated: Option<Stated>,
}

/// A field whose explicitly stated value disagrees with the caption text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    /// The record field, as a path: `credit.creators`, `date_created`,
    /// `location.city`.
    pub field: String,
    /// The value the input states (kept in the record).
    pub stated: String,
    /// The value the caption text gives.
    pub parsed: String,
}

/// The credit line and what it credits.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Credit {
    /// The credit as written, `None` when the caption has none.
    pub raw: Option<String>,
    /// People credited, as written (all-capital words title-cased).
    pub creators: Vec<String>,
    /// Agencies credited, canonical names, in order.
    pub agencies: Vec<String>,
    /// A third party that supplied the image.
    pub source: Option<String>,
    /// Where `raw` stands in `text` (an added field).
    pub span: Option<Span>,
}

/// A calendar date with its precision: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartialDate {
    /// Year.
    pub year: i16,
    /// Month 1-12, when known.
    pub month: Option<u8>,
    /// Day of month, when known (only with a month).
    pub day: Option<u8>,
}

impl std::fmt::Display for PartialDate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(month) = self.month {
            write!(f, "-{month:02}")?;
            if let Some(day) = self.day {
                write!(f, "-{day:02}")?;
            }
        }
        Ok(())
    }
}

/// A string that is not an ISO 8601 date of year, month or day precision.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a date (expected YYYY, YYYY-MM or YYYY-MM-DD): {0:?}")]
pub struct BadDate(pub String);

impl std::str::FromStr for PartialDate {
    type Err = BadDate;

    /// Reads `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as IPTC/XMP and JSON-LD state
    /// dates; a time after the day (`2016-05-21T10:30:00Z`) is ignored, and
    /// `00` for month or day means unknown (IIM's convention).
    fn from_str(s: &str) -> Result<PartialDate, BadDate> {
        let bad = || BadDate(s.to_string());
        let date = s.trim();
        let date = date.split_once(['T', ' ']).map_or(date, |(day, _)| day);
        let mut parts = date.split('-');
        let number = |part: Option<&str>, digits: usize| -> Result<Option<u16>, BadDate> {
            match part {
                None => Ok(None),
                Some(p) if p.len() == digits && p.bytes().all(|b| b.is_ascii_digit()) => {
                    p.parse().map(Some).map_err(|_| bad())
                }
                Some(_) => Err(bad()),
            }
        };
        let year = number(parts.next(), 4)?.ok_or_else(bad)?;
        let month = number(parts.next(), 2)?.filter(|&m| m != 0);
        let day = number(parts.next(), 2)?.filter(|&d| d != 0 && month.is_some());
        if parts.next().is_some() || month.is_some_and(|m| m > 12) {
            return Err(bad());
        }
        if let (Some(m), Some(d)) = (month, day) {
            let valid = jiff::civil::Date::new(year as i16, m as i8, d as i8).is_ok();
            if !valid {
                return Err(bad());
            }
        }
        Ok(PartialDate {
            year: year as i16,
            month: month.map(|m| m as u8),
            day: day.map(|d| d as u8),
        })
    }
}

impl<'de> Deserialize<'de> for PartialDate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PartialDate, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Serialize for PartialDate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// What a date in a caption is the date of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DateRole {
    /// The day the photo was taken.
    Created,
    /// When it was provided, released, uploaded or posted.
    Published,
    /// Any other date (background).
    Other,
}

/// One date found in the caption.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DateMention {
    /// The date.
    pub date: PartialDate,
    /// Its role.
    pub role: DateRole,
    /// The words as written.
    pub text: String,
    /// Where they stand in `text`.
    pub span: Span,
}

/// Where the photo was taken, resolved against GeoNames where possible.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Location {
    /// Named place finer than a town (square, district, camp, base).
    pub sublocation: Option<String>,
    /// Town, city or village.
    pub city: Option<String>,
    /// First-level division as GeoNames names it.
    pub province: Option<String>,
    /// GeoNames admin1 code `CC.NN`.
    pub province_code: Option<String>,
    /// English short country name.
    pub country: Option<String>,
    /// ISO 3166-1 alpha-2.
    pub country_code: Option<String>,
    /// GeoNames id of the most specific resolved place.
    pub geonames_id: Option<u32>,
    /// Latitude of that place.
    pub latitude: Option<f64>,
    /// Longitude of that place.
    pub longitude: Option<f64>,
    /// The location words as written.
    pub text: Option<String>,
    /// Where they stand in `text`.
    pub span: Option<Span>,
}

/// A named person in the description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Person {
    /// Name without titles.
    pub name: String,
    /// Age when the caption states it.
    pub age: Option<u16>,
    /// Where the name stands in `text` (an added field).
    pub span: Span,
}

/// The verification flag vocabulary of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// A stated weekday disagrees with the stated date.
    WeekdayMismatch,
    /// The content is attributed or not independently verified.
    Unverified,
    /// The credit says Handout, or a non-agency source is credited.
    Handout,
    /// The image is a still from video.
    StillFromVideo,
    /// The caption marks it as a file photo.
    FilePhoto,
    /// The caption is cut short and no full version was found.
    Truncated,
    /// No credit line found.
    NoCredit,
    /// No `date_created`.
    NoDate,
    /// A place finer than the province is stated but not resolved.
    LocationUnresolved,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_from_their_json() {
        let gazetteer = gazetteer::Gazetteer::embedded();
        for caption in [
            "Hana, 9, walks past a market in Aleppo, Syria, Wednesday March 3, 2016. REUTERS/Jane Roe",
            "Smoke rises over the town, in this still image taken from video provided on May 2016.",
        ] {
            let record = crate::parse(caption, gazetteer);
            let json = serde_json::to_string(&record).expect("serialize");
            let back: CaptionRecord = serde_json::from_str(&json).expect("deserialize");
            assert_eq!(back, record);
        }
        let bad = r#""2016-13-01""#;
        assert!(serde_json::from_str::<PartialDate>(bad).is_err());
    }
}
