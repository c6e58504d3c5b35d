//! Splitting input text into captions, leaving out page chrome.
//!
//! Scraped gallery pages put captions between navigation and counters
//! (`1 / 83`, `Image 3 of 20`, `Close`, `Next`, `Advertisement`), agency and
//! date lines (`Reuters / Monday, April 25, 2011`), headlines and footers.
//! The segmenter reads line by line:
//! - a chrome line separates captions and is dropped; a counter or an HTML
//!   tag at the start or end of a line is cut off, the rest kept;
//! - consecutive content lines form one caption, so a caption wrapped over
//!   two lines and a credit on its own line (`Hassan Ammar/AP Photo`) stay
//!   with their caption;
//! - a run of two or more `Label: value` lines is a details table or a
//!   link list (`Credit: ...`, `Collection: ...`, `Photos: Life in Herat`)
//!   and is dropped; a single `Photograph: NAME/AGENCY` line after a
//!   caption is its credit;
//! - a block becomes a caption only when it reads like one: a credit, a
//!   date, a truncation mark, or a long sentence. Headlines and link lists
//!   do not.
//!
//! Each caption is one contiguous span of the input, so offsets stay exact.
//! A caption cut short (`...more`, `…`) is marked [`CaptionSpan::truncated`];
//! merging it with its full version is the caller's job, since the full
//! version may come later in the document.

use crate::span::Span;

/// One caption's place in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptionSpan {
    /// Byte range of the caption in the input.
    pub span: Span,
    /// The caption ends in a truncation mark (`...more`, `…`).
    pub truncated: bool,
}

/// A block shorter than this is a caption only with a credit, a date or a
/// truncation mark: headlines and menu lines are short.
const MIN_PLAIN_CAPTION_BYTES: usize = 100;

/// Below this, even a block with a date is no caption (`May 2, 2016`).
const MIN_CAPTION_BYTES: usize = 20;

/// Splits text into captions: paragraphs and line blocks between chrome.
pub fn segment(input: &str) -> Vec<CaptionSpan> {
    let mut lines: Vec<Line> = Vec::new();
    let mut offset = 0;
    for line in input.split_inclusive('\n') {
        lines.push(content_of(input, Span::new(offset, offset + line.len())));
        offset += line.len();
    }
    drop_label_runs(input, &mut lines);
    // A short line with no sentence end is a headline, unless the caption
    // it starts goes on below it ("... in Azaz, some" / "47 km north of").
    for k in 0..lines.len() {
        if let Line::Short(span) = lines[k] {
            let continued = matches!(lines.get(k + 1), Some(Line::Content(next) | Line::Short(next))
                if next.of(input).starts_with(|c: char| c.is_lowercase() || c.is_ascii_digit()));
            lines[k] = if continued {
                Line::Content(span)
            } else {
                Line::Chrome
            };
        }
    }
    let mut out = Vec::new();
    let mut block: Option<Span> = None;
    for line in lines {
        let content = match line {
            Line::Content(span) => Some(span),
            Line::Short(_) | Line::Chrome => None,
        };
        match content {
            Some(span) => {
                // A new long sentence after a finished caption starts another.
                let starts_new = block
                    .is_some_and(|b| ends_caption(b.of(input)) && starts_caption(span.of(input)));
                if starts_new {
                    push_block(input, block.take(), &mut out);
                }
                block = Some(block.map_or(span, |b| Span::new(b.start, span.end)));
            }
            None => push_block(input, block.take(), &mut out),
        }
    }
    push_block(input, block, &mut out);
    out
}

fn push_block(input: &str, block: Option<Span>, out: &mut Vec<CaptionSpan>) {
    let Some(span) = block else { return };
    let text = span.of(input);
    let truncated = crate::flags::is_truncated(text);
    // Cheapest tests first: most captions are long.
    let reads_like_caption = text.len() >= MIN_CAPTION_BYTES
        && (text.len() >= MIN_PLAIN_CAPTION_BYTES
            || truncated
            || has_date(text)
            || has_credit(text)
            || names_something(text));
    if reads_like_caption {
        out.push(CaptionSpan { span, truncated });
    }
}

/// What one line of input is.
#[derive(Debug, Clone, Copy)]
enum Line {
    /// Caption text (counters and tags cut off).
    Content(Span),
    /// Short and unfinished: a headline, unless the next line continues it.
    Short(Span),
    /// Blank, navigation, counters, bylines, footers.
    Chrome,
}

/// What one line (`span` includes its line break) is, with counters and
/// HTML tags cut off its ends.
fn content_of(input: &str, span: Span) -> Line {
    let line = span.of(input);
    if line.trim().is_empty() {
        return Line::Chrome;
    }
    let mut start = span.start + (line.len() - line.trim_start().len());
    let mut end = span.start + line.trim_end().len();
    loop {
        let text = &input[start..end];
        if let Some(rest) = strip_counter(text).or_else(|| strip_leading_tag(text)) {
            start = end - rest.len();
            continue;
        }
        if let Some(kept) = strip_trailing_tag(text) {
            end = start + kept.len();
            continue;
        }
        break;
    }
    let text = &input[start..end];
    if text.is_empty() || is_chrome(text) {
        Line::Chrome
    } else if is_short_unfinished(text) {
        Line::Short(Span::new(start, end))
    } else {
        Line::Content(Span::new(start, end))
    }
}

/// Turns runs of two or more adjacent `Label: value` lines into chrome.
fn drop_label_runs(input: &str, lines: &mut [Line]) {
    let is_label = |line: &Line| match line {
        Line::Content(span) | Line::Short(span) => is_label_line(span.of(input)),
        Line::Chrome => false,
    };
    let mut k = 0;
    while k < lines.len() {
        let run = lines[k..].iter().take_while(|l| is_label(l)).count();
        if run >= 2 {
            lines[k..k + run].fill(Line::Chrome);
        }
        k += run.max(1);
    }
}

/// `Collection: Anadolu Agency`, `Editorial #: 1293847561`: a short line led
/// by a label of at most three words and a colon.
fn is_label_line(text: &str) -> bool {
    /// Longer lines are prose, even with a colon early on.
    const MAX_LABEL_LINE_BYTES: usize = 80;
    const MAX_LABEL_WORDS: usize = 3;
    if text.len() >= MAX_LABEL_LINE_BYTES || !text.starts_with(|c: char| c.is_uppercase()) {
        return false;
    }
    let Some((label, value)) = text.split_once(": ") else {
        return false;
    };
    !value.trim().is_empty()
        && label.split(' ').count() <= MAX_LABEL_WORDS
        && label
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, ' ' | '#' | '-' | '\''))
}

/// `3 of16 A caption…`, `Image 3 of 20 A caption`: the caption after a counter.
fn strip_counter(text: &str) -> Option<&str> {
    let rest = ["Image ", "Photo ", "Picture ", "Slide "]
        .iter()
        .find_map(|word| text.strip_prefix(word))
        .unwrap_or(text);
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let rest = rest[digits..].trim_start();
    let rest = rest
        .strip_prefix("of")
        .or_else(|| rest.strip_prefix('/'))?
        .trim_start();
    let total = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if total == 0 {
        return None;
    }
    Some(rest[total..].trim_start())
}

fn strip_leading_tag(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('<')?;
    let close = rest.find('>')?;
    is_simple_tag(&rest[..close]).then(|| rest[close + 1..].trim_start())
}

fn strip_trailing_tag(text: &str) -> Option<&str> {
    let rest = text.strip_suffix('>')?;
    let open = rest.rfind('<')?;
    is_simple_tag(&rest[open + 1..]).then(|| rest[..open].trim_end())
}

/// The inside of a plain HTML tag (`p`, `/p`, `span class="x"`), not text
/// that happens to hold `<` and `>`.
fn is_simple_tag(tag: &str) -> bool {
    tag.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | ' ' | '=' | '"' | '-'))
}

/// Navigation words that are a whole line of chrome.
const CHROME_LINES: &[&str] = &[
    "close",
    "next",
    "previous",
    "prev",
    "share",
    "tweet",
    "email",
    "advertisement",
    "show more show less",
    "show more",
    "show less",
    "skip to content",
    "facebook twitter email",
    "read more",
    "slideshow captions",
    "most popular",
    "share this gallery",
    "article continues below this ad",
    "back to gallery",
    "view gallery",
    "enlarge",
    "expand",
    "fullscreen",
    "play",
    "pause",
    "menu",
    "search",
    "subscribe",
    "sign in",
    "log in",
];

/// Whether a line is page chrome rather than caption text.
fn is_chrome(text: &str) -> bool {
    /// Chrome is short; a caption line is checked in a few byte compares.
    const MAX_CHROME_BYTES: usize = 80;
    if text.len() >= MAX_CHROME_BYTES {
        return false;
    }
    let lower = text.to_lowercase();
    let bare = lower.trim_end_matches([':', '.']);
    if CHROME_LINES.contains(&bare) || bare.starts_with("edition:") {
        return true;
    }
    if strip_counter(text).is_some_and(str::is_empty) {
        return true;
    }
    // `Reuters / Monday, April 25, 2011`, `Pictures | Tue Mar 15, 2016 | 12:02am IST`,
    // `Terms of Use | Privacy`: lines of parts between bars or spaced slashes.
    if (text.contains(" | ") || text.contains(" / ")) && !is_credit_line(text) {
        return true;
    }
    // Bylines and time stamps: `By JANE DOE, Associated Press`, `Updated: ...`.
    text.starts_with("By ") || text.contains("Updated:")
}

/// Headlines and menu items: short, with no sentence end and no credit.
fn is_short_unfinished(text: &str) -> bool {
    let sentence_end =
        text.ends_with(['.', '!', '?', ')', ']', '…', '"', '\u{201d}']) || text.ends_with("more");
    // A line ending in a comma, or starting in lower case, is part of a
    // caption wrapped over lines; one holding a credit ends a caption.
    let continues = text.ends_with(',') || text.starts_with(|c: char| c.is_lowercase());
    text.len() < 80 && !sentence_end && !continues && !has_credit(text)
}

/// A line that is a credit and nothing else (`Hassan Ammar/AP Photo`).
fn is_credit_line(text: &str) -> bool {
    let normalized = crate::text::normalize_whitespace(text);
    crate::credit::find_credit(&normalized).is_some_and(|found| found.span.start <= 2)
}

/// A line that ends in a credit.
fn has_credit(text: &str) -> bool {
    crate::credit::find_credit(&crate::text::normalize_whitespace(text)).is_some()
}

/// Whether a finished block ends a caption: a sentence end or a credit.
fn ends_caption(text: &str) -> bool {
    text.trim_end().ends_with(['.', ')', ']']) || is_credit_line(text.lines().last().unwrap_or(""))
}

/// Whether a line opens a new caption: long, and starting like a sentence.
fn starts_caption(text: &str) -> bool {
    text.len() >= MIN_PLAIN_CAPTION_BYTES / 2
        && text.chars().next().is_some_and(char::is_uppercase)
        && !is_credit_line(text)
}

/// A finished sentence that names something after its first word (`... a
/// damaged building in Antakya.`): a short caption with neither credit nor
/// date, unlike a gallery's blurb (`A selection of images from ...`).
fn names_something(text: &str) -> bool {
    let finished = text.trim_end().ends_with(['.', '!', '?', ')']);
    finished
        && text
            .split_whitespace()
            .skip(1)
            .any(|word| word.starts_with(char::is_uppercase))
}

/// A month name followed by a number somewhere in the text: enough to tell
/// a dated caption from a short headline.
fn has_date(text: &str) -> bool {
    // Month names and abbreviations come from the shared lexicon.
    let is_month = |w: &str| crate::name::classes_of(w) & crate::name::MONTH != 0;
    let is_number = |w: &str| w.bytes().all(|b| b.is_ascii_digit());
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|pair| {
        (is_month(pair[0]) && is_number(pair[1])) || (is_number(pair[0]) && is_month(pair[1]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str) -> Vec<&str> {
        segment(input).iter().map(|c| c.span.of(input)).collect()
    }

    #[test]
    fn paragraphs_are_captions() {
        let input = "A boy walks past a mural in Lowtown, Freedonia, May 2, 2016. REUTERS/Jane Doe\n\nGirls play football on a dusty pitch in Karsa, June 3, 2019. (AP Photo/Ana Ruiz)\n";
        assert_eq!(texts(input).len(), 2);
    }

    #[test]
    fn chrome_is_dropped_and_credit_lines_join() {
        let input = "Edition:\nUnited States\n\nPictures | Tue Mar 15, 2016 | 12:02am IST\n\nLowtown's long winter\n\nShare\nTweet\n\n\
                     Agency / Monday, May 2, 2016\nMen clear snow from a roof in Lowtown, Freedonia, May 2, 2016.\nJane Doe/AP Photo\nClose\n1 / 23\n\n\
                     3 of16 Women queue for bread in Karsa, Freedonia, March 3, 2016.\nShow More Show Less\n";
        assert_eq!(
            texts(input),
            [
                "Men clear snow from a roof in Lowtown, Freedonia, May 2, 2016.\nJane Doe/AP Photo",
                "Women queue for bread in Karsa, Freedonia, March 3, 2016."
            ]
        );
    }

    #[test]
    fn wrapped_lines_and_tags() {
        let input = "<p>A car burns outside a building in Karsa February 10, 2012,\nin this handout picture released by a ministry. REUTERS/Handout</p>\nClose\n";
        assert_eq!(
            texts(input),
            ["A car burns outside a building in Karsa February 10, 2012,\nin this handout picture released by a ministry. REUTERS/Handout"]
        );
    }

    #[test]
    fn truncated_copies_are_marked() {
        let input = "Next\nNeighbours form a human chain to pass bricks away from a collapsed block in Karsa, February 6,…\n";
        let found = segment(input);
        assert_eq!(found.len(), 1);
        assert!(found[0].truncated);
    }

    #[test]
    fn details_tables_and_link_lists_are_chrome() {
        let input = "A girl carries water at a camp near Atmeh, Syria, January 12, 2021. (Photo by Jane Roe/Getty Images)\n\nDetails\nCredit: Jane Roe / Contributor\nEditorial #: 1293847561\nCollection: Anadolu Agency\nRelease info: Not released.\nSource: Anadolu Agency\n\nRelated\nPhotos: Life in Herat\nPhotos: The road to Bamiyan\n";
        assert_eq!(texts(input).len(), 1);
        // One label line after a caption is its credit.
        let input = "Fishermen mend their nets at the harbour of Beirut, Lebanon, April 10, 2024.\nPhotograph: Karim Haddad/EPA\n";
        assert_eq!(texts(input), [input.trim_end()]);
    }

    #[test]
    fn headlines_and_lists_are_not_captions() {
        let input = "The world in pictures: scenes from a turbulent decade\n\nA selection of images from the photographers.\n\n1. Storm warning issued for the coast\n2. City council approves budget\n\nTerms of Use | Privacy Notice | Your Privacy Choices\n";
        assert!(texts(input).is_empty());
    }
}
