//! The record as JSON, written by hand for speed: byte for byte what
//! `serde_json::to_writer` gives for the derived `Serialize` (the tests
//! compare the two on every golden caption and on random strings).
//!
//! Why: `dateline parse` spends about a seventh of its time serializing,
//! most of it in serde_json's byte-by-byte escape loop. Caption text almost
//! never needs escaping, so strings are checked sixteen bytes at a time
//! (a loop the compiler vectorizes) and copied whole.
//!
//! The field order is the structs' declaration order, as serde derives it.
//! A field added to a record type must be added here too; the equality
//! tests fail until it is.

use crate::record::{
    CaptionRecord, Conflict, Credit, DateMention, DateRole, Flag, Location, PartialDate, Person,
};
use crate::span::Span;
use crate::stated::Stated;
use crate::text::HEX_DIGITS;

/// Writes `{"a":…,"b":…}` from `key => value` pairs. Keys are plain ASCII
/// names, never escaped; each key's punctuation (`,"key":`) is one constant,
/// copied in one step instead of four pushes and a `memcpy` call.
macro_rules! object {
    ($out:expr, $first:literal => $value:expr $(, $key:literal => $rest:expr)* $(,)?) => {{
        let out: &mut Vec<u8> = $out;
        out.extend_from_slice(concat!("{\"", $first, "\":").as_bytes());
        Json::write($value, out);
        $(
            out.extend_from_slice(concat!(",\"", $key, "\":").as_bytes());
            Json::write($rest, out);
        )*
        out.push(b'}');
    }};
}

impl CaptionRecord {
    /// Appends the record as one JSON object (no line break), exactly as
    /// `serde_json::to_writer(out, self)` would.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        object!(
            out,
            "id" => &self.id,
            "text" => &self.text,
            "description" => &self.description,
            "credit" => &self.credit,
            "date_created" => &self.date_created,
            "dates" => &self.dates,
            "location" => &self.location,
            "persons" => &self.persons,
            "organizations" => &self.organizations,
            "flags" => &self.flags,
            "image_url" => &self.image_url,
            "conflicts" => &self.conflicts,
            "stated" => &self.stated,
        );
    }
}

/// A value that writes itself as JSON.
trait Json {
    fn write(&self, out: &mut Vec<u8>);
}

impl Json for str {
    fn write(&self, out: &mut Vec<u8>) {
        write_str(out, self);
    }
}

impl Json for String {
    fn write(&self, out: &mut Vec<u8>) {
        write_str(out, self);
    }
}

impl<T: Json> Json for Option<T> {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Some(value) => value.write(out),
            None => out.extend_from_slice(b"null"),
        }
    }
}

impl<T: Json> Json for Vec<T> {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            item.write(out);
        }
        out.push(b']');
    }
}

impl Json for u16 {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(itoa::Buffer::new().format(*self).as_bytes());
    }
}

impl Json for u32 {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(itoa::Buffer::new().format(*self).as_bytes());
    }
}

impl Json for usize {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(itoa::Buffer::new().format(*self).as_bytes());
    }
}

impl Json for f64 {
    /// Through serde_json itself: its float format (`1e+21`, `null` for
    /// NaN) is the reference, and a record has only two floats.
    fn write(&self, out: &mut Vec<u8>) {
        // Writing a float into a Vec cannot fail.
        let _ = serde_json::to_writer(out, self);
    }
}

impl Json for Span {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        self.start.write(out);
        out.push(b',');
        self.end.write(out);
        out.push(b']');
    }
}

impl Json for PartialDate {
    /// `"YYYY"`, `"YYYY-MM"` or `"YYYY-MM-DD"`, as its `Display`, written
    /// digit by digit (the formatting machinery costs more than the record).
    fn write(&self, out: &mut Vec<u8>) {
        let digits = |out: &mut Vec<u8>, value: u32, width: u32| {
            for place in (0..width).rev() {
                out.push(b'0' + (value / 10u32.pow(place) % 10) as u8);
            }
        };
        out.push(b'"');
        match u32::try_from(self.year) {
            Ok(year) if year <= 9999 => digits(out, year, 4),
            // Out of the four-digit range: let Display decide.
            _ => out.extend_from_slice(format!("{:04}", self.year).as_bytes()),
        }
        if let Some(month) = self.month {
            out.push(b'-');
            digits(out, u32::from(month), 2);
            if let Some(day) = self.day {
                out.push(b'-');
                digits(out, u32::from(day), 2);
            }
        }
        out.push(b'"');
    }
}

impl Json for DateRole {
    fn write(&self, out: &mut Vec<u8>) {
        let name = match self {
            DateRole::Created => "created",
            DateRole::Published => "published",
            DateRole::Other => "other",
        };
        write_str(out, name);
    }
}

impl Json for Flag {
    fn write(&self, out: &mut Vec<u8>) {
        let name = match self {
            Flag::WeekdayMismatch => "weekday_mismatch",
            Flag::Unverified => "unverified",
            Flag::Handout => "handout",
            Flag::StillFromVideo => "still_from_video",
            Flag::FilePhoto => "file_photo",
            Flag::Truncated => "truncated",
            Flag::NoCredit => "no_credit",
            Flag::NoDate => "no_date",
            Flag::LocationUnresolved => "location_unresolved",
        };
        write_str(out, name);
    }
}

impl Json for Credit {
    fn write(&self, out: &mut Vec<u8>) {
        object!(
            out,
            "raw" => &self.raw,
            "creators" => &self.creators,
            "agencies" => &self.agencies,
            "source" => &self.source,
            "span" => &self.span,
        );
    }
}

impl Json for DateMention {
    fn write(&self, out: &mut Vec<u8>) {
        object!(
            out,
            "date" => &self.date,
            "role" => &self.role,
            "text" => &self.text,
            "span" => &self.span,
        );
    }
}

impl Json for Location {
    fn write(&self, out: &mut Vec<u8>) {
        object!(
            out,
            "sublocation" => &self.sublocation,
            "city" => &self.city,
            "province" => &self.province,
            "province_code" => &self.province_code,
            "country" => &self.country,
            "country_code" => &self.country_code,
            "geonames_id" => &self.geonames_id,
            "latitude" => &self.latitude,
            "longitude" => &self.longitude,
            "text" => &self.text,
            "span" => &self.span,
        );
    }
}

impl Json for Person {
    fn write(&self, out: &mut Vec<u8>) {
        object!(
            out,
            "name" => &self.name,
            "age" => &self.age,
            "span" => &self.span,
        );
    }
}

impl Json for Conflict {
    fn write(&self, out: &mut Vec<u8>) {
        object!(
            out,
            "field" => &self.field,
            "stated" => &self.stated,
            "parsed" => &self.parsed,
        );
    }
}

impl Json for Stated {
    fn write(&self, out: &mut Vec<u8>) {
        object!(
            out,
            "creators" => &self.creators,
            "credit_line" => &self.credit_line,
            "source" => &self.source,
            "date_created" => &self.date_created,
            "sublocation" => &self.sublocation,
            "city" => &self.city,
            "province" => &self.province,
            "country" => &self.country,
            "country_code" => &self.country_code,
            "coordinates" => &self.coordinates,
        );
    }
}

impl Json for (f64, f64) {
    /// As serde writes a tuple: a two-item array.
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        self.0.write(out);
        out.push(b',');
        self.1.write(out);
        out.push(b']');
    }
}

/// Bytes checked at a time for anything to escape.
const CLEAN_RUN: usize = 16;

fn needs_escape(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// A JSON string, escaped as serde_json escapes: `"`, `\`, the short forms
/// `\b \f \n \r \t`, other control bytes as `\u00xx`; everything else,
/// non-ASCII included, as is.
fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Whole chunks are checked at once (a fixed-size array and a fold
        // without short-circuit compile to a few vector compares); only a
        // chunk with something to escape, and the tail, go byte by byte.
        let end = match bytes[i..].first_chunk::<CLEAN_RUN>() {
            Some(chunk)
                if !chunk
                    .iter()
                    .fold(false, |dirty, &b| dirty | needs_escape(b)) =>
            {
                i += CLEAN_RUN;
                continue;
            }
            Some(_) => i + CLEAN_RUN,
            None => bytes.len(),
        };
        for (offset, &byte) in bytes[i..end].iter().enumerate() {
            if needs_escape(byte) {
                let at = i + offset;
                out.extend_from_slice(&bytes[run_start..at]);
                write_escape(out, byte);
                run_start = at + 1;
            }
        }
        i = end;
    }
    out.extend_from_slice(&bytes[run_start..]);
    out.push(b'"');
}

fn write_escape(out: &mut Vec<u8>, byte: u8) {
    let short = match byte {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0C => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            out.extend_from_slice(b"\\u00");
            out.push(HEX_DIGITS[usize::from(byte >> 4)]);
            out.push(HEX_DIGITS[usize::from(byte & 0xF)]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn by_hand(s: &str) -> String {
        let mut out = Vec::new();
        write_str(&mut out, s);
        String::from_utf8(out).expect("UTF-8 in, UTF-8 out")
    }

    #[test]
    fn strings_escape_as_serde_json_does() {
        for s in [
            "",
            "plain caption text, long enough to fill a chunk or two of sixteen",
            "quote \" and backslash \\ in the middle of a long run of clean text",
            "\u{0}\u{1}\u{8}\t\n\u{b}\u{c}\r\u{1f}\u{7f}",
            "caf\u{e9} \u{2013} \u{201c}Aleppo\u{201d} \u{1f600}",
            "sixteen bytes!!\"",
            "fifteen bytes!\\",
        ] {
            assert_eq!(by_hand(s), serde_json::to_string(s).expect("json"), "{s:?}");
        }
    }

    #[test]
    fn dates_match_their_display() {
        for (year, month, day) in [
            (2016, Some(5), Some(21)),
            (987, Some(12), None),
            (2016, None, None),
            (-44, Some(3), Some(15)),
            (12345, None, None),
        ] {
            let date = PartialDate { year, month, day };
            let mut out = Vec::new();
            date.write(&mut out);
            assert_eq!(out, serde_json::to_vec(&date).expect("json"), "{date}");
        }
    }

    #[test]
    fn floats_and_missing_values_match_serde_json() {
        for x in [0.0, -0.0, 33.5102, 36.29128, -122.4194, 1e-7, 1e21] {
            let mut out = Vec::new();
            x.write(&mut out);
            assert_eq!(out, serde_json::to_vec(&x).expect("json"), "{x}");
        }
        let mut out = Vec::new();
        f64::NAN.write(&mut out);
        assert_eq!(out, b"null");
    }

    #[test]
    fn records_match_serde_json() {
        let gazetteer = gazetteer::Gazetteer::embedded();
        // The demo gallery and our golden captions: every field filled or
        // empty somewhere.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut texts = vec![
            std::fs::read_to_string(root.join("../../demo/gallery.txt")).expect("demo gallery")
        ];
        for entry in std::fs::read_dir(root.join("test_data/ok")).expect("golden captions") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "txt") {
                texts.push(std::fs::read_to_string(path).expect("captions"));
            }
        }
        let mut n = 0;
        let captions = texts.iter().flat_map(|t| t.split("\n\n"));
        for caption in captions.filter(|c| !c.trim().is_empty()) {
            let mut record = crate::parse(caption, gazetteer);
            record.image_url = Some("https://example.org/p/1.jpg?a=\"b\"".into());
            record.conflicts.push(crate::Conflict {
                field: "date_created".into(),
                stated: "2016-05-21".into(),
                parsed: "2016-05-20".into(),
            });
            // Every other record states something, half of them coordinates.
            if n % 2 == 1 {
                record.stated = Some(crate::Stated {
                    creators: vec!["Jane \"Q\" Roe".into()],
                    city: Some(record.text.chars().take(12).collect()),
                    coordinates: (n % 4 == 1).then_some((33.5102, -122.4194)),
                    ..crate::Stated::default()
                });
            }
            let mut out = Vec::new();
            record.write_json(&mut out);
            assert_eq!(
                String::from_utf8(out).expect("UTF-8"),
                serde_json::to_string(&record).expect("json")
            );
            n += 1;
        }
        assert!(
            n >= 40,
            "the demo gallery and golden captions are there: {n}"
        );
    }

    proptest! {
        #[test]
        fn any_string_escapes_as_serde_json_does(s in "\\PC{0,80}|[\\x00-\\x7f]{0,80}") {
            prop_assert_eq!(by_hand(&s), serde_json::to_string(&s).expect("json"));
        }
    }
}
