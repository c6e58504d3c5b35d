//! The credit line: where it stands, and who and what it credits.

use crate::record::Credit;
use crate::span::Span;

/// What the credit scanner found in a caption.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CreditFound {
    /// The record's credit (with `raw` and `span` filled).
    pub credit: Credit,
    /// Where the credit stands in the text.
    pub span: Span,
    /// The credit says Handout, or credits a non-agency source.
    pub handout: bool,
    /// The credit carries the `File` role word (`(AP Photo, File)`).
    pub file: bool,
}

/// Finds the caption's credit line, if any.
pub(crate) fn find_credit(_text: &str) -> Option<CreditFound> {
    None
}
