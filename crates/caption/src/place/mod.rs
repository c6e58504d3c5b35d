//! Where the photo was taken: the scene's place names, resolved against the
//! gazetteer.
//!
//! The finder works on the scene sentence (the first sentence that names a
//! place) in four steps:
//! 1. [`tokenize`] into words and punctuation with byte spans;
//! 2. [`find_mentions`]: capitalized phrases, each with the cue before it
//!    (`in`, `near`, `town of`, `N km north of`…) and the head word after or
//!    inside it (`province`, `air base`, `district`…), sorted into countries,
//!    provinces, sublocations and settlement candidates;
//! 3. resolve settlement candidates against the gazetteer, using the
//!    countries and provinces named in the caption as context;
//! 4. choose the scene: the settlement with the strongest cue (`in`/`at` over
//!    `of` over bare over `from`/`over`), the later one on a tie (captions
//!    name the background first: "who fled X ... in Y"); a reference place
//!    (`near X`, `N km north of X`) lends its id when the settlement it
//!    locates is not in the gazetteer, and is the city when nothing finer is
//!    named (RECORD.md "Reference places").
//!
//! Decisions where RECORD.md leaves room:
//! - `X neighbourhood/district/quarter of Y` gives sublocation X and city Y
//!   (the scorer accepts either reading; this one keeps facets on the city).
//! - An unresolved name led by a terrain word (`Jabal`, `Mount`, `Wadi`) is a
//!   sublocation, not a city.
//! - Ids and coordinates come from settlements only: a province or country
//!   alone leaves `geonames_id` null.

//!
//! Files: `tokens` (words with spans), `lexicon` (word lists), `mention`
//! (phrases and their cues), `classify` (what kind of place a phrase is),
//! `resolve` (gazetteer candidates and context), `score` (the scoring
//! model and its fitted `weights`), `scene` (which mention is the scene,
//! and the location filled from it).

mod classify;
mod lexicon;
mod mention;
mod resolve;
mod scene;
mod score;
#[cfg(test)]
mod tests;
mod tokens;
mod weights;

use gazetteer::{CountryCode, Gazetteer, GeonameId};

use crate::record::Location;
use crate::span::Span;
use mention::find_mentions;
use resolve::{resolve_settlements, CountryHints};
use scene::choose_scene;
use tokens::tokenize_into;

pub(crate) use lexicon::DEMONYMS;
pub use score::{Features, Weights, FEATURES, FEATURE_NAMES, HINT_MAX_POPULATION_RATIO};

/// What the place finder found.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct LocationFound {
    /// The location, `None` when the caption names no place.
    pub location: Option<Location>,
    /// A place finer than the province was stated but not resolved.
    pub unresolved: bool,
}

/// One gazetteer candidate as the resolver scored it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredCandidate {
    /// GeoNames id.
    pub id: GeonameId,
    /// The GeoNames main name.
    pub name: String,
    /// Country of the candidate.
    pub country: CountryCode,
    /// First-level division code `CC.NN`.
    pub admin1_code: Option<String>,
    /// Population as GeoNames states it.
    pub population: u32,
    /// What the model saw.
    pub features: Features,
    /// The model's score (higher is better).
    pub score: f64,
}

/// The candidates of one place mention, best first: the first is the one
/// the resolver took (before the scene was chosen among mentions).
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateList {
    /// The name as the caption writes it.
    pub mention: String,
    /// The countries the candidates were held to (empty: none stated).
    pub countries: Vec<CountryCode>,
    /// Every candidate that fit, best first.
    pub candidates: Vec<ScoredCandidate>,
}

/// Finds the location of the scene in the description. `credit_source`
/// is the source the credit names (`Syrian Observatory for Human Rights`):
/// a local provider hints at the country, where an agency never does.
pub(crate) fn find_location(
    text: &str,
    description: Span,
    credit_source: Option<&str>,
    gazetteer: &Gazetteer,
) -> LocationFound {
    find_location_traced(text, description, credit_source, gazetteer, &mut None)
}

/// [`find_location`], keeping every scored candidate list in `trace` when
/// it is `Some` (for `--explain` and for fitting the weights).
pub(crate) fn find_location_traced(
    text: &str,
    description: Span,
    credit_source: Option<&str>,
    gazetteer: &Gazetteer,
    trace: &mut Option<Vec<CandidateList>>,
) -> LocationFound {
    let hints = CountryHints {
        text,
        description,
        credit_source,
        gazetteer,
        countries: std::cell::OnceCell::new(),
    };
    // Sentences are tokenized one at a time: the scene is nearly always in
    // the first, and the background sentences after it are never read.
    // Room for a long sentence up front: growing from empty cost three
    // reallocations a caption.
    let mut sentence = Vec::with_capacity(64);
    let mut at = description.start;
    while at < description.end {
        sentence.clear();
        at = tokenize_into(text, Span::new(at, description.end), true, &mut sentence);
        if sentence.is_empty() {
            continue;
        }
        let mut mentions = find_mentions(text, &sentence, gazetteer);
        if !mentions.iter().any(|m| m.is_place()) {
            continue;
        }
        resolve_settlements(text, &mut mentions, gazetteer, &hints, trace);
        if let Some(found) = choose_scene(text, &mentions, gazetteer) {
            return found;
        }
    }
    LocationFound::default()
}

/// The weights the resolver scores with.
pub(crate) fn stored_weights() -> Weights {
    score::WEIGHTS
}
