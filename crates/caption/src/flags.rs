//! Verification flags, from the evidence the other extractors found.

use crate::credit::CreditFound;
use crate::date::DatesFound;
use crate::place::LocationFound;
use crate::record::Flag;
use crate::span::Span;

/// Everything the flags are decided from.
pub(crate) struct Evidence<'a> {
    pub text: &'a str,
    pub description: Span,
    pub credit: Option<&'a CreditFound>,
    pub dates: &'a DatesFound,
    pub location: &'a LocationFound,
}

/// The flags of one caption, in vocabulary order, each once.
pub(crate) fn collect(evidence: &Evidence<'_>) -> Vec<Flag> {
    let mut flags = Vec::new();
    if evidence.dates.weekday_mismatch {
        flags.push(Flag::WeekdayMismatch);
    }
    if evidence.credit.is_some_and(|c| c.handout) {
        flags.push(Flag::Handout);
    }
    if evidence.credit.is_some_and(|c| c.file) {
        flags.push(Flag::FilePhoto);
    }
    if evidence.credit.is_none() {
        flags.push(Flag::NoCredit);
    }
    if evidence.dates.created.is_none() {
        flags.push(Flag::NoDate);
    }
    if evidence.location.unresolved {
        flags.push(Flag::LocationUnresolved);
    }
    let _ = (evidence.text, evidence.description);
    flags.sort();
    flags.dedup();
    flags
}
