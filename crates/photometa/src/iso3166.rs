//! ISO 3166-1 alpha-2 to alpha-3 country codes, for IIM 2:100 (which holds
//! three characters) when the caller gives a two-letter code.
//!
//! The table is the list of officially assigned codes (249 countries and
//! territories), one `AA` + `AAA` entry of five letters each, sorted by the
//! alpha-2 code.

const TABLE: &str = concat!(
    "ADANDAEAREAFAFGAGATGAIAIAALALBAMARMAOAGOAQATAARARGASASMATAUTAUAUSAWABWAXALAAZAZEBABIHBBBRB",
    "BDBGDBEBELBFBFABGBGRBHBHRBIBDIBJBENBLBLMBMBMUBNBRNBOBOLBQBESBRBRABSBHSBTBTNBVBVTBWBWABYBLR",
    "BZBLZCACANCCCCKCDCODCFCAFCGCOGCHCHECICIVCKCOKCLCHLCMCMRCNCHNCOCOLCRCRICUCUBCVCPVCWCUWCXCXR",
    "CYCYPCZCZEDEDEUDJDJIDKDNKDMDMADODOMDZDZAECECUEEESTEGEGYEHESHERERIESESPETETHFIFINFJFJIFKFLK",
    "FMFSMFOFROFRFRAGAGABGBGBRGDGRDGEGEOGFGUFGGGGYGHGHAGIGIBGLGRLGMGMBGNGINGPGLPGQGNQGRGRCGSSGS",
    "GTGTMGUGUMGWGNBGYGUYHKHKGHMHMDHNHNDHRHRVHTHTIHUHUNIDIDNIEIRLILISRIMIMNININDIOIOTIQIRQIRIRN",
    "ISISLITITAJEJEYJMJAMJOJORJPJPNKEKENKGKGZKHKHMKIKIRKMCOMKNKNAKPPRKKRKORKWKWTKYCYMKZKAZLALAO",
    "LBLBNLCLCALILIELKLKALRLBRLSLSOLTLTULULUXLVLVALYLBYMAMARMCMCOMDMDAMEMNEMFMAFMGMDGMHMHLMKMKD",
    "MLMLIMMMMRMNMNGMOMACMPMNPMQMTQMRMRTMSMSRMTMLTMUMUSMVMDVMWMWIMXMEXMYMYSMZMOZNANAMNCNCLNENER",
    "NFNFKNGNGANINICNLNLDNONORNPNPLNRNRUNUNIUNZNZLOMOMNPAPANPEPERPFPYFPGPNGPHPHLPKPAKPLPOLPMSPM",
    "PNPCNPRPRIPSPSEPTPRTPWPLWPYPRYQAQATREREUROROURSSRBRURUSRWRWASASAUSBSLBSCSYCSDSDNSESWESGSGP",
    "SHSHNSISVNSJSJMSKSVKSLSLESMSMRSNSENSOSOMSRSURSSSSDSTSTPSVSLVSXSXMSYSYRSZSWZTCTCATDTCDTFATF",
    "TGTGOTHTHATJTJKTKTKLTLTLSTMTKMTNTUNTOTONTRTURTTTTOTVTUVTWTWNTZTZAUAUKRUGUGAUMUMIUSUSAUYURY",
    "UZUZBVAVATVCVCTVEVENVGVGBVIVIRVNVNMVUVUTWFWLFWSWSMYEYEMYTMYTZAZAFZMZMBZWZWE",
);

/// The alpha-3 code of an alpha-2 code (either case), if it is assigned.
pub(crate) fn alpha3(alpha2: &str) -> Option<&'static str> {
    let key = alpha2.to_ascii_uppercase();
    if key.len() != 2 {
        return None;
    }
    let n = TABLE.len() / 5;
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let entry = &TABLE[mid * 5..mid * 5 + 5];
        match entry[..2].cmp(key.as_str()) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Some(&entry[2..]),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_codes() {
        assert_eq!(TABLE.len(), 249 * 5);
        assert_eq!(alpha3("SY"), Some("SYR"));
        assert_eq!(alpha3("fr"), Some("FRA"));
        assert_eq!(alpha3("AD"), Some("AND"));
        assert_eq!(alpha3("ZW"), Some("ZWE"));
        assert_eq!(alpha3("GB"), Some("GBR"));
        assert_eq!(alpha3("XX"), None);
        assert_eq!(alpha3("SYR"), None);
        assert_eq!(alpha3("é"), None);
    }
}
