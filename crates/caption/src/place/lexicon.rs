//! The place finder's word lists: head words (`province`, `camp`), cue
//! words, words never in a place name, US state abbreviations and the
//! demonyms, all looked up through one table.

use std::sync::LazyLock;

use crate::word_table::WordTable;

/// Sublocation heads kept in the name (`Zaatari refugee camp`).
pub(super) const FACILITY_HEADS: WordList = WordList {
    bit: 1 << 2,
    words: &[
        "square",
        "street",
        "avenue",
        "road",
        "boulevard",
        "bridge",
        "mosque",
        "church",
        "cathedral",
        "temple",
        "synagogue",
        "shrine",
        "hospital",
        "clinic",
        "stadium",
        "arena",
        "airport",
        "airbase",
        "base",
        "camp",
        "market",
        "bazaar",
        "souk",
        "crossing",
        "checkpoint",
        "port",
        "harbour",
        "harbor",
        "hotel",
        "palace",
        "park",
        "garden",
        "gardens",
        "university",
        "college",
        "academy",
        "institute",
        "school",
        "prison",
        "terminal",
        "station",
        "plaza",
        "center",
        "centre",
        "hall",
        "museum",
        "cemetery",
        "citadel",
        "castle",
        "fort",
        "compound",
        "embassy",
        "beach",
        "building",
        "tower",
        "complex",
        "dam",
        "monument",
        "memorial",
        "gate",
        "pagoda",
        "abbey",
        "basilica",
        "theatre",
        "theater",
        "souq",
        "pier",
        "courthouse",
        "capitol",
        // Seen as the city on real pages (`at Taronga Zoo`, `at Parliament
        // House`, `outside Liliesleaf Farm`).
        "zoo",
        "aquarium",
        "house",
        "farm",
        "resort",
        "resorts",
        "library",
        "mall",
        "factory",
        "warehouse",
    ],
};

/// Lower-case words that may stand between a place name and its facility
/// head (`Beirut international airport`, `Tal Abyad street market`).
pub(super) const FACILITY_MODIFIERS: WordList = WordList {
    bit: 1 << 3,
    words: &[
        "refugee",
        "air",
        "international",
        "street",
        "border",
        "military",
        "old",
        "central",
        "main",
        "grand",
        "naval",
        "displacement",
        "detention",
        "army",
        "police",
        "children's",
        "women's",
        "men's",
        "morning",
        "night",
    ],
};

/// Place words that lead a sublocation's name (`Plaza Italia`, `Stade de
/// France`, `Mount Arafat`).
pub(super) const LEAD_HEADS: WordList = WordList {
    bit: 1 << 11,
    words: &[
        "plaza", "piazza", "stade", "estadio", "mount", "mt.", "jabal", "jebel",
    ],
};

/// People's roles in an organisation: "the chief executive of Vodafone"
/// names the company they work for, not a place they stand in.
pub(super) const ROLE_WORDS: WordList = WordList {
    bit: 1 << 14,
    words: &[
        "executive",
        "chairman",
        "chairwoman",
        "founder",
        "co-founder",
        "ceo",
        "boss",
        "owner",
        "owners",
        "shareholders",
        "spokesman",
        "spokeswoman",
        "spokesperson",
        "employee",
        "employees",
        "staff",
        "members",
    ],
};

/// The planets and the Moon: "landing on Mars" is no town (a town of the
/// name, `Mars, Pennsylvania`, comes with its division after a comma).
pub(super) const HEAVENLY_BODIES: WordList = WordList {
    bit: 1 << 15,
    words: &[
        "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "moon",
    ],
};

/// Settlement words written before the name (`Kibbutz Nir Oz`).
pub(super) const SETTLEMENT_LEADS: WordList = WordList {
    bit: 1 << 13,
    words: &["kibbutz", "moshav"],
};

/// The people of a place (`Kherson residents`): the place before them is
/// where they are.
pub(super) const RESIDENT_WORDS: WordList = WordList {
    bit: 1 << 12,
    words: &["residents", "residents'", "inhabitants", "locals"],
};

/// Sublocation heads dropped from the name (`Jobar area` -> `Jobar`).
pub(super) const DISTRICT_HEADS: WordList = WordList {
    bit: 1 << 1,
    words: &[
        "district",
        "neighbourhood",
        "neighborhood",
        "quarter",
        "area",
        "suburb",
        "sector",
    ],
};

/// Settlement heads (`Qabasin town`, `Idlib city`).
pub(super) const SETTLEMENT_HEADS: WordList = WordList {
    bit: 1 << 8,
    words: &[
        "town",
        "city",
        "village",
        "hamlet",
        "township",
        "municipality",
    ],
};

/// Province heads (`Idlib province`, `Homs Governorate`, `Luhansk region`).
pub(super) const PROVINCE_HEADS: WordList = WordList {
    bit: 1 << 6,
    words: &[
        "province",
        "governorate",
        "region",
        "oblast",
        "state",
        "countryside",
        "prefecture",
        "district",
    ],
};

/// Nouns that make `X's ...` a place (`Aleppo's old city`), besides directions.
pub(super) const POSSESSED_PLACE_WORDS: WordList = WordList {
    bit: 1 << 5,
    words: &[
        "city",
        "capital",
        "town",
        "border",
        "coast",
        "outskirts",
        "suburbs",
        "centre",
        "center",
        "port",
        "countryside",
        "quarter",
        "waterfront",
        "neighbourhood",
        "neighborhood",
        "downtown",
        "streets",
        "area",
    ],
};

/// Regions that are neither settlements nor provinces; they never become the city.
pub(super) const REGION_WORDS: WordList = WordList {
    bit: 1 << 7,
    words: &[
        "ghouta",
        "bekaa",
        "donbas",
        "donbass",
        "kurdistan",
        "sinai",
        "galilee",
        "negev",
        // Continents hold countries: context, never the scene.
        "africa",
        "europe",
        "asia",
        "oceania",
    ],
};

/// Terrain words: an unresolved name led by one is a sublocation.
pub(super) const TERRAIN_WORDS: WordList = WordList {
    bit: 1 << 9,
    words: &[
        "jabal", "jebel", "mount", "mt.", "wadi", "lake", "cape", "tal", "tell",
    ],
};

/// Directions, as in `north of X` or `northern Syria`.
pub(super) const DIRECTIONS: WordList = WordList {
    bit: 1 << 0,
    words: &[
        "north",
        "south",
        "east",
        "west",
        "northeast",
        "northwest",
        "southeast",
        "southwest",
        "northern",
        "southern",
        "eastern",
        "western",
        "northeastern",
        "northwestern",
        "southeastern",
        "southwestern",
        "central",
        "north-east",
        "north-west",
        "south-east",
        "south-west",
    ],
};

/// Capitalized words that start sentences or phrases but are never places.
pub(super) const NOT_PLACE_WORDS: WordList = WordList {
    bit: 1 << 4,
    words: &[
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "in",
        "at",
        "on",
        "of",
        "and",
        "but",
        "as",
        "after",
        "before",
        "during",
        "while",
        "when",
        "with",
        "from",
        "file",
        "files",
        "photo",
        "picture",
        "people",
        "president",
        "prime",
        "minister",
        "king",
        "queen",
        "pope",
        "leader",
        "gen.",
        "general",
        "mr.",
        "mrs.",
        "dr.",
        "reuters",
        "afp",
        "ap",
        "epa",
        "getty",
        "islamic",
        "state",
        "army",
        "forces",
        "free",
        "world",
        "cup",
        "u.n.",
        "un",
        "nato",
        "residents",
        "rescuers",
        "it",
        "there",
        "here",
        "some",
        "many",
        "two",
        "three",
        "four",
        "five",
    ],
};

/// Words that neither start nor continue a place name: the list above, and
/// the shared lexicon's months, weekdays and storm words (`Hurricane Milton`).
pub(super) fn never_in_place_name(word: &str) -> bool {
    use crate::name::{MONTH, STORM, WEEKDAY};
    if is_one_of(word, NOT_PLACE_WORDS) {
        return true;
    }
    let bare = word.trim_end_matches('.');
    let classes = crate::name::classes_of(bare);
    // A three-letter month abbreviation is one only with its period:
    // "Mar Elias" is a place, "Mar. 3" a date.
    let month =
        classes & MONTH != 0 && (bare.len() > 3 || bare.len() < word.len() || bare == "May");
    month || classes & (WEEKDAY | STORM) != 0
}

/// AP-style abbreviations of US states and Canadian provinces (`Ga.`,
/// `B.C.`) and their GeoNames admin1 codes (`CC.NN`: the country first).
/// `Man.` (Manitoba) is left out: it ends too many sentences (`the Isle
/// of Man.`).
pub(super) fn division_abbreviation(word: &str) -> Option<&'static str> {
    Some(match word {
        "B.C." => "CA.02",
        "Alta." => "CA.01",
        "N.B." => "CA.04",
        "Nfld." => "CA.05",
        "N.S." => "CA.07",
        "Ont." => "CA.08",
        "P.E.I." => "CA.09",
        "Que." => "CA.10",
        "Sask." => "CA.11",
        "Ala." => "US.AL",
        "Ariz." => "US.AZ",
        "Ark." => "US.AR",
        "Calif." => "US.CA",
        "Colo." => "US.CO",
        "Conn." => "US.CT",
        "Del." => "US.DE",
        "D.C." => "US.DC",
        "Fla." => "US.FL",
        "Ga." => "US.GA",
        "Ill." => "US.IL",
        "Ind." => "US.IN",
        "Kan." => "US.KS",
        "Ky." => "US.KY",
        "La." => "US.LA",
        "Md." => "US.MD",
        "Mass." => "US.MA",
        "Mich." => "US.MI",
        "Minn." => "US.MN",
        "Miss." => "US.MS",
        "Mo." => "US.MO",
        "Mont." => "US.MT",
        "Neb." => "US.NE",
        "Nev." => "US.NV",
        "N.H." => "US.NH",
        "N.J." => "US.NJ",
        "N.M." => "US.NM",
        "N.Y." => "US.NY",
        "N.C." => "US.NC",
        "N.D." => "US.ND",
        "Okla." => "US.OK",
        "Ore." => "US.OR",
        "Pa." => "US.PA",
        "R.I." => "US.RI",
        "S.C." => "US.SC",
        "S.D." => "US.SD",
        "Tenn." => "US.TN",
        "Vt." => "US.VT",
        "Va." => "US.VA",
        "Wash." => "US.WA",
        "W.Va." => "US.WV",
        "Wis." => "US.WI",
        "Wyo." => "US.WY",
        _ => return None,
    })
}

/// Adjectives of nationality, each with its country's ISO code ("" for a
/// people without one state): the one demonym table of the crate. The
/// place finder reads the country as weak context ("the Turkish town
/// of"); the name lexicon classes every word here as a demonym.
#[rustfmt::skip]
pub(crate) const DEMONYMS: &[(&str, &str)] = &[
    ("afghan", "AF"), ("albanian", "AL"), ("algerian", "DZ"), ("american", "US"),
    ("angolan", "AO"), ("argentine", "AR"), ("argentinian", "AR"), ("armenian", "AM"),
    ("australian", "AU"), ("austrian", "AT"), ("azerbaijani", "AZ"), ("azeri", "AZ"),
    ("bahraini", "BH"), ("bangladeshi", "BD"), ("belarusian", "BY"), ("belgian", "BE"),
    ("bolivian", "BO"), ("bosnian", "BA"), ("brazilian", "BR"), ("british", "GB"),
    ("bulgarian", "BG"), ("burmese", "MM"), ("burundian", "BI"), ("cambodian", "KH"),
    ("cameroonian", "CM"), ("canadian", "CA"), ("chadian", "TD"), ("chilean", "CL"),
    ("chinese", "CN"), ("colombian", "CO"), ("congolese", "CD"), ("croatian", "HR"),
    ("cuban", "CU"), ("cypriot", "CY"), ("czech", "CZ"), ("danish", "DK"), ("dutch", "NL"),
    ("ecuadorian", "EC"), ("egyptian", "EG"), ("emirati", "AE"), ("english", "GB"),
    ("eritrean", "ER"), ("estonian", "EE"), ("ethiopian", "ET"), ("filipino", "PH"),
    ("finnish", "FI"), ("french", "FR"), ("gazan", "PS"), ("georgian", "GE"),
    ("german", "DE"), ("ghanaian", "GH"), ("greek", "GR"), ("guatemalan", "GT"),
    ("haitian", "HT"), ("honduran", "HN"), ("hungarian", "HU"), ("icelandic", "IS"),
    ("indian", "IN"), ("indonesian", "ID"), ("iranian", "IR"), ("iraqi", "IQ"),
    ("irish", "IE"), ("israeli", "IL"), ("italian", "IT"), ("ivorian", "CI"),
    ("jamaican", "JM"), ("japanese", "JP"), ("jordanian", "JO"), ("kazakh", "KZ"),
    ("kenyan", "KE"), ("korean", "KR"), ("kosovar", "XK"), ("kurdish", ""), ("kuwaiti", "KW"),
    ("kyrgyz", "KG"), ("laotian", "LA"), ("latvian", "LV"), ("lebanese", "LB"),
    ("liberian", "LR"), ("libyan", "LY"), ("lithuanian", "LT"), ("macedonian", "MK"),
    ("malagasy", "MG"), ("malawian", "MW"), ("malaysian", "MY"), ("malian", "ML"),
    ("maltese", "MT"), ("mauritanian", "MR"), ("mexican", "MX"), ("moldovan", "MD"),
    ("mongolian", "MN"), ("montenegrin", "ME"), ("moroccan", "MA"), ("mozambican", "MZ"),
    ("namibian", "NA"), ("nepalese", "NP"), ("nepali", "NP"), ("nigerian", "NG"),
    ("nigerien", "NE"), ("norwegian", "NO"), ("omani", "OM"), ("pakistani", "PK"),
    ("palestinian", "PS"), ("panamanian", "PA"), ("paraguayan", "PY"), ("peruvian", "PE"),
    ("polish", "PL"), ("portuguese", "PT"), ("qatari", "QA"), ("romanian", "RO"),
    ("russian", "RU"), ("rwandan", "RW"), ("salvadoran", "SV"), ("saudi", "SA"),
    ("scottish", "GB"), ("senegalese", "SN"), ("serbian", "RS"), ("singaporean", "SG"),
    ("slovak", "SK"), ("slovenian", "SI"), ("somali", "SO"), ("somalian", "SO"),
    ("spanish", "ES"), ("sudanese", "SD"), ("swedish", "SE"), ("swiss", "CH"),
    ("syrian", "SY"), ("taiwanese", "TW"), ("tajik", "TJ"), ("tanzanian", "TZ"),
    ("thai", "TH"), ("togolese", "TG"), ("tunisian", "TN"), ("turkish", "TR"),
    ("turkmen", "TM"), ("ugandan", "UG"), ("ukrainian", "UA"), ("ukranian", "UA"),
    ("uruguayan", "UY"), ("uzbek", "UZ"), ("venezuelan", "VE"), ("vietnamese", "VN"),
    ("welsh", "GB"), ("yemeni", "YE"), ("zambian", "ZM"), ("zimbabwean", "ZW"),
];

/// The country of a demonym (any case), `None` for a people without one
/// state (`Kurdish`) or a word that is no demonym.
pub(super) fn demonym_country(word: &str) -> Option<&'static str> {
    if !is_demonym(word) {
        return None;
    }
    DEMONYMS
        .iter()
        .find(|(d, _)| d.eq_ignore_ascii_case(word))
        .map(|(_, code)| *code)
        .filter(|code| !code.is_empty())
}

/// A word list of this module (lower case) and its bit in [`is_one_of`]'s
/// table.
#[derive(Clone, Copy)]
pub(super) struct WordList {
    pub(super) bit: u16,
    pub(super) words: &'static [&'static str],
}

/// The bit of [`DEMONYMS`] in [`is_one_of`]'s table.
pub(super) const DEMONYM_BIT: u16 = 1 << 10;

/// The lists [`is_one_of`] indexes, each with its own bit.
pub(super) const WORD_LISTS: [WordList; 15] = [
    DIRECTIONS,
    HEAVENLY_BODIES,
    ROLE_WORDS,
    DISTRICT_HEADS,
    FACILITY_HEADS,
    FACILITY_MODIFIERS,
    LEAD_HEADS,
    RESIDENT_WORDS,
    NOT_PLACE_WORDS,
    POSSESSED_PLACE_WORDS,
    PROVINCE_HEADS,
    REGION_WORDS,
    SETTLEMENT_HEADS,
    SETTLEMENT_LEADS,
    TERRAIN_WORDS,
];

/// The lists a word (any case) is in, as bits: one hash probe, not a scan
/// of each list, since this runs several times for most phrases.
pub(super) fn lists_of(word: &str) -> u16 {
    static LISTS: LazyLock<WordTable<u16>> = LazyLock::new(|| {
        let lists = WORD_LISTS
            .iter()
            .flat_map(|list| list.words.iter().map(|word| (word.as_bytes(), list.bit)));
        let demonyms = DEMONYMS
            .iter()
            .map(|(word, _)| (word.as_bytes(), DEMONYM_BIT));
        WordTable::new(lists.chain(demonyms))
    });
    // A word longer than any table entry is in no list.
    LISTS.get(word.as_bytes()).unwrap_or(0)
}

/// Whether `word` (any case) is in `list`.
pub(super) fn is_one_of(word: &str, list: WordList) -> bool {
    lists_of(word) & list.bit != 0
}

/// Whether `word` (any case) is a demonym (`Syrian`, `turkish`).
pub(super) fn is_demonym(word: &str) -> bool {
    lists_of(word) & DEMONYM_BIT != 0
}

pub(super) fn starts_upper(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// A lower-case word that is part of a name (`al-Bab`, `ash-Shughur`, `de`).
pub(super) fn is_name_particle(word: &str) -> bool {
    // Every particle, and every particle prefix, starts with one of these.
    if !matches!(
        word.as_bytes().first(),
        Some(b'a' | b'b' | b'd' | b'e' | b'i' | b'l' | b'u')
    ) {
        return false;
    }
    let lower_prefixed = word.split_once('-').is_some_and(|(head, tail)| {
        matches!(
            head,
            // "ez-Zor", "es-Salt": the article assimilated, spelled with e.
            "al" | "el"
                | "ez"
                | "es"
                | "an"
                | "ar"
                | "as"
                | "ash"
                | "at"
                | "az"
                | "ad"
                | "adh"
                | "ath"
                | "ul"
                | "ad-d"
        ) && starts_upper(tail)
    });
    lower_prefixed
        || matches!(
            word,
            "al" | "el"
                | "de"
                | "del"
                | "la"
                | "le"
                | "du"
                | "des"
                | "da"
                | "do"
                | "dos"
                | "di"
                | "bin"
                | "ibn"
                | "ben"
        )
}

pub(super) fn strip_possessive(word: &str) -> Option<&str> {
    word.strip_suffix("'s")
        .or_else(|| word.strip_suffix("\u{2019}s"))
}
