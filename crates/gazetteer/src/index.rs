//! The name index: folded names with their places, and hash tables from the
//! three keys of [`crate::key`] to them.
//!
//! Everything here is derived from the folded names and their places by
//! [`NameIndex::build`]. The compact file stores the derived tables rather
//! than the names alone, so that loading the embedded gazetteer reads arrays
//! instead of computing and hashing the keys of half a million names. The
//! data must never disagree with the code about keys: a test
//! (`compact::tests::embedded_tables_are_what_the_key_functions_give`)
//! derives the tables from the embedded names with the key functions and
//! compares them with the stored ones, so changing a key function without
//! rebuilding the data (`cargo xtask gazetteer`) fails `cargo test`.
//!
//! A table keeps only the top 32 bits of each key's 64-bit hash, sorted; the
//! key at each position is stored alongside (folded names, strict keys) or
//! checked through its strict keys (skeletons), so a lookup compares keys and
//! never trusts a hash alone.

use crate::key::{
    skeleton_from_strict, skeleton_of, strict_from_folded, MIN_SKELETON_LEN, MIN_STRICT_KEY_LEN,
};
use std::borrow::Cow;
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// Sequences stored end to end, addressed by index: sequence `i` is
/// `values[ends[i - 1]..ends[i]]`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Runs<T: Clone + 'static> {
    /// Borrowed straight from the embedded data where the format allows.
    pub(crate) values: Cow<'static, [T]>,
    pub(crate) ends: Vec<u32>,
}

impl<T: Clone + 'static> Default for Runs<T> {
    fn default() -> Self {
        Runs {
            values: Cow::Owned(Vec::new()),
            ends: Vec::new(),
        }
    }
}

impl<T: Clone + 'static> Runs<T> {
    pub(crate) fn push(&mut self, run: &[T]) {
        let values = self.values.to_mut();
        values.extend_from_slice(run);
        self.ends.push(values.len() as u32);
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Sequence `i`, empty for an unknown index.
    pub(crate) fn get(&self, i: usize) -> &[T] {
        let end = self.ends.get(i).copied().unwrap_or(0) as usize;
        let start = match i.checked_sub(1) {
            Some(previous) => self.ends.get(previous).copied().unwrap_or(0) as usize,
            None => 0,
        };
        self.values.get(start..end).unwrap_or(&[])
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &[T]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    fn heap_bytes(&self) -> usize {
        let values = match &self.values {
            Cow::Borrowed(_) => 0,
            Cow::Owned(v) => v.capacity() * std::mem::size_of::<T>(),
        };
        values + self.ends.capacity() * 4
    }
}

/// The keys of one table, by hash: the top 32 bits of each key's hash
/// (sorted, position = key index), and a directory from their top bits to
/// the positions that share them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct HashIndex {
    pub(crate) hashes: Vec<u32>,
    /// `dir[b]..dir[b + 1]` are the positions of hashes whose top bits are
    /// `b`: at least as many buckets as keys, so a bucket holds one key or
    /// two. Computed from `hashes` (one pass), not stored.
    dir: Vec<u32>,
    /// `hash >> shift` is the bucket of a hash.
    shift: u32,
}

/// Beyond 2^24 buckets (64 MB) a directory would cost more than it saves.
const MAX_DIR_BITS: u32 = 24;

impl HashIndex {
    /// The index over `hashes`, or `None` when they are not sorted.
    pub(crate) fn new(hashes: Vec<u32>) -> Option<HashIndex> {
        let bits = hashes
            .len()
            .next_power_of_two()
            .trailing_zeros()
            .min(MAX_DIR_BITS);
        let shift = 32 - bits;
        let n_buckets = 1usize << bits;
        // One pass that checks the order too: this runs at every start-up.
        let mut dir = Vec::with_capacity(n_buckets + 1);
        let mut previous = 0;
        for (i, &hash) in hashes.iter().enumerate() {
            if hash < previous {
                return None;
            }
            previous = hash;
            let bucket = (u64::from(hash) >> shift) as usize;
            // Buckets up to this one start here (the earlier ones are empty).
            dir.resize(dir.len().max(bucket + 1), i as u32);
        }
        dir.resize(n_buckets + 1, hashes.len() as u32);
        Some(HashIndex { hashes, dir, shift })
    }

    pub(crate) fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Positions of the keys that may be the one with this 64-bit hash.
    fn find(&self, hash: u64) -> impl Iterator<Item = usize> + '_ {
        let top = (hash >> 32) as u32;
        let bucket = (u64::from(top) >> self.shift) as usize;
        let start = self.dir.get(bucket).copied().unwrap_or(0) as usize;
        let end = self.dir.get(bucket + 1).copied().unwrap_or(0) as usize;
        (start..end).filter(move |&i| self.hashes.get(i) == Some(&top))
    }

    fn heap_bytes(&self) -> usize {
        (self.hashes.capacity() + self.dir.capacity()) * 4
    }
}

/// Folded names (distinct) with the places each names, and the key tables
/// over them. Built by [`NameIndex::build`], or read back from the compact
/// file exactly as built.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct NameIndex {
    /// Distinct folded names, in the order of their hashes.
    pub(crate) names: Runs<u8>,
    /// Places of each name (indexes into the place list), ascending.
    pub(crate) name_places: Runs<u32>,
    /// Hashes of `names`.
    pub(crate) folded: HashIndex,
    /// The distinct strict keys of the names that are long enough to look
    /// up ([`MIN_STRICT_KEY_LEN`]), in the order of their hashes.
    pub(crate) strict_keys: Runs<u8>,
    /// Hashes of `strict_keys`.
    pub(crate) strict: HashIndex,
    /// Places of each strict key, ascending.
    pub(crate) strict_places: Runs<u32>,
    /// Hashes of the distinct skeletons of `strict_keys` that are long
    /// enough to look up ([`MIN_SKELETON_LEN`]), sorted.
    pub(crate) skeleton: HashIndex,
    /// The strict keys (indexes into `strict_keys`) of each skeleton,
    /// ascending: each spelling once, so a lookup compares each once.
    pub(crate) skeleton_keys: Runs<u32>,
}

/// The three keys of a query, computed once into reusable buffers.
#[derive(Default)]
pub(crate) struct QueryKeys {
    pub(crate) folded: String,
    pub(crate) strict: Vec<u8>,
    pub(crate) skeleton: Vec<u8>,
}

impl QueryKeys {
    /// Only the folded key, for exact-name lookups.
    pub(crate) fn compute_folded(&mut self, name: &str) {
        crate::key::fold_into(name, &mut self.folded);
        self.strict.clear();
        self.skeleton.clear();
    }

    /// Only the country key ([`crate::key::country_key`]), into `folded`.
    pub(crate) fn compute_country(&mut self, name: &str) {
        self.strict.clear();
        self.skeleton.clear();
        if name.is_ascii() {
            // Asked for nearly every capitalized phrase of a caption: the
            // key of an ASCII name in one pass, as the general path below
            // computes it (a test compares the two).
            self.folded.clear();
            let mut first_word_len = None;
            for b in name.bytes() {
                if b.is_ascii_alphanumeric() {
                    self.folded.push(char::from(b.to_ascii_lowercase()));
                } else if b != b'\'' && b != b'`' && !self.folded.is_empty() {
                    first_word_len.get_or_insert(self.folded.len());
                }
            }
            if first_word_len == Some(3) && self.folded.len() > 3 && self.folded.starts_with("the")
            {
                self.folded.drain(..3);
            }
            return;
        }
        crate::key::fold_into(name, &mut self.folded);
        let key_start = if self.folded.starts_with("the ") {
            4
        } else {
            0
        };
        self.folded.drain(..key_start);
        self.folded.retain(|c| c != ' ');
    }

    pub(crate) fn compute(&mut self, name: &str) {
        crate::key::fold_into(name, &mut self.folded);
        self.strict.clear();
        strict_from_folded(&self.folded, &mut self.strict);
        self.skeleton.clear();
        skeleton_from_strict(&self.strict, &mut self.skeleton);
    }
}

/// The tag seeds the hash, keeping the three key spaces apart.
fn hash_key(tag: u8, key: &[u8]) -> u64 {
    xxh3_64_with_seed(key, u64::from(tag))
}

const TAG_FOLDED: u8 = 1;
const TAG_STRICT: u8 = 2;
const TAG_SKELETON: u8 = 3;

/// Sorts keys by hash (then by key, so equal hashes have one order too) and
/// splits them into the table's hashes and its runs; `runs` may repeat a key,
/// whose runs are then merged.
fn by_hash<T: Clone + Ord>(
    tag: u8,
    mut runs: Vec<(Vec<u8>, Vec<T>)>,
) -> (HashIndex, Runs<u8>, Runs<T>) {
    runs.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut merged: Vec<(u64, Vec<u8>, Vec<T>)> = Vec::with_capacity(runs.len());
    for (key, values) in runs {
        match merged.last_mut() {
            Some(last) if last.1 == key => last.2.extend(values),
            _ => merged.push((hash_key(tag, &key), key, values)),
        }
    }
    merged.sort_unstable_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let mut keys = Runs::default();
    let mut values = Runs::default();
    let mut hashes = Vec::with_capacity(merged.len());
    for (hash, key, mut run) in merged {
        run.sort_unstable();
        run.dedup();
        hashes.push((hash >> 32) as u32);
        keys.push(&key);
        values.push(&run);
    }
    // Sorted above: never the default.
    let index = HashIndex::new(hashes).unwrap_or_default();
    (index, keys, values)
}

impl NameIndex {
    /// Derives the index from distinct folded names and their places
    /// (indexes into the place list). The order of the names does not matter.
    pub(crate) fn build<'a>(names: impl IntoIterator<Item = (&'a str, &'a [u32])>) -> NameIndex {
        let names: Vec<(&str, &[u32])> = names.into_iter().collect();
        let mut index = NameIndex::default();
        let by_strict = names
            .iter()
            .filter_map(|&(name, places)| {
                let mut strict = Vec::new();
                strict_from_folded(name, &mut strict);
                (strict.len() >= MIN_STRICT_KEY_LEN).then(|| (strict, places.to_vec()))
            })
            .collect();
        (index.strict, index.strict_keys, index.strict_places) = by_hash(TAG_STRICT, by_strict);
        let by_skeleton = (index.strict_keys.iter().enumerate())
            .map(|(i, key)| (skeleton_of(key).collect::<Vec<u8>>(), vec![i as u32]))
            .filter(|(skeleton, _)| skeleton.len() >= MIN_SKELETON_LEN)
            .collect();
        (index.skeleton, _, index.skeleton_keys) = by_hash(TAG_SKELETON, by_skeleton);
        let by_name = names
            .into_iter()
            .map(|(name, places)| (name.as_bytes().to_vec(), places.to_vec()))
            .collect();
        (index.folded, index.names, index.name_places) = by_hash(TAG_FOLDED, by_name);
        index
    }

    /// Places whose folded name is exactly `keys.folded`.
    pub(crate) fn folded_matches(&self, keys: &QueryKeys) -> &[u32] {
        let folded = keys.folded.as_bytes();
        self.folded
            .find(hash_key(TAG_FOLDED, folded))
            .find(|&i| self.names.get(i) == folded)
            .map_or(&[], |i| self.name_places.get(i))
    }

    /// Places with a name whose strict key is exactly `keys.strict`.
    pub(crate) fn strict_matches(&self, keys: &QueryKeys) -> &[u32] {
        if keys.strict.len() < MIN_STRICT_KEY_LEN {
            return &[];
        }
        self.strict
            .find(hash_key(TAG_STRICT, &keys.strict))
            .find(|&i| self.strict_keys.get(i) == keys.strict.as_slice())
            .map_or(&[], |i| self.strict_places.get(i))
    }

    /// The distinct strict keys whose skeleton is the query's, each with its
    /// places (the query's own strict key included).
    pub(crate) fn skeleton_matches<'a>(
        &'a self,
        keys: &'a QueryKeys,
    ) -> impl Iterator<Item = (&'a [u8], &'a [u32])> + 'a {
        let found = (keys.skeleton.len() >= MIN_SKELETON_LEN)
            .then(|| self.skeleton.find(hash_key(TAG_SKELETON, &keys.skeleton)));
        found
            .into_iter()
            .flatten()
            .map(|i| self.skeleton_keys.get(i))
            // All keys of a run share a skeleton: the first tells whether the
            // run is the query's or another skeleton's with the same hash.
            .filter(|run| {
                run.first().is_some_and(|&k| {
                    skeleton_of(self.strict_keys.get(k as usize)).eq(keys.skeleton.iter().copied())
                })
            })
            .flatten()
            .map(|&k| {
                (
                    self.strict_keys.get(k as usize),
                    self.strict_places.get(k as usize),
                )
            })
    }

    /// Approximate heap use, for the load-time report.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.names.heap_bytes()
            + self.name_places.heap_bytes()
            + self.folded.heap_bytes()
            + self.strict_keys.heap_bytes()
            + self.strict.heap_bytes()
            + self.strict_places.heap_bytes()
            + self.skeleton.heap_bytes()
            + self.skeleton_keys.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(names: &[(&str, &[u32])]) -> NameIndex {
        NameIndex::build(names.iter().copied())
    }

    #[test]
    fn finds_each_key_kind() {
        let idx = index(&[("ar raqqah", &[0]), ("harasta", &[1, 2]), ("raqqa", &[0])]);
        let mut keys = QueryKeys::default();
        keys.compute("Harasta");
        assert_eq!(idx.folded_matches(&keys), &[1, 2]);
        keys.compute("Raqa");
        assert!(idx.folded_matches(&keys).is_empty());
        // Both names have the strict key `raka`: their place once.
        assert_eq!(idx.strict_matches(&keys), &[0]);
        keys.compute("Haresta");
        assert!(idx.strict_matches(&keys).is_empty());
        let found: Vec<(&[u8], &[u32])> = idx.skeleton_matches(&keys).collect();
        assert_eq!(found, vec![(&b"harasta"[..], &[1, 2][..])]);
        keys.compute("Nowhere");
        assert!(idx.folded_matches(&keys).is_empty());
        assert_eq!(idx.skeleton_matches(&keys).count(), 0);
    }

    /// Keys whose hashes agree are still told apart by the keys themselves.
    #[test]
    fn equal_hashes_do_not_make_keys_equal() {
        let mut idx = index(&[("harasta", &[1]), ("tripoli", &[2])]);
        let mut keys = QueryKeys::default();
        keys.compute("Haresta");
        let same = |tag: u8, key: &[u8], n: usize| {
            HashIndex::new(vec![(hash_key(tag, key) >> 32) as u32; n]).unwrap_or_default()
        };
        idx.folded = same(TAG_FOLDED, keys.folded.as_bytes(), idx.names.len());
        idx.strict = same(TAG_STRICT, &keys.strict, idx.strict_keys.len());
        idx.skeleton = same(TAG_SKELETON, &keys.skeleton, idx.skeleton_keys.len());
        assert!(idx.folded_matches(&keys).is_empty());
        assert!(idx.strict_matches(&keys).is_empty());
        let found: Vec<&[u8]> = idx.skeleton_matches(&keys).map(|(k, _)| k).collect();
        assert_eq!(found, vec![&b"harasta"[..]]);
    }

    #[test]
    fn hash_index_finds_every_position_of_a_hash() {
        let index = HashIndex::new(vec![3 << 30, 3 << 30, u32::MAX]).unwrap_or_default();
        let found: Vec<usize> = index.find(3 << 62).collect();
        assert_eq!(found, vec![0, 1]);
        assert_eq!(index.find(u64::MAX).collect::<Vec<_>>(), vec![2]);
        assert_eq!(index.find(0).count(), 0);
        assert!(HashIndex::new(vec![2, 1]).is_none());
        assert_eq!(HashIndex::default().find(0).count(), 0);
    }

    #[test]
    fn country_keys_match_the_key_function() {
        let mut keys = QueryKeys::default();
        for name in [
            "U.S.",
            "The Netherlands",
            "the   Gambia",
            "THE GAMBIA",
            "Theland",
            "The-Bahamas",
            "Côte d'Ivoire",
            "Cote d'Ivoire",
            "'s-Hertogenbosch",
            "Guinea-Bissau",
            "  ,The, , ",
            "D.R. Congo",
            "Türkiye",
            "the",
            "The ",
            "  Syria ",
            "",
        ] {
            keys.compute_country(name);
            assert_eq!(keys.folded, crate::key::country_key(name), "{name:?}");
        }
    }

    proptest::proptest! {
        /// The one-pass key of an ASCII name is the general key.
        #[test]
        fn ascii_country_keys_match_the_key_function(name in "[ -~]{0,24}|(The|the|THE)[ .,'-]{0,2}[A-Za-z .'-]{0,12}") {
            let mut keys = QueryKeys::default();
            keys.compute_country(&name);
            proptest::prop_assert_eq!(&keys.folded, &crate::key::country_key(&name));
        }
    }

    #[test]
    fn empty_index_finds_nothing() {
        let idx = NameIndex::default();
        let mut keys = QueryKeys::default();
        keys.compute("Damascus");
        assert!(idx.folded_matches(&keys).is_empty());
        assert!(idx.strict_matches(&keys).is_empty());
        assert_eq!(idx.skeleton_matches(&keys).count(), 0);
    }

    #[test]
    fn runs_round_trip() {
        let mut runs = Runs::default();
        for s in ["", "a", "bc"] {
            runs.push(s.as_bytes());
        }
        assert_eq!(runs.iter().collect::<Vec<_>>(), vec![b"", &b"a"[..], b"bc"]);
        assert_eq!(runs.get(7), b"");
    }
}
