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

/// The eight bytes of `bytes` from `at` on, zero-padded past its end: a
/// token scan reads its text eight bytes at a time up to the last byte.
#[inline(always)]
pub(crate) fn eight_at(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(eight) => little_endian(eight),
        None => little_endian(bytes.get(at..).unwrap_or_default()),
    }
}

/// Where the last ASCII digit of `bytes` is, eight bytes at a time from
/// the end.
pub(crate) fn last_ascii_digit(bytes: &[u8]) -> Option<usize> {
    let mut end = bytes.len();
    for chunk in bytes.rchunks(8) {
        end -= chunk.len();
        let digits = in_ascii_range(little_endian(chunk), b'0', b'9');
        if digits != 0 {
            return Some(end + (63 - digits.leading_zeros() as usize) / 8);
        }
    }
    None
}

/// How many bytes, from the first, a test answered for: the length of a
/// run of flagged bytes (8 when all are).
#[inline(always)]
pub(crate) fn leading_flagged(flags: u64) -> usize {
    (((!flags) & HIGH).trailing_zeros() / 8) as usize
}

/// How many ASCII letters and digits run from byte `at` of `bytes`, eight
/// bytes at a time.
#[inline(always)]
pub(crate) fn ascii_alnum_run(bytes: &[u8], at: usize) -> usize {
    let mut len = 0;
    loop {
        let more = leading_flagged(ascii_alnum(eight_at(bytes, at + len)));
        len += more;
        if more < 8 {
            return len;
        }
    }
}

/// How many ASCII digits `bytes` holds, eight bytes at a time.
pub(crate) fn count_ascii_digits(bytes: &[u8]) -> usize {
    bytes
        .chunks(8)
        .map(|chunk| in_ascii_range(little_endian(chunk), b'0', b'9').count_ones() as usize)
        .sum()
}

/// Where the first `byte` at `from` or after it stands in `bytes`, eight
/// bytes at a time (a word or two ahead: too near for a SIMD search to pay
/// for its set-up, too far for a byte loop to be cheap).
#[inline]
pub(crate) fn find_byte(bytes: &[u8], from: usize, byte: u8) -> Option<usize> {
    let mut at = from;
    while at < bytes.len() {
        let flags = bytes_equal(eight_at(bytes, at), byte);
        if flags != 0 {
            // A zero `byte` may match the padding past the end.
            let found = at + (flags.trailing_zeros() / 8) as usize;
            return (found < bytes.len()).then_some(found);
        }
        at += 8;
    }
    None
}

/// Where the last `byte` before `end` stands in `bytes`, eight bytes at a
/// time backwards ([`find_byte`]'s mirror).
#[inline]
pub(crate) fn rfind_byte(bytes: &[u8], end: usize, byte: u8) -> Option<usize> {
    let mut end = end.min(bytes.len());
    while end >= 8 {
        let flags = bytes_equal(little_endian(&bytes[end - 8..end]), byte);
        if flags != 0 {
            return Some(end - 8 + (63 - flags.leading_zeros() as usize) / 8);
        }
        end -= 8;
    }
    bytes[..end].iter().rposition(|&b| b == byte)
}

/// The low `n` bytes of an integer (`n` up to 8) set, the rest clear.
#[inline(always)]
pub(crate) fn low_bytes(n: usize) -> u64 {
    match n {
        0..8 => (1u64 << (8 * n)) - 1,
        _ => u64::MAX,
    }
}

/// The ASCII bytes from `lo` to `hi` (both ASCII, `lo <= hi`): the low
/// seven bits plus a constant reach the high bit from `lo` on, and past it
/// after `hi`; no byte's sum carries into the next.
#[inline(always)]
pub(crate) fn in_ascii_range(eight: u64, lo: u8, hi: u8) -> u64 {
    let low7 = eight & !HIGH;
    (low7 + ONES * u64::from(0x80 - lo)) & !(low7 + ONES * u64::from(0x7f - hi)) & !eight & HIGH
}

/// The bytes equal to `byte`: zero bytes of the difference. Exact in every
/// byte (the classic borrow trick may flag a byte above a match), so that a
/// run of flags can be counted.
#[inline(always)]
pub(crate) fn bytes_equal(eight: u64, byte: u8) -> u64 {
    let diff = eight ^ (ONES * u64::from(byte));
    // The low seven bits plus 0x7f reach the high bit unless all are zero,
    // and no byte's sum carries into the next.
    let nonzero = ((diff & !HIGH) + !HIGH) | diff;
    !nonzero & HIGH
}

/// ASCII letters.
#[inline(always)]
pub(crate) fn ascii_letters(eight: u64) -> u64 {
    // Bit 5 set folds capitals onto small letters (and nothing else onto them).
    in_ascii_range(eight | (ONES * 0x20), b'a', b'z')
}

/// ASCII letters and digits.
#[inline(always)]
pub(crate) fn ascii_alnum(eight: u64) -> u64 {
    ascii_letters(eight) | in_ascii_range(eight, b'0', b'9')
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
    fn alnum_runs_count_what_a_byte_loop_counts() {
        let text = "Al-Bab2016 abcdefghijklmnopqrstu Zürich x.y ".as_bytes();
        for at in 0..=text.len() {
            let by_byte = text[at..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            assert_eq!(ascii_alnum_run(text, at), by_byte, "at {at}");
        }
    }

    #[test]
    fn loads_pad_with_zeros_and_masks_keep_low_bytes() {
        let bytes = b"abcdefghij";
        assert_eq!(eight_at(bytes, 0), u64::from_le_bytes(*b"abcdefgh"));
        assert_eq!(eight_at(bytes, 7), u64::from_le_bytes(*b"hij\0\0\0\0\0"));
        assert_eq!(eight_at(bytes, 10), 0);
        assert_eq!(low_bytes(0), 0);
        assert_eq!(low_bytes(3), 0xff_ffff);
        assert_eq!(low_bytes(8), u64::MAX);
    }

    #[test]
    fn the_last_digit_is_found_in_any_lane() {
        for len in 0..20 {
            for digit in 0..len {
                let mut bytes = vec![b'x'; len];
                bytes[digit] = b'7';
                if digit > 0 {
                    bytes[digit - 1] = b'3';
                }
                assert_eq!(last_ascii_digit(&bytes), Some(digit));
            }
            assert_eq!(last_ascii_digit(&vec![b'/'; len]), None);
        }
    }

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
                assert_eq!(
                    ascii_letters(eight) & flag != 0,
                    b.is_ascii_alphabetic(),
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
                let run = (0..8)
                    .take_while(|&i| (eight >> (8 * i)) as u8 == filler)
                    .count();
                assert_eq!(leading_flagged(bytes_equal(eight, filler)), run);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn digit_counts_and_byte_finds_match_byte_loops(
            bytes in proptest::collection::vec(proptest::sample::select(vec![0u8, b' ', b'0', b'9', b'a', b'/', 0xC3, 0xA9]), 0..40),
            from in 0usize..44,
        ) {
            let digits = bytes.iter().filter(|b| b.is_ascii_digit()).count();
            proptest::prop_assert_eq!(count_ascii_digits(&bytes), digits);
            for byte in [b' ', 0u8, b'/'] {
                let expected = bytes.iter().enumerate().skip(from).find(|&(_, &b)| b == byte).map(|(i, _)| i);
                proptest::prop_assert_eq!(find_byte(&bytes, from, byte), expected);
                let end = from.min(bytes.len());
                let last = bytes[..end].iter().rposition(|&b| b == byte);
                proptest::prop_assert_eq!(rfind_byte(&bytes, from, byte), last);
            }
        }
    }
}
