//! Name folding and transliteration keys: the forms names are compared in.

use unicode_normalization::UnicodeNormalization;

/// Case- and accent-folded form of a name: NFKD, combining marks dropped,
/// lower case, apostrophe-like marks removed, other punctuation as one space.
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut pending_space = false;
    for c in name.nfkd() {
        if unicode_normalization::char::is_combining_mark(c) || is_apostrophe(c) {
            continue;
        }
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else {
            pending_space = true;
        }
    }
    out
}

/// Transliteration key: a coarser form under which spelling variants of one
/// transliterated name meet (`Haresta` and `Ḩarastā`).
pub fn translit_key(name: &str) -> String {
    fold(name).replace(' ', "")
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '`' | '\u{2018}' | '\u{2019}' | '\u{02bb}' | '\u{02bc}' | '\u{02be}' | '\u{02bf}' | '\u{00b4}')
}
