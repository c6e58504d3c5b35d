//! Credit parts as people or organisations; credited names written back.

/// What a credit part that is neither an agency nor a role word names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PartKind {
    /// A person: 2–5 capitalized name tokens, particles allowed.
    Person,
    /// A supplier. `generic` for anonymous channels (`Social Media Website`),
    /// which lose to a named organisation when both are credited.
    Source {
        /// Whether it names a channel rather than an organisation.
        generic: bool,
    },
    /// Not a name at all (sentence words, digits): the text is no credit.
    Junk,
}

/// Most name tokens a person part may have; more reads as an organisation.
const MAX_PERSON_TOKENS: usize = 5;

/// Most tokens any credit part may have; more is prose, not a credit.
const MAX_PART_TOKENS: usize = 10;

/// Lower-case words that may stand inside a personal name.
const PARTICLES: [&str; 24] = [
    "al", "el", "bin", "ibn", "bint", "ben", "de", "del", "della", "der", "den", "van", "von",
    "da", "di", "du", "dos", "das", "do", "le", "la", "y", "ter", "zu",
];

/// Function words that only organisation names contain (`Save the Children`,
/// `Ministry of Defence`), in any case (`Observatory For Human Rights`).
const JOINERS: [&str; 12] = [
    "of", "the", "for", "and", "on", "in", "at", "to", "with", "from", "without", "&",
];

/// Words that make a name an organisation: institutions, media, armed
/// forces, and the demonyms that open state bodies (`Syrian Presidency`).
/// Common surnames (`House`, `Cross`, `Watch`, `Court`) are left out on purpose.
/// Sorted, for binary search (a test checks).
const ORG_WORDS: &[&str] = &[
    "academy",
    "administration",
    "aerospace",
    "affairs",
    "afghan",
    "agence",
    "agencia",
    "agency",
    "agenzia",
    "airbus",
    "airlines",
    "alliance",
    "american",
    "arab",
    "archive",
    "archives",
    "army",
    "assembly",
    "association",
    "authorities",
    "authority",
    "battalion",
    "border",
    "borders",
    "brigade",
    "brigades",
    "british",
    "broadcasting",
    "bureau",
    "campaign",
    "center",
    "centers",
    "centre",
    "channel",
    "children",
    "chinese",
    "city",
    "civil",
    "club",
    "coalition",
    "coast",
    "collection",
    "command",
    "commission",
    "committee",
    "company",
    "corp",
    "corporation",
    "corps",
    "council",
    "county",
    "crescent",
    "customs",
    "daily",
    "defence",
    "defense",
    "department",
    "directorate",
    "doctors",
    "e.u",
    "egyptian",
    "embassy",
    "emergencies",
    "emergency",
    "emirati",
    "energy",
    "enterprises",
    "european",
    "facebook",
    "family",
    "federal",
    "federation",
    "festival",
    "force",
    "forces",
    "foundation",
    "french",
    "front",
    "fund",
    "geospatial",
    "german",
    "government",
    "governorate",
    "group",
    "guard",
    "guards",
    "handout",
    "headquarters",
    "health",
    "helmets",
    "holdings",
    "hospital",
    "imagery",
    "inc",
    "industries",
    "initiative",
    "instagram",
    "institute",
    "intelligence",
    "international",
    "iranian",
    "iraqi",
    "islamic",
    "israeli",
    "japanese",
    "jordanian",
    "kingdom",
    "korean",
    "kremlin",
    "kurdish",
    "labs",
    "lebanese",
    "library",
    "libyan",
    "llc",
    "ltd",
    "marines",
    "maxar",
    "media",
    "medical",
    "military",
    "ministries",
    "ministry",
    "mission",
    "movement",
    "municipal",
    "municipality",
    "museum",
    "national",
    "nations",
    "navy",
    "network",
    "news",
    "observatory",
    "office",
    "official",
    "organisation",
    "organization",
    "pakistani",
    "palace",
    "palestinian",
    "parliament",
    "party",
    "planet",
    "police",
    "presidency",
    "presidential",
    "press",
    "production",
    "productions",
    "program",
    "programme",
    "project",
    "protection",
    "province",
    "public",
    "qatari",
    "radio",
    "refugees",
    "region",
    "regional",
    "relief",
    "republic",
    "rescue",
    "rights",
    "royal",
    "russian",
    "satellite",
    "saudi",
    "secretariat",
    "security",
    "service",
    "services",
    "society",
    "solutions",
    "space",
    "spokesman",
    "spokesperson",
    "state",
    "studio",
    "studios",
    "sudanese",
    "syrian",
    "systems",
    "team",
    "technologies",
    "technology",
    "telegram",
    "television",
    "turkish",
    "tv",
    "twitter",
    "u.k",
    "u.n",
    "u.s",
    "ukrainian",
    "union",
    "unit",
    "university",
    "website",
    "websites",
    "works",
    "yemeni",
    "youtube",
];

/// Words of anonymous channels: a source made only of these is generic.
const GENERIC_WORDS: [&str; 19] = [
    "amateur",
    "footage",
    "social",
    "media",
    "website",
    "websites",
    "network",
    "networks",
    "youtube",
    "twitter",
    "facebook",
    "telegram",
    "instagram",
    "tiktok",
    "web",
    "site",
    "internet",
    "online",
    "video",
];

/// Decides what a credit part names. `part` is trimmed and is neither an
/// agency nor a role word. Organisation evidence wins over name shape, so
/// `Save the Children` is a source although it has capitalized tokens.
pub(super) fn classify(part: &str) -> PartKind {
    if part.is_empty() {
        return PartKind::Junk;
    }
    if crate::text::split_ascii(part, b' ').all(|word| in_list(word, &GENERIC_WORDS)) {
        return PartKind::Source { generic: true };
    }
    let mut name_tokens = 0;
    let mut tokens = 0;
    let mut org = false;
    for word in crate::text::split_ascii(part, b' ').filter(|w| !w.is_empty()) {
        tokens += 1;
        if is_channel_number(word) {
            // `France 24`, `Channel 4`: a number names a broadcaster, never a
            // person; alone (`24/7`) it is no name at all.
            org = true;
            continue;
        }
        let name_shaped = word.chars().all(is_name_char) || is_rank(word);
        if tokens > MAX_PART_TOKENS || !name_shaped || !dots_ok(word) {
            return PartKind::Junk;
        }
        let core = word_core(word);
        if in_list(core, &JOINERS) {
            org = true;
            continue;
        }
        let first = word.chars().next().unwrap_or(' ');
        if first.is_uppercase() || is_particle_prefixed(word) {
            name_tokens += 1;
        }
        if is_org_word(core) {
            // Lower case is fine here: `the Doe family`, `social media`.
            org = true;
        } else if !first.is_uppercase() && !is_particle_prefixed(word) && !in_list(core, &PARTICLES)
        {
            // A lower-case word that is no particle: prose, not a name.
            return PartKind::Junk;
        }
    }
    if org || name_tokens == 1 || name_tokens > MAX_PERSON_TOKENS {
        // A single token (`Kremlin`, `WFP`, `KCNA`) names an organisation.
        return if name_tokens == 0 {
            PartKind::Junk
        } else {
            PartKind::Source { generic: false }
        };
    }
    if name_tokens >= 2 {
        PartKind::Person
    } else {
        PartKind::Junk
    }
}

/// A photographer credited by one name (`Volkov`, `Mirela`): one capitalized
/// word of three or more letters, the rest lower case, that is no
/// organisation or channel word. Acronyms (`KCNA`, `WFP`) stay organisations.
pub(super) fn is_one_word_name(part: &str) -> bool {
    let mut chars = part.chars();
    chars.next().is_some_and(char::is_uppercase)
        && part.chars().count() >= 3
        && chars.all(char::is_lowercase)
        && !is_org_word(part)
        && !in_list(part, &GENERIC_WORDS)
}

/// One to three digits: the number in a broadcaster's name.
fn is_channel_number(word: &str) -> bool {
    (1..=3).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit())
}

/// Characters a name or organisation token may hold.
fn is_name_char(c: char) -> bool {
    c.is_alphabetic() || matches!(c, '-' | '\'' | '’' | '.' | '&')
}

/// Full stops only in initials, short abbreviations and ranks (`J.`, `J.R.`,
/// `Jr.`, `U.S.`, `Sgt.`): a longer word ending in one (`Syria.`) ends a
/// sentence.
fn dots_ok(word: &str) -> bool {
    !word.contains('.')
        || word.split('.').all(|segment| segment.chars().count() <= 2)
        || word.strip_suffix('.').is_some_and(is_rank)
}

/// Military and service rank abbreviations that credits put before a name
/// (`Sgt. Jane Doe`, `SSG JANE DOE`, `MC2 JANE DOE`); in capitals they are
/// kept as written.
const RANKS: [&str; 34] = [
    "pvt", "pfc", "spc", "cpl", "sgt", "ssg", "ssgt", "sfc", "msg", "msgt", "tsgt", "1sg", "csm",
    "lcpl", "cpt", "capt", "lt", "1lt", "2lt", "maj", "ltc", "col", "gen", "ens", "cdr", "cmdr",
    "adm", "po1", "po2", "po3", "mc1", "mc2", "mc3", "amn",
];

/// Whether `word` is one of [`RANKS`], in any ASCII case.
fn is_rank(word: &str) -> bool {
    in_list(word, &RANKS)
}

/// A word without a trailing full stop or possessive `'s`, for list lookups.
fn word_core(word: &str) -> &str {
    let word = word.trim_end_matches('.');
    word.strip_suffix("'s")
        .or_else(|| word.strip_suffix("’s"))
        .unwrap_or(word)
}

/// `al-Hariri`, `el-Sisi`: a particle joined to a capitalized name.
fn is_particle_prefixed(word: &str) -> bool {
    word.split_once('-').is_some_and(|(head, tail)| {
        in_list(head, &PARTICLES) && tail.chars().next().is_some_and(char::is_uppercase)
    })
}

/// Whether `word` is in [`ORG_WORDS`], in any ASCII case: one probe of a
/// [`WordTable`](crate::word_table::WordTable) instead of a lowercase copy
/// and a binary search. (A table key is zero-padded, so a word ending in a
/// NUL byte, never an org word, is ruled out first.)
fn is_org_word(word: &str) -> bool {
    static WORDS: std::sync::LazyLock<crate::word_table::WordTable<u8>> =
        std::sync::LazyLock::new(|| {
            crate::word_table::WordTable::new(ORG_WORDS.iter().map(|w| (w.as_bytes(), 1)))
        });
    if !word.is_ascii() || word.ends_with('\0') {
        return false;
    }
    WORDS.get(word.as_bytes()).is_some()
}

/// [`is_org_word`] by a lowercase copy and a binary search: its oracle.
#[cfg(test)]
fn is_org_word_by_search(word: &str) -> bool {
    const MAX_ORG_WORD_BYTES: usize = 16;
    if word.len() > MAX_ORG_WORD_BYTES || !word.is_ascii() {
        return false;
    }
    let mut buf = [0u8; MAX_ORG_WORD_BYTES];
    let key = &mut buf[..word.len()];
    key.copy_from_slice(word.as_bytes());
    key.make_ascii_lowercase();
    std::str::from_utf8(key).is_ok_and(|key| ORG_WORDS.binary_search(&key).is_ok())
}

/// Whether any word of a name makes it an organisation ([`ORG_WORDS`]).
pub(super) fn has_org_word(name: &str) -> bool {
    crate::text::split_ascii(name, b' ').any(|word| is_org_word(word_core(word)))
}

/// A user name standing for a contributor (`jdoe42`, `jane_doe`): one word
/// of letters, digits, `_`, `.` and `-`, not capitalized like a name.
pub(super) fn is_handle(part: &str) -> bool {
    !part.is_empty()
        && !part.contains(' ')
        && part
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && !part.starts_with(char::is_uppercase)
}

/// ASCII case-insensitive membership.
fn in_list(word: &str, list: &[&str]) -> bool {
    list.iter().any(|item| item.eq_ignore_ascii_case(word))
}

/// Writes a credited name back the way RECORD.md wants it: every word that is
/// all capitals (two letters or more) is title-cased per hyphen and apostrophe
/// segment (`AL-DOUMY` → `Al-Doumy`, `O'REILLY` → `O'Reilly`), and so is a
/// part in capitals after a hyphen (`Al-DOUMY` → `Al-Doumy`: wires set the
/// surname in capitals); a capitalized particle inside a name goes lower
/// case (`JAWAD AL RIFAI` → `Jawad al Rifai`); roman numerals stay. Other
/// words are kept as written, so the function is idempotent.
pub(crate) fn title_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, word) in crate::text::split_ascii(name, b' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if is_roman_numeral(word) || is_rank(word) {
            out.push_str(word);
        } else if !is_all_caps(word) {
            push_hyphen_parts_title_cased(&mut out, word);
        } else if i > 0 && in_list(word, &PARTICLES) {
            out.extend(word.chars().flat_map(char::to_lowercase));
        } else {
            push_title_cased(&mut out, word);
        }
    }
    out
}

/// A word in capitals title-cased per hyphen and apostrophe segment.
fn push_title_cased(out: &mut String, word: &str) {
    let mut segment_start = true;
    for c in word.chars() {
        if segment_start {
            // Already capital (or a titlecase letter such as `ᾼ`, whose
            // upper case is two letters): keep it as it is.
            out.push(c);
        } else {
            out.extend(c.to_lowercase());
        }
        segment_start = !c.is_alphabetic();
    }
}

/// A mixed-case word with each part after a hyphen that is in capitals
/// title-cased (`Al-DOUMY` → `Al-Doumy`); other parts as written.
fn push_hyphen_parts_title_cased(out: &mut String, word: &str) {
    for (i, part) in crate::text::split_ascii(word, b'-').enumerate() {
        if i > 0 {
            out.push('-');
        }
        if i > 0 && is_all_caps(part) && !is_roman_numeral(part) {
            push_title_cased(out, part);
        } else {
            out.push_str(part);
        }
    }
}

/// Two or more letters, none of them lower case.
fn is_all_caps(word: &str) -> bool {
    let mut letters = 0;
    for c in word.chars() {
        if c.is_lowercase() {
            return false;
        }
        if c.is_uppercase() {
            letters += 1;
        }
    }
    letters >= 2
}

/// `II`, `III`, `IV`: generational suffixes that stay in capitals.
fn is_roman_numeral(word: &str) -> bool {
    matches!(word, "II" | "III" | "IV" | "VI" | "VII" | "VIII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn org_words_by_table_match_the_search() {
        let mut words: Vec<String> = vec![
            String::new(),
            "a".into(),
            "caf\u{e9}".into(),
            "army\0".into(),
        ];
        for w in ORG_WORDS {
            words.push(w.to_string());
            words.push(w.to_uppercase());
            words.push(format!("{w}s"));
            words.push(w[..w.len() - 1].to_string());
        }
        for w in &words {
            assert_eq!(is_org_word(w), is_org_word_by_search(w), "{w:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn org_words_by_table_match_the_search_on_any_word(w in "[a-zA-Z\u{e9}]{0,20}") {
            proptest::prop_assert_eq!(is_org_word(&w), is_org_word_by_search(&w));
        }
    }

    #[test]
    fn org_words_are_sorted_lower_case_and_short() {
        assert!(ORG_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(ORG_WORDS
            .iter()
            .all(|w| w.len() <= 16 && w.to_ascii_lowercase() == *w));
    }

    #[test]
    fn capitals_are_title_cased_with_sensible_particles() {
        assert_eq!(title_case("JOSEPH EID"), "Joseph Eid");
        assert_eq!(title_case("Wakil KOHSAR"), "Wakil Kohsar");
        assert_eq!(title_case("SAMEER AL-DOUMY"), "Sameer Al-Doumy");
        assert_eq!(title_case("FINN O'REILLY"), "Finn O'Reilly");
        assert_eq!(title_case("JAWAD AL RIFAI"), "Jawad al Rifai");
        assert_eq!(title_case("Khalid al Mousily"), "Khalid al Mousily");
        assert_eq!(title_case("JOHN SMITH III"), "John Smith III");
        assert_eq!(title_case("ÖMER ÇELIK"), "Ömer Çelik");
    }

    #[test]
    fn people_have_name_shaped_parts() {
        assert_eq!(classify("Jane Doe"), PartKind::Person);
        assert_eq!(classify("MARIA DE LA PAZ"), PartKind::Person);
        assert_eq!(classify("Karim al-Masri"), PartKind::Person);
        assert_eq!(classify("Lena Ortiz Varga"), PartKind::Person);
        assert_eq!(classify("J. Q. Doyle"), PartKind::Person);
        assert_eq!(classify("Tomás O'Brien"), PartKind::Person);
    }

    #[test]
    fn organisations_are_sources() {
        let named = PartKind::Source { generic: false };
        assert_eq!(classify("Qamishli Media Centre"), named);
        assert_eq!(classify("Save the Children"), named);
        assert_eq!(
            classify("Ministry of Water of the Republic of Nowhere"),
            named
        );
        assert_eq!(classify("Observatory For Civil Liberties"), named);
        assert_eq!(classify("Kremlin"), named);
        assert_eq!(classify("UNICEF"), named);
        assert_eq!(classify("Turkish Presidency"), named);
        assert_eq!(classify("U.S. Navy"), named);
        assert_eq!(classify("Doctors Without Borders"), named);
        assert_eq!(classify("Lowtown 24"), named);
    }

    #[test]
    fn anonymous_channels_are_generic_sources() {
        assert_eq!(
            classify("Social Media Website"),
            PartKind::Source { generic: true }
        );
        assert_eq!(classify("social media"), PartKind::Source { generic: true });
        assert_eq!(classify("YouTube"), PartKind::Source { generic: true });
    }

    #[test]
    fn prose_and_numbers_are_junk() {
        assert_eq!(classify("and"), PartKind::Junk);
        assert_eq!(classify("24"), PartKind::Junk);
        assert_eq!(classify("men walk past"), PartKind::Junk);
        assert_eq!(classify("Men walk past the ruins"), PartKind::Junk);
        assert_eq!(classify("Syria. Men"), PartKind::Junk);
    }
}
