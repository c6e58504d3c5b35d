//! Caption metadata in JPEG files and XMP sidecars: IPTC-IIM (APP13) and
//! XMP (APP1), read and written.
//!
//! ```
//! use photometa::{read_jpeg, write_jpeg, PhotoMetadata};
//! # let jpeg: &[u8] = &[0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x00, 0xFF, 0xD9];
//! let fields = PhotoMetadata { city: Some("Idlib".into()), ..Default::default() };
//! let (tagged, report) = write_jpeg(jpeg, &fields, false).unwrap();
//! assert_eq!(read_jpeg(&tagged[..]).unwrap().merged.city.as_deref(), Some("Idlib"));
//! assert_eq!(report.written, [photometa::Field::City]);
//! ```
//!
//! # Reading
//! [`read_jpeg`] streams the marker segments up to the start of scan and
//! stops there: the image data is never read. It reads IIM from every
//! `Photoshop 3.0` APP13 segment (concatenated, resource `0x0404`), every
//! standard XMP packet in APP1, and the extended XMP whose GUID the main
//! packet names in `xmpNote:HasExtendedXMP` (chunks placed by their offset;
//! chunks with another GUID are ignored), as ExifTool reads them: XMP
//! under the non-standard `XMP\0://ns.adobe.com/xap/1.0/` header (or none)
//! too, UTF-16 and UTF-32 packets too, and junk bytes between segments
//! skipped with a warning. When a property appears in several packets, the
//! last one read wins (the extended packet is read last), as in ExifTool. What is damaged (a truncated
//! file, a refused packet, a dataset running past its end) is reported in
//! [`JpegMetadata::warnings`] and left out, keeping what came before it;
//! only input that is not a JPEG at all, or an I/O failure, is an error.
//! [`read_iim`] and [`read_xmp`] on their own are strict: damage is an error.
//! XMP safety: a DOCTYPE is refused ([`Error::XmpDoctype`]), no entity is
//! ever expanded or fetched, only the predefined ones and character
//! references are decoded, and nesting is limited.
//!
//! **IIM character set.** 1:90 `ESC % G` means UTF-8. Without it, a value
//! that is valid UTF-8 is read as UTF-8, anything else as Windows-1252 (the
//! superset of printable Latin-1 that ExifTool assumes by default).
//!
//! **IIM or XMP.** Following the Metadata Working Group rule: when the
//! Photoshop IPTC digest (resource `0x0425`) is present and does not match
//! the IIM data, the IIM was changed by a tool that did not update XMP, so
//! IIM values win (and a warning says so); otherwise (digest matches or is
//! absent) XMP wins. A field present on one side only is taken from it.
//!
//! **GPS** is the GPS of the location shown (`Iptc4xmpExt:LocationShown`,
//! first location with `exif:GPSLatitude`/`exif:GPSLongitude`); the camera
//! position (EXIF GPS) is a different thing and is not read.
//!
//! # Writing
//! [`write_jpeg`] copies every segment it does not change byte for byte,
//! and everything from the SOS marker to the end of the file verbatim.
//! For each field given (a `Some` or a non-empty list), the field is
//! written to IIM and XMP unless either already holds a value; with
//! `overwrite` the given fields replace the old values in both. Fields left
//! empty are never touched; the description is never written to a JPEG.
//!
//! - IIM: the writer declares UTF-8 (1:90, converting the existing record-2
//!   text to UTF-8), keeps every other dataset and resource, cuts values to
//!   the IIM maximum lengths on a char boundary (XMP keeps the full value;
//!   the report says so), and updates the IPTC digest (`0x0425`, added when
//!   missing) so that MWG readers see IIM and XMP in step; a digest that was
//!   already stale (IIM edited behind XMP's back) is left stale, as ExifTool
//!   does, so that the edited IIM values keep winning. Country code:
//!   IIM 2:100 holds exactly three characters (ISO 3166 alpha-3), so a
//!   two-letter code (what dateline's records carry) goes to XMP as given and
//!   to IIM as its alpha-3 code (`SY` → `SYR`); a code that is neither is
//!   written to XMP only. Both cases are noted in the report.
//! - XMP: see the module notes in the source (`xmp.rs`): unknown properties
//!   are preserved, several standard packets (and XMP under a non-standard
//!   APP1 header, which readers take as XMP) are merged into one, and the
//!   packet must fit one APP1 segment (65,504 bytes): a bigger one is
//!   [`Error::XmpTooLarge`] (this crate does not move properties to extended
//!   XMP; existing extended XMP segments are kept as they are, so with
//!   `overwrite` a property that a writer moved to extended XMP, which in
//!   practice is only a long description, would stay there beside the new one).
//! - The location shown gets one `Iptc4xmpExt:LocationShown` structure with
//!   GPS and the location fields as written (when GPS is given and no location
//!   shown exists, or with `overwrite`).
//! - Existing metadata that cannot be parsed makes writing fail rather than
//!   be thrown away.
//!
//! Dates are ISO 8601 as stored: `YYYY`, `YYYY-MM`, `YYYY-MM-DD` (IIM
//! `CCYYMMDD` is converted, `00` month or day meaning unknown); XMP may carry
//! a time, which IIM 2:55 cannot hold.

#![cfg_attr(test, allow(clippy::unwrap_used))]

use std::io::{Read, Write};
use std::path::Path;

mod iim;
mod iso3166;
mod jpeg;
mod xmp;

pub use iim::{cp1252, read_iim};
pub use xmp::read_xmp;

use md5::{Digest, Md5};

/// The caption fields this crate reads and writes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PhotoMetadata {
    /// Description / Caption-Abstract (`dc:description` x-default, IIM 2:120).
    pub description: Option<String>,
    /// Creators / By-line (`dc:creator`, IIM 2:80 repeated).
    pub creators: Vec<String>,
    /// Credit Line (`photoshop:Credit`, IIM 2:110).
    pub credit_line: Option<String>,
    /// Source (`photoshop:Source`, IIM 2:115).
    pub source: Option<String>,
    /// Date Created, ISO 8601 as stored (`photoshop:DateCreated`, IIM 2:55).
    pub date_created: Option<String>,
    /// Sublocation (`Iptc4xmpCore:Location`, IIM 2:92).
    pub sublocation: Option<String>,
    /// City (`photoshop:City`, IIM 2:90).
    pub city: Option<String>,
    /// Province or state (`photoshop:State`, IIM 2:95).
    pub province_state: Option<String>,
    /// Country name (`photoshop:Country`, IIM 2:101).
    pub country: Option<String>,
    /// Country code (`Iptc4xmpCore:CountryCode`, IIM 2:100).
    pub country_code: Option<String>,
    /// Persons shown (`Iptc4xmpExt:PersonInImage`; XMP only).
    pub persons_shown: Vec<String>,
    /// Organisations shown (`Iptc4xmpExt:OrganisationInImageName`; XMP only).
    pub organisations: Vec<String>,
    /// Latitude and longitude of the location shown, decimal degrees (XMP only).
    pub gps: Option<(f64, f64)>,
}

/// A field of [`PhotoMetadata`], as named in a [`WriteReport`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// [`PhotoMetadata::description`].
    Description,
    /// [`PhotoMetadata::creators`].
    Creators,
    /// [`PhotoMetadata::credit_line`].
    CreditLine,
    /// [`PhotoMetadata::source`].
    Source,
    /// [`PhotoMetadata::date_created`].
    DateCreated,
    /// [`PhotoMetadata::sublocation`].
    Sublocation,
    /// [`PhotoMetadata::city`].
    City,
    /// [`PhotoMetadata::province_state`].
    ProvinceState,
    /// [`PhotoMetadata::country`].
    Country,
    /// [`PhotoMetadata::country_code`].
    CountryCode,
    /// [`PhotoMetadata::persons_shown`].
    PersonsShown,
    /// [`PhotoMetadata::organisations`].
    Organisations,
    /// [`PhotoMetadata::gps`].
    Gps,
}

/// What [`read_jpeg`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JpegMetadata {
    /// IIM and XMP merged (see the crate docs for which wins).
    pub merged: PhotoMetadata,
    /// The fields from IPTC-IIM alone.
    pub iim: PhotoMetadata,
    /// The fields from XMP alone (standard and extended packets).
    pub xmp: PhotoMetadata,
    /// Problems met and skipped (truncated file, refused packet, bad dataset).
    pub warnings: Vec<String>,
}

/// What [`write_jpeg`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Fields written (to IIM and XMP, or to XMP alone where IIM has no such field).
    pub written: Vec<Field>,
    /// Fields given but kept as they were, because the image already had a value.
    pub kept: Vec<Field>,
    /// Details: values cut to the IIM maximum length, values written to XMP only.
    pub notes: Vec<String>,
}

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input does not start with a JPEG SOI marker.
    #[error("not a JPEG file (no FFD8 start-of-image marker)")]
    NotJpeg,
    /// The JPEG ends before its image data.
    #[error("truncated JPEG: the file ends at byte {offset}, before the image data")]
    Truncated {
        /// Where the data ran out.
        offset: usize,
    },
    /// The JPEG structure is broken before its image data.
    #[error("corrupt JPEG at byte {offset}: {reason}")]
    Corrupt {
        /// Offset of the broken marker.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// An XMP packet has a document type declaration (refused: DTDs and entities are never processed).
    #[error("XMP packet refused: it has a DOCTYPE declaration (DTDs and entities are not allowed in XMP)")]
    XmpDoctype,
    /// An XMP packet is not well-formed XML (or uses an undefined entity, or nests too deep).
    #[error("bad XMP packet: {0}")]
    Xmp(String),
    /// IIM datasets are broken (a length running past the end, a missing tag marker).
    #[error("bad IPTC-IIM data: {0}")]
    Iim(String),
    /// The Photoshop image resources in APP13 are broken.
    #[error("bad Photoshop APP13 resources: {0}")]
    Photoshop(String),
    /// The XMP packet to write does not fit one APP1 segment.
    #[error("XMP packet of {size} bytes does not fit a JPEG APP1 segment (at most {max})")]
    XmpTooLarge {
        /// Size of the packet without padding.
        size: usize,
        /// The most one segment holds.
        max: usize,
    },
    /// A value given to write is not valid for its field.
    #[error("invalid value for {field:?}: {reason}")]
    InvalidValue {
        /// The field.
        field: Field,
        /// Why.
        reason: String,
    },
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Reads caption metadata from a JPEG stream, stopping at the start of scan.
///
/// Pass a `BufReader` for files: the reader asks for a few bytes at a time.
pub fn read_jpeg<R: Read>(r: R) -> Result<JpegMetadata, Error> {
    let mut warnings = Vec::new();
    let segments = jpeg::read_segments(r, &mut warnings)?;
    let mut out = JpegMetadata::default();

    // XMP: standard packets in order, then the extended packet they name.
    let mut props = Vec::new();
    for s in segments
        .iter()
        .filter(|s| matches!(s.kind, jpeg::Kind::Xmp | jpeg::Kind::XmpNonStandard))
    {
        match xmp::parse(&s.payload) {
            Ok(doc) => props.extend(xmp::properties(&doc)),
            Err(e) => warnings.push(format!("XMP packet at byte {} skipped: {e}", s.offset)),
        }
    }
    if let Some(guid) = xmp::extended_guid(&props) {
        match assemble_extended(&segments, &guid) {
            Ok(Some(packet)) => match xmp::parse(&packet) {
                Ok(doc) => props.extend(xmp::properties(&doc)),
                Err(e) => warnings.push(format!("extended XMP skipped: {e}")),
            },
            Ok(None) => warnings.push(format!("extended XMP {guid} is missing")),
            Err(e) => warnings.push(e),
        }
    }
    out.xmp = xmp::to_metadata(&props);

    // IIM from the Photoshop resources of every APP13 segment.
    let ps: Vec<u8> = segments
        .iter()
        .filter(|s| s.kind == jpeg::Kind::Photoshop)
        .flat_map(|s| s.payload.iter().copied())
        .collect();
    let mut iim_wins = false;
    if !ps.is_empty() {
        let (res, err) = iim::parse_resources(&ps);
        warnings.extend(err);
        if let Some(data) = res.iter().find(|r| r.id == iim::RES_IPTC).map(|r| &r.data) {
            let (sets, err) = iim::parse_datasets(data);
            warnings.extend(err);
            out.iim = iim::to_metadata(&sets);
            if digest_is_stale(&res) {
                iim_wins = true;
                warnings.push(
                    "IPTC digest does not match the IIM data: IIM was edited after XMP, \
                     so IIM values win"
                        .into(),
                );
            }
        }
    }
    out.merged = if iim_wins {
        merge(&out.iim, &out.xmp)
    } else {
        merge(&out.xmp, &out.iim)
    };
    out.warnings = warnings;
    Ok(out)
}

/// Whether the IPTC digest (0x0425) says the IIM (0x0404) changed since it
/// was computed. An all-zero digest (written by tools without MD5) says nothing.
fn digest_is_stale(res: &[iim::Resource]) -> bool {
    let Some(data) = res.iter().find(|r| r.id == iim::RES_IPTC).map(|r| &r.data) else {
        return false;
    };
    res.iter()
        .find(|r| r.id == iim::RES_DIGEST)
        .is_some_and(|d| {
            d.data.len() == 16 && d.data != [0; 16] && d.data[..] != Md5::digest(data)[..]
        })
}

/// Assembles the extended XMP with this GUID from its chunks.
fn assemble_extended(
    segments: &[jpeg::MetaSegment],
    guid: &str,
) -> Result<Option<Vec<u8>>, String> {
    const MAX_EXTENDED: usize = 16 << 20;
    let mut full_len = None;
    let mut chunks = Vec::new();
    for s in segments.iter().filter(|s| s.kind == jpeg::Kind::XmpExt) {
        let p = &s.payload;
        if p.len() < 40 || &p[..32] != guid.as_bytes() {
            continue;
        }
        let len = u32::from_be_bytes([p[32], p[33], p[34], p[35]]) as usize;
        let off = u32::from_be_bytes([p[36], p[37], p[38], p[39]]) as usize;
        if *full_len.get_or_insert(len) != len {
            return Err("extended XMP chunks disagree on the full length".into());
        }
        chunks.push((off, &p[40..]));
    }
    let Some(len) = full_len else { return Ok(None) };
    let held: usize = chunks.iter().map(|c| c.1.len()).sum();
    if len > MAX_EXTENDED || held < len {
        return Err(format!(
            "extended XMP incomplete or too big: {held} of {len} bytes present"
        ));
    }
    let mut buf = vec![0u8; len];
    let mut covered = vec![false; len];
    for (off, data) in chunks {
        let end = off.checked_add(data.len()).filter(|&e| e <= len);
        let Some(end) = end else {
            return Err(format!(
                "extended XMP chunk at offset {off} runs past its length {len}"
            ));
        };
        buf[off..end].copy_from_slice(data);
        covered[off..end].fill(true);
    }
    if covered.contains(&false) {
        return Err("extended XMP has gaps between its chunks".into());
    }
    Ok(Some(buf))
}

/// Fields from `first`, or from `second` where `first` has none.
fn merge(first: &PhotoMetadata, second: &PhotoMetadata) -> PhotoMetadata {
    let o = |a: &Option<String>, b: &Option<String>| a.clone().or_else(|| b.clone());
    let v = |a: &Vec<String>, b: &Vec<String>| if a.is_empty() { b.clone() } else { a.clone() };
    PhotoMetadata {
        description: o(&first.description, &second.description),
        creators: v(&first.creators, &second.creators),
        credit_line: o(&first.credit_line, &second.credit_line),
        source: o(&first.source, &second.source),
        date_created: o(&first.date_created, &second.date_created),
        sublocation: o(&first.sublocation, &second.sublocation),
        city: o(&first.city, &second.city),
        province_state: o(&first.province_state, &second.province_state),
        country: o(&first.country, &second.country),
        country_code: o(&first.country_code, &second.country_code),
        persons_shown: v(&first.persons_shown, &second.persons_shown),
        organisations: v(&first.organisations, &second.organisations),
        gps: first.gps.or(second.gps),
    }
}

/// How one field maps to IIM and XMP.
struct Mapping {
    field: Field,
    iim: Option<u8>,
    xmp: (&'static str, &'static str),
}

const MAPPINGS: [Mapping; 12] = [
    Mapping {
        field: Field::Creators,
        iim: Some(80),
        xmp: (xmp::NS_DC, "creator"),
    },
    Mapping {
        field: Field::CreditLine,
        iim: Some(110),
        xmp: (xmp::NS_PS, "Credit"),
    },
    Mapping {
        field: Field::Source,
        iim: Some(115),
        xmp: (xmp::NS_PS, "Source"),
    },
    Mapping {
        field: Field::DateCreated,
        iim: Some(55),
        xmp: (xmp::NS_PS, "DateCreated"),
    },
    Mapping {
        field: Field::Sublocation,
        iim: Some(92),
        xmp: (xmp::NS_CORE, "Location"),
    },
    Mapping {
        field: Field::City,
        iim: Some(90),
        xmp: (xmp::NS_PS, "City"),
    },
    Mapping {
        field: Field::ProvinceState,
        iim: Some(95),
        xmp: (xmp::NS_PS, "State"),
    },
    Mapping {
        field: Field::Country,
        iim: Some(101),
        xmp: (xmp::NS_PS, "Country"),
    },
    Mapping {
        field: Field::CountryCode,
        iim: Some(100),
        xmp: (xmp::NS_CORE, "CountryCode"),
    },
    Mapping {
        field: Field::PersonsShown,
        iim: None,
        xmp: (xmp::NS_EXT, "PersonInImage"),
    },
    Mapping {
        field: Field::Organisations,
        iim: None,
        xmp: (xmp::NS_EXT, "OrganisationInImageName"),
    },
    Mapping {
        field: Field::Gps,
        iim: None,
        xmp: (xmp::NS_EXT, "LocationShown"),
    },
];

/// The values of a field: none when not given.
fn values_of(m: &PhotoMetadata, f: Field) -> Vec<String> {
    // Control characters (other than tab and line breaks) are dropped: XML cannot hold them.
    let clean = |s: &str| -> Option<String> {
        let s: String = s.chars().filter(|&c| xmp::xml_char(c)).collect();
        let s = s.trim();
        (!s.is_empty()).then(|| s.to_owned())
    };
    let one = |o: &Option<String>| o.as_deref().and_then(clean).into_iter().collect();
    let many = |v: &Vec<String>| v.iter().filter_map(|s| clean(s)).collect();
    match f {
        Field::Description => one(&m.description),
        Field::Creators => many(&m.creators),
        Field::CreditLine => one(&m.credit_line),
        Field::Source => one(&m.source),
        Field::DateCreated => one(&m.date_created),
        Field::Sublocation => one(&m.sublocation),
        Field::City => one(&m.city),
        Field::ProvinceState => one(&m.province_state),
        Field::Country => one(&m.country),
        Field::CountryCode => one(&m.country_code),
        Field::PersonsShown => many(&m.persons_shown),
        Field::Organisations => many(&m.organisations),
        Field::Gps => m.gps.map(|(a, b)| format!("{a},{b}")).into_iter().collect(),
    }
}

/// XMP properties for the given fields, `location` giving the final location fields.
fn xmp_props(
    fields: &[(Field, Vec<String>)],
    gps: Option<(f64, f64)>,
    location: &PhotoMetadata,
) -> Vec<xmp::NewProp> {
    let mut out = Vec::new();
    for (f, vals) in fields {
        let Some(m) = MAPPINGS.iter().find(|m| m.field == *f) else {
            if *f == Field::Description {
                out.push(xmp::NewProp::LangAlt(
                    xmp::NS_DC,
                    "description",
                    vals[0].clone(),
                ));
            }
            continue;
        };
        let (ns, local) = m.xmp;
        out.push(match f {
            Field::Creators => xmp::NewProp::Array(ns, local, "Seq", vals.clone()),
            Field::PersonsShown | Field::Organisations => {
                xmp::NewProp::Array(ns, local, "Bag", vals.clone())
            }
            Field::Gps => {
                let loc = [
                    ("Sublocation", &location.sublocation),
                    ("City", &location.city),
                    ("ProvinceState", &location.province_state),
                    ("CountryName", &location.country),
                    ("CountryCode", &location.country_code),
                ];
                let loc = loc
                    .iter()
                    .filter_map(|(l, v)| Some((*l, (*v).clone()?)))
                    .collect();
                xmp::NewProp::LocationShown(loc, gps)
            }
            _ => xmp::NewProp::Text(ns, local, vals[0].clone()),
        });
    }
    out
}

/// Checks the values given to write.
fn validate(fields: &PhotoMetadata) -> Result<(), Error> {
    if let Some(d) = values_of(fields, Field::DateCreated).first() {
        if iim::iso_to_iim_date(d).is_none() {
            return Err(Error::InvalidValue {
                field: Field::DateCreated,
                reason: format!("{d:?} is not an ISO 8601 date (YYYY, YYYY-MM or YYYY-MM-DD)"),
            });
        }
    }
    if let Some((lat, lon)) = fields.gps {
        if !(lat.is_finite() && lon.is_finite() && lat.abs() <= 90.0 && lon.abs() <= 180.0) {
            return Err(Error::InvalidValue {
                field: Field::Gps,
                reason: format!("({lat}, {lon}) is not a latitude and longitude"),
            });
        }
    }
    Ok(())
}

/// Writes the given fields into a JPEG's IPTC-IIM and XMP (see the crate docs).
///
/// Returns the new file and what was written. Everything from the SOS
/// marker on, and every segment that is not changed, is copied byte for byte.
pub fn write_jpeg(
    original: &[u8],
    fields: &PhotoMetadata,
    overwrite: bool,
) -> Result<(Vec<u8>, WriteReport), Error> {
    validate(fields)?;
    let layout = jpeg::layout(original)?;
    let seg = |s: &jpeg::Span| &original[s.data_start..s.end];
    let kind = |s: &jpeg::Span| jpeg::kind(s.marker, seg(s));

    // Existing metadata, strictly: what cannot be parsed cannot be preserved.
    // XMP under a non-standard APP1 header (`XMP\0://ns.adobe.com/...`),
    // which readers (ExifTool, and `read_jpeg`) take as XMP, is folded into
    // the one standard packet written, in document order as `read_jpeg`
    // merges it, and its segment is dropped: left beside the new packet, its
    // old values would be read back instead of the ones written. One that
    // does not parse is no XMP to readers either and is copied as it is.
    let mut docs = Vec::new();
    let mut folded = Vec::new();
    for s in &layout.segments {
        match kind(s) {
            jpeg::Kind::Xmp => docs.push(xmp::parse(&seg(s)[jpeg::XMP_SIG.len()..])?),
            jpeg::Kind::XmpNonStandard => {
                if let Ok(doc) = xmp::parse(seg(s)) {
                    docs.push(doc);
                    folded.push(s.start);
                }
            }
            _ => {}
        }
    }
    let had_xmp = !docs.is_empty();
    let mut props: Vec<_> = docs.iter().flat_map(|d| xmp::properties(d)).collect();
    if let Some(guid) = xmp::extended_guid(&props) {
        let mut ext_segments = Vec::new();
        for s in layout
            .segments
            .iter()
            .filter(|s| kind(s) == jpeg::Kind::XmpExt)
        {
            ext_segments.push(jpeg::MetaSegment {
                kind: jpeg::Kind::XmpExt,
                offset: s.start as u64,
                payload: seg(s)[jpeg::XMP_EXT_SIG.len()..].to_vec(),
            });
        }
        if let Ok(Some(packet)) = assemble_extended(&ext_segments, &guid) {
            if let Ok(doc) = xmp::parse(&packet) {
                props.extend(xmp::properties(&doc));
            }
        }
    }
    let old_xmp = xmp::to_metadata(&props);
    let ps: Vec<u8> = layout
        .segments
        .iter()
        .filter(|s| kind(s) == jpeg::Kind::Photoshop)
        .flat_map(|s| seg(s)[jpeg::PS_SIG.len()..].iter().copied())
        .collect();
    let had_ps = layout
        .segments
        .iter()
        .any(|s| kind(s) == jpeg::Kind::Photoshop);
    let (mut resources, err) = iim::parse_resources(&ps);
    if let Some(e) = err {
        return Err(Error::Photoshop(e));
    }
    let old_sets = match resources.iter().find(|r| r.id == iim::RES_IPTC) {
        Some(r) => {
            let (sets, err) = iim::parse_datasets(&r.data);
            if let Some(e) = err {
                return Err(Error::Iim(e));
            }
            sets
        }
        None => Vec::new(),
    };
    let old_iim = iim::to_metadata(&old_sets);
    let stale = digest_is_stale(&resources);

    // Decide field by field.
    let mut report = WriteReport::default();
    let mut chosen: Vec<(Field, Vec<String>)> = Vec::new();
    let mut gps_into_existing = None;
    for m in &MAPPINGS {
        let vals = values_of(fields, m.field);
        if vals.is_empty() {
            continue;
        }
        let filled = if m.field == Field::Gps {
            xmp::has(&props, m.xmp.0, m.xmp.1)
        } else {
            !values_of(&old_xmp, m.field).is_empty() || !values_of(&old_iim, m.field).is_empty()
        };
        if filled && !overwrite {
            if m.field == Field::Gps && old_xmp.gps.is_none() {
                // A location shown without GPS: the GPS is added to it below.
                gps_into_existing = fields.gps;
                continue;
            }
            report.kept.push(m.field);
        } else {
            report.written.push(m.field);
            chosen.push((m.field, vals));
        }
    }
    if chosen.is_empty() && gps_into_existing.is_none() {
        return Ok((original.to_vec(), report));
    }

    // The location fields as they will be after writing, for LocationShown.
    let mut location = if stale {
        merge(&old_iim, &old_xmp)
    } else {
        merge(&old_xmp, &old_iim)
    };
    for (f, vals) in &chosen {
        let v = Some(vals[0].clone());
        match f {
            Field::Sublocation => location.sublocation = v,
            Field::City => location.city = v,
            Field::ProvinceState => location.province_state = v,
            Field::Country => location.country = v,
            Field::CountryCode => location.country_code = v,
            _ => {}
        }
    }

    // IIM.
    let mut new_sets: Vec<(u8, Vec<String>)> = Vec::new();
    for (f, vals) in &chosen {
        let Some(number) = MAPPINGS.iter().find(|m| m.field == *f).and_then(|m| m.iim) else {
            continue;
        };
        let vals: Vec<String> = match f {
            Field::DateCreated => vals
                .iter()
                .filter_map(|d| iim::iso_to_iim_date(d))
                .collect(),
            Field::CountryCode => {
                let code = &vals[0];
                if code.len() == 3 && code.bytes().all(|b| b.is_ascii_alphabetic()) {
                    vec![code.clone()]
                } else if let Some(a3) = iso3166::alpha3(code) {
                    report.notes.push(format!(
                        "country code {code:?} written to IIM 2:100 as {a3:?} (IIM holds ISO 3166 alpha-3)"
                    ));
                    vec![a3.to_owned()]
                } else {
                    report.notes.push(format!(
                        "country code {code:?} written to XMP only: IIM 2:100 holds a three-letter (ISO 3166 alpha-3) code"
                    ));
                    continue;
                }
            }
            _ => vals
                .iter()
                .map(|v| {
                    let cut = iim::truncate(v, iim::max_len(number));
                    if cut.len() < v.len() {
                        report.notes.push(format!(
                            "{f:?} cut to {} bytes in IIM (2:{number}); XMP has the full value",
                            iim::max_len(number)
                        ));
                    }
                    cut.to_owned()
                })
                .collect(),
        };
        new_sets.push((number, vals));
    }
    let new_ps = if new_sets.is_empty() {
        None
    } else {
        // The digest is brought up to date when it matched (or was missing), as
        // ExifTool does; a stale one stays stale, so readers keep preferring
        // the IIM values that were edited behind XMP's back.
        let data = iim::encode_datasets(&iim::rewrite(&old_sets, &new_sets));
        let digest = Md5::digest(&data).to_vec();
        set_resource(&mut resources, iim::RES_IPTC, data);
        if stale {
            report.notes.push(
                "IPTC digest left stale: IIM had been edited without XMP, so IIM still wins for \
                 readers that follow the MWG rule"
                    .into(),
            );
        } else {
            set_resource(&mut resources, iim::RES_DIGEST, digest);
        }
        Some(iim::encode_resources(&resources))
    };

    // XMP.
    let remove: Vec<(&str, &str)> = chosen
        .iter()
        .filter_map(|(f, _)| MAPPINGS.iter().find(|m| m.field == *f))
        .map(|m| m.xmp)
        .collect();
    let mut doc = xmp::merge_docs(docs);
    xmp::apply(
        &mut doc,
        &remove,
        &xmp_props(&chosen, fields.gps, &location),
    );
    if let Some(gps) = gps_into_existing {
        if xmp::add_gps_to_location(&mut doc, gps) {
            report.written.push(Field::Gps);
        } else {
            report.kept.push(Field::Gps);
            report.notes.push(
                "GPS not written: the image has a location shown in a form this crate \
                 does not extend (overwrite replaces it)"
                    .into(),
            );
        }
    }
    let max = jpeg::MAX_SEGMENT_DATA - jpeg::XMP_SIG.len();
    let size = xmp::serialize(&doc, 0).len();
    if size > max {
        return Err(Error::XmpTooLarge { size, max });
    }
    let packet = xmp::serialize(&doc, (max - size).min(2048));

    // Assemble: new segments where the old ones were, or after the leading APPn segments.
    let segs = &layout.segments;
    let lead_app01 = segs
        .iter()
        .take_while(|s| matches!(s.marker, 0xE0 | 0xE1))
        .count();
    let lead_app = segs
        .iter()
        .take_while(|s| (0xE0..=0xEF).contains(&s.marker))
        .count();
    let mut out = Vec::with_capacity(original.len() + packet.len() + 1024);
    out.extend_from_slice(&original[..2]);
    let (mut xmp_done, mut ps_done) = (false, new_ps.is_none());
    let emit_xmp = |out: &mut Vec<u8>| {
        jpeg::push_segment(out, jpeg::APP1, &[jpeg::XMP_SIG, packet.as_bytes()])
    };
    let emit_ps = |out: &mut Vec<u8>| {
        if let Some(ps) = &new_ps {
            for chunk in ps.chunks(jpeg::MAX_SEGMENT_DATA - jpeg::PS_SIG.len()) {
                jpeg::push_segment(out, jpeg::APP13, &[jpeg::PS_SIG, chunk]);
            }
        }
    };
    for (i, s) in segs.iter().enumerate() {
        if !had_xmp && !xmp_done && i == lead_app01 {
            emit_xmp(&mut out);
            xmp_done = true;
        }
        if !had_ps && !ps_done && i == lead_app {
            emit_ps(&mut out);
            ps_done = true;
        }
        match kind(s) {
            jpeg::Kind::Xmp => {
                if !xmp_done {
                    emit_xmp(&mut out);
                    xmp_done = true;
                }
            }
            jpeg::Kind::XmpNonStandard if folded.contains(&s.start) => {
                if !xmp_done {
                    emit_xmp(&mut out);
                    xmp_done = true;
                }
            }
            jpeg::Kind::Photoshop if new_ps.is_some() => {
                if !ps_done {
                    emit_ps(&mut out);
                    ps_done = true;
                }
            }
            _ => out.extend_from_slice(&original[s.start..s.end]),
        }
    }
    if !xmp_done {
        emit_xmp(&mut out);
    }
    if !ps_done {
        emit_ps(&mut out);
    }
    out.extend_from_slice(&original[layout.scan_start..]);
    Ok((out, report))
}

/// Replaces the first resource with this id (dropping any others), or appends one.
fn set_resource(res: &mut Vec<iim::Resource>, id: u16, data: Vec<u8>) {
    match res.iter().position(|r| r.id == id) {
        Some(i) => {
            res[i].data = data;
            let mut seen = false;
            res.retain(|r| r.id != id || !std::mem::replace(&mut seen, true));
        }
        None => res.push(iim::Resource {
            sig: *b"8BIM",
            id,
            name: Vec::new(),
            data,
        }),
    }
}

/// A standalone XMP sidecar packet with the given fields (all of them, description included).
pub fn xmp_sidecar(fields: &PhotoMetadata) -> String {
    let mut chosen = Vec::new();
    let desc = values_of(fields, Field::Description);
    if !desc.is_empty() {
        chosen.push((Field::Description, desc));
    }
    for m in &MAPPINGS {
        let vals = values_of(fields, m.field);
        let bad_gps = m.field == Field::Gps && validate(fields).is_err();
        if !vals.is_empty() && !bad_gps {
            chosen.push((m.field, vals));
        }
    }
    let mut doc = xmp::merge_docs(Vec::new());
    xmp::apply(&mut doc, &[], &xmp_props(&chosen, fields.gps, fields));
    xmp::serialize(&doc, 0)
}

/// Writes `bytes` to `path` safely: a temporary file in the same directory,
/// flushed to disk, then renamed over `path` (so readers see the old file or
/// the new one, never half of it).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.photometa-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG with no image to speak of: SOI, SOS, EOI.
    const TINY: &[u8] = &[0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x00, 0xFF, 0xD9];

    #[test]
    fn xmp_wins_unless_the_digest_says_iim_changed() {
        let fields = PhotoMetadata {
            city: Some("Idlib".into()),
            ..Default::default()
        };
        let (out, _) = write_jpeg(TINY, &fields, false).unwrap();
        let m = read_jpeg(&out[..]).unwrap();
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
        // Edit the IIM city behind XMP's back, as a tool unaware of the digest would.
        let needle = b"\x1c\x02\x5a\x00\x05Idlib";
        let at = out.windows(needle.len()).position(|w| w == needle).unwrap();
        let mut edited = out.clone();
        edited[at + 5..at + 10].copy_from_slice(b"Hamah");
        let m = read_jpeg(&edited[..]).unwrap();
        assert_eq!(m.xmp.city.as_deref(), Some("Idlib"));
        assert_eq!(m.merged.city.as_deref(), Some("Hamah"));
        assert!(m.warnings[0].contains("digest"), "{:?}", m.warnings);
        // Writing keeps the stale digest, so the edited IIM still wins.
        let more = PhotoMetadata {
            source: Some("AFP".into()),
            ..Default::default()
        };
        let (written, report) = write_jpeg(&edited, &more, false).unwrap();
        assert!(
            report.notes.iter().any(|n| n.contains("stale")),
            "{report:?}"
        );
        assert_eq!(
            read_jpeg(&written[..]).unwrap().merged.city.as_deref(),
            Some("Hamah")
        );
        // Without a digest, XMP wins.
        let digest = b"8BIM\x04\x25";
        let at = edited.windows(6).position(|w| w == digest).unwrap();
        edited[at + 5] = 0x26;
        assert_eq!(
            read_jpeg(&edited[..]).unwrap().merged.city.as_deref(),
            Some("Idlib")
        );
    }

    #[test]
    fn other_segments_and_image_data_are_copied_byte_for_byte() {
        let seg = |marker: u8, data: &[u8]| {
            let mut v = vec![0xFF, marker];
            v.extend_from_slice(&u16::try_from(data.len() + 2).unwrap().to_be_bytes());
            v.extend_from_slice(data);
            v
        };
        let exif = seg(0xE1, b"Exif\0\0MM\0\x2a\0\0\0\x08\0\0");
        let icc = seg(0xE2, b"ICC_PROFILE\0\x01\x01not really a profile");
        let com = seg(0xFE, b"a comment");
        let old_iim = seg(0xED, b"Adobe_Photoshop2.5:old style");
        let scan = [
            0xFF, 0xDA, 0x00, 0x02, 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD9, b't', b'r', b'a', b'i',
            b'l',
        ];
        let original = [&[0xFF, 0xD8][..], &exif, &icc, &com, &old_iim, &scan].concat();
        let fields = PhotoMetadata {
            city: Some("Idlib".into()),
            ..Default::default()
        };
        let (out, _) = write_jpeg(&original, &fields, false).unwrap();
        assert!(out.ends_with(&scan));
        let layout = jpeg::layout(&out).unwrap();
        let kept: Vec<&[u8]> = layout
            .segments
            .iter()
            .filter(|s| jpeg::kind(s.marker, &out[s.data_start..s.end]) == jpeg::Kind::Other)
            .map(|s| &out[s.start..s.end])
            .collect();
        assert_eq!(kept, [&exif[..], &icc, &com, &old_iim]);
        // The XMP goes after EXIF, the IIM after the leading APPn segments.
        let markers: Vec<u8> = layout.segments.iter().map(|s| s.marker).collect();
        assert_eq!(markers, [0xE1, 0xE1, 0xE2, 0xED, 0xFE, 0xED]);
    }

    #[test]
    fn nothing_written_twice_and_report_is_exact() {
        let fields = PhotoMetadata {
            description: Some("not written".into()),
            source: Some("AFP".into()),
            creators: vec![" ".into()],
            ..Default::default()
        };
        let (out, report) = write_jpeg(TINY, &fields, false).unwrap();
        assert_eq!(report.written, [Field::Source]);
        let m = read_jpeg(&out[..]).unwrap();
        assert_eq!(m.merged.description, None);
        assert!(m.merged.creators.is_empty());
        let (again, report) = write_jpeg(&out, &fields, false).unwrap();
        assert_eq!(report.kept, [Field::Source]);
        assert_eq!(again, out, "nothing to write leaves the file as it was");
        let (over, report) = write_jpeg(&out, &fields, true).unwrap();
        assert_eq!(report.written, [Field::Source]);
        assert_eq!(read_jpeg(&over[..]).unwrap().merged, m.merged);
    }
}
