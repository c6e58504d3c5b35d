//! IPTC-IIM datasets inside Photoshop image resources (APP13).
//!
//! APP13 holds `Photoshop 3.0\0` and a sequence of image resource blocks
//! (`8BIM`, 16-bit id, padded Pascal name, 32-bit size, data padded to
//! even length). Resource `0x0404` holds the IIM datasets
//! (`1C record dataset length value`); resource `0x0425` holds the MD5 of
//! those bytes, which tells MWG-aware readers whether XMP and IIM are in step.
//!
//! **Character set.** Dataset 1:90 `ESC % G` declares UTF-8. Without it, a
//! value that is valid UTF-8 is read as UTF-8 (pure ASCII reads the same
//! either way, and Latin-1 text is almost never valid UTF-8), anything else
//! as Windows-1252 (a superset of the printable Latin-1 range, and what
//! ExifTool assumes by default). Another declared set is read as
//! Windows-1252 too. The writer always declares UTF-8 and converts the
//! existing non-UTF-8 text of record 2 to UTF-8 so it still reads the same.

use crate::{Error, PhotoMetadata};

/// Photoshop resource id of the IPTC-IIM data.
pub(crate) const RES_IPTC: u16 = 0x0404;
/// Photoshop resource id of the MD5 digest of the IPTC-IIM data.
pub(crate) const RES_DIGEST: u16 = 0x0425;

/// `ESC % G`: the IIM coded character set for UTF-8.
pub(crate) const UTF8_MARK: &[u8] = b"\x1b%G";

/// One Photoshop image resource block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Resource {
    /// The 4-byte type (`8BIM` almost always).
    pub sig: [u8; 4],
    pub id: u16,
    /// The name, without its length byte or padding.
    pub name: Vec<u8>,
    pub data: Vec<u8>,
}

/// Parses Photoshop image resources; a broken block ends the list with an error
/// that carries what was parsed before it.
pub(crate) fn parse_resources(data: &[u8]) -> (Vec<Resource>, Option<String>) {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        // Some writers pad the end with zeros.
        if data[pos..].iter().all(|&b| b == 0) {
            break;
        }
        let Some(head) = data.get(pos..pos + 7) else {
            return (
                out,
                Some(format!("Photoshop resource cut short at byte {pos}")),
            );
        };
        let sig = [head[0], head[1], head[2], head[3]];
        if !matches!(&sig, b"8BIM" | b"PHUT" | b"AgHg" | b"DCSR") {
            return (
                out,
                Some(format!("unknown Photoshop resource type at byte {pos}")),
            );
        }
        let id = u16::from_be_bytes([head[4], head[5]]);
        let name_len = usize::from(head[6]);
        let name_start = pos + 7;
        // Length byte plus name, padded to an even count.
        let mut after_name = pos + 6 + 1 + name_len;
        if (1 + name_len) % 2 == 1 {
            after_name += 1;
        }
        let Some(name) = data.get(name_start..name_start + name_len) else {
            return (
                out,
                Some(format!("Photoshop resource name cut short at byte {pos}")),
            );
        };
        let Some(size) = data.get(after_name..after_name + 4) else {
            return (
                out,
                Some(format!("Photoshop resource size cut short at byte {pos}")),
            );
        };
        let size = u32::from_be_bytes([size[0], size[1], size[2], size[3]]) as usize;
        let start = after_name + 4;
        let Some(body) = start.checked_add(size).and_then(|end| data.get(start..end)) else {
            return (
                out,
                Some(format!(
                    "Photoshop resource {id:#06x} claims {size} bytes, only {} left",
                    data.len().saturating_sub(start)
                )),
            );
        };
        out.push(Resource {
            sig,
            id,
            name: name.to_vec(),
            data: body.to_vec(),
        });
        pos = start + size + (size % 2);
    }
    (out, None)
}

/// Serializes Photoshop image resources.
pub(crate) fn encode_resources(res: &[Resource]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in res {
        out.extend_from_slice(&r.sig);
        out.extend_from_slice(&r.id.to_be_bytes());
        let name = &r.name[..r.name.len().min(255)];
        out.push(name.len() as u8);
        out.extend_from_slice(name);
        if (1 + name.len()) % 2 == 1 {
            out.push(0);
        }
        out.extend_from_slice(&(r.data.len() as u32).to_be_bytes());
        out.extend_from_slice(&r.data);
        if r.data.len() % 2 == 1 {
            out.push(0);
        }
    }
    out
}

/// One IIM dataset.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Dataset {
    pub record: u8,
    pub number: u8,
    pub value: Vec<u8>,
}

/// Parses IIM datasets; a broken one ends the list with an error message.
pub(crate) fn parse_datasets(data: &[u8]) -> (Vec<Dataset>, Option<String>) {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        if data[pos] != 0x1C {
            // Zero padding at the end is common and harmless.
            if data[pos..].iter().all(|&b| b == 0) {
                break;
            }
            return (
                out,
                Some(format!("IIM: no tag marker (0x1C) at byte {pos}")),
            );
        }
        let Some(head) = data.get(pos + 1..pos + 5) else {
            return (
                out,
                Some(format!("IIM: dataset header cut short at byte {pos}")),
            );
        };
        let (record, number) = (head[0], head[1]);
        let mut len = usize::from(u16::from_be_bytes([head[2], head[3]]));
        let mut start = pos + 5;
        if len & 0x8000 != 0 {
            // Extended dataset: the low bits give the count of length bytes.
            let n = len & 0x7FFF;
            let Some(bytes) = (n <= 4).then(|| data.get(start..start + n)).flatten() else {
                return (out, Some(format!("IIM: bad extended length at byte {pos}")));
            };
            len = bytes
                .iter()
                .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
            start += n;
        }
        let Some(value) = start.checked_add(len).and_then(|end| data.get(start..end)) else {
            return (
                out,
                Some(format!(
                    "IIM: dataset {record}:{number:02} at byte {pos} claims {len} bytes, only {} left",
                    data.len().saturating_sub(start)
                )),
            );
        };
        out.push(Dataset {
            record,
            number,
            value: value.to_vec(),
        });
        pos = start + len;
    }
    (out, None)
}

/// Serializes IIM datasets.
pub(crate) fn encode_datasets(sets: &[Dataset]) -> Vec<u8> {
    let mut out = Vec::new();
    for d in sets {
        out.extend_from_slice(&[0x1C, d.record, d.number]);
        if d.value.len() < 0x8000 {
            out.extend_from_slice(&(d.value.len() as u16).to_be_bytes());
        } else {
            out.extend_from_slice(&[0x80, 0x04]);
            out.extend_from_slice(&(d.value.len() as u32).to_be_bytes());
        }
        out.extend_from_slice(&d.value);
    }
    out
}

/// Whether the datasets declare UTF-8 (1:90 = `ESC % G`).
pub(crate) fn declares_utf8(sets: &[Dataset]) -> bool {
    sets.iter()
        .any(|d| d.record == 1 && d.number == 90 && d.value == UTF8_MARK)
}

/// Decodes a text value under the rules in the module docs.
pub(crate) fn decode_text(value: &[u8], utf8: bool) -> String {
    match std::str::from_utf8(value) {
        Ok(s) => s.to_owned(),
        Err(_) if utf8 => String::from_utf8_lossy(value).into_owned(),
        Err(_) => value.iter().map(|&b| cp1252(b)).collect(),
    }
}

/// Windows-1252 to Unicode (the five undefined bytes map to the C1 controls, as in Latin-1).
pub fn cp1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{8D}',
        '\u{017D}', '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}',
        '\u{2013}', '\u{2014}', '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}',
        '\u{9D}', '\u{017E}', '\u{0178}',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// Converts IIM `CCYYMMDD` to ISO 8601 (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`; `00` = unknown).
pub(crate) fn iim_date_to_iso(s: &str) -> Option<String> {
    let s = s.trim();
    if s.len() != 8 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (y, m, d) = (&s[0..4], &s[4..6], &s[6..8]);
    Some(match (m, d) {
        ("00", _) => y.to_owned(),
        (_, "00") => format!("{y}-{m}"),
        _ => format!("{y}-{m}-{d}"),
    })
}

/// Converts an ISO 8601 date (with optional time, which IIM 2:55 cannot hold) to `CCYYMMDD`.
pub(crate) fn iso_to_iim_date(s: &str) -> Option<String> {
    let (date, time) = match s.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    if time.is_some_and(|t| !valid_time(t)) {
        return None;
    }
    let parts: Vec<&str> = date.split('-').collect();
    let num = |p: &str, n: usize, lo: u32, hi: u32| {
        p.len() == n
            && p.bytes().all(|b| b.is_ascii_digit())
            && p.parse::<u32>().is_ok_and(|v| (lo..=hi).contains(&v))
    };
    match parts.as_slice() {
        [y] if num(y, 4, 1, 9999) && time.is_none() => Some(format!("{y}0000")),
        [y, m] if num(y, 4, 1, 9999) && num(m, 2, 1, 12) && time.is_none() => {
            Some(format!("{y}{m}00"))
        }
        [y, m, d] if num(y, 4, 1, 9999) && num(m, 2, 1, 12) && num(d, 2, 1, 31) => {
            Some(format!("{y}{m}{d}"))
        }
        _ => None,
    }
}

/// An XMP time: `HH:MM`, `HH:MM:SS` or `HH:MM:SS.s+`, then optionally `Z` or `±HH:MM`.
fn valid_time(t: &str) -> bool {
    let (clock, zone) = match t.find(['Z', '+', '-']) {
        Some(i) => t.split_at(i),
        None => (t, ""),
    };
    let two = |p: &str, hi: u32| {
        p.len() == 2
            && p.bytes().all(|b| b.is_ascii_digit())
            && p.parse::<u32>().is_ok_and(|v| v <= hi)
    };
    let zone_ok = match zone.as_bytes().first() {
        None => true,
        Some(b'Z') => zone.len() == 1,
        Some(_) => matches!(zone[1..].split_once(':'), Some((h, m)) if two(h, 23) && two(m, 59)),
    };
    let mut parts = clock.split(':');
    let (Some(h), Some(m)) = (parts.next(), parts.next()) else {
        return false;
    };
    let sec_ok = match parts.next() {
        None => true,
        Some(sec) => {
            let (whole, frac) = sec.split_once('.').unwrap_or((sec, "0"));
            two(whole, 60) && !frac.is_empty() && frac.bytes().all(|b| b.is_ascii_digit())
        }
    };
    zone_ok && two(h, 23) && two(m, 59) && sec_ok && parts.next().is_none()
}

/// Builds the caption fields from IIM datasets.
pub(crate) fn to_metadata(sets: &[Dataset]) -> PhotoMetadata {
    let utf8 = declares_utf8(sets);
    let mut m = PhotoMetadata::default();
    for d in sets.iter().filter(|d| d.record == 2) {
        let text = || {
            // A NUL ends the text, as ExifTool reads IIM strings: what
            // follows one is left-over bytes, never caption.
            let value = d.value.split(|&b| b == 0).next().unwrap_or_default();
            let t = decode_text(value, utf8);
            let t = t.trim_matches(|c: char| c == '\0' || c.is_whitespace());
            (!t.is_empty()).then(|| t.to_owned())
        };
        let first = |slot: &mut Option<String>| {
            if slot.is_none() {
                *slot = text();
            }
        };
        match d.number {
            120 => first(&mut m.description),
            80 => m.creators.extend(text()),
            110 => first(&mut m.credit_line),
            115 => first(&mut m.source),
            55 if m.date_created.is_none() => {
                m.date_created = text().and_then(|t| iim_date_to_iso(&t));
            }
            92 => first(&mut m.sublocation),
            90 => first(&mut m.city),
            95 => first(&mut m.province_state),
            101 => first(&mut m.country),
            100 => first(&mut m.country_code),
            _ => {}
        }
    }
    m
}

/// Maximum byte lengths of the datasets this crate writes (IIM 4.2, as ExifTool enforces them).
pub(crate) fn max_len(number: u8) -> usize {
    match number {
        120 => 2000,
        101 => 64,
        100 => 3,
        55 => 8,
        _ => 32,
    }
}

/// Cuts `s` to at most `max` bytes on a char boundary.
pub(crate) fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Rewrites datasets for writing: declares UTF-8 (converting old record-2 text),
/// makes sure of 1:00 and 2:00, and replaces the datasets in `new` (by number,
/// record 2) keeping the order of the rest.
pub(crate) fn rewrite(old: &[Dataset], new: &[(u8, Vec<String>)]) -> Vec<Dataset> {
    let utf8 = declares_utf8(old);
    let mut rec1: Vec<Dataset> = old.iter().filter(|d| d.record == 1).cloned().collect();
    if !rec1.iter().any(|d| d.number == 0) {
        rec1.insert(
            0,
            Dataset {
                record: 1,
                number: 0,
                value: vec![0, 4],
            },
        );
    }
    rec1.retain(|d| d.number != 90);
    let at = rec1
        .iter()
        .position(|d| d.number > 90)
        .unwrap_or(rec1.len());
    rec1.insert(
        at,
        Dataset {
            record: 1,
            number: 90,
            value: UTF8_MARK.to_vec(),
        },
    );

    let mut rec2: Vec<Dataset> = Vec::new();
    for d in old.iter().filter(|d| d.record == 2) {
        if new.iter().any(|(n, _)| *n == d.number) {
            continue;
        }
        let mut d = d.clone();
        let binary = matches!(d.number, 0 | 200 | 201 | 202);
        if !utf8 && !binary && !d.value.is_ascii() {
            d.value = decode_text(&d.value, false).into_bytes();
        }
        rec2.push(d);
    }
    if !rec2.iter().any(|d| d.number == 0) {
        rec2.insert(
            0,
            Dataset {
                record: 2,
                number: 0,
                value: vec![0, 4],
            },
        );
    }
    for (number, values) in new {
        let at = rec2
            .iter()
            .position(|d| d.number > *number)
            .unwrap_or(rec2.len());
        for (i, v) in values.iter().enumerate() {
            rec2.insert(
                at + i,
                Dataset {
                    record: 2,
                    number: *number,
                    value: v.clone().into_bytes(),
                },
            );
        }
    }
    let mut out = rec1;
    out.extend(rec2);
    let mut rest: Vec<Dataset> = old
        .iter()
        .filter(|d| d.record != 1 && d.record != 2)
        .cloned()
        .collect();
    rest.sort_by_key(|d| d.record);
    out.extend(rest);
    out
}

/// Reads caption fields from raw IIM data (the content of resource 0x0404).
///
/// Strict: a dataset whose length runs past the end, or a missing tag
/// marker, is an error (the JPEG reader instead keeps what came before and warns).
pub fn read_iim(data: &[u8]) -> Result<PhotoMetadata, Error> {
    let (sets, err) = parse_datasets(data);
    match err {
        Some(reason) => Err(Error::Iim(reason)),
        None => Ok(to_metadata(&sets)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds(record: u8, number: u8, v: &[u8]) -> Dataset {
        Dataset {
            record,
            number,
            value: v.to_vec(),
        }
    }

    #[test]
    fn charsets() {
        let latin = [ds(2, 90, b"Z\xfcrich"), ds(2, 110, b"\x80 AFP")];
        let m = to_metadata(&latin);
        assert_eq!(m.city.as_deref(), Some("Zürich"));
        assert_eq!(m.credit_line.as_deref(), Some("€ AFP"));
        let undeclared_utf8 = [ds(2, 90, "Zürich".as_bytes())];
        assert_eq!(
            to_metadata(&undeclared_utf8).city.as_deref(),
            Some("Zürich")
        );
        let declared = [ds(1, 90, UTF8_MARK), ds(2, 90, b"Z\xfcrich")];
        assert_eq!(
            to_metadata(&declared).city.as_deref(),
            Some("Z\u{FFFD}rich")
        );
        // ExifTool ends an IIM string at its first NUL.
        let leftovers = [ds(2, 120, b"Boats in the harbour\0\x10Photoshop ")];
        assert_eq!(
            to_metadata(&leftovers).description.as_deref(),
            Some("Boats in the harbour")
        );
    }

    #[test]
    fn datasets_round_trip_and_wrong_lengths() {
        let sets = vec![
            ds(1, 90, UTF8_MARK),
            ds(2, 80, b"A"),
            ds(2, 80, b"B"),
            ds(2, 25, &[b'k'; 40000]),
        ];
        let bytes = encode_datasets(&sets);
        assert_eq!(parse_datasets(&bytes), (sets, None));
        let m = read_iim(&bytes).unwrap();
        assert_eq!(m.creators, ["A", "B"]);
        let mut bad = encode_datasets(&[ds(2, 90, b"Paris")]);
        bad[4] = 50;
        assert!(matches!(read_iim(&bad), Err(Error::Iim(_))));
        assert!(read_iim(b"\x1c\x02").is_err());
        assert!(read_iim(b"\x1c\x02\x78\x80\x09").is_err());
        assert!(read_iim(b"\x1c\x02\x78\xff\xff").is_err());
        assert_eq!(read_iim(b"").unwrap(), PhotoMetadata::default());
    }

    #[test]
    fn dates() {
        assert_eq!(iim_date_to_iso("20240305").as_deref(), Some("2024-03-05"));
        assert_eq!(iim_date_to_iso("20240300").as_deref(), Some("2024-03"));
        assert_eq!(iim_date_to_iso("20240000").as_deref(), Some("2024"));
        assert_eq!(iim_date_to_iso("2024"), None);
        assert_eq!(
            iso_to_iim_date("2024-03-05T10:00:00Z").as_deref(),
            Some("20240305")
        );
        assert_eq!(iso_to_iim_date("2024-03").as_deref(), Some("20240300"));
        assert_eq!(iso_to_iim_date("2024").as_deref(), Some("20240000"));
        assert_eq!(iso_to_iim_date("March 2024"), None);
        assert_eq!(iso_to_iim_date("2024-13-01"), None);
        assert_eq!(iso_to_iim_date("2024-03-00"), None);
        assert_eq!(iso_to_iim_date("2024-03-05T10:00"), Some("20240305".into()));
        assert_eq!(
            iso_to_iim_date("2024-03-05T10:00:59.5+02:00"),
            Some("20240305".into())
        );
        assert_eq!(iso_to_iim_date("2024-03-05T25:00"), None);
        assert_eq!(iso_to_iim_date("2024-03-05T10:00+2"), None);
        assert_eq!(iso_to_iim_date("2024-03T10:00"), None);
    }

    #[test]
    fn resources_round_trip() {
        let res = vec![
            Resource {
                sig: *b"8BIM",
                id: RES_IPTC,
                name: vec![],
                data: vec![1, 2, 3],
            },
            Resource {
                sig: *b"8BIM",
                id: 0x03ED,
                name: b"ab".to_vec(),
                data: vec![9; 16],
            },
        ];
        let bytes = encode_resources(&res);
        assert_eq!(parse_resources(&bytes), (res, None));
        let (_, err) = parse_resources(&bytes[..bytes.len() - 3]);
        assert!(err.is_some());
    }

    #[test]
    fn rewrite_keeps_others_and_orders() {
        let old = vec![
            ds(2, 0, &[0, 4]),
            ds(2, 25, b"kw"),
            ds(2, 90, b"Z\xfcrich"),
            ds(2, 120, b"cap"),
        ];
        let new = rewrite(
            &old,
            &[
                (80, vec!["Ann".into(), "Bob".into()]),
                (90, vec!["Genève".into()]),
            ],
        );
        let nums: Vec<(u8, u8)> = new.iter().map(|d| (d.record, d.number)).collect();
        assert_eq!(
            nums,
            [
                (1, 0),
                (1, 90),
                (2, 0),
                (2, 25),
                (2, 80),
                (2, 80),
                (2, 90),
                (2, 120)
            ]
        );
        assert_eq!(to_metadata(&new).city.as_deref(), Some("Genève"));
        assert_eq!(truncate("aé", 2), "a");
    }
}
