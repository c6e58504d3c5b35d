//! Name phrases shared by person and organization extraction: the word
//! tokens of a description, their shapes and lexicon classes, well-known
//! names, and which tokens belong to a credit-like run.
//!
//! Tokens are byte spans into the caption text; nothing here allocates per
//! word except the lowercase form of a rare non-ASCII word.

mod known;
mod lexicon;

pub(crate) use known::{KnownKind, KnownMatch};
pub(crate) use lexicon::{
    number_word, Class, COMMON, COUNTRY, DEMONYM, EVENT, FUNCTION, KIN, MONTH, OF_PLACE, ORG_HEAD,
    ORG_NOUN, ORG_PREFIX, PARTICLE, PERSON_ADJ, PLACE, PLACE_APPOSITIVE, PLACE_PREFIX, PLACE_PREP,
    PRONOUN, ROLE, SAY, STORM, TITLE, TITLE_MOD, WEEKDAY,
};

use crate::span::Span;
use crate::swar;
use crate::text::char_at;
use crate::word_table;

/// The written shape of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A capitalized word that can be part of a name: `Bashar`, `Al-Shamiyah`,
    /// `O'Reilly`, `al-Assad` (a lowercase particle joined to a capital), `I`.
    Cap,
    /// Two or more letters, all capitals: `UNICEF`, `U.N.`, `ALEPPO`.
    Upper,
    /// A lowercase word.
    Lower,
    /// A capitalized compound that is not a name: `US-backed`, `Three-year-old`, `Su-25`.
    Compound,
    /// A word that begins with a digit: `2016`, `9-year-old`, `5,700`.
    Number,
    /// One punctuation character.
    Punct,
}

/// One token of the description.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    /// Where the token stands in the caption text (possessive included).
    pub span: Span,
    /// Its written shape.
    pub shape: Shape,
    /// Lexicon classes of its lowercase form, possessive and period dropped.
    pub class: Class,
    /// Ends in `'s`, `’s` or `s'`.
    pub possessive: bool,
    /// Part of a credit-like run (`REUTERS/Name`, `(Photo by …)`): a
    /// photographer or an agency, never a mention.
    pub masked: bool,
    /// First token of a sentence (or of the caption, or after a dateline).
    pub sentence_start: bool,
    /// The character of a punctuation token, `'\0'` for words.
    pub punct: char,
    /// Kinds of the well-known names this token is part of.
    pub known: Known,
    /// A word with a character inside that is neither a letter nor a digit
    /// (`al-Assad`, `U.N.`), after which a well-known name may start.
    joined: bool,
}

/// Which well-known names cover a token.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Known {
    /// Part of a well-known organization or agency.
    pub org: bool,
    /// Part of a well-known multi-word place.
    pub place: bool,
}

impl Token {
    /// Whether the token belongs to any of `class`.
    pub(crate) fn has(&self, class: Class) -> bool {
        self.class & class != 0
    }

    /// Whether the token is the punctuation `c`.
    pub(crate) fn is(&self, c: char) -> bool {
        self.shape == Shape::Punct && self.punct == c
    }

    /// Whether the token is a word (not punctuation).
    pub(crate) fn is_word(&self) -> bool {
        self.shape != Shape::Punct
    }

    /// Whether the token is a capitalized name word outside any credit run.
    pub(crate) fn is_cap(&self) -> bool {
        self.shape == Shape::Cap && !self.masked
    }
}

/// The tokens of a caption's description, with the well-known names in it.
pub(crate) struct Words<'t> {
    /// The whole caption text; spans point into it.
    pub text: &'t str,
    /// The tokens of the description, in order.
    pub tokens: Vec<Token>,
    /// Well-known names in the description that are not inside a credit run.
    pub known: Vec<KnownMatch>,
}

impl<'t> Words<'t> {
    /// Tokenizes `description` (a span of `text`) and marks credit-like runs.
    // Out of line: it runs once per caption, and profiles then show its cost.
    #[inline(never)]
    pub(crate) fn new(text: &'t str, description: Span) -> Words<'t> {
        // A span off the char boundaries (never made by the crate itself)
        // shrinks to the whole characters it covers.
        let mut start = description.start.min(text.len());
        while !text.is_char_boundary(start) {
            start += 1;
        }
        let mut end = description.end.clamp(start, text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let end = end.max(start);
        let mut tokens = tokenize(text, start, end);
        mark_sentence_starts(text, &mut tokens);
        mask_credit_runs(text, &mut tokens);
        let mut known = known::find_known(text, &tokens, Span::new(start, end));
        known.retain(|m| !covering(&tokens, m.start, m.end).any(|t| t.masked));
        for m in &known {
            let first = tokens.partition_point(|t| t.span.end <= m.start);
            for token in tokens[first..]
                .iter_mut()
                .take_while(|t| t.span.start < m.end)
            {
                match m.kind {
                    KnownKind::Place => token.known.place = true,
                    KnownKind::Org { .. } | KnownKind::Agency => token.known.org = true,
                }
            }
        }
        Words {
            text,
            tokens,
            known,
        }
    }

    /// The text of token `i`, possessive ending included; `""` out of range.
    pub(crate) fn word(&self, i: usize) -> &'t str {
        self.tokens.get(i).map_or("", |t| t.span.of(self.text))
    }

    /// The text of token `i` without its possessive ending.
    pub(crate) fn base(&self, i: usize) -> &'t str {
        let word = self.word(i);
        match self.tokens.get(i) {
            Some(t) if t.possessive => strip_possessive(word),
            _ => word,
        }
    }

    /// Token `i`, if there is one.
    pub(crate) fn get(&self, i: usize) -> Option<&Token> {
        self.tokens.get(i)
    }

    /// Whether token `i` is the lowercase word `word`.
    pub(crate) fn is_word(&self, i: usize, word: &str) -> bool {
        self.tokens.get(i).is_some_and(|t| t.is_word()) && self.word(i).eq_ignore_ascii_case(word)
    }

    /// The text from the start of token `first` to the end of token `last`.
    pub(crate) fn phrase(&self, first: usize, last: usize) -> &'t str {
        match (self.tokens.get(first), self.tokens.get(last)) {
            (Some(a), Some(b)) if a.span.start <= b.span.end => {
                let end = if b.possessive {
                    b.span.end - possessive_len(b.span.of(self.text))
                } else {
                    b.span.end
                };
                self.text.get(a.span.start..end).unwrap_or("")
            }
            _ => "",
        }
    }

    /// The byte span from the start of token `first` to the end of token
    /// `last`, without a possessive ending.
    pub(crate) fn phrase_span(&self, first: usize, last: usize) -> Span {
        match (self.tokens.get(first), self.tokens.get(last)) {
            (Some(a), Some(b)) => {
                let end = if b.possessive {
                    b.span.end - possessive_len(b.span.of(self.text))
                } else {
                    b.span.end
                };
                Span::new(a.span.start, end.max(a.span.start))
            }
            _ => Span::default(),
        }
    }
}

/// The tokens that overlap `[start, end)`.
fn covering(tokens: &[Token], start: usize, end: usize) -> impl Iterator<Item = &Token> {
    let first = tokens.partition_point(|t| t.span.end <= start);
    tokens[first..]
        .iter()
        .take_while(move |t| t.span.start < end)
}

/// Drops a possessive ending: `Syria's` → `Syria`, `Workers'` → `Workers`.
pub(crate) fn strip_possessive(word: &str) -> &str {
    &word[..word.len() - possessive_len(word)]
}

/// Byte length of a word's possessive ending, 0 when it has none.
fn possessive_len(word: &str) -> usize {
    // Every ending ends in `s`, `S`, `'` or the last byte of `’`.
    if !matches!(word.as_bytes().last(), Some(b's' | b'S' | b'\'' | 0x99)) {
        return 0;
    }
    for ending in ["'s", "’s", "'S", "’S"] {
        if word.len() > ending.len() && word.ends_with(ending) {
            return ending.len();
        }
    }
    if word.len() > 2 && (word.ends_with("s'") || word.ends_with("s’")) {
        return word.chars().next_back().map_or(0, char::len_utf8);
    }
    0
}

/// Whether `c` joins letters inside a word: hyphens and apostrophes.
fn is_joiner(c: char) -> bool {
    matches!(c, '-' | '\'' | '’' | '‘' | 'ʼ' | 'ʻ' | '`')
}

/// What the tokenizer does with a byte before decoding anything.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ByteKind {
    /// ASCII whitespace: skipped.
    Space,
    /// An ASCII letter or digit: a word starts.
    Alnum,
    /// Any other ASCII character: a punctuation token.
    Punct,
    /// The first byte of a character that must be decoded.
    Other,
}

/// The [`ByteKind`] of every byte.
const BYTE_KINDS: [ByteKind; 256] = {
    let mut kinds = [ByteKind::Other; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8 as char;
        kinds[b] = if c.is_ascii_alphanumeric() {
            ByteKind::Alnum
        } else if c.is_whitespace() {
            ByteKind::Space
        } else {
            ByteKind::Punct
        };
        b += 1;
    }
    kinds
};

/// A word token as read: where it ends and what it is.
struct WordScan {
    end: usize,
    shape: Shape,
    class: Class,
    possessive: bool,
    /// Holds a character that is neither a letter nor a digit.
    joined: bool,
}

/// Splits `text[start..end]` into tokens.
#[inline(never)]
fn tokenize(text: &str, start: usize, end: usize) -> Vec<Token> {
    let slice = &text[start..end];
    let bytes = slice.as_bytes();
    let mut tokens = Vec::with_capacity(slice.len() / 5 + 4);
    let mut i = 0;
    while i < bytes.len() {
        // A space is most often next: skip it before the table.
        if bytes[i] == b' ' {
            i += 1;
            continue;
        }
        let punct = match BYTE_KINDS[usize::from(bytes[i])] {
            ByteKind::Space => {
                i += 1;
                continue;
            }
            ByteKind::Punct => char::from(bytes[i]),
            ByteKind::Alnum => {
                i = push_word(&mut tokens, slice, start, i);
                continue;
            }
            ByteKind::Other => {
                let Some(c) = char_at(slice, i) else {
                    break;
                };
                if c.is_whitespace() {
                    i += c.len_utf8();
                    continue;
                }
                if c.is_alphanumeric() {
                    i = push_word(&mut tokens, slice, start, i);
                    continue;
                }
                c
            }
        };
        tokens.push(Token {
            span: Span::new(start + i, start + i + punct.len_utf8()),
            shape: Shape::Punct,
            class: 0,
            possessive: false,
            masked: false,
            sentence_start: false,
            punct,
            known: Known::default(),
            joined: false,
        });
        i += punct.len_utf8();
    }
    tokens
}

/// Pushes the word that starts at byte `i` of `slice` (at `offset` in the
/// caption text) and returns where it ends.
fn push_word(tokens: &mut Vec<Token>, slice: &str, offset: usize, i: usize) -> usize {
    let word = plain_word(slice.as_bytes(), i).unwrap_or_else(|| any_word(slice, i));
    tokens.push(Token {
        span: Span::new(offset + i, offset + word.end),
        shape: word.shape,
        class: word.class,
        possessive: word.possessive,
        masked: false,
        sentence_start: false,
        punct: '\0',
        known: Known::default(),
        joined: word.joined,
    });
    word.end
}

/// The common word, read without decoding: a run of ASCII letters and
/// digits that nothing after it extends (no joiner before a letter, no dot
/// after a single letter, no separator between digits). `None` leaves any
/// other word to [`any_word`], which gives the same answer for these.
#[inline]
fn plain_word(bytes: &[u8], i: usize) -> Option<WordScan> {
    // Most words fit in eight bytes: one load finds their end and key.
    let eight = swar::eight_at(bytes, i);
    let mut len = swar::leading_flagged(swar::ascii_alnum(eight));
    if len == 0 {
        // A letter or digit outside ASCII.
        return None;
    }
    if len == 8 {
        len += swar::ascii_alnum_run(bytes, i + len);
    }
    let end = i + len;
    let last = bytes[end - 1];
    let digit_after = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_digit);
    let mut period_after = false;
    match bytes.get(end) {
        None => {}
        // `2.8`, `5,700`: separators inside a number.
        Some(b'.' | b',') if last.is_ascii_digit() && digit_after(end + 1) => return None,
        // `U.N`, `W.`: a single letter may take dots.
        Some(b'.') if len == 1 && !last.is_ascii_digit() => return None,
        Some(b'.') => period_after = true,
        // `al-Assad`, `Syria's`: a joiner before a letter or digit.
        Some(b'-' | b'\'' | b'`')
            if bytes
                .get(end + 1)
                .is_some_and(|&b| !b.is_ascii() || b.is_ascii_alphanumeric()) =>
        {
            return None
        }
        // Another letter, a typographic apostrophe, or a space to decode.
        Some(&b) if !b.is_ascii() => return None,
        Some(_) => {}
    }
    let word = &bytes[i..end];
    // The short word's own bytes, zero-padded: its key once lowercased.
    let short = (len < 8).then(|| eight & swar::low_bytes(len));
    let first = bytes[i];
    let shape = if first.is_ascii_digit() {
        Shape::Number
    } else if !first.is_ascii_uppercase() {
        Shape::Lower
    } else {
        let (any_lowercase, any_digit) = match short {
            Some(run) => (
                swar::in_ascii_range(run, b'a', b'z') != 0,
                swar::in_ascii_range(run, b'0', b'9') != 0,
            ),
            None => (
                word.iter().any(u8::is_ascii_lowercase),
                word.iter().any(u8::is_ascii_digit),
            ),
        };
        if any_digit {
            Shape::Compound
        } else if len >= 2 && !any_lowercase {
            Shape::Upper
        } else {
            Shape::Cap
        }
    };
    let key = match short {
        Some(run) => Some([swar::ascii_lowercase(run), 0, 0]),
        None => word_table::key(word),
    };
    let (class, abbreviation) = match (shape, key) {
        (Shape::Number, _) | (_, None) => (0, false),
        (_, Some(key)) => lexicon::classes_and_abbreviation(&key),
    };
    // `Gen.`, `Sept.`: a capitalized abbreviation keeps its period.
    let takes_period = period_after && first.is_ascii_uppercase() && abbreviation;
    Some(WordScan {
        end: end + usize::from(takes_period),
        shape,
        class,
        possessive: false,
        joined: false,
    })
}

/// Any word, decoded character by character: joiners, dots, possessives,
/// compounds and letters outside ASCII.
fn any_word(slice: &str, i: usize) -> WordScan {
    let bytes = slice.as_bytes();
    let word_end = scan_word(slice, i);
    let mut end_of_word = word_end;
    // A period belongs to the word for dotted abbreviations (`U.N.`),
    // initials (`W.`) and capitalized abbreviations (`Gen.`, `Sept.`, `Fla.`).
    if bytes.get(end_of_word) == Some(&b'.') {
        let word = &slice[i..end_of_word];
        let first_upper = word.chars().next().is_some_and(char::is_uppercase);
        let dotted =
            has_byte(word, b'.') && !word.chars().next().is_some_and(|c| c.is_ascii_digit());
        let initial = word.chars().count() == 1 && first_upper;
        if dotted || initial || (first_upper && with_lowercase(word, lexicon::is_abbreviation)) {
            end_of_word += 1;
        }
    }
    let word = &slice[i..end_of_word];
    let possessive_bytes = possessive_len(word);
    let bare = &word[..word.len() - possessive_bytes];
    let shape = shape_of(bare);
    let mut class = classes_of(bare.trim_end_matches('.'));
    // `Director-General`, `Vice-President`: a compound of title words.
    if class == 0 && shape == Shape::Cap && has_byte(bare, b'-') {
        let parts = bare.split('-').map(classes_of);
        if parts.clone().all(|c| c & (TITLE | TITLE_MOD) != 0) {
            class = if parts.clone().any(|c| c & TITLE != 0) {
                TITLE
            } else {
                TITLE_MOD
            };
        }
    }
    if shape == Shape::Number {
        class = 0;
    }
    WordScan {
        end: end_of_word,
        shape,
        class,
        possessive: possessive_bytes > 0,
        joined: !word.chars().all(char::is_alphanumeric),
    }
}

/// The end of the word that starts at byte `i` of `s`: letters and digits,
/// joined by inner hyphens and apostrophes, dots between single letters
/// (`U.N`), and separators inside numbers (`2.8`, `5,700`).
fn scan_word(s: &str, i: usize) -> usize {
    let mut end = i;
    let mut at = i;
    let mut prev: Option<char> = None;
    let mut letters_in_part = 0usize;
    while let Some(c) = char_at(s, at) {
        if c.is_ascii_alphanumeric() {
            // A run of ASCII letters and digits, the bulk of any word.
            let run = swar::ascii_alnum_run(s.as_bytes(), at);
            at += run;
            end = at;
            letters_in_part += run;
            prev = Some(char::from(s.as_bytes()[at - 1]));
            continue;
        }
        let after_c = at + c.len_utf8();
        let next = char_at(s, after_c);
        if c.is_alphanumeric() {
            end = after_c;
            letters_in_part += 1;
        } else if is_joiner(c)
            && prev.is_some_and(char::is_alphanumeric)
            && next.is_some_and(char::is_alphanumeric)
        {
            letters_in_part = 0;
        } else if c == '.'
            && prev.is_some_and(char::is_alphabetic)
            && letters_in_part == 1
            && next.is_some_and(|n| {
                n.is_alphabetic()
                    && char_at(s, after_c + n.len_utf8()).is_none_or(|after| !after.is_alphabetic())
            })
        {
            // `U.N`, `U.S`, `J.K`: single letters separated by dots.
            letters_in_part = 0;
        } else if (c == '.' || c == ',')
            && prev.is_some_and(|p| p.is_ascii_digit())
            && next.is_some_and(|n| n.is_ascii_digit())
        {
            letters_in_part = 0;
        } else {
            break;
        }
        prev = Some(c);
        at = after_c;
    }
    end.max(i + char_at(s, i).map_or(1, char::len_utf8))
}

/// Whether `word` holds the ASCII byte `b`: a plain loop, which beats
/// `memchr` on words this short.
fn has_byte(word: &str, b: u8) -> bool {
    word.bytes().any(|x| x == b)
}

/// The shape of a word (possessive already dropped).
fn shape_of(word: &str) -> Shape {
    if let Some(shape) = ascii_shape_without_hyphen(word) {
        return shape;
    }
    let Some(first) = word.chars().next() else {
        return Shape::Punct;
    };
    if first.is_numeric() {
        return Shape::Number;
    }
    let starts_upper = |part: &str| part.chars().next().is_some_and(char::is_uppercase);
    if first.is_uppercase() {
        // `A320`, `F-16`, `G7`: models and codes, not names.
        if word.bytes().any(|b| b.is_ascii_digit()) {
            return Shape::Compound;
        }
        let letters = word.chars().filter(|c| c.is_alphabetic()).count();
        if letters >= 2 && word.chars().all(|c| !c.is_lowercase()) {
            return Shape::Upper;
        }
        if !has_byte(word, b'-') {
            return Shape::Cap;
        }
        // Every hyphenated part of a name is capitalized or a particle
        // (`Al-Shamiyah`, `Abu-Bakr`, `Turkey-Syria`); `US-backed` is not.
        let name_like = word
            .split('-')
            .skip(1)
            .all(|part| starts_upper(part) || is_particle(part));
        return if name_like {
            Shape::Cap
        } else {
            Shape::Compound
        };
    }
    if !has_byte(word, b'-') {
        return Shape::Lower;
    }
    // `al-Assad`, `el-Zour`: a particle joined to a capitalized name.
    let mut parts = word.split('-');
    let particle_led = parts.next().is_some_and(is_particle)
        && has_byte(word, b'-')
        && parts.all(|p| starts_upper(p) || is_particle(p));
    if particle_led && word.rsplit('-').next().is_some_and(starts_upper) {
        Shape::Cap
    } else {
        Shape::Lower
    }
}

/// [`shape_of`] in one pass over the bytes for the common case, an ASCII
/// word without a hyphen; `None` for any other word.
fn ascii_shape_without_hyphen(word: &str) -> Option<Shape> {
    let bytes = word.as_bytes();
    let first = *bytes.first()?;
    if !word.is_ascii() || has_byte(word, b'-') {
        return None;
    }
    if first.is_ascii_digit() {
        return Some(Shape::Number);
    }
    if !first.is_ascii_uppercase() {
        return Some(Shape::Lower);
    }
    let mut letters = 0;
    let mut lowercase = false;
    for &b in bytes {
        if b.is_ascii_digit() {
            return Some(Shape::Compound);
        }
        letters += usize::from(b.is_ascii_alphabetic());
        lowercase |= b.is_ascii_lowercase();
    }
    Some(if letters >= 2 && !lowercase {
        Shape::Upper
    } else {
        Shape::Cap
    })
}

/// Whether a word is a name particle (`al`, `bin`, `de`).
fn is_particle(word: &str) -> bool {
    classes_of(word) & PARTICLE != 0
}

/// Runs `f` on the bytes of `word` with non-ASCII letters lowercased (the
/// lexicon folds ASCII case itself).
fn with_lowercase<R>(word: &str, f: impl FnOnce(&[u8]) -> R) -> R {
    if word.is_ascii() {
        f(word.as_bytes())
    } else {
        f(word.to_lowercase().as_bytes())
    }
}

/// The lexicon classes of a word in any case.
pub(crate) fn classes_of(word: &str) -> Class {
    with_lowercase(word, lexicon::classes)
}

/// Marks the first token of every sentence: after `.`, `!`, `?`, `:`, a
/// dash or bracket that closes a dateline or a `FILE -` tag.
#[inline(never)]
fn mark_sentence_starts(text: &str, tokens: &mut [Token]) {
    let mut start = true;
    for token in tokens.iter_mut() {
        if token.shape == Shape::Punct {
            if matches!(
                token.punct,
                '.' | '!' | '?' | ':' | ';' | '-' | '–' | '—' | ')' | ']'
            ) {
                start = true;
            }
            continue;
        }
        token.sentence_start = start;
        // A dateline or tag in capitals (`ALEPPO, SYRIA -`, `FILE -`) does not
        // start the sentence; the word after its dash does.
        start = start && token.shape == Shape::Upper && !has_byte(token.span.of(text), b'.');
    }
}

/// Marks tokens of credit-like runs: bracketed groups holding a `/`, `via`
/// or `Photo`, words touching a `/`, the name after `Photo by`/`Photo:`, and
/// a trailing `Name, AGENCY` line. The credit scanner normally cuts these
/// off already; this keeps photographers out of the persons when it cannot.
#[inline(never)]
fn mask_credit_runs(text: &str, tokens: &mut [Token]) {
    const RUN_WORDS: usize = 8;
    let n = tokens.len();
    let is_credit_word = |t: &Token, word: &str| {
        word.eq_ignore_ascii_case("photo")
            || word.eq_ignore_ascii_case("via")
            || word.eq_ignore_ascii_case("credit")
            || t.is('/')
    };
    let (Some(first), Some(last)) = (tokens.first(), tokens.last()) else {
        return;
    };
    // Brackets and slashes are rare in a description: one vectorized search
    // each tells whether their token passes can find anything.
    let covered = &text.as_bytes()[first.span.start..last.span.end];
    let brackets = memchr::memchr2(b'(', b'[', covered).is_some();
    let slashes = memchr::memchr(b'/', covered).is_some();
    // `photo` in any case anywhere, inside longer words too: without it and
    // without a slash, no run starts.
    let photo = memchr::memchr2_iter(b'p', b'P', covered).any(|at| {
        covered
            .get(at + 1..at + 5)
            .is_some_and(|rest| rest.eq_ignore_ascii_case(b"hoto"))
    });
    // Bracketed groups.
    let mut i = 0;
    while brackets && i < n {
        if tokens[i].is('(') || tokens[i].is('[') {
            let close = if tokens[i].is('(') { ')' } else { ']' };
            let end = (i + 1..n.min(i + 40))
                .find(|&j| tokens[j].is(close) || tokens[j].is('(') || tokens[j].is('['));
            if let Some(end) = end.filter(|&j| tokens[j].is(close)) {
                let credit =
                    (i + 1..end).any(|j| is_credit_word(&tokens[j], tokens[j].span.of(text)));
                if credit {
                    for t in &mut tokens[i..=end] {
                        t.masked = true;
                    }
                }
                i = end + 1;
                continue;
            }
        }
        i += 1;
    }
    // Words touching a slash, and the run after `Photo by` / `Photo:`.
    // Brackets stay inside a run: `Leader/WANA (West Asia News Agency)/Handout`.
    // A lowercase word ends a run unless it joins credit parts (`Save the
    // Children`, `Handout via REUTERS`, `Jawad al Rifai`): `the Israel/Gaza
    // border` masks two words, not the sentence before them.
    const RUN_JOINERS: &[&str] = &["via", "the", "of", "and", "for"];
    let stops = |t: &Token| match t.shape {
        Shape::Punct => !matches!(t.punct, '/' | '-' | '\'' | '’' | '(' | ')'),
        Shape::Lower => {
            !t.has(PARTICLE)
                && !RUN_JOINERS
                    .iter()
                    .any(|w| t.span.of(text).eq_ignore_ascii_case(w))
        }
        _ => false,
    };
    // Most tokens are not `photo`: their length says so before their text
    // is looked at.
    let is_photo = |t: &Token| t.span.len() == 5 && t.span.of(text).eq_ignore_ascii_case("photo");
    let starts = if slashes || photo { 0..n } else { 0..0 };
    for i in starts {
        let after_photo = is_photo(&tokens[i])
            && tokens
                .get(i + 1)
                .is_some_and(|t| t.is(':') || t.span.of(text).eq_ignore_ascii_case("by"));
        // A slash between numbers (`24/7`) or lowercase words (`and/or`) is no credit.
        let slash = slashes
            && tokens[i].is('/')
            && [i.checked_sub(1), Some(i + 1)]
                .into_iter()
                .flatten()
                .any(|j| {
                    tokens.get(j).is_some_and(|t| {
                        matches!(t.shape, Shape::Cap | Shape::Upper | Shape::Punct)
                    })
                });
        if slash || after_photo {
            tokens[i].masked = true;
            let mut words = 0;
            for t in tokens[i + 1..].iter_mut() {
                if stops(t) || words >= RUN_WORDS {
                    break;
                }
                words += usize::from(t.is_word());
                t.masked = true;
            }
        }
        if slash {
            let mut words = 0;
            for t in tokens[..i].iter_mut().rev() {
                if stops(t) || words >= RUN_WORDS {
                    break;
                }
                words += usize::from(t.is_word());
                t.masked = true;
            }
        }
    }
    // A trailing `Name Surname, AGENCY` (a credit on its own last line).
    if n >= 3 {
        let last = &tokens[n - 1];
        let agency_last =
            last.is_word() && known::kind_of(last.span.of(text)) == Some(KnownKind::Agency);
        if agency_last && tokens[n - 2].is(',') {
            tokens[n - 1].masked = true;
            for t in tokens[..n - 2].iter_mut().rev() {
                if t.shape != Shape::Cap {
                    break;
                }
                t.masked = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Words<'_> {
        Words::new(text, Span::new(0, text.len()))
    }

    fn texts(text: &str) -> Vec<&str> {
        let w = words(text);
        (0..w.tokens.len()).map(|i| w.word(i)).collect()
    }

    #[test]
    fn tokens_keep_particles_abbreviations_and_possessives() {
        assert_eq!(
            texts("Gen. Omar al-Hadi's U.N. team, Sept. 3, 2.8 million in Idlib."),
            [
                "Gen.",
                "Omar",
                "al-Hadi's",
                "U.N.",
                "team",
                ",",
                "Sept.",
                "3",
                ",",
                "2.8",
                "million",
                "in",
                "Idlib",
                "."
            ]
        );
    }

    #[test]
    fn shapes_tell_names_from_compounds() {
        assert_eq!(shape_of("Bashar"), Shape::Cap);
        assert_eq!(shape_of("al-Assad"), Shape::Cap);
        assert_eq!(shape_of("Al-Shamiyah"), Shape::Cap);
        assert_eq!(shape_of("O'Reilly"), Shape::Cap);
        assert_eq!(shape_of("US-backed"), Shape::Compound);
        assert_eq!(shape_of("Three-year-old"), Shape::Compound);
        assert_eq!(shape_of("UNICEF"), Shape::Upper);
        assert_eq!(shape_of("U.N."), Shape::Upper);
        assert_eq!(shape_of("rebel-held"), Shape::Lower);
        assert_eq!(shape_of("9-year-old"), Shape::Number);
    }

    #[test]
    fn the_ascii_shape_agrees_with_the_general_one() {
        for word in [
            "Bashar", "UNICEF", "U.N.", "A320", "G7", "I", "A", "bashar", "2016", "9th", "Ab1",
            "McDonald", "O'Reilly", "D'", "X.", "ABC's",
        ] {
            let fast = ascii_shape_without_hyphen(word);
            let general = {
                let Some(first) = word.chars().next() else {
                    unreachable!()
                };
                if first.is_numeric() {
                    Shape::Number
                } else if first.is_uppercase() {
                    if word.bytes().any(|b| b.is_ascii_digit()) {
                        Shape::Compound
                    } else if word.chars().filter(|c| c.is_alphabetic()).count() >= 2
                        && word.chars().all(|c| !c.is_lowercase())
                    {
                        Shape::Upper
                    } else {
                        Shape::Cap
                    }
                } else {
                    Shape::Lower
                }
            };
            assert_eq!(fast, Some(general), "{word}");
        }
    }

    #[test]
    fn credit_runs_are_masked() {
        let text = "Kamal Idris waves. REUTERS/Lina Haddad";
        let w = words(text);
        let masked: Vec<&str> = (0..w.tokens.len())
            .filter(|&i| w.tokens[i].masked)
            .map(|i| w.word(i))
            .collect();
        assert_eq!(masked, ["REUTERS", "/", "Lina", "Haddad"]);
        let text = "Boys play football. (Photo by Tarek Nour/Getty Images)";
        let w = words(text);
        assert!(w
            .tokens
            .iter()
            .filter(|t| t.is_word())
            .skip(3)
            .all(|t| t.masked));
    }

    #[test]
    fn slashes_in_the_description_mask_only_their_names() {
        let text = "Omar Saleh walks along the Israel/Gaza border fence.";
        let w = words(text);
        let masked: Vec<&str> = (0..w.tokens.len())
            .filter(|&i| w.tokens[i].masked)
            .map(|i| w.word(i))
            .collect();
        assert!(masked.contains(&"Israel") && masked.contains(&"Gaza"));
        assert!(!masked.contains(&"Omar") && !masked.contains(&"along"));
    }

    #[test]
    fn sentence_starts_skip_datelines() {
        let text = "HOMS, SYRIA - MAY 2: Volunteers help. Karim waits.";
        let w = words(text);
        let starts: Vec<&str> = (0..w.tokens.len())
            .filter(|&i| w.tokens[i].sentence_start)
            .map(|i| w.word(i))
            .collect();
        assert!(starts.contains(&"Volunteers") && starts.contains(&"Karim"));
        assert!(!starts.contains(&"help") && !starts.contains(&"waits"));
    }

    #[test]
    fn any_text_tokenizes_without_panicking() {
        for text in [
            "",
            "'",
            "-a",
            "a-",
            "A.",
            ".A.B",
            "’s",
            "5,",
            "É'",
            "x\u{301}-Y",
            "S'",
            "U.N",
        ] {
            let w = words(text);
            for i in 0..w.tokens.len() {
                let _ = (w.word(i), w.base(i), w.phrase(i, i));
            }
        }
    }
}
