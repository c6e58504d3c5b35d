//! Near-duplicate detection: which cluster (photo) a new caption variant
//! belongs to.
//!
//! Wire captions of one photo reach an archive in several forms: exact
//! repeats, copies cut short (`...more`), and light edits (a corrected date,
//! a background sentence added, the credit written another way). Different
//! photos of one story share much of their wording (place, background
//! sentence, photographer), and differ mostly in the *scene*: who does what.
//!
//! The design, in three steps:
//!
//! 1. **Normal form.** The description (the caption minus its credit) is
//!    folded (case, accents, punctuation: [`gazetteer::fold`]), and numbers,
//!    month and weekday names and a few function words are dropped, so a
//!    corrected date or another credit format leaves it unchanged.
//! 2. **Candidates** (cheap, persisted): MinHash over word bigrams of the
//!    *lead* (the first [`LEAD_TOKENS`] tokens, where the scene is told),
//!    [`BANDS`] bands of [`ROWS`] rows each, plus one exact key of the first
//!    [`PREFIX_KEY_TOKENS`] tokens that every truncated copy long enough
//!    shares with its full version. A variant's keys are stored with it
//!    (`variants.lsh`) and held in memory by an ingest (`candidates`); a
//!    caption sharing any key with a cluster's variant is a candidate. Two leads with Jaccard similarity 0.7 meet in at least one
//!    band with probability 1-(1-0.7³)¹² ≈ 0.99; unrelated leads (≈ 0.1)
//!    almost never do.
//! 3. **Confirmation** (exact, per candidate variant), [`same_photo`]
//!    (on [`Fingerprint`]s: the same features with every word an integer):
//!    - a truncated copy joins when its words (less the last, maybe cut
//!      word) are a prefix of the other's and the credits agree (its place
//!      and date may be cut, so they are not compared);
//!    - otherwise the scene sentences (first sentence of each normal form)
//!      may differ by at most `max(2, union/8)` distinct words, and the
//!      shorter description's words must be at least 80 % contained in the
//!      longer one (an added sentence is fine, a different one is not);
//!    - and the two must be compatible: a shared creator (by folded
//!      surname) when both name creators, a shared agency when both name
//!      agencies, the same place (GeoNames id, else country) when both have
//!      one, and dates taken that are equal or differ in one component only
//!      (a corrected day, month or year).

use serde::Deserialize;
use serde_json::Value;

/// Tokens of the lead that the MinHash bands cover.
pub const LEAD_TOKENS: usize = 32;
/// MinHash bands.
pub const BANDS: usize = 12;
/// Rows (hash functions) per band.
pub const ROWS: usize = 3;
/// Tokens of the exact prefix key.
pub const PREFIX_KEY_TOKENS: usize = 8;

/// Words that carry no scene: articles, prepositions, conjunctions, and the
/// month and weekday names (dates are compared separately).
const DROPPED: &[&str] = &[
    "a",
    "an",
    "the",
    "of",
    "in",
    "on",
    "at",
    "to",
    "and",
    "as",
    "by",
    "for",
    "is",
    "are",
    "was",
    "were",
    "with",
    "from",
    "this",
    "that",
    "its",
    "his",
    "her",
    "their",
    "s",
    "jan",
    "january",
    "feb",
    "february",
    "mar",
    "march",
    "apr",
    "april",
    "may",
    "jun",
    "june",
    "jul",
    "july",
    "aug",
    "august",
    "sep",
    "sept",
    "september",
    "oct",
    "october",
    "nov",
    "november",
    "dec",
    "december",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "picture",
    "taken",
    "photo",
    "file",
];

/// What the dedup compares of one caption variant.
#[derive(Debug, Clone, PartialEq)]
pub struct Features {
    /// Normal-form tokens of the whole description.
    pub tokens: Vec<String>,
    /// How many of `tokens` belong to the first sentence.
    pub scene_len: usize,
    /// The caption ends in a truncation mark.
    pub truncated: bool,
    /// Folded surnames of the credited creators.
    pub creators: Vec<String>,
    /// Agencies, as the record names them.
    pub agencies: Vec<String>,
    /// GeoNames id of the place, when resolved.
    pub geonames_id: Option<u64>,
    /// Country code of the place.
    pub country_code: Option<String>,
    /// Date taken, `YYYY[-MM[-DD]]`.
    pub date: Option<String>,
}

impl Features {
    /// Features of a record in its JSON form (the contract's field names),
    /// as [`Features::of_caption`] gives them; JSON that is not a record has
    /// the features of an empty one.
    pub fn of_record(record: &Value) -> Features {
        match caption::CaptionRecord::deserialize(record) {
            Ok(record) => Features::of_caption(&record),
            Err(_) => Features::new("", "", &[], Vec::new(), None, None, None),
        }
    }

    /// Features of a typed record.
    pub fn of_caption(record: &caption::CaptionRecord) -> Features {
        let location = record.location.as_ref();
        Features::new(
            &record.text,
            &record.description,
            &record.credit.creators,
            record.credit.agencies.clone(),
            location.and_then(|l| l.geonames_id).map(u64::from),
            location.and_then(|l| l.country_code.clone()),
            record.date_created.map(|d| d.to_string()),
        )
    }

    fn new(
        text: &str,
        description: &str,
        creators: &[String],
        agencies: Vec<String>,
        geonames_id: Option<u64>,
        country_code: Option<String>,
        date: Option<String>,
    ) -> Features {
        let truncated = caption::strip_truncation_mark(text).is_some();
        let description = caption::strip_truncation_mark(description).unwrap_or(description);
        let (tokens, scene_len) = normal_form(description);
        let creators = creators
            .iter()
            .filter_map(|name| {
                gazetteer::fold(name)
                    .split(' ')
                    .next_back()
                    .map(str::to_string)
            })
            .filter(|s| !s.is_empty())
            .collect();
        Features {
            tokens,
            scene_len,
            truncated,
            creators,
            agencies,
            geonames_id,
            country_code,
            date,
        }
    }

    /// The compact form [`same_photo`] compares: every word hashed.
    pub fn fingerprint(&self) -> Fingerprint<u64> {
        let hash = |s: &str| xxhash_rust::xxh3::xxh3_64(s.as_bytes());
        let hashes = |v: &[String]| -> Box<[u64]> { v.iter().map(|s| hash(s)).collect() };
        let mut date = [0u64; 3];
        let mut date_parts = 0u8;
        if let Some(d) = &self.date {
            for (slot, part) in date.iter_mut().zip(d.split('-')) {
                *slot = hash(part);
                date_parts += 1;
            }
        }
        Fingerprint {
            tokens: hashes(&self.tokens),
            scene_len: self.scene_len as u32,
            truncated: self.truncated,
            creators: hashes(&self.creators),
            agencies: hashes(&self.agencies),
            geonames_id: self.geonames_id,
            country_code: self.country_code.as_deref().map(hash),
            date,
            date_parts: if self.date.is_some() {
                date_parts
            } else {
                NO_DATE
            },
        }
    }

    /// The candidate keys of this variant: one per MinHash band, and the
    /// exact prefix key.
    pub fn lsh_keys(&self) -> Vec<i64> {
        let mut keys = Vec::with_capacity(BANDS + 1);
        let tokens = if self.truncated {
            // The last word of a cut-short copy may be cut mid-way.
            &self.tokens[..self.tokens.len().saturating_sub(1)]
        } else {
            &self.tokens[..]
        };
        if tokens.is_empty() {
            return keys;
        }
        let lead = &tokens[..tokens.len().min(LEAD_TOKENS)];
        let signature = minhash(lead);
        for (band, rows) in signature.chunks(ROWS).enumerate() {
            let mut bytes = Vec::with_capacity(8 + ROWS * 8);
            bytes.extend_from_slice(&(band as u64).to_le_bytes());
            for row in rows {
                bytes.extend_from_slice(&row.to_le_bytes());
            }
            keys.push(xxhash_rust::xxh3::xxh3_64(&bytes) as i64);
        }
        if tokens.len() >= PREFIX_KEY_TOKENS {
            let prefix = tokens[..PREFIX_KEY_TOKENS].join(" ");
            keys.push(xxhash_rust::xxh3::xxh3_64_with_seed(prefix.as_bytes(), 0x5eed) as i64);
        }
        keys
    }
}

/// Folded description tokens without numbers, dates and function words, and
/// how many of them the first sentence holds.
pub fn normal_form(description: &str) -> (Vec<String>, usize) {
    let scene_end = first_sentence_end(description);
    let mut tokens = Vec::new();
    let mut scene_len = 0;
    for (part, is_scene) in [
        (&description[..scene_end], true),
        (&description[scene_end..], false),
    ] {
        for word in gazetteer::fold(part).split_whitespace() {
            if word.bytes().any(|b| b.is_ascii_digit()) || DROPPED.contains(&word) {
                continue;
            }
            tokens.push(word.to_string());
            if is_scene {
                scene_len += 1;
            }
        }
    }
    (tokens, scene_len)
}

/// Byte offset where the first sentence ends: the first `. ` before a capital
/// that does not follow an abbreviation or an initial.
fn first_sentence_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices(". ") {
        let next_is_upper = bytes.get(i + 2).is_some_and(u8::is_ascii_uppercase);
        let word = text[..i].rsplit(' ').next().unwrap_or("");
        let abbreviation = word.len() <= 3 || word.contains('.');
        if next_is_upper && !abbreviation {
            return i + 1;
        }
    }
    text.len()
}

/// MinHash signature of the word bigrams (single words when only one).
fn minhash(tokens: &[String]) -> [u64; BANDS * ROWS] {
    let mut shingles: Vec<u64> = Vec::with_capacity(tokens.len());
    if tokens.len() == 1 {
        shingles.push(xxhash_rust::xxh3::xxh3_64(tokens[0].as_bytes()));
    }
    for pair in tokens.windows(2) {
        let mut bytes = Vec::with_capacity(pair[0].len() + pair[1].len() + 1);
        bytes.extend_from_slice(pair[0].as_bytes());
        bytes.push(b' ');
        bytes.extend_from_slice(pair[1].as_bytes());
        shingles.push(xxhash_rust::xxh3::xxh3_64(&bytes));
    }
    let mut signature = [u64::MAX; BANDS * ROWS];
    for (i, slot) in signature.iter_mut().enumerate() {
        // One multiply-xorshift permutation per row, odd multipliers.
        let a = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(2 * i as u64 + 1) | 1;
        let b = 0xC2B2_AE3D_27D4_EB4Fu64.wrapping_mul(i as u64 + 7);
        for &h in &shingles {
            let mut x = (h ^ b).wrapping_mul(a);
            x ^= x >> 29;
            *slot = (*slot).min(x);
        }
    }
    signature
}

/// Marks a fingerprint without a date taken.
const NO_DATE: u8 = u8::MAX;

/// What [`same_photo`] compares of a variant, compact: every word (token,
/// creator surname, agency, country code, date component) as one integer.
/// `T` is `u64` (a word's hash, computed anywhere) or `u32` (an id from an
/// [`Interner`], which keeps an archive's worth of fingerprints in memory
/// at half the size). Equal words give equal integers; two different words
/// give equal hashes with probability about 2⁻⁶⁴, which is ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint<T> {
    tokens: Box<[T]>,
    scene_len: u32,
    truncated: bool,
    creators: Box<[T]>,
    agencies: Box<[T]>,
    geonames_id: Option<u64>,
    country_code: Option<T>,
    date: [T; 3],
    date_parts: u8,
}

/// Word hashes to small ids, for [`Fingerprint::intern`].
#[derive(Debug, Default)]
pub struct Interner {
    ids: std::collections::HashMap<u64, u32, BuildPassThrough>,
}

impl Interner {
    fn id(&mut self, hash: u64) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(hash).or_insert(next)
    }
}

impl Fingerprint<u64> {
    /// The same fingerprint with ids instead of hashes.
    pub fn intern(&self, interner: &mut Interner) -> Fingerprint<u32> {
        let mut ids = |v: &[u64]| -> Box<[u32]> { v.iter().map(|&h| interner.id(h)).collect() };
        let tokens = ids(&self.tokens);
        let creators = ids(&self.creators);
        let agencies = ids(&self.agencies);
        Fingerprint {
            tokens,
            scene_len: self.scene_len,
            truncated: self.truncated,
            creators,
            agencies,
            geonames_id: self.geonames_id,
            country_code: self.country_code.map(|h| interner.id(h)),
            date: self.date.map(|h| interner.id(h)),
            date_parts: self.date_parts,
        }
    }
}

/// Hasher of keys that are already hashes (LSH keys, word hashes).
#[derive(Debug, Default, Clone, Copy)]
pub struct BuildPassThrough;

/// See [`BuildPassThrough`].
#[derive(Debug, Default, Clone, Copy)]
pub struct PassThrough(u64);

impl std::hash::Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn write_i64(&mut self, n: i64) {
        self.0 = n as u64;
    }
}

impl std::hash::BuildHasher for BuildPassThrough {
    type Hasher = PassThrough;
    fn build_hasher(&self) -> PassThrough {
        PassThrough(0)
    }
}

/// Whether two variants are captions of the same photo (see the module docs).
pub fn same_photo(a: &Features, b: &Features) -> bool {
    a.fingerprint().same_photo(&b.fingerprint())
}

impl<T: Copy + Ord> Fingerprint<T> {
    /// Whether the two variants are captions of the same photo (see the
    /// module docs).
    pub fn same_photo(&self, other: &Fingerprint<T>) -> bool {
        let (a, b) = (self, other);
        // The cheap comparisons first: most candidates share wording but
        // not the credit, place or date.
        if a.truncated || b.truncated {
            // The words match from the start: the cut may have fallen inside
            // the place or the date, so only the credit is compared.
            compatible_credit(a, b) && (truncated_match(a, b) || truncated_match(b, a))
        } else {
            compatible_credit(a, b) && compatible_place_and_date(a, b) && near_duplicate(a, b)
        }
    }
}

/// `short` is a cut-short copy whose words start `full`.
fn truncated_match<T: Copy + Ord>(short: &Fingerprint<T>, full: &Fingerprint<T>) -> bool {
    if !short.truncated {
        return false;
    }
    let kept = &short.tokens[..short.tokens.len().saturating_sub(1)];
    // A handful of words is not enough to call it the same photo.
    kept.len() >= 5 && full.tokens.len() >= kept.len() && full.tokens[..kept.len()] == *kept
}

/// The distinct words, sorted.
fn word_set<T: Copy + Ord>(words: &[T]) -> Vec<T> {
    let mut set = words.to_vec();
    set.sort_unstable();
    set.dedup();
    set
}

/// How many words two sorted sets share.
fn shared_count<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

fn near_duplicate<T: Copy + Ord>(a: &Fingerprint<T>, b: &Fingerprint<T>) -> bool {
    if a.tokens.is_empty() || b.tokens.is_empty() {
        return a.tokens == b.tokens;
    }
    let scene_a = word_set(&a.tokens[..a.scene_len as usize]);
    let scene_b = word_set(&b.tokens[..b.scene_len as usize]);
    let common = shared_count(&scene_a, &scene_b);
    let union = scene_a.len() + scene_b.len() - common;
    let differing = union - common;
    if differing > 2.max(union / 8) {
        return false;
    }
    let all_a = word_set(&a.tokens);
    let all_b = word_set(&b.tokens);
    let shared = shared_count(&all_a, &all_b);
    let smaller = all_a.len().min(all_b.len());
    shared * 5 >= smaller * 4
}

fn compatible_credit<T: Copy + Ord>(a: &Fingerprint<T>, b: &Fingerprint<T>) -> bool {
    let overlaps =
        |x: &[T], y: &[T]| x.is_empty() || y.is_empty() || x.iter().any(|v| y.contains(v));
    overlaps(&a.creators, &b.creators) && overlaps(&a.agencies, &b.agencies)
}

fn compatible_place_and_date<T: Copy + Ord>(a: &Fingerprint<T>, b: &Fingerprint<T>) -> bool {
    match (a.geonames_id, b.geonames_id) {
        (Some(x), Some(y)) if x != y => return false,
        _ => {}
    }
    if let (Some(x), Some(y)) = (&a.country_code, &b.country_code) {
        if x != y {
            return false;
        }
    }
    if a.date_parts == NO_DATE || b.date_parts == NO_DATE {
        return true;
    }
    // Equal dates, or dates that differ in one of year, month, day only.
    let parts = a.date_parts.min(b.date_parts) as usize;
    let differing = (0..parts).filter(|&i| a.date[i] != b.date[i]).count();
    differing <= 1
}

#[cfg(test)]
mod tests;
