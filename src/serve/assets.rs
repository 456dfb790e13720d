//! The page: one HTML file, one script, one style sheet, embedded in the binary (no CDN, no
//! build step), served with their content types.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

/// Short cache: the assets change only with the binary, but a rebuilt server should be seen.
const CACHE: &str = "max-age=60";

/// `GET /`.
pub(super) async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, CACHE),
        ],
        INDEX,
    )
}

/// `GET /app.js`.
pub(super) async fn script() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, CACHE),
        ],
        SCRIPT,
    )
}

/// `GET /style.css`.
pub(super) async fn style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, CACHE),
        ],
        STYLE,
    )
}

/// Bytes of the page with its script and style sheet (what a first visit downloads).
pub fn page_weight() -> usize {
    INDEX.len() + SCRIPT.len() + STYLE.len()
}
