//! What keeps the server safe by default: the bearer token (made on first
//! start, stored 0600 beside the archive), the `Host` check against DNS
//! rebinding, the `Origin` check on writes, the token check, size limits,
//! and the headers every answer carries (a strict CSP among them).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request, State as AxumState};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::{ApiError, State, MAX_BODY_BYTES, MAX_QUERY_BYTES};

/// The token file's name, in the archive directory.
pub const TOKEN_FILE: &str = "serve.token";

/// The policy every page runs under: scripts, styles and data only from
/// this server, no inline code, no framing, no form posts elsewhere.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A bearer token (64 hex digits).
#[derive(Clone)]
pub struct Token(Arc<str>);

impl Token {
    /// A token from its text.
    pub fn new(text: &str) -> Token {
        Token(text.trim().into())
    }

    /// Its text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `candidate` is this token, in time independent of where
    /// they differ.
    fn matches(&self, candidate: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), candidate.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

/// Where the token came from, for what the command prints.
#[derive(Debug)]
pub enum TokenSource {
    /// Made now and stored in this file (print it once).
    Created(PathBuf),
    /// Read from this file (do not print it).
    Stored(PathBuf),
    /// Made now for this run only: the archive directory cannot be written.
    Ephemeral,
}

/// The archive's token: read from [`TOKEN_FILE`] beside the archive, or
/// made and stored there with mode 0600.
pub fn load_or_create_token(archive: &Path) -> std::io::Result<(Token, TokenSource)> {
    let path = archive.join(TOKEN_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) if text.trim().len() >= 32 => {
            return Ok((Token::new(&text), TokenSource::Stored(path)))
        }
        Ok(_) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{} holds no token; remove it to make a new one",
                    path.display()
                ),
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    let text: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(&path) {
        Ok(mut file) => {
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            Ok((Token::new(&text), TokenSource::Created(path)))
        }
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
            ) =>
        {
            Ok((Token::new(&text), TokenSource::Ephemeral))
        }
        Err(e) => Err(e),
    }
}

/// Wraps the routes in the checks and headers.
pub fn layers(routes: Router<Arc<State>>, state: Arc<State>) -> Router {
    let set = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value))
    };
    routes
        .layer(middleware::from_fn_with_state(Arc::clone(&state), guard))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        .layer(set(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(header::REFERRER_POLICY, "no-referrer"))
        .layer(set(header::X_FRAME_OPTIONS, "DENY"))
        .layer(set(
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
        ))
        .layer(set(
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ))
        .layer(set(
            HeaderName::from_static("cross-origin-resource-policy"),
            "same-origin",
        ))
        .with_state(state)
}

/// The checks made before any route: query size, `Host`, `Origin` on
/// writes, the token; then `Cache-Control` on the answer.
async fn guard(AxumState(state): AxumState<Arc<State>>, request: Request, next: Next) -> Response {
    if let Err(refusal) = admit(&state, &request) {
        return refusal.into_response();
    }
    let api = request.uri().path().starts_with("/api/");
    let started = std::time::Instant::now();
    let mut response = next.run(request).await;
    let cache = if api { "no-store" } else { "no-cache" };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    // The time spent answering (up to the first byte of a streamed body),
    // which the load script reads as the server-side latency.
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Ok(v) = HeaderValue::from_str(&format!("app;dur={ms:.3}")) {
        headers.insert(HeaderName::from_static("server-timing"), v);
    }
    response
}

fn refuse(status: StatusCode, message: &str) -> ApiError {
    ApiError {
        status,
        message: message.to_string(),
    }
}

fn admit(state: &State, request: &Request) -> Result<(), ApiError> {
    let uri = request.uri();
    if uri.query().is_some_and(|q| q.len() > MAX_QUERY_BYTES) {
        return Err(refuse(
            StatusCode::URI_TOO_LONG,
            &format!("the query string is limited to {MAX_QUERY_BYTES} bytes"),
        ));
    }
    let headers = request.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| uri.authority().map(|a| a.as_str()))
        .unwrap_or("");
    if state.loopback && !is_loopback_host(host) {
        // A page on another name resolving to 127.0.0.1 (DNS rebinding).
        return Err(refuse(
            StatusCode::FORBIDDEN,
            "this server answers only requests for localhost, 127.0.0.1 or [::1]",
        ));
    }
    let write = !matches!(*request.method(), Method::GET | Method::HEAD);
    if write {
        if let Some(origin) = headers.get(header::ORIGIN) {
            let same = origin
                .to_str()
                .ok()
                .and_then(|o| o.strip_prefix("http://"))
                .is_some_and(|o| o.eq_ignore_ascii_case(host));
            if !same {
                return Err(refuse(
                    StatusCode::FORBIDDEN,
                    "writes are accepted only from this server's own pages",
                ));
            }
        }
        if headers
            .get("sec-fetch-site")
            .is_some_and(|v| v.as_bytes() == b"cross-site")
        {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "cross-site writes are refused",
            ));
        }
    }
    let api = uri.path().starts_with("/api/") && uri.path() != "/api/openapi.json";
    let needs_token = write || (api && !state.loopback);
    if needs_token && !bearer(headers).is_some_and(|t| state.token.matches(t)) {
        return Err(refuse(
            StatusCode::UNAUTHORIZED,
            if write {
                "writes need Authorization: Bearer TOKEN (the token dateline serve printed, also in serve.token beside the archive)"
            } else {
                "off loopback, reads need Authorization: Bearer TOKEN too"
            },
        ));
    }
    Ok(())
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// `localhost`, `127.0.0.1` (any 127/8 address) or `[::1]`, with or
/// without a port.
fn is_loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((ip, port)) if port.is_empty() || valid_port(port) => return ip == "::1",
            _ => return false,
        }
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if valid_port(port) => name,
            Some(_) => return false,
            None => host,
        }
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn valid_port(port: &str) -> bool {
    port.strip_prefix(':')
        .unwrap_or(port)
        .parse::<u16>()
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for ok in [
            "localhost",
            "localhost:8750",
            "127.0.0.1:1",
            "127.1.2.3",
            "[::1]:8750",
            "[::1]",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in [
            "",
            "evil.example",
            "evil.example:8750",
            "127.0.0.1.evil.example",
            "10.0.0.1",
            "[::2]:80",
            "localhost:x",
            "[::1]x",
        ] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }

    #[test]
    fn tokens_compare_whole() {
        let t = Token::new("abcd");
        assert!(t.matches("abcd"));
        assert!(!t.matches("abce"));
        assert!(!t.matches("abc"));
        assert!(!t.matches(""));
    }

    #[test]
    fn the_token_is_made_once_with_mode_0600() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (first, source) = load_or_create_token(dir.path()).expect("made");
        assert!(matches!(source, TokenSource::Created(_)));
        assert_eq!(first.as_str().len(), 64);
        let (again, source) = load_or_create_token(dir.path()).expect("read");
        assert!(matches!(source, TokenSource::Stored(_)));
        assert_eq!(first.as_str(), again.as_str());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(TOKEN_FILE))
                .expect("file")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
