//! XMP packets: a small element tree read with quick-xml's namespace-aware
//! reader, the caption properties read from it, and edits written back.
//!
//! **Safety.** A packet with a document type declaration is refused
//! ([`Error::XmpDoctype`]) before anything else is looked at: no DTD, no
//! entity is ever fetched or expanded. Only the five predefined entities and
//! character references are decoded; any other entity reference is an error.
//! Nesting deeper than 64 elements is refused, so no input can exhaust the
//! stack, and so is a packet of more than 500,000 elements.
//!
//! **Reading.** Properties are matched by namespace URI and local name, never
//! by prefix. A property may be an attribute of `rdf:Description` or an
//! element (text, `rdf:Seq`/`rdf:Bag`/`rdf:Alt` of `rdf:li`, or a structure
//! as `rdf:parseType="Resource"`, a nested `rdf:Description` or attributes).
//! `dc:description` is a language alternative: `x-default` wins, else the
//! first. When a property appears twice (several descriptions or packets),
//! the last wins, as in ExifTool (whose later tag of equal priority takes
//! precedence). Packets may be UTF-8, UTF-16 or UTF-32 ([`decode_packet`]).
//!
//! **Writing.** The existing packet is kept as a tree, so properties this
//! crate does not set survive untouched (with their prefixes, comments and
//! order). Properties that are overwritten are removed wherever they are;
//! new ones go into one new `rdf:Description` with the same `rdf:about` as
//! the existing ones, which declares its own namespace prefixes (so a prefix
//! bound differently elsewhere in the packet cannot change their meaning).

use quick_xml::events::Event;
use quick_xml::name::{QName, ResolveResult};
use quick_xml::NsReader;

use crate::{Error, PhotoMetadata};

pub(crate) const NS_RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
pub(crate) const NS_X: &str = "adobe:ns:meta/";
pub(crate) const NS_XML: &str = "http://www.w3.org/XML/1998/namespace";
pub(crate) const NS_DC: &str = "http://purl.org/dc/elements/1.1/";
pub(crate) const NS_PS: &str = "http://ns.adobe.com/photoshop/1.0/";
pub(crate) const NS_CORE: &str = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/";
pub(crate) const NS_EXT: &str = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/";
pub(crate) const NS_EXIF: &str = "http://ns.adobe.com/exif/1.0/";
pub(crate) const NS_NOTE: &str = "http://ns.adobe.com/xmp/note/";

/// The prefixes this crate writes, with their namespaces.
const PREFIXES: [(&str, &str); 6] = [
    ("dc", NS_DC),
    ("photoshop", NS_PS),
    ("Iptc4xmpCore", NS_CORE),
    ("Iptc4xmpExt", NS_EXT),
    ("exif", NS_EXIF),
    ("rdf", NS_RDF),
];

const MAX_DEPTH: usize = 64;
/// Most elements a packet may have (about 100 MB of tree at worst).
const MAX_ELEMENTS: usize = 500_000;

/// An XML node.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    El(Element),
    Text(String),
    /// A comment or processing instruction, kept serialized.
    Raw(String),
}

/// An attribute, with its qualified name as written and its resolved namespace.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Attr {
    pub qname: String,
    pub ns: String,
    pub local: String,
    pub value: String,
}

/// An element, with its qualified name as written and its resolved namespace.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Element {
    pub qname: String,
    pub ns: String,
    pub local: String,
    pub attrs: Vec<Attr>,
    pub children: Vec<Node>,
}

impl Element {
    fn is(&self, ns: &str, local: &str) -> bool {
        self.ns == ns && self.local == local
    }
    fn attr(&self, ns: &str, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| a.ns == ns && a.local == local)
            .map(|a| a.value.as_str())
    }
    fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::El(e) => Some(e),
            _ => None,
        })
    }
    fn text(&self) -> String {
        let mut s = String::new();
        for n in &self.children {
            if let Node::Text(t) = n {
                s.push_str(t);
            }
        }
        s
    }
    /// Attributes that are properties (not RDF syntax, `xml:` or namespace declarations).
    fn property_attrs(&self) -> impl Iterator<Item = &Attr> {
        self.attrs
            .iter()
            .filter(|a| a.ns != NS_RDF && a.ns != NS_XML && !is_xmlns(&a.qname) && !a.ns.is_empty())
    }
}

fn is_xmlns(qname: &str) -> bool {
    qname == "xmlns" || qname.starts_with("xmlns:")
}

/// How a packet's characters are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Utf16Be,
    Utf16Le,
    Utf32Be,
    Utf32Le,
}

impl Encoding {
    const ALL: [Encoding; 5] = [
        Encoding::Utf8,
        Encoding::Utf16Be,
        Encoding::Utf16Le,
        Encoding::Utf32Be,
        Encoding::Utf32Le,
    ];

    /// `ascii` in this encoding.
    fn encode(self, ascii: &str) -> Vec<u8> {
        ascii
            .bytes()
            .flat_map(|b| match self {
                Encoding::Utf8 => vec![b],
                Encoding::Utf16Be => vec![0, b],
                Encoding::Utf16Le => vec![b, 0],
                Encoding::Utf32Be => vec![0, 0, 0, b],
                Encoding::Utf32Le => vec![b, 0, 0, 0],
            })
            .collect()
    }

    /// The text of `bytes`, undecodable units replaced by U+FFFD.
    fn decode(self, bytes: &[u8]) -> String {
        match self {
            Encoding::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Encoding::Utf16Be | Encoding::Utf16Le => {
                let units = bytes.chunks_exact(2).map(|u| match self {
                    Encoding::Utf16Be => u16::from_be_bytes([u[0], u[1]]),
                    _ => u16::from_le_bytes([u[0], u[1]]),
                });
                char::decode_utf16(units)
                    .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect()
            }
            Encoding::Utf32Be | Encoding::Utf32Le => bytes
                .chunks_exact(4)
                .map(|u| {
                    let u = [u[0], u[1], u[2], u[3]];
                    let code = match self {
                        Encoding::Utf32Be => u32::from_be_bytes(u),
                        _ => u32::from_le_bytes(u),
                    };
                    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
                })
                .collect(),
        }
    }
}

/// What an XMP packet may open with.
const PACKET_OPENINGS: [&str; 5] = ["<?xpacket", "<x:xmpmeta", "<x:xapmeta", "<rdf:RDF", "<?xml"];

/// A packet's text, as ExifTool finds it (`ProcessXMP` in `XMP.pm`): the
/// packet may be UTF-8, UTF-16 or UTF-32 of either byte order, with or
/// without a byte-order mark, and may follow other bytes (a non-standard
/// header such as `XMP\0://ns.adobe.com/xap/1.0/\0`). The encoding is the
/// one in which a packet opening (`<?xpacket`, `<x:xmpmeta`, `<rdf:RDF`…)
/// is found, and the text starts there; with no opening found, the whole
/// packet is read as UTF-8. Trailing padding after the `xpacket end`
/// instruction is dropped.
pub(crate) fn decode_packet(packet: &[u8]) -> String {
    let found = Encoding::ALL.iter().find_map(|&encoding| {
        PACKET_OPENINGS
            .iter()
            .filter_map(|opening| memchr::memmem::find(packet, &encoding.encode(opening)))
            .min()
            .map(|at| (encoding, at))
    });
    let mut text = match found {
        Some((encoding, at)) => encoding.decode(&packet[at..]),
        None => String::from_utf8_lossy(packet)
            .trim_start_matches('\u{feff}')
            .to_owned(),
    };
    if let Some(end) = text.find("<?xpacket end") {
        if let Some(close) = text[end..].find("?>") {
            text.truncate(end + close + 2);
        }
    }
    text
}

/// Parses an XML document into its top-level nodes.
pub(crate) fn parse(packet: &[u8]) -> Result<Vec<Node>, Error> {
    let text = decode_packet(packet);
    let text = text.as_str();
    let mut reader = NsReader::from_str(text);
    let mut stack: Vec<Element> = Vec::new();
    let mut top: Vec<Node> = Vec::new();
    let mut elements = 0usize;
    fn push(stack: &mut [Element], top: &mut Vec<Node>, n: Node) {
        match stack.last_mut() {
            Some(e) => e.children.push(n),
            None => top.push(n),
        }
    }
    fn push_text(stack: &mut [Element], top: &mut Vec<Node>, t: &str) {
        let list = match stack.last_mut() {
            Some(e) => &mut e.children,
            None => top,
        };
        if let Some(Node::Text(prev)) = list.last_mut() {
            prev.push_str(t);
        } else {
            list.push(Node::Text(t.to_owned()));
        }
    }
    let bad = |e: quick_xml::Error, pos: u64| Error::Xmp(format!("{e} (at byte {pos})"));
    loop {
        let pos = reader.buffer_position();
        let (ns, ev) = reader.read_resolved_event().map_err(|e| bad(e, pos))?;
        let ns = ns_string(&ns);
        match ev {
            Event::DocType(_) => return Err(Error::XmpDoctype),
            Event::Start(_) | Event::Empty(_) if elements >= MAX_ELEMENTS => {
                return Err(Error::Xmp(format!("more than {MAX_ELEMENTS} elements")));
            }
            Event::Start(_) | Event::Empty(_) if stack.len() >= MAX_DEPTH => {
                return Err(Error::Xmp(format!(
                    "elements nested deeper than {MAX_DEPTH}"
                )));
            }
            Event::Start(ref s) | Event::Empty(ref s) => {
                let qname = s.name().as_ref().to_owned();
                if qname.is_empty() {
                    return Err(Error::Xmp(format!("element without a name at byte {pos}")));
                }
                let local = s.local_name().as_ref().to_owned();
                let mut attrs = Vec::new();
                for a in s.attributes() {
                    let a = a.map_err(|e| Error::Xmp(format!("{e} (at byte {pos})")))?;
                    let key = a.key.as_ref().to_owned();
                    let (ans, alocal) = reader.resolver().resolve_attribute(QName(&key));
                    // A namespace declaration is kept exactly as written: quick-xml
                    // resolves names with the raw value, and so must the packet
                    // written back (`&#x2F;` must not turn into a known namespace).
                    let value = if is_xmlns(&key) {
                        a.value.into_owned()
                    } else {
                        let value = a
                            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .map_err(|e| bad(e, pos))?;
                        clean(&value)
                    };
                    attrs.push(Attr {
                        ns: ns_string(&ans),
                        local: alocal.as_ref().to_owned(),
                        qname: key.clone(),
                        value,
                    });
                }
                elements += 1;
                let el = Element {
                    qname,
                    ns,
                    local,
                    attrs,
                    children: Vec::new(),
                };
                if matches!(ev, Event::Start(_)) {
                    stack.push(el);
                } else {
                    push(&mut stack, &mut top, Node::El(el));
                }
            }
            Event::End(_) => {
                let Some(el) = stack.pop() else {
                    return Err(Error::Xmp(format!("unexpected end tag at byte {pos}")));
                };
                push(&mut stack, &mut top, Node::El(el));
            }
            Event::Text(t) => push_text(&mut stack, &mut top, &clean(&t.xml10_content())),
            Event::CData(t) => push_text(&mut stack, &mut top, &clean(&t.xml10_content())),
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref() {
                    Ok(Some(c)) => c,
                    Ok(None) => match r.as_ref() {
                        "amp" => '&',
                        "lt" => '<',
                        "gt" => '>',
                        "quot" => '"',
                        "apos" => '\'',
                        other => {
                            return Err(Error::Xmp(format!(
                                "undefined entity &{other}; at byte {pos} (entities are never expanded)"
                            )))
                        }
                    },
                    Err(e) => return Err(bad(e, pos)),
                };
                push_text(&mut stack, &mut top, &clean(c.encode_utf8(&mut [0; 4])));
            }
            Event::Comment(c) => push(&mut stack, &mut top, Node::Raw(format!("<!--{}-->", &*c))),
            Event::PI(p) => {
                // The xpacket wrapper is rebuilt on writing; other PIs are kept.
                if p.target() != "xpacket" {
                    push(&mut stack, &mut top, Node::Raw(format!("<?{}?>", &*p)));
                }
            }
            Event::Decl(_) => {}
            Event::Eof => break,
        }
    }
    if let Some(open) = stack.last() {
        return Err(Error::Xmp(format!(
            "element <{}> is not closed",
            open.qname
        )));
    }
    Ok(top)
}

/// Whether XML 1.0 allows the character.
pub(crate) fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Text with the characters XML 1.0 does not allow replaced by U+FFFD, so
/// that what is read is what would be written back (a control character
/// in a namespace name must not vanish and turn it into a known one).
fn clean(s: &str) -> String {
    if s.chars().all(xml_char) {
        s.to_owned()
    } else {
        s.chars()
            .map(|c| if xml_char(c) { c } else { '\u{FFFD}' })
            .collect()
    }
}

fn ns_string(r: &ResolveResult<'_>) -> String {
    match r {
        ResolveResult::Bound(ns) => ns.as_ref().to_owned(),
        _ => String::new(),
    }
}

/// Finds the `rdf:RDF` element.
fn find_rdf(nodes: &[Node]) -> Option<&Element> {
    nodes.iter().find_map(|n| match n {
        Node::El(e) if e.is(NS_RDF, "RDF") => Some(e),
        Node::El(e) => find_rdf(&e.children),
        _ => None,
    })
}

fn find_rdf_mut(nodes: &mut [Node]) -> Option<&mut Element> {
    for n in nodes {
        if let Node::El(e) = n {
            if e.is(NS_RDF, "RDF") {
                return Some(e);
            }
            if let Some(found) = find_rdf_mut(&mut e.children) {
                return Some(found);
            }
        }
    }
    None
}

/// An RDF value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Text(String),
    /// `rdf:Seq` or `rdf:Bag`.
    Array(Vec<Value>),
    /// `rdf:Alt`: language and text.
    Alt(Vec<(Option<String>, String)>),
    /// Fields by namespace and local name.
    Struct(Vec<(String, String, Value)>),
}

impl Value {
    /// The text of a simple value, or of the first item of an array or alternative.
    fn first_text(&self) -> Option<String> {
        let t = match self {
            Value::Text(t) => t.trim().to_owned(),
            Value::Array(items) => return items.iter().find_map(Value::first_text),
            Value::Alt(items) => items
                .iter()
                .find(|(l, _)| l.as_deref() == Some("x-default"))
                .or_else(|| items.first())
                .map(|(_, t)| t.trim().to_owned())?,
            Value::Struct(fields) => {
                return fields
                    .iter()
                    .find(|(ns, l, _)| ns == NS_RDF && l == "value")?
                    .2
                    .first_text()
            }
        };
        (!t.is_empty()).then_some(t)
    }
    fn texts(&self) -> Vec<String> {
        match self {
            Value::Array(items) => items.iter().filter_map(Value::first_text).collect(),
            other => other.first_text().into_iter().collect(),
        }
    }
    fn field(&self, ns: &str, local: &str) -> Option<&Value> {
        match self {
            Value::Struct(f) => f
                .iter()
                .find(|(n, l, _)| n == ns && l == local)
                .map(|f| &f.2),
            _ => None,
        }
    }
}

/// The value of a property element.
fn value_of(el: &Element) -> Value {
    let props: Vec<&Attr> = el.property_attrs().collect();
    let parse_type = el.attr(NS_RDF, "parseType");
    let kids: Vec<&Element> = el.elements().collect();
    if parse_type == Some("Resource") {
        return struct_of(el);
    }
    if let [only] = kids.as_slice() {
        if only.ns == NS_RDF {
            match only.local.as_str() {
                "Seq" | "Bag" => {
                    return Value::Array(
                        only.elements()
                            .filter(|li| li.is(NS_RDF, "li"))
                            .map(value_of)
                            .collect(),
                    )
                }
                "Alt" => {
                    return Value::Alt(
                        only.elements()
                            .filter(|li| li.is(NS_RDF, "li"))
                            .map(|li| (li.attr(NS_XML, "lang").map(str::to_owned), li.text()))
                            .collect(),
                    )
                }
                "Description" => return struct_of(only),
                _ => {}
            }
        }
    }
    if !kids.is_empty() || !props.is_empty() {
        return struct_of(el);
    }
    Value::Text(el.text())
}

/// A structure from an element's property attributes and property elements.
fn struct_of(el: &Element) -> Value {
    let mut fields: Vec<(String, String, Value)> = el
        .property_attrs()
        .map(|a| (a.ns.clone(), a.local.clone(), Value::Text(a.value.clone())))
        .collect();
    for k in el.elements() {
        fields.push((k.ns.clone(), k.local.clone(), value_of(k)));
    }
    Value::Struct(fields)
}

/// All top-level properties of a packet, in document order.
pub(crate) fn properties(nodes: &[Node]) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    let Some(rdf) = find_rdf(nodes) else {
        return out;
    };
    for d in rdf.elements().filter(|d| d.is(NS_RDF, "Description")) {
        if let Value::Struct(f) = struct_of(d) {
            out.extend(f);
        }
    }
    out
}

/// A property's value: the last one given, as ExifTool takes it (a later
/// description, a later packet or the extended packet read last replaces
/// what came before).
fn prop<'a>(props: &'a [(String, String, Value)], ns: &str, local: &str) -> Option<&'a Value> {
    props
        .iter()
        .rev()
        .find(|(n, l, _)| n == ns && l == local)
        .map(|p| &p.2)
}

/// The `xmpNote:HasExtendedXMP` GUID, if any.
pub(crate) fn extended_guid(props: &[(String, String, Value)]) -> Option<String> {
    prop(props, NS_NOTE, "HasExtendedXMP").and_then(Value::first_text)
}

/// Whether the packet has a property.
pub(crate) fn has(props: &[(String, String, Value)], ns: &str, local: &str) -> bool {
    prop(props, ns, local).is_some()
}

/// Builds the caption fields from properties.
pub(crate) fn to_metadata(props: &[(String, String, Value)]) -> PhotoMetadata {
    let text = |ns: &str, local: &str| prop(props, ns, local).and_then(Value::first_text);
    let list = |ns: &str, local: &str| prop(props, ns, local).map(Value::texts).unwrap_or_default();
    let gps = prop(props, NS_EXT, "LocationShown").and_then(|v| {
        let items: Vec<&Value> = match v {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        items.into_iter().find_map(|loc| {
            let lat = loc.field(NS_EXIF, "GPSLatitude")?.first_text()?;
            let lon = loc.field(NS_EXIF, "GPSLongitude")?.first_text()?;
            Some((parse_coord(&lat, 90.0)?, parse_coord(&lon, 180.0)?))
        })
    });
    PhotoMetadata {
        description: text(NS_DC, "description"),
        creators: list(NS_DC, "creator"),
        credit_line: text(NS_PS, "Credit"),
        source: text(NS_PS, "Source"),
        date_created: text(NS_PS, "DateCreated"),
        sublocation: text(NS_CORE, "Location"),
        city: text(NS_PS, "City"),
        province_state: text(NS_PS, "State"),
        country: text(NS_PS, "Country"),
        country_code: text(NS_CORE, "CountryCode"),
        persons_shown: list(NS_EXT, "PersonInImage"),
        organisations: list(NS_EXT, "OrganisationInImageName"),
        gps,
    }
}

/// Parses an XMP GPS coordinate: `DD,MM.mmmR`, `DD,MM,SSR` or a signed decimal.
pub(crate) fn parse_coord(s: &str, max: f64) -> Option<f64> {
    let s = s.trim();
    let (body, sign) = match s.chars().last()? {
        'N' | 'E' | 'n' | 'e' => (&s[..s.len() - 1], 1.0),
        'S' | 'W' | 's' | 'w' => (&s[..s.len() - 1], -1.0),
        _ => (s, 1.0),
    };
    let mut parts = body.split(',').map(|p| p.trim().parse::<f64>());
    let deg = parts.next()?.ok()?;
    let min = parts.next().transpose().ok()?.unwrap_or(0.0);
    let sec = parts.next().transpose().ok()?.unwrap_or(0.0);
    if parts.next().is_some() || !(0.0..60.0).contains(&min) || !(0.0..60.0).contains(&sec) {
        return None;
    }
    let neg = body.trim_start().starts_with('-');
    let v = sign * (deg.abs() + min / 60.0 + sec / 3600.0) * if neg { -1.0 } else { 1.0 };
    (v.is_finite() && v.abs() <= max).then_some(v)
}

/// Formats a coordinate as XMP `DD,MM.mmmmmmR`.
pub(crate) fn format_coord(v: f64, pos: char, neg: char) -> String {
    let r = if v < 0.0 { neg } else { pos };
    let micro_minutes = (v.abs() * 60.0 * 1e6).round() as u64;
    let deg = micro_minutes / 60_000_000;
    let rest = micro_minutes % 60_000_000;
    format!("{deg},{}.{:06}{r}", rest / 1_000_000, rest % 1_000_000)
}

/// One XMP property to write.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NewProp {
    /// A simple text property.
    Text(&'static str, &'static str, String),
    /// An ordered (`Seq`) or unordered (`Bag`) array of text.
    Array(&'static str, &'static str, &'static str, Vec<String>),
    /// A language alternative with one `x-default` item.
    LangAlt(&'static str, &'static str, String),
    /// `Iptc4xmpExt:LocationShown` with one location: (local name in Iptc4xmpExt, text) and GPS.
    LocationShown(Vec<(&'static str, String)>, Option<(f64, f64)>),
}

fn prefix_of(ns: &str) -> &'static str {
    PREFIXES
        .iter()
        .find(|(_, n)| *n == ns)
        .map(|(p, _)| *p)
        .unwrap_or("ns")
}

fn el(ns: &'static str, local: &str, attrs: Vec<Attr>, children: Vec<Node>) -> Element {
    Element {
        qname: format!("{}:{local}", prefix_of(ns)),
        ns: ns.into(),
        local: local.into(),
        attrs,
        children,
    }
}

fn rdf_attr(local: &str, value: &str) -> Attr {
    Attr {
        qname: format!("rdf:{local}"),
        ns: NS_RDF.into(),
        local: local.into(),
        value: value.into(),
    }
}

fn indent(depth: usize) -> Node {
    Node::Text(format!("\n{}", " ".repeat(depth)))
}

/// Element children with indentation.
fn block(depth: usize, items: Vec<Element>) -> Vec<Node> {
    let mut out = Vec::new();
    for i in items {
        out.push(indent(depth));
        out.push(Node::El(i));
    }
    out.push(indent(depth - 1));
    out
}

fn text_el(ns: &'static str, local: &str, t: &str) -> Element {
    el(ns, local, vec![], vec![Node::Text(t.to_owned())])
}

fn to_element(p: &NewProp, depth: usize) -> Element {
    match p {
        NewProp::Text(ns, l, t) => text_el(ns, l, t),
        NewProp::Array(ns, l, kind, items) => {
            let lis = items.iter().map(|t| text_el(NS_RDF, "li", t)).collect();
            let arr = el(NS_RDF, kind, vec![], block(depth + 2, lis));
            el(ns, l, vec![], block(depth + 1, vec![arr]))
        }
        NewProp::LangAlt(ns, l, t) => {
            let lang = Attr {
                qname: "xml:lang".into(),
                ns: NS_XML.into(),
                local: "lang".into(),
                value: "x-default".into(),
            };
            let li = el(NS_RDF, "li", vec![lang], vec![Node::Text(t.clone())]);
            let alt = el(NS_RDF, "Alt", vec![], block(depth + 2, vec![li]));
            el(ns, l, vec![], block(depth + 1, vec![alt]))
        }
        NewProp::LocationShown(fields, gps) => {
            let mut items: Vec<Element> =
                fields.iter().map(|(l, t)| text_el(NS_EXT, l, t)).collect();
            if let Some((lat, lon)) = gps {
                items.push(text_el(
                    NS_EXIF,
                    "GPSLatitude",
                    &format_coord(*lat, 'N', 'S'),
                ));
                items.push(text_el(
                    NS_EXIF,
                    "GPSLongitude",
                    &format_coord(*lon, 'E', 'W'),
                ));
            }
            let li = el(
                NS_RDF,
                "li",
                vec![rdf_attr("parseType", "Resource")],
                block(depth + 3, items),
            );
            let bag = el(NS_RDF, "Bag", vec![], block(depth + 2, vec![li]));
            el(NS_EXT, "LocationShown", vec![], block(depth + 1, vec![bag]))
        }
    }
}

/// A new `rdf:Description` holding `props`, declaring every prefix it uses.
fn description(about: &str, props: &[NewProp]) -> Element {
    let items: Vec<Element> = props.iter().map(|p| to_element(p, 2)).collect();
    let mut used = vec![NS_RDF];
    for i in &items {
        namespaces_in(i, &mut used);
    }
    let mut attrs = vec![rdf_attr("about", about)];
    for (p, ns) in PREFIXES.into_iter().filter(|(_, ns)| used.contains(ns)) {
        attrs.push(Attr {
            qname: format!("xmlns:{p}"),
            ns: String::new(),
            local: p.into(),
            value: ns.into(),
        });
    }
    el(NS_RDF, "Description", attrs, block(2, items))
}

/// Adds the namespaces of an element built by this module and its descendants.
fn namespaces_in(e: &Element, out: &mut Vec<&'static str>) {
    if let Some((_, ns)) = PREFIXES.iter().find(|(_, ns)| *ns == e.ns) {
        if !out.contains(ns) {
            out.push(ns);
        }
    }
    for c in e.elements() {
        namespaces_in(c, out);
    }
}

/// Adds GPS to the first existing `Iptc4xmpExt:LocationShown` structure
/// written as `rdf:parseType="Resource"` or a nested `rdf:Description`;
/// `false` when there is no such structure.
pub(crate) fn add_gps_to_location(doc: &mut [Node], (lat, lon): (f64, f64)) -> bool {
    let Some(rdf) = find_rdf_mut(doc) else {
        return false;
    };
    for n in &mut rdf.children {
        let Node::El(d) = n else { continue };
        if !d.is(NS_RDF, "Description") {
            continue;
        }
        for c in &mut d.children {
            let Node::El(p) = c else { continue };
            if !p.is(NS_EXT, "LocationShown") {
                continue;
            }
            let Some(target) = first_struct_mut(p) else {
                continue;
            };
            for (local, v) in [
                ("GPSLatitude", format_coord(lat, 'N', 'S')),
                ("GPSLongitude", format_coord(lon, 'E', 'W')),
            ] {
                let decl = Attr {
                    qname: "xmlns:exif".into(),
                    ns: String::new(),
                    local: "exif".into(),
                    value: NS_EXIF.into(),
                };
                target.children.push(Node::Text("\n     ".into()));
                target.children.push(Node::El(el(
                    NS_EXIF,
                    local,
                    vec![decl],
                    vec![Node::Text(v)],
                )));
            }
            target.children.push(Node::Text("\n    ".into()));
            return true;
        }
    }
    false
}

/// The first structure of an array property, if written as a resource.
fn first_struct_mut(p: &mut Element) -> Option<&mut Element> {
    let arr = p.children.iter_mut().find_map(|c| match c {
        Node::El(e) if e.ns == NS_RDF && matches!(e.local.as_str(), "Bag" | "Seq") => Some(e),
        _ => None,
    })?;
    let li = arr.children.iter_mut().find_map(|c| match c {
        Node::El(e) if e.is(NS_RDF, "li") => Some(e),
        _ => None,
    })?;
    if li.attr(NS_RDF, "parseType") == Some("Resource") {
        return Some(li);
    }
    li.children.iter_mut().find_map(|c| match c {
        Node::El(e) if e.is(NS_RDF, "Description") => Some(e),
        _ => None,
    })
}

/// A fresh packet tree (`x:xmpmeta` / `rdf:RDF`) with no description.
fn empty_doc() -> Vec<Node> {
    let rdf = Element {
        qname: "rdf:RDF".into(),
        ns: NS_RDF.into(),
        local: "RDF".into(),
        attrs: vec![Attr {
            qname: "xmlns:rdf".into(),
            ns: String::new(),
            local: "rdf".into(),
            value: NS_RDF.into(),
        }],
        children: vec![Node::Text("\n".into())],
    };
    let meta = Element {
        qname: "x:xmpmeta".into(),
        ns: NS_X.into(),
        local: "xmpmeta".into(),
        attrs: vec![
            Attr {
                qname: "xmlns:x".into(),
                ns: String::new(),
                local: "x".into(),
                value: NS_X.into(),
            },
            Attr {
                qname: "x:xmptk".into(),
                ns: NS_X.into(),
                local: "xmptk".into(),
                value: concat!("dateline photometa ", env!("CARGO_PKG_VERSION")).into(),
            },
        ],
        children: vec![
            Node::Text("\n".into()),
            Node::El(rdf),
            Node::Text("\n".into()),
        ],
    };
    vec![Node::El(meta)]
}

/// Merges several packets into the first: the descriptions of the others move
/// into its `rdf:RDF`, carrying the namespace declarations of their ancestors.
pub(crate) fn merge_docs(mut docs: Vec<Vec<Node>>) -> Vec<Node> {
    if docs.is_empty() {
        return empty_doc();
    }
    let mut first = docs.remove(0);
    if find_rdf(&first).is_none() {
        first = empty_doc();
    }
    let mut moved: Vec<Vec<Element>> = docs
        .iter()
        .map(|doc| {
            let mut descriptions = Vec::new();
            collect_descriptions(doc, &mut Vec::new(), &mut descriptions);
            for d in &mut descriptions {
                // Names this packet left unbound could be bound by the first packet's
                // declarations once moved there: they are dropped (no reader can use them).
                prune_unbound(d);
            }
            descriptions
        })
        .collect();
    // A property set again later is dropped from where it came before (the
    // reader's rule: the last wins), so no property appears twice. The
    // descriptions are visited from the last to the first.
    let mut seen: Vec<(String, String)> = Vec::new();
    for descriptions in moved.iter_mut().rev() {
        for d in descriptions.iter_mut().rev() {
            drop_seen(d, &mut seen);
        }
    }
    if let Some(rdf) = find_rdf_mut(&mut first) {
        for n in rdf.children.iter_mut().rev() {
            if let Node::El(d) = n {
                if d.is(NS_RDF, "Description") {
                    drop_seen(d, &mut seen);
                }
            }
        }
        for d in moved.into_iter().flatten() {
            rdf.children.push(Node::El(d));
            rdf.children.push(Node::Text("\n".into()));
        }
    }
    first
}

/// Removes from a description the properties in `seen`, then adds its own.
fn drop_seen(d: &mut Element, seen: &mut Vec<(String, String)>) {
    let dup =
        |ns: &str, l: &str, seen: &[(String, String)]| seen.iter().any(|(n, x)| n == ns && x == l);
    d.attrs
        .retain(|a| is_xmlns(&a.qname) || a.ns == NS_RDF || !dup(&a.ns, &a.local, seen));
    d.children
        .retain(|c| !matches!(c, Node::El(p) if dup(&p.ns, &p.local, seen)));
    if let Value::Struct(f) = struct_of(d) {
        seen.extend(f.into_iter().map(|(ns, l, _)| (ns, l)));
    }
}

fn collect_descriptions(nodes: &[Node], decls: &mut Vec<Attr>, out: &mut Vec<Element>) {
    for n in nodes {
        let Node::El(e) = n else { continue };
        let before = decls.len();
        if e.is(NS_RDF, "RDF") {
            decls.extend(e.attrs.iter().filter(|a| is_xmlns(&a.qname)).cloned());
            for d in e.elements().filter(|d| d.is(NS_RDF, "Description")) {
                let mut d = d.clone();
                for a in decls.iter().rev() {
                    if !d.attrs.iter().any(|x| x.qname == a.qname) {
                        d.attrs.push(a.clone());
                    }
                }
                out.push(d);
            }
        } else {
            decls.extend(e.attrs.iter().filter(|a| is_xmlns(&a.qname)).cloned());
            collect_descriptions(&e.children, decls, out);
        }
        decls.truncate(before);
    }
}

/// Removes elements without a namespace and prefixed attributes whose prefix is unbound.
fn prune_unbound(e: &mut Element) {
    e.attrs
        .retain(|a| is_xmlns(&a.qname) || !a.ns.is_empty() || !a.qname.contains(':'));
    e.children
        .retain(|c| !matches!(c, Node::El(k) if k.ns.is_empty()));
    for c in &mut e.children {
        if let Node::El(k) = c {
            prune_unbound(k);
        }
    }
}

/// Removes the given properties wherever they are, then adds `props` in a new description.
pub(crate) fn apply(doc: &mut Vec<Node>, remove: &[(&str, &str)], props: &[NewProp]) {
    if find_rdf(doc).is_none() {
        *doc = empty_doc();
    }
    let Some(rdf) = find_rdf_mut(doc) else { return };
    let mut about = None;
    for n in &mut rdf.children {
        let Node::El(d) = n else { continue };
        if !d.is(NS_RDF, "Description") {
            continue;
        }
        if about.is_none() {
            about = d.attr(NS_RDF, "about").map(str::to_owned);
        }
        d.attrs
            .retain(|a| !remove.iter().any(|(ns, l)| a.ns == *ns && a.local == *l));
        let mut kept = Vec::with_capacity(d.children.len());
        for c in d.children.drain(..) {
            if let Node::El(p) = &c {
                if remove.iter().any(|(ns, l)| p.is(ns, l)) {
                    // Drop the property and the whitespace before it.
                    if matches!(kept.last(), Some(Node::Text(t)) if t.trim().is_empty()) {
                        kept.pop();
                    }
                    continue;
                }
            }
            kept.push(c);
        }
        d.children = kept;
    }
    if !props.is_empty() {
        let d = description(about.as_deref().unwrap_or(""), props);
        if !matches!(rdf.children.last(), Some(Node::Text(_))) {
            rdf.children.push(Node::Text("\n".into()));
        }
        rdf.children.push(Node::Text(" ".into()));
        rdf.children.push(Node::El(d));
        rdf.children.push(Node::Text("\n".into()));
    }
}

/// Serializes a tree inside a fresh `xpacket` wrapper with `padding` bytes of whitespace.
pub(crate) fn serialize(doc: &[Node], padding: usize) -> String {
    let mut out = String::from("<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n");
    for n in doc {
        write_node(&mut out, n);
    }
    out.push('\n');
    let line = " ".repeat(99) + "\n";
    let mut left = padding;
    while left >= line.len() {
        out.push_str(&line);
        left -= line.len();
    }
    out.push_str(&" ".repeat(left));
    out.push_str("<?xpacket end=\"w\"?>");
    out
}

fn write_node(out: &mut String, n: &Node) {
    match n {
        Node::Text(t) => escape(out, t, false),
        Node::Raw(r) => out.push_str(r),
        Node::El(e) => {
            out.push('<');
            out.push_str(&e.qname);
            for a in &e.attrs {
                out.push(' ');
                out.push_str(&a.qname);
                if is_xmlns(&a.qname) {
                    // Raw, as read (see `parse`); it cannot hold the quote that delimited it.
                    let q = if a.value.contains('"') { '\'' } else { '"' };
                    out.push('=');
                    out.push(q);
                    out.push_str(&a.value);
                    out.push(q);
                    continue;
                }
                out.push_str("=\"");
                escape(out, &a.value, true);
                out.push('"');
            }
            if e.children.is_empty() {
                out.push_str("/>");
                return;
            }
            out.push('>');
            for c in &e.children {
                write_node(out, c);
            }
            out.push_str("</");
            out.push_str(&e.qname);
            out.push('>');
        }
    }
}

fn escape(out: &mut String, s: &str, attr: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            '\n' if attr => out.push_str("&#xA;"),
            '\t' if attr => out.push_str("&#x9;"),
            '\r' => out.push_str("&#xD;"),
            // Not allowed in XML 1.0 (the parser already replaced them in what it read).
            c if !xml_char(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

/// Reads caption fields from one XMP packet (a sidecar file or an APP1 payload).
pub fn read_xmp(packet: &[u8]) -> Result<PhotoMetadata, Error> {
    let doc = parse(packet)?;
    Ok(to_metadata(&properties(&doc)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACKET: &str = r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:ps="http://ns.adobe.com/photoshop/1.0/" ps:City="Idlib" ps:Credit="AFP &amp; co">
 <dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Seq><rdf:li>Ann</rdf:li><rdf:li>Bob</rdf:li></rdf:Seq></dc:creator>
 <dc:description xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Alt><rdf:li xml:lang="fr">Non</rdf:li><rdf:li xml:lang="x-default">Yes &#233;</rdf:li></rdf:Alt></dc:description>
 <Iptc4xmpExt:LocationShown xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:exif="http://ns.adobe.com/exif/1.0/"><rdf:Bag><rdf:li rdf:parseType="Resource"><exif:GPSLatitude>35,55.5N</exif:GPSLatitude><exif:GPSLongitude>36,38.25E</exif:GPSLongitude></rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>
 <!-- kept --><foo:Other xmlns:foo="urn:foo">x</foo:Other>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"#;

    #[test]
    fn reads_attributes_elements_and_structures() {
        let m = read_xmp(PACKET.as_bytes()).unwrap();
        assert_eq!(m.city.as_deref(), Some("Idlib"));
        assert_eq!(m.credit_line.as_deref(), Some("AFP & co"));
        assert_eq!(m.creators, ["Ann", "Bob"]);
        assert_eq!(m.description.as_deref(), Some("Yes é"));
        let (lat, lon) = m.gps.unwrap();
        assert!((lat - 35.925).abs() < 1e-9 && (lon - 36.6375).abs() < 1e-9);
    }

    #[test]
    fn refuses_doctype_and_unknown_entities() {
        let evil = r#"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "http://example.invalid/">]><x:xmpmeta xmlns:x="adobe:ns:meta/">&e;</x:xmpmeta>"#;
        assert!(matches!(read_xmp(evil.as_bytes()), Err(Error::XmpDoctype)));
        let undefined = r#"<x:xmpmeta xmlns:x="adobe:ns:meta/">&e;</x:xmpmeta>"#;
        assert!(matches!(read_xmp(undefined.as_bytes()), Err(Error::Xmp(_))));
        let many = format!("<a>{}</a>", "<b/>".repeat(MAX_ELEMENTS));
        assert!(matches!(read_xmp(many.as_bytes()), Err(Error::Xmp(m)) if m.contains("elements")));
        let deep = "<a>".repeat(1000);
        assert!(matches!(read_xmp(deep.as_bytes()), Err(Error::Xmp(_))));
        assert!(read_xmp(b"<a><b></a>").is_err());
        // Found by fuzzing: `<\n/>` is no element (it was written back as `</>`).
        assert!(matches!(read_xmp(b"<a><\n/></a>"), Err(Error::Xmp(_))));
        assert!(read_xmp(b"<a>").is_err());
    }

    #[test]
    fn edits_keep_unknown_properties() {
        let mut doc = parse(PACKET.as_bytes()).unwrap();
        apply(
            &mut doc,
            &[(NS_PS, "City"), (NS_DC, "creator")],
            &[
                NewProp::Text(NS_PS, "City", "Aleppo <north>".into()),
                NewProp::Array(NS_DC, "creator", "Seq", vec!["Cy".into()]),
            ],
        );
        let out = serialize(&doc, 100);
        let m = read_xmp(out.as_bytes()).unwrap();
        assert_eq!(m.city.as_deref(), Some("Aleppo <north>"));
        assert_eq!(m.creators, ["Cy"]);
        assert_eq!(m.credit_line.as_deref(), Some("AFP & co"));
        assert!(
            out.contains("<foo:Other xmlns:foo=\"urn:foo\">x</foo:Other>"),
            "{out}"
        );
        assert!(out.contains("<!-- kept -->"));
    }

    #[test]
    fn control_characters_do_not_vanish_on_rewrite() {
        // Found by fuzzing: a control character inside a namespace name was
        // dropped on writing, which turned it into the real Iptc4xmpExt.
        let packet = "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\
            <rdf:Description xmlns:e='http://ipt\u{1a}c.org/std/Iptc4xmpExt/2008-02-29/'>\
            <e:PersonInImage><rdf:Bag><rdf:li>Bob\u{1}</rdf:li></rdf:Bag></e:PersonInImage>\
            </rdf:Description></rdf:RDF></x:xmpmeta>";
        assert!(read_xmp(packet.as_bytes())
            .unwrap()
            .persons_shown
            .is_empty());
        let out = with_city_added(packet);
        let m = read_xmp(out.as_bytes()).unwrap();
        assert!(m.persons_shown.is_empty(), "{out}");
        assert!(out.contains("Bob\u{FFFD}"), "{out}");
    }

    /// The packet rewritten with one property added, as `tag` rewrites it.
    fn with_city_added(packet: &str) -> String {
        let mut doc = parse(packet.as_bytes()).unwrap();
        apply(
            &mut doc,
            &[],
            &[NewProp::Text(NS_PS, "City", "Idlib".into())],
        );
        serialize(&doc, 0)
    }

    #[test]
    fn namespace_declarations_are_written_as_read() {
        // quick-xml resolves prefixes with the raw value: `&#x2F;` is not `/` to it.
        let packet = "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\
            <rdf:Description xmlns:p='http://ns.adobe.com/photoshop/1.0&#x2F;' xmlns:q='a\"b' p:Source='S'/>\
            </rdf:RDF></x:xmpmeta>";
        let before = read_xmp(packet.as_bytes()).unwrap();
        let out = with_city_added(packet);
        assert!(
            out.contains("xmlns:p=\"http://ns.adobe.com/photoshop/1.0&#x2F;\""),
            "{out}"
        );
        assert!(out.contains("xmlns:q='a\"b'"), "{out}");
        let after = read_xmp(out.as_bytes()).unwrap();
        assert_eq!(after.source, before.source);
    }

    #[test]
    fn merged_packets_do_not_bind_prefixes_left_unbound() {
        let a = parse(br#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:p="http://ns.adobe.com/photoshop/1.0/"><rdf:Description p:City="A"/></rdf:RDF></x:xmpmeta>"#).unwrap();
        let b = parse(br#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description p:Source="S"><p:Credit>C</p:Credit></rdf:Description></rdf:RDF></x:xmpmeta>"#).unwrap();
        assert_eq!(to_metadata(&properties(&b)), PhotoMetadata::default());
        let merged = merge_docs(vec![a, b]);
        let m = read_xmp(serialize(&merged, 0).as_bytes()).unwrap();
        assert_eq!(
            (m.source, m.credit_line, m.city.as_deref()),
            (None, None, Some("A"))
        );
    }

    #[test]
    fn coordinates() {
        assert_eq!(format_coord(48.8566, 'N', 'S'), "48,51.396000N");
        assert_eq!(format_coord(-2.35, 'E', 'W'), "2,21.000000W");
        assert_eq!(format_coord(-0.0000001, 'N', 'S'), "0,0.000006S");
        assert_eq!(parse_coord("2,21.0W", 180.0), Some(-2.35));
        assert_eq!(parse_coord("10,30,36S", 90.0), Some(-10.51));
        assert_eq!(parse_coord("-12.5", 90.0), Some(-12.5));
        assert_eq!(parse_coord("91,0N", 90.0), None);
        assert_eq!(parse_coord("1,75N", 90.0), None);
        assert_eq!(parse_coord("", 90.0), None);
    }

    #[test]
    fn merges_packets_with_their_namespaces() {
        let a = parse(PACKET.as_bytes()).unwrap();
        let b = parse(br#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ps="http://ns.adobe.com/photoshop/1.0/"><rdf:Description ps:Source="Reuters"/></rdf:RDF></x:xmpmeta>"#).unwrap();
        let merged = merge_docs(vec![a, b]);
        let m = read_xmp(serialize(&merged, 0).as_bytes()).unwrap();
        assert_eq!(m.source.as_deref(), Some("Reuters"));
        assert_eq!(m.city.as_deref(), Some("Idlib"));
    }
}
