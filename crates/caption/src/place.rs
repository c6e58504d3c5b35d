//! Where the photo was taken: the scene's place names, resolved against the
//! gazetteer.

use gazetteer::Gazetteer;

use crate::record::Location;
use crate::span::Span;

/// What the place finder found.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct LocationFound {
    /// The location, `None` when the caption names no place.
    pub location: Option<Location>,
    /// A place finer than the province was stated but not resolved.
    pub unresolved: bool,
}

/// Finds the location of the scene in the description.
pub(crate) fn find_location(_text: &str, _description: Span, _gazetteer: &Gazetteer) -> LocationFound {
    LocationFound::default()
}
