//! One input line as the segmenter sees it: the words left once counters,
//! HTML tags, list bullets and screen-reader labels are cut off its ends.

use std::sync::LazyLock;

use crate::span::Span;

/// A screen-reader label that a page puts before a caption or its credit
/// (`Image caption,`, `Image source,`, `Image copyright`). The label is page
/// structure, not caption text: it is cut off, and what it says about the
/// line becomes a feature. Credit words that are part of the credit as
/// written (`Photograph:`, `Photo:`, `(Image credit: ...)`) are not labels:
/// they stay in the caption's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Label {
    /// No label.
    None,
    /// `Image caption,` / `Caption:`: the rest of the line is a caption.
    Caption,
    /// `Image source,` / `Image copyright`: the rest of the line is a credit.
    Credit,
}

/// Labels cut off a line's start, lower case, each followed in the input by
/// `,`, `:` or a space.
const LABELS: &[(&str, Label)] = &[
    ("image caption", Label::Caption),
    ("media caption", Label::Caption),
    ("photo caption", Label::Caption),
    ("caption", Label::Caption),
    ("image source", Label::Credit),
    ("image copyright", Label::Credit),
    ("picture source", Label::Credit),
];

/// One non-blank line of the input.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line {
    /// The line without its break and surrounding white space.
    pub span: Span,
    /// What is left once counters, tags, bullets and a label are cut off;
    /// empty when nothing is.
    pub content: Span,
    /// The label cut off the start.
    pub label: Label,
    /// A counter (`3 / 17`, `Image 4 of 14`) was cut off, or was the line.
    pub counter: bool,
    /// The line is a list item (`- `, `• `, `* `).
    pub bullet: bool,
    /// A blank line (or the start of input) stands before this line.
    pub blank_before: bool,
}

impl Line {
    /// The line's content words.
    pub fn text<'a>(&self, input: &'a str) -> &'a str {
        self.content.of(input)
    }
}

/// The non-blank lines of `input`, in order, without labels alone on a
/// line (see [`lone_labels`]). A line that holds a label inside it (`ALT
/// TEXT Image copyright NAME/AGENCY Image caption TEXT`, glued or not) is
/// split before each label into lines of their own, as the page showed
/// them.
pub(crate) fn read_lines(input: &str) -> Vec<Line> {
    let mut lines = read_all_lines(input);
    carry_lone_labels(input, &mut lines);
    lines.retain(|l| !is_lone_label(input, l));
    lines
}

/// Labels alone on a line (`Image copyright`, and below it `AFP`): page
/// structure the segmenter strips. Each labels the line after it, which
/// [`read_lines`] gives that label; the label line itself is no line of
/// the page's sequence, so a credit and its caption stay neighbours.
pub(crate) fn lone_labels(input: &str) -> Vec<Span> {
    read_all_lines(input)
        .into_iter()
        .filter(|l| is_lone_label(input, l))
        .map(|l| l.span)
        .collect()
}

fn is_lone_label(input: &str, line: &Line) -> bool {
    line.label != Label::None && line.text(input).is_empty()
}

fn read_all_lines(input: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut offset = 0;
    let mut blank_before = true;
    for raw in input.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            blank_before = true;
            continue;
        }
        let lead = raw.len() - raw.trim_start().len();
        let line_start = start + lead;
        let mut piece_start = 0;
        for cut in cuts(trimmed).chain(std::iter::once(trimmed.len())) {
            let piece = &trimmed[piece_start..cut];
            let kept = piece.trim();
            if !kept.is_empty() {
                let at = line_start + piece_start + (piece.len() - piece.trim_start().len());
                lines.push(read_line(
                    input,
                    Span::new(at, at + kept.len()),
                    blank_before,
                ));
                blank_before = false;
            }
            piece_start = cut;
        }
        blank_before = false;
    }
    lines
}

/// A label alone on its line says what the next line is: that line gets
/// the label, unless it has its own, and the blank line before the label.
fn carry_lone_labels(input: &str, lines: &mut [Line]) {
    for i in 1..lines.len() {
        let before = lines[i - 1];
        if is_lone_label(input, &before) {
            if lines[i].label == Label::None {
                lines[i].label = before.label;
            }
            lines[i].blank_before |= before.blank_before;
        }
    }
}

/// Labels that pages glue inside a line, written as pages write them.
const INNER_LABELS: &[&str] = &[
    "Image copyright",
    "Image caption",
    "Image source",
    "Media caption",
];

/// Where a line is cut into lines of its own, in order (never at its
/// start): before each label inside it, and where a caption run on after
/// another's wire credit starts ([`crate::credit::run_on_starts`]).
fn cuts(line: &str) -> impl Iterator<Item = usize> {
    let mut cuts = inner_labels(line);
    cuts.extend(crate::credit::run_on_starts(line));
    cuts.extend(glued_counters(line));
    // A flattened page: after each labelled credit, the share buttons (a
    // line of chrome of their own), then the next caption, or the line's
    // end after the last credit.
    for end in crate::credit::labelled_credit_ends(line) {
        let start = line.len() - line[end..].trim_start().len();
        let after_buttons = after_navigation_words(line, start);
        if after_buttons == line.len() {
            cuts.push(start);
        } else if crate::credit::opens_caption(&line[after_buttons..]) {
            cuts.push(start);
            if after_buttons > start {
                cuts.push(after_buttons);
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts.into_iter()
}

/// Where slide counters glued inside a flattened gallery start
/// (`...Credit:Jo Bloggs2/23Men rest...`): a `K/N` right before a capital
/// or a quote, when `N` is the same for several of them, so that a figure
/// (`24/7`, a score) is not taken for one. Never at the line's start.
fn glued_counters(line: &str) -> Vec<usize> {
    const MAX_DIGITS: usize = 3;
    let bytes = line.as_bytes();
    let mut found: Vec<(usize, &str)> = Vec::new();
    for slash in memchr::memchr_iter(b'/', bytes) {
        let before = bytes[..slash]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let after = bytes[slash + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if before == 0 || before > MAX_DIGITS || after == 0 || after > MAX_DIGITS {
            continue;
        }
        let next = line[slash + 1 + after..].chars().next();
        if !next.is_some_and(|c| c.is_uppercase() || matches!(c, '"' | '\u{201c}')) {
            continue;
        }
        found.push((slash - before, &line[slash + 1..slash + 1 + after]));
    }
    found
        .iter()
        .filter(|(start, total)| {
            *start > 0 && found.iter().filter(|(_, other)| other == total).count() >= 2
        })
        .map(|&(start, _)| start)
        .collect()
}

/// Where the run of navigation words (`Share Tweet Facebook`) at `from`
/// ends: at the next word that is none, or at `from` when there is none.
fn after_navigation_words(line: &str, from: usize) -> usize {
    let mut at = from;
    for word in line[from..].split(' ') {
        if word.is_empty() {
            at += 1;
            continue;
        }
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        if !super::features::is_navigation_word(bare) {
            break;
        }
        at += word.len() + 1;
    }
    at.min(line.len())
}

/// Where labels start inside a line (never at its start), in any order.
fn inner_labels(line: &str) -> Vec<usize> {
    // Every label starts `Image ` or `Media `; most lines hold neither, and
    // a SIMD scan for each tells.
    static IMAGE: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new("Image "));
    static MEDIA: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new("Media "));
    let bytes = line.as_bytes();
    if IMAGE.find(bytes).is_none() && MEDIA.find(bytes).is_none() {
        return Vec::new();
    }
    INNER_LABELS
        .iter()
        .flat_map(|label| line.match_indices(label).map(|(at, _)| at))
        .filter(|&at| at > 0 && strip_label(&line[at..]).0 != Label::None)
        .collect()
}

fn read_line(input: &str, span: Span, blank_before: bool) -> Line {
    let mut start = span.start;
    let mut end = span.end;
    let mut counter = false;
    let mut bullet = false;
    loop {
        let text = &input[start..end];
        if let Some(rest) = strip_counter(text) {
            counter = true;
            start = end - rest.len();
            continue;
        }
        if let Some(rest) = strip_leading_tag(text) {
            start = end - rest.len();
            continue;
        }
        if let Some(kept) = strip_trailing_counter(text) {
            counter = true;
            end = start + kept.len();
            continue;
        }
        if let Some(kept) = strip_trailing_tag(text)
            .or_else(|| strip_link_label(text))
            .or_else(|| strip_table_bar(text))
        {
            end = start + kept.len();
            continue;
        }
        if let Some(rest) = strip_bullet(text) {
            bullet = true;
            start = end - rest.len();
            continue;
        }
        // Numbering is cut off but not noted: a numbered caption reads as a
        // caption, and a numbered headline list is told apart by its words.
        if let Some(rest) = strip_numbering(text) {
            start = end - rest.len();
            continue;
        }
        break;
    }
    let (label, rest) = strip_label(&input[start..end]);
    start = end - rest.len();
    Line {
        span,
        content: Span::new(start, end),
        label,
        counter,
        bullet,
        blank_before,
    }
}

/// A label at the start of `text`, and what follows it.
fn strip_label(text: &str) -> (Label, &str) {
    for &(word, label) in LABELS {
        let Some(head) = text.get(..word.len()) else {
            continue;
        };
        if !head.eq_ignore_ascii_case(word) {
            continue;
        }
        let rest = &text[word.len()..];
        let after = rest.trim_start_matches([',', ':']);
        // A label is followed by punctuation, a space or the line end, never by more
        // word; a page that glues it to a capital (`Image copyrightAFP`)
        // wrote it as a label too.
        let glued = head.starts_with("Image") && rest.starts_with(char::is_uppercase);
        if after.len() < rest.len() || rest.is_empty() || rest.starts_with(' ') || glued {
            return (label, after.trim_start());
        }
    }
    (Label::None, text)
}

/// `3 of16 A caption`, `Image 3 of 20 A caption`, `9 / 17`: the text after
/// a counter at the start of a line.
pub(crate) fn strip_counter(text: &str) -> Option<&str> {
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

/// `Credit:Jo Bloggs 2/ 23`, `... in Lowtown. 4 / 17`: a slide counter that
/// a page glues to the end of a line (after the credit of the slide before
/// it). The text before it. A counter needs a space beside its slash, so a
/// fraction (`won 2/3`) or `24/7` stays; and it cannot count past its total.
fn strip_trailing_counter(text: &str) -> Option<&str> {
    const MAX_DIGITS: usize = 3;
    let trimmed = text.trim_end();
    let total_len = trimmed.bytes().rev().take_while(u8::is_ascii_digit).count();
    if total_len == 0 || total_len > MAX_DIGITS {
        return None;
    }
    let (head, total) = trimmed.split_at(trimmed.len() - total_len);
    let spaced_after = head.ends_with(' ');
    let head = head.trim_end().strip_suffix('/')?;
    let spaced_before = head.ends_with(' ');
    let head = head.trim_end();
    let index_len = head.bytes().rev().take_while(u8::is_ascii_digit).count();
    if index_len == 0 || index_len > MAX_DIGITS || !(spaced_before || spaced_after) {
        return None;
    }
    let (kept, index) = head.split_at(head.len() - index_len);
    // The counter stands apart: after a space, and not the whole line (a
    // bare counter is cut at the start by `strip_counter`).
    if !kept.ends_with(' ') || kept.trim().is_empty() {
        return None;
    }
    let (index, total): (u32, u32) = (index.parse().ok()?, total.parse().ok()?);
    (index >= 1 && index <= total).then_some(kept.trim_end())
}

/// `(Jane Doe/AFP)read more`, `... in Lowtown. See more`: a link's words
/// glued to the end of a line, which open the full text elsewhere. They are
/// the page's, not the caption's; `...more` is a cut caption's mark and
/// stays (it says the caption is cut short).
fn strip_link_label(text: &str) -> Option<&str> {
    const LINKS: [&str; 6] = [
        "read more",
        "see more",
        "show more",
        "continue reading...",
        "continue reading\u{2026}",
        "continue reading",
    ];
    let cut = LINKS.iter().find_map(|link| {
        let at = text.len().checked_sub(link.len())?;
        let tail = text.get(at..)?;
        tail.eq_ignore_ascii_case(link).then_some(at)
    })?;
    let kept = text[..cut].trim_end();
    (!kept.is_empty() && !kept.ends_with("...") && !kept.ends_with('\u{2026}')).then_some(kept)
}

/// `... —JANE DOE |`: a table cell's closing bar, left by a page laid out
/// in a table. A lone bar is a line of its own (chrome).
fn strip_table_bar(text: &str) -> Option<&str> {
    let kept = text.strip_suffix(" |")?.trim_end();
    (!kept.is_empty()).then_some(kept)
}

/// `- `, `• `, `* `, `– ` before a list item.
fn strip_bullet(text: &str) -> Option<&str> {
    ["- ", "\u{2022} ", "* ", "\u{2013} ", "\u{00b7} "]
        .iter()
        .find_map(|bullet| text.strip_prefix(bullet))
        .map(str::trim_start)
}

/// `2. `, `12) `, `(3) ` before a list item that opens with a capital or a
/// quote: a slide deck's or a blog's numbering (`2. 2. Men rest`,
/// `1)Men rest`). A number of four digits or more is a year or a figure, and
/// `2.5 million` is no numbering: a full stop must be followed by a space.
fn strip_numbering(text: &str) -> Option<&str> {
    const MAX_DIGITS: usize = 3;
    let (open, rest) = match text.strip_prefix('(') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > MAX_DIGITS {
        return None;
    }
    let rest = &rest[digits..];
    if !open && glued_to_numbering(rest) {
        return Some(rest);
    }
    let rest = match rest.as_bytes().first() {
        Some(b')') => &rest[1..],
        Some(b'.') if !open && rest[1..].starts_with(' ') => &rest[1..],
        _ => return None,
    };
    let rest = rest.trim_start();
    let opens_item =
        rest.starts_with(|c: char| c.is_uppercase() || matches!(c, '"' | '\u{201c}' | '\''));
    // A deck that prints the slide number twice (`2. 2. Men rest`).
    (opens_item || strip_numbering(rest).is_some()).then_some(rest)
}

/// A slide number glued to the caption's first word (`2Men walk`,
/// `1A police officer`), as pages that print the number in its own box
/// paste: a capital, then a lower-case letter or a one-letter word. A
/// figure with a unit (`3D`, `5G`, `4K`) is followed by a capital or a
/// space after a letter other than `A` and `I`, and stays.
fn glued_to_numbering(rest: &str) -> bool {
    match rest.as_bytes() {
        [first, second, ..] if first.is_ascii_uppercase() && second.is_ascii_lowercase() => true,
        [b'A' | b'I', b' ', third, ..] => third.is_ascii_lowercase(),
        _ => false,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn content(line: &str) -> (String, Label, bool) {
        let lines = read_lines(line);
        let l = lines[0];
        (l.text(line).to_string(), l.label, l.counter)
    }

    #[test]
    fn labels_counters_bullets_and_tags_are_cut_off() {
        let cases = [
            (
                "Image caption, Boats wait at the quay.",
                "Boats wait at the quay.",
                Label::Caption,
                false,
            ),
            (
                "Image source, Ana Ruiz/AFP",
                "Ana Ruiz/AFP",
                Label::Credit,
                false,
            ),
            ("Image 3 of 14", "", Label::None, true),
            (
                "<p>3 / 17 Men rest on a bench.</p>",
                "Men rest on a bench.",
                Label::None,
                true,
            ),
            (
                "- Men rest on a bench in...",
                "Men rest on a bench in...",
                Label::None,
                false,
            ),
            (
                "2. 2. Men rest on a bench.",
                "Men rest on a bench.",
                Label::None,
                false,
            ),
            (
                "(3) Men rest on a bench.",
                "Men rest on a bench.",
                Label::None,
                false,
            ),
            (
                "1)Men rest on a bench.",
                "Men rest on a bench.",
                Label::None,
                false,
            ),
            (
                "7Men rest on a bench.",
                "Men rest on a bench.",
                Label::None,
                false,
            ),
            (
                "12A man rests on a bench.",
                "A man rests on a bench.",
                Label::None,
                false,
            ),
            // Figures and years are no numbering.
            (
                "3D printers line a hall.",
                "3D printers line a hall.",
                Label::None,
                false,
            ),
            (
                "4K screens line a hall.",
                "4K screens line a hall.",
                Label::None,
                false,
            ),
            (
                "2.5 million people voted.",
                "2.5 million people voted.",
                Label::None,
                false,
            ),
            (
                "2016. A year of storms",
                "2016. A year of storms",
                Label::None,
                false,
            ),
            (
                "3 men rest on a bench.",
                "3 men rest on a bench.",
                Label::None,
                false,
            ),
            // A word that only starts like a label is kept.
            (
                "Captions of the year",
                "Captions of the year",
                Label::None,
                false,
            ),
        ];
        for (line, text, label, counter) in cases {
            assert_eq!(content(line), (text.to_string(), label, counter), "{line}");
        }
    }

    #[test]
    fn a_counter_glued_to_the_end_is_cut_off() {
        assert_eq!(
            content("Credit:Ann Lee 4/ 19"),
            ("Credit:Ann Lee".to_string(), Label::None, true)
        );
        assert_eq!(
            content("Geese land on a pond. 7 / 30").0,
            "Geese land on a pond."
        );
        // Fractions, round-the-clock and counts past their total stay.
        for kept in [
            "The home side won 2/3 of its games",
            "The shop opens 24/7",
            "A ratio of 30 / 7",
            "Score 3 /",
        ] {
            assert_eq!(content(kept).0, kept, "{kept}");
        }
    }

    #[test]
    fn link_words_glued_to_the_end_are_cut_off() {
        assert_eq!(content("(Jane Doe/AFP)read more").0, "(Jane Doe/AFP)");
        assert_eq!(
            content("Boats moor in Lowtown. Read More").0,
            "Boats moor in Lowtown."
        );
        // A cut caption keeps its mark.
        assert_eq!(content("Boats moor in...more").0, "Boats moor in...more");
        assert_eq!(content("read more").0, "read more");
        assert_eq!(
            content("Boats moor in Lowtown. \u{2014}JANE DOE |").0,
            "Boats moor in Lowtown. \u{2014}JANE DOE"
        );
        assert_eq!(content("|").0, "|");
        assert_eq!(
            content("A column on the week's pictures. Continue reading...").0,
            "A column on the week's pictures."
        );
    }

    #[test]
    fn a_label_alone_on_its_line_labels_the_next() {
        let input = "Image copyright\nAna Ruiz/AFP\n\nImage caption\n\nBoats wait at the quay.\nImage caption, Men sit.";
        let got: Vec<(&str, Label, bool)> = read_lines(input)
            .iter()
            .map(|l| (l.text(input), l.label, l.blank_before))
            .collect();
        assert_eq!(
            got,
            [
                ("Ana Ruiz/AFP", Label::Credit, true),
                ("Boats wait at the quay.", Label::Caption, true),
                ("Men sit.", Label::Caption, false),
            ]
        );
        let labels: Vec<&str> = lone_labels(input).iter().map(|s| s.of(input)).collect();
        assert_eq!(labels, ["Image copyright", "Image caption"]);
    }

    #[test]
    fn labels_inside_a_line_split_it() {
        let input = "Two boats at a quay Image copyright Ana Ruiz/AFP Image caption Boats wait at the quay.\nA hall.Image copyrightGetty ImagesImage caption Men sit.";
        let lines = read_lines(input);
        let got: Vec<(&str, Label)> = lines.iter().map(|l| (l.text(input), l.label)).collect();
        assert_eq!(
            got,
            [
                ("Two boats at a quay", Label::None),
                ("Ana Ruiz/AFP", Label::Credit),
                ("Boats wait at the quay.", Label::Caption),
                ("A hall.", Label::None),
                ("Getty Images", Label::Credit),
                ("Men sit.", Label::Caption),
            ]
        );
        assert!(!lines[1].blank_before);
    }

    #[test]
    fn counters_glued_inside_a_flattened_gallery_split_it() {
        let input = "Gallery 12 Images1/12Boats wait at the quay. Credit:Ana Ruiz2/12Men sit on a wall, open 24/7.Credit:Li Wei";
        let lines = read_lines(input);
        let got: Vec<(&str, bool)> = lines.iter().map(|l| (l.text(input), l.counter)).collect();
        assert_eq!(
            got,
            [
                ("Gallery 12 Images", false),
                ("Boats wait at the quay. Credit:Ana Ruiz", true),
                ("Men sit on a wall, open 24/7.Credit:Li Wei", true),
            ]
        );
        // One `K/N` alone is a figure, not a counter.
        assert_eq!(read_lines("Fans watch the 3/4Final at a bar.").len(), 1);
    }

    #[test]
    fn blank_lines_are_noted_on_the_line_after() {
        let lines = read_lines("One.\nTwo.\n\n  \nThree.\n");
        let gaps: Vec<bool> = lines.iter().map(|l| l.blank_before).collect();
        assert_eq!(gaps, [true, false, true]);
    }
}
