//! Splitting input text into captions, leaving out page chrome.
//!
//! Every non-blank line of the input gets a [`LineKind`]: caption start,
//! caption continuation, credit of the caption above, credit of the caption
//! below, or chrome (counters, buttons, headings, intros, bylines, teaser
//! prose, page metadata). The kinds are decided together over the page: each
//! line's features (its shape, its neighbours' shape, the blank lines around
//! it; `features.rs`) give a score per kind, each pair of neighbouring kinds a
//! score of its own, and Viterbi decoding finds the best sequence
//! (`model.rs`). The weights are fitted on labelled pages by
//! `cargo xtask fit-segment` and stored in `weights.rs`; [`explain`] says, per
//! line, which features decided its kind.
//!
//! A line is cleaned before it is scored (`line.rs`): counters and HTML tags
//! at its ends and list bullets are cut off, and so are screen-reader labels
//! (`Image caption,`, `Image source,`, `Image copyright`), whose meaning
//! becomes a feature.
//!
//! A caption is its lines' words in reading order, its credit last: a credit
//! that stood before its caption (`Image source, NAME/AGENCY`) is joined
//! after it, as RECORD.md's gold pages do. A caption cut short (`...more`,
//! `…`, a teaser cut at a fixed length with `...`) is marked
//! [`CaptionSpan::truncated`]; merging it with its full version is the
//! caller's job, since the full version may come later in the document.

mod features;
mod line;
mod model;
mod weights;

use std::borrow::Cow;
use std::sync::OnceLock;

pub use model::LineKind;

use crate::credit::CreditFound;
use crate::span::Span;
use line::{Label, Line};
use model::Weights;

/// One caption's place in the input.
#[derive(Debug, Clone, PartialEq)]
pub struct CaptionSpan {
    /// Byte range of the input from the caption's first line to its last
    /// (credit included): the caption as the document has it.
    pub span: Span,
    /// The caption's words, in reading order: one span when the caption is
    /// one stretch of the input, more when labels or a credit that stood
    /// before it are left out.
    pub parts: Vec<Span>,
    /// The caption ends in a truncation mark (`...more`, `…`).
    pub truncated: bool,
    /// For a caption of one line, the credit the segmenter read off that
    /// line's normalized words (or that it has none): [`crate::parse_span`]
    /// reuses it instead of scanning the same text again.
    pub(crate) credit_read: Option<Option<CreditFound>>,
    /// The last part is a credit that stood after a credit label (`Image
    /// copyright Jane Doe`) before the caption; the label is left out, so
    /// [`crate::parse_span`] reads those words as a labelled credit.
    pub(crate) labelled_credit: bool,
}

impl CaptionSpan {
    /// The caption's text: its stretch of the input when its parts are
    /// one, its parts joined by a space otherwise.
    pub fn text<'a>(&self, input: &'a str) -> Cow<'a, str> {
        if let [only] = self.parts.as_slice() {
            return Cow::Borrowed(only.of(input));
        }
        let joined: Vec<&str> = self.parts.iter().map(|p| p.of(input)).collect();
        Cow::Owned(joined.join(" "))
    }
}

/// Why a line got its kind: one line of `dateline parse --explain`.
#[derive(Debug, Clone, PartialEq)]
pub struct LineReport {
    /// The line in the input, without its break.
    pub line: Span,
    /// What the model made of it.
    pub kind: LineKind,
    /// The kind that scored next best on this line alone.
    pub runner_up: LineKind,
    /// The features that weighed most for `kind` over `runner_up`, with
    /// their margins.
    pub reasons: Vec<(String, f32)>,
}

/// Splits text into captions, with the fitted model.
pub fn segment(input: &str) -> Vec<CaptionSpan> {
    Model::embedded().segment(input)
}

/// [`segment`] for a piece of a longer text; `starts_inside_line` says it
/// begins inside a line the reader had to cut (a paragraph of hundreds of
/// kilobytes), so its first line is the rest of that line, text like the
/// line it was cut from, and never chrome.
pub fn segment_piece(input: &str, starts_inside_line: bool) -> Vec<CaptionSpan> {
    Model::embedded().split(input, starts_inside_line)
}

/// Every non-blank line's kind and the features that decided it.
pub fn explain(input: &str) -> Vec<LineReport> {
    Model::embedded().explain(input, false)
}

/// [`explain`] for a piece that [`segment_piece`] splits.
pub fn explain_piece(input: &str, starts_inside_line: bool) -> Vec<LineReport> {
    Model::embedded().explain(input, starts_inside_line)
}

/// A line this long is caption text whatever its features say.
const MIN_TEXT_LINE_BYTES: usize = 4096;

/// A page read for the model: its lines and their features.
struct Page {
    lines: Vec<Line>,
    /// Each line's credit, as its features read it.
    credits: Vec<Option<CreditFound>>,
    features: Vec<Vec<u16>>,
    gaps: Vec<bool>,
    possible: Vec<u8>,
    /// Which lines are place headings (`Kharkiv, Ukraine`).
    headings: Vec<bool>,
}

impl Page {
    /// `starts_inside_line`: the first line is the rest of a line of
    /// kilobytes (see [`segment_piece`]).
    fn read(input: &str, starts_inside_line: bool) -> Page {
        let lines = line::read_lines(input);
        let (props, credits) = features::props_of(input, &lines);
        let gaps: Vec<bool> = lines.iter().map(|l| l.blank_before).collect();
        let mut possible = lines
            .iter()
            .zip(&props)
            .enumerate()
            .map(|(i, (l, p))| {
                // No chrome is kilobytes long (captions are under 4 KB,
                // chrome under a hundred bytes): a line that long is kept
                // as text, never dropped.
                // A text of one line has no layout to read it in: what the
                // user gave is the caption.
                let alone = lines.len() == 1 && !l.content.is_empty();
                if l.content.len() >= MIN_TEXT_LINE_BYTES || (i == 0 && starts_inside_line) || alone
                {
                    return 1 << LineKind::CaptionStart.index()
                        | 1 << LineKind::CaptionContinuation.index();
                }
                let header = if is_slide_header(l, *p) {
                    model::SLIDE_HEADER
                } else {
                    0
                };
                header
                    | model::possible_kinds(
                        l.content.is_empty(),
                        p & (features::CREDIT_ONLY | features::CREDIT_LABEL) != 0,
                        p & features::CREDIT_LABEL != 0,
                    )
            })
            .collect::<Vec<u8>>();
        // A credit label straight above a caption label (`Image copyright
        // AFP` / `Image caption ...`) credits the picture whose caption
        // follows: the labels say the side, as a page's template does.
        for i in 1..possible.len() {
            if lines[i - 1].label == Label::Credit
                && lines[i].label == Label::Caption
                && possible[i - 1] & (1 << LineKind::CreditBefore.index()) != 0
            {
                possible[i - 1] &=
                    1 << LineKind::CreditBefore.index() | 1 << LineKind::Chrome.index();
            }
        }
        // A line cut short (`...more`) ends its caption: the next line
        // never carries it on.
        for i in 1..possible.len() {
            if props[i - 1] & features::TRUNCATED != 0 {
                possible[i] &= !(1 << LineKind::CaptionContinuation.index());
            }
        }
        let features = features::features(&props, &gaps);
        let headings = heading_lines(&props, &gaps);
        Page {
            lines,
            credits,
            features,
            gaps,
            possible,
            headings,
        }
    }
}

/// A slide counter (`3 of 29`) or a headline: what a slideshow may put
/// between a picture's credit and its caption.
fn is_slide_header(line: &Line, props: features::Props) -> bool {
    line.counter || props & features::HEADLINE != 0
}

/// Which lines head the caption below them: a place heading (`Kharkiv,
/// Ukraine`), or a date line straight above one (`Dec. 30, 2011` /
/// `Dhampus, Nepal`: a dateline on two lines of its own).
fn heading_lines(props: &[features::Props], gaps: &[bool]) -> Vec<bool> {
    const DATE_LINE: features::Props = features::DATE | features::YEAR | features::FEW_WORDS;
    let place_heading = |i: usize| {
        props
            .get(i)
            .is_some_and(|p| p & features::PLACE_HEADING != 0)
    };
    (0..props.len())
        .map(|i| {
            place_heading(i)
                || props[i] & DATE_LINE == DATE_LINE && place_heading(i + 1) && !gaps[i + 1]
        })
        .collect()
}

/// A line-kind model: the fitted one, or one fitted anew (`fit`).
#[derive(Debug, Clone)]
pub struct Model {
    weights: Weights,
}

impl Model {
    /// The model fitted by `cargo xtask fit-segment`.
    pub fn embedded() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| Model {
            weights: Weights {
                emit: if weights::EMIT.len() == features::N_FEATURES
                    && weights::FEATURES.len() == features::N_FEATURES
                {
                    Cow::Borrowed(weights::EMIT)
                } else {
                    // Weights of another feature set: the tests say so; a
                    // model that knows nothing keeps every line as chrome.
                    Weights::zero().emit
                },
                trans: weights::TRANS,
            },
        })
    }

    /// Each non-blank line's kind.
    pub fn kinds(&self, input: &str) -> Vec<LineKind> {
        self.read(input, false).1
    }

    /// The page read for the model, and its lines' kinds.
    fn read(&self, input: &str, starts_inside_line: bool) -> (Page, Vec<LineKind>) {
        let page = Page::read(input, starts_inside_line);
        let kinds = model::decode(&self.weights, &page.features, &page.gaps, &page.possible);
        (page, kinds)
    }

    /// Splits text into captions.
    pub fn segment(&self, input: &str) -> Vec<CaptionSpan> {
        self.split(input, false)
    }

    fn split(&self, input: &str, starts_inside_line: bool) -> Vec<CaptionSpan> {
        let (page, kinds) = self.read(input, starts_inside_line);
        assemble(input, &page.lines, page.credits, &page.headings, &kinds)
    }

    /// Every non-blank line's kind and why.
    /// `starts_inside_line` as for [`segment_piece`].
    pub fn explain(&self, input: &str, starts_inside_line: bool) -> Vec<LineReport> {
        let (page, kinds) = self.read(input, starts_inside_line);
        let mut reports: Vec<LineReport> = page
            .lines
            .iter()
            .zip(&kinds)
            .enumerate()
            .map(|(i, (line, &kind))| {
                let emission = self.weights.emission(&page.features[i]);
                let runner_up = LineKind::ALL
                    .into_iter()
                    .filter(|&k| k != kind)
                    .max_by(|a, b| emission[a.index()].total_cmp(&emission[b.index()]))
                    .unwrap_or(LineKind::Chrome);
                let reasons = model::reasons(&self.weights, &page.features[i], kind, runner_up)
                    .into_iter()
                    .map(|(f, margin)| (features::feature_name(f), margin))
                    .collect();
                LineReport {
                    line: line.span,
                    kind,
                    runner_up,
                    reasons,
                }
            })
            .collect();
        reports.extend(line::lone_labels(input).into_iter().map(|span| LineReport {
            line: span,
            kind: LineKind::Chrome,
            runner_up: LineKind::Chrome,
            reasons: vec![(
                "is a label alone on its line, which labels the line after it".to_string(),
                0.0,
            )],
        }));
        reports.sort_by_key(|r| r.line.start);
        reports
    }

    /// Fits a model to pages whose non-blank lines have known kinds
    /// (`pages[i].1[j]` is the kind of page `i`'s line `j`), over `epochs`
    /// passes.
    pub fn fit(pages: &[(&str, Vec<LineKind>)], epochs: usize) -> Model {
        let read: Vec<_> = pages
            .iter()
            .map(|(input, kinds)| {
                let page = Page::read(input, false);
                assert_eq!(page.lines.len(), kinds.len(), "one kind per non-blank line");
                (page.features, page.gaps, page.possible, kinds.clone())
            })
            .collect();
        Model {
            weights: model::fit(&read, epochs),
        }
    }

    /// The model as the Rust source of `weights.rs`.
    pub fn to_source(&self) -> String {
        let mut out = String::from(
            "//! The line-kind model's weights, fitted by `cargo xtask fit-segment`\n\
             //! on labelled pages (see that command); do not edit by hand.\n\n\
             use super::model::{EmitRow, Transitions};\n\n\
             /// The features the weights were fitted for, in index order.\n\
             pub(super) const FEATURES: &[&str] = &[\n",
        );
        for name in features::feature_names() {
            out.push_str(&format!("    {name:?},\n"));
        }
        out.push_str("];\n\n/// Per feature, a weight for each line kind.\n#[rustfmt::skip]\npub(super) const EMIT: &[EmitRow] = &[\n");
        for row in self.weights.emit.iter() {
            out.push_str(&format!("    [{}],\n", floats(row)));
        }
        out.push_str("];\n\n/// Weights of neighbouring kinds: `[previous (5: none)][kind][blank line between]`.\n#[rustfmt::skip]\npub(super) const TRANS: Transitions = [\n");
        for from in &self.weights.trans {
            out.push_str("    [");
            for to in from {
                out.push_str(&format!("[{}], ", floats(to)));
            }
            out.push_str("],\n");
        }
        out.push_str("];\n");
        out
    }
}

fn floats(values: &[f32]) -> String {
    values
        .iter()
        .map(|v| format!("{:.4}", if v.abs() < 5e-5 { 0.0 } else { *v }))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One non-blank line of a page, as labelling it needs: see [`label_lines`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelLine {
    /// The line's cleaned words (counters, tags, bullets and labels cut
    /// off), whitespace-normalized.
    pub words: String,
    /// The line is a credit and nothing else.
    pub credit_only: bool,
    /// The line is a slide counter (`3 of 29`) or a headline, which may
    /// stand between a credit and the caption below it.
    pub slide_header: bool,
    /// The line heads the caption below it (`Kharkiv, Ukraine`, or a date
    /// line above such a place): chrome to the model, joined to the
    /// caption below it by [`assemble`].
    pub heading: bool,
}

/// The non-blank lines of a page, in order, for labelling them from a
/// list of the page's captions (`cargo xtask fit-segment`).
pub fn label_lines(input: &str) -> Vec<LabelLine> {
    let lines = line::read_lines(input);
    let (props, _) = features::props_of(input, &lines);
    let gaps: Vec<bool> = lines.iter().map(|l| l.blank_before).collect();
    let headings = heading_lines(&props, &gaps);
    lines
        .iter()
        .zip(props)
        .zip(headings)
        .map(|((l, p), heading)| LabelLine {
            words: crate::text::normalize_whitespace(l.text(input)),
            credit_only: p & features::CREDIT_ONLY != 0,
            slide_header: is_slide_header(l, p),
            heading,
        })
        .collect()
}

/// Captions from lines and their kinds. `credits` are the lines' credits
/// as their features read them; a caption of one line keeps its own.
///
/// Text glued before a credit label on one line of input (`ALT TEXT Image
/// copyright AGENCY`) is the picture's alt text and opens the caption the
/// credit belongs to, whatever kind the model gave it: one record per
/// picture, and the alt text often is the agency's own caption, with the
/// date and place the rewritten caption leaves out.
///
/// A place heading (`Kharkiv, Ukraine`) that the model left out as chrome
/// and that stands right above a caption (a blank line between at most)
/// is that caption's first line: the page states the picture's place
/// there, and what a page states is never dropped. It stays chrome to the
/// model, whose features cannot tell it from a short headline as surely as
/// this shape and place can.
fn assemble(
    input: &str,
    lines: &[Line],
    mut credits: Vec<Option<CreditFound>>,
    headings: &[bool],
    kinds: &[LineKind],
) -> Vec<CaptionSpan> {
    let relabelled = credits_between_alt_and_caption(input, lines, kinds);
    let kinds: &[LineKind] = &relabelled;
    let mut out = Vec::new();
    let mut current: Option<Building> = None;
    // A credit line waiting for its caption below, and whether it had a
    // credit label.
    let mut credit_below: Option<(Span, bool)> = None;
    let mut alt_below: Option<&Line> = None;
    // Heading lines (a place, or a date and a place) waiting for the
    // caption below them.
    let mut heading_above: Vec<&Line> = Vec::new();
    for (i, (line, &kind)) in lines.iter().zip(kinds).enumerate() {
        let heading = std::mem::take(&mut heading_above);
        // `ALT TEXT Image copyright AGENCY` / `Image caption CAPTION`: the
        // words before a credit label on its own line of input are the
        // picture's alt text, the same picture as the caption below.
        // A labelled caption is no alt text (a flattened page runs the
        // next picture's credit on after it).
        let alt = (kinds.get(i + 1) == Some(&LineKind::CreditBefore)
            && !line.content.is_empty()
            && line.label != Label::Caption
            && !input[line.span.end..lines[i + 1].span.start].contains('\n'))
        .then_some(line);
        match (kind, alt) {
            (LineKind::Chrome | LineKind::CaptionStart, Some(alt)) => {
                finish(input, current.take(), &mut out);
                alt_below = Some(alt);
            }
            (LineKind::Chrome, None) => {
                finish(input, current.take(), &mut out);
                if headings[i] {
                    // A heading straight below another goes on with it.
                    if !line.blank_before {
                        heading_above = heading;
                    }
                    heading_above.push(line);
                } else if line.content.is_empty() {
                    heading_above = heading;
                }
            }
            (LineKind::CaptionStart, None) => {
                finish(input, current.take(), &mut out);
                let credit = credit_below.take();
                let mut caption = Building {
                    span: line.span,
                    parts: vec![line.content],
                    credit_read: credit.is_none().then(|| credits[i].take()),
                    credit: credit.map(|(span, _)| span),
                    labelled_credit: credit.is_some_and(|(_, labelled)| labelled),
                };
                let above_lines = alt_below
                    .take()
                    .into_iter()
                    .chain(heading.into_iter().rev());
                for above in above_lines {
                    caption.span.start = caption.span.start.min(above.span.start);
                    caption.parts.insert(0, above.content);
                    caption.credit_read = None;
                }
                current = Some(caption);
            }
            (LineKind::CaptionContinuation | LineKind::CreditAfter, _) => {
                if let Some(caption) = &mut current {
                    caption.push(input, line);
                }
            }
            (LineKind::CreditBefore, _) => {
                finish(input, current.take(), &mut out);
                credit_below = Some((line.content, line.label == line::Label::Credit));
            }
        }
    }
    finish(input, current, &mut out);
    out
}

/// The kinds with each labelled credit that stands between a picture's
/// alt text (on the same line of input) and a labelled caption (`ALT TEXT
/// Image copyright AGENCY` / `Image caption CAPTION`) made the credit of
/// the caption below: the page's own labels say the three are one
/// picture's, whichever side the model read the credit on.
fn credits_between_alt_and_caption<'k>(
    input: &str,
    lines: &[Line],
    kinds: &'k [LineKind],
) -> Cow<'k, [LineKind]> {
    let mut kinds = Cow::Borrowed(kinds);
    for i in 1..lines.len().saturating_sub(1) {
        let (alt, credit, caption) = (&lines[i - 1], &lines[i], &lines[i + 1]);
        if kinds[i] == LineKind::CreditAfter
            && credit.label == line::Label::Credit
            && caption.label == line::Label::Caption
            && kinds[i + 1].is_caption()
            && !alt.content.is_empty()
            && !input[alt.span.end..credit.span.start].contains('\n')
        {
            let kinds = kinds.to_mut();
            kinds[i] = LineKind::CreditBefore;
            kinds[i + 1] = LineKind::CaptionStart;
        }
    }
    kinds
}

/// A caption being put together.
struct Building {
    span: Span,
    parts: Vec<Span>,
    /// A credit that stood before the caption: it goes last.
    credit: Option<Span>,
    /// While the caption is its first line alone, that line's credit.
    credit_read: Option<Option<CreditFound>>,
    /// `credit` stood after a credit label.
    labelled_credit: bool,
}

impl Building {
    fn push(&mut self, input: &str, line: &Line) {
        self.span.end = line.span.end;
        self.credit_read = None;
        let last = self.parts.last_mut().expect("a caption has a first part");
        if input[last.end..line.content.start].trim().is_empty() {
            last.end = line.content.end;
        } else {
            self.parts.push(line.content);
        }
    }
}

fn finish(input: &str, caption: Option<Building>, out: &mut Vec<CaptionSpan>) {
    let Some(mut caption) = caption else { return };
    let truncated = caption
        .parts
        .last()
        .is_some_and(|p| crate::flags::is_truncated(p.of(input)));
    if let Some(credit) = caption.credit {
        caption.span = Span::new(
            caption.span.start.min(credit.start),
            caption.span.end.max(credit.end),
        );
        caption.parts.push(credit);
    }
    out.push(CaptionSpan {
        span: caption.span,
        parts: caption.parts,
        truncated,
        credit_read: caption.credit_read,
        labelled_credit: caption.labelled_credit,
    });
}

#[cfg(test)]
mod tests;
