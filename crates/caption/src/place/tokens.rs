//! The place finder's tokens: words and punctuation with byte spans, one
//! sentence at a time.

use super::lexicon::division_abbreviation;
use crate::span::Span;
use crate::swar;
use crate::text::char_at;

/// A word or a punctuation mark.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Token {
    pub(super) span: Span,
    pub(super) kind: TokenKind,
    /// A word with an inner hyphen (`al-Bab`): known from tokenizing, so
    /// the phrase scan asks no substring search of every word.
    pub(super) hyphenated: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TokenKind {
    /// Letters or digits, with inner `'`, `’`, `-`, `.` (`Ma'arrat`, `al-Bab`, `U.S.`).
    Word,
    /// Any other non-space character.
    Punct(char),
}

impl Token {
    pub(super) fn text<'t>(&self, text: &'t str) -> &'t str {
        self.span.of(text)
    }

    pub(super) fn is_word(&self) -> bool {
        self.kind == TokenKind::Word
    }

    pub(super) fn is_punct(&self, c: char) -> bool {
        self.kind == TokenKind::Punct(c)
    }
}

pub(super) fn tokenize(text: &str, within: Span) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(within.len() / 4 + 4);
    tokenize_into(text, within, false, &mut tokens);
    tokens
}

/// Appends the tokens of `within` to `tokens`; with `one_sentence`, stops
/// at the first sentence end (`.`, `?`, `!`, `;`), which is not appended.
/// Returns the byte offset where tokenizing stopped (past that sentence
/// end, or `within.end`). A token never looks behind its start, so going
/// on from there gives what one pass over `within` would.
pub(super) fn tokenize_into(
    text: &str,
    within: Span,
    one_sentence: bool,
    tokens: &mut Vec<Token>,
) -> usize {
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
pub(super) fn is_abbreviation(word_with_period: &str) -> bool {
    let bare = word_with_period.trim_end_matches('.');
    // Dotted initials: U.S., U.N., N.Y.
    if bare.contains('.') && bare.split('.').all(|part| part.chars().count() == 1) {
        return true;
    }
    division_abbreviation(word_with_period).is_some()
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
pub(super) fn is_sentence_end(c: char) -> bool {
    matches!(c, '.' | '?' | '!' | ';')
}
