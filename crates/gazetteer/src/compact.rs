//! The compact gazetteer file: a checksummed, versioned byte format holding
//! countries, admin1 divisions, places and folded names with their places.
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
//!          names      varint n, then n × (varint bytes shared with the
//!                     previous name, str rest, varint n_places,
//!                     varint first place, varint gaps to the next ones)
//! ```
//!
//! Everything is sorted (places by id, names bytewise, codes bytewise), so the
//! same gazetteer always encodes to the same bytes. Keys are not stored: they
//! are derived from the names when the file is loaded (see `index.rs`).
//! Decoding checks the checksum and every count, index and order, and returns
//! [`Error::BadCompactData`] rather than panicking on damaged input.

use crate::builder::{assemble, Parts};
use crate::index::Arena;
use crate::{Admin1, Country, CountryCode, Error, Gazetteer, Place};
use xxhash_rust::xxh3::xxh3_64;

const MAGIC: &[u8; 8] = b"DLGAZTR\0";
/// Format version this library reads and writes.
pub(crate) const VERSION: u32 = 1;
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
    w.varint(names.names.len() as u64);
    let mut previous: &str = "";
    for (i, name) in names.names.iter().enumerate() {
        let shared = previous
            .bytes()
            .zip(name.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        w.varint(shared as u64);
        w.len_bytes(&name.as_bytes()[shared..]);
        previous = name;
        let places = names.places_of_name(i);
        w.varint(places.len() as u64);
        let mut previous_place = 0;
        for (j, &place) in places.iter().enumerate() {
            w.varint(u64::from(if j == 0 {
                place
            } else {
                place - previous_place
            }));
            previous_place = place;
        }
    }
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

/// Decodes and validates compact data.
pub(crate) fn decode(bytes: &[u8]) -> Result<Gazetteer, Error> {
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
    let mut codes: Vec<String> = Vec::with_capacity(n);
    for _ in 0..n {
        codes.push(r.string("admin1 code")?);
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
            i => Some(codes.get(i as usize - 1).cloned().ok_or_else(|| {
                r.bad_at(at, format!("admin1 code index {i} of {}", codes.len()))
            })?),
        };
        let name = r.string("place name")?;
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

    let n_names = r.count("names")?;
    let mut names = Arena::with_capacity(n_names, 0);
    let mut name_ends = Vec::with_capacity(n_names);
    let mut name_places = Vec::with_capacity(n_names);
    let mut previous: Vec<u8> = Vec::new();
    let mut current: Vec<u8> = Vec::new();
    for i in 0..n_names {
        let at = r.offset();
        let shared = r.varint("shared name prefix")? as usize;
        if shared > previous.len() {
            return Err(r.bad_at(
                at,
                format!(
                    "name shares {shared} bytes with a {}-byte name",
                    previous.len()
                ),
            ));
        }
        current.clear();
        current.extend_from_slice(&previous[..shared]);
        current.extend_from_slice(r.len_bytes("name")?);
        if i > 0 && current <= previous {
            return Err(r.bad_at(at, "names out of order".into()));
        }
        let Ok(name) = std::str::from_utf8(&current) else {
            return Err(r.bad_at(at, "name is not UTF-8".into()));
        };
        names.push(name);
        let n = r.count("name places")?;
        if n == 0 {
            return Err(r.bad_at(at, "name without places".into()));
        }
        let mut place = 0u32;
        for j in 0..n {
            let at = r.offset();
            let step = r.u32("place index")?;
            if j > 0 && step == 0 {
                return Err(r.bad_at(at, "place indexes of a name out of order".into()));
            }
            place = place.saturating_add(step);
            if place as usize >= n_places {
                return Err(r.bad_at(at, format!("place index {place} of {n_places}")));
            }
            name_places.push(place);
        }
        name_ends.push(name_places.len() as u32);
        std::mem::swap(&mut previous, &mut current);
    }
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
        names,
        name_ends,
        name_places,
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

    fn varint(&mut self, what: &str) -> Result<u64, Error> {
        let start = self.pos;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&byte) = self.bytes.get(self.pos) else {
                return Err(
                    self.bad_at(start, format!("expected {what}, found the end of the data"))
                );
            };
            self.pos += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.bad_at(
            start,
            format!("expected {what}, found a number longer than 64 bits"),
        ))
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

    fn string(&mut self, what: &str) -> Result<String, Error> {
        let start = self.pos;
        let b = self.len_bytes(what)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| self.bad_at(start, format!("{what} is not UTF-8")))
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
        assert_eq!(back.names.names, g.names.names);
        assert_eq!(back.names.name_places, g.names.name_places);
        assert_eq!(encode(&back), bytes);
        assert_eq!(back.places_named("Trablous")[0].place.id, 266826);
        assert_eq!(back.admin1_named("Nord", None)[0].code, "LB.09");
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
                supported: 1
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
