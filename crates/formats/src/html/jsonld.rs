//! JSON-LD: the `ImageObject`s of an `application/ld+json` script, wherever
//! they sit (top level, arrays, `@graph`, `NewsArticle.image`,
//! `associatedMedia`), with their caption, URL and stated fields.

use serde_json::{Map, Value};

use super::markup::{fragment_text, has_entity, has_markup, is_descriptive};
use super::Stated;

/// Objects nested deeper than this are not searched (serde_json already
/// refuses documents nested deeper than 128).
const MAX_JSON_DEPTH: usize = 64;

/// At most this many images are taken from one page.
pub(super) const MAX_IMAGES: usize = 10_000;

/// One `ImageObject`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct LdImage {
    /// Offset of the `<script>` tag.
    pub(super) offset: u64,
    /// `caption`, else `description`, else a descriptive `name`.
    pub(super) caption: Option<String>,
    /// `contentUrl`, else `url`.
    pub(super) url: Option<String>,
    pub(super) stated: Stated,
}

/// Adds the images of one script's text to `out`; the error says why the
/// script is not JSON.
pub(super) fn read_script(script: &str, offset: u64, out: &mut Vec<LdImage>) -> Result<(), String> {
    let json = strip_wrappers(script);
    if json.is_empty() {
        return Ok(());
    }
    let value: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    walk(&value, offset, 0, out);
    Ok(())
}

/// Drops the `<!-- -->` and `CDATA` wrappers old pages put around scripts.
fn strip_wrappers(script: &str) -> &str {
    let mut s = script.trim();
    for (open, close) in [
        ("<!--", "-->"),
        ("//<![CDATA[", "//]]>"),
        ("/*<![CDATA[*/", "/*]]>*/"),
        ("<![CDATA[", "]]>"),
    ] {
        if let Some(inner) = s.strip_prefix(open) {
            s = inner.strip_suffix(close).unwrap_or(inner).trim();
        }
    }
    s
}

fn walk(value: &Value, offset: u64, depth: usize, out: &mut Vec<LdImage>) {
    if depth > MAX_JSON_DEPTH || out.len() >= MAX_IMAGES {
        return;
    }
    match value {
        Value::Array(items) => {
            for item in items {
                walk(item, offset, depth + 1, out);
            }
        }
        Value::Object(object) => {
            if is_image_object(object) {
                if let Some(image) = image(object, offset) {
                    out.push(image);
                }
                return;
            }
            for item in object.values() {
                walk(item, offset, depth + 1, out);
            }
        }
        _ => {}
    }
}

fn is_image_object(object: &Map<String, Value>) -> bool {
    let is_image = |t: &Value| {
        t.as_str().is_some_and(|t| {
            let name = t.rsplit(['/', ':', '#']).next().unwrap_or(t);
            name == "ImageObject" || name == "Photograph"
        })
    };
    match object.get("@type") {
        Some(Value::Array(types)) => types.iter().any(is_image),
        Some(t) => is_image(t),
        None => false,
    }
}

fn image(object: &Map<String, Value>, offset: u64) -> Option<LdImage> {
    let field = |name: &str| object.get(name).and_then(text_of);
    let caption = field("caption")
        .or_else(|| field("description"))
        .or_else(|| field("name").filter(|n| is_descriptive(n)));
    let url = ["contentUrl", "url", "@id"]
        .iter()
        .find_map(|name| object.get(*name).and_then(url_of))
        .filter(|u| !u.starts_with("_:") && !u.starts_with('#'));
    let mut creators = Vec::new();
    for name in ["creator", "author"] {
        if creators.is_empty() {
            if let Some(v) = object.get(name) {
                names_of(v, 0, &mut creators);
            }
        }
    }
    let place = ["contentLocation", "locationCreated"]
        .iter()
        .find_map(|name| object.get(*name));
    let address = place.and_then(address_of);
    let part = |name: &str| address.and_then(|a| a.get(name)).and_then(text_of);
    let stated = Stated {
        creators,
        credit_text: field("creditText"),
        copyright_holder: field("copyrightHolder"),
        copyright_notice: field("copyrightNotice"),
        date_created: field("dateCreated"),
        content_location: place.and_then(text_of),
        address_locality: part("addressLocality"),
        address_region: part("addressRegion"),
        address_country: part("addressCountry"),
    };
    if caption.is_none() && url.is_none() && stated.is_empty() {
        return None;
    }
    Some(LdImage {
        offset,
        caption,
        url,
        stated,
    })
}

/// A value's text: a string, an object's `name`, `@value` or `text`, an
/// array's first text; entities and tags removed.
fn text_of(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(s) if has_markup(s) || has_entity(s) => fragment_text(s),
        Value::String(s) => s.split_whitespace().collect::<Vec<_>>().join(" "),
        Value::Object(o) => {
            return ["name", "@value", "text"]
                .iter()
                .find_map(|k| o.get(*k).and_then(text_of))
        }
        Value::Array(items) => return items.iter().take(16).find_map(text_of),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

/// The `PostalAddress` object of a place (the place's first, when a list).
fn address_of(place: &Value) -> Option<&Map<String, Value>> {
    match place {
        Value::Object(o) => match o.get("address") {
            Some(Value::Object(address)) => Some(address),
            _ => None,
        },
        Value::Array(items) => items.iter().take(16).find_map(address_of),
        _ => None,
    }
}

fn url_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Object(o) => ["contentUrl", "url"]
            .iter()
            .find_map(|k| o.get(*k).and_then(url_of)),
        Value::Array(items) => items.iter().take(16).find_map(url_of),
        _ => None,
    }
}

fn names_of(value: &Value, depth: usize, out: &mut Vec<String>) {
    if depth > 4 || out.len() >= 32 {
        return;
    }
    match value {
        Value::Array(items) => {
            for item in items {
                names_of(item, depth + 1, out);
            }
        }
        other => {
            if let Some(name) = text_of(other) {
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn images(script: &str) -> Vec<LdImage> {
        let mut out = Vec::new();
        read_script(script, 7, &mut out).expect("valid JSON");
        out
    }

    #[test]
    fn image_objects_anywhere() {
        let found = images(
            r#"{"@context":"https://schema.org","@graph":[
                {"@type":"NewsArticle","headline":"Storm","image":{
                    "@type":"ImageObject","url":"https://img.example/a.jpg",
                    "caption":"Waves hit the pier in Brighton, Britain, Feb. 9, 2020.",
                    "creditText":"REUTERS/Jane Roe",
                    "creator":[{"@type":"Person","name":"Jane Roe"},"John Doe"],
                    "dateCreated":"2020-02-09T10:15:00Z",
                    "contentLocation":{"@type":"Place","name":"Brighton"}}},
                [{"@type":["ImageObject"],"contentUrl":"b.jpg","description":"Second &amp; last"}]
            ]}"#,
        );
        assert_eq!(found.len(), 2);
        let first = &found[0];
        assert_eq!(
            first.caption.as_deref(),
            Some("Waves hit the pier in Brighton, Britain, Feb. 9, 2020.")
        );
        assert_eq!(first.url.as_deref(), Some("https://img.example/a.jpg"));
        assert_eq!(first.stated.creators, ["Jane Roe", "John Doe"]);
        assert_eq!(
            first.stated.credit_text.as_deref(),
            Some("REUTERS/Jane Roe")
        );
        assert_eq!(
            first.stated.date_created.as_deref(),
            Some("2020-02-09T10:15:00Z")
        );
        assert_eq!(first.stated.content_location.as_deref(), Some("Brighton"));
        assert_eq!(found[1].caption.as_deref(), Some("Second & last"));
        assert_eq!(found[1].stated.address_locality, None);
        assert_eq!(found[1].offset, 7);
    }

    #[test]
    fn a_place_address_is_read_part_by_part() {
        let found = images(
            r#"{"@type":"ImageObject","caption":"Fans cheer at the stadium.",
                "contentLocation":{"@type":"Place","name":"Rose Bowl",
                    "address":{"@type":"PostalAddress","addressLocality":"Pasadena",
                        "addressRegion":"CA","addressCountry":{"@type":"Country","name":"US"}}}}"#,
        );
        let stated = &found[0].stated;
        assert_eq!(stated.content_location.as_deref(), Some("Rose Bowl"));
        assert_eq!(stated.address_locality.as_deref(), Some("Pasadena"));
        assert_eq!(stated.address_region.as_deref(), Some("CA"));
        assert_eq!(stated.address_country.as_deref(), Some("US"));
    }

    #[test]
    fn wrappers_and_errors() {
        assert_eq!(
            images("<!-- {\"@type\":\"ImageObject\",\"caption\":\"x y z\"} -->").len(),
            1
        );
        assert!(images("  ").is_empty());
        let mut out = Vec::new();
        assert!(read_script("{\"@type\": \"ImageObject\",", 0, &mut out).is_err());
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(read_script(&deep, 0, &mut out).is_err());
    }
}
