//! The credit line: where it stands, and who and what it credits.
//!
//! A credit mostly stands at the end of the caption (a credit that stood on
//! its own line is, after whitespace normalization, the tail after a space).
//! It is found in three ways, tried in this order:
//! - a bracketed group that closes the caption, `(Photo by Jane Doe/AFP)`,
//!   `[Jane Doe/AP Photo]`, `(AP Photo, File)`, merged with a bracketed
//!   credit just before it (`(Photo by X / AFP) (Photo by X/AFP via Getty
//!   Images)`);
//! - a bare tail that starts at a sentence end, at an anchor word
//!   (`REUTERS/...`, `AFP PHOTO / ...`, `Photo: ...`, `/ ...`) or at an
//!   anchor glued to the sentence (`...State.REUTERS/Jane Doe`) and runs to
//!   the end; of the tails that parse as a credit the longest wins, so the
//!   initial in `Jane Q. Doe/AP` does not cut the name;
//! - when neither closes the caption, a credit with a lead-in (`Photo:`,
//!   `Image copyright`) that opens the caption or one of its sentences and
//!   ends at a sentence end, a spaced dash or an `Image caption` label.
//!
//! The first two read only the last [`MAX_CREDIT_BYTES`]; the third reads
//! that much after each sentence start.
//!
//! What counts as a credit is decided in [`body`]: the words must all be
//! agencies, role words, names or organisations, and they must name an agency,
//! follow a lead-in (`Photo by`), or pair a name with a second party across a
//! slash (`Jane Doe/Save the Children`). So `24/7` and `and/or` are prose.
//! Reuters trailers (`TPX IMAGES OF THE DAY`, `(SYRIA - Tags: ...)`,
//! `ATTENTION EDITORS ...`) after the credit are inside its span but not in
//! `raw`, so the description never keeps them.
//!
//! Readings of RECORD.md decided here:
//! - `raw` is the credit as written without its outer brackets; the span
//!   covers the brackets, a leading `/` and any trailer, to the caption's end.
//! - `source` is a named organisation before an anonymous channel (`Social
//!   Media Website`), whatever their order; a leading `the` is dropped.
//! - Parts are told apart by shape: agencies by the alias table or an
//!   agency-like last word (`Images`, `Press`, `Agency`, `Photo`), kept as
//!   written when off the list; a single token off the list is an
//!   organisation (`KCNA`, `WFP`, `Kremlin` are sources), 2–5 capitalized
//!   tokens a person unless an organisation word is among them.
//! - `Courtesy of X` credits X as the source, person or not.
//! - `Jane Doe for The New York Times` credits the outlet as an agency;
//!   `Getty Images for Acme` names a client and credits Getty Images only.
//! - Role words (`Stringer`, `Staff`, `Pool`, `Handout`, `File`, `STR`,
//!   `HO`) are never people; `Handout`/`HO` set `handout`, `File` sets `file`.
//!   Channels (`Amateur Video`, `Social Media`) are generic sources.
//! - One capitalized word right before an agency's slash is a photographer
//!   known by one name (`Volkov/AP`); an acronym there stays a supplier
//!   (`KCNA/Reuters`).
//! - A credited name the description says released or provided the picture
//!   (`a photograph released by Lowtown Parks`) is the source, not a person.
//! - `NPS photo by Jane Doe`: the service is the source, the person the
//!   creator; ranks in capitals stay as written (`SSG Jane Doe`).

mod agency;
mod body;
mod name;
mod run_on;

use std::sync::LazyLock;

use crate::record::Credit;
use crate::span::Span;
use crate::word_table::WordTable;

use body::{Parsed, Setting};
pub(crate) use name::title_case;
pub(crate) use run_on::{labelled_credit_ends, opens_caption, run_on_starts};

/// How far from the end a credit may start, in bytes. The longest real
/// credits (Getty's `/ AFP PHOTO / ... (Photo credit should read ...)`) are
/// about half of this; the bound keeps the search independent of caption
/// length.
const MAX_CREDIT_BYTES: usize = 320;

/// What the credit scanner found in a caption.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CreditFound {
    /// The record's credit (with `raw` and `span` filled).
    pub credit: Credit,
    /// Where the credit stands in the text.
    pub span: Span,
    /// The credit says Handout, or credits a non-agency source.
    pub handout: bool,
    /// The credit carries the `File` role word (`(AP Photo, File)`).
    pub file: bool,
}

/// A credit found, before it becomes a [`CreditFound`].
struct Located {
    /// Where the credit and its brackets or leading slash start.
    start: usize,
    /// Where the credit and any label after it end: the caption's end for a
    /// closing credit, earlier for one that opens a sentence inside it.
    end: usize,
    /// The credit words as written.
    raw: Span,
    parsed: Parsed,
}

/// Finds the caption's credit line, if any.
pub(crate) fn find_credit(text: &str) -> Option<CreditFound> {
    let end = trim_trailing_noise(text);
    if end == 0 {
        return None;
    }
    let located = bracketed(text, end)
        .or_else(|| trailing(text, end))
        .or_else(|| inner(text))?;
    Some(found(text, located))
}

/// The credit of a caption whose words from `start` on are a credit that
/// stood after a credit label (`Image copyright Jane Doe`, the label left
/// out of the caption as chrome), when [`find_credit`] finds none: the
/// label vouched for the words, so a name alone is a credit.
pub(crate) fn find_labelled_credit(text: &str, start: usize) -> Option<CreditFound> {
    let words = text.get(start..)?;
    let parsed = body::parse(words, Setting::Labelled)?;
    let (raw_start, raw_end) = body::trim_range(words);
    Some(found(
        text,
        Located {
            start,
            end: text.len(),
            raw: Span::new(start + raw_start, start + raw_end),
            parsed,
        },
    ))
}

/// A located credit as the record holds it.
fn found(text: &str, located: Located) -> CreditFound {
    let span = Span::new(located.start, located.end);
    let mut parsed = located.parsed;
    credit_suppliers_named_in(text, span, &mut parsed);
    let source = parsed.source().map(str::to_string);
    // RECORD.md's flag table: a credited non-agency source is a handout too.
    let handout = parsed.handout || source.is_some();
    let file = parsed.file;
    let credit = Credit {
        raw: Some(located.raw.of(text).to_string()),
        creators: parsed.creators,
        agencies: parsed.agencies,
        source,
        span: Some(span),
    };
    CreditFound {
        credit,
        span,
        handout,
        file,
    }
}

/// Reads a credit stated on its own, as an image's IPTC Credit Line or a
/// page's JSON-LD `creditText` holds it (`AFP/Getty Images`, `REUTERS`): by
/// the rules of a bracketed credit in a caption. `span` is `None`: the words
/// are not in the caption text.
pub(crate) fn parse_stated(line: &str) -> Option<Credit> {
    let line = line.trim();
    let parsed = body::parse(line, Setting::Bracketed)?;
    let source = parsed.source().map(str::to_string);
    Some(Credit {
        raw: Some(line.to_string()),
        creators: parsed.creators,
        agencies: parsed.agencies,
        source,
        span: None,
    })
}

/// A word in capitals: letters, none lower case (`CORUM/AFP`, `VIA`).
fn is_shouted(word: &str) -> bool {
    // An ASCII word (most) by its bytes, without decoding chars.
    if word.is_ascii() {
        let bytes = word.as_bytes();
        return bytes.iter().any(u8::is_ascii_uppercase)
            && !bytes.iter().any(u8::is_ascii_lowercase);
    }
    is_shouted_by_chars(word)
}

/// [`is_shouted`] for any word, char by char (and its oracle).
fn is_shouted_by_chars(word: &str) -> bool {
    word.chars().any(char::is_uppercase) && !word.chars().any(char::is_lowercase)
}

/// A credit with a lead-in that opens the caption or one of its sentences
/// and ends before the caption does: at a sentence end, a spaced dash or an
/// `Image caption` label (`Photo: Jane Doe/dpa - Refugees wait ...`, `...
/// May 2. Photo: Jane Doe/dpa. Rebels took ...`, `Image copyright Jane
/// Doe/AFP Image caption Children play ...`). Looked for only when no credit
/// closes the caption, at sentence starts only, so its cost is small.
fn inner(text: &str) -> Option<Located> {
    let sentence_starts = crate::text::match_starts(text, ". ")
        .map(|dot| dot + 2)
        .filter(|&at| at < text.len() && is_sentence_start(text, at));
    std::iter::once(0).chain(sentence_starts).find_map(|start| {
        let lead = body::lead_in_len(&text[start..])?;
        let (body_end, end) = inner_end(text, start + lead)?;
        let body_text = &text[start..body_end];
        let parsed = body::parse(body_text, Setting::Trailing)?;
        let (raw_start, raw_end) = body::trim_range(body_text);
        Some(Located {
            start,
            end,
            raw: Span::new(start + raw_start, start + raw_end),
            parsed,
        })
    })
}

/// Labels that introduce the caption after a credit that precedes it
/// (BBC's `Image copyright NAME/AGENCY Image caption ...`).
const CAPTION_LABELS: [&str; 2] = [" Image caption,", " Image caption"];

/// Where a credit starting before `from` ends (its words, then the
/// separator or label after them), within [`MAX_CREDIT_BYTES`].
fn inner_end(text: &str, from: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let ceiling = (from + MAX_CREDIT_BYTES).min(text.len());
    for space in memchr::memchr_iter(b' ', &bytes[from..ceiling]).map(|at| from + at) {
        let rest = &text[space..];
        if bytes[space - 1] == b'.'
            && rest[1..].starts_with(char::is_uppercase)
            && is_sentence_start(text, space + 1)
        {
            return Some((space - 1, space));
        }
        for dash in [" -", " –", " —"] {
            if rest.starts_with(dash) && rest[dash.len()..].starts_with(' ') {
                return Some((space, space + dash.len()));
            }
        }
        if let Some(label) = CAPTION_LABELS.iter().find(|label| rest.starts_with(*label)) {
            return Some((space, space + label.len()));
        }
    }
    None
}

/// Words before a name in the description that make it the image's
/// supplier: `a photograph released by Lowtown Parks`.
const SUPPLIED_BY: [&str; 6] = [
    "released by",
    "provided by",
    "distributed by",
    "handed out by",
    "supplied by",
    "courtesy of",
];

/// A credited "person" that the description names as the image's supplier
/// is the source (`... released by Lowtown Parks. Lowtown Parks/Reuters`).
fn credit_suppliers_named_in(text: &str, credit: Span, parsed: &mut Parsed) {
    let description = [&text[..credit.start], &text[credit.end..]];
    let supplier = parsed.creators.iter().position(|creator| {
        description.iter().any(|part| {
            crate::text::match_starts(part, creator).any(|at| {
                let before = part[..at].trim_end();
                let before = before.strip_suffix(" the").unwrap_or(before);
                SUPPLIED_BY.iter().any(|verb| {
                    before
                        .len()
                        .checked_sub(verb.len())
                        .and_then(|at| before.get(at..))
                        .is_some_and(|tail| tail.eq_ignore_ascii_case(verb))
                })
            })
        })
    });
    if let Some(index) = supplier {
        parsed.creator_to_source(index);
    }
}

/// End of the caption without closing punctuation, escaped non-breaking
/// spaces, an agency label after a bracketed credit and Reuters keyword
/// tags (`(SYRIA - Tags: CONFLICT POLITICS)`), which follow the credit.
fn trim_trailing_noise(text: &str) -> usize {
    let mut end = text.len();
    loop {
        end = text[..end]
            .trim_end_matches(|c: char| c.is_whitespace() || c == '.')
            .len();
        // A non-breaking space a page left escaped (`REUTERS/Jane Doe
        // &nbsp;`) is white space.
        if let Some(kept) = ["&nbsp;", "&#160;"]
            .iter()
            .find_map(|entity| text[..end].strip_suffix(entity))
        {
            end = kept.len();
            continue;
        }
        if let Some(close) = syndication_label_start(text, end) {
            end = close;
            continue;
        }
        match matching_open(text, end) {
            Some(open) if crate::text::find_short(&text[open..end], "Tags:").is_some() => {
                end = open
            }
            _ => return end,
        }
    }
}

/// The longest agency label a syndicating site appends.
const MAX_LABEL_BYTES: usize = 40;

/// `(AP Photo/Jane Doe)ASSOCIATED PRESS`: a site that republishes wire
/// pictures appends the agency's name in capitals after the bracketed
/// credit, glued or after a space. The label restates the agency, so the
/// credit ends at the bracket; returns where the bracket closes, past it.
fn syndication_label_start(text: &str, end: usize) -> Option<usize> {
    let bytes = &text.as_bytes()[..end];
    let floor = end.saturating_sub(MAX_LABEL_BYTES + 1);
    let close = floor + memchr::memrchr(b')', &bytes[floor..])?;
    let label = text[close + 1..end].trim_start();
    let shouted = !label.is_empty() && label.split(' ').all(is_shouted);
    (shouted && agency::lookup(label).is_some()).then_some(close + 1)
}

/// Where the bracket that closes `text[..end]` opens, within
/// [`MAX_CREDIT_BYTES`].
fn matching_open(text: &str, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (open, close) = match bytes.get(end.checked_sub(1)?)? {
        b')' => (b'(', b')'),
        b']' => (b'[', b']'),
        _ => return None,
    };
    let floor = end.saturating_sub(MAX_CREDIT_BYTES);
    let mut depth = 0usize;
    for i in (floor..end).rev() {
        if bytes[i] == close {
            depth += 1;
        } else if bytes[i] == open {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// A bracketed credit closing `text[..end]`, merged with a bare credit just
/// before it when the brackets only restate it (`AFP PHOTO / JANE DOE (Photo
/// credit should read JANE DOE/AFP/Getty Images)`).
fn bracketed(text: &str, end: usize) -> Option<Located> {
    let open = matching_open(text, end)?;
    let content_span = Span::new(open + 1, end - 1);
    let content = content_span.of(text);
    let before = text[..open].trim_end().len();
    let Some(mut parsed) = body::parse(content, Setting::Bracketed) else {
        // Not a credit: perhaps a note after one (`REUTERS/Jane Doe (SYRIA)`).
        return trailing(text, before);
    };
    let (raw_start, raw_end) = body::trim_range(content);
    let mut raw = Span::new(content_span.start + raw_start, content_span.start + raw_end);
    let mut start = open;
    if restates_credit(content) {
        if let Some(first) = trailing(text, before) {
            start = first.start;
            raw = Span::new(first.raw.start, end);
            let mut merged = first.parsed;
            merged.merge(parsed);
            parsed = merged;
        }
    } else if let Some(first) = bracketed_credit_before(text, before) {
        // `(Photo by Jane Doe / AFP) (Photo by Jane Doe/AFP via Getty
        // Images)`: the same credit stated twice, each in its brackets.
        start = first.0;
        raw = Span::new(first.0, end);
        let mut merged = first.1;
        merged.merge(parsed);
        parsed = merged;
    }
    Some(Located {
        start,
        end: text.len(),
        raw,
        parsed,
    })
}

/// A bracketed credit that closes `text[..end]`: where its bracket opens,
/// and the credit.
fn bracketed_credit_before(text: &str, end: usize) -> Option<(usize, Parsed)> {
    let open = matching_open(text, end)?;
    let parsed = body::parse(&text[open + 1..end - 1], Setting::Bracketed)?;
    Some((open, parsed))
}

/// `Photo credit should read ...`: a second statement of the credit.
fn restates_credit(content: &str) -> bool {
    let lead = content.trim_start();
    ["photo credit should read", "credit should read"]
        .iter()
        .any(|marker| {
            lead.get(..marker.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(marker))
        })
}

/// Reuters trailers that follow a bare credit (`REUTERS/Jane Doe TPX IMAGES
/// OF THE DAY`); the credit words stop where one starts.
const TRAILERS: [&str; 13] = [
    "TPX",
    "IMAGES OF THE DAY",
    "SEARCH \"",
    "ATTENTION EDITORS",
    "EDITORIAL USE ONLY",
    "FOR EDITORIAL USE",
    "NO RESALES",
    "NO ARCHIVES",
    "MANDATORY CREDIT",
    "THIS IMAGE",
    "THIS PICTURE",
    "REUTERS IS UNABLE",
    "NO THIRD PARTY",
];

/// Words that may open a bare credit with no sentence end before it
/// (`... May 2, 2016 REUTERS/Jane Doe`), lower case.
const ANCHOR_WORDS: [&str; 32] = [
    "reuters",
    "afp",
    "ap",
    "epa",
    "xinhua",
    "upi",
    "dpa",
    "tass",
    "sputnik",
    "kyodo",
    "sana",
    "kcna",
    "getty",
    "anadolu",
    "bloomberg",
    "shutterstock",
    "photo",
    "photos",
    "photoby",
    "image",
    "photograph",
    "photographer",
    "picture",
    "credit",
    "courtesy",
    "mandatory",
    "copyright",
    "handout",
    "pool",
    "staff",
    "str",
    "stringer",
];

/// The longest bare credit ending at `end`.
fn trailing(text: &str, end: usize) -> Option<Located> {
    let mut floor = end.saturating_sub(MAX_CREDIT_BYTES);
    while !text.is_char_boundary(floor) {
        floor += 1;
    }
    let bytes = text.as_bytes();
    // Candidate starts, nearest first. Words are read backwards from the end;
    // the first word of prose is a barrier no credit crosses, so the search
    // stops there: the cost follows the credit's length, not the caption's.
    let mut candidates: Vec<usize> = Vec::new();
    // Anchors after a noun lead, until words that open a credit confirm them.
    let mut noun_led: Vec<usize> = Vec::new();
    let mut trailers: Vec<usize> = Vec::new();
    // Where words in capitals start right after a word in mixed case.
    let mut capitals_from: Option<usize> = None;
    // Where the last credit set off by a glued dash starts (`—JANE DOE`).
    let mut dashed_from: Option<usize> = None;
    let mut word_end = end;
    // Whether every word from here to the end is in capitals.
    let mut shouted_tail = true;
    let mut spaces = spaces_backwards(&bytes[floor..end]).map(|space| floor + space);
    loop {
        let space = spaces.next();
        // Every word start after a space is a char boundary: the space is ASCII.
        let i = space.map_or(floor, |space| space + 1);
        if i < word_end {
            // `...from Islamic State.REUTERS/Jane Doe`: a credit glued to the
            // sentence before it starts inside the word.
            let dashed = after_glued_dash(text, i, word_end);
            if dashed_from.is_none() {
                dashed_from = dashed;
            }
            if let Some(glued) = glued_sentence_end(text, i, word_end, end)
                .or_else(|| glued_lead_in(text, i, word_end, end))
                .or_else(|| glued_after_year(text, i, word_end))
                .or(dashed)
            {
                candidates.push(glued);
            }
            if is_prose(&text[i..word_end]) {
                break;
            }
            let rest = &text[i..end];
            // Trailers are in capitals and anchors capitalized; checking the
            // first bytes first keeps this cheap.
            let shouting = bytes[i].is_ascii_uppercase()
                && bytes.get(i + 1).is_some_and(|b| !b.is_ascii_lowercase());
            if shouting && TRAILERS.iter().any(|t| rest.starts_with(t)) {
                trailers.push(i);
            }
            let opens_text = i == 0;
            let after_space = space.is_some();
            // `...in Trafalgar Square SAMUEL CORUM/AFP VIA GETTY IMAGES`: a
            // credit in capitals glued to a sentence without its full stop
            // starts where the capitals do.
            // (Once a word is not, no later one is read.)
            shouted_tail = shouted_tail && is_shouted(&text[i..word_end]);
            // Not after an article or a preposition: `part of the UK
            // EPA-EFE/JANE DOE` names the UK in its sentence.
            let capitals_start = shouted_tail
                && !follows_noun_lead(text, i)
                && space.is_some_and(|space| {
                    let before = bytes[..space]
                        .iter()
                        .rposition(|&b| b == b' ')
                        .map_or(0, |s| s + 1);
                    text[before..space].chars().any(char::is_lowercase)
                });
            if capitals_start {
                capitals_from = Some(i);
            }
            // `..., courtesy of Reuters`: credit words from a comma on
            // confirm the anchors held back too.
            if space.is_some_and(|space| space > 0 && matches!(bytes[space - 1], b',' | b';')) {
                candidates.append(&mut noun_led);
            }
            if opens_text
                || capitals_start
                || (after_space
                    && (is_sentence_start(text, i)
                        || (!bytes[i].is_ascii_lowercase()
                            && is_anchor(rest)
                            && !follows_noun_lead(text, i))
                        || after_figure(bytes, i)
                        || after_separator(bytes, i)))
            {
                // Words of credits alone lead up to the anchors held back:
                // they open a credit's lead-in (`Photo from Xinhua`).
                candidates.append(&mut noun_led);
                candidates.push(i);
            } else if after_space && !bytes[i].is_ascii_lowercase() && is_anchor(rest) {
                // `... press photos from Xinhua.`: an anchor after a noun
                // lead is a credit only if credit words alone lead to it
                // from where a credit can start; the first word of prose
                // before that drops it.
                noun_led.push(i);
            }
        }
        match space {
            Some(space) => word_end = space,
            None => break,
        }
    }
    let located = |start: usize, setting: Setting| {
        let stop = trailers
            .iter()
            .copied()
            .filter(|&t| t > start)
            .min()
            .unwrap_or(end);
        // A bracket the text never closes (a caption cut inside its
        // credit, `(AP Photo/Jane Doe`) is no part of a name.
        let open =
            text[start..stop].starts_with(['(', '[']) && !text[start..stop].contains([')', ']']);
        let start = start + usize::from(open);
        let body_text = &text[start..stop];
        let parsed = body::parse(body_text, setting)?;
        let (raw_start, raw_end) = body::trim_range(body_text);
        Some(Located {
            start,
            end: text.len(),
            raw: Span::new(start + raw_start, start + raw_end),
            parsed,
        })
    };
    // A lead-in after a sentence's end opens the credit (`... 2011. PHOTO :
    // REUTERS`, `... Hira and Sana. Photo: Courtesy ...`): the sentence
    // before it is the caption's, however credit-like its words.
    let labelled = candidates
        .iter()
        .copied()
        .filter(|&c| {
            body::lead_in_len(&text[c..end]).is_some()
                && text[..c].trim_end().ends_with(['.', '!', '?'])
        })
        .min();
    if let Some(label) = labelled {
        candidates.retain(|&c| c >= label);
    }
    // The longest tail that parses wins: try the farthest start first and
    // stop at the first that parses, rather than parsing every shorter one.
    candidates
        .iter()
        .rev()
        .find_map(|&start| located(start, Setting::Trailing))
        .or_else(|| {
            // `... at Nowlan Park JANE DOE`: a name alone in capitals, or
            // set off by a glued dash (`... country. —JANE DOE`).
            // The dash first: the capitals start after it (`—NIÑO JESUS`
            // is read from `NIÑO`, which the dash kept from the capitals).
            let start = dashed_from
                .filter(|&start| is_shouted_name(&text[start..end]))
                .or_else(|| {
                    capitals_from.filter(|&start| is_shouted_name_after_words(text, start, end))
                })?;
            located(start, Setting::ShoutedTail)
        })
}

/// The most words of a name in capitals set after a caption.
const MAX_SHOUTED_NAME_WORDS: usize = 4;

/// Whether `text[start..end]` is a name in capitals ([`is_shouted_name`])
/// and the word before it can end a description: not an article or a
/// preposition, whose noun the capitals would be (`outside the UN HQ`).
fn is_shouted_name_after_words(text: &str, start: usize, end: usize) -> bool {
    is_shouted_name(&text[start..end])
        && !follows_noun_lead(text, start)
        && !word_before(text, start).eq_ignore_ascii_case("by")
}

/// Words after which the next word belongs to the sentence's noun phrase:
/// an agency's or a person's name there is what the sentence speaks of
/// (`photos from Xinhua.`, `outside the UN HQ`), not a credit set after
/// it. `by` is not one: `... by AFP` may be a credit's lead-in.
const NOUN_LEADS: [&str; 13] = [
    "the", "a", "an", "of", "at", "in", "on", "for", "to", "from", "with", "and", "or",
];

/// Whether the word before `text[start..]` is one of [`NOUN_LEADS`].
fn follows_noun_lead(text: &str, start: usize) -> bool {
    let before = word_before(text, start);
    NOUN_LEADS.iter().any(|w| before.eq_ignore_ascii_case(w))
}

/// The word that ends `text[..start]`.
fn word_before(text: &str, start: usize) -> &str {
    text[..start].trim_end().rsplit(' ').next().unwrap_or("")
}

/// A person's name in capitals, as pages set a photographer's credit on
/// its own (`JANE DOE`): two to four words of letters, each with a vowel,
/// none that the name lexicon knows as something else (`FINALS`, `PRIME`,
/// `MINISTER`, `MONDAY`) and no organisation word.
pub(crate) fn is_shouted_name(words: &str) -> bool {
    use crate::name::{COMMON, EVENT, FUNCTION, MONTH, ORG_HEAD, ORG_NOUN, ROLE, TITLE, WEEKDAY};
    let not_a_name =
        COMMON | EVENT | FUNCTION | MONTH | ORG_HEAD | ORG_NOUN | ROLE | TITLE | WEEKDAY;
    let word_ok = |w: &str| {
        w.chars().count() >= 2
            && w.chars()
                .all(|c| c.is_uppercase() || matches!(c, '-' | '\'' | '\u{2019}'))
            && w.chars().any(|c| "AEIOUY".contains(c) || !c.is_ascii())
            && crate::name::classes_of(w) & not_a_name == 0
    };
    let n_words = crate::text::split_ascii(words, b' ').count();
    (2..=MAX_SHOUTED_NAME_WORDS).contains(&n_words)
        && crate::text::split_ascii(words, b' ').all(word_ok)
        && !name::has_org_word(words)
}

/// The positions of the spaces in `bytes`, last first: `memrchr_iter`'s,
/// eight bytes at a time (the scan stops after a few words, too soon for a
/// SIMD search to pay for its set-up).
fn spaces_backwards(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut end = bytes.len();
    std::iter::from_fn(move || {
        let at = crate::swar::rfind_byte(bytes, end, b' ')?;
        end = at;
        Some(at)
    })
}

/// Lower-case words a credit may contain; any other lower-case word is prose.
const CREDIT_LOWER_WORDS: [&str; 63] = [
    "via",
    "for",
    "and",
    "of",
    "the",
    "by",
    "on",
    "in",
    "at",
    "to",
    "with",
    "from",
    "de",
    "del",
    "della",
    "der",
    "den",
    "van",
    "von",
    "da",
    "di",
    "du",
    "dos",
    "das",
    "do",
    "le",
    "la",
    "y",
    "al",
    "el",
    "bin",
    "ibn",
    "ben",
    "photo",
    "credit",
    "should",
    "read",
    "c",
    "picture",
    "alliance",
    "images",
    "press",
    "news",
    "agency",
    "photos",
    "handout",
    "pool",
    "file",
    "staff",
    "stringer",
    "social",
    "media",
    "website",
    "websites",
    "courtesy",
    "family",
    "image",
    "satellite",
    "source",
    "copyright",
    "credits",
    "photoby",
    "contributor",
];

/// Whether `region` holds a word no credit has: a lower-case word off
/// [`CREDIT_LOWER_WORDS`] (credit words in other case are capitalized) or a
/// digit. A cheap test that lets [`trailing`] stop early; the parser decides.
fn is_prose(region: &str) -> bool {
    // Most regions are one plain word, which the split would yield whole:
    // its char-by-char search for separators is skipped.
    if region.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return is_prose_word(region);
    }
    prose_words(region).any(is_prose_word)
}

/// The words of a region as [`is_prose`] reads them.
fn prose_words(region: &str) -> impl Iterator<Item = &str> {
    region.split(|c: char| {
        c.is_whitespace() || matches!(c, '/' | ',' | '(' | ')' | '[' | ']' | ':' | ';')
    })
}

/// Whether one word of a region is prose (see [`is_prose`]).
fn is_prose_word(word: &str) -> bool {
    // `©2022`: a copyright year belongs to a credit.
    let word = word.trim_end_matches('.').trim_start_matches('©');
    // `iStockphoto`: a capital inside makes a brand, not prose.
    let starts_lower =
        word.starts_with(|c: char| c.is_lowercase()) && !word.chars().any(char::is_uppercase);
    (word.bytes().any(|b| b.is_ascii_digit())
        && !is_copyright_year(word)
        && !body::is_picture_id(word)
        && word.len() > 3)
        || (starts_lower
            && !is_credit_lower_word(word)
            && agency::lookup(word).is_none()
            && !word
                .split_once('-')
                .is_some_and(|(head, _)| is_credit_lower_word(head)))
}

/// Whether a sentence ends just before the space before `i`: `.`, `!`, `?`
/// or `…`, perhaps inside closing quotes, and not the full stop of an
/// initial (`Jane Q. Doe`).
fn is_sentence_start(text: &str, i: usize) -> bool {
    let before = text[..i - 1].trim_end_matches(['"', '\'', ')', ']', '”', '’']);
    if before.ends_with(['!', '?', '…']) {
        return true;
    }
    let Some(stem) = before.strip_suffix('.') else {
        return false;
    };
    let last_word = &stem[stem.rfind(' ').map_or(0, |at| at + 1)..];
    let mut chars = last_word.chars();
    let is_initial =
        matches!((chars.next(), chars.next()), (Some(c), None) if c.is_ascii_uppercase());
    !is_initial
}

/// `2022` after a `©`: the region split removed the sign, so any lone
/// four-digit word passes here and the parser decides.
fn is_copyright_year(word: &str) -> bool {
    word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit())
}

/// A capitalized word right after a number or a bracket (`..., May 2, 2016
/// Jane Doe/AP`): a credit on its own line after a description that ended
/// without a full stop. Names before the number are never taken.
fn after_figure(bytes: &[u8], i: usize) -> bool {
    bytes[i].is_ascii_uppercase()
        && i >= 2
        && (bytes[i - 2].is_ascii_digit() || bytes[i - 2] == b')')
}

/// A capitalized word after a lone `#`, `|` or dash (`... in Berlin. #
/// Jane Doe / AP`, `... July 22, 2020 - Jane Doe/AP Photo`): a gallery's
/// template setting the credit off from its caption. Only a start: the
/// words from it must still parse as a credit.
fn after_separator(bytes: &[u8], i: usize) -> bool {
    const SEPARATORS: [&[u8]; 5] = [
        b" # ",
        b" | ",
        b" - ",
        " \u{2013} ".as_bytes(),
        " \u{2014} ".as_bytes(),
    ];
    bytes[i].is_ascii_uppercase() && SEPARATORS.iter().any(|sep| bytes[..i].ends_with(sep))
}

/// Where a credit set off by a dash glued to it starts (`... country.
/// —JANE DOE`, `—AFP`): after an em or en dash that opens a word and is
/// followed by a capital. Only a start: the words from it must still parse
/// as a credit.
fn after_glued_dash(text: &str, start: usize, word_end: usize) -> Option<usize> {
    let word = &text[start..word_end];
    let dash = word.find(['\u{2014}', '\u{2013}'])?;
    let rest = &word[dash + '\u{2014}'.len_utf8()..];
    (opens_dashed_credit(&word[..dash]) && rest.starts_with(char::is_uppercase))
        .then_some(word_end - rest.len())
}

/// Whether the text before a dash lets it set off a credit: the dash
/// opens a word, or follows a sentence's end (`... entities.—JANE DOE`).
fn opens_dashed_credit(before: &str) -> bool {
    before.is_empty() || before.ends_with([' ', '.', '!', '?', '"', '\u{201d}'])
}

/// Whether `rest` opens with an anchor: a leading slash, `©`, or an
/// [`ANCHOR_WORDS`] word, perhaps glued to the name after it
/// (`REUTERSJane Doe`).
fn is_anchor(rest: &str) -> bool {
    if rest.starts_with(['/', '©']) {
        return true;
    }
    let word_len = body::glued_agency(rest)
        .unwrap_or_else(|| rest.bytes().take_while(u8::is_ascii_alphabetic).count());
    credit_word_kinds(&rest[..word_len]) & ANCHOR != 0
}

/// Where a credit glued to a sentence end starts in the word
/// `text[start..word_end]` (`State.REUTERS/Jane`, `2016.AFP/Jane`): after a
/// full stop that follows a lower-case letter or a digit and precedes a
/// capitalized anchor.
fn glued_sentence_end(text: &str, start: usize, word_end: usize, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    // A plain loop: words are too short for a SIMD search to pay.
    let dot = start + bytes[start..word_end].iter().position(|&b| b == b'.')?;
    let after = dot + 1;
    let sentence_word =
        dot > start && (bytes[dot - 1].is_ascii_lowercase() || bytes[dot - 1].is_ascii_digit());
    (sentence_word
        && bytes.get(after).is_some_and(u8::is_ascii_uppercase)
        && is_anchor(&text[after..end]))
    .then_some(after)
}

/// Where a name glued to the year that ends a description starts in the
/// word `text[start..word_end]` (`July 19, 2020Jane Doe/AP Photo`): after
/// four digits of a year (1800 to 2099), at a capital followed by a
/// lower-case letter. Pages that print the credit in its own element lose
/// the space when the text is copied. Only a word opening with a digit is
/// read; the credit reading that follows decides whether a credit starts
/// there.
fn glued_after_year(text: &str, start: usize, word_end: usize) -> Option<usize> {
    let word = &text.as_bytes()[start..word_end];
    let year = word.get(..4)?;
    let is_year =
        year.iter().all(u8::is_ascii_digit) && matches!(&year[..2], b"18" | b"19" | b"20");
    (is_year
        && word.get(4).is_some_and(u8::is_ascii_uppercase)
        && word.get(5).is_some_and(u8::is_ascii_lowercase))
    .then_some(start + 4)
}

/// Where a lead-in with a colon glued to the last word of the description
/// starts in the word `text[start..word_end]` (`under the
/// rubblePhotograph: Jane Doe/AFP`): at a capital after a lower-case letter.
/// Only a word holding a colon is read, so the scan costs nothing on most.
fn glued_lead_in(text: &str, start: usize, word_end: usize, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let colon = start + bytes[start..word_end].iter().position(|&b| b == b':')?;
    (start + 1..colon)
        .filter(|&k| bytes[k].is_ascii_uppercase() && bytes[k - 1].is_ascii_lowercase())
        .find(|&k| {
            body::lead_in_len(&text[k..end])
                .is_some_and(|len| text[k..k + len].trim_end().ends_with(':'))
        })
}

/// Whether a word with no capital is one of [`CREDIT_LOWER_WORDS`] (the
/// table ignores case, which changes nothing for such a word).
fn is_credit_lower_word(word: &str) -> bool {
    credit_word_kinds(word) & CREDIT_LOWER != 0
}

/// [`credit_word_kinds`]: an [`ANCHOR_WORDS`] word.
const ANCHOR: u8 = 1;
/// [`credit_word_kinds`]: a [`CREDIT_LOWER_WORDS`] word.
const CREDIT_LOWER: u8 = 2;

/// Which of the two lists a word (any ASCII case) is in: one table probe
/// instead of a scan of each list, for every word the backward scan reads.
fn credit_word_kinds(word: &str) -> u8 {
    static KINDS: LazyLock<WordTable<u8>> = LazyLock::new(|| {
        let anchors = ANCHOR_WORDS.iter().map(|w| (w.as_bytes(), ANCHOR));
        let lower = CREDIT_LOWER_WORDS
            .iter()
            .map(|w| (w.as_bytes(), CREDIT_LOWER));
        WordTable::new(anchors.chain(lower))
    });
    KINDS.get(word.as_bytes()).unwrap_or(0)
}

#[cfg(test)]
mod tests;
