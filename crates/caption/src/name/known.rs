//! Well-known names found verbatim: organizations (with their aliases), news
//! agencies, and multi-word places that must never read as a person.
//!
//! Matching is case-sensitive, so `Hamas` matches and `hamas` does not, and
//! a pattern only counts between word boundaries.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind, Anchored, Input, MatchKind, StartKind};

use crate::swar::{bytes_equal, in_ascii_range, little_endian};
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

/// A compiled automaton with the kind of each of its patterns.
struct Known {
    /// `None` only if the automaton could not be built, which fixed patterns
    /// of this size never cause; then no well-known name is found.
    automaton: Option<AhoCorasick>,
    kinds: Vec<KnownKind>,
    /// The first two bytes of every pattern, one bit per byte pair: most
    /// word starts begin no pattern, and this tells so without a search.
    openings: Vec<u64>,
}

impl Known {
    /// Whether some pattern begins with the bytes `a`, `b`.
    fn opens_with(&self, a: u8, b: u8) -> bool {
        let pair = usize::from(a) << 8 | usize::from(b);
        self.openings[pair / 64] & (1 << (pair % 64)) != 0
    }
}

static KNOWN: LazyLock<Known> = LazyLock::new(|| {
    let mut patterns: Vec<&'static str> = Vec::new();
    let mut kinds = Vec::new();
    for group in ORGS {
        let full = group.first().copied().unwrap_or("");
        for (i, name) in group.iter().enumerate() {
            patterns.push(name);
            kinds.push(KnownKind::Org {
                full: if i == 0 || group.len() == 1 { "" } else { full },
            });
        }
    }
    for name in AGENCIES {
        patterns.push(name);
        kinds.push(KnownKind::Agency);
    }
    for name in PLACES {
        patterns.push(name);
        kinds.push(KnownKind::Place);
    }
    let mut openings = vec![0u64; (1 << 16) / 64];
    for pattern in &patterns {
        // Every pattern has two bytes at least (`AP`, `UN`); a test checks.
        if let [a, b, ..] = pattern.as_bytes() {
            let pair = usize::from(*a) << 8 | usize::from(*b);
            openings[pair / 64] |= 1 << (pair % 64);
        }
    }
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        // Searches start only at word boundaries, so the automaton needs no
        // unanchored start state; a DFA is the fastest to step.
        .start_kind(StartKind::Anchored)
        .kind(Some(AhoCorasickKind::DFA))
        .build(&patterns)
        .ok();
    Known {
        automaton,
        kinds,
        openings,
    }
});

/// The well-known names in `text[start..end]`, between word boundaries:
/// left to right, the longest name that starts at each word boundary, and
/// the search goes on after a name's end.
pub(crate) fn find_known(text: &str, start: usize, end: usize) -> Vec<KnownMatch> {
    let Some(haystack) = text.get(start..end) else {
        return Vec::new();
    };
    let known = &*KNOWN;
    let Some(automaton) = &known.automaton else {
        return Vec::new();
    };
    let bytes = haystack.as_bytes();
    let mut out = Vec::new();
    // Where the search may go on: past the end of the last name found.
    let mut resume = 0;
    // Eight bytes at a time, only a byte that may open a pattern is looked
    // at further; a whole-text automaton scan would step through every byte.
    for (chunk_index, chunk) in bytes.chunks(8).enumerate() {
        let mut openers = may_open(little_endian(chunk));
        while openers != 0 {
            let at = chunk_index * 8 + (openers.trailing_zeros() / 8) as usize;
            openers &= openers - 1;
            if at < resume
                || at + 1 >= bytes.len()
                || !known.opens_with(bytes[at], bytes[at + 1])
                || !is_boundary_before(haystack, at)
            {
                continue;
            }
            let input = Input::new(haystack).range(at..).anchored(Anchored::Yes);
            let Some(m) = automaton.try_find(input).ok().flatten() else {
                continue;
            };
            let (s, e) = (m.start(), m.end());
            // A dotted pattern (`U.N.`) may end a sentence with its own period.
            let boundary_after = haystack[e..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric());
            if boundary_after {
                if let Some(&kind) = known.kinds.get(m.pattern().as_usize()) {
                    out.push(KnownMatch {
                        start: start + s,
                        end: start + e,
                        kind,
                    });
                }
            }
            resume = e;
        }
    }
    out
}

/// The bytes that may open a pattern: capitals, and the `a` of `al-` and
/// the `p` of `peshmerga`.
const LOWERCASE_OPENERS: [u8; 2] = [b'a', b'p'];

/// The high bit of each byte of `eight` (little-endian) that is an ASCII
/// capital or one of [`LOWERCASE_OPENERS`]. A flagged byte may be a false
/// alarm; an unflagged one never opens a pattern.
fn may_open(eight: u64) -> u64 {
    LOWERCASE_OPENERS
        .iter()
        .fold(in_ascii_range(eight, b'A', b'Z'), |flagged, &opener| {
            flagged | bytes_equal(eight, opener)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_names_between_word_boundaries_only() {
        let text = "Hamas-run clinic; UNICEF aid, not Hamasville or the UNICEFs.";
        let found = find_known(text, 0, text.len());
        let names: Vec<&str> = found.iter().map(|m| &text[m.start..m.end]).collect();
        assert_eq!(names, ["Hamas", "UNICEF"]);
    }

    #[test]
    fn every_pattern_has_two_bytes_to_open_with() {
        let all = ORGS
            .iter()
            .flat_map(|g| g.iter())
            .chain(AGENCIES)
            .chain(PLACES);
        assert!(all.clone().all(|p| p.len() >= 2));
        for pattern in all {
            let first = pattern.as_bytes()[0];
            let word = u64::from(first);
            assert!(may_open(word) & 0x80 != 0, "{pattern}");
        }
    }

    #[test]
    fn openers_are_flagged_in_every_lane() {
        for (b, word, flag) in crate::swar::each_byte_in_each_lane(b'x') {
            let flagged = may_open(word) & flag != 0;
            let expected = b.is_ascii_uppercase() || LOWERCASE_OPENERS.contains(&b);
            if expected {
                assert!(flagged, "{b} at flag {flag:x}");
            }
        }
    }

    #[test]
    fn names_start_inside_hyphened_words_and_at_the_edges() {
        let text = "pro-Hamas, U.N. and Wagner Groupies; Hezbollah";
        let found = find_known(text, 0, text.len());
        let names: Vec<&str> = found.iter().map(|m| &text[m.start..m.end]).collect();
        assert_eq!(names, ["Hamas", "U.N.", "Hezbollah"]);
        let found = find_known(text, 4, 9);
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn aliases_name_their_full_form() {
        let text = "U.N. experts";
        let found = find_known(text, 0, text.len());
        assert_eq!(
            found[0].kind,
            KnownKind::Org {
                full: "United Nations"
            }
        );
    }
}
