//! A fixed set of short words with a value each, looked up in any ASCII
//! case with one hash probe. The word lexicons are probed for nearly every
//! token of every caption, so a probe avoids both the `Hasher` machinery of
//! a `HashMap` and any allocation for the lowercase form.

use std::ops::BitOr;

use crate::swar::{ascii_lowercase, little_endian};

/// Longest word a table holds, in bytes.
pub(crate) const MAX_WORD: usize = 24;

/// A word's bytes, ASCII-lowercased and zero-padded, read little-endian
/// eight bytes to an integer, inline so that a probe compares integers
/// instead of chasing a pointer. A tokenizer that has loaded a word's bytes
/// already builds it without a second pass ([`WordTable::get_key`]).
pub(crate) type Key = [u64; MAX_WORD / 8];

/// The all-zero key of an empty slot (no word has it).
const EMPTY: Key = [0; MAX_WORD / 8];

/// The key of a word, `None` when it is empty or longer than [`MAX_WORD`].
/// Bytes are gathered into integers by loads, not copied through a buffer,
/// so the probe does not wait on a store to memory it then reads.
// Always inlined: a call here costs as much as the key itself.
#[inline(always)]
pub(crate) fn key(word: &[u8]) -> Option<Key> {
    match word.len() {
        // Most words fit one integer: no loop over chunks.
        1..=8 => Some([ascii_lowercase(little_endian(word)), 0, 0]),
        9..=MAX_WORD => {
            let mut key = EMPTY;
            for (slot, chunk) in key.iter_mut().zip(word.chunks(8)) {
                *slot = ascii_lowercase(little_endian(chunk));
            }
            Some(key)
        }
        _ => None,
    }
}

/// Words (compared ASCII-case-insensitively, like `eq_ignore_ascii_case`)
/// with a value each; values of a word added twice are or-ed.
pub(crate) struct WordTable<V> {
    /// `(key, value)`; [`EMPTY`] marks an empty slot.
    slots: Vec<(Key, V)>,
    /// log2 of the number of slots.
    bits: u32,
}

impl<V: Copy + Default + BitOr<Output = V>> WordTable<V> {
    /// A table of `words`. Panics on a word longer than [`MAX_WORD`]: the
    /// lists are constants, so a test catches that.
    pub(crate) fn new<'a>(words: impl IntoIterator<Item = (&'a [u8], V)>) -> WordTable<V> {
        let mut keyed: Vec<(Key, V)> = words
            .into_iter()
            .map(|(word, value)| {
                let key = key(word).unwrap_or_else(|| panic!("word table entry {word:?}"));
                (key, value)
            })
            .collect();
        // Equal keys side by side, their values or-ed into one entry; the
        // keys are then placed in sorted order, not in a hasher's random one,
        // so that every run probes alike and instruction counts repeat.
        keyed.sort_unstable_by_key(|(key, _)| *key);
        keyed.dedup_by(|(key, value), (kept_key, kept_value)| {
            let same = key == kept_key;
            if same {
                *kept_value = *kept_value | *value;
            }
            same
        });
        let bits = (keyed.len() * 2)
            .max(2)
            .next_power_of_two()
            .trailing_zeros();
        let mut table = WordTable {
            slots: vec![(EMPTY, V::default()); 1 << bits],
            bits,
        };
        let mask = table.slots.len() - 1;
        for (key, value) in keyed {
            let mut i = table.home(&key);
            while table.slots[i].0 != EMPTY {
                i = (i + 1) & mask;
            }
            table.slots[i] = (key, value);
        }
        table
    }

    /// The value of `word` in any ASCII case; `None` when it is not in the
    /// table or too long to be.
    // Inlined: a probe is a few dozen instructions, called for nearly
    // every token, so a call's register saves are a large part of it.
    #[inline]
    pub(crate) fn get(&self, word: &[u8]) -> Option<V> {
        self.get_key(&key(word)?)
    }

    /// The value of the word whose [`Key`] is `key`.
    #[inline]
    pub(crate) fn get_key(&self, key: &Key) -> Option<V> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (slot_key, value) = &self.slots[i];
            if slot_key == key {
                return Some(*value);
            }
            if *slot_key == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// The home slot of a key: the FxHash multiply over its three words,
    /// top bits taken.
    fn home(&self, key: &Key) -> usize {
        const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mixed = (key[0] ^ key[1].rotate_left(21) ^ key[2].rotate_left(42)).wrapping_mul(SEED);
        (mixed >> (64 - self.bits)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_ignore_ascii_case_and_merge_values() {
        let table = WordTable::new([
            (&b"syria"[..], 1u32),
            (b"aleppo", 2),
            (b"syria", 4),
            (b"caf\xc3\xa9", 8),
        ]);
        assert_eq!(table.get(b"SyRiA"), Some(5));
        assert_eq!(table.get(b"aleppo"), Some(2));
        assert_eq!(table.get(b"CAF\xc3\xa9"), Some(8));
        assert_eq!(table.get(b"caf\xc3\x89"), None);
        assert_eq!(table.get(b"idlib"), None);
        assert_eq!(table.get(b""), None);
        assert_eq!(table.get(&[b'a'; 25]), None);
    }

    #[test]
    fn keys_lowercase_every_byte_like_the_byte_loop() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        for window in bytes
            .windows(13)
            .chain(bytes.chunks(5))
            .chain(bytes.chunks(24))
        {
            let mut expected = EMPTY;
            for (i, &b) in window.iter().enumerate() {
                expected[i / 8] |= u64::from(b.to_ascii_lowercase()) << (8 * (i % 8));
            }
            assert_eq!(key(window), Some(expected), "{window:?}");
        }
    }
}
