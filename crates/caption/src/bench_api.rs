//! Crate-private scanners exposed for the benches only; not a stable API.

use crate::record::PartialDate;
use crate::span::Span;

/// Where the credit finder places the credit of `text` (whitespace-normalized).
pub fn find_credit(text: &str) -> Option<Span> {
    crate::credit::find_credit(text).map(|found| found.span)
}

/// The date taken that the date finder reads in `description` of `text`.
pub fn find_dates(text: &str, description: Span) -> Option<PartialDate> {
    crate::date::find_dates(text, description).created
}

/// The GeoNames id of the scene place the resolver picks in `description`
/// of `text` (whitespace-normalized), with no credit source to hint at it.
pub fn find_place(text: &str, description: Span, gazetteer: &gazetteer::Gazetteer) -> Option<u32> {
    crate::place::find_location(text, description, None, gazetteer)
        .location
        .and_then(|location| location.geonames_id)
}
