//! Named organizations in the description.

use crate::credit::CreditFound;
use crate::span::Span;

/// Finds the organizations named in the description.
pub(crate) fn find_organizations(_text: &str, _description: Span, _credit: &Option<CreditFound>) -> Vec<String> {
    Vec::new()
}
