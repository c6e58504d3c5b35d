//! News agencies in credit lines: canonical names, aliases, agencies off the list.

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
    if let Some(name) = canonical(key) {
        return Some(Agency::Canonical(name));
    }
    // `Xinhua Photo`, `EPA Photo`, `Sputnik Photo Agency`: the agency's own
    // picture service.
    for suffix in [
        " photo",
        " photos",
        " pictures",
        " images",
        " photo agency",
        " news agency",
    ] {
        if let Some(stem) = key.strip_suffix(suffix) {
            if let Some(name) = canonical(stem) {
                return Some(Agency::Canonical(name));
            }
        }
    }
    if known_off_list(key) || agency_like(key) {
        return Some(Agency::AsWritten(part));
    }
    None
}

/// Lower-cases an ASCII part into `buf`, collapsing nothing (the caption is
/// already whitespace-normalized). `None` when it cannot be an alias.
fn lower_key<'b>(part: &str, buf: &'b mut [u8; MAX_ALIAS_BYTES]) -> Option<&'b str> {
    let bytes = part.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_ALIAS_BYTES || !part.is_ascii() {
        return None;
    }
    let out = &mut buf[..bytes.len()];
    for (dst, src) in out.iter_mut().zip(bytes) {
        *dst = src.to_ascii_lowercase();
    }
    std::str::from_utf8(out).ok()
}

/// The canonical agency for a lower-cased alias.
fn canonical(key: &str) -> Option<&'static str> {
    Some(match key {
        "reuters" | "reuters tv" | "reuters television" | "thomson reuters"
        | "reuters pictures" => "Reuters",
        "ap"
        | "ap photo"
        | "ap photos"
        | "ap images"
        | "associated press"
        | "the associated press" => "AP",
        "afp"
        | "afp photo"
        | "afp photos"
        | "afptv"
        | "afp tv"
        | "agence france-presse"
        | "agence france presse" => "AFP",
        "getty images"
        | "getty"
        | "getty image"
        | "getty images news"
        | "getty images europe"
        | "getty images asiapac"
        | "getty images north america"
        | "getty images south america" => "Getty Images",
        "epa" | "epa-efe" | "epa efe" | "epa images" => "EPA",
        "anadolu agency" | "anadolu" | "anadolu ajansi" | "anadolu images" | "aa photo" => {
            "Anadolu Agency"
        }
        "xinhua" | "xinhua news agency" => "Xinhua",
        "sana" | "syrian arab news agency" => "SANA",
        "upi" | "united press international" => "UPI",
        "bloomberg" => "Bloomberg",
        "nurphoto" | "nur photo" => "NurPhoto",
        "zuma press" | "zuma wire" | "zuma press wire" | "zumapress" | "zumapress.com" | "zuma"
        | "zuma press inc" => "ZUMA Press",
        "sipa" | "sipa usa" | "sipa press" => "Sipa",
        "dpa" | "deutsche presse-agentur" => "DPA",
        "tass" | "itar-tass" => "TASS",
        "sputnik" => "Sputnik",
        "kyodo" | "kyodo news" => "Kyodo",
        "shutterstock" => "Shutterstock",
        "abaca" | "abaca press" | "abacapress" | "abacapress.com" => "Abaca",
        "polaris" | "polaris images" => "Polaris",
        "redux" | "redux pictures" => "Redux",
        "the new york times" | "new york times" | "nyt" => "The New York Times",
        "the washington post" | "washington post" => "The Washington Post",
        "magnum photos" | "magnum" => "Magnum Photos",
        "vii" | "vii photo" | "vii photo agency" => "VII",
        _ => return None,
    })
}

/// Photo agencies and agency brands off the canonical list whose names carry
/// no agency-like word, so [`agency_like`] cannot tell them from sources.
fn known_off_list(key: &str) -> bool {
    matches!(
        key,
        "picture alliance"
            | "picture-alliance"
            | "wireimage"
            | "filmmagic"
            | "corbis"
            | "sygma"
            | "gamma-rapho"
            | "lightrocket"
            | "alamy"
            | "imago"
            | "keystone"
            | "pa"
            | "aap"
            | "ansa"
            | "efe"
            | "yonhap"
            | "belga"
            | "anp"
            | "lusa"
            | "rex"
            | "rex features"
            | "scanpix"
            | "ritzau scanpix"
            | "ntb"
            | "allsport"
            | "usa today sports"
            | "ria novosti"
            | "jiji"
            | "alamy live news"
            | "alamy stock photo"
            | "istock"
            | "istockphoto"
            | "dppi"
            | "ukrinform"
            | "interfax"
            | "bernama"
            | "antara"
            | "pti"
            | "irna"
            | "wana"
            | "tasnim"
            | "pap"
            | "ctk"
            | "mti"
            | "hina"
            | "laif"
            | "ddp"
            | "backgrid"
            | "eyevine"
            | "panos"
            | "contrasto"
    )
}

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
fn agency_like(key: &str) -> bool {
    let Some((_, last)) = key.rsplit_once(' ') else {
        return false;
    };
    // `More in Pictures` is a page heading: agency names have no function words.
    const FUNCTION_WORDS: [&str; 9] = ["in", "of", "for", "and", "on", "at", "to", "from", "more"];
    AGENCY_LAST_WORDS.contains(&last)
        && !key
            .split(' ')
            .any(|word| SUPPLIER_WORDS.contains(&word) || FUNCTION_WORDS.contains(&word))
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
}
