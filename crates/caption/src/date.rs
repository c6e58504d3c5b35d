//! Calendar dates in wire styles, their roles, and the date taken.

use crate::record::{DateMention, PartialDate};
use crate::span::Span;

/// What the date scanner found.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct DatesFound {
    /// Every date, in text order.
    pub mentions: Vec<DateMention>,
    /// The date taken.
    pub created: Option<PartialDate>,
    /// A stated weekday disagrees with its date.
    pub weekday_mismatch: bool,
}

/// Scans the description part of `text` for dates.
pub(crate) fn find_dates(_text: &str, _description: Span) -> DatesFound {
    DatesFound::default()
}
