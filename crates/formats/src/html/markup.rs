//! What markup means: the content sniff, element and class-name classes,
//! which alt texts are captions, and the bounded text buffer captions are
//! gathered in.

use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

use super::MAX_CAPTION_BYTES;

/// See [`super::looks_like_html`].
pub(super) fn looks_like_html(prefix: &[u8]) -> bool {
    const STARTS: &[&[u8]] = &[
        b"!doctype html",
        b"html",
        b"head",
        b"body",
        b"meta",
        b"title",
        b"figure",
        b"link",
        b"base",
        b"article",
    ];
    let mut rest = prefix.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(prefix);
    loop {
        rest = rest.trim_ascii_start();
        if let Some(after) = rest.strip_prefix(b"<!--") {
            match memchr::memmem::find(after, b"-->") {
                Some(end) => rest = &after[end + 3..],
                // A comment running past the prefix: a saved page's header.
                None => return true,
            }
        } else if let Some(after) = rest.strip_prefix(b"<?xml") {
            match memchr::memmem::find(after, b"?>") {
                Some(end) => rest = &after[end + 2..],
                None => return false,
            }
        } else {
            break;
        }
    }
    let Some(tag) = rest.strip_prefix(b"<") else {
        return false;
    };
    STARTS.iter().any(|start| {
        tag.len() >= start.len()
            && tag[..start.len()].eq_ignore_ascii_case(start)
            && tag
                .get(start.len())
                .is_none_or(|&b| b == b'>' || b == b'/' || b.is_ascii_whitespace())
    })
}

/// The label a `<meta charset=…>` or `<meta http-equiv content="…;
/// charset=…">` in `head` declares, lowercased.
pub(super) fn declared_charset(head: &[u8]) -> Option<String> {
    let mut from = 0;
    while let Some(found) = find_ignore_case(&head[from..], b"charset") {
        let at = from + found;
        from = at + 7;
        // Only inside a <meta> tag.
        let tag_start = memchr::memrchr(b'<', &head[..at])?;
        if memchr::memchr(b'>', &head[tag_start..at]).is_some()
            || !head[tag_start + 1..]
                .get(..4)
                .is_some_and(|name| name.eq_ignore_ascii_case(b"meta"))
        {
            continue;
        }
        let rest = head[from..].trim_ascii_start();
        let Some(rest) = rest.strip_prefix(b"=") else {
            continue;
        };
        let rest = rest.trim_ascii_start();
        let rest = rest
            .strip_prefix(b"\"")
            .or_else(|| rest.strip_prefix(b"'"))
            .unwrap_or(rest);
        let len = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
            .count();
        if len > 0 {
            return Some(String::from_utf8_lossy(&rest[..len]).to_ascii_lowercase());
        }
    }
    None
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// The WHATWG Encoding Standard's labels of UTF-8.
pub(super) fn is_utf8(label: &str) -> bool {
    matches!(
        label,
        "utf-8"
            | "utf8"
            | "unicode-1-1-utf-8"
            | "unicode11utf8"
            | "unicode20utf8"
            | "x-unicode20utf8"
    )
}

/// The WHATWG Encoding Standard's labels of windows-1252 (browsers decode
/// ISO-8859-1 and ASCII pages with it).
pub(super) fn is_windows_1252(label: &str) -> bool {
    matches!(
        label,
        "windows-1252"
            | "cp1252"
            | "x-cp1252"
            | "iso-8859-1"
            | "iso8859-1"
            | "iso88591"
            | "iso_8859-1"
            | "iso_8859-1:1987"
            | "latin1"
            | "l1"
            | "us-ascii"
            | "ascii"
            | "ansi_x3.4-1968"
            | "cp819"
            | "csisolatin1"
            | "ibm819"
            | "iso-ir-100"
    )
}

/// windows-1252 bytes as text; 0x80–0x9F per the WHATWG index, the rest
/// as Latin-1.
pub(super) fn decode_windows_1252(bytes: &[u8]) -> StrTendril {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    let text: String = bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => HIGH[usize::from(b - 0x80)],
            _ => char::from(b),
        })
        .collect();
    StrTendril::from(text)
}

/// Elements whose boundaries do not separate words.
pub(super) fn is_inline(name: &str) -> bool {
    matches!(
        name,
        "a" | "abbr"
            | "b"
            | "bdi"
            | "bdo"
            | "cite"
            | "code"
            | "data"
            | "dfn"
            | "em"
            | "font"
            | "i"
            | "kbd"
            | "mark"
            | "q"
            | "s"
            | "samp"
            | "small"
            | "span"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "u"
            | "var"
            | "wbr"
    )
}

/// Elements that have no end tag.
pub(super) fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "image"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Elements whose content is never caption text.
pub(super) fn is_chrome(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "noscript"
            | "template"
            | "svg"
            | "math"
            | "nav"
            | "button"
            | "select"
            | "textarea"
            | "iframe"
            | "object"
            | "title"
            | "xmp"
            | "noembed"
            | "noframes"
            | "plaintext"
            | "dialog"
    )
}

/// A start tag of these closes an open `<p>` (HTML5's "close a p element").
pub(super) fn closes_p(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "figure"
            | "figcaption"
            | "ul"
            | "ol"
            | "dl"
            | "table"
            | "section"
            | "article"
            | "aside"
            | "header"
            | "footer"
            | "nav"
            | "main"
            | "blockquote"
            | "pre"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "hr"
            | "address"
            | "details"
            | "fieldset"
    )
}

/// What an element's class names say it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClassRole {
    /// A caption (`caption`, `wp-caption-text`, `slide-caption`, `cutline`).
    Caption,
    /// A credit (`credit`, `photo-credit`, `photographer`, `copyright`).
    Credit,
    /// A byline: a credit inside or right after a caption, the article's
    /// author elsewhere.
    Byline,
}

/// The role of a `class` attribute's value, if any: each class name is cut
/// into words at `-` and `_`; credit words win over caption words, and
/// controls (`caption-toggle`, `caption-close`) are neither.
pub(super) fn class_role(class: &str) -> Option<ClassRole> {
    let mut role = None;
    for name in class.split_ascii_whitespace() {
        let mut caption = false;
        let mut credit = false;
        let mut byline = false;
        for word in name.split(['-', '_']) {
            let is = |w: &str| word.eq_ignore_ascii_case(w);
            if is("caption") || is("figcaption") || is("cutline") || is("captiontext") {
                caption = true;
            } else if is("credit")
                || is("credits")
                || is("photographer")
                || is("copyright")
                || is("photocredit")
            {
                credit = true;
            } else if is("byline") {
                byline = true;
            } else if [
                "toggle", "btn", "button", "icon", "close", "count", "counter", "expand",
            ]
            .iter()
            .any(|w| is(w))
            {
                return None;
            }
        }
        let this = if credit {
            Some(ClassRole::Credit)
        } else if byline {
            Some(ClassRole::Byline)
        } else if caption {
            Some(ClassRole::Caption)
        } else {
            None
        };
        role = match (role, this) {
            (Some(ClassRole::Credit), _) | (_, None) => role,
            (_, Some(new)) => Some(new),
        };
    }
    role
}

/// Whether an alt, title or JSON-LD name reads as a caption: three words
/// or more, 15 characters or more, not a file name.
pub(super) fn is_descriptive(text: &str) -> bool {
    let words = text.split_whitespace().count();
    if words < 3 || text.len() < 15 {
        return false;
    }
    let lower = text.trim_end().to_ascii_lowercase();
    let file_like = [
        ".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".tif", ".tiff",
    ]
    .iter()
    .any(|ext| lower.ends_with(ext))
        && words < 4;
    !file_like
}

/// A width or height attribute that makes an image an icon or a pixel.
pub(super) fn is_tiny(size: &str) -> bool {
    let digits: String = size
        .trim()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse::<u32>().is_ok_and(|n| n <= 32)
}

/// Caption text as it is gathered: whitespace collapsed on the way in,
/// capped at [`MAX_CAPTION_BYTES`].
#[derive(Debug, Default)]
pub(super) struct TextBuf {
    text: String,
    space: bool,
    full: bool,
}

impl TextBuf {
    /// Appends text; true when this call hit the cap.
    pub(super) fn push(&mut self, piece: &str) -> bool {
        if self.full {
            return false;
        }
        for c in piece.chars() {
            if c.is_whitespace() {
                self.space = true;
                continue;
            }
            if self.text.len() + c.len_utf8() + 1 > MAX_CAPTION_BYTES {
                self.full = true;
                return true;
            }
            if self.space && !self.text.is_empty() {
                self.text.push(' ');
            }
            self.space = false;
            self.text.push(c);
        }
        false
    }

    /// Ends a word: the next text starts after a space.
    pub(super) fn word_break(&mut self) {
        self.space = true;
    }

    pub(super) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    pub(super) fn into_string(self) -> String {
        self.text
    }
}

/// Whether text holds HTML markup (an end tag or a `<br>`), not just a
/// stray `<`.
pub(super) fn has_markup(text: &str) -> bool {
    text.contains("</")
        || text
            .as_bytes()
            .windows(3)
            .any(|w| w.eq_ignore_ascii_case(b"<br"))
}

/// Whether text holds a character reference (`&amp;`, `&#8217;`).
pub(super) fn has_entity(text: &str) -> bool {
    text.match_indices('&').any(|(i, _)| {
        let rest = &text.as_bytes()[i + 1..];
        let name = rest
            .iter()
            .take(12)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
            .count();
        name > 0 && rest.get(name) == Some(&b';')
    })
}

/// The text of an HTML fragment (a JSON-LD caption written with `&amp;` or
/// `<p>`), whitespace-normalized and capped.
pub(super) fn fragment_text(fragment: &str) -> String {
    if !fragment.contains(['&', '<']) {
        let mut buf = TextBuf::default();
        buf.push(fragment);
        return buf.into_string();
    }
    struct Collect(RefCell<TextBuf>);
    impl TokenSink for Collect {
        type Handle = ();
        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            match token {
                Token::CharacterTokens(text) => {
                    self.0.borrow_mut().push(&text);
                }
                Token::TagToken(tag) if !is_inline(&tag.name) => {
                    self.0.borrow_mut().word_break();
                }
                _ => {}
            }
            TokenSinkResult::Continue
        }
    }
    let tokenizer = Tokenizer::new(Collect(RefCell::default()), TokenizerOpts::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(fragment));
    let _ = tokenizer.feed(&queue);
    tokenizer.end();
    tokenizer.sink.0.take().into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_pages_not_captions() {
        for page in [
            &b"<!DOCTYPE html><html>"[..],
            b"\xEF\xBB\xBF  \n<html lang=\"en\">",
            b"<!-- saved from url=(0042)https://news.example/ -->\n<html>",
            b"<?xml version=\"1.0\"?>\n<!DOCTYPE html PUBLIC>",
            b"<meta charset=utf-8><figure>",
            b"<FIGURE class=x>",
            b"<head>",
            b"<body>",
        ] {
            assert!(looks_like_html(page), "{}", String::from_utf8_lossy(page));
        }
        for text in [
            &b"GAZA CITY, May 2 (Reuters) - Boys play."[..],
            b"<b>bold</b> caption",
            b"<htmlx>",
            b"",
            b"\xFF\xD8\xFF",
        ] {
            assert!(!looks_like_html(text), "{}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn declared_charsets() {
        let label = |head: &[u8]| declared_charset(head);
        assert_eq!(
            label(b"<meta charset=\"ISO-8859-1\">").as_deref(),
            Some("iso-8859-1")
        );
        assert_eq!(
            label(
                b"<head><META http-equiv=Content-Type content='text/html; charset=windows-1251'>"
            )
            .as_deref(),
            Some("windows-1251")
        );
        assert_eq!(label(b"<p>charset=utf-8 in text</p>"), None);
        assert_eq!(label(b"<meta name=x><p>charset=latin1"), None);
        assert!(is_windows_1252("latin1") && !is_windows_1252("windows-1251"));
        assert_eq!(
            &*decode_windows_1252(b"Caf\xE9 \x93quoted\x94 \x80 5"),
            "Caf\u{e9} \u{201c}quoted\u{201d} \u{20ac} 5"
        );
    }

    #[test]
    fn class_roles() {
        assert_eq!(class_role("wp-caption-text"), Some(ClassRole::Caption));
        assert_eq!(
            class_role("slide__caption is-active"),
            Some(ClassRole::Caption)
        );
        assert_eq!(class_role("caption-credit"), Some(ClassRole::Credit));
        assert_eq!(class_role("caption photo-credit"), Some(ClassRole::Credit));
        assert_eq!(class_role("byline"), Some(ClassRole::Byline));
        assert_eq!(class_role("caption-toggle"), None);
        assert_eq!(class_role("captions gallery"), None);
        assert_eq!(class_role(""), None);
    }

    #[test]
    fn descriptive_alt_texts() {
        assert!(is_descriptive("Boys play football on a beach"));
        assert!(!is_descriptive("photo"));
        assert!(!is_descriptive("Reuters logo"));
        assert!(!is_descriptive("IMG 0042 copy.jpg"));
        assert!(!is_descriptive("a b c"));
    }

    #[test]
    fn text_buffer_collapses_and_caps() {
        let mut buf = TextBuf::default();
        buf.push("  Boys\n\tplay ");
        buf.word_break();
        buf.push("football\u{a0}.");
        assert_eq!(buf.into_string(), "Boys play football .");
        let mut buf = TextBuf::default();
        assert!(buf.push(&"word ".repeat(MAX_CAPTION_BYTES)));
        assert!(buf.into_string().len() <= MAX_CAPTION_BYTES);
    }

    #[test]
    fn fragments_lose_tags_and_entities() {
        assert_eq!(
            fragment_text("<p>Smoke &amp; dust rise</p><p>over Aleppo&#8217;s roofs</p>"),
            "Smoke & dust rise over Aleppo\u{2019}s roofs"
        );
        assert_eq!(fragment_text(" plain  text "), "plain text");
    }
}
