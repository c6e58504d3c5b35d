//! Image URLs: which attribute holds the real one, resolution against
//! `<base href>` (RFC 3986, section 5.2), and a key to tell two URLs of one
//! image file apart from two files.

/// The first URL of a `srcset` (`a.jpg 1x, b.jpg 2x` gives `a.jpg`).
pub(super) fn first_of_srcset(srcset: &str) -> Option<&str> {
    let first = srcset.split_whitespace().next()?.trim_end_matches(',');
    (!first.is_empty()).then_some(first)
}

/// A `src` that only stands in until a script loads the real image.
pub(super) fn is_placeholder(url: &str) -> bool {
    let lower_start = url.get(..5).unwrap_or("");
    url.trim().is_empty()
        || lower_start.eq_ignore_ascii_case("data:")
        || url.starts_with("about:")
        || [
            "blank.gif",
            "spacer.gif",
            "placeholder",
            "lazy-load",
            "lazyload",
            "pixel.gif",
        ]
        .iter()
        .any(|p| contains_ignore_case(url, p))
}

fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// The URL's scheme (`https`), when it has one.
fn scheme(url: &str) -> Option<&str> {
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// `reference` resolved against `base`; unchanged when `base` is not an
/// absolute hierarchical URL (`scheme://authority/path`).
pub(super) fn resolve(base: &str, reference: &str) -> String {
    let reference = reference.trim();
    if scheme(reference).is_some() {
        return reference.to_string();
    }
    let Some(base_scheme) = scheme(base) else {
        return reference.to_string();
    };
    let Some(after) = base[base_scheme.len() + 1..].strip_prefix("//") else {
        return reference.to_string();
    };
    let authority_end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let authority = &after[..authority_end];
    let rest = &after[authority_end..];
    let path_end = rest.find(['?', '#']).unwrap_or(rest.len());
    let base_path = &rest[..path_end];
    let base_query_end = rest.find('#').unwrap_or(rest.len());
    let origin = format!("{base_scheme}://{authority}");

    if let Some(net) = reference.strip_prefix("//") {
        return format!("{base_scheme}://{net}");
    }
    if reference.is_empty() {
        return format!("{origin}{}", &rest[..base_query_end]);
    }
    if reference.starts_with('#') {
        return format!("{origin}{}{reference}", &rest[..base_query_end]);
    }
    if reference.starts_with('?') {
        return format!("{origin}{base_path}{reference}");
    }
    let ref_path_end = reference.find(['?', '#']).unwrap_or(reference.len());
    let (ref_path, ref_tail) = reference.split_at(ref_path_end);
    let merged = if ref_path.starts_with('/') {
        ref_path.to_string()
    } else {
        let dir = match base_path.rfind('/') {
            Some(i) => &base_path[..=i],
            None => "/",
        };
        format!("{dir}{ref_path}")
    };
    format!("{origin}{}{ref_tail}", remove_dot_segments(&merged))
}

/// `/a/b/../c/./d` to `/a/c/d`.
fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.strip_prefix('/').unwrap_or(path).split('/').collect();
    let last = segments.len().saturating_sub(1);
    for (i, segment) in segments.iter().enumerate() {
        match *segment {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                out.pop();
                if i == last {
                    out.push("");
                }
            }
            other => out.push(other),
        }
    }
    format!("/{}", out.join("/"))
}

/// A key that is the same for two URLs of one image file in different
/// sizes or on different hosts: the last path segment, lowercased, without
/// query and without a WordPress-style `-1024x683` size suffix.
pub(super) fn image_key(url: &str) -> String {
    let path_end = url.find(['?', '#']).unwrap_or(url.len());
    let path = &url[..path_end];
    let file = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let (stem, ext) = match file.rfind('.') {
        Some(i) => file.split_at(i),
        None => (file.as_str(), ""),
    };
    let stem = match stem.rfind('-') {
        Some(i) if is_size_suffix(&stem[i + 1..]) => &stem[..i],
        _ => stem,
    };
    format!("{stem}{ext}")
}

fn is_size_suffix(s: &str) -> bool {
    match s.split_once('x') {
        Some((w, h)) => {
            !w.is_empty()
                && !h.is_empty()
                && w.bytes().all(|b| b.is_ascii_digit())
                && h.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_like_rfc_3986() {
        let base = "http://a/b/c/d;p?q";
        for (reference, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../../g", "http://a/g"),
            ("https://x.example/i.jpg", "https://x.example/i.jpg"),
        ] {
            assert_eq!(resolve(base, reference), want, "{reference}");
        }
        assert_eq!(resolve("/relative/base/", "a.jpg"), "a.jpg");
        assert_eq!(
            resolve("https://h.example", "a.jpg"),
            "https://h.example/a.jpg"
        );
    }

    #[test]
    fn srcset_and_placeholders() {
        assert_eq!(first_of_srcset(" a.jpg 1x, b.jpg 2x"), Some("a.jpg"));
        assert_eq!(first_of_srcset("a.jpg, b.jpg 2x"), Some("a.jpg"));
        assert_eq!(first_of_srcset("  "), None);
        assert!(is_placeholder("data:image/gif;base64,R0lGOD"));
        assert!(is_placeholder("/img/blank.gif"));
        assert!(!is_placeholder("/img/2016/05/gaza.jpg"));
    }

    #[test]
    fn one_key_for_sizes_of_one_file() {
        assert_eq!(
            image_key("https://cdn.example/uploads/gaza-boys-1024x683.jpg?w=1"),
            image_key("/uploads/gaza-boys.jpg")
        );
        assert_ne!(image_key("/a/one.jpg"), image_key("/a/two.jpg"));
    }
}
