//! Caption extraction: split text into captions and turn each caption into a
//! [`CaptionRecord`] (the contract of `shared/spec/RECORD.md`).
//!
//! The crate is pure: no files, network, clock, environment or threads.
//! Parsing never fails; what cannot be found becomes `null`, `[]` or a flag.
//!
//! ```
//! let gazetteer = gazetteer::Gazetteer::builder().build();
//! let record = caption::parse(
//!     "Men walk in a street, May 2, 2016. REUTERS/Jane Doe",
//!     &gazetteer,
//! );
//! assert_eq!(record.credit.creators, ["Jane Doe"]);
//! assert_eq!(record.date_created.map(|d| d.to_string()).as_deref(), Some("2016-05-02"));
//! ```

#[doc(hidden)]
pub mod bench_api;
mod credit;
mod date;
mod flags;
mod json;
mod name;
mod org;
mod person;
mod place;
mod record;
mod segment;
mod span;
mod stated;
mod swar;
mod text;
mod word_table;

pub use flags::strip_truncation_mark;
pub use place::{
    CandidateList, Features as PlaceFeatures, ScoredCandidate, Weights as PlaceWeights,
    FEATURES as PLACE_FEATURES, FEATURE_NAMES as PLACE_FEATURE_NAMES, HINT_MAX_POPULATION_RATIO,
};
pub use record::{
    BadDate, CaptionRecord, Conflict, Credit, DateMention, DateRole, Flag, Location, PartialDate,
    Person,
};
pub use segment::{
    explain, explain_piece, label_lines, segment, segment_piece, CaptionSpan, LabelLine, LineKind,
    LineReport, Model,
};
pub use span::Span;
pub use stated::{apply_stated, Stated};
pub use text::normalize_whitespace;

use gazetteer::Gazetteer;

/// Parses one caption into its record. `caption` may hold any whitespace; the
/// record's `text` is its whitespace-normalized form and every span points
/// into that.
pub fn parse(caption: &str, gazetteer: &Gazetteer) -> CaptionRecord {
    let text = normalize_whitespace(caption);
    let credit_found = credit::find_credit(&text);
    parse_normalized(text, credit_found, gazetteer)
}

/// [`parse`] for a caption that [`segment`] or [`segment_piece`] found in
/// `input`: the same record, without reading the credit of a one-line
/// caption a second time (the segmenter read it to tell credits from
/// captions).
pub fn parse_span(input: &str, found: CaptionSpan, gazetteer: &Gazetteer) -> CaptionRecord {
    let text = normalize_whitespace(&found.text(input));
    let credit_found = match found.credit_read {
        Some(read) => read,
        None => credit::find_credit(&text).or_else(|| {
            // The labelled credit is the caption's last part, so its words
            // end the normalized text.
            let credit = found.parts.last().filter(|_| found.labelled_credit)?;
            let words = normalize_whitespace(credit.of(input));
            let start = text.strip_suffix(words.as_str())?.len();
            credit::find_labelled_credit(&text, start)
        }),
    };
    parse_normalized(text, credit_found, gazetteer)
}

/// The record of whitespace-normalized `text` whose credit is `credit_found`.
fn parse_normalized(
    text: String,
    credit_found: Option<credit::CreditFound>,
    gazetteer: &Gazetteer,
) -> CaptionRecord {
    let id = text::caption_id(&text);
    let description_span = description_span_of(&text, credit_found.as_ref());
    let description = text::description_text(&text, credit_found.as_ref().map(|c| c.span));
    let dates = date::find_dates(&text, description_span);
    let credit_source = credit_source_of(credit_found.as_ref());
    let location = place::find_location(&text, description_span, credit_source, gazetteer);
    // Persons and organizations share one tokenization of the description.
    let words = name::Words::new(&text, description_span);
    let org_mentions = org::mentions(&words);
    let persons = person::persons_in(&words, &org_mentions, &credit_found);
    let organizations = org::names(&words, &org_mentions);
    let flags = flags::collect(&flags::Evidence {
        text: &text,
        description: description_span,
        credit: credit_found.as_ref(),
        dates: &dates,
        location: &location,
    });
    let credit = credit_found.map(|c| c.credit).unwrap_or_default();
    CaptionRecord {
        id,
        description,
        credit,
        date_created: dates.created,
        dates: dates.mentions,
        location: location.location,
        persons,
        organizations,
        flags,
        text,
        image_url: None,
        conflicts: Vec::new(),
        stated: None,
    }
}

/// Every place candidate list the resolver scored for `caption`, in the
/// order it met them: what `dateline parse --explain` shows as "why this
/// place", and what `cargo xtask fit-place` fits the weights on.
pub fn place_candidates(caption: &str, gazetteer: &Gazetteer) -> Vec<CandidateList> {
    let text = normalize_whitespace(caption);
    let credit_found = credit::find_credit(&text);
    let description_span = description_span_of(&text, credit_found.as_ref());
    let mut trace = Some(Vec::new());
    let credit_source = credit_source_of(credit_found.as_ref());
    place::find_location_traced(
        &text,
        description_span,
        credit_source,
        gazetteer,
        &mut trace,
    );
    trace.unwrap_or_default()
}

/// The caption's description: everything but its credit.
fn description_span_of(text: &str, credit_found: Option<&credit::CreditFound>) -> Span {
    credit_found
        .map(|c| text::description_span(text, c.span))
        .unwrap_or(Span::new(0, text.len()))
}

/// The source the credit names, which hints at the country (agencies never).
fn credit_source_of(credit_found: Option<&credit::CreditFound>) -> Option<&str> {
    credit_found.and_then(|c| c.credit.source.as_deref())
}

/// The place model's stored weights.
pub fn place_weights() -> PlaceWeights {
    place::stored_weights()
}

#[cfg(test)]
mod tests;
