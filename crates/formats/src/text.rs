//! Plain-text input: bytes to captions (blank-line separated paragraphs),
//! streamed in bounded batches so memory does not grow with input size.

use std::io::{BufRead, BufReader, Chain, Cursor, Read};

use crate::Error;

/// A paragraph longer than this is handed on in pieces of at most this size
/// (cut at a space where possible), so one 30 MB line cannot hold 30 MB of
/// parser state. Real captions are under 4 KB; 256 KiB keeps any plausible
/// caption whole.
pub const MAX_CAPTION_BYTES: usize = 256 * 1024;

/// How many leading bytes are inspected to tell text from binary data.
const SNIFF_BYTES: usize = 8 * 1024;

/// One caption as read: its text (as in the input, not yet normalized) and
/// the byte offset where it starts in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawCaption {
    /// Caption text, with its inner line breaks.
    pub text: String,
    /// Byte offset of its first byte in the document.
    pub offset: u64,
    /// It starts inside a line: the piece before it was cut from the same
    /// oversize paragraph at a space, not at a line break.
    pub starts_inside_line: bool,
}

/// Something worth telling the user that did not stop reading. Displays
/// as a sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Warning {
    /// Bytes that are not UTF-8 were replaced with U+FFFD; `offset` is the
    /// first bad byte, `count` how many bad sequences the caption had.
    #[error("invalid UTF-8 at byte offset {offset} ({count} sequence(s) replaced with U+FFFD; caption kept)")]
    InvalidUtf8 {
        /// Byte offset in the document of the first invalid byte.
        offset: u64,
        /// Invalid sequences replaced in this caption.
        count: usize,
    },
    /// A paragraph over [`MAX_CAPTION_BYTES`] was cut into pieces.
    #[error(
        "paragraph at byte offset {offset} is over {MAX_CAPTION_BYTES} bytes; parsed in pieces"
    )]
    OversizeCaption {
        /// Byte offset in the document where the paragraph starts.
        offset: u64,
    },
}

/// Reads captions from plain text, batch by batch.
pub struct CaptionReader<R> {
    input: BufReader<Chain<Cursor<Vec<u8>>, R>>,
    /// Bytes consumed from the input so far.
    position: u64,
    /// The paragraph being gathered, and where it started.
    paragraph: Vec<u8>,
    paragraph_start: u64,
    /// The pending paragraph is the rest of an oversize one, cut inside a
    /// line.
    paragraph_inside_line: bool,
    oversize_reported: bool,
    warnings: Vec<Warning>,
    done: bool,
    /// In window mode, blank lines stay inside a piece until it holds this
    /// many bytes; 0 in paragraph mode.
    window_bytes: usize,
}

impl<R: Read> CaptionReader<R> {
    /// Wraps an input, refusing it at once when its first bytes are not text.
    pub fn new(input: R) -> Result<CaptionReader<R>, Error> {
        let mut input = input;
        let head = read_head(&mut input, SNIFF_BYTES)?;
        if let Some(looks_like) = sniff_binary(&head) {
            return Err(Error::NotText { looks_like });
        }
        Ok(CaptionReader {
            input: BufReader::with_capacity(64 * 1024, Cursor::new(head).chain(input)),
            position: 0,
            paragraph: Vec::new(),
            paragraph_start: 0,
            paragraph_inside_line: false,
            oversize_reported: false,
            warnings: Vec::new(),
            done: false,
            window_bytes: 0,
        })
    }

    /// Hands on windows of whole paragraphs instead of single paragraphs:
    /// blank lines stay inside a piece until it holds about `bytes`, and a
    /// piece ends only at a blank line (or at [`MAX_CAPTION_BYTES`]). A
    /// segmenter that reads a page's layout wants the lines around a
    /// paragraph: a credit after a blank line, a heading before it.
    pub fn windows(mut self, bytes: usize) -> CaptionReader<R> {
        self.window_bytes = bytes.min(MAX_CAPTION_BYTES);
        self
    }

    /// Warnings gathered since the last call.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// The next captions, about `max_bytes` of them at most (at least one when
    /// any remain); `None` at the end of input.
    pub fn next_batch(&mut self, max_bytes: usize) -> Result<Option<Vec<RawCaption>>, Error> {
        let mut batch = Vec::new();
        let mut batch_bytes = 0;
        while !self.done && (batch.is_empty() || batch_bytes < max_bytes) {
            if let Some(caption) = self.next_caption()? {
                batch_bytes += caption.text.len();
                batch.push(caption);
            }
        }
        Ok(if batch.is_empty() { None } else { Some(batch) })
    }

    /// Reads up to the next paragraph end; `None` when the line read did not
    /// finish a paragraph (or the input ended with none pending).
    fn next_caption(&mut self) -> Result<Option<RawCaption>, Error> {
        let (line_len, ended_line) = {
            let available = self.input.fill_buf()?;
            if available.is_empty() {
                self.done = true;
                return Ok(self.finish_paragraph());
            }
            match memchr::memchr(b'\n', available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            }
        };
        let at_line_start = self.paragraph_is_at_line_start();
        let available = self.input.fill_buf()?;
        let line = &available[..line_len];
        let blank = ended_line && at_line_start && line.iter().all(u8::is_ascii_whitespace);
        let mut out = None;
        let keep_gathering = !self.paragraph.is_empty() && self.paragraph.len() < self.window_bytes;
        if blank && !keep_gathering {
            out = self.finish_paragraph();
        } else {
            if self.paragraph.is_empty() {
                self.paragraph_start = self.position;
            }
            self.paragraph.extend_from_slice(line);
        }
        self.input.consume(line_len);
        self.position += line_len as u64;
        if out.is_none() && self.paragraph.len() > MAX_CAPTION_BYTES {
            out = self.split_oversize();
        }
        Ok(out)
    }

    /// A blank line only counts as a separator when it starts a line: the
    /// previous read ended with `\n` (or nothing is pending).
    fn paragraph_is_at_line_start(&self) -> bool {
        self.paragraph.last().is_none_or(|&b| b == b'\n')
    }

    fn finish_paragraph(&mut self) -> Option<RawCaption> {
        self.oversize_reported = false;
        let bytes = std::mem::take(&mut self.paragraph);
        let inside_line = std::mem::take(&mut self.paragraph_inside_line);
        self.decode(bytes, self.paragraph_start, inside_line)
    }

    /// Hands on the first [`MAX_CAPTION_BYTES`] of an oversize paragraph,
    /// cut after a space (or a character boundary), keeping the rest.
    fn split_oversize(&mut self) -> Option<RawCaption> {
        if !self.oversize_reported {
            self.warnings.push(Warning::OversizeCaption {
                offset: self.paragraph_start,
            });
            self.oversize_reported = true;
        }
        let limit = MAX_CAPTION_BYTES;
        let head = &self.paragraph[..limit];
        let cut = match memchr::memrchr2(b' ', b'\n', head) {
            Some(i) if i > limit / 2 => i + 1,
            _ => (0..=limit)
                .rev()
                .find(|&i| !is_utf8_continuation(self.paragraph[i]))
                .unwrap_or(limit),
        };
        let rest = self.paragraph.split_off(cut.max(1));
        let piece = std::mem::replace(&mut self.paragraph, rest);
        let start = self.paragraph_start;
        self.paragraph_start += piece.len() as u64;
        let piece_inside_line = std::mem::replace(
            &mut self.paragraph_inside_line,
            piece.last() != Some(&b'\n'),
        );
        self.decode(piece, start, piece_inside_line)
    }

    fn decode(
        &mut self,
        bytes: Vec<u8>,
        offset: u64,
        starts_inside_line: bool,
    ) -> Option<RawCaption> {
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => {
                let bytes = err.into_bytes();
                let (text, first_bad, count) = decode_lossy(&bytes);
                self.warnings.push(Warning::InvalidUtf8 {
                    offset: offset + first_bad as u64,
                    count,
                });
                text
            }
        };
        let trimmed_start = text.len() - text.trim_start().len();
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return None;
        }
        Some(RawCaption {
            text: trimmed.to_string(),
            offset: offset + trimmed_start as u64,
            starts_inside_line,
        })
    }
}

/// Lossy UTF-8 decoding that also says where the first bad byte was and how
/// many bad sequences were replaced.
fn decode_lossy(bytes: &[u8]) -> (String, usize, usize) {
    let mut text = String::with_capacity(bytes.len());
    let mut first_bad = None;
    let mut count = 0;
    let mut consumed = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        consumed += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            first_bad.get_or_insert(consumed);
            count += 1;
            text.push(char::REPLACEMENT_CHARACTER);
        }
        consumed += chunk.invalid().len();
    }
    (text, first_bad.unwrap_or(0), count)
}

fn is_utf8_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Reads up to `want` bytes (fewer only at the end of input).
pub(crate) fn read_head<R: Read>(input: &mut R, want: usize) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(want);
    input.take(want as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// What binary data the head of an input looks like, or `None` for text.
/// Text may be UTF-8 or a legacy 8-bit encoding; NUL bytes and control
/// characters other than whitespace and form feed never occur in it.
pub(crate) fn sniff_binary(head: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"\x89PNG", "a PNG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1F\x8B", "a gzip file"),
        (b"RIFF", "a RIFF (WebP/WAV/AVI) file"),
        (b"II*\0", "a TIFF image"),
        (b"MM\0*", "a TIFF image"),
        (b"\x7FELF", "an executable"),
    ];
    if let Some((_, what)) = MAGIC.iter().find(|(magic, _)| head.starts_with(magic)) {
        return Some(what);
    }
    if head.contains(&0) {
        return Some("binary data (NUL bytes)");
    }
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0C))
        .count();
    // A stray control byte happens in scraped text; random bytes have ~1 in 10.
    if controls * 100 > head.len().max(1) * 2 {
        return Some("binary data (control bytes)");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8]) -> (Vec<RawCaption>, Vec<Warning>) {
        let mut reader = CaptionReader::new(input).expect("text input");
        let mut out = Vec::new();
        while let Some(batch) = reader.next_batch(100).expect("reads") {
            out.extend(batch);
        }
        (out, reader.take_warnings())
    }

    #[test]
    fn paragraphs_with_offsets() {
        let (captions, warnings) = read_all(b"\n\nOne.\r\n\r\n  Two\nlines.\n \t\nThree.");
        let texts: Vec<_> = captions.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["One.", "Two\nlines.", "Three."]);
        assert_eq!(captions[1].offset, 12);
        assert!(warnings.is_empty());
    }

    #[test]
    fn windows_keep_blank_lines_and_end_at_one() {
        let input = b"One.\n\nTwo\nlines.\n\n\nThree.\n\nFour.";
        let mut reader = CaptionReader::new(&input[..]).expect("text").windows(12);
        let mut pieces = Vec::new();
        while let Some(batch) = reader.next_batch(1).expect("reads") {
            pieces.extend(batch);
        }
        let texts: Vec<_> = pieces.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["One.\n\nTwo\nlines.", "Three.\n\nFour."]);
        assert_eq!(pieces[1].offset, 19);
    }

    #[test]
    fn empty_input_gives_nothing() {
        assert!(read_all(b"").0.is_empty());
        assert!(read_all(b"\n \n\t\n").0.is_empty());
    }

    #[test]
    fn invalid_utf8_is_replaced_and_located() {
        let (captions, warnings) = read_all(b"First.\n\nA caf\xE9 in Paris \xFF.");
        assert_eq!(captions[1].text, "A caf\u{FFFD} in Paris \u{FFFD}.");
        assert_eq!(
            warnings,
            [Warning::InvalidUtf8 {
                offset: 13,
                count: 2
            }]
        );
    }

    #[test]
    fn binary_input_is_refused() {
        for (bytes, what) in [
            (&b"\xFF\xD8\xFF\xE0\0\x10JFIF"[..], "a JPEG image"),
            (&b"abc\0def"[..], "binary data (NUL bytes)"),
        ] {
            match CaptionReader::new(bytes) {
                Err(Error::NotText { looks_like }) => assert_eq!(looks_like, what),
                other => panic!("expected refusal, got {:?}", other.map(|_| ())),
            }
        }
    }

    #[test]
    fn huge_line_is_cut_into_bounded_pieces_and_loses_nothing() {
        let word = "word\u{e9} ";
        let line: String = word.repeat(MAX_CAPTION_BYTES / 3);
        let (captions, warnings) = read_all(line.as_bytes());
        assert!(captions.len() >= 2);
        assert!(captions.iter().all(|c| c.text.len() <= MAX_CAPTION_BYTES));
        let joined: String = captions
            .iter()
            .map(|c| c.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(joined, line.trim_end());
        assert_eq!(warnings, [Warning::OversizeCaption { offset: 0 }]);
        let inside: Vec<bool> = captions.iter().map(|c| c.starts_inside_line).collect();
        assert!(!inside[0] && inside[1..].iter().all(|&b| b), "{inside:?}");
    }

    #[test]
    fn pieces_cut_at_a_line_break_start_at_a_line() {
        let line = "A line of words that ends here.\n".repeat(MAX_CAPTION_BYTES / 16);
        let (captions, _) = read_all(line.as_bytes());
        assert!(captions.len() >= 2);
        assert!(captions.iter().all(|c| !c.starts_inside_line));
    }

    #[test]
    fn long_run_without_spaces_is_cut_on_char_boundaries() {
        let line = "\u{e9}".repeat(MAX_CAPTION_BYTES);
        let (captions, _) = read_all(line.as_bytes());
        let total: usize = captions.iter().map(|c| c.text.len()).sum();
        assert_eq!(total, line.len());
    }
}
