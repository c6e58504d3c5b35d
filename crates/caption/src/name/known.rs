//! Well-known names found verbatim: organizations (with their aliases), news
//! agencies, and multi-word places that must never read as a person.
//!
//! Matching is case-sensitive, so `Hamas` matches and `hamas` does not, and
//! a pattern only counts between word boundaries.

use std::cmp::Reverse;
use std::sync::LazyLock;

use super::Token;
use crate::span::Span;
use crate::swar;
use crate::text::is_boundary_before;

/// What a well-known name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KnownKind {
    /// An organization. `full` is the spelled-out name of its alias group
    /// (`U.N.` → `United Nations`), empty when the pattern is its own name.
    Org { full: &'static str },
    /// A news agency: an organization, except in stock phrases.
    Agency,
    /// A place (country, state, city, region) written in several words.
    Place,
}

/// One verbatim match in the caption text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KnownMatch {
    /// First byte in the caption text.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// What the name is.
    pub kind: KnownKind,
}

/// Organizations, each line an alias group: the first name is the full name.
#[rustfmt::skip]
const ORGS: &[&[&str]] = &[
    &["United Nations", "U.N.", "UN"],
    &["Islamic State", "ISIS", "ISIL", "Daesh", "Islamic State of Iraq and Syria", "Islamic State of Iraq and the Levant"],
    &["Hezbollah", "Hizbollah", "Hizbullah", "Hezbullah", "Hizballah"],
    &["al-Qaeda", "al-Qaida", "Al-Qaeda", "Al-Qaida", "al Qaeda", "Al Qaeda", "al Qaida", "Al Qaida", "al-Qa'ida"],
    &["Free Syrian Army", "FSA"],
    &["Syrian Democratic Forces", "SDF"],
    &["Hayat Tahrir al-Sham", "Hay'at Tahrir al-Sham", "HTS"],
    &["Kurdistan Workers' Party", "PKK"],
    &["People's Protection Units", "YPG"],
    &["Women's Protection Units", "YPJ"],
    &["Democratic Union Party", "PYD"],
    &["Islamic Revolutionary Guard Corps", "IRGC"],
    &["Israel Defense Forces", "IDF"],
    &["North Atlantic Treaty Organization", "NATO"],
    &["European Union", "EU"],
    &["International Committee of the Red Cross", "ICRC"],
    &["Doctors Without Borders", "Medecins Sans Frontieres", "Médecins Sans Frontières", "MSF"],
    &["Organisation for the Prohibition of Chemical Weapons", "Organization for the Prohibition of Chemical Weapons", "OPCW"],
    &["World Health Organization", "WHO"],
    &["World Food Programme", "World Food Program", "WFP"],
    &["United Nations High Commissioner for Refugees", "UNHCR"],
    &["United Nations Relief and Works Agency", "UNRWA"],
    &["International Atomic Energy Agency", "IAEA"],
    &["Rapid Support Forces", "RSF"],
    &["Syrian Observatory for Human Rights", "SOHR"],
    &["Central Intelligence Agency", "CIA"],
    &["Federal Bureau of Investigation", "FBI"],
    &["Jabhat al-Nusra", "Nusra Front", "al-Nusra Front", "Al-Nusra Front"],
    &["Houthis", "Houthi", "Huthis", "Huthi", "Ansar Allah"],
    &["al-Shabaab", "al-Shabab", "Al-Shabaab", "Al-Shabab", "al Shabaab", "Al Shabaab"],
    &["Hamas"],
    &["Taliban"],
    &["Peshmerga", "peshmerga"],
    &["Fatah"],
    &["Islamic Jihad"],
    &["Boko Haram"],
    &["Wagner Group", "Wagner"],
    &["Janjaweed"],
    &["Kataib Hezbollah", "Kata'ib Hezbollah"],
    &["UNICEF"],
    &["UNESCO"],
    &["UNDP"],
    &["UNFPA"],
    &["OCHA"],
    &["IFRC"],
    &["OSCE"],
    &["OPEC"],
    &["ASEAN"],
    &["IMF"],
    &["FIFA"],
    &["UEFA"],
    &["IOC"],
    &["FSB"],
    &["KGB"],
    &["Mossad"],
    &["Shin Bet"],
    &["Interpol"],
    &["Europol"],
    &["Frontex"],
    &["Red Cross"],
    &["Red Crescent"],
    &["White Helmets"],
    &["Amnesty International"],
    &["Human Rights Watch"],
    &["Oxfam"],
    &["Save the Children"],
    &["Islamic Relief"],
    &["Mercy Corps"],
    &["Muslim Brotherhood"],
    &["United Nations Interim Force in Lebanon", "UNIFIL"],
    &["Security Service of Ukraine", "SBU"],
    &["Federal Emergency Management Agency", "FEMA"],
    &["National Hurricane Center"],
    &["NASA"],
    &["NOAA"],
    &["Tatmadaw"],
    &["JNIM"],
    &["Arab League"],
    &["Awami League"],
    &["African Union"],
    &["Congress"],
    &["Parliament"],
    &["Senate"],
    &["Knesset"],
    &["Bundestag"],
    &["State Duma"],
    &["Verkhovna Rada"],
    &["Civil Defence"],
    &["Civil Defense"],
];

/// News agencies and broadcasters that captions name as sources.
#[rustfmt::skip]
const AGENCIES: &[&str] = &[
    "SANA", "Reuters", "AP", "Associated Press", "AFP", "Agence France-Presse",
    "Agence France Presse", "Xinhua", "TASS", "Tass", "RIA Novosti", "Interfax", "Anadolu",
    "Anadolu Agency", "IRNA", "Tasnim", "ISNA", "WAFA", "Amaq", "Yonhap", "KCNA", "Kyodo",
    "Bernama", "DPA", "EFE", "ANSA", "UPI", "Bloomberg", "Sputnik", "Ukrinform", "Al Jazeera",
    "Al-Jazeera", "Al Arabiya", "Al-Arabiya", "BBC", "CNN", "Al-Manar", "Al Manar", "Al-Mayadeen",
    "Al Mayadeen", "Fars News Agency", "New York Times", "Washington Post", "Wall Street Journal",
    "Financial Times", "Los Angeles Times",
];

/// Places written in several words, or that look like names of people.
#[rustfmt::skip]
const PLACES: &[&str] = &[
    "United States", "United Kingdom", "Saudi Arabia", "United Arab Emirates", "South Sudan",
    "South Africa", "South Korea", "North Korea", "New Zealand", "Sri Lanka", "Costa Rica",
    "Puerto Rico", "El Salvador", "Sierra Leone", "Burkina Faso", "Ivory Coast", "Czech Republic",
    "Central African Republic", "Dominican Republic", "Democratic Republic of Congo",
    "Democratic Republic of the Congo", "Republic of Congo", "Bosnia and Herzegovina",
    "Papua New Guinea", "East Timor", "Cape Verde", "Equatorial Guinea", "Trinidad and Tobago",
    "Vatican City", "San Marino", "Hong Kong", "Gaza Strip", "West Bank", "Golan Heights",
    "Middle East", "North Africa", "East Africa", "West Africa", "Latin America", "South America",
    "North America", "Central America", "Southeast Asia", "Central Asia", "Western Europe",
    "Eastern Europe", "Persian Gulf", "Red Sea", "Black Sea", "Mediterranean Sea", "Dead Sea",
    "Russian Federation", "Soviet Union", "New York", "New Jersey", "New Mexico", "New Hampshire",
    "North Carolina", "South Carolina", "North Dakota", "South Dakota", "West Virginia",
    "Rhode Island", "New Orleans", "New Delhi", "Los Angeles", "San Francisco", "San Diego",
    "San Antonio", "Las Vegas", "Rio de Janeiro", "Sao Paulo", "São Paulo", "Buenos Aires",
    "Mexico City", "Kuala Lumpur", "Tel Aviv", "Abu Dhabi", "Addis Ababa", "Cape Town",
    "Kansas City", "Salt Lake City", "St. Louis", "St Petersburg", "St. Petersburg",
    "Saint Petersburg", "Ho Chi Minh City", "Phnom Penh", "Dar es Salaam", "Gaza City",
    "Panama City", "Guatemala City", "Kuwait City", "Quebec City", "Washington D.C.",
    "Washington DC", "Northern Ireland", "Great Britain", "Western Sahara", "Horn of Africa",
    "Sub-Saharan Africa", "Nagorno-Karabakh", "Northern Cyprus", "Iraqi Kurdistan", "Mount Everest",
    "Wall Street", "Downing Street", "Capitol Hill", "Oval Office", "Times Square", "Tahrir Square",
    "Red Square", "Champs-Elysees", "Old City", "Arabian Peninsula", "Sinai Peninsula",
    "Korean Peninsula", "Gulf of Mexico", "Strait of Hormuz", "Suez Canal", "English Channel",
    "Tigris", "Euphrates", "Nile",
];

/// A pattern with its kind, and its first eight bytes to compare at once.
struct Pattern {
    bytes: &'static [u8],
    kind: KnownKind,
    /// The first eight bytes, zero-padded (no pattern holds a zero byte).
    head: u64,
    /// Which bytes of `head` the pattern has.
    head_mask: u64,
}

/// Every pattern, found by its first two bytes.
struct Known {
    /// Ordered by their first two bytes and, among those, longest first: the
    /// first of a pair's patterns that matches is the longest that does.
    patterns: Vec<Pattern>,
    /// The first two bytes of every pattern, one bit per byte pair: most
    /// word starts begin no pattern, and this tells so without a search.
    openings: Vec<u64>,
    /// For each integer of `openings`, how many bits are set before it: with
    /// the bits below a pair's own, the pair's rank among the opening pairs.
    set_before: Vec<u16>,
    /// Where the patterns of the opening pair of each rank begin in
    /// `patterns`, and one past the last rank: where they end.
    pair_starts: Vec<u16>,
}

/// The first two bytes of a pattern as one number; every pattern has two
/// bytes at least (`AP`, `UN`; a test checks).
fn opening(a: u8, b: u8) -> usize {
    usize::from(a) << 8 | usize::from(b)
}

/// [`opening`] of a pattern.
fn opening_of(pattern: &[u8]) -> usize {
    match pattern {
        [a, b, ..] => opening(*a, *b),
        _ => 0,
    }
}

impl Known {
    /// Whether some pattern begins with the bytes `a`, `b`.
    fn opens_with(&self, a: u8, b: u8) -> bool {
        let pair = opening(a, b);
        self.openings[pair / 64] & (1 << (pair % 64)) != 0
    }

    /// The longest pattern that `haystack[at..]` starts with: where it
    /// ends, and its kind.
    fn longest_at(&self, haystack: &[u8], at: usize) -> Option<(usize, KnownKind)> {
        let rest = haystack.get(at..)?;
        let [a, b, ..] = *rest else {
            return None;
        };
        let pair = opening(a, b);
        let (word, bit) = (self.openings[pair / 64], 1u64 << (pair % 64));
        if word & bit == 0 {
            return None;
        }
        let rank =
            usize::from(self.set_before[pair / 64]) + (word & (bit - 1)).count_ones() as usize;
        let first = usize::from(self.pair_starts[rank]);
        let end = usize::from(self.pair_starts[rank + 1]);
        let head = swar::eight_at(rest, 0);
        self.patterns[first..end]
            .iter()
            .find(|p| head & p.head_mask == p.head && rest.starts_with(p.bytes))
            .map(|p| (at + p.bytes.len(), p.kind))
    }
}

static KNOWN: LazyLock<Known> = LazyLock::new(|| {
    let mut named: Vec<(&'static str, KnownKind)> = Vec::new();
    for group in ORGS {
        let full = group.first().copied().unwrap_or("");
        for (i, name) in group.iter().enumerate() {
            let full = if i == 0 || group.len() == 1 { "" } else { full };
            named.push((name, KnownKind::Org { full }));
        }
    }
    named.extend(AGENCIES.iter().map(|name| (*name, KnownKind::Agency)));
    named.extend(PLACES.iter().map(|name| (*name, KnownKind::Place)));
    // No two patterns are equal (a test checks), so no tie of length can
    // meet at one position.
    named.sort_by_key(|(name, _)| (opening_of(name.as_bytes()), Reverse(name.len())));
    let patterns: Vec<Pattern> = named
        .into_iter()
        .map(|(name, kind)| {
            let bytes = name.as_bytes();
            let head_len = bytes.len().min(8);
            Pattern {
                bytes,
                kind,
                head: swar::little_endian(&bytes[..head_len]),
                head_mask: swar::low_bytes(head_len),
            }
        })
        .collect();
    let mut openings = vec![0u64; (1 << 16) / 64];
    let mut pair_starts: Vec<u16> = Vec::new();
    for (index, pattern) in patterns.iter().enumerate() {
        let pair = opening_of(pattern.bytes);
        if openings[pair / 64] & (1 << (pair % 64)) == 0 {
            openings[pair / 64] |= 1 << (pair % 64);
            pair_starts.push(u16::try_from(index).unwrap_or(u16::MAX));
        }
    }
    pair_starts.push(u16::try_from(patterns.len()).unwrap_or(u16::MAX));
    let set_before = openings
        .iter()
        .scan(0u16, |count, word| {
            let before = *count;
            *count += word.count_ones() as u16;
            Some(before)
        })
        .collect();
    Known {
        patterns,
        openings,
        set_before,
        pair_starts,
    }
});

/// The well-known names in the `description` span of `text`, between word
/// boundaries: left to right, the longest name that starts at each word
/// boundary, and the search goes on after a name's end. `tokens` are the
/// description's: a name can start only where a word or a part of a joined
/// word starts.
#[inline(never)]
pub(super) fn find_known(text: &str, tokens: &[Token], description: Span) -> Vec<KnownMatch> {
    let Some(haystack) = text.get(description.start..description.end) else {
        return Vec::new();
    };
    let known = &*KNOWN;
    let bytes = haystack.as_bytes();
    let mut out = Vec::new();
    // Where the search may go on: past the end of the last name found.
    let mut resume = 0;
    let mut search_at = |at: usize| {
        if at < resume {
            return;
        }
        let Some((end, kind)) = known.longest_at(bytes, at) else {
            return;
        };
        // A dotted pattern (`U.N.`) may end a sentence with its own period.
        let boundary_after = haystack[end..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        if boundary_after {
            out.push(KnownMatch {
                start: description.start + at,
                end: description.start + end,
                kind,
            });
        }
        resume = end;
    };
    // Whether a name may start at `at`: one bit tells for most positions.
    let opens_at = |at: usize| at + 1 < bytes.len() && known.opens_with(bytes[at], bytes[at + 1]);
    for token in tokens.iter().filter(|t| t.is_word()) {
        // A word starts after a character that is no letter or digit.
        let start = token.span.start - description.start;
        if opens_at(start) {
            search_at(start);
        }
        if token.joined {
            let end = token.span.end - description.start;
            for at in start + 1..end {
                if opens_at(at) && is_boundary_before(haystack, at) {
                    search_at(at);
                }
            }
        }
    }
    out
}

/// The kind of the well-known name that is all of `word`, if one is.
pub(super) fn kind_of(word: &str) -> Option<KnownKind> {
    KNOWN
        .longest_at(word.as_bytes(), 0)
        .filter(|&(end, _)| end == word.len())
        .map(|(_, kind)| kind)
}

#[cfg(test)]
mod tests {
    use aho_corasick::{AhoCorasick, Anchored, Input, MatchKind, StartKind};
    use proptest::prelude::*;

    use super::*;

    fn known_in(text: &str, start: usize, end: usize) -> Vec<KnownMatch> {
        let tokens = super::super::tokenize(text, start, end);
        find_known(text, &tokens, Span::new(start, end))
    }

    fn names(text: &str) -> Vec<&str> {
        let found = known_in(text, 0, text.len());
        found.iter().map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_names_between_word_boundaries_only() {
        let text = "Hamas-run clinic; UNICEF aid, not Hamasville or the UNICEFs.";
        assert_eq!(names(text), ["Hamas", "UNICEF"]);
    }

    /// Every pattern, organizations, agencies and places.
    fn all_patterns() -> Vec<&'static str> {
        ORGS.iter()
            .flat_map(|g| g.iter())
            .chain(AGENCIES)
            .chain(PLACES)
            .copied()
            .collect()
    }

    #[test]
    fn every_pattern_has_two_bytes_to_open_with_and_none_repeats() {
        let all = all_patterns();
        assert!(all.iter().all(|p| p.len() >= 2));
        let mut sorted = all.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
    }

    #[test]
    fn names_start_inside_hyphened_words_and_at_the_edges() {
        let text = "pro-Hamas, U.N. and Wagner Groupies; Hezbollah";
        assert_eq!(names(text), ["Hamas", "U.N.", "Hezbollah"]);
        assert_eq!(known_in(text, 4, 9).len(), 1);
    }

    #[test]
    fn aliases_name_their_full_form() {
        let text = "U.N. experts";
        assert_eq!(
            known_in(text, 0, text.len())[0].kind,
            KnownKind::Org {
                full: "United Nations"
            }
        );
        assert_eq!(kind_of("Reuters"), Some(KnownKind::Agency));
        assert_eq!(kind_of("Reutersx"), None);
        assert_eq!(kind_of("Reuter"), None);
    }

    /// The matches of a leftmost-longest automaton anchored at every byte
    /// after a word boundary: what the token-driven search must find.
    fn automaton_matches(haystack: &str) -> Vec<(usize, usize, KnownKind)> {
        let patterns = all_patterns();
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .start_kind(StartKind::Anchored)
            .build(&patterns)
            .expect("patterns compile");
        let mut out = Vec::new();
        let mut resume = 0;
        for at in 0..haystack.len() {
            if at < resume || !haystack.is_char_boundary(at) || !is_boundary_before(haystack, at) {
                continue;
            }
            let input = Input::new(haystack).range(at..).anchored(Anchored::Yes);
            let Some(m) = automaton.find(input) else {
                continue;
            };
            let after = haystack[m.end()..].chars().next();
            if after.is_none_or(|c| !c.is_alphanumeric()) {
                let pattern = patterns[m.pattern().as_usize()];
                let kind = kind_of(pattern).expect("every pattern has a kind");
                out.push((m.start(), m.end(), kind));
            }
            resume = m.end();
        }
        out
    }

    /// Pieces of patterns, joiners and letters, so that names meet,
    /// overlap, and start inside words.
    fn name_soup() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("U.N.".to_string()),
            Just("UN".to_string()),
            Just("United Nations".to_string()),
            Just("United States".to_string()),
            Just("al-Qaeda".to_string()),
            Just("al Qaeda".to_string()),
            Just("Al".to_string()),
            Just("Hay'at Tahrir al-Sham".to_string()),
            Just("Agence France-Presse".to_string()),
            Just("Wagner Group".to_string()),
            Just("St. Louis".to_string()),
            Just("Washington D.C.".to_string()),
            Just("Médecins Sans Frontières".to_string()),
            Just("Reuters".to_string()),
            Just("AP".to_string()),
            Just("peshmerga".to_string()),
            "[-'’. ,/éa-zA-Z0-9]{1,3}",
        ];
        prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn token_starts_find_what_an_automaton_at_every_boundary_finds(text in name_soup()) {
            let found: Vec<(usize, usize, KnownKind)> = known_in(&text, 0, text.len())
                .into_iter()
                .map(|m| (m.start, m.end, m.kind))
                .collect();
            prop_assert_eq!(found, automaton_matches(&text));
        }
    }
}
