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
//! `resolve` (gazetteer candidates and context), `scene` (which mention is
//! the scene, and the location filled from it).

mod classify;
mod lexicon;
mod mention;
mod resolve;
mod scene;
#[cfg(test)]
mod tests;
mod tokens;

use gazetteer::Gazetteer;

use crate::record::Location;
use crate::span::Span;
use mention::find_mentions;
use resolve::{resolve_settlements, CountryHints};
use scene::choose_scene;
use tokens::tokenize_into;

/// What the place finder found.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct LocationFound {
    /// The location, `None` when the caption names no place.
    pub location: Option<Location>,
    /// A place finer than the province was stated but not resolved.
    pub unresolved: bool,
}

/// Finds the location of the scene in the description.
pub(crate) fn find_location(text: &str, description: Span, gazetteer: &Gazetteer) -> LocationFound {
    let hints = CountryHints {
        text,
        description,
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
        resolve_settlements(text, &mut mentions, gazetteer, &hints);
        if let Some(found) = choose_scene(text, &mentions, gazetteer) {
            return found;
        }
    }
    LocationFound::default()
}
