//! The token sink: follows the page's structure on its own bounded stack of
//! open elements and gathers captions, credits and images as tags close.
//!
//! Three kinds of *context* hold what is being gathered, innermost last:
//! a picture group (`figure`, `data-caption`), a caption element
//! (`figcaption`, caption class) and a credit element. Text goes to the
//! innermost credit and caption contexts, up to the nearest group; an image
//! goes to the innermost caption or group. Outside every context the reader
//! remembers the last free image, the last orphan credit and the caption
//! just emitted (the *credit window*), so a caption, its image and its
//! credit written as siblings still come out as one.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::mem::discriminant;

use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::LocalName;

use super::jsonld::{self, LdImage};
use super::markup::{
    class_role, closes_p, fragment_text, has_markup, is_chrome, is_descriptive, is_inline, is_tiny,
    is_void, ClassRole, TextBuf,
};
use super::same;
use super::url::{first_of_srcset, image_key, is_placeholder, resolve};
use super::{HtmlCaptions, Origin, PageCaption, Stated, Warning, MAX_DEPTH, MAX_JSONLD_BYTES};

/// At most this many warnings of one kind are kept.
const MAX_WARNINGS_PER_KIND: usize = 8;

/// Free text (outside any caption) after an image, in bytes, past which a
/// caption that follows is no longer taken to be that image's.
const MAX_TEXT_BETWEEN_IMAGE_AND_CAPTION: usize = 200;

/// Receives the tokenizer's tokens; the reader sets where each fed piece
/// starts, so tags get byte offsets.
#[derive(Default)]
pub(super) struct Sink {
    /// Start of the first piece fed since the last token.
    piece_start: Cell<Option<u64>>,
    last_start: Cell<u64>,
    tokens: Cell<u64>,
    collector: RefCell<Collector>,
}

impl Sink {
    /// A piece starting at `offset` is about to be fed.
    pub(super) fn piece_fed(&self, offset: u64) {
        if self.piece_start.get().is_none() {
            self.piece_start.set(Some(offset));
        }
    }

    /// Tokens received so far.
    pub(super) fn tokens(&self) -> u64 {
        self.tokens.get()
    }

    pub(super) fn warn(&self, warning: Warning) {
        self.collector.borrow_mut().warn(warning);
    }

    /// Closes what is still open and returns what the page yielded.
    pub(super) fn finish(&self) -> HtmlCaptions {
        self.collector.take().finish()
    }
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if matches!(token, Token::ParseError(_)) {
            // Errors come inside comments and tags too: no sign of progress.
            return TokenSinkResult::Continue;
        }
        self.tokens.set(self.tokens.get() + 1);
        let offset = match self.piece_start.take() {
            Some(start) => {
                self.last_start.set(start);
                start
            }
            None => self.last_start.get(),
        };
        let mut collector = self.collector.borrow_mut();
        match token {
            Token::TagToken(tag) => match tag.kind {
                TagKind::StartTag => return collector.start_tag(&tag, offset),
                TagKind::EndTag => collector.end_tag(&tag.name),
            },
            Token::CharacterTokens(text) => collector.text(&text),
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

/// What an open element means to the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Separates words, nothing more.
    Block,
    /// Does not even separate words.
    Inline,
    /// Its content is never caption text.
    Skip,
    /// A JSON-LD script.
    LdJson,
    /// `article` or `main`: headers and footers inside are content.
    Article,
    /// Opened a context.
    Context,
}

struct Open {
    name: LocalName,
    kind: Kind,
}

#[derive(Debug, Default)]
struct Group {
    offset: u64,
    image: Option<String>,
    /// The first descriptive alt (or title) inside, with its offset.
    alt: Option<(String, u64, Origin)>,
    /// Caption elements inside, joined.
    caption: Option<(String, u64, Origin)>,
    credit: Option<String>,
    /// `data-caption`.
    attr_caption: Option<String>,
    /// Holds a blockquote, table or code: a figure that is no picture.
    not_picture: bool,
}

#[derive(Debug)]
struct CaptionCtx {
    offset: u64,
    origin: Origin,
    text: TextBuf,
    credit: Option<String>,
    image: Option<String>,
}

#[derive(Debug)]
struct CreditCtx {
    offset: u64,
    text: TextBuf,
    byline: bool,
}

#[derive(Debug)]
enum Ctx {
    Group(Group),
    Caption(CaptionCtx),
    Credit(CreditCtx),
}

/// An image outside any context, waiting for a caption that follows it.
#[derive(Debug)]
struct FreeImage {
    url: Option<String>,
    alt: Option<(String, Origin)>,
    offset: u64,
    credit: Option<String>,
    text_after: usize,
}

/// A caption as found, before JSON-LD merging and URL resolution.
#[derive(Debug)]
struct Found {
    text: String,
    credit: Option<String>,
    image: Option<String>,
    offset: u64,
    origin: Origin,
    stated: Stated,
}

struct Script {
    offset: u64,
    text: String,
    too_big: bool,
}

/// The reader's state between tokens.
#[derive(Default)]
pub(super) struct Collector {
    stack: Vec<Open>,
    /// How many elements of each name are on `stack`.
    open_counts: HashMap<LocalName, u32, BuildHasherDefault<AtomHasher>>,
    /// Elements open beyond [`MAX_DEPTH`], not tracked by name.
    overflow: usize,
    /// Open elements whose content is skipped.
    skip: usize,
    /// Open `article`/`main` elements.
    article: usize,
    /// The tokenizer is in a raw-text state (script, style…) until the next
    /// end tag.
    raw: bool,
    contexts: Vec<Ctx>,
    /// Group and credit contexts in `contexts`.
    open_groups: usize,
    open_credits: usize,
    script: Option<Script>,
    free_image: Option<FreeImage>,
    orphan_credit: Option<String>,
    /// The caption just emitted outside any group, which a credit element
    /// right after it joins.
    window: Option<usize>,
    found: Vec<Found>,
    ld_images: Vec<LdImage>,
    og_description: Option<(String, u64)>,
    og_image: Option<String>,
    base: Option<String>,
    warnings: Vec<Warning>,
}

/// Atoms hash as their precomputed 64-bit hash; SipHash over that again
/// cost about 5% of a whole read.
#[derive(Default)]
struct AtomHasher(u64);

impl Hasher for AtomHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 =
                (self.0.rotate_left(5) ^ u64::from(byte)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = (self.0.rotate_left(5) ^ hash).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

fn attr<'a>(tag: &'a Tag, name: &str) -> Option<&'a str> {
    tag.attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| &*a.value)
}

fn non_empty(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// The tokenizer state a start tag switches to, as the tree builder would
/// ask for it.
fn raw_state(name: &str) -> Option<TokenSinkResult<()>> {
    Some(match name {
        "script" => TokenSinkResult::RawData(RawKind::ScriptData),
        "style" | "xmp" | "iframe" | "noembed" | "noframes" | "noscript" => {
            TokenSinkResult::RawData(RawKind::Rawtext)
        }
        "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
        "plaintext" => TokenSinkResult::Plaintext,
        _ => return None,
    })
}

/// The image URL an `img` (or a lightbox element) points at.
fn image_url(tag: &Tag) -> Option<String> {
    usable(attr(tag, "src"))
        .or_else(|| usable(attr(tag, "data-src")))
        .or_else(|| usable(attr(tag, "data-lazy-src")))
        .or_else(|| usable(attr(tag, "data-original")))
        .or_else(|| usable(attr(tag, "srcset").and_then(first_of_srcset)))
        .or_else(|| usable(attr(tag, "data-srcset").and_then(first_of_srcset)))
        .map(str::to_string)
}

/// The image a `data-caption` element names itself (slides, lightboxes).
fn group_image_url(tag: &Tag) -> Option<String> {
    for name in [
        "data-src",
        "data-image",
        "data-full",
        "data-large",
        "data-original",
    ] {
        if let Some(url) = usable(attr(tag, name)) {
            return Some(url.to_string());
        }
    }
    let href = usable(attr(tag, "href"))?;
    let path = href
        .split(['?', '#'])
        .next()
        .unwrap_or(href)
        .to_ascii_lowercase();
    [".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif"]
        .iter()
        .any(|ext| path.ends_with(ext))
        .then(|| href.to_string())
}

fn usable(value: Option<&str>) -> Option<&str> {
    non_empty(value).filter(|v| !is_placeholder(v))
}

/// An attribute's text (already entity-decoded by the tokenizer),
/// whitespace-normalized; read as HTML only when it holds markup (`</`,
/// `<br`), so a credit written `<Jane Roe/Reuters>` stays text.
fn clean(text: &str) -> Option<String> {
    let text = if has_markup(text) {
        fragment_text(text)
    } else {
        let mut buf = TextBuf::default();
        buf.push(text);
        buf.into_string()
    };
    (!text.is_empty()).then_some(text)
}

/// The caption text with its credit appended, unless it already holds it.
fn join_credit(text: &str, credit: Option<&str>) -> String {
    match credit {
        Some(credit) if !credit.is_empty() && !text.contains(credit) => {
            format!("{text} {credit}")
        }
        _ => text.to_string(),
    }
}

impl Collector {
    fn warn(&mut self, warning: Warning) {
        let kind = discriminant(&warning);
        let same = self
            .warnings
            .iter()
            .filter(|w| discriminant(*w) == kind)
            .count();
        if same < MAX_WARNINGS_PER_KIND {
            self.warnings.push(warning);
        }
    }

    fn start_tag(&mut self, tag: &Tag, offset: u64) -> TokenSinkResult<()> {
        let name: &str = &tag.name;
        let raw = raw_state(name);
        if raw.is_some() {
            self.raw = true;
        }
        let result = raw.unwrap_or(TokenSinkResult::Continue);
        if is_void(name) {
            if self.skip == 0 {
                self.void_tag(tag, offset);
            }
            return result;
        }
        if self.overflow > 0 || self.stack.len() >= MAX_DEPTH {
            if self.overflow == 0 {
                self.warn(Warning::DeepNesting { offset });
            }
            self.overflow += 1;
            return result;
        }
        self.implicit_close(name);
        let kind = if self.skip > 0 {
            Kind::Block
        } else {
            self.open_kind(tag, offset)
        };
        *self.open_counts.entry(tag.name.clone()).or_insert(0) += 1;
        self.stack.push(Open {
            name: tag.name.clone(),
            kind,
        });
        result
    }

    /// What a start tag opens; pushes its context, if any.
    fn open_kind(&mut self, tag: &Tag, offset: u64) -> Kind {
        let name: &str = &tag.name;
        if name == "script" {
            let is_ld = attr(tag, "type").is_some_and(|t| {
                t.trim()
                    .get(..19)
                    .is_some_and(|t| t.eq_ignore_ascii_case("application/ld+json"))
            });
            if !is_ld {
                self.skip += 1;
                return Kind::Skip;
            }
            self.script = Some(Script {
                offset,
                text: String::new(),
                too_big: false,
            });
            return Kind::LdJson;
        }
        let chrome_role = attr(tag, "role").is_some_and(|role| {
            matches!(
                role.trim(),
                "navigation" | "banner" | "contentinfo" | "menu" | "menubar" | "search"
            )
        });
        let page_chrome =
            matches!(name, "header" | "footer") && self.article == 0 && self.open_groups == 0;
        if is_chrome(name) || chrome_role || page_chrome {
            self.skip += 1;
            return Kind::Skip;
        }
        if matches!(name, "article" | "main") {
            self.article += 1;
            return Kind::Article;
        }
        if matches!(name, "blockquote" | "table" | "pre" | "code") {
            if let Some(Ctx::Group(group)) = self.contexts.last_mut() {
                group.not_picture = true;
            }
        }
        let attr_caption = non_empty(attr(tag, "data-caption")).and_then(clean);
        if name == "figure" || attr_caption.is_some() {
            self.open_group(tag, offset, attr_caption);
            return Kind::Context;
        }
        let in_caption = self.innermost_caption_or_group().is_some_and(|c| c == 1);
        let in_credit = self.open_credits > 0;
        let in_group_or_caption = self.innermost_caption_or_group().is_some();
        let role = attr(tag, "class").and_then(class_role);
        if name == "figcaption" || role == Some(ClassRole::Caption) {
            if in_caption || in_credit {
                return Kind::Block;
            }
            let in_group = self.innermost_caption_or_group() == Some(0);
            if !in_group {
                self.close_window();
            }
            let origin = if name == "figcaption" || in_group {
                Origin::Figcaption
            } else {
                Origin::Gallery
            };
            self.word_break();
            self.contexts.push(Ctx::Caption(CaptionCtx {
                offset,
                origin,
                text: TextBuf::default(),
                credit: None,
                image: None,
            }));
            return Kind::Context;
        }
        let credit_tag = matches!(name, "small" | "cite") && in_group_or_caption;
        // Outside a picture, a byline is the article's author.
        let byline_outside = role == Some(ClassRole::Byline) && !in_group_or_caption;
        if (role.is_some() || credit_tag) && !in_credit && !byline_outside {
            self.word_break();
            self.open_credits += 1;
            self.contexts.push(Ctx::Credit(CreditCtx {
                offset,
                text: TextBuf::default(),
                byline: role == Some(ClassRole::Byline),
            }));
            return Kind::Context;
        }
        if is_inline(name) {
            Kind::Inline
        } else {
            self.word_break();
            Kind::Block
        }
    }

    fn open_group(&mut self, tag: &Tag, offset: u64, attr_caption: Option<String>) {
        self.flush_free_image();
        self.close_window();
        let credit = ["data-credit", "data-photographer", "data-byline"]
            .iter()
            .find_map(|name| non_empty(attr(tag, name)))
            .and_then(clean);
        let image = if attr_caption.is_some() || &*tag.name != "figure" {
            group_image_url(tag)
        } else {
            None
        };
        self.open_groups += 1;
        self.contexts.push(Ctx::Group(Group {
            offset,
            image,
            credit,
            attr_caption,
            ..Group::default()
        }));
    }

    /// Where the innermost caption (1) or group (0) context is, if any
    /// (credit contexts are looked through).
    fn innermost_caption_or_group(&self) -> Option<u8> {
        self.contexts.iter().rev().find_map(|c| match c {
            Ctx::Group(_) => Some(0),
            Ctx::Caption(_) => Some(1),
            Ctx::Credit(_) => None,
        })
    }

    /// HTML5's implied end tags that matter here: a block closes an open
    /// `<p>`, an `<li>` closes the open `<li>` of its list.
    fn implicit_close(&mut self, name: &str) {
        let target = if closes_p(name) {
            "p"
        } else if name == "li" {
            "li"
        } else {
            return;
        };
        let mut depth = None;
        // Bounded, so a page of thousands of open spans stays linear.
        for (i, open) in self.stack.iter().enumerate().rev().take(64) {
            let open_name: &str = &open.name;
            if open_name == target {
                depth = Some(i);
                break;
            }
            // HTML5: a `<p>` holds only phrasing content; an `<li>` is
            // closed through anything but special elements (address, div
            // and p excepted).
            let passable = is_inline(open_name)
                || (target == "li" && matches!(open_name, "p" | "div" | "address"));
            if !passable {
                break;
            }
        }
        if let Some(depth) = depth {
            while self.stack.len() > depth {
                self.pop();
            }
        }
    }

    fn void_tag(&mut self, tag: &Tag, offset: u64) {
        match &*tag.name {
            "img" | "image" => self.image(tag, offset),
            "br" | "hr" => self.word_break(),
            "meta" => {
                let key = attr(tag, "property").or_else(|| attr(tag, "name"));
                let content = non_empty(attr(tag, "content"));
                match (key.map(str::trim), content) {
                    (Some("og:description"), Some(text)) if self.og_description.is_none() => {
                        self.og_description = clean(text).map(|t| (t, offset));
                    }
                    (Some("og:image" | "og:image:url" | "og:image:secure_url"), Some(url))
                        if self.og_image.is_none() && !is_placeholder(url) =>
                    {
                        self.og_image = Some(url.to_string());
                    }
                    _ => {}
                }
            }
            "base" if self.base.is_none() => {
                self.base = non_empty(attr(tag, "href"))
                    .filter(|h| h.contains("://"))
                    .map(str::to_string);
            }
            _ => {}
        }
    }

    fn image(&mut self, tag: &Tag, offset: u64) {
        if attr(tag, "width").is_some_and(is_tiny) || attr(tag, "height").is_some_and(is_tiny) {
            return;
        }
        let url = image_url(tag);
        let alt = [("alt", Origin::ImgAlt), ("title", Origin::ImgTitle)]
            .into_iter()
            .find_map(|(name, origin)| {
                let text = clean(attr(tag, name)?)?;
                is_descriptive(&text).then_some((text, origin))
            });
        let target = self.contexts.iter_mut().rev().find_map(|c| match c {
            Ctx::Credit(_) => None,
            other => Some(other),
        });
        match target {
            Some(Ctx::Caption(caption)) => {
                if caption.image.is_none() {
                    caption.image = url;
                }
            }
            Some(Ctx::Group(group)) => {
                if group.image.is_none() {
                    group.image = url;
                }
                if group.alt.is_none() {
                    group.alt = alt.map(|(text, origin)| (text, offset, origin));
                }
            }
            _ => {
                self.flush_free_image();
                self.close_window();
                self.free_image = Some(FreeImage {
                    url,
                    alt,
                    offset,
                    credit: None,
                    text_after: 0,
                });
            }
        }
    }

    fn end_tag(&mut self, name: &LocalName) {
        self.raw = false;
        if is_void(name) {
            if &**name == "br" {
                self.word_break();
            }
            return;
        }
        if self.overflow > 0 {
            self.overflow -= 1;
            return;
        }
        if !self.open_counts.contains_key(name) {
            return;
        }
        while let Some(open) = self.pop() {
            if open == *name {
                break;
            }
        }
    }

    /// Closes the innermost open element; returns its name.
    fn pop(&mut self) -> Option<LocalName> {
        let open = self.stack.pop()?;
        if let Some(count) = self.open_counts.get_mut(&open.name) {
            *count -= 1;
            if *count == 0 {
                self.open_counts.remove(&open.name);
            }
        }
        match open.kind {
            Kind::Block => self.word_break(),
            Kind::Inline => {}
            Kind::Skip => self.skip -= 1,
            Kind::Article => self.article -= 1,
            Kind::LdJson => self.end_script(),
            Kind::Context => self.close_context(),
        }
        Some(open.name)
    }

    fn text(&mut self, text: &str) {
        if self.raw {
            if let Some(script) = &mut self.script {
                if !script.too_big {
                    if script.text.len() + text.len() > MAX_JSONLD_BYTES {
                        script.too_big = true;
                        script.text = String::new();
                    } else {
                        script.text.push_str(text);
                    }
                }
            }
            return;
        }
        if self.skip > 0 {
            return;
        }
        let mut took = false;
        let mut overflowed = None;
        for ctx in self.contexts.iter_mut().rev() {
            match ctx {
                Ctx::Credit(credit) => {
                    if credit.text.push(text) {
                        overflowed = Some(credit.offset);
                    }
                    took = true;
                }
                Ctx::Caption(caption) => {
                    if caption.text.push(text) {
                        overflowed = Some(caption.offset);
                    }
                    took = true;
                    break;
                }
                Ctx::Group(_) => break,
            }
        }
        if let Some(offset) = overflowed {
            self.warn(Warning::OversizeCaption { offset });
        }
        if took || !self.contexts.is_empty() || !text.chars().any(char::is_alphanumeric) {
            return;
        }
        // Free text: what came before no longer pairs with what follows.
        self.close_window();
        self.orphan_credit = None;
        if let Some(image) = &mut self.free_image {
            image.text_after += text.trim().len();
            if image.text_after > MAX_TEXT_BETWEEN_IMAGE_AND_CAPTION {
                self.flush_free_image();
            }
        }
    }

    fn word_break(&mut self) {
        for ctx in self.contexts.iter_mut().rev() {
            match ctx {
                Ctx::Credit(credit) => credit.text.word_break(),
                Ctx::Caption(caption) => {
                    caption.text.word_break();
                    break;
                }
                Ctx::Group(_) => break,
            }
        }
    }

    fn end_script(&mut self) {
        let Some(script) = self.script.take() else {
            return;
        };
        if script.too_big {
            self.warn(Warning::BadJsonLd {
                offset: script.offset,
                reason: format!("larger than {MAX_JSONLD_BYTES} bytes"),
            });
            return;
        }
        if let Err(reason) = jsonld::read_script(&script.text, script.offset, &mut self.ld_images) {
            self.warn(Warning::BadJsonLd {
                offset: script.offset,
                reason,
            });
        }
    }

    fn close_context(&mut self) {
        let Some(ctx) = self.contexts.pop() else {
            return;
        };
        match ctx {
            Ctx::Group(group) => {
                self.open_groups -= 1;
                self.close_group(group);
            }
            Ctx::Caption(caption) => self.close_caption(caption),
            Ctx::Credit(credit) => {
                self.open_credits -= 1;
                self.close_credit(credit);
            }
        }
        self.word_break();
    }

    fn close_group(&mut self, group: Group) {
        let caption = group
            .caption
            .or_else(|| {
                group
                    .attr_caption
                    .map(|t| (t, group.offset, Origin::Gallery))
            })
            .or(group.alt);
        let Some((text, offset, origin)) = caption else {
            return;
        };
        if group.not_picture && group.image.is_none() {
            return;
        }
        let credit = group.credit.or_else(|| self.orphan_credit.take());
        self.emit(Found {
            text,
            credit,
            image: group.image,
            offset,
            origin,
            stated: Stated::default(),
        });
    }

    fn close_caption(&mut self, caption: CaptionCtx) {
        if caption.text.is_empty() {
            return;
        }
        let mut text = caption.text.into_string();
        if let Some(credit) = &caption.credit {
            if text == *credit {
                // Only a credit: the caption is elsewhere (the alt text, the
                // next caption element).
                match self.innermost_caption_or_group() {
                    Some(_) => {
                        if let Some(Ctx::Group(group)) = self
                            .contexts
                            .iter_mut()
                            .rev()
                            .find(|c| !matches!(c, Ctx::Credit(_)))
                        {
                            group.credit.get_or_insert(text);
                        }
                    }
                    None => self.free_credit(text, false),
                }
                return;
            }
            // A credit written first goes last, where caption::parse looks.
            if let Some(rest) = text.strip_prefix(credit.as_str()) {
                text = rest.trim_start().to_string();
            }
        }
        if let Some(Ctx::Group(group)) = self
            .contexts
            .iter_mut()
            .rev()
            .find(|c| !matches!(c, Ctx::Credit(_)))
        {
            match &mut group.caption {
                Some((joined, _, _)) => {
                    if joined.len() + text.len() < super::MAX_CAPTION_BYTES {
                        joined.push(' ');
                        joined.push_str(&text);
                    }
                }
                None => group.caption = Some((text, caption.offset, caption.origin)),
            }
            if group.credit.is_none() {
                group.credit = caption.credit;
            }
            if group.image.is_none() {
                group.image = caption.image;
            }
            return;
        }
        let mut image = caption.image;
        let mut credit = caption.credit;
        if image.is_none() {
            if let Some(free) = self.free_image.take() {
                image = free.url;
                credit = credit.or(free.credit);
            }
        }
        let credit = credit.or_else(|| self.orphan_credit.take());
        self.emit(Found {
            text,
            credit,
            image,
            offset: caption.offset,
            origin: caption.origin,
            stated: Stated::default(),
        });
    }

    fn close_credit(&mut self, credit: CreditCtx) {
        if credit.text.is_empty() {
            return;
        }
        let text = credit.text.into_string();
        let owner = self
            .contexts
            .iter_mut()
            .rev()
            .find(|c| !matches!(c, Ctx::Credit(_)));
        match owner {
            Some(Ctx::Caption(caption)) => {
                caption.credit.get_or_insert(text);
            }
            Some(Ctx::Group(group)) => {
                group.credit.get_or_insert(text);
            }
            _ => self.free_credit(text, credit.byline),
        }
    }

    /// A credit element outside any caption or picture: it joins the caption
    /// just before it, or the image just before it, or the caption after it.
    fn free_credit(&mut self, text: String, byline: bool) {
        if let Some(i) = self.window.take() {
            if let Some(found) = self.found.get_mut(i) {
                if found.credit.is_none() {
                    found.credit = Some(text);
                    return;
                }
            }
        }
        if let Some(image) = &mut self.free_image {
            if image.credit.is_none() {
                image.credit = Some(text);
                return;
            }
        }
        if !byline {
            self.orphan_credit = Some(text);
        }
    }

    fn emit(&mut self, found: Found) {
        self.window = Some(self.found.len());
        self.found.push(found);
    }

    fn close_window(&mut self) {
        self.window = None;
    }

    /// The free image waiting for a caption has none: its alt, if
    /// descriptive, is its caption.
    fn flush_free_image(&mut self) {
        let Some(image) = self.free_image.take() else {
            return;
        };
        if let Some((text, origin)) = image.alt {
            self.emit(Found {
                text,
                credit: image.credit,
                image: image.url,
                offset: image.offset,
                origin,
                stated: Stated::default(),
            });
        }
    }

    fn finish(mut self) -> HtmlCaptions {
        while self.pop().is_some() {}
        self.flush_free_image();
        self.merge_teasers();
        self.merge_json_ld();
        self.add_open_graph();
        let base = self.base.take();
        let mut captions: Vec<PageCaption> = self
            .found
            .into_iter()
            .map(|found| PageCaption {
                text: join_credit(&found.text, found.credit.as_deref()),
                credit: found.credit,
                image_url: found.image.map(|url| match &base {
                    Some(base) => resolve(base, &url),
                    None => url,
                }),
                offset: found.offset,
                origin: found.origin,
                stated: found.stated,
            })
            .collect();
        captions.sort_by_key(|c| c.offset);
        HtmlCaptions {
            captions,
            warnings: self.warnings,
        }
    }

    /// A picture whose caption the markup shows twice, a thumbnail's `alt`
    /// or a teaser (the caption without its credit, or cut short) beside
    /// the full figure caption, is one caption: the full one, which takes
    /// from the teaser what it lacks (an image URL, a credit, stated
    /// fields). Two full captions with the same text are two pictures.
    fn merge_teasers(&mut self) {
        /// Larger groups of captions sharing an opening are not compared
        /// pair by pair (a page of 10,000 near-identical captions).
        const MAX_GROUP: usize = 256;
        let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, found) in self.found.iter().enumerate() {
            if let Some(key) = same::prefix_key(&found.text) {
                by_key.entry(key).or_default().push(i);
            }
        }
        let mut into: Vec<Option<usize>> = vec![None; self.found.len()];
        let mut groups: Vec<Vec<usize>> = by_key
            .into_values()
            .filter(|g| g.len() > 1 && g.len() <= MAX_GROUP)
            .collect();
        groups.sort_unstable();
        for group in &groups {
            for &short in group {
                into[short] = group
                    .iter()
                    .copied()
                    .filter(|&full| full != short)
                    .find(|&full| self.is_teaser_of(short, full));
            }
        }
        // Follow chains (a cut copy into the uncredited one into the full one).
        let target = |mut i: usize| {
            let mut steps = 0;
            while let Some(next) = into[i] {
                i = next;
                steps += 1;
                if steps > MAX_GROUP {
                    break;
                }
            }
            i
        };
        let targets: Vec<usize> = (0..self.found.len()).map(target).collect();
        let mut moved: Vec<(usize, Found)> = Vec::new();
        let mut kept: Vec<Found> = Vec::with_capacity(self.found.len());
        let mut new_index = vec![0; self.found.len()];
        for (i, found) in std::mem::take(&mut self.found).into_iter().enumerate() {
            if targets[i] == i {
                new_index[i] = kept.len();
                kept.push(found);
            } else {
                moved.push((targets[i], found));
            }
        }
        for (target, teaser) in moved {
            let full = &mut kept[new_index[target]];
            full.stated.fill_from(&teaser.stated);
            if full.image.is_none() {
                full.image = teaser.image;
            }
            if full.credit.is_none() {
                if let Some(credit) = teaser.credit {
                    if !full.text.contains(credit.as_str()) {
                        full.credit = Some(credit);
                    }
                }
            }
        }
        self.found = kept;
    }

    /// Whether caption `short` is a teaser of caption `full` (see `same`):
    /// the short one must be lesser, an `alt`/`title`, cut short, or
    /// without the credit the full one has.
    fn is_teaser_of(&self, short: usize, full: usize) -> bool {
        let (a, b) = (&self.found[short], &self.found[full]);
        let joined_a = join_credit(&a.text, a.credit.as_deref());
        let joined_b = join_credit(&b.text, b.credit.as_deref());
        let lesser = matches!(a.origin, Origin::ImgAlt | Origin::ImgTitle)
            || caption::strip_truncation_mark(&a.text).is_some()
            || (a.credit.is_none() && joined_b.len() > joined_a.len());
        // Equal texts: the earlier one stays, so no two merge into each other.
        let fuller = joined_b.len() > joined_a.len() || (joined_b == joined_a && full < short);
        lesser && fuller && same::is_teaser(&joined_a, &joined_b, b.credit.as_deref())
    }

    /// JSON-LD images that are the same picture as a caption of the markup
    /// (same URL, same image file, or same text) are merged into it; the
    /// others with a caption become captions of their own.
    fn merge_json_ld(&mut self) {
        let mut by_url: HashMap<String, usize> = HashMap::new();
        let mut by_key: HashMap<String, Option<usize>> = HashMap::new();
        let mut by_text: HashMap<String, usize> = HashMap::new();
        let mut by_prefix: HashMap<String, Vec<usize>> = HashMap::new();
        let index = |found: &Found,
                     i: usize,
                     by_url: &mut HashMap<String, usize>,
                     by_key: &mut HashMap<String, Option<usize>>,
                     by_text: &mut HashMap<String, usize>,
                     by_prefix: &mut HashMap<String, Vec<usize>>| {
            if let Some(url) = &found.image {
                by_url.entry(url.clone()).or_insert(i);
                let key = image_key(url);
                if key.contains('.') && key.len() >= 8 {
                    by_key
                        .entry(key)
                        .and_modify(|seen| {
                            if *seen != Some(i) {
                                *seen = None;
                            }
                        })
                        .or_insert(Some(i));
                }
            }
            by_text.entry(found.text.clone()).or_insert(i);
            let joined = join_credit(&found.text, found.credit.as_deref());
            by_text.entry(joined).or_insert(i);
            if let Some(key) = same::prefix_key(&found.text) {
                by_prefix.entry(key).or_default().push(i);
            }
        };
        for (i, found) in self.found.iter().enumerate() {
            index(
                found,
                i,
                &mut by_url,
                &mut by_key,
                &mut by_text,
                &mut by_prefix,
            );
        }
        for image in std::mem::take(&mut self.ld_images) {
            let url = image.url.filter(|u| !is_placeholder(u));
            let same = url
                .as_ref()
                .and_then(|u| {
                    by_url
                        .get(u)
                        .copied()
                        .or_else(|| by_key.get(&image_key(u)).copied().flatten())
                })
                .or_else(|| image.caption.as_ref().and_then(|c| by_text.get(c).copied()))
                .or_else(|| {
                    let caption = image.caption.as_deref()?;
                    let candidates = by_prefix.get(&same::prefix_key(caption)?)?;
                    candidates.iter().copied().find(|&i| {
                        let found = &self.found[i];
                        let joined = join_credit(&found.text, found.credit.as_deref());
                        same::is_teaser(caption, &joined, found.credit.as_deref())
                            || same::is_teaser(
                                &found.text,
                                caption,
                                image.stated.credit_text.as_deref(),
                            )
                    })
                });
            if let Some(i) = same {
                let found = &mut self.found[i];
                // The visible caption cut short, the JSON-LD one whole: the
                // picture's caption is the whole one.
                if let Some(caption) = &image.caption {
                    if caption.len() > found.text.len()
                        && caption::strip_truncation_mark(&found.text).is_some()
                        && same::is_teaser(&found.text, caption, None)
                    {
                        found.text.clone_from(caption);
                    }
                }
                found.stated.fill_from(&image.stated);
                if found.image.is_none() {
                    found.image = url;
                }
                if found.credit.is_none() {
                    if let Some(credit) = &image.stated.credit_text {
                        if !found.text.contains(credit.as_str()) {
                            found.credit = Some(credit.clone());
                        }
                    }
                }
                continue;
            }
            let Some(text) = image.caption else {
                continue;
            };
            let found = Found {
                text,
                credit: image.stated.credit_text.clone(),
                image: url,
                offset: image.offset,
                origin: Origin::JsonLd,
                stated: image.stated,
            };
            let i = self.found.len();
            index(
                &found,
                i,
                &mut by_url,
                &mut by_key,
                &mut by_text,
                &mut by_prefix,
            );
            self.found.push(found);
        }
    }

    /// `og:description` is a caption only on a page that has none of its
    /// own (on the others it repeats a caption or sums up the article);
    /// when it repeats one (a cut-short copy included), `og:image` is that
    /// caption's image if it has none.
    fn add_open_graph(&mut self) {
        let Some((description, offset)) = self.og_description.take() else {
            return;
        };
        let stem = caption::strip_truncation_mark(&description).unwrap_or(&description);
        let stem = stem.trim_end_matches(['.', '\u{2026}']).trim_end();
        if stem.is_empty() {
            return;
        }
        let og_image = self.og_image.take();
        for found in &mut self.found {
            let text = found.text.trim_end_matches(['.', '\u{2026}']);
            if found.text.contains(stem) || (text.len() >= 20 && stem.contains(text)) {
                if found.image.is_none() {
                    found.image = og_image;
                }
                return;
            }
        }
        if !self.found.is_empty() || !is_descriptive(&description) {
            return;
        }
        self.found.push(Found {
            text: description,
            credit: None,
            image: og_image,
            offset,
            origin: Origin::OpenGraph,
            stated: Stated::default(),
        });
    }
}
