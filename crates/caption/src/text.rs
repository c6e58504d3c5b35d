//! Text normalization shared by the extractors: whitespace, ids, the
//! description that remains when the credit is cut out.

use crate::span::Span;

/// Collapses every run of whitespace into one space and trims both ends.
pub fn normalize_whitespace(s: &str) -> String {
    normalized(s).into_owned()
}

/// [`normalize_whitespace`] without a copy when `s` is normalized already,
/// as most captions are: one check, and a copy only where it is needed.
pub(crate) fn normalized(s: &str) -> std::borrow::Cow<'_, str> {
    if is_normalized(s) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `s` has no whitespace but single spaces between words.
fn is_normalized(s: &str) -> bool {
    let bytes = s.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return true;
    };
    if first == b' ' || last == b' ' || is_control_space(last) {
        return false;
    }
    // One branch-free pass the compiler vectorizes: two spaces in a row, an
    // ASCII control space, or the lead byte of a possible Unicode space
    // (U+0085, U+00A0, U+1680, U+2000–U+3000).
    let mut double_space = false;
    let mut maybe_other_space = false;
    for (&b, &next) in bytes.iter().zip(&bytes[1..]) {
        double_space |= (b == b' ') & (next == b' ');
        maybe_other_space |= is_control_space(b) | (b == 0xC2) | (b.wrapping_sub(0xE1) < 3);
    }
    if double_space {
        return false;
    }
    // Typographic quotes and dashes share the lead byte 0xE2: decode those.
    !maybe_other_space || !has_other_space(s)
}

/// Whether `s` holds white space other than `' '`: an ASCII control space,
/// or a Unicode space, whose UTF-8 forms all start with 0xC2 (U+0085,
/// U+00A0), 0xE1 (U+1680), 0xE2 (U+2000 to U+205F) or 0xE3 (U+3000). Only
/// the chars that start with those bytes are decoded, not the whole text
/// (which a caption with typographic quotes would otherwise cost).
fn has_other_space(s: &str) -> bool {
    s.bytes().enumerate().any(|(i, b)| {
        is_control_space(b)
            || (matches!(b, 0xC2 | 0xE1..=0xE3) && char_at(s, i).is_some_and(char::is_whitespace))
    })
}

/// Tab, line feed, vertical tab, form feed, carriage return.
fn is_control_space(b: u8) -> bool {
    b.wrapping_sub(b'\t') < 5
}

/// The character at byte `at` of `s` (a char boundary), without decoding
/// UTF-8 for the ASCII bytes that make up most captions.
#[inline]
pub(crate) fn char_at(s: &str, at: usize) -> Option<char> {
    match s.as_bytes().get(at) {
        Some(&b) if b.is_ascii() => Some(char::from(b)),
        Some(_) => s.get(at..).and_then(|rest| rest.chars().next()),
        None => None,
    }
}

/// Lower-case hexadecimal digits, by value.
pub(crate) const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Stable id of a caption: 16 hex digits of XXH3-64 over its normalized text.
/// XXH3's output is fixed by its specification, so ids survive upgrades.
pub(crate) fn caption_id(normalized: &str) -> String {
    let hash = xxhash_rust::xxh3::xxh3_64(normalized.as_bytes());
    // By hand: `format!("{:016x}")` cost several times the hash itself.
    (0..16)
        .rev()
        .map(|nibble| char::from(HEX_DIGITS[(hash >> (nibble * 4)) as usize & 0xf]))
        .collect()
}

/// The part of `text` before the credit (or after it, when the credit leads),
/// trimmed of separators left between the two.
pub(crate) fn description_span(text: &str, credit: Span) -> Span {
    let before = Span::new(0, credit.start);
    let after = Span::new(credit.end, text.len());
    let chosen = if before.of(text).trim().len() >= after.of(text).trim().len() {
        before
    } else {
        after
    };
    trim_span(text, chosen)
}

/// The caption without its credit.
pub(crate) fn description_text(text: &str, credit: Option<Span>) -> String {
    match credit {
        None => text.to_string(),
        Some(credit) => {
            let head = text[..credit.start].trim_end_matches(is_credit_separator);
            let tail =
                text[credit.end..].trim_start_matches(|c: char| c.is_whitespace() || c == '.');
            // One space between the parts, none at the ends: the result
            // is then normalized already whenever `text` is.
            let mut joined = String::with_capacity(head.len() + 1 + tail.len());
            joined.push_str(head);
            if !head.is_empty() && !tail.is_empty() {
                joined.push(' ');
            }
            joined.push_str(tail);
            if is_normalized(&joined) {
                joined
            } else {
                normalize_whitespace(&joined)
            }
        }
    }
}

/// What a page sets between a description and its credit (`... 2020 -
/// Copyright Jane Doe`, `... | REUTERS`): white space, slashes, bars and
/// dashes. Left on the description, a dash would stand between a date and
/// the sentence end that makes it the date taken.
pub(crate) fn is_credit_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '/' | '|' | '-' | '\u{2013}' | '\u{2014}')
}

/// Shrinks a span past surrounding whitespace and credit separators.
pub(crate) fn trim_span(text: &str, span: Span) -> Span {
    let s = span.of(text);
    let start = span.start + (s.len() - s.trim_start_matches(is_credit_separator).len());
    let end = span.end - (s.len() - s.trim_end_matches(is_credit_separator).len());
    Span::new(start, end.max(start))
}

/// Whether no letter or digit stands just before byte `at` of `haystack`.
pub(crate) fn is_boundary_before(haystack: &str, at: usize) -> bool {
    match at.checked_sub(1).map(|i| haystack.as_bytes()[i]) {
        None => true,
        Some(b) if b.is_ascii() => !b.is_ascii_alphanumeric(),
        Some(_) => haystack[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric()),
    }
}

/// Where `needle` starts in `hay`, the first time: [`str::find`]'s answer,
/// without building a substring searcher. Credit words and names are short
/// and their haystacks a few hundred bytes, where the searcher's set-up
/// costs more than the search: a scan for the needle's first byte, then a
/// compare at each hit.
#[inline]
pub(crate) fn find_short(hay: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let (&first, rest) = needle.split_first()?;
    memchr::memchr_iter(first, hay).find(|&at| hay[at + 1..].starts_with(rest))
}

/// The starts of `needle`'s non-overlapping occurrences in `hay`, left to
/// right: what [`str::match_indices`] yields, by [`find_short`]'s scan.
/// An empty needle goes to `match_indices` itself.
pub(crate) fn match_starts<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let empty = needle.is_empty();
    let slow = empty.then(|| hay.match_indices(needle).map(|(at, _)| at));
    let mut from = 0;
    let fast = std::iter::from_fn(move || {
        if empty || from > hay.len() {
            return None;
        }
        let at = from + find_short(&hay[from..], needle)?;
        from = at + needle.len();
        Some(at)
    });
    slow.into_iter().flatten().chain(fast)
}

/// `hay.split(byte as char)` for an ASCII `byte`, eight bytes at a time: the
/// pieces of a credit or a name are a few bytes long, too short for the
/// SIMD search `str::split` sets up for each piece to pay for itself.
/// Cutting at an ASCII byte keeps every piece whole UTF-8.
pub(crate) fn split_ascii(hay: &str, byte: u8) -> impl Iterator<Item = &str> + Clone {
    debug_assert!(byte.is_ascii());
    let bytes = hay.as_bytes();
    let mut start = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let end = crate::swar::find_byte(bytes, start, byte).unwrap_or(bytes.len());
        let piece = &hay[start..end];
        done = end == bytes.len();
        start = end + 1;
        Some(piece)
    })
}

/// `hay.rsplit_once(byte as char)` for an ASCII `byte`, by a byte loop
/// (see [`split_ascii`]).
pub(crate) fn rsplit_once_ascii(hay: &str, byte: u8) -> Option<(&str, &str)> {
    debug_assert!(byte.is_ascii());
    let at = hay.as_bytes().iter().rposition(|&b| b == byte)?;
    Some((&hay[..at], &hay[at + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caption_ids_are_the_hash_in_sixteen_hex_digits() {
        for text in [
            "",
            "a",
            "Men walk in a street, May 2, 2016. REUTERS/Jane Doe",
        ] {
            let hash = xxhash_rust::xxh3::xxh3_64(text.as_bytes());
            assert_eq!(caption_id(text), format!("{hash:016x}"));
        }
        assert_eq!(caption_id("").len(), 16);
    }

    #[test]
    fn normalizing_matches_splitting_on_whitespace() {
        let slow = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        for s in [
            "",
            " ",
            "a",
            "a b",
            " a b",
            "a b ",
            "a  b",
            "a\tb",
            "a\nb",
            "a\u{a0}b",
            "a\u{2009}b",
            "a\u{3000}b",
            "a\u{85}b",
            "caf\u{e9} \u{2013} \u{2019}s \u{1f600}",
            "\u{2028}",
        ] {
            assert_eq!(normalize_whitespace(s), slow(s), "{s:?}");
        }
    }

    #[test]
    fn other_spaces_are_found_in_every_char() {
        let mut buf = [0u8; 4];
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            let one = c.encode_utf8(&mut buf);
            assert_eq!(has_other_space(one), c.is_whitespace() && c != ' ', "{c:?}");
        }
        let text = "\u{201c}Boats\u{201d} wait \u{2013} at\u{a0}the quay";
        assert!(has_other_space(text));
        assert!(!has_other_space(
            "\u{201c}Boats\u{201d} wait \u{2013} at the quay"
        ));
    }

    #[test]
    fn short_finds_match_std() {
        let cases = [
            ("", ""),
            ("abc", ""),
            ("", "a"),
            ("aaaa", "aa"),
            ("Ana Ana Ana", "Ana Ana"),
            ("released by Jane Doe. Jane Doe/Reuters", "Jane Doe"),
            ("caf\u{e9} caf\u{e9}", "\u{e9}"),
            ("x for y FOR z", " FOR "),
            ("abcabd", "abd"),
        ];
        for (hay, needle) in cases {
            assert_eq!(
                find_short(hay, needle),
                if needle.is_empty() {
                    None
                } else {
                    hay.find(needle)
                },
                "{hay:?} {needle:?}"
            );
            let std: Vec<usize> = hay.match_indices(needle).map(|(at, _)| at).collect();
            assert_eq!(
                match_starts(hay, needle).collect::<Vec<_>>(),
                std,
                "{hay:?} {needle:?}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn short_finds_match_std_on_any_text(hay in "[ab \u{e9}]{0,24}", needle in "[ab \u{e9}]{0,4}") {
            let expected = if needle.is_empty() { None } else { hay.find(needle.as_str()) };
            proptest::prop_assert_eq!(find_short(&hay, &needle), expected);
            let std: Vec<usize> = hay.match_indices(needle.as_str()).map(|(at, _)| at).collect();
            proptest::prop_assert_eq!(match_starts(&hay, &needle).collect::<Vec<_>>(), std);
        }

        #[test]
        fn ascii_splits_match_std(hay in "[a/ |\u{e9}\u{2019}-]{0,16}") {
            for byte in [b' ', b'/', b'|', b'-'] {
                let std: Vec<&str> = hay.split(char::from(byte)).collect();
                proptest::prop_assert_eq!(split_ascii(&hay, byte).collect::<Vec<_>>(), std);
                proptest::prop_assert_eq!(rsplit_once_ascii(&hay, byte), hay.rsplit_once(char::from(byte)));
            }
        }
    }
}
