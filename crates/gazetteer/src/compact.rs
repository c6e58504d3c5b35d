//! The compact gazetteer file: a checksummed, versioned byte format holding
//! countries, admin1 divisions, places, and the name index: folded names with
//! their places and the key tables over them.
//!
//! Layout (all integers little endian; `varint` is unsigned LEB128, `zigzag`
//! a signed varint, `str` a varint length and UTF-8 bytes):
//!
//! ```text
//! header   magic "DLGAZTR\0", u32 version, u32 flags (0),
//!          u64 payload length, u64 xxh3-64 of the payload
//! payload  countries  varint n, then n × (2 bytes code, varint id, str name)
//!          admin1     varint n, then n × (str code, str name, varint id+1 or 0,
//!                     varint n_aliases, n_aliases × str)
//!          codes      varint n, then n × str: the admin1 codes places use
//!          places     varint n, then n × (varint id − previous id,
//!                     zigzag lat − previous lat, zigzag lon − previous lon
//!                     (both in 1e-5 degrees), varint population,
//!                     2 bytes country, varint code index+1 or 0, str name)
//!          names      strings: the folded names
//!                     runs over the places: the places of each name
//!                     hashes of the names
//!          strict     strings: the strict keys
//!                     hashes of the strict keys
//!                     runs over the places: the places of each strict key
//!          skeleton   varint n, hashes of n skeletons
//!                     runs over the strict keys: the strict keys of each
//! where
//!   strings  varint n, n × varint length, then the n strings end to end
//!   runs     per item, varint length ≥ 1, varint first index, then varint
//!            gaps (≥ 1) to the next indexes
//!   hashes   per item, u32: the top bits of its key's xxh3-64 (seeded with
//!            the table), ascending
//! ```
//!
//! The name index is stored as [`NameIndex::build`] derives it, so that
//! loading is reading arrays (the two string blocks are used in place when
//! the data is embedded) rather than computing keys; a test checks that the
//! embedded tables are what the key functions give (see `index.rs`).
//! Everything has one order (places by id, codes bytewise, names and keys by
//! hash, then bytewise), so the same gazetteer always encodes to the same
//! bytes. Decoding checks the checksum and every count, index and order, and
//! returns [`Error::BadCompactData`] rather than panicking on damaged input;
//! it does not recompute the keys, so damage that keeps the checksum and the
//! structure valid gives wrong lookups, never a panic.

use crate::builder::{assemble, Parts};
use crate::index::{HashIndex, NameIndex, Runs};
use crate::{Admin1, Country, CountryCode, Error, Gazetteer, Place};
use std::borrow::Cow;
use xxhash_rust::xxh3::xxh3_64;

const MAGIC: &[u8; 8] = b"DLGAZTR\0";
/// Format version this library reads and writes.
pub(crate) const VERSION: u32 = 2;
const HEADER_LEN: usize = 32;
/// Coordinates are stored in units of 1e-5 degrees (about a metre), as
/// precise as GeoNames gives them.
const COORD_UNITS_PER_DEGREE: f64 = 1e5;

/// Encodes a gazetteer; deterministic.
pub(crate) fn encode(g: &Gazetteer) -> Vec<u8> {
    let mut w = Writer::default();
    w.varint(g.countries.len() as u64);
    for c in &g.countries {
        w.bytes(&c.code.0);
        w.varint(u64::from(c.id));
        w.str(&c.name);
    }
    w.varint(g.admin1.len() as u64);
    for (a, aliases) in g.admin1.iter().zip(&g.admin1_aliases) {
        w.str(&a.code);
        w.str(&a.name);
        w.varint(a.id.map_or(0, |id| u64::from(id) + 1));
        w.varint(aliases.len() as u64);
        for alias in aliases {
            w.str(alias);
        }
    }
    let mut codes: Vec<&str> = g
        .places
        .iter()
        .filter_map(|p| p.admin1_code.as_deref())
        .collect();
    codes.sort_unstable();
    codes.dedup();
    w.varint(codes.len() as u64);
    for code in &codes {
        w.str(code);
    }
    w.varint(g.places.len() as u64);
    let (mut previous_id, mut previous_lat, mut previous_lon) = (0u32, 0i64, 0i64);
    for p in &g.places {
        let lat = to_units(p.latitude);
        let lon = to_units(p.longitude);
        w.varint(u64::from(p.id - previous_id));
        w.zigzag(lat - previous_lat);
        w.zigzag(lon - previous_lon);
        (previous_id, previous_lat, previous_lon) = (p.id, lat, lon);
        w.varint(u64::from(p.population));
        w.bytes(&p.country.0);
        let code_idx = p
            .admin1_code
            .as_deref()
            .and_then(|c| codes.binary_search(&c).ok());
        w.varint(code_idx.map_or(0, |i| i as u64 + 1));
        w.str(&p.name);
    }
    let names = &g.names;
    w.strings(&names.names);
    w.runs(&names.name_places);
    w.hashes(&names.folded);
    w.strings(&names.strict_keys);
    w.hashes(&names.strict);
    w.runs(&names.strict_places);
    w.varint(names.skeleton.len() as u64);
    w.hashes(&names.skeleton);
    w.runs(&names.skeleton_keys);
    let payload = w.out;
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&xxh3_64(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Degrees to stored units, clamped so that differences cannot overflow.
fn to_units(degrees: f64) -> i64 {
    const LIMIT: f64 = 1e12;
    let units = (degrees * COORD_UNITS_PER_DEGREE).round();
    if units.is_finite() {
        units.clamp(-LIMIT, LIMIT) as i64
    } else {
        0
    }
}

/// What a decoder does with the strings and blocks of bytes it keeps: copies
/// them, or (when the data lives as long as the program) borrows them.
trait Keep<'a> {
    fn keep<T: ?Sized + ToOwned + 'static>(&self, data: &'a T) -> Cow<'static, T>;
}

struct Copying;

impl<'a> Keep<'a> for Copying {
    fn keep<T: ?Sized + ToOwned + 'static>(&self, data: &'a T) -> Cow<'static, T> {
        Cow::Owned(data.to_owned())
    }
}

struct Borrowing;

impl Keep<'static> for Borrowing {
    fn keep<T: ?Sized + ToOwned + 'static>(&self, data: &'static T) -> Cow<'static, T> {
        Cow::Borrowed(data)
    }
}

/// Decodes and validates compact data, copying what it keeps.
pub(crate) fn decode(bytes: &[u8]) -> Result<Gazetteer, Error> {
    decode_with(bytes, &Copying)
}

/// Decodes and validates data that lives as long as the program (the
/// embedded file), using its strings in place rather than copying them:
/// half a million allocations fewer at start-up.
pub(crate) fn decode_static(bytes: &'static [u8]) -> Result<Gazetteer, Error> {
    decode_with(bytes, &Borrowing)
}

fn decode_with<'a>(bytes: &'a [u8], keep: &impl Keep<'a>) -> Result<Gazetteer, Error> {
    let bad = |offset: usize, what: String| Error::BadCompactData { offset, what };
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err(bad(
            0,
            "expected the magic bytes `DLGAZTR\\0`, found other data".into(),
        ));
    }
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let u64_at = |at: usize| u64::from(u32_at(at)) | (u64::from(u32_at(at + 4)) << 32);
    let version = u32_at(8);
    if version != VERSION {
        return Err(Error::CompactVersion {
            found: version,
            supported: VERSION,
        });
    }
    let payload = &bytes[HEADER_LEN..];
    if u64_at(16) != payload.len() as u64 {
        return Err(bad(
            16,
            format!(
                "expected a payload of {} bytes, found {}",
                u64_at(16),
                payload.len()
            ),
        ));
    }
    if u64_at(24) != xxh3_64(payload) {
        return Err(bad(24, "checksum mismatch: the data is damaged".into()));
    }
    let mut r = Reader {
        bytes: payload,
        pos: 0,
    };

    let n = r.count("countries")?;
    let mut countries = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        let code = r.country_code()?;
        let id = r.u32("country id")?;
        let name = r.string("country name")?;
        if countries.last().is_some_and(|c: &Country| c.code >= code) {
            return Err(r.bad_at(at, format!("countries out of order at {code}")));
        }
        countries.push(Country { code, name, id });
    }

    let n = r.count("admin1 divisions")?;
    let mut admin1 = Vec::with_capacity(n);
    let mut admin1_aliases = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        let code = r.string("admin1 code")?;
        let Some(country) = code.get(..2).and_then(CountryCode::new) else {
            return Err(r.bad_at(
                at,
                format!("expected an admin1 code `CC.NN`, found {code:?}"),
            ));
        };
        if admin1.last().is_some_and(|a: &Admin1| a.code >= code) {
            return Err(r.bad_at(at, format!("admin1 codes out of order at {code:?}")));
        }
        let name = r.string("admin1 name")?;
        let id = match r.u32("admin1 id")? {
            0 => None,
            id => Some(id - 1),
        };
        let n_aliases = r.count("admin1 aliases")?;
        let mut aliases = Vec::with_capacity(n_aliases);
        for _ in 0..n_aliases {
            aliases.push(r.string("admin1 alias")?);
        }
        admin1.push(Admin1 {
            code,
            name,
            country,
            id,
        });
        admin1_aliases.push(aliases);
    }

    let n = r.count("admin1 codes")?;
    let mut codes: Vec<&str> = Vec::with_capacity(n);
    for _ in 0..n {
        codes.push(r.str("admin1 code")?);
    }

    let n_places = r.count("places")?;
    let mut places = Vec::with_capacity(n_places);
    let (mut id, mut lat, mut lon) = (0u32, 0i64, 0i64);
    for i in 0..n_places {
        let at = r.offset();
        let delta = r.u32("place id")?;
        if i > 0 && delta == 0 {
            return Err(r.bad_at(at, format!("place ids out of order after {id}")));
        }
        id = id
            .checked_add(delta)
            .ok_or_else(|| r.bad_at(at, "place id overflows 32 bits".into()))?;
        lat = lat.saturating_add(r.zigzag("latitude")?);
        lon = lon.saturating_add(r.zigzag("longitude")?);
        let population = r.u32("population")?;
        let country = r.country_code()?;
        let at = r.offset();
        let admin1_code = match r.varint("admin1 code index")? {
            0 => None,
            i => Some(keep.keep(*codes.get(i as usize - 1).ok_or_else(|| {
                r.bad_at(at, format!("admin1 code index {i} of {}", codes.len()))
            })?)),
        };
        let name = keep.keep(r.str("place name")?);
        places.push(Place {
            id,
            name,
            latitude: lat as f64 / COORD_UNITS_PER_DEGREE,
            longitude: lon as f64 / COORD_UNITS_PER_DEGREE,
            country,
            admin1_code,
            population,
        });
    }

    let names = r.strings("names", keep)?;
    let name_places = r.runs(names.len(), n_places, "places of a name")?;
    let folded = r.hashes(names.len(), "name hashes")?;
    let strict_keys = r.strings("strict keys", keep)?;
    let strict = r.hashes(strict_keys.len(), "strict key hashes")?;
    let strict_places = r.runs(strict_keys.len(), n_places, "places of a strict key")?;
    let n_skeletons = r.count("skeletons")?;
    let skeleton = r.hashes(n_skeletons, "skeleton hashes")?;
    let skeleton_keys = r.runs(n_skeletons, strict_keys.len(), "strict keys of a skeleton")?;
    if r.pos != payload.len() {
        return Err(r.bad_at(
            r.pos,
            format!("{} bytes after the last section", payload.len() - r.pos),
        ));
    }
    Ok(assemble(Parts {
        places,
        admin1,
        admin1_aliases,
        countries,
        names: NameIndex {
            names,
            name_places,
            folded,
            strict_keys,
            strict,
            strict_places,
            skeleton,
            skeleton_keys,
        },
    }))
}

#[derive(Default)]
struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn zigzag(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }

    fn len_bytes(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.bytes(b);
    }

    fn str(&mut self, s: &str) {
        self.len_bytes(s.as_bytes());
    }

    fn strings(&mut self, strings: &Runs<u8>) {
        self.varint(strings.len() as u64);
        for s in strings.iter() {
            self.varint(s.len() as u64);
        }
        for s in strings.iter() {
            self.bytes(s);
        }
    }

    fn runs(&mut self, runs: &Runs<u32>) {
        for run in runs.iter() {
            self.varint(run.len() as u64);
            let mut previous = 0;
            for (i, &index) in run.iter().enumerate() {
                self.varint(u64::from(if i == 0 { index } else { index - previous }));
                previous = index;
            }
        }
    }

    fn hashes(&mut self, index: &HashIndex) {
        for hash in &index.hashes {
            self.bytes(&hash.to_le_bytes());
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn offset(&self) -> usize {
        self.pos
    }

    /// An error at a payload offset, reported as a file offset.
    fn bad_at(&self, payload_offset: usize, what: String) -> Error {
        Error::BadCompactData {
            offset: HEADER_LEN + payload_offset,
            what,
        }
    }

    #[inline]
    fn varint(&mut self, what: &str) -> Result<u64, Error> {
        // Most numbers of the file (lengths, gaps) fit one byte: read them
        // without the loop, which is most of the decoding time otherwise.
        if let Some(&byte) = self.bytes.get(self.pos) {
            if byte < 0x80 {
                self.pos += 1;
                return Ok(u64::from(byte));
            }
        }
        self.long_varint(what)
    }

    fn long_varint(&mut self, what: &str) -> Result<u64, Error> {
        let start = self.pos;
        let mut value = 0u64;
        let mut shift = 0;
        while let Some(&byte) = self.bytes.get(self.pos) {
            self.pos += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
            if shift >= 64 {
                return Err(self.bad_at(
                    start,
                    format!("expected {what}, found a number longer than 64 bits"),
                ));
            }
        }
        Err(self.bad_at(start, format!("expected {what}, found the end of the data")))
    }

    fn u32(&mut self, what: &str) -> Result<u32, Error> {
        let start = self.pos;
        let v = self.varint(what)?;
        u32::try_from(v)
            .map_err(|_| self.bad_at(start, format!("expected {what}, found {v}, beyond 32 bits")))
    }

    fn zigzag(&mut self, what: &str) -> Result<i64, Error> {
        let v = self.varint(what)?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// A count of items that each take at least one byte: never more than the
    /// bytes left, so a damaged count cannot make us allocate wildly.
    fn count(&mut self, what: &str) -> Result<usize, Error> {
        let start = self.pos;
        let n = self.varint(what)?;
        let left = self.bytes.len() - self.pos;
        if n > left as u64 {
            return Err(self.bad_at(start, format!("{n} {what} in {left} bytes")));
        }
        Ok(n as usize)
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        let start = self.pos;
        match self.bytes.get(self.pos..self.pos.saturating_add(n)) {
            Some(b) => {
                self.pos += n;
                Ok(b)
            }
            None => Err(self.bad_at(
                start,
                format!("expected {n} bytes of {what}, found the end of the data"),
            )),
        }
    }

    fn len_bytes(&mut self, what: &str) -> Result<&'a [u8], Error> {
        let n = self.varint(what)?;
        self.take(usize::try_from(n).unwrap_or(usize::MAX), what)
    }

    fn str(&mut self, what: &str) -> Result<&'a str, Error> {
        let start = self.pos;
        let b = self.len_bytes(what)?;
        std::str::from_utf8(b).map_err(|_| self.bad_at(start, format!("{what} is not UTF-8")))
    }

    fn string(&mut self, what: &str) -> Result<String, Error> {
        self.str(what).map(String::from)
    }

    /// `strings` of the format.
    fn strings(&mut self, what: &str, keep: &impl Keep<'a>) -> Result<Runs<u8>, Error> {
        let n = self.count(what)?;
        let mut ends = Vec::with_capacity(n);
        let mut end = 0u32;
        for _ in 0..n {
            let at = self.pos;
            let len = self.u32(what)?;
            end = end
                .checked_add(len)
                .ok_or_else(|| self.bad_at(at, format!("{what} longer than 4 GB in all")))?;
            ends.push(end);
        }
        let bytes = self.take(end as usize, what)?;
        Ok(Runs {
            values: keep.keep(bytes),
            ends,
        })
    }

    /// `runs` of the format: `n` runs of indexes below `limit`.
    fn runs(&mut self, n: usize, limit: usize, what: &str) -> Result<Runs<u32>, Error> {
        let mut values = Vec::with_capacity(n);
        let mut ends = Vec::with_capacity(n);
        for _ in 0..n {
            let at = self.offset();
            let len = self.count(what)?;
            if len == 0 {
                return Err(self.bad_at(at, format!("{what}: none")));
            }
            let mut index = 0u32;
            for i in 0..len {
                let at = self.offset();
                let step = self.u32(what)?;
                if i > 0 && step == 0 {
                    return Err(self.bad_at(at, format!("{what}: out of order")));
                }
                index = index.saturating_add(step);
                if index as usize >= limit {
                    return Err(self.bad_at(at, format!("{what}: index {index} of {limit}")));
                }
                values.push(index);
            }
            ends.push(values.len() as u32);
        }
        Ok(Runs {
            values: Cow::Owned(values),
            ends,
        })
    }

    /// `hashes` of the format, for `n` keys.
    fn hashes(&mut self, n: usize, what: &str) -> Result<HashIndex, Error> {
        let at = self.offset();
        let bytes = self.take(n.saturating_mul(4), what)?;
        let hashes = bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        HashIndex::new(hashes).ok_or_else(|| self.bad_at(at, format!("{what} out of order")))
    }

    fn country_code(&mut self) -> Result<CountryCode, Error> {
        let start = self.pos;
        let b = self.take(2, "country code")?;
        std::str::from_utf8(b)
            .ok()
            .and_then(CountryCode::new)
            .filter(|c| c.0 == [b[0], b[1]])
            .ok_or_else(|| self.bad_at(start, format!("expected a country code, found {b:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlaceEntry;

    fn sample() -> Gazetteer {
        let mut b = Gazetteer::builder();
        b.country("SY", "Syria", 163843)
            .country("LB", "Lebanon", 272103);
        b.admin1("SY.04", "Ar-Raqqah", None)
            .admin1("LB.09", "Liban-Nord", Some(6201373));
        b.admin1_alias("LB.09", "Nord");
        for (id, name, lat, lon, cc, a1, pop, alts) in [
            (
                172955,
                "Ar Raqqah",
                35.95283,
                39.00788,
                "SY",
                Some("04"),
                531952,
                vec!["Raqqa", "Ракка", "alrqt"],
            ),
            (
                266826,
                "Tripoli",
                34.43667,
                35.84972,
                "LB",
                Some("09"),
                229398,
                vec!["Trablous"],
            ),
            (
                2210247,
                "Tripoli",
                32.88743,
                13.18733,
                "LY",
                Some("77"),
                1302947,
                vec!["Tarabulus"],
            ),
            (1, "Southpole", -90.0, -180.0, "AQ", None, 0, vec![]),
        ] {
            b.place(PlaceEntry {
                id,
                name: name.into(),
                latitude: lat,
                longitude: lon,
                country: cc.into(),
                admin1: a1.map(String::from),
                population: pop,
                alternate_names: alts.into_iter().map(String::from).collect(),
            });
        }
        b.build()
    }

    #[test]
    fn round_trip_is_exact_and_deterministic() {
        let g = sample();
        let bytes = encode(&g);
        let back = decode(&bytes).expect("decodes");
        assert_eq!(back.places, g.places);
        assert_eq!(back.admin1, g.admin1);
        assert_eq!(back.admin1_aliases, g.admin1_aliases);
        assert_eq!(back.countries, g.countries);
        assert_eq!(back.names, g.names);
        assert_eq!(encode(&back), bytes);
        assert_eq!(back.places_named("Trablous")[0].place.id, 266826);
        assert_eq!(back.admin1_named("Nord", None)[0].code, "LB.09");
    }

    /// The guarantee `index.rs` describes: the stored key tables are what the
    /// key functions derive from the stored names, so changing a key function
    /// without rebuilding the data (`cargo xtask gazetteer`) fails here.
    #[test]
    fn embedded_tables_are_what_the_key_functions_give() {
        let stored = decode(Gazetteer::embedded_data()).expect("the embedded data decodes");
        let stored = &stored.names;
        let names: Vec<(&str, &[u32])> = stored
            .names
            .iter()
            .zip(stored.name_places.iter())
            .map(|(name, places)| (std::str::from_utf8(name).expect("UTF-8 name"), places))
            .collect();
        let derived = NameIndex::build(names);
        let rebuild = "run `cargo xtask gazetteer` after changing a key function";
        assert!(derived.names == stored.names, "names differ: {rebuild}");
        assert!(
            derived.folded == stored.folded,
            "folded hashes differ: {rebuild}"
        );
        assert!(
            derived.strict_keys == stored.strict_keys,
            "strict keys differ: {rebuild}"
        );
        assert!(derived == *stored, "key tables differ: {rebuild}");
    }

    #[test]
    fn embedded_strings_are_used_in_place() {
        let g = decode_static(Gazetteer::embedded_data()).expect("the embedded data decodes");
        let borrowed = |s: &Cow<str>| matches!(s, Cow::Borrowed(_));
        assert!(g
            .places
            .iter()
            .all(|p| borrowed(&p.name) && p.admin1_code.as_ref().is_none_or(borrowed)));
        assert!(matches!(g.names.names.values, Cow::Borrowed(_)));
        assert!(matches!(g.names.strict_keys.values, Cow::Borrowed(_)));
    }

    #[test]
    fn empty_gazetteer_round_trips() {
        let g = Gazetteer::builder().build();
        let back = decode(&encode(&g)).expect("decodes");
        assert_eq!(back.n_places(), 0);
    }

    #[test]
    fn rejects_damage_without_panicking() {
        let bytes = encode(&sample());
        assert!(matches!(
            decode(&bytes[..10]),
            Err(Error::BadCompactData { .. })
        ));
        assert!(matches!(
            decode(b"not a gazetteer at all, not at all"),
            Err(Error::BadCompactData { .. })
        ));
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert!(matches!(
            decode(&other_version),
            Err(Error::CompactVersion {
                found: 9,
                supported: VERSION
            })
        ));
        for i in HEADER_LEN..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x55;
            assert!(
                decode(&damaged).is_err(),
                "flipping byte {i} went unnoticed"
            );
        }
        let truncated = &bytes[..bytes.len() - 1];
        assert!(decode(truncated).is_err());
    }

    /// Name tables that break the format's rules are refused even when the
    /// checksum is right.
    #[test]
    fn rejects_broken_name_tables() {
        type Damage = (&'static str, fn(&mut NameIndex));
        let damage: [Damage; 4] = [
            ("hashes out of order", |n| n.folded.hashes.reverse()),
            ("place index out of range", |n| {
                n.name_places.values.to_mut()[0] = 99;
            }),
            ("strict key index out of range", |n| {
                n.skeleton_keys.values.to_mut()[0] = u32::MAX;
            }),
            ("a place twice in a run", |n| {
                n.strict_places.values.to_mut().fill(0)
            }),
        ];
        for (what, damage) in damage {
            let mut g = sample();
            damage(&mut g.names);
            assert!(
                matches!(decode(&encode(&g)), Err(Error::BadCompactData { .. })),
                "{what} went unnoticed"
            );
        }
    }

    #[test]
    fn varints_round_trip_and_stop_at_64_bits() {
        let values = [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX];
        let mut w = Writer::default();
        for v in values {
            w.varint(v);
        }
        let mut r = Reader {
            bytes: &w.out,
            pos: 0,
        };
        for v in values {
            assert_eq!(r.varint("n").ok(), Some(v));
        }
        assert!(r.varint("n").is_err(), "read past the end");
        let too_long = [0xff; 11];
        let mut r = Reader {
            bytes: &too_long,
            pos: 0,
        };
        assert!(r.varint("n").is_err());
    }

    fn with_header(payload: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&xxh3_64(payload).to_le_bytes());
        bytes.extend_from_slice(payload);
        bytes
    }

    proptest::proptest! {
        /// Arbitrary edits of a valid payload, checksum fixed up: decoding
        /// returns, whatever it returns.
        #[test]
        fn decoding_edited_payloads_never_panics(
            edits in proptest::collection::vec((0usize..4096, proptest::num::u8::ANY), 1..6),
            cut in 0usize..4096,
        ) {
            let encoded = encode(&sample());
            let mut payload = encoded[HEADER_LEN..].to_vec();
            for (at, value) in edits {
                let at = at % payload.len();
                payload[at] = value;
            }
            payload.truncate(payload.len() - cut % 8);
            let _ = decode(&with_header(&payload));
        }

        #[test]
        fn decoding_random_payloads_never_panics(payload in proptest::collection::vec(proptest::num::u8::ANY, 0..256)) {
            let _ = decode(&with_header(&payload));
        }
    }

    /// With the checksum recomputed, damage reaches the structural checks,
    /// which must still refuse it or decode something, never panic.
    #[test]
    fn structural_checks_never_panic() {
        let bytes = encode(&sample());
        for i in HEADER_LEN..bytes.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[i] ^= flip;
                let checksum = xxh3_64(&damaged[HEADER_LEN..]);
                damaged[24..32].copy_from_slice(&checksum.to_le_bytes());
                let _ = decode(&damaged);
            }
        }
    }
}
