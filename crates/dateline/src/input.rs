//! Documents in, caption occurrences out: the one seam every command that
//! reads captions goes through (`parse`, `ingest`).
//!
//! A document's kind is recognised by its content, never by its file name:
//! a saved page may be called `.txt`, a photo may come on stdin. Each kind
//! yields [`Piece`]s in document order; [`records_of`] turns a piece into
//! parsed records with their place in the document.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::Context;
use caption::{CaptionRecord, Stated};
use formats::text::CaptionReader;
use gazetteer::Gazetteer;

/// Bytes read ahead to recognise a document's kind.
const SNIFF_BYTES: usize = 4096;

/// What a document is, told from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Plain text: blank-line separated captions or a scraped page.
    Text,
    /// A JPEG image: one caption in its IPTC-IIM / XMP metadata.
    Jpeg,
    /// An HTML page: captions in its markup and JSON-LD.
    Html,
}

impl Kind {
    /// Recognises a document from its first bytes (up to [`SNIFF_BYTES`]).
    pub fn sniff(prefix: &[u8]) -> Kind {
        if prefix.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Kind::Jpeg
        } else if formats::html::looks_like_html(prefix) {
            Kind::Html
        } else {
            Kind::Text
        }
    }
}

/// Text is segmented in windows of about this many bytes of whole
/// paragraphs: enough for a gallery page's layout (a credit after a blank
/// line, teasers at the top whose full captions come further down), small
/// enough to spread a large file over the parsing threads.
const WINDOW_BYTES: usize = 64 * 1024;

/// A part of a document to parse.
#[derive(Debug, Clone)]
pub struct Piece {
    /// Byte offset in the document where the piece starts.
    pub offset: u64,
    /// Its text, as in the document.
    pub text: String,
    /// What the piece is.
    pub form: Form,
}

/// How a piece holds its captions.
#[derive(Debug, Clone)]
pub enum Form {
    /// A window of text (whole paragraphs): zero, one or several captions
    /// between page chrome, found by `caption::segment`.
    Paragraph {
        /// The window begins inside a line the reader cut (an oversize
        /// paragraph), so its first line is text whatever it looks like.
        starts_inside_line: bool,
    },
    /// Exactly one caption, with what the input states beside it.
    Caption {
        /// The image it belongs to, when the document names one.
        image_url: Option<String>,
        /// Fields stated explicitly (IPTC/XMP, JSON-LD).
        stated: Box<Stated>,
    },
}

/// One caption found in a document, parsed.
#[derive(Debug, Clone)]
pub struct Occurrence {
    /// Where the caption stands in its piece's text, exactly as the
    /// document has it (`span.of(&piece.text)`); the document offset is
    /// `piece.offset + span.start`.
    pub span: caption::Span,
    /// The caption ends in a truncation mark (`...more`, `…`).
    pub truncated: bool,
    /// Its record.
    pub record: CaptionRecord,
}

/// Parses a piece into its captions' records, in document order.
pub fn records_of(piece: &Piece, gazetteer: &Gazetteer) -> Vec<Occurrence> {
    match &piece.form {
        Form::Paragraph { starts_inside_line } => {
            caption::segment_piece(&piece.text, *starts_inside_line)
                .into_iter()
                .map(|found| Occurrence {
                    span: found.span,
                    truncated: found.truncated,
                    record: caption::parse_span(&piece.text, found, gazetteer),
                })
                .collect()
        }
        Form::Caption { image_url, stated } => {
            let mut record = caption::parse(&piece.text, gazetteer);
            caption::apply_stated(&mut record, stated, gazetteer);
            record.image_url.clone_from(image_url);
            let truncated = caption::strip_truncation_mark(&record.text).is_some();
            vec![Occurrence {
                span: caption::Span::new(0, piece.text.len()),
                truncated,
                record,
            }]
        }
    }
}

/// Where pieces go, a batch at a time.
pub type SendPieces<'a> = dyn FnMut(Vec<Piece>) -> anyhow::Result<()> + 'a;

/// The inputs a command reads, each with the name messages give it:
/// the files in order, or stdin (`None`, named `<stdin>`) when there are
/// none.
pub fn named_inputs(files: &[PathBuf]) -> Vec<(Option<&Path>, String)> {
    if files.is_empty() {
        return vec![(None, "<stdin>".to_string())];
    }
    files
        .iter()
        .map(|p| (Some(p.as_path()), p.display().to_string()))
        .collect()
}

/// Opens one input: the file at `path`, or stdin when it is `None`.
pub fn open(path: Option<&Path>, name: &str) -> anyhow::Result<Box<dyn Read>> {
    Ok(match path {
        Some(path) => Box::new(File::open(path).with_context(|| format!("opening {name}"))?),
        None => Box::new(io::stdin().lock()),
    })
}

/// Reads one document and sends its pieces in batches of about
/// `batch_bytes`. `path` names the file a JPEG's record points to.
/// Warnings (undecodable bytes) go to `warn` as messages naming the
/// document. Returns the document's kind.
pub fn read_document(
    mut input: impl Read,
    path: Option<&Path>,
    name: &str,
    batch_bytes: usize,
    send: &mut SendPieces<'_>,
    warn: &mut dyn FnMut(String),
) -> anyhow::Result<Kind> {
    let mut prefix = Vec::with_capacity(SNIFF_BYTES);
    (&mut input)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut prefix)
        .with_context(|| format!("reading {name}"))?;
    let kind = Kind::sniff(&prefix);
    let input = io::Cursor::new(prefix).chain(input);
    match kind {
        Kind::Text => read_text(input, name, batch_bytes, send, warn)?,
        Kind::Jpeg => read_jpeg(input, path, name, send, warn)?,
        Kind::Html => read_html(input, name, send, warn)?,
    }
    Ok(kind)
}

fn read_text(
    input: impl Read,
    name: &str,
    batch_bytes: usize,
    send: &mut SendPieces<'_>,
    warn: &mut dyn FnMut(String),
) -> anyhow::Result<()> {
    let mut reader = CaptionReader::new(input)
        .with_context(|| format!("reading {name}"))?
        .windows(WINDOW_BYTES);
    loop {
        let batch = reader
            .next_batch(batch_bytes)
            .with_context(|| format!("reading {name}"))?;
        for warning in reader.take_warnings() {
            warn(format!("{name}: {warning}"));
        }
        let Some(paragraphs) = batch else {
            return Ok(());
        };
        send(
            paragraphs
                .into_iter()
                .map(|raw| Piece {
                    offset: raw.offset,
                    text: raw.text,
                    form: Form::Paragraph {
                        starts_inside_line: raw.starts_inside_line,
                    },
                })
                .collect(),
        )?;
    }
}

/// A JPEG's caption with the fields its metadata states; the image data is
/// never read. `image_url` is the file's path as given.
fn read_jpeg(
    input: impl Read,
    path: Option<&Path>,
    name: &str,
    send: &mut SendPieces<'_>,
    warn: &mut dyn FnMut(String),
) -> anyhow::Result<()> {
    let found = photometa::read_jpeg(io::BufReader::new(input))
        .with_context(|| format!("reading the metadata of {name}"))?;
    for warning in &found.warnings {
        warn(format!("{name}: {warning}"));
    }
    let image_url = path.map(|p| p.display().to_string());
    let Some(piece) = crate::photo::caption_piece(&found.merged, image_url) else {
        warn(format!(
            "{name}: the image has no caption (IPTC Caption-Abstract or XMP Description); skipped"
        ));
        return Ok(());
    };
    send(vec![piece])
}

/// A page's captions, each with its image URL and the fields its JSON-LD
/// states.
fn read_html(
    input: impl Read,
    name: &str,
    send: &mut SendPieces<'_>,
    warn: &mut dyn FnMut(String),
) -> anyhow::Result<()> {
    let page = formats::html::read_html(input).with_context(|| format!("reading {name}"))?;
    for warning in &page.warnings {
        warn(format!("{name}: {warning}"));
    }
    send(
        page.captions
            .into_iter()
            .map(|found| Piece {
                offset: found.offset,
                form: Form::Caption {
                    image_url: found.image_url,
                    stated: Box::new(stated_of_page(&found.stated)),
                },
                text: found.text,
            })
            .collect(),
    )
}

/// What a page's JSON-LD states, for [`caption::apply_stated`]: the parts
/// of the place's `address` when it has one, else its name read as
/// `City, Country` or `City, Province, Country`; a two-letter country is a
/// code. A copyright holder is the source (an agency there counts as an
/// agency).
fn stated_of_page(page: &formats::html::Stated) -> Stated {
    let parts: Vec<&str> = page
        .content_location
        .as_deref()
        .map(|l| {
            l.split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let has_address = page.address_locality.is_some()
        || page.address_region.is_some()
        || page.address_country.is_some();
    let (city, province, country) = if has_address {
        (
            page.address_locality.clone(),
            page.address_region.clone(),
            page.address_country.clone(),
        )
    } else {
        match parts.as_slice() {
            [] => (None, None, None),
            [city] => (Some(city.to_string()), None, None),
            [city, country] => (Some(city.to_string()), None, Some(country.to_string())),
            [city, .., province, country] => (
                Some(city.to_string()),
                Some(province.to_string()),
                Some(country.to_string()),
            ),
        }
    };
    let is_code = |c: &String| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase());
    let (country, country_code) = match country {
        Some(code) if is_code(&code) => (None, Some(code)),
        other => (other, None),
    };
    Stated {
        creators: page.creators.clone(),
        credit_line: page.credit_text.clone(),
        source: page.copyright_holder.clone(),
        date_created: page.date_created.clone(),
        city,
        province,
        country,
        country_code,
        ..Stated::default()
    }
}
