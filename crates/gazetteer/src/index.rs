//! The name index: folded names with their places, and hash tables from the
//! three keys of [`crate::key`] to those names.
//!
//! Only the folded names and their places are stored (in the compact file and
//! in memory); the strict and skeleton keys are derived from them when the
//! index is built, so changing a key function never needs a data rebuild and
//! the data can never disagree with the code about keys.

use crate::key::{skeleton_from_strict, strict_from_folded, MIN_SKELETON_LEN, MIN_STRICT_KEY_LEN};
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// Strings stored end to end, addressed by index.
#[derive(Default, Clone, Debug, PartialEq)]
pub(crate) struct Arena {
    bytes: String,
    ends: Vec<u32>,
}

impl Arena {
    pub(crate) fn with_capacity(n_strings: usize, n_bytes: usize) -> Arena {
        Arena {
            bytes: String::with_capacity(n_bytes),
            ends: Vec::with_capacity(n_strings),
        }
    }

    pub(crate) fn push(&mut self, s: &str) {
        self.bytes.push_str(s);
        self.ends.push(self.bytes.len() as u32);
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn get(&self, i: usize) -> &str {
        let end = self.ends.get(i).copied().unwrap_or(0) as usize;
        let start = if i == 0 {
            0
        } else {
            self.ends.get(i - 1).copied().unwrap_or(0) as usize
        };
        self.bytes.get(start..end).unwrap_or("")
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    fn heap_bytes(&self) -> usize {
        self.bytes.capacity() + self.ends.capacity() * 4
    }
}

/// Byte strings stored end to end, addressed by index.
#[derive(Default)]
struct ByteArena {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl ByteArena {
    fn push(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
        self.ends.push(self.bytes.len() as u32);
    }

    fn get(&self, i: usize) -> &[u8] {
        let end = self.ends.get(i).copied().unwrap_or(0) as usize;
        let start = if i == 0 {
            0
        } else {
            self.ends.get(i - 1).copied().unwrap_or(0) as usize
        };
        self.bytes.get(start..end).unwrap_or(&[])
    }

    fn heap_bytes(&self) -> usize {
        self.bytes.capacity() + self.ends.capacity() * 4
    }
}

/// One posting: a place and the name (index into [`NameIndex::names`]) that
/// brought it under the key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Posting {
    pub(crate) place: u32,
    pub(crate) name: u32,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    hash: u64,
    start: u32,
    /// 0 marks an empty slot: no key has an empty posting list.
    len: u32,
}

/// Open-addressing hash table from a key's 64-bit hash to a run of values.
/// Colliding keys share a run; callers check what the values point at.
struct KeyTable<T> {
    slots: Vec<Slot>,
    values: Vec<T>,
}

impl<T> Default for KeyTable<T> {
    fn default() -> Self {
        KeyTable {
            slots: Vec::new(),
            values: Vec::new(),
        }
    }
}

impl<T: Copy + Default> KeyTable<T> {
    /// Groups `entries` by hash (keeping their order within a group) into a
    /// table: one pass to count each key's values, one to place them; no
    /// sorting, so building is linear.
    fn build(entries: &[(u64, T)]) -> KeyTable<T> {
        if entries.is_empty() {
            return KeyTable::default();
        }
        let n_slots = (entries.len() * 10 / 7 + 1).next_power_of_two();
        let mask = n_slots - 1;
        let mut slots = vec![Slot::default(); n_slots];
        let mut slot_of_entry = Vec::with_capacity(entries.len());
        for &(hash, _) in entries {
            let mut i = hash as usize & mask;
            while slots[i].len != 0 && slots[i].hash != hash {
                i = (i + 1) & mask;
            }
            slots[i].hash = hash;
            slots[i].len += 1;
            slot_of_entry.push(i as u32);
        }
        let mut next = 0u32;
        for slot in &mut slots {
            slot.start = next;
            next += slot.len;
        }
        // `cursor[i]` is where the next value of slot `i` goes.
        let mut cursor: Vec<u32> = slots.iter().map(|s| s.start).collect();
        let mut values = vec![T::default(); entries.len()];
        for (&(_, value), &slot) in entries.iter().zip(&slot_of_entry) {
            let at = &mut cursor[slot as usize];
            values[*at as usize] = value;
            *at += 1;
        }
        KeyTable { slots, values }
    }

    fn get(&self, hash: u64) -> &[T] {
        self.slot_index(hash).map_or(&[], |i| self.run(i))
    }

    fn slot_index(&self, hash: u64) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot.len == 0 {
                return None;
            }
            if slot.hash == hash {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The values of slot `i` (empty for an empty or unknown slot).
    fn run(&self, i: usize) -> &[T] {
        let Some(slot) = self.slots.get(i) else {
            return &[];
        };
        let start = slot.start as usize;
        self.values
            .get(start..start + slot.len as usize)
            .unwrap_or(&[])
    }

    /// Indexes of the occupied slots, in table order.
    fn occupied(&self) -> impl Iterator<Item = usize> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.len != 0)
            .map(|(i, _)| i)
    }

    fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.values.capacity() * std::mem::size_of::<T>()
    }
}

/// Folded names (sorted, distinct) with the places each names, and the key
/// tables over them.
#[derive(Default)]
pub(crate) struct NameIndex {
    /// Distinct folded names, sorted.
    pub(crate) names: Arena,
    /// `name_places[name_ends[i - 1]..name_ends[i]]` are the places of name `i`.
    pub(crate) name_ends: Vec<u32>,
    pub(crate) name_places: Vec<u32>,
    /// Strict key of each name, same indexes as `names`.
    strict_of_name: ByteArena,
    /// Folded name hash → name.
    folded: KeyTable<u32>,
    /// Strict key hash → (place, name) postings.
    strict: KeyTable<Posting>,
    /// Skeleton hash → slots of `strict`: each distinct strict key under the
    /// skeleton once, so a lookup compares each spelling once, not once per
    /// place and name.
    skeleton: KeyTable<u32>,
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

impl NameIndex {
    /// Builds the key tables. `names` are distinct and sorted; `name_ends` and
    /// `name_places` give each name's places (indexes into the place list).
    pub(crate) fn build(names: Arena, name_ends: Vec<u32>, name_places: Vec<u32>) -> NameIndex {
        let mut strict_of_name = ByteArena {
            bytes: Vec::with_capacity(names.bytes.len()),
            ends: Vec::with_capacity(names.len()),
        };
        let mut folded_entries = Vec::with_capacity(names.len());
        let mut strict_entries = Vec::with_capacity(name_places.len());
        let mut strict = Vec::new();
        let mut place_start = 0usize;
        for (name_idx, name) in names.iter().enumerate() {
            let place_end = name_ends.get(name_idx).copied().unwrap_or(0) as usize;
            let places = name_places.get(place_start..place_end).unwrap_or(&[]);
            place_start = place_end;
            strict.clear();
            strict_from_folded(name, &mut strict);
            strict_of_name.push(&strict);
            let name_idx = name_idx as u32;
            folded_entries.push((hash_key(TAG_FOLDED, name.as_bytes()), name_idx));
            if strict.len() >= MIN_STRICT_KEY_LEN {
                let hash = hash_key(TAG_STRICT, &strict);
                strict_entries.extend(places.iter().map(|&place| {
                    (
                        hash,
                        Posting {
                            place,
                            name: name_idx,
                        },
                    )
                }));
            }
        }
        let strict_table = KeyTable::build(&strict_entries);
        drop(strict_entries);
        let mut skeleton_entries = Vec::new();
        let mut skeleton = Vec::new();
        for slot in strict_table.occupied() {
            let Some(first) = strict_table.run(slot).first() else {
                continue;
            };
            skeleton.clear();
            skeleton_from_strict(strict_of_name.get(first.name as usize), &mut skeleton);
            if skeleton.len() >= MIN_SKELETON_LEN {
                skeleton_entries.push((hash_key(TAG_SKELETON, &skeleton), slot as u32));
            }
        }
        NameIndex {
            folded: KeyTable::build(&folded_entries),
            strict: strict_table,
            skeleton: KeyTable::build(&skeleton_entries),
            names,
            name_ends,
            name_places,
            strict_of_name,
        }
    }

    /// Places of folded name `name_idx`.
    pub(crate) fn places_of_name(&self, name_idx: usize) -> &[u32] {
        let end = self.name_ends.get(name_idx).copied().unwrap_or(0) as usize;
        let start = if name_idx == 0 {
            0
        } else {
            self.name_ends.get(name_idx - 1).copied().unwrap_or(0) as usize
        };
        self.name_places.get(start..end).unwrap_or(&[])
    }

    /// Places whose folded name is exactly `keys.folded`.
    pub(crate) fn folded_matches(&self, keys: &QueryKeys) -> &[u32] {
        for &name in self
            .folded
            .get(hash_key(TAG_FOLDED, keys.folded.as_bytes()))
        {
            if self.names.get(name as usize) == keys.folded {
                return self.places_of_name(name as usize);
            }
        }
        &[]
    }

    /// Postings whose name has exactly the strict key `keys.strict`.
    pub(crate) fn strict_matches<'a>(
        &'a self,
        keys: &'a QueryKeys,
    ) -> impl Iterator<Item = Posting> + 'a {
        let postings = if keys.strict.len() >= MIN_STRICT_KEY_LEN {
            self.strict.get(hash_key(TAG_STRICT, &keys.strict))
        } else {
            &[]
        };
        postings
            .iter()
            .copied()
            .filter(move |p| self.strict_key_of(p.name) == keys.strict.as_slice())
    }

    /// The distinct strict keys that share the query's skeleton, each with its
    /// postings (the query's own strict key included).
    pub(crate) fn skeleton_matches<'a>(
        &'a self,
        keys: &QueryKeys,
    ) -> impl Iterator<Item = (&'a [u8], impl Iterator<Item = Posting> + 'a)> + 'a {
        let slots = if keys.skeleton.len() >= MIN_SKELETON_LEN {
            self.skeleton.get(hash_key(TAG_SKELETON, &keys.skeleton))
        } else {
            &[]
        };
        slots.iter().filter_map(move |&slot| {
            let postings = self.strict.run(slot as usize);
            let strict = self.strict_key_of(postings.first()?.name);
            // Keys whose hashes collide share a run: keep this key's postings.
            let same_key = postings
                .iter()
                .copied()
                .filter(move |p| self.strict_key_of(p.name) == strict);
            Some((strict, same_key))
        })
    }

    pub(crate) fn strict_key_of(&self, name: u32) -> &[u8] {
        self.strict_of_name.get(name as usize)
    }

    /// Approximate heap use, for the load-time report.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.names.heap_bytes()
            + self.strict_of_name.heap_bytes()
            + (self.name_ends.capacity() + self.name_places.capacity()) * 4
            + self.folded.heap_bytes()
            + self.strict.heap_bytes()
            + self.skeleton.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(names: &[(&str, &[u32])]) -> NameIndex {
        let mut arena = Arena::default();
        let mut ends = Vec::new();
        let mut places = Vec::new();
        for (name, ps) in names {
            arena.push(name);
            places.extend_from_slice(ps);
            ends.push(places.len() as u32);
        }
        NameIndex::build(arena, ends, places)
    }

    #[test]
    fn finds_each_key_kind() {
        let idx = index(&[("ar raqqah", &[0]), ("harasta", &[1, 2]), ("raqqa", &[0])]);
        let mut keys = QueryKeys::default();
        keys.compute("Harasta");
        assert_eq!(idx.folded_matches(&keys), &[1, 2]);
        keys.compute("Raqa");
        assert!(idx.folded_matches(&keys).is_empty());
        let strict: Vec<u32> = idx.strict_matches(&keys).map(|p| p.place).collect();
        assert_eq!(strict, vec![0, 0]);
        keys.compute("Haresta");
        assert_eq!(idx.strict_matches(&keys).count(), 0);
        let spellings: Vec<&[u8]> = idx
            .skeleton_matches(&keys)
            .map(|(strict, _)| strict)
            .collect();
        assert_eq!(spellings, vec![&b"harasta"[..]]);
        let places: Vec<u32> = idx
            .skeleton_matches(&keys)
            .flat_map(|(_, p)| p)
            .map(|p| p.place)
            .collect();
        assert_eq!(places, vec![1, 2]);
        keys.compute("Nowhere");
        assert!(idx.folded_matches(&keys).is_empty());
        assert_eq!(idx.skeleton_matches(&keys).count(), 0);
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
        assert_eq!(idx.strict_matches(&keys).count(), 0);
        assert_eq!(idx.skeleton_matches(&keys).count(), 0);
    }

    #[test]
    fn arena_round_trips() {
        let mut arena = Arena::default();
        for s in ["", "a", "bc"] {
            arena.push(s);
        }
        assert_eq!(arena.iter().collect::<Vec<_>>(), vec!["", "a", "bc"]);
        assert_eq!(arena.get(7), "");
    }
}
