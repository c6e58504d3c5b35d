//! HTML input: saved gallery and news pages to caption texts, each with its
//! credit and the URL of the image it belongs to.
//!
//! ```
//! let page = br#"<!doctype html><figure><img src="/p/1.jpg" alt="x">
//!   <figcaption>Boys play football in Gaza City, May 2, 2016.
//!   <span class="credit">Jane Roe/Reuters</span></figcaption></figure>"#;
//! assert!(formats::html::looks_like_html(page));
//! let found = formats::html::read_html(&page[..]).unwrap();
//! let caption = &found.captions[0];
//! assert_eq!(caption.text, "Boys play football in Gaza City, May 2, 2016. Jane Roe/Reuters");
//! assert_eq!(caption.credit.as_deref(), Some("Jane Roe/Reuters"));
//! assert_eq!(caption.image_url.as_deref(), Some("/p/1.jpg"));
//! ```
//!
//! # Design
//!
//! - **Parser.** html5ever's tokenizer, without its tree builder: the page is
//!   fed in chunks and never held whole, and there is no DOM and no
//!   recursion, so a 50 MB page or 100,000 nested `<div>`s read in bounded
//!   memory. (A DOM crate such as `scraper` would be simpler to query, but
//!   its memory grows with the page.) The tokenizer does the HTML5 work that
//!   matters here: entities (`&amp;`, `&#8217;`, `&nbsp;`), attribute
//!   quoting, comments, raw-text elements, broken markup.
//! - **Structure without a DOM.** The reader keeps its own stack of open
//!   elements, at most [`MAX_DEPTH`] deep (deeper elements are counted, not
//!   kept, and a [`Warning::DeepNesting`] is given); end tags close up to the
//!   matching open element, a new `<p>` or block closes an open `<p>`, a new
//!   `<li>` an open `<li>`, and whatever is still open at the end of the page
//!   is closed there, so an unclosed figure still yields its caption.
//! - **One caption per picture.** A *picture group* is a `<figure>` or an
//!   element with a `data-caption` attribute (slideshows, lightbox links).
//!   Its caption is, in order of preference, its `figcaption` (or
//!   caption-class element), its `data-caption`, its image's `alt`, then its
//!   `title`; only one is emitted. Outside groups, a caption-class element
//!   takes the image just before it (and that image's alt is dropped), and
//!   an image with a descriptive alt and no caption stands on its own.
//! - **Credits.** A credit-class element (`credit`, `byline`, `photographer`,
//!   `copyright` in a class name) or a `<small>`/`<cite>` inside a caption or
//!   group is that caption's credit; one right after a caption (no other
//!   text between) or right before it is joined too. The credit is appended
//!   to the caption text after a space unless the text already holds it, and
//!   is also given alone in [`PageCaption::credit`].
//! - **Chrome.** Text in `script`, `style`, `noscript`, `template`, `svg`,
//!   `math`, `nav`, `button`, `select`, `iframe`, `title`, and in `header`,
//!   `footer` or ARIA navigation/banner/contentinfo roles outside an
//!   `article`/`main`, is never a caption. Tiny images (a width or height
//!   of 32 or less: icons, tracking pixels) are ignored.
//! - **Alt and title text** is a caption only when it has at least three
//!   words and 15 characters and is not a file name: "photo", "image",
//!   "IMG_0042.jpg" and logos are not captions.
//! - **JSON-LD.** `application/ld+json` scripts are parsed with serde_json;
//!   every `ImageObject` (at any depth: `@graph`, arrays,
//!   `NewsArticle.image`) gives its `caption` (else `description`), image
//!   URL and [`Stated`] fields. One that is the same picture as a caption of
//!   the markup (same image file, same text, or one text a teaser of the
//!   other, see below) is merged into it; the others become captions of
//!   their own. Malformed JSON is a warning.
//! - **Teasers.** A thumbnail's `alt` or teaser text that is a picture's
//!   caption without its credit, or cut at a fixed length with `...`/`…`,
//!   and that picture's full caption are one caption: the full one (the
//!   rules are in `html/same.rs`). Two full captions with the same text
//!   stay two pictures.
//! - **OpenGraph.** `og:description` (with `og:image`) is a caption only
//!   on a page with no caption of its own: on the others it either repeats
//!   a caption (a cut-short copy counts; its `og:image` then fills that
//!   caption's missing image) or sums up the article.
//! - **Attribute text** (`alt`, `data-caption`) is read as HTML again only
//!   when it holds markup (`</`, `<br>`), as lightbox scripts would show
//!   it; a credit written `<Jane Roe/Reuters>` stays text.
//! - **Image URLs** are as written, resolved against `<base href>` when the
//!   page has one; lazy-loading attributes (`data-src`, `data-lazy-src`,
//!   `data-original`, the first `srcset` candidate) are used when `src` is
//!   missing or a placeholder; `data:` URLs are dropped.
//! - **Text** is whitespace-normalized; element boundaries other than inline
//!   ones (`a`, `span`, `em`…) and `<br>` separate words. A caption longer
//!   than [`MAX_CAPTION_BYTES`] is cut there, with a warning.
//! - **Bytes.** The input is UTF-8 (a BOM is dropped); invalid bytes are
//!   replaced with U+FFFD and reported once with the first bad offset and a
//!   count. A page whose `<meta charset>` (in its first 8 KiB) declares
//!   windows-1252 or one of its aliases (`iso-8859-1`, `latin1`, `ascii`:
//!   the same decoder for browsers) has each run between two `<` that is
//!   not valid UTF-8 decoded as windows-1252 (pages saved in UTF-8 keep a
//!   stale declaration often enough). Other legacy encodings are not
//!   decoded: [`Warning::UnsupportedEncoding`], then as UTF-8. Binary input
//!   is refused like the text reader refuses it ([`Error::NotText`]).
//! - **Memory.** Bounded by the chunk size, the element stack, the caption
//!   cap and one JSON-LD script ([`MAX_JSONLD_BYTES`]), plus the captions
//!   found. A single tag, comment or attribute larger than
//!   [`MAX_TOKEN_BYTES`] (a runaway comment, a page cut inside a tag) ends
//!   the reading with [`Warning::Stopped`] and the captions found so far.
//! - **Offsets** are byte offsets into the input, of the start tag of the
//!   element the caption came from (the `figcaption`, the `img`, the
//!   `script` holding the JSON-LD, the `meta`).

use std::io::Read;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};

use crate::text::{read_head, sniff_binary, MAX_CAPTION_BYTES};
use crate::Error;

mod collect;
mod jsonld;
mod markup;
mod same;
mod url;

/// Elements nested deeper than this are not tracked one by one (Blink's
/// HTML parser stops nesting at the same depth).
pub const MAX_DEPTH: usize = 512;

/// A JSON-LD script over this size is skipped with a warning.
pub const MAX_JSONLD_BYTES: usize = 4 * 1024 * 1024;

/// A single tag, comment or doctype over this size stops the reading. Large
/// enough for inline `data:` images of a saved page.
pub const MAX_TOKEN_BYTES: usize = 32 * 1024 * 1024;

/// How many bytes are read from the input at a time.
const CHUNK_BYTES: usize = 64 * 1024;

/// How many leading bytes [`looks_like_html`] needs to decide.
pub const SNIFF_BYTES: usize = 1024;

/// Where a caption's text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Origin {
    /// A `<figcaption>` (or a caption-class element inside a `<figure>`).
    Figcaption,
    /// An image's `alt` text.
    ImgAlt,
    /// An image's `title` text.
    ImgTitle,
    /// A JSON-LD `ImageObject`'s `caption` or `description`.
    JsonLd,
    /// The page's `og:description`.
    OpenGraph,
    /// Gallery markup: a caption-class element or a `data-caption` attribute.
    Gallery,
}

/// Fields a page states in machine-readable form (JSON-LD) for a picture,
/// as written; empty when the page states none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stated {
    /// `creator` (or `author`) names, in order.
    pub creators: Vec<String>,
    /// `creditText`.
    pub credit_text: Option<String>,
    /// `copyrightHolder` name.
    pub copyright_holder: Option<String>,
    /// `copyrightNotice`.
    pub copyright_notice: Option<String>,
    /// `dateCreated`, as written (usually ISO 8601).
    pub date_created: Option<String>,
    /// `contentLocation` name (or its text when it is a plain string).
    pub content_location: Option<String>,
    /// The parts of `contentLocation`'s `address` (a schema.org
    /// `PostalAddress`), as written: `addressLocality`.
    pub address_locality: Option<String>,
    /// `addressRegion`.
    pub address_region: Option<String>,
    /// `addressCountry` (a name or an ISO 3166 code, as the page writes it).
    pub address_country: Option<String>,
}

impl Stated {
    /// True when the page states nothing.
    pub fn is_empty(&self) -> bool {
        *self == Stated::default()
    }

    /// Fills the fields this one lacks from `other`.
    fn fill_from(&mut self, other: &Stated) {
        if self.creators.is_empty() {
            self.creators.clone_from(&other.creators);
        }
        for (mine, theirs) in [
            (&mut self.credit_text, &other.credit_text),
            (&mut self.copyright_holder, &other.copyright_holder),
            (&mut self.copyright_notice, &other.copyright_notice),
            (&mut self.date_created, &other.date_created),
            (&mut self.content_location, &other.content_location),
            (&mut self.address_locality, &other.address_locality),
            (&mut self.address_region, &other.address_region),
            (&mut self.address_country, &other.address_country),
        ] {
            if mine.is_none() {
                mine.clone_from(theirs);
            }
        }
    }
}

/// One caption found in a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageCaption {
    /// The caption, whitespace-normalized, with its credit appended after a
    /// space when the caption did not already hold it: what
    /// `caption::parse` expects.
    pub text: String,
    /// The credit the page marks as belonging to the caption (a credit
    /// element, or JSON-LD `creditText`), when it has one.
    pub credit: Option<String>,
    /// The image's URL, as written or resolved against `<base href>`.
    pub image_url: Option<String>,
    /// Byte offset in the input of the start tag the caption came from.
    pub offset: u64,
    /// Which markup the caption came from.
    pub origin: Origin,
    /// Fields the page states for the picture in JSON-LD.
    pub stated: Stated,
}

/// Something worth telling the user that did not stop reading, or stopped
/// it early with a partial result. Displays as a sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Warning {
    /// Bytes that are not UTF-8 were replaced with U+FFFD: `offset` is the
    /// first bad byte, `count` how many bad sequences the page had.
    #[error("invalid UTF-8 at byte offset {offset} ({count} sequence(s) replaced with U+FFFD; captions kept)")]
    InvalidUtf8 {
        /// Byte offset of the first invalid byte.
        offset: u64,
        /// Invalid sequences replaced in the whole page.
        count: usize,
    },
    /// A caption over [`MAX_CAPTION_BYTES`] was cut there.
    #[error("caption at byte offset {offset} is over {MAX_CAPTION_BYTES} bytes; cut there")]
    OversizeCaption {
        /// Offset of the caption's element.
        offset: u64,
    },
    /// A JSON-LD script could not be read and was skipped.
    #[error("JSON-LD at byte offset {offset} skipped: {reason}")]
    BadJsonLd {
        /// Offset of the `<script>` tag.
        offset: u64,
        /// What was wrong.
        reason: String,
    },
    /// Elements nest deeper than [`MAX_DEPTH`]; those deeper are read as
    /// if flat (their text still counts, their structure does not).
    #[error("elements nest deeper than {MAX_DEPTH} from byte offset {offset}; read as flat")]
    DeepNesting {
        /// Offset of the first element past the limit.
        offset: u64,
    },
    /// The page declares an encoding this reader does not decode (it reads
    /// UTF-8 and windows-1252); non-ASCII text comes out as U+FFFD.
    #[error(
        "declares the encoding {label}, which is not decoded; its non-ASCII bytes read as U+FFFD"
    )]
    UnsupportedEncoding {
        /// The declared label, lowercased (`windows-1251`, `shift_jis`).
        label: String,
    },
    /// Reading stopped early; the captions found before are returned.
    #[error(
        "reading stopped at byte offset {offset} ({reason}); the captions found before are kept"
    )]
    Stopped {
        /// Offset where reading stopped.
        offset: u64,
        /// Why.
        reason: &'static str,
    },
}

/// What a page yields: its captions in document order, and warnings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HtmlCaptions {
    /// The captions, ordered by offset.
    pub captions: Vec<PageCaption>,
    /// Warnings, in the order they arose (at most a few of each kind).
    pub warnings: Vec<Warning>,
}

/// True when the bytes start like an HTML document: after a BOM,
/// whitespace, comments (a browser's `<!-- saved from url=… -->`) and an
/// XML declaration, a doctype or one of the tags a page or fragment starts
/// with (`<html`, `<head`, `<body`, `<meta`, `<title`, `<figure`…). Give it
/// the first [`SNIFF_BYTES`] bytes or more.
pub fn looks_like_html(prefix: &[u8]) -> bool {
    markup::looks_like_html(prefix)
}

/// Reads a page and returns its captions. Input that is not text at all is
/// refused with [`Error::NotText`]; anything else gives captions (perhaps
/// none) and warnings, never a panic.
pub fn read_html<R: Read>(reader: R) -> Result<HtmlCaptions, Error> {
    let mut reader = reader;
    let head = read_head(&mut reader, 8 * 1024)?;
    if let Some(looks_like) = sniff_binary(&head) {
        return Err(Error::NotText { looks_like });
    }
    let mut feeder = Feeder::new();
    match markup::declared_charset(&head) {
        Some(label) if markup::is_windows_1252(&label) => feeder.windows_1252 = true,
        Some(label) if !markup::is_utf8(&label) => feeder
            .tokenizer
            .sink
            .warn(Warning::UnsupportedEncoding { label }),
        _ => {}
    }
    let mut pending = head;
    let mut eof = false;
    loop {
        if !eof {
            let before = pending.len();
            pending.reserve(CHUNK_BYTES);
            (&mut reader)
                .take(CHUNK_BYTES as u64)
                .read_to_end(&mut pending)?;
            eof = pending.len() == before;
        }
        let end = if eof {
            pending.len()
        } else {
            feed_end(&pending)
        };
        if end > 0 && !feeder.feed(&pending[..end]) {
            break;
        }
        pending.drain(..end);
        if eof {
            feeder.end();
            break;
        }
    }
    Ok(feeder.finish())
}

/// How much of `pending` can be fed now: up to its last `<` (so each fed
/// piece ends where a tag may start), or, in a long run without `<`, up to
/// a character boundary.
fn feed_end(pending: &[u8]) -> usize {
    match memchr::memrchr(b'<', pending) {
        Some(i) if i > 0 => i,
        _ if pending.len() >= CHUNK_BYTES => {
            let mut cut = pending.len();
            // Back up over an incomplete multi-byte sequence.
            for back in 1..=3.min(cut) {
                let byte = pending[cut - back];
                if byte & 0xC0 == 0xC0 {
                    cut -= back;
                    break;
                }
                if byte & 0x80 == 0 {
                    break;
                }
            }
            cut
        }
        _ => 0,
    }
}

/// Feeds bytes to the tokenizer one piece per `<`, so each tag's offset is
/// known, and watches for runaway tokens.
struct Feeder {
    tokenizer: Tokenizer<collect::Sink>,
    queue: BufferQueue,
    /// Offset of the next byte to feed.
    position: u64,
    /// Bytes fed since the sink last received a token.
    since_token: usize,
    tokens_seen: u64,
    bad_utf8: Option<(u64, usize)>,
    /// Runs that are not UTF-8 are windows-1252.
    windows_1252: bool,
    stopped: bool,
}

impl Feeder {
    fn new() -> Feeder {
        let opts = TokenizerOpts {
            discard_bom: true,
            ..TokenizerOpts::default()
        };
        Feeder {
            tokenizer: Tokenizer::new(collect::Sink::default(), opts),
            queue: BufferQueue::default(),
            position: 0,
            since_token: 0,
            tokens_seen: 0,
            bad_utf8: None,
            windows_1252: false,
            stopped: false,
        }
    }

    /// Feeds `bytes`; false when reading must stop.
    fn feed(&mut self, bytes: &[u8]) -> bool {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                let whole = StrTendril::from_slice(text);
                let mut start = 0;
                for end in memchr::memchr_iter(b'<', bytes).chain([bytes.len()]) {
                    if end > start {
                        let piece = whole.subtendril(start as u32, (end - start) as u32);
                        if !self.feed_piece(piece, end - start) {
                            return false;
                        }
                    }
                    start = end;
                }
            }
            Err(_) => {
                let mut start = 0;
                for end in memchr::memchr_iter(b'<', bytes).chain([bytes.len()]) {
                    if end > start {
                        let bytes = &bytes[start..end];
                        let piece = match std::str::from_utf8(bytes) {
                            Ok(text) => StrTendril::from_slice(text),
                            Err(_) if self.windows_1252 => markup::decode_windows_1252(bytes),
                            Err(_) => self.decode_lossy(bytes),
                        };
                        if !self.feed_piece(piece, end - start) {
                            return false;
                        }
                    }
                    start = end;
                }
            }
        }
        true
    }

    fn decode_lossy(&mut self, bytes: &[u8]) -> StrTendril {
        let mut text = String::with_capacity(bytes.len() + 8);
        let mut consumed = 0;
        for chunk in bytes.utf8_chunks() {
            text.push_str(chunk.valid());
            consumed += chunk.valid().len();
            if !chunk.invalid().is_empty() {
                let at = self.position + consumed as u64;
                let (_, count) = self.bad_utf8.get_or_insert((at, 0));
                *count += 1;
                text.push(char::REPLACEMENT_CHARACTER);
            }
            consumed += chunk.invalid().len();
        }
        StrTendril::from(text)
    }

    fn feed_piece(&mut self, piece: StrTendril, len: usize) -> bool {
        let sink = &self.tokenizer.sink;
        sink.piece_fed(self.position);
        self.queue.push_back(piece);
        let _ = self.tokenizer.feed(&self.queue);
        self.position += len as u64;
        let tokens = self.tokenizer.sink.tokens();
        if tokens == self.tokens_seen {
            self.since_token += len;
            if self.since_token > MAX_TOKEN_BYTES {
                self.stopped = true;
                self.tokenizer.sink.warn(Warning::Stopped {
                    offset: self.position,
                    reason: "a single tag or comment is larger than 32 MiB",
                });
                return false;
            }
        } else {
            self.tokens_seen = tokens;
            self.since_token = 0;
        }
        true
    }

    fn end(&mut self) {
        if !self.stopped {
            self.tokenizer.sink.piece_fed(self.position);
            self.tokenizer.end();
        }
    }

    fn finish(self) -> HtmlCaptions {
        let mut found = self.tokenizer.sink.finish();
        if let Some((offset, count)) = self.bad_utf8 {
            // First but for the declared encoding that explains it.
            let at = usize::from(matches!(
                found.warnings.first(),
                Some(Warning::UnsupportedEncoding { .. })
            ));
            found
                .warnings
                .insert(at, Warning::InvalidUtf8 { offset, count });
        }
        found
    }
}

#[cfg(test)]
mod tests;
