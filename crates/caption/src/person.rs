//! Named people in the description, with their ages.

use crate::credit::CreditFound;
use crate::record::Person;
use crate::span::Span;

/// Finds the people named in the description (not the credited photographers).
pub(crate) fn find_persons(_text: &str, _description: Span, _credit: &Option<CreditFound>) -> Vec<Person> {
    Vec::new()
}
