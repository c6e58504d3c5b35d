//! The page's files, embedded in the binary: three HTML shells, one style
//! sheet, the scripts and the map outlines. Each is served from a fixed
//! table; no request ever names a file on disk.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::ApiError;

/// Name, media type, content.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "app.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/app.css"),
    ),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/common.js"),
    ),
    (
        "search.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/search.js"),
    ),
    (
        "record.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/record.js"),
    ),
    (
        "review.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/review.js"),
    ),
    (
        "map.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/map.js"),
    ),
    (
        "world.json",
        "application/json",
        include_bytes!("../assets/world.json"),
    ),
    (
        "admin1.json",
        "application/json",
        include_bytes!("../assets/admin1.json"),
    ),
];

const HTML: &str = "text/html; charset=utf-8";

/// The page routes.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(|| page(include_str!("../assets/index.html"))))
        .route(
            "/r/{id}",
            get(|| page(include_str!("../assets/record.html"))),
        )
        .route(
            "/review",
            get(|| page(include_str!("../assets/review.html"))),
        )
        .route("/assets/{name}", get(asset))
        .route(
            "/favicon.ico",
            get(|| async { ApiError::not_found("no icon") }),
        )
}

async fn page(html: &'static str) -> Response {
    ([(header::CONTENT_TYPE, HTML)], html).into_response()
}

async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, media_type, bytes)) => {
            ([(header::CONTENT_TYPE, *media_type)], *bytes).into_response()
        }
        None => ApiError::not_found(format!("no asset {name:?}")).into_response(),
    }
}
