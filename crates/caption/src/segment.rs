//! Splitting input text into captions.

use crate::span::Span;

/// One caption's place in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptionSpan {
    /// Byte range of the caption in the input.
    pub span: Span,
}

/// Splits text into captions: blank-line separated paragraphs.
pub fn segment(input: &str) -> Vec<CaptionSpan> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut offset = 0;
    for line in input.split_inclusive('\n') {
        let content_len = line.trim_end_matches(['\n', '\r']).len();
        if line.trim().is_empty() {
            if let Some(s) = start.take() {
                out.push(CaptionSpan {
                    span: Span::new(s, end),
                });
            }
        } else {
            if start.is_none() {
                start = Some(offset);
            }
            end = offset + content_len;
        }
        offset += line.len();
    }
    if let Some(s) = start {
        out.push(CaptionSpan {
            span: Span::new(s, end),
        });
    }
    out
}
