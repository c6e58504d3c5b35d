//! The near-duplicate candidates of an ingest session, in memory: which
//! records share an LSH key, and the fingerprints of the variants each
//! record compares with.
//!
//! The store keeps each variant's keys (`variants.lsh`); this map is built
//! from them when the session adds its first document, and grows with every
//! variant added. Looking keys up in a store table cost thirteen random
//! B-tree reads and thirteen random inserts per variant, which stopped
//! fitting SQLite's cache a few hundred thousand captions in (an ingest of
//! a million captions spent most of its time there).
//!
//! It answers exactly what the table did: a key shared by more than
//! [`MAX_KEY_RECORDS`] records is skipped, candidates are ranked by shared
//! keys (then lowest key first), and a candidate's variants are compared in
//! id order, at most [`MAX_VARIANTS_COMPARED`] of them.

use std::collections::HashMap;

use crate::dedup::{BuildPassThrough, Fingerprint, Interner};

/// A near-duplicate key shared by more records than this is skipped.
pub const MAX_KEY_RECORDS: usize = 64;

/// Candidate clusters compared at most, those sharing most keys first.
pub const MAX_CANDIDATES: usize = 16;

/// Variants of one candidate cluster compared at most.
pub const MAX_VARIANTS_COMPARED: usize = 8;

/// A key shared by too many records (a value of [`Candidates::keys`]).
const CROWDED: i64 = i64::MIN;

/// One variant a record compares with.
pub struct Known {
    /// Variant id.
    pub id: Box<str>,
    /// Its fingerprint; `None` until first needed when the variant was
    /// added by an earlier session (read from the store then).
    pub fingerprint: Option<Fingerprint<u32>>,
}

/// The session's candidate map.
#[derive(Default)]
pub struct Candidates {
    /// LSH key → the one record holding it (a positive store key), or
    /// `-(i + 1)` for the records in `shared[i]`, or [`CROWDED`].
    keys: HashMap<u64, i64, BuildPassThrough>,
    /// Records of keys held by more than one record.
    shared: Vec<Vec<i64>>,
    /// By record key: its first variants in id order.
    records: Vec<Vec<Known>>,
    /// Word ids of the fingerprints.
    pub interner: Interner,
    /// A document is being added: when it is not committed, this map holds
    /// what the store does not, and is dropped.
    pub in_document: bool,
}

impl Candidates {
    /// Adds a variant's keys to its record.
    pub fn add_keys(&mut self, record: i64, keys: &[i64]) {
        for &key in keys {
            let slot = self.keys.entry(key as u64).or_insert(record);
            match *slot {
                CROWDED => {}
                r if r == record => {}
                r if r > 0 => {
                    let i = self.shared.len();
                    self.shared.push(vec![r, record]);
                    *slot = -(i as i64 + 1);
                }
                r => {
                    let list = &mut self.shared[(-r - 1) as usize];
                    if !list.contains(&record) {
                        list.push(record);
                        if list.len() > MAX_KEY_RECORDS {
                            *list = Vec::new();
                            *slot = CROWDED;
                        }
                    }
                }
            }
        }
    }

    /// Adds a variant to its record's compared variants (kept in id order,
    /// the first [`MAX_VARIANTS_COMPARED`]).
    pub fn add_variant(&mut self, record: i64, id: &str, fingerprint: Option<Fingerprint<u32>>) {
        let Ok(index) = usize::try_from(record) else {
            return;
        };
        if self.records.len() <= index {
            self.records.resize_with(index + 1, Vec::new);
        }
        let known = &mut self.records[index];
        let at = known.partition_point(|k| *k.id < *id);
        if at >= MAX_VARIANTS_COMPARED || known.get(at).is_some_and(|k| *k.id == *id) {
            return;
        }
        // Most records have one variant: no room for four (a Vec's first
        // growth), which cost a third of a gigabyte at a million records.
        known.reserve_exact(1);
        known.insert(
            at,
            Known {
                id: id.into(),
                fingerprint,
            },
        );
        known.truncate(MAX_VARIANTS_COMPARED);
    }

    /// Candidate records of a variant with these keys, best first.
    pub fn ranked(&self, keys: &[i64]) -> Vec<i64> {
        let mut all: Vec<i64> = Vec::new();
        for &key in keys {
            match self.keys.get(&(key as u64)) {
                None | Some(&CROWDED) => {}
                Some(&r) if r > 0 => all.push(r),
                Some(&r) => all.extend_from_slice(&self.shared[(-r - 1) as usize]),
            }
        }
        all.sort_unstable();
        let mut shared: Vec<(i64, usize)> = Vec::new();
        for r in all {
            match shared.last_mut() {
                Some((last, n)) if *last == r => *n += 1,
                _ => shared.push((r, 1)),
            }
        }
        shared.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        shared
            .into_iter()
            .take(MAX_CANDIDATES)
            .map(|(r, _)| r)
            .collect()
    }

    /// The compared variants of a record.
    pub fn variants_mut(&mut self, record: i64) -> &mut [Known] {
        usize::try_from(record)
            .ok()
            .and_then(|i| self.records.get_mut(i))
            .map_or(&mut [], |v| v.as_mut_slice())
    }
}

/// A variant's keys as stored (`variants.lsh`): 8 bytes each, little endian.
pub fn encode_keys(keys: &[i64]) -> Vec<u8> {
    keys.iter().flat_map(|k| k.to_le_bytes()).collect()
}

/// The keys of `variants.lsh`.
pub fn decode_keys(bytes: &[u8]) -> impl Iterator<Item = i64> + '_ {
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowded_keys_are_skipped_and_ranking_is_by_shared_keys() {
        let mut c = Candidates::default();
        for record in 1..=MAX_KEY_RECORDS as i64 + 1 {
            c.add_keys(record, &[7]);
        }
        assert!(c.ranked(&[7]).is_empty());
        c.add_keys(3, &[1, 2]);
        c.add_keys(2, &[2]);
        c.add_keys(2, &[2]);
        assert_eq!(c.ranked(&[1, 2, 7]), vec![3, 2]);
    }

    #[test]
    fn first_variants_by_id() {
        let mut c = Candidates::default();
        for id in ["k", "c", "a", "j", "i", "h", "g", "f", "e", "d", "b"] {
            c.add_variant(4, id, None);
        }
        let ids: Vec<&str> = c.variants_mut(4).iter().map(|k| &*k.id).collect();
        assert_eq!(ids, ["a", "b", "c", "d", "e", "f", "g", "h"]);
    }
}
