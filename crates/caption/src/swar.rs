//! Byte tests eight bytes at a time, on a `u64` read little-endian: each
//! answers in the high bit of every byte it holds for. The word table's case
//! folding and the word-start scans of flag cues and well-known names use
//! them, so text is not looked at byte by byte where few bytes matter.

/// `0x01` in every byte.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte: where the tests answer.
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;

/// Up to eight bytes as a little-endian integer, zero-padded: loads, never
/// a `memcpy` call, which costs more than the rest of a word-table probe.
#[inline(always)]
pub(crate) fn little_endian(chunk: &[u8]) -> u64 {
    if let Ok(eight) = <[u8; 8]>::try_from(chunk) {
        return u64::from_le_bytes(eight);
    }
    let mut value = 0u64;
    let mut shift = 0;
    let mut rest = chunk;
    if let Some((four, tail)) = rest.split_first_chunk::<4>() {
        value = u64::from(u32::from_le_bytes(*four));
        shift = 32;
        rest = tail;
    }
    if let Some((two, tail)) = rest.split_first_chunk::<2>() {
        value |= u64::from(u16::from_le_bytes(*two)) << shift;
        shift += 16;
        rest = tail;
    }
    if let Some(&one) = rest.first() {
        value |= u64::from(one) << shift;
    }
    value
}

/// The ASCII bytes from `lo` to `hi` (both ASCII, `lo <= hi`): the low
/// seven bits plus a constant reach the high bit from `lo` on, and past it
/// after `hi`; no byte's sum carries into the next.
#[inline(always)]
pub(crate) fn in_ascii_range(eight: u64, lo: u8, hi: u8) -> u64 {
    let low7 = eight & !HIGH;
    (low7 + ONES * u64::from(0x80 - lo)) & !(low7 + ONES * u64::from(0x7f - hi)) & !eight & HIGH
}

/// The bytes equal to `byte`: zero bytes of the difference, with the
/// classic borrow trick.
#[inline(always)]
pub(crate) fn bytes_equal(eight: u64, byte: u8) -> u64 {
    let diff = eight ^ (ONES * u64::from(byte));
    diff.wrapping_sub(ONES) & !diff & HIGH
}

/// ASCII letters and digits.
#[inline(always)]
pub(crate) fn ascii_alnum(eight: u64) -> u64 {
    // Bit 5 set folds capitals onto small letters (and nothing else onto them).
    in_ascii_range(eight | (ONES * 0x20), b'a', b'z') | in_ascii_range(eight, b'0', b'9')
}

/// `to_ascii_lowercase` on each of the eight bytes: capitals get bit 5 set;
/// every other byte, non-ASCII ones included, stays.
#[inline(always)]
pub(crate) fn ascii_lowercase(eight: u64) -> u64 {
    eight | (in_ascii_range(eight, b'A', b'Z') >> 2)
}

/// Every byte `b` in every lane of eight `filler` bytes, with the lane's
/// flag bit (`0x80` in that lane): the cases a byte test must agree on.
#[cfg(test)]
pub(crate) fn each_byte_in_each_lane(filler: u8) -> impl Iterator<Item = (u8, u64, u64)> {
    (0..=255u8).flat_map(move |b| {
        (0..8).map(move |lane| {
            let eight = u64::from_le_bytes([filler; 8]) & !(0xff << (lane * 8))
                | u64::from(b) << (lane * 8);
            (b, eight, 0x80 << (lane * 8))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_tests_agree_with_the_byte_methods_in_every_lane() {
        for filler in [b' ', b'x', b'Z', 0xff] {
            for (b, eight, flag) in each_byte_in_each_lane(filler) {
                let lane = flag.trailing_zeros() / 8;
                assert_eq!(
                    ascii_alnum(eight) & flag != 0,
                    b.is_ascii_alphanumeric(),
                    "{b}"
                );
                assert_eq!(bytes_equal(eight, b'(') & flag != 0, b == b'(', "{b}");
                assert_eq!(
                    in_ascii_range(eight, b'A', b'Z') & flag != 0,
                    b.is_ascii_uppercase(),
                    "{b}"
                );
                assert_eq!(
                    (ascii_lowercase(eight) >> (lane * 8)) as u8,
                    b.to_ascii_lowercase(),
                    "{b}"
                );
            }
        }
    }
}
