//! Readers of caption-bearing inputs and writers of records.
//!
//! Readers turn bytes into caption texts with their place in the document;
//! they never panic on bad input: undecodable bytes are replaced and reported
//! as warnings ([`text::Warning`], [`html::Warning`]), and input that is not
//! text at all is refused with an [`Error`].
//!
//! - [`text`]: plain text, blank-line separated paragraphs.
//! - [`html`]: saved web pages, recognised by content
//!   ([`html::looks_like_html`]); captions with their credit and image URL.
//!
//! ```
//! use formats::text::CaptionReader;
//! let mut reader = CaptionReader::new(&b"First caption.\n\nSecond\ncaption.\n"[..]).unwrap();
//! let batch = reader.next_batch(1 << 20).unwrap().unwrap();
//! assert_eq!(batch.len(), 2);
//! assert_eq!(batch[1].text, "Second\ncaption.");
//! assert_eq!(batch[1].offset, 16);
//! ```

pub mod html;
pub mod text;

/// What can go wrong while reading an input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The bytes are not text (an image, an archive, random bytes).
    #[error("not text: looks like {looks_like}; dateline reads captions from text, HTML pages and JPEG images")]
    NotText {
        /// What the bytes look like (`a JPEG image`, `binary data`).
        looks_like: &'static str,
    },
    /// Reading failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
