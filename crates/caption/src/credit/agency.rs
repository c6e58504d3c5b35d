//! News agencies in credit lines: canonical names, aliases, agencies off the list.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

/// Longest alias we look up, in bytes; longer parts cannot be aliases, so the
/// lower-cased key fits a stack buffer and the lookup never allocates.
const MAX_ALIAS_BYTES: usize = 40;

/// What an agency lookup found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Agency<'a> {
    /// On the canonical list: the canonical name.
    Canonical(&'static str),
    /// Off the list but an agency all the same: the name as written.
    AsWritten(&'a str),
}

impl Agency<'_> {
    /// The name that goes into `agencies`.
    pub(super) fn name(&self) -> &str {
        match self {
            Agency::Canonical(name) => name,
            Agency::AsWritten(name) => name,
        }
    }
}

/// Looks a credit part up as an agency: an alias of a canonical agency, a
/// known agency off the list, or a name ending in an agency-like word
/// (`SOPA Images`, `Hawar News Agency`). `part` is trimmed.
pub(super) fn lookup(part: &str) -> Option<Agency<'_>> {
    let mut buf = [0u8; MAX_ALIAS_BYTES];
    let key = lower_key(part, &mut buf)?;
    match known(key) {
        Some(Known::Canonical(name)) => Some(Agency::Canonical(name)),
        Some(Known::OffList) => Some(Agency::AsWritten(part)),
        None => agency_like(key).then_some(Agency::AsWritten(part)),
    }
}

/// What the alias table says of a lower-cased key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Known {
    /// An alias, or an alias and a [`SERVICE_SUFFIXES`] suffix: the
    /// canonical name.
    Canonical(&'static str),
    /// One of [`KNOWN_OFF_LIST`].
    OffList,
}

/// The alias table's answer for a lower-cased key, by one hash probe: every
/// part of every credit is looked up, and most miss. The table holds each
/// alias, each alias with each service suffix (`xinhua photo`) and the
/// agencies off the list; where two readings give one key, the one
/// [`known_by_scan`] tries first is kept.
fn known(key: &[u8]) -> Option<Known> {
    static TABLE: LazyLock<FxHashMap<Box<[u8]>, Known>> = LazyLock::new(|| {
        let mut table = FxHashMap::default();
        for &(name, aliases) in ALIASES {
            for alias in aliases.split('|') {
                table
                    .entry(alias.as_bytes().into())
                    .or_insert(Known::Canonical(name));
            }
        }
        for suffix in SERVICE_SUFFIXES {
            for &(name, aliases) in ALIASES {
                for alias in aliases.split('|') {
                    table
                        .entry(format!("{alias}{suffix}").into_bytes().into())
                        .or_insert(Known::Canonical(name));
                }
            }
        }
        for word in KNOWN_OFF_LIST {
            table
                .entry(word.as_bytes().into())
                .or_insert(Known::OffList);
        }
        table
    });
    TABLE.get(key).copied()
}

/// [`known`] by scanning the lists in the order of the rules: an alias, an
/// alias and a service suffix, an agency off the list. Its oracle.
#[cfg(test)]
fn known_by_scan(key: &[u8]) -> Option<Known> {
    let canonical = |key: &[u8]| {
        ALIASES
            .iter()
            .find(|(_, aliases)| aliases.split('|').any(|a| a.as_bytes() == key))
            .map(|&(name, _)| Known::Canonical(name))
    };
    canonical(key)
        .or_else(|| {
            SERVICE_SUFFIXES
                .iter()
                .find_map(|suffix| key.strip_suffix(suffix.as_bytes()).and_then(canonical))
        })
        .or_else(|| {
            KNOWN_OFF_LIST
                .iter()
                .any(|w| w.as_bytes() == key)
                .then_some(Known::OffList)
        })
}

/// Lower-cases an ASCII part into `buf`, collapsing nothing (the caption is
/// already whitespace-normalized). `None` when it cannot be an alias.
fn lower_key<'b>(part: &str, buf: &'b mut [u8; MAX_ALIAS_BYTES]) -> Option<&'b [u8]> {
    let bytes = part.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_ALIAS_BYTES || !part.is_ascii() {
        return None;
    }
    let out = &mut buf[..bytes.len()];
    for (dst, src) in out.iter_mut().zip(bytes) {
        *dst = src.to_ascii_lowercase();
    }
    Some(out)
}

/// Each canonical agency with its lower-cased aliases, separated by `|`.
const ALIASES: &[(&str, &str)] = &[
    ("Reuters", "reuters|reuters tv|reuters television|thomson reuters|reuters pictures"),
    ("AP", "ap|ap photo|ap photos|ap images|associated press|the associated press"),
    ("AFP", "afp|afp photo|afp photos|afptv|afp tv|agence france-presse|agence france presse"),
    ("Getty Images", "getty images|getty|getty image|getty images news|getty images europe|getty images asiapac|getty images north america|getty images south america"),
    ("EPA", "epa|epa-efe|epa efe|epa images|european pressphoto agency|european pressphoto"),
    ("Anadolu Agency", "anadolu agency|anadolu|anadolu ajansi|anadolu images|aa photo"),
    ("Xinhua", "xinhua|xinhua news agency"),
    ("SANA", "sana|syrian arab news agency"),
    ("UPI", "upi|united press international"),
    ("Bloomberg", "bloomberg"),
    ("NurPhoto", "nurphoto|nur photo"),
    ("ZUMA Press", "zuma press|zuma wire|zuma press wire|zumapress|zumapress.com|zuma|zuma press inc"),
    ("Sipa", "sipa|sipa usa|sipa press"),
    ("DPA", "dpa|deutsche presse-agentur"),
    ("TASS", "tass|itar-tass"),
    ("Sputnik", "sputnik"),
    ("Kyodo", "kyodo|kyodo news"),
    ("Shutterstock", "shutterstock"),
    ("Abaca", "abaca|abaca press|abacapress|abacapress.com"),
    ("Polaris", "polaris|polaris images"),
    ("Redux", "redux|redux pictures"),
    ("The New York Times", "the new york times|new york times|nyt"),
    ("The Washington Post", "the washington post|washington post"),
    ("Magnum Photos", "magnum photos|magnum"),
    ("VII", "vii|vii photo|vii photo agency"),
];

/// Suffixes that name an agency's own picture service after its alias
/// (`Xinhua Photo`, `EPA Photo`, `Sputnik Photo Agency`), in the order they
/// are tried.
const SERVICE_SUFFIXES: [&str; 6] = [
    " photo",
    " photos",
    " pictures",
    " images",
    " photo agency",
    " news agency",
];

/// Photo agencies and agency brands off the canonical list whose names carry
/// no agency-like word, so [`agency_like`] cannot tell them from sources.
const KNOWN_OFF_LIST: [&str; 51] = [
    "picture alliance",
    "picture-alliance",
    "wireimage",
    "filmmagic",
    "corbis",
    "sygma",
    "gamma-rapho",
    "lightrocket",
    "alamy",
    "imago",
    "keystone",
    "pa",
    "aap",
    "ansa",
    "efe",
    "yonhap",
    "belga",
    "anp",
    "lusa",
    "rex",
    "rex features",
    "scanpix",
    "ritzau scanpix",
    "ntb",
    "allsport",
    "usa today sports",
    "ria novosti",
    "jiji",
    "alamy live news",
    "alamy stock photo",
    "istock",
    "istockphoto",
    "dppi",
    "ukrinform",
    "interfax",
    "bernama",
    "antara",
    "pti",
    "irna",
    "wana",
    "tasnim",
    "pap",
    "ctk",
    "mti",
    "hina",
    "laif",
    "ddp",
    "backgrid",
    "eyevine",
    "panos",
    "contrasto",
];

/// Words that end an agency's name (`SOPA Images`, `AAP Image`, `Jiji Press`,
/// `Hawar News Agency`, `PA Wire`).
const AGENCY_LAST_WORDS: [&str; 12] = [
    "images",
    "image",
    "news",
    "photos",
    "photo",
    "pictures",
    "press",
    "wire",
    "agency",
    "pics",
    "newswire",
    "sportswire",
];

/// Whether a name is a newspaper's (`The Denver Post`, `Lowtown Herald`):
/// after its photographer's name (`Jane Doe, The Denver Post`) the paper is
/// the agency, as RECORD.md lists The New York Times. Alone, a paper's name
/// is as often a masthead as a credit, so this is no agency lookup.
pub(super) fn is_newspaper(name: &str) -> bool {
    const LAST_WORDS: [&str; 19] = [
        "Post",
        "Times",
        "Herald",
        "Tribune",
        "Journal",
        "Gazette",
        "Chronicle",
        "Telegraph",
        "Daily",
        "Courier",
        "Express",
        "Observer",
        "Standard",
        "Mirror",
        "Mail",
        "Sentinel",
        "Inquirer",
        "Examiner",
        "Ledger",
    ];
    name.contains(' ')
        && name
            .rsplit(' ')
            .next()
            .is_some_and(|last| LAST_WORDS.iter().any(|w| w.eq_ignore_ascii_case(last)))
}

/// Words that make an organisation a supplier rather than an agency even when
/// its name ends in an agency-like word (`Presidential Press` is a press office).
const SUPPLIER_WORDS: [&str; 14] = [
    "service",
    "office",
    "ministry",
    "center",
    "centre",
    "department",
    "presidency",
    "presidential",
    "government",
    "army",
    "forces",
    "council",
    "committee",
    "kremlin",
];

/// Whether a lower-cased multi-word name reads as an agency off the list.
/// (Bytes, not a `str`: the key is ASCII, and the spaces are found by a
/// byte loop.)
fn agency_like(key: &[u8]) -> bool {
    let Some(space) = key.iter().rposition(|&b| b == b' ') else {
        return false;
    };
    let last = &key[space + 1..];
    // `More in Pictures` is a page heading: agency names have no function words.
    const FUNCTION_WORDS: [&str; 9] = ["in", "of", "for", "and", "on", "at", "to", "from", "more"];
    let listed = |list: &[&str], word: &[u8]| list.iter().any(|w| w.as_bytes() == word);
    listed(&AGENCY_LAST_WORDS, last)
        && !key
            .split(|&b| b == b' ')
            .any(|word| listed(&SUPPLIER_WORDS, word) || listed(&FUNCTION_WORDS, word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(part: &str) -> Option<String> {
        lookup(part).map(|a| a.name().to_string())
    }

    #[test]
    fn aliases_map_to_canonical_names() {
        assert_eq!(name("AP Photo").as_deref(), Some("AP"));
        assert_eq!(name("AFP PHOTO").as_deref(), Some("AFP"));
        assert_eq!(name("EPA-EFE").as_deref(), Some("EPA"));
        assert_eq!(name("REUTERS TV").as_deref(), Some("Reuters"));
        assert_eq!(name("Sipa USA").as_deref(), Some("Sipa"));
        assert_eq!(name("ZUMA Press Wire").as_deref(), Some("ZUMA Press"));
        assert_eq!(name("Sana").as_deref(), Some("SANA"));
        assert_eq!(name("Anadolu").as_deref(), Some("Anadolu Agency"));
        assert_eq!(name("Xinhua Photo").as_deref(), Some("Xinhua"));
        assert_eq!(
            name("New York Times").as_deref(),
            Some("The New York Times")
        );
    }

    #[test]
    fn agencies_off_the_list_are_kept_as_written() {
        assert_eq!(name("SOPA Images").as_deref(), Some("SOPA Images"));
        assert_eq!(
            name("Hawar News Agency").as_deref(),
            Some("Hawar News Agency")
        );
        assert_eq!(name("WireImage").as_deref(), Some("WireImage"));
        assert_eq!(name("Ukrinform").as_deref(), Some("Ukrinform"));
    }

    #[test]
    fn a_picture_service_names_its_agency() {
        assert_eq!(name("AA Photo").as_deref(), Some("Anadolu Agency"));
        assert_eq!(name("Sputnik Photo Agency").as_deref(), Some("Sputnik"));
        // Off the list, the service's name is kept as written (RECORD.md).
        assert_eq!(name("DHA Photo").as_deref(), Some("DHA Photo"));
        assert_eq!(name("Lowtown News").as_deref(), Some("Lowtown News"));
    }

    #[test]
    fn headings_are_not_agencies() {
        assert_eq!(name("More in Pictures"), None);
        assert_eq!(name("The Year in Images"), None);
    }

    #[test]
    fn suppliers_and_people_are_not_agencies() {
        assert_eq!(name("Presidential Press Service"), None);
        assert_eq!(name("Aleppo Media Center"), None);
        assert_eq!(name("Kremlin"), None);
        assert_eq!(name("Jane Doe"), None);
        assert_eq!(name("KCNA"), None);
    }

    /// Keys the alias table is probed with: every alias, alone and with
    /// every suffix, every agency off the list, and near misses of each.
    fn probe_keys() -> Vec<String> {
        let words: Vec<String> = ALIASES
            .iter()
            .flat_map(|(_, aliases)| aliases.split('|'))
            .chain(KNOWN_OFF_LIST)
            .map(|w| w.to_string())
            .collect();
        let mut keys = Vec::new();
        for word in &words {
            keys.push(word.clone());
            keys.push(format!("{word}x"));
            keys.push(word[1..].to_string());
            for suffix in SERVICE_SUFFIXES {
                keys.push(format!("{word}{suffix}"));
                keys.push(format!("{word}{suffix} photo"));
            }
        }
        keys.extend(["", " photo", "photo", "jane doe", "x news agency"].map(String::from));
        keys
    }

    #[test]
    fn the_alias_table_matches_a_scan_of_the_lists() {
        for key in probe_keys() {
            assert_eq!(
                known(key.as_bytes()),
                known_by_scan(key.as_bytes()),
                "{key:?}"
            );
        }
    }

    #[test]
    fn no_alias_names_two_agencies() {
        let mut seen = std::collections::HashMap::new();
        for &(name, aliases) in ALIASES {
            for alias in aliases.split('|') {
                let before = seen.insert(alias, name);
                assert!(before.is_none_or(|b| b == name), "{alias}");
                assert_eq!(alias.to_ascii_lowercase(), alias);
                assert!(!KNOWN_OFF_LIST.contains(&alias), "{alias}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn the_alias_table_matches_a_scan_on_any_key(key in "(ap|afp|epa|getty|sana|efe|photo|images|news|agency| ){0,5}") {
            proptest::prop_assert_eq!(known(key.as_bytes()), known_by_scan(key.as_bytes()));
        }
    }
}
