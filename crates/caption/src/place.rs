//! Where the photo was taken: the scene's place names, resolved against the
//! gazetteer.
//!
//! The finder works on the scene sentence (the first sentence that names a
//! place) in four steps:
//! 1. [`tokenize`] into words and punctuation with byte spans;
//! 2. [`find_mentions`]: capitalized phrases, each with the cue before it
//!    (`in`, `near`, `town of`, `N km north of`…) and the head word after or
//!    inside it (`province`, `air base`, `district`…), sorted into countries,
//!    provinces, sublocations and settlement candidates;
//! 3. resolve settlement candidates against the gazetteer, using the
//!    countries and provinces named in the caption as context;
//! 4. choose the scene: the settlement with the strongest cue (`in`/`at` over
//!    `of` over bare over `from`/`over`), the later one on a tie (captions
//!    name the background first: "who fled X ... in Y"); a reference place
//!    (`near X`, `N km north of X`) lends its id when the settlement it
//!    locates is not in the gazetteer, and is the city when nothing finer is
//!    named (RECORD.md "Reference places").
//!
//! Decisions where RECORD.md leaves room:
//! - `X neighbourhood/district/quarter of Y` gives sublocation X and city Y
//!   (the scorer accepts either reading; this one keeps facets on the city).
//! - An unresolved name led by a terrain word (`Jabal`, `Mount`, `Wadi`) is a
//!   sublocation, not a city.
//! - Ids and coordinates come from settlements only: a province or country
//!   alone leaves `geonames_id` null.

use std::borrow::Cow;
use std::sync::LazyLock;

use gazetteer::{CountryCode, Gazetteer, MatchKind, Place};

use crate::record::Location;
use crate::span::Span;
use crate::swar;
use crate::text::char_at;
use crate::word_table::WordTable;

/// What the place finder found.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct LocationFound {
    /// The location, `None` when the caption names no place.
    pub location: Option<Location>,
    /// A place finer than the province was stated but not resolved.
    pub unresolved: bool,
}

/// Finds the location of the scene in the description.
pub(crate) fn find_location(text: &str, description: Span, gazetteer: &Gazetteer) -> LocationFound {
    let hints = CountryHints {
        text,
        description,
        gazetteer,
        countries: std::cell::OnceCell::new(),
    };
    // Sentences are tokenized one at a time: the scene is nearly always in
    // the first, and the background sentences after it are never read.
    // Room for a long sentence up front: growing from empty cost three
    // reallocations a caption.
    let mut sentence = Vec::with_capacity(64);
    let mut at = description.start;
    while at < description.end {
        sentence.clear();
        at = tokenize_into(text, Span::new(at, description.end), true, &mut sentence);
        if sentence.is_empty() {
            continue;
        }
        let mut mentions = find_mentions(text, &sentence, gazetteer);
        if !mentions.iter().any(|m| m.is_place()) {
            continue;
        }
        resolve_settlements(text, &mut mentions, gazetteer, &hints);
        if let Some(found) = choose_scene(text, &mentions, gazetteer) {
            return found;
        }
    }
    LocationFound::default()
}

// ---------------------------------------------------------------------------
// Tokens

/// A word or a punctuation mark.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Token {
    span: Span,
    kind: TokenKind,
    /// A word with an inner hyphen (`al-Bab`): known from tokenizing, so
    /// the phrase scan asks no substring search of every word.
    hyphenated: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenKind {
    /// Letters or digits, with inner `'`, `’`, `-`, `.` (`Ma'arrat`, `al-Bab`, `U.S.`).
    Word,
    /// Any other non-space character.
    Punct(char),
}

impl Token {
    fn text<'t>(&self, text: &'t str) -> &'t str {
        self.span.of(text)
    }

    fn is_word(&self) -> bool {
        self.kind == TokenKind::Word
    }

    fn is_punct(&self, c: char) -> bool {
        self.kind == TokenKind::Punct(c)
    }
}

fn tokenize(text: &str, within: Span) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(within.len() / 4 + 4);
    tokenize_into(text, within, false, &mut tokens);
    tokens
}

/// Appends the tokens of `within` to `tokens`; with `one_sentence`, stops
/// at the first sentence end (`.`, `?`, `!`, `;`), which is not appended.
/// Returns the byte offset where tokenizing stopped (past that sentence
/// end, or `within.end`). A token never looks behind its start, so going
/// on from there gives what one pass over `within` would.
fn tokenize_into(text: &str, within: Span, one_sentence: bool, tokens: &mut Vec<Token>) -> usize {
    let slice = within.of(text);
    let mut i = 0;
    while let Some(c) = char_at(slice, i) {
        let c_len = c.len_utf8();
        if c.is_whitespace() {
            i += c_len;
            continue;
        }
        let start = within.start + i;
        if !c.is_alphanumeric() {
            if one_sentence && is_sentence_end(c) {
                return start + c_len;
            }
            tokens.push(Token {
                span: Span::new(start, start + c_len),
                kind: TokenKind::Punct(c),
                hyphenated: false,
            });
            i += c_len;
            continue;
        }
        let mut end = start + c_len;
        let mut j = i + c_len;
        let mut hyphenated = false;
        loop {
            // A run of ASCII letters and digits, the bulk of any word.
            let run = swar::ascii_alnum_run(slice.as_bytes(), j);
            if run > 0 {
                j += run;
                end = within.start + j;
            }
            let Some(d) = char_at(slice, j) else {
                break;
            };
            let d_len = d.len_utf8();
            if d.is_alphanumeric() {
                end = within.start + j + d_len;
                j += d_len;
                continue;
            }
            // Inner joiners stay in the word only when a letter follows.
            let joins = matches!(
                d,
                '\'' | '\u{2019}' | '\u{2018}' | '-' | '.' | '\u{02bf}' | '\u{02be}'
            );
            if joins && char_at(slice, j + d_len).is_some_and(char::is_alphanumeric) {
                hyphenated |= d == '-';
                j += d_len;
                continue;
            }
            // Keep a final period of an abbreviation (`U.S.`, `Fla.`) in the word.
            if d == '.' && is_abbreviation(&text[start..within.start + j + 1]) {
                end = within.start + j + 1;
                j += 1;
            }
            break;
        }
        tokens.push(Token {
            span: Span::new(start, end),
            kind: TokenKind::Word,
            hyphenated,
        });
        i = j;
    }
    within.end
}

/// Words whose final period does not end a sentence.
fn is_abbreviation(word_with_period: &str) -> bool {
    let bare = word_with_period.trim_end_matches('.');
    // Dotted initials: U.S., U.N., N.Y.
    if bare.contains('.') && bare.split('.').all(|part| part.chars().count() == 1) {
        return true;
    }
    us_state_abbreviation(word_with_period).is_some()
        || matches!(
            bare,
            "Mr" | "Mrs"
                | "Ms"
                | "Dr"
                | "St"
                | "Gen"
                | "Col"
                | "Lt"
                | "Sgt"
                | "Capt"
                | "Gov"
                | "Sen"
                | "Rep"
                | "Jr"
                | "Sr"
                | "Mt"
                | "Ft"
                | "Jan"
                | "Feb"
                | "Mar"
                | "Apr"
                | "Aug"
                | "Sept"
                | "Sep"
                | "Oct"
                | "Nov"
                | "Dec"
                | "No"
                | "Prof"
                | "Rev"
                | "Maj"
                | "Adm"
                | "Cpl"
                | "Pvt"
                | "Brig"
                | "approx"
        )
}

/// Whether a punctuation token ends a sentence (abbreviation periods are
/// inside their words and never do).
fn is_sentence_end(c: char) -> bool {
    matches!(c, '.' | '?' | '!' | ';')
}

// ---------------------------------------------------------------------------
// Lexicons

/// The cue before a place phrase, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Cue {
    /// `in`, `at`, `on`, `inside`, `town of`, a Getty dateline.
    Scene,
    /// `of` (`the main street of X`), `into`.
    Of,
    /// No preposition, but a place pattern follows (`X, Syria`, `X, north of`).
    Bare,
    /// `from`, `over`, `towards`, `across`, `to`, `with`.
    Weak,
    /// `near`, `outside`, `outskirts of`, `N km north of`: locates another place.
    Reference,
}

/// Sublocation heads kept in the name (`Zaatari refugee camp`).
const FACILITY_HEADS: WordList = WordList {
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
    ],
};

/// Lower-case words that may stand between a place name and its facility
/// head (`Beirut international airport`, `Tal Abyad street market`).
const FACILITY_MODIFIERS: WordList = WordList {
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
    ],
};

/// Sublocation heads dropped from the name (`Jobar area` -> `Jobar`).
const DISTRICT_HEADS: WordList = WordList {
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
const SETTLEMENT_HEADS: WordList = WordList {
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
const PROVINCE_HEADS: WordList = WordList {
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
const POSSESSED_PLACE_WORDS: WordList = WordList {
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
const REGION_WORDS: WordList = WordList {
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
    ],
};

/// Terrain words: an unresolved name led by one is a sublocation.
const TERRAIN_WORDS: WordList = WordList {
    bit: 1 << 9,
    words: &[
        "jabal", "jebel", "mount", "mt.", "wadi", "lake", "cape", "tal", "tell",
    ],
};

/// Directions, as in `north of X` or `northern Syria`.
const DIRECTIONS: WordList = WordList {
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
const NOT_PLACE_WORDS: WordList = WordList {
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
fn never_in_place_name(word: &str) -> bool {
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

/// AP-style US state abbreviations and their GeoNames admin1 codes.
fn us_state_abbreviation(word: &str) -> Option<&'static str> {
    Some(match word {
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

/// Adjectives of nationality, for weak country context (`the Turkish town of`).
const DEMONYMS: &[(&str, &str)] = &[
    ("syrian", "SY"),
    ("turkish", "TR"),
    ("lebanese", "LB"),
    ("iraqi", "IQ"),
    ("jordanian", "JO"),
    ("palestinian", "PS"),
    ("israeli", "IL"),
    ("ukrainian", "UA"),
    ("russian", "RU"),
    ("afghan", "AF"),
    ("nepalese", "NP"),
    ("libyan", "LY"),
    ("egyptian", "EG"),
    ("yemeni", "YE"),
    ("iranian", "IR"),
    ("sudanese", "SD"),
    ("chadian", "TD"),
    ("bangladeshi", "BD"),
    ("kurdish", ""),
    ("greek", "GR"),
    ("french", "FR"),
    ("german", "DE"),
    ("british", "GB"),
    ("american", "US"),
    ("mexican", "MX"),
    ("brazilian", "BR"),
    ("indian", "IN"),
    ("pakistani", "PK"),
    ("chinese", "CN"),
    ("japanese", "JP"),
    ("saudi", "SA"),
    ("somali", "SO"),
    ("ethiopian", "ET"),
    ("kenyan", "KE"),
    ("nigerian", "NG"),
    ("polish", "PL"),
    ("hungarian", "HU"),
    ("serbian", "RS"),
    ("croatian", "HR"),
    ("bosnian", "BA"),
    ("tunisian", "TN"),
    ("algerian", "DZ"),
    ("moroccan", "MA"),
    ("malian", "ML"),
    ("congolese", "CD"),
    ("venezuelan", "VE"),
    ("colombian", "CO"),
    ("haitian", "HT"),
    ("filipino", "PH"),
    ("indonesian", "ID"),
    ("burmese", "MM"),
    ("thai", "TH"),
    ("vietnamese", "VN"),
    ("korean", "KR"),
    ("georgian", "GE"),
    ("armenian", "AM"),
    ("azerbaijani", "AZ"),
    ("belarusian", "BY"),
    ("moldovan", "MD"),
    ("romanian", "RO"),
    ("bulgarian", "BG"),
    ("italian", "IT"),
    ("spanish", "ES"),
    ("portuguese", "PT"),
    ("dutch", "NL"),
    ("belgian", "BE"),
    ("swiss", "CH"),
    ("austrian", "AT"),
    ("swedish", "SE"),
    ("norwegian", "NO"),
    ("finnish", "FI"),
    ("danish", "DK"),
    ("irish", "IE"),
    ("scottish", "GB"),
    ("canadian", "CA"),
    ("australian", "AU"),
    ("cuban", "CU"),
    ("chilean", "CL"),
    ("argentine", "AR"),
    ("peruvian", "PE"),
    ("emirati", "AE"),
    ("qatari", "QA"),
    ("kuwaiti", "KW"),
    ("omani", "OM"),
    ("bahraini", "BH"),
];

/// A word list of this module (lower case) and its bit in [`is_one_of`]'s
/// table.
#[derive(Clone, Copy)]
struct WordList {
    bit: u16,
    words: &'static [&'static str],
}

/// The bit of [`DEMONYMS`] in [`is_one_of`]'s table.
const DEMONYM_BIT: u16 = 1 << 10;

/// The lists [`is_one_of`] indexes, each with its own bit.
const WORD_LISTS: [WordList; 10] = [
    DIRECTIONS,
    DISTRICT_HEADS,
    FACILITY_HEADS,
    FACILITY_MODIFIERS,
    NOT_PLACE_WORDS,
    POSSESSED_PLACE_WORDS,
    PROVINCE_HEADS,
    REGION_WORDS,
    SETTLEMENT_HEADS,
    TERRAIN_WORDS,
];

/// The lists a word (any case) is in, as bits: one hash probe, not a scan
/// of each list, since this runs several times for most phrases.
fn lists_of(word: &str) -> u16 {
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
fn is_one_of(word: &str, list: WordList) -> bool {
    lists_of(word) & list.bit != 0
}

/// Whether `word` (any case) is a demonym (`Syrian`, `turkish`).
fn is_demonym(word: &str) -> bool {
    lists_of(word) & DEMONYM_BIT != 0
}

fn starts_upper(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// A lower-case word that is part of a name (`al-Bab`, `ash-Shughur`, `de`).
fn is_name_particle(word: &str) -> bool {
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
            "al" | "el"
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

// ---------------------------------------------------------------------------
// Mentions

#[derive(Debug, Clone, PartialEq)]
enum MentionKind {
    Country(CountryCode),
    /// An admin1 division, resolved when the gazetteer knows it.
    Province {
        code: Option<String>,
        country: Option<CountryCode>,
    },
    /// A named place finer than a town.
    Sublocation {
        name: String,
        district: bool,
    },
    /// A town, city or village, possibly resolved.
    Settlement {
        resolved: Option<ResolvedPlace>,
        explicit_head: bool,
    },
    /// A region (`eastern Ghouta`): context only.
    Region,
}

#[derive(Debug, Clone, PartialEq)]
struct ResolvedPlace {
    place: Place,
}

impl From<Place> for ResolvedPlace {
    fn from(place: Place) -> ResolvedPlace {
        ResolvedPlace { place }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Mention {
    kind: MentionKind,
    /// The name as written (without its head word).
    name: String,
    /// The words as written, head included.
    span: Span,
    cue: Cue,
    /// Index of the first token, for ordering and adjacency.
    first_token: usize,
    last_token: usize,
    /// `X, Y`: this mention directly follows another mention after a comma.
    after_comma_of_mention: bool,
    /// `X neighbourhood of Y`: the next mention is this one's parent.
    district_of_next: bool,
}

impl Mention {
    fn is_place(&self) -> bool {
        !matches!(self.kind, MentionKind::Region)
    }
}

/// Capitalized phrases of a sentence, classified.
fn find_mentions(text: &str, tokens: &[Token], gazetteer: &Gazetteer) -> Vec<Mention> {
    let mut mentions: Vec<Mention> = Vec::new();
    // One buffer for every phrase's words: most phrases turn out to be no place.
    let mut words: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let Some(end) = phrase_end(text, tokens, i, gazetteer) else {
            i += 1;
            continue;
        };
        words.clear();
        words.extend(tokens[i..end].iter().map(|t| t.text(text)));
        let cue = cue_before(text, tokens, i);
        let after_comma = i >= 1
            && tokens[i - 1].is_punct(',')
            && mentions.last().is_some_and(|m| m.last_token + 2 == i);
        // "at the Olympic Stadium, Rio de Janeiro": a place after a comma
        // continues the previous one and shares its cue.
        let cue = match mentions.last() {
            Some(previous) if after_comma && previous.cue < cue => previous.cue,
            _ => cue,
        };
        if let Some(mention) = classify(text, tokens, i, end, &words, cue, after_comma, gazetteer) {
            i = mention.last_token + 1;
            mentions.push(mention);
        } else {
            i = end;
        }
    }
    // `X district of Y`: Y is X's parent.
    for k in 0..mentions.len().saturating_sub(1) {
        if let MentionKind::Sublocation { district: true, .. } = mentions[k].kind {
            let gap = &tokens[mentions[k].last_token + 1..mentions[k + 1].first_token];
            let words: Vec<&str> = gap
                .iter()
                .filter(|t| t.is_word())
                .map(|t| t.text(text))
                .collect();
            if words.first().is_some_and(|w| *w == "of" || *w == "in") && words.len() <= 5 {
                mentions[k].district_of_next = true;
            }
        }
    }
    mentions
}

/// End (exclusive) of a capitalized name phrase starting at `start`, if one
/// starts there.
fn phrase_end(text: &str, tokens: &[Token], start: usize, gazetteer: &Gazetteer) -> Option<usize> {
    let first = tokens[start];
    if !first.is_word() {
        return None;
    }
    let word = first.text(text);
    // Capitals first: most words are lower case and no particle.
    let leading_particle = || first.hyphenated && is_name_particle(word);
    if !(starts_upper(word) || leading_particle()) || never_in_place_name(word) {
        return None;
    }
    let mut end = start + 1;
    while end < tokens.len() && tokens[end].is_word() {
        // A possessive ends the name ("Russia's Defence Ministry"), unless
        // the gazetteer knows the longer name ("Cox's Bazar").
        if strip_possessive(tokens[end - 1].text(text)).is_some() {
            let longer = Span::new(tokens[start].span.start, tokens[end].span.end).of(text);
            if gazetteer
                .places_named(longer)
                .iter()
                .all(|m| m.kind != MatchKind::Folded)
            {
                break;
            }
        }
        let word = tokens[end].text(text);
        if never_in_place_name(word) && !matches!(word, "of") {
            break;
        }
        if starts_upper(word) || is_name_particle(word) {
            end += 1;
            continue;
        }
        break;
    }
    // A particle cannot end a name.
    while end > start + 1
        && !starts_upper(tokens[end - 1].text(text))
        && !tokens[end - 1].hyphenated
    {
        end -= 1;
    }
    Some(end)
}

/// The cue words before token `at`.
fn cue_before(text: &str, tokens: &[Token], at: usize) -> Cue {
    // Up to six words back, stopping at punctuation other than `(`/`)` of a
    // distance (`47 km (29 miles) north of`).
    // Running text is mostly lower case already: borrow, and lower-case a
    // copy only of the words that need it (this runs for every phrase).
    // On the stack: this runs for every phrase.
    let mut words: [Cow<'_, str>; 7] = Default::default();
    let mut len = 0;
    let mut k = at;
    while k > 0 && len < words.len() {
        k -= 1;
        let token = tokens[k];
        if token.is_word() {
            let word = token.text(text);
            words[len] = if word.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(word.to_ascii_lowercase())
            } else {
                Cow::Borrowed(word)
            };
            len += 1;
        } else if token.is_punct('(') || token.is_punct(')') {
            continue;
        } else {
            break;
        }
    }
    let words = &words[..len];
    // words[0] is the nearest word.
    let nearest = |n: usize| words.get(n).map(|w| w.as_ref());
    // Articles and adjectives between the cue and the name: "in the
    // rebel-held", "the southeastern Turkish town of".
    let is_adjective = |w: &str| {
        (w.contains('-') && !w.ends_with("-year-old"))
            || is_one_of(w, DIRECTIONS)
            || is_demonym(w)
            || matches!(
                w,
                "the"
                    | "a"
                    | "an"
                    | "besieged"
                    | "restive"
                    | "border"
                    | "nearby"
                    | "capital"
                    | "ancient"
                    | "old"
                    | "rebel"
                    | "held"
                    | "autonomous"
                    | "remote"
                    | "coastal"
                    | "frontline"
                    | "embattled"
                    | "neighbouring"
                    | "neighboring"
                    | "key"
                    | "strategic"
                    | "devastated"
                    | "flooded"
                    | "occupied"
            )
    };
    let skip = |mut n: usize| {
        while nearest(n).is_some_and(is_adjective) {
            n += 1;
        }
        n
    };
    let n = skip(0);
    match nearest(n) {
        Some("near" | "outside" | "nearby") => Cue::Reference,
        Some("of") => {
            let before = nearest(n + 1).unwrap_or("");
            if is_one_of(before, DIRECTIONS)
                || matches!(
                    before,
                    "outskirts" | "edge" | "countryside" | "suburbs" | "west" | "east"
                )
            {
                Cue::Reference
            } else if matches!(
                before,
                "town" | "city" | "village" | "province" | "region" | "hamlet"
            ) {
                // "the town of X" is a scene; "near the Jordanian city of X" a reference.
                match nearest(skip(n + 2)) {
                    Some("near" | "outside") => Cue::Reference,
                    _ if words.iter().any(|w| w == "outskirts") => Cue::Reference,
                    _ => Cue::Scene,
                }
            } else {
                Cue::Of
            }
        }
        Some("from")
            if nearest(n + 1).is_some_and(|w| w == "km" || w == "miles" || w.ends_with("km")) =>
        {
            Cue::Reference
        }
        Some("in" | "at" | "on" | "inside" | "within") => Cue::Scene,
        // "in a location given as X".
        Some("as") if nearest(n + 1) == Some("given") => Cue::Scene,
        Some("into") => Cue::Of,
        Some("leaving" | "fleeing") => Cue::Bare,
        Some(
            "from" | "over" | "towards" | "toward" | "across" | "to" | "with" | "through" | "via"
            | "by" | "for" | "left" | "reach" | "reached",
        ) => Cue::Weak,
        _ => Cue::Bare,
    }
}

/// Classifies the phrase `tokens[start..end]`, possibly extending it over a
/// following head word.
#[allow(clippy::too_many_arguments)]
fn classify(
    text: &str,
    tokens: &[Token],
    start: usize,
    end: usize,
    words: &[&str],
    cue: Cue,
    after_comma: bool,
    gazetteer: &Gazetteer,
) -> Option<Mention> {
    let span_of = |a: usize, b: usize| Span::new(tokens[a].span.start, tokens[b - 1].span.end);
    let name_of = |a: usize, b: usize| span_of(a, b).of(text);
    let mention = |kind, name: &str, last: usize| Mention {
        kind,
        name: name.to_string(),
        span: span_of(start, last + 1),
        cue,
        first_token: start,
        last_token: last,
        after_comma_of_mention: after_comma,
        district_of_next: false,
    };
    let is_adjective = |w: &str| {
        is_demonym(w)
            || [
                "-backed",
                "-led",
                "-held",
                "-controlled",
                "-based",
                "-born",
                "-made",
                "-style",
                "-era",
            ]
            .iter()
            .any(|suffix| {
                w.len() >= suffix.len()
                    && w.as_bytes()[w.len() - suffix.len()..]
                        .eq_ignore_ascii_case(suffix.as_bytes())
            })
    };
    if words.iter().any(|w| is_adjective(w)) {
        return None;
    }
    if words.len() == 1
        && words[0].contains('-')
        && words[0]
            .split('-')
            .all(|part| gazetteer.country_named(part).is_some())
    {
        return None;
    }
    let last_word = words[words.len() - 1];
    // A possessive before a person or title is no place ("Kenya's Eliud", "Syria's President").
    let (words, possessive): (Cow<'_, [&str]>, bool) = match strip_possessive(last_word) {
        Some(stem) => {
            let mut trimmed = words.to_vec();
            let last = trimmed.len() - 1;
            trimmed[last] = stem;
            (Cow::Owned(trimmed), true)
        }
        None => (Cow::Borrowed(words), false),
    };
    // Borrowed from the caption: most phrases turn out to be no place, and
    // only a mention keeps its name.
    let mut phrase = span_of(start, end).of(text);
    if possessive {
        if let Some(stem) = strip_possessive(phrase) {
            phrase = stem;
        }
    }
    let next_word = |k: usize| tokens.get(k).filter(|t| t.is_word()).map(|t| t.text(text));
    if possessive {
        // "Aleppo's old city", "Syria's Idlib province", "Kabul's main
        // market", "Kyiv's Independence Square" are places; "Iran's supreme
        // leader", "Kenya's Eliud Kipchoge" are not.
        let ahead: Vec<&str> = (end..end + 4).map_while(next_word).collect();
        let place_word = ahead.iter().any(|w| {
            is_one_of(w, PROVINCE_HEADS)
                || is_one_of(w, POSSESSED_PLACE_WORDS)
                || is_one_of(w, DIRECTIONS)
                || is_one_of(w, FACILITY_HEADS)
        });
        if !place_word {
            return None;
        }
    }
    // "flee Mosul's Old City": a possessive before a place word is a place
    // wherever it stands.
    let cue = if possessive && cue == Cue::Bare {
        Cue::Of
    } else {
        cue
    };

    // Heads inside the phrase: "Umayyad Square", "Homs Governorate", "Gaza City".
    let inner_head = words.last().copied().unwrap_or("");
    if words.len() >= 2 {
        let name_without_head = name_of(start, end - 1);
        if is_one_of(inner_head, PROVINCE_HEADS) && !inner_head.eq_ignore_ascii_case("district") {
            return Some(province_mention(
                mention(MentionKind::Region, name_without_head, end - 1),
                name_without_head,
                gazetteer,
            ));
        }
        // "Umayyad Square" is a sublocation; "Mexico Beach" is a town.
        let known_town = gazetteer
            .places_named(phrase)
            .iter()
            .any(|m| m.kind == MatchKind::Folded);
        if is_one_of(inner_head, FACILITY_HEADS) && !known_town {
            return Some(mention(
                MentionKind::Sublocation {
                    name: phrase.to_string(),
                    district: false,
                },
                phrase,
                end - 1,
            ));
        }
        if is_one_of(inner_head, DISTRICT_HEADS) {
            return Some(mention(
                MentionKind::Sublocation {
                    name: name_without_head.to_string(),
                    district: true,
                },
                name_without_head,
                end - 1,
            ));
        }
    }

    // Heads after the phrase: "Zaatari refugee camp", "Idlib province", "Jobar area".
    let mut k = end;
    while next_word(k).is_some_and(|w| is_one_of(w, FACILITY_MODIFIERS)) && k < end + 2 {
        k += 1;
    }
    if let Some(head) = next_word(k) {
        if is_one_of(head, FACILITY_HEADS) && !possessive {
            let name = name_of(start, k + 1);
            return Some(mention(
                MentionKind::Sublocation {
                    name: name.to_string(),
                    district: false,
                },
                name,
                k,
            ));
        }
    }
    if let Some(head) = next_word(end) {
        if is_one_of(head, PROVINCE_HEADS) && head != "district" {
            return Some(province_mention(
                mention(MentionKind::Region, phrase, end),
                phrase,
                gazetteer,
            ));
        }
        if is_one_of(head, DISTRICT_HEADS) {
            return Some(mention(
                MentionKind::Sublocation {
                    name: phrase.to_string(),
                    district: true,
                },
                phrase,
                end,
            ));
        }
        if is_one_of(head, SETTLEMENT_HEADS) {
            return Some(mention(
                MentionKind::Settlement {
                    resolved: None,
                    explicit_head: true,
                },
                phrase,
                end,
            ));
        }
    }
    // An appositive says what the place is: "Jobar, a rebel-held district",
    // "Khuzaa, a village east of ...".
    if tokens.get(end).is_some_and(|t| t.is_punct(','))
        && next_word(end + 1).is_some_and(|w| w == "a" || w == "an")
    {
        let head = (end + 2..end + 7)
            .map_while(next_word)
            .find(|w| is_one_of(w, DISTRICT_HEADS) || is_one_of(w, SETTLEMENT_HEADS));
        match head {
            Some(h) if is_one_of(h, DISTRICT_HEADS) => {
                return Some(mention(
                    MentionKind::Sublocation {
                        name: phrase.to_string(),
                        district: true,
                    },
                    phrase,
                    end - 1,
                ));
            }
            Some(_) => {
                return Some(mention(
                    MentionKind::Settlement {
                        resolved: None,
                        explicit_head: true,
                    },
                    phrase,
                    end - 1,
                ))
            }
            None => {}
        }
    }
    // "Andre Smith of Canada" is a person and a nationality.
    if next_word(end) == Some("of") {
        let country_after = (end + 1..end + 3)
            .map_while(next_word)
            .find(|w| *w != "the");
        if country_after.is_some_and(|w| gazetteer.country_named(w).is_some())
            && gazetteer.country_named(phrase).is_none()
        {
            return None;
        }
    }
    // "the countryside of Idlib" is the province alone.
    if cue == Cue::Reference && start >= 2 && tokens[start - 1].text(text) == "of" {
        let before = tokens[start - 2].text(text);
        if before == "countryside" {
            return Some(province_mention(
                mention(MentionKind::Region, phrase, end - 1),
                phrase,
                gazetteer,
            ));
        }
    }

    // A person's hometown ("Chris Nation, of Commerce, Ga.") or nationality
    // ("Usain Bolt of Jamaica", "Katie Ledecky of the U.S.") is not the scene.
    let of_at = if start >= 3 && tokens[start - 1].text(text) == "the" {
        start - 2
    } else {
        start - 1.min(start)
    };
    if of_at >= 1 && start >= 1 && tokens[of_at].text(text) == "of" {
        let before = tokens[of_at - 1];
        let before_before = of_at.checked_sub(2).map(|k| tokens[k]);
        let after_name = before.is_word()
            && starts_upper(before.text(text))
            && !is_one_of(before.text(text), FACILITY_HEADS)
            && !is_one_of(before.text(text), DISTRICT_HEADS)
            // "the Old City of Mosul", "the Province of Idlib".
            && !is_one_of(before.text(text), SETTLEMENT_HEADS)
            && !is_one_of(before.text(text), PROVINCE_HEADS);
        let after_name_comma =
            before.is_punct(',') && before_before.is_some_and(|t| starts_upper(t.text(text)));
        if after_name || after_name_comma {
            return None;
        }
    }
    if let Some(code) = words
        .first()
        .and_then(|w| us_state_abbreviation(w))
        .filter(|_| words.len() == 1 && after_comma)
    {
        let country = CountryCode::new("US");
        return Some(mention(
            MentionKind::Province {
                code: Some(code.to_string()),
                country,
            },
            phrase,
            end - 1,
        ));
    }
    if let Some(country) = gazetteer.country_named(phrase) {
        return Some(mention(MentionKind::Country(country.code), phrase, end - 1));
    }
    if words.iter().any(|w| is_one_of(w, REGION_WORDS)) {
        return Some(mention(MentionKind::Region, phrase, end - 1));
    }
    // "Harvey, Louisiana": a division after a comma.
    if after_comma {
        let divisions = gazetteer.admin1_named(phrase, None);
        if let [division] = divisions.as_slice() {
            if gazetteer
                .places_named(phrase)
                .iter()
                .all(|m| m.place.population < 50_000)
            {
                let kind = MentionKind::Province {
                    code: Some(division.code.clone()),
                    country: Some(division.country),
                };
                return Some(mention(kind, phrase, end - 1));
            }
        }
    }
    // Only phrases in a place position are settlement candidates: after a
    // preposition, or followed by ", <direction> of" / ", Country".
    let followed_by_place_pattern = tokens.get(end).is_some_and(|t| t.is_punct(','))
        && next_word(end + 1).is_some_and(|w| {
            is_one_of(w, DIRECTIONS)
                || starts_upper(w)
                || matches!(w, "some" | "near" | "on" | "in" | "just")
        });
    if cue == Cue::Bare && !after_comma && !followed_by_place_pattern {
        return None;
    }
    // Towns take no article: "in the Euphrates" is a river.
    if start >= 1 && tokens[start - 1].text(text) == "the" {
        return None;
    }
    Some(mention(
        MentionKind::Settlement {
            resolved: None,
            explicit_head: false,
        },
        phrase,
        end - 1,
    ))
}

fn strip_possessive(word: &str) -> Option<&str> {
    word.strip_suffix("'s")
        .or_else(|| word.strip_suffix("\u{2019}s"))
}

/// A province mention resolved by name, or by the division of the biggest
/// settlement of that name (`Kherson region` -> Kherson's oblast).
fn province_mention(mut mention: Mention, name: &str, gazetteer: &Gazetteer) -> Mention {
    let named = gazetteer.admin1_named(name, None);
    let (code, country) = match named.as_slice() {
        [one, ..] => (Some(one.code.clone()), Some(one.country)),
        [] => match gazetteer.places_named(name).first() {
            Some(m) => (
                m.place.admin1_code.as_deref().map(String::from),
                Some(m.place.country),
            ),
            None => (None, None),
        },
    };
    mention.kind = MentionKind::Province { code, country };
    mention
}

// ---------------------------------------------------------------------------
// Resolution

/// Countries the whole caption hints at: country names anywhere and
/// nationality adjectives (`the Syrian Observatory`), for breaking ties.
/// The countries a caption hints at, computed only when a name's
/// candidates lie in several countries (most captions never need them).
struct CountryHints<'a> {
    text: &'a str,
    description: Span,
    gazetteer: &'a Gazetteer,
    countries: std::cell::OnceCell<Vec<CountryCode>>,
}

impl CountryHints<'_> {
    fn get(&self) -> &[CountryCode] {
        // The credit hints too ("Syrian Observatory for Human Rights").
        self.countries.get_or_init(|| {
            let before = tokenize(self.text, Span::new(0, self.description.start));
            let after = tokenize(self.text, Span::new(self.description.end, self.text.len()));
            let tokens: Vec<Token> = before
                .into_iter()
                .chain(tokenize(self.text, self.description))
                .chain(after)
                .collect();
            weak_country_context(self.text, &tokens, self.gazetteer)
        })
    }
}

fn weak_country_context(text: &str, tokens: &[Token], gazetteer: &Gazetteer) -> Vec<CountryCode> {
    let mut out = Vec::new();
    for token in tokens.iter().filter(|t| t.is_word()) {
        let word = token.text(text);
        if !starts_upper(word) {
            continue;
        }
        let code = is_demonym(word)
            .then(|| DEMONYMS.iter().find(|(d, _)| d.eq_ignore_ascii_case(word)))
            .flatten()
            .and_then(|(_, c)| CountryCode::new(c))
            .or_else(|| {
                gazetteer
                    .country_named(strip_possessive(word).unwrap_or(word))
                    .map(|c| c.code)
            });
        if let Some(code) = code {
            if !out.contains(&code) {
                out.push(code);
            }
        }
    }
    out
}

fn resolve_settlements(
    text: &str,
    mentions: &mut [Mention],
    gazetteer: &Gazetteer,
    weak: &CountryHints<'_>,
) {
    read_division_appositions(mentions, gazetteer);
    let strong_countries: Vec<CountryCode> = mentions
        .iter()
        .filter(|m| m.cue != Cue::Weak)
        .filter_map(|m| match &m.kind {
            MentionKind::Country(code) => Some(*code),
            MentionKind::Province {
                country: Some(code),
                ..
            } => Some(*code),
            _ => None,
        })
        .collect();
    let provinces: Vec<String> = mentions
        .iter()
        .filter_map(|m| match &m.kind {
            MentionKind::Province {
                code: Some(code), ..
            } => Some(code.clone()),
            _ => None,
        })
        .collect();
    for k in 0..mentions.len() {
        let MentionKind::Settlement { explicit_head, .. } = mentions[k].kind else {
            continue;
        };
        // "Stephenville, La.": a division right after the name is a filter.
        let attached_province = mentions
            .get(k + 1)
            .filter(|m| m.after_comma_of_mention)
            .and_then(|m| match &m.kind {
                MentionKind::Province {
                    code: Some(code), ..
                } => Some(code.clone()),
                _ => None,
            });
        let resolved = best_place(
            &mentions[k].name,
            gazetteer,
            &strong_countries,
            &provinces,
            weak,
        )
        .filter(|p| {
            attached_province
                .as_ref()
                .is_none_or(|code| p.admin1_code.as_deref() == Some(code.as_str()))
        });
        let resolved = match (&resolved, &attached_province) {
            (None, Some(code)) => gazetteer
                .places_named(&mentions[k].name)
                .into_iter()
                .filter(|m| m.place.admin1_code.as_deref() == Some(code.as_str()))
                .max_by_key(|m| m.place.population)
                .map(|m| m.place.clone()),
            _ => resolved,
        };
        mentions[k].kind = MentionKind::Settlement {
            resolved: resolved.map(ResolvedPlace::from),
            explicit_head,
        };
    }
    // Settlements of one caption lie in one country: the most prominent
    // resolved one anchors it, and a name that resolved elsewhere is
    // re-resolved there, or left unresolved when it has no namesake there
    // and stands next to the anchor ("Jubar, Damascus").
    if strong_countries.is_empty() {
        let anchor = mentions
            .iter()
            .filter_map(|m| match &m.kind {
                MentionKind::Settlement {
                    resolved: Some(p), ..
                } => Some(&p.place),
                _ => None,
            })
            .max_by_key(|p| p.population)
            .map(|p| p.country);
        if let Some(anchor) = anchor {
            for k in 0..mentions.len() {
                let MentionKind::Settlement {
                    resolved: Some(ref p),
                    explicit_head,
                } = mentions[k].kind
                else {
                    continue;
                };
                if p.place.country == anchor {
                    continue;
                }
                let in_anchor =
                    best_place(&mentions[k].name, gazetteer, &[anchor], &provinces, weak);
                let next_to_anchor = mentions[k].after_comma_of_mention
                    || mentions
                        .get(k + 1)
                        .is_some_and(|m| m.after_comma_of_mention);
                let hinted = weak.get().contains(&p.place.country);
                if in_anchor.is_some() || next_to_anchor || !hinted {
                    mentions[k].kind = MentionKind::Settlement {
                        resolved: in_anchor.map(ResolvedPlace::from),
                        explicit_head,
                    };
                }
            }
        }
    }
    // "Jubar, Damascus", "at X, in Teknaf": an unresolved name before a
    // resolved city is a part of it.
    for k in 1..mentions.len() {
        let parent_resolved = matches!(
            mentions[k].kind,
            MentionKind::Settlement {
                resolved: Some(_),
                ..
            }
        );
        let gap = Span::new(mentions[k - 1].span.end, mentions[k].span.start)
            .of(text)
            .trim();
        if (mentions[k].after_comma_of_mention || gap == ", in") && parent_resolved {
            if let MentionKind::Settlement {
                resolved: None,
                explicit_head: false,
            } = mentions[k - 1].kind
            {
                let name = mentions[k - 1].name.clone();
                mentions[k - 1].kind = MentionKind::Sublocation {
                    name,
                    district: true,
                };
                mentions[k - 1].district_of_next = true;
            }
        }
    }
}

/// `Augusta, Georgia`, `Palm Beach, Florida`, `Las Vegas, Nevada`:
/// a name after a settlement and a comma that names a first-level division
/// holding a place of the settlement's name is that division, whatever
/// else the name could be (a country, a town, a division of another
/// country). The gazetteer confirms the pair, so `Batumi, Georgia` stays in
/// the country. The settlement is then resolved inside the division, as
/// after any division that follows it.
fn read_division_appositions(mentions: &mut [Mention], gazetteer: &Gazetteer) {
    for k in 1..mentions.len() {
        // A settlement not yet resolved, then a name that may be a division
        // (one already resolved as a division needs no second reading).
        let pair = matches!(
            mentions[k - 1].kind,
            MentionKind::Settlement { resolved: None, .. }
        ) && matches!(
            mentions[k].kind,
            MentionKind::Country(_)
                | MentionKind::Settlement { .. }
                | MentionKind::Province { code: None, .. }
        );
        if !mentions[k].after_comma_of_mention || !pair {
            continue;
        }
        let mut divisions = gazetteer.admin1_named(&mentions[k].name, None);
        // `Washington, DC`, `Austin, TX`: a US postal code is the state's
        // GeoNames code.
        let name = mentions[k].name.as_str();
        if name.len() == 2 && name.bytes().all(|b| b.is_ascii_uppercase()) {
            divisions.extend(gazetteer.admin1(&format!("US.{name}")));
        }
        if divisions.is_empty() {
            continue;
        }
        let holding = gazetteer
            .places_named(&mentions[k - 1].name)
            .into_iter()
            .filter(|m| m.kind != MatchKind::Skeleton)
            .filter_map(|m| {
                divisions
                    .iter()
                    .find(|d| m.place.admin1_code.as_deref() == Some(d.code.as_str()))
                    .map(|d| (m.place.population, *d))
            })
            .max_by_key(|(population, _)| *population);
        if let Some((_, division)) = holding {
            mentions[k].kind = MentionKind::Province {
                code: Some(division.code.clone()),
                country: Some(division.country),
            };
        }
    }
}

/// The best gazetteer place for a name in context, or `None` when no
/// candidate fits the countries and provinces the caption names.
fn best_place(
    name: &str,
    gazetteer: &Gazetteer,
    countries: &[CountryCode],
    provinces: &[String],
    weak: &CountryHints<'_>,
) -> Option<Place> {
    // With the country named, an exact name there is the answer: skip the
    // costlier spelling-variant lookup.
    let exact = if countries.is_empty() {
        Vec::new()
    } else {
        gazetteer.places_named_exactly(name)
    };
    let candidates = if exact.iter().any(|m| countries.contains(&m.place.country)) {
        exact
    } else {
        gazetteer.places_named(name)
    };
    let in_named_province = |p: &Place| {
        provinces
            .iter()
            .any(|code| p.admin1_code.as_deref() == Some(code.as_str()))
    };
    // A province named elsewhere in the sentence is a hint, not a filter:
    // "in Azaz, Syria, where families fleeing Idlib province ...".
    let fitting: Vec<_> = candidates
        .iter()
        .filter(|m| countries.is_empty() || countries.contains(&m.place.country))
        .collect();
    let several_countries = fitting
        .windows(2)
        .any(|pair| pair[0].place.country != pair[1].place.country);
    let hints: &[CountryCode] = if several_countries { weak.get() } else { &[] };
    let rank =
        |p: &Place, kind| score(p, kind, hints) + if in_named_province(p) { 3.0 } else { 0.0 };
    fitting
        .into_iter()
        .max_by(|a, b| rank(a.place, a.kind).total_cmp(&rank(b.place, b.kind)))
        .map(|m| m.place.clone())
}

/// Great-circle distance in km.
fn distance_km(a: &Place, b: &Place) -> f64 {
    let (lat1, lat2) = (a.latitude.to_radians(), b.latitude.to_radians());
    let dlat = lat2 - lat1;
    let dlon = (b.longitude - a.longitude).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlon / 2.0).sin().powi(2);
    2.0 * 6371.0 * h.sqrt().asin()
}

/// How far a place may lie from the reference that locates it: twice a
/// stated distance ("60 km north of X"), else what "near X" plausibly means.
fn reference_radius_km(text: &str, between: Span) -> f64 {
    let words: Vec<&str> = between
        .of(text)
        .split(|c: char| !c.is_alphanumeric() && c != '.')
        .filter(|w| !w.is_empty())
        .collect();
    let stated = words.windows(2).find_map(|pair| {
        let unit = pair[1].to_ascii_lowercase();
        let value: f64 = pair[0].replace(',', "").parse().ok()?;
        match unit.as_str() {
            "km" | "kms" | "kilometres" | "kilometers" => Some(value),
            "miles" | "mile" => Some(value * 1.609),
            _ => None,
        }
    });
    stated.map_or(80.0, |km| (2.0 * km).max(25.0))
}

/// Ranks candidates: match quality, then a caption's hint at the country,
/// then population (log scale, so a hint outweighs a size difference).
fn score(place: &Place, kind: MatchKind, weak: &[CountryCode]) -> f64 {
    let quality = match kind {
        MatchKind::Folded => 3.0,
        _ => 0.0,
    };
    let hinted = if weak.contains(&place.country) {
        6.0
    } else {
        0.0
    };
    quality + hinted + (f64::from(place.population) + 1.0).log10()
}

// ---------------------------------------------------------------------------
// Choosing the scene

fn choose_scene(text: &str, mentions: &[Mention], gazetteer: &Gazetteer) -> Option<LocationFound> {
    // The scene settlement: strongest cue, then the later mention.
    // An unknown name is a scene only where a place must stand
    // ("in X", "the town of X"), not after "over" or "by".
    let settlement_rank = |m: &Mention| match m.kind {
        MentionKind::Settlement {
            ref resolved,
            explicit_head,
        } if m.cue != Cue::Reference
            && (resolved.is_some() || explicit_head || m.cue <= Cue::Of) =>
        {
            Some(m.cue)
        }
        _ => None,
    };
    let best_cue = mentions.iter().filter_map(settlement_rank).min();
    let mut scene = best_cue.and_then(|cue| {
        mentions
            .iter()
            .rposition(|m| settlement_rank(m) == Some(cue))
    });
    // A district's parent is the city: "the Amiriyah district of Aleppo".
    let district = mentions.iter().position(|m| {
        matches!(m.kind, MentionKind::Sublocation { district: true, .. }) && m.cue <= Cue::Of
    });
    if let Some(d) = district {
        if mentions[d].district_of_next
            && matches!(
                mentions.get(d + 1).map(|m| &m.kind),
                Some(MentionKind::Settlement { .. })
            )
        {
            scene = Some(d + 1);
        }
    }
    // With no scene settlement, the first reference place is the scene:
    // "near the village of X, 20 km on the outskirts of Y", "near Latakia".
    let scene = scene.or_else(|| {
        mentions.iter().position(|m| {
            m.cue == Cue::Reference && matches!(m.kind, MentionKind::Settlement { .. })
        })
    });
    // A sublocation stands where a place must ("at X", "the courtyard of
    // X", "near X"), not as an actor ("by the activist Idlib Media Center").
    // "through the Zaatari camp" still places the scene, when nothing else does.
    let is_sublocation = |m: &Mention| matches!(m.kind, MentionKind::Sublocation { .. });
    let sublocation = mentions
        .iter()
        .position(|m| {
            is_sublocation(m)
                && (matches!(m.cue, Cue::Scene | Cue::Of | Cue::Reference)
                    || m.after_comma_of_mention)
        })
        .or_else(|| {
            mentions
                .iter()
                .position(|m| is_sublocation(m) && m.cue == Cue::Weak)
        });
    let mut location = Location::default();
    let mut used: Vec<Span> = Vec::new();
    let mut city_as_written = None;
    let mut resolved: Option<Place> = None;
    if let Some(s) = scene {
        let MentionKind::Settlement {
            resolved: place, ..
        } = &mentions[s].kind
        else {
            return None;
        };
        used.push(mentions[s].span);
        // A later reference place locates the scene settlement.
        let reference = mentions[s + 1..]
            .iter()
            .position(|m| {
                m.cue == Cue::Reference
                    && matches!(
                        m.kind,
                        MentionKind::Settlement {
                            resolved: Some(_),
                            ..
                        }
                    )
            })
            .map(|i| i + s + 1)
            .and_then(|r| match &mentions[r].kind {
                MentionKind::Settlement {
                    resolved: Some(p), ..
                } => Some((r, &p.place)),
                _ => None,
            });
        resolved = match (place, reference) {
            // A namesake far from the reference is not the place meant:
            // "Mrah village, 60 km north of Damascus".
            (Some(p), Some((r, anchor))) => {
                let radius = reference_radius_km(
                    text,
                    Span::new(mentions[s].span.end, mentions[r].span.start),
                );
                if distance_km(&p.place, anchor) <= radius {
                    Some(p.place.clone())
                } else {
                    gazetteer
                        .places_named(&mentions[s].name)
                        .into_iter()
                        .map(|m| m.place)
                        .filter(|candidate| distance_km(candidate, anchor) <= radius)
                        .max_by_key(|candidate| candidate.population)
                        .cloned()
                }
            }
            (p, _) => p.as_ref().map(|p| p.place.clone()),
        };
        if resolved.is_none() {
            // An unknown village takes the id of the place that locates it.
            city_as_written = Some(mentions[s].name.clone());
            if let Some((r, anchor)) = reference {
                resolved = Some(anchor.clone());
                used.push(mentions[r].span);
            }
        }
    }
    // "at Kabul airport": with no settlement named, a facility named after
    // its town places the photo in that town.
    if resolved.is_none() && city_as_written.is_none() {
        if let Some(i) = sublocation {
            let town: Vec<&str> = mentions[i]
                .name
                .split(' ')
                .take_while(|w| starts_upper(w) || is_name_particle(w))
                .collect();
            let all_words = mentions[i].name.split(' ').count();
            if !town.is_empty() && town.len() < all_words {
                let countries: Vec<CountryCode> = mentions
                    .iter()
                    .filter_map(|m| {
                        if let MentionKind::Country(c) = m.kind {
                            Some(c)
                        } else {
                            None
                        }
                    })
                    .collect();
                resolved = gazetteer
                    .places_named(&town.join(" "))
                    .into_iter()
                    .filter(|m| {
                        m.kind == MatchKind::Folded
                            && (countries.is_empty() || countries.contains(&m.place.country))
                    })
                    .max_by_key(|m| m.place.population)
                    .map(|m| m.place.clone());
            }
        }
    }
    // An unresolved name led by a terrain word is a sublocation.
    let mut sub_name = sublocation.map(|i| {
        used.push(mentions[i].span);
        match &mentions[i].kind {
            MentionKind::Sublocation { name, .. } => name.clone(),
            _ => mentions[i].name.clone(),
        }
    });
    if let Some(name) = &city_as_written {
        let first = name.split([' ', '-']).next().unwrap_or("");
        if is_one_of(first, TERRAIN_WORDS) && sub_name.is_none() {
            sub_name = city_as_written.take();
        }
    }
    location.sublocation = sub_name;
    if let Some(place) = &resolved {
        location.city = Some(
            city_as_written
                .clone()
                .unwrap_or_else(|| place.name.to_string()),
        );
        location.geonames_id = Some(place.id);
        location.latitude = Some(place.latitude);
        location.longitude = Some(place.longitude);
        location.country_code = Some(place.country.to_string());
        location.province_code = place.admin1_code.as_deref().map(String::from);
    } else {
        location.city = city_as_written.clone();
    }
    // Province and country named in the text fill what the place did not.
    let province = mentions.iter().find_map(|m| match &m.kind {
        MentionKind::Province { code, country } if m.cue != Cue::Weak => {
            Some((m.span, code.clone(), *country))
        }
        _ => None,
    });
    let country = mentions.iter().find_map(|m| match m.kind {
        MentionKind::Country(code) if m.cue != Cue::Weak || m.after_comma_of_mention => {
            Some((m.span, code))
        }
        _ => None,
    });
    if location.province_code.is_none() {
        if let Some((span, code, country_of_province)) = &province {
            let fits = location.country_code.is_none()
                || country_of_province.map(|c| c.to_string()) == location.country_code;
            if fits {
                location.province_code = code.clone();
                used.push(*span);
                if location.country_code.is_none() {
                    location.country_code = country_of_province.map(|c| c.to_string());
                }
            }
        }
    } else if let Some((span, code, _)) = &province {
        if code == &location.province_code {
            used.push(*span);
        }
    }
    if let Some((span, code)) = country {
        if location.country_code.is_none() {
            location.country_code = Some(code.to_string());
        }
        if location.country_code.as_deref() == Some(code.as_str()) {
            used.push(span);
        }
    }
    if location.country_code.is_none() && location.city.is_none() && location.sublocation.is_none()
    {
        return None;
    }
    if let Some(code) = &location.province_code {
        location.province = gazetteer.admin1(code).map(|a| a.name.clone());
    }
    if let Some(code) = location.country_code.as_deref().and_then(CountryCode::new) {
        location.country = gazetteer.country(code).map(|c| c.name.clone());
    }
    let span = Span::new(
        used.iter().map(|s| s.start).min()?,
        used.iter().map(|s| s.end).max()?,
    );
    location.text = Some(span.of(text).to_string());
    location.span = Some(span);
    let unresolved = location.geonames_id.is_none()
        && (location.city.is_some() || location.sublocation.is_some());
    Some(LocationFound {
        location: Some(location),
        unresolved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gazetteer::PlaceEntry;

    #[test]
    fn word_lists_are_lower_case_and_each_has_its_own_bit() {
        let demonyms = DEMONYMS.iter().map(|(word, _)| word);
        for word in WORD_LISTS
            .iter()
            .flat_map(|list| list.words)
            .chain(demonyms)
        {
            assert_eq!(word.to_ascii_lowercase(), *word);
            // Building the table on first use panics on a word too long for it.
            assert_ne!(lists_of(&word.to_ascii_uppercase()), 0, "{word}");
        }
        let all_bits = WORD_LISTS.iter().fold(DEMONYM_BIT, |bits, list| {
            assert_eq!(list.bit.count_ones(), 1);
            assert_eq!(bits & list.bit, 0, "two lists share a bit");
            bits | list.bit
        });
        assert_eq!(all_bits.count_ones() as usize, WORD_LISTS.len() + 1);
        assert!(is_one_of("Square", FACILITY_HEADS) && !is_one_of("square", DIRECTIONS));
        assert!(is_demonym("SYRIAN") && !is_demonym("syria"));
    }

    fn gazetteer() -> Gazetteer {
        let mut b = Gazetteer::builder();
        b.country("SY", "Syria", 163843)
            .country("LB", "Lebanon", 272103)
            .country("LY", "Libya", 2215636);
        b.country("US", "United States", 6252001)
            .country("DE", "Germany", 2921044);
        b.admin1("SY.13", "Dimashq", None)
            .admin1("SY.12", "Idlib", None)
            .admin1("SY.08", "Rif-dimashq", None);
        b.admin1("LB.09", "Liban-Nord", None)
            .admin1("LY.77", "Tripoli", None)
            .admin1("US.LA", "Louisiana", None);
        b.admin1("US.IL", "Illinois", None);
        let mut place = |id, name: &str, lat, lon, cc: &str, a1: &str, pop, alts: &[&str]| {
            b.place(PlaceEntry {
                id,
                name: name.into(),
                latitude: lat,
                longitude: lon,
                country: cc.into(),
                admin1: Some(a1.into()),
                population: pop,
                alternate_names: alts.iter().map(|s| s.to_string()).collect(),
            });
        };
        place(1, "Damascus", 33.5, 36.3, "SY", "13", 1_569_394, &[]);
        place(2, "Idlib", 35.9, 36.6, "SY", "12", 128_840, &[]);
        place(3, "Tripoli", 32.9, 13.2, "LY", "77", 1_150_989, &[]);
        place(4, "Tripoli", 34.4, 35.8, "LB", "09", 229_398, &[]);
        place(5, "Harvey", 41.6, -87.6, "US", "IL", 25_000, &[]);
        place(6, "Harvey", 29.9, -90.1, "US", "LA", 20_000, &[]);
        place(7, "Jübar", 52.7, 10.9, "DE", "14", 690, &[]);
        b.build()
    }

    fn locate(caption: &str) -> LocationFound {
        find_location(caption, Span::new(0, caption.len()), &gazetteer())
    }

    fn summary(
        found: &LocationFound,
    ) -> (
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    ) {
        let l = found.location.clone().unwrap_or_default();
        (l.sublocation, l.city, l.province_code, l.country_code)
    }

    fn s(x: &str) -> Option<String> {
        Some(x.to_string())
    }

    #[test]
    fn city_and_country_with_sublocation() {
        let found =
            locate("A vendor sells bread at Marjeh Square in Damascus, Syria June 3, 2019.");
        assert_eq!(
            summary(&found),
            (s("Marjeh Square"), s("Damascus"), s("SY.13"), s("SY"))
        );
        let location = found.location.expect("located");
        assert_eq!(
            location.text.as_deref(),
            Some("Marjeh Square in Damascus, Syria")
        );
        assert_eq!(location.geonames_id, Some(1));
        assert!(!found.unresolved);
    }

    #[test]
    fn country_context_disambiguates() {
        let found = locate("Boys play football in Tripoli, northern Lebanon, May 2, 2013.");
        assert_eq!(summary(&found).1, s("Tripoli"));
        assert_eq!(summary(&found).3, s("LB"));
        let found = locate("Cars queue for fuel in Harvey, La., on Monday.");
        assert_eq!(found.location.and_then(|l| l.geonames_id), Some(6));
    }

    #[test]
    fn province_alone_is_not_a_city() {
        let found = locate("Farmers harvest olives in Idlib province, Syria November 2, 2018.");
        assert_eq!(summary(&found), (None, None, s("SY.12"), s("SY")));
        assert!(!found.unresolved);
    }

    #[test]
    fn unresolved_village_borrows_its_reference() {
        let found = locate(
            "Women bake bread in Kfar Zeit, a village 12 km north of Damascus, July 1, 2014.",
        );
        let location = found.location.expect("located");
        assert_eq!(location.city.as_deref(), Some("Kfar Zeit"));
        assert_eq!(location.geonames_id, Some(1));
        assert_eq!(location.province_code.as_deref(), Some("SY.13"));
        assert!(!found.unresolved);
    }

    #[test]
    fn district_of_a_city() {
        let found = locate("A boy rides a bicycle in the Qaboun district of Damascus, Syria.");
        assert_eq!(
            summary(&found),
            (s("Qaboun"), s("Damascus"), s("SY.13"), s("SY"))
        );
        let found = locate("Protesters march in Jubar, Damascus, on Friday.");
        assert_eq!(
            summary(&found),
            (s("Jubar"), s("Damascus"), s("SY.13"), s("SY"))
        );
    }

    #[test]
    fn unknown_places_are_flagged() {
        let found = locate("Children play at Sandpiper air base in Syria, March 2, 2016.");
        assert_eq!(
            summary(&found),
            (s("Sandpiper air base"), None, None, s("SY"))
        );
        assert!(found.unresolved);
        let found = locate("Men rest in Foxburrow, La., on Monday.");
        assert_eq!(summary(&found), (None, s("Foxburrow"), s("US.LA"), s("US")));
        assert!(found.unresolved);
    }

    #[test]
    fn later_scene_wins_over_background_and_people_are_not_places() {
        let found =
            locate("A woman who fled the fighting in Idlib hangs laundry in Tripoli, Lebanon.");
        assert_eq!(summary(&found).1, s("Tripoli"));
        assert_eq!(
            locate("Kenya's Amos Kiprop runs the marathon.").location,
            None
        );
    }
}
