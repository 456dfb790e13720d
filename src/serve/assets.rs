//! The page: HTML, its script modules, the style sheet, the icon, and the WebAssembly engine
//! with its JavaScript glue, embedded in the binary (no CDN, no build step). `c4 serve`
//! serves them; `c4 site` writes them as a static site (see [`crate::site`]).

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// One file of the page: its name (its URL under the page's folder), content type, bytes.
pub struct Asset {
    /// File name, e.g. `app.js`.
    pub name: &'static str,
    /// Its content type.
    pub content_type: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the page, `index.html` first.
pub const ASSETS: &[Asset] = &[
    Asset {
        name: "index.html",
        content_type: "text/html; charset=utf-8",
        bytes: include_bytes!("assets/index.html"),
    },
    Asset {
        name: "app.js",
        content_type: JS,
        bytes: include_bytes!("assets/app.js"),
    },
    Asset {
        name: "backend.js",
        content_type: JS,
        bytes: include_bytes!("assets/backend.js"),
    },
    Asset {
        name: "view.js",
        content_type: JS,
        bytes: include_bytes!("assets/view.js"),
    },
    Asset {
        name: "state.js",
        content_type: JS,
        bytes: include_bytes!("assets/state.js"),
    },
    Asset {
        name: "adaptive.js",
        content_type: JS,
        bytes: include_bytes!("assets/adaptive.js"),
    },
    Asset {
        name: "api.js",
        content_type: JS,
        bytes: include_bytes!("assets/api.js"),
    },
    Asset {
        name: "board.js",
        content_type: JS,
        bytes: include_bytes!("assets/board.js"),
    },
    Asset {
        name: "analysis.js",
        content_type: JS,
        bytes: include_bytes!("assets/analysis.js"),
    },
    Asset {
        name: "url.js",
        content_type: JS,
        bytes: include_bytes!("assets/url.js"),
    },
    Asset {
        name: "game.js",
        content_type: JS,
        bytes: include_bytes!("assets/game.js"),
    },
    Asset {
        name: "controls.js",
        content_type: JS,
        bytes: include_bytes!("assets/controls.js"),
    },
    Asset {
        name: "review.js",
        content_type: JS,
        bytes: include_bytes!("assets/review.js"),
    },
    Asset {
        name: "runs.js",
        content_type: JS,
        bytes: include_bytes!("assets/runs.js"),
    },
    Asset {
        name: "worker.js",
        content_type: JS,
        bytes: include_bytes!("assets/worker.js"),
    },
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("assets/style.css"),
    },
    Asset {
        name: "favicon.svg",
        content_type: "image/svg+xml",
        bytes: include_bytes!("assets/favicon.svg"),
    },
    Asset {
        name: "connect4.mjs",
        content_type: JS,
        bytes: include_bytes!("../../web/npm/connect4.mjs"),
    },
    Asset {
        name: "connect4.wasm",
        content_type: "application/wasm",
        bytes: include_bytes!("../../web/npm/connect4.wasm"),
    },
];

/// Short cache: the assets change only with the binary, but a rebuilt server should be seen.
const CACHE: &str = "max-age=60";

fn respond(a: &Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, a.content_type),
            (header::CACHE_CONTROL, CACHE),
        ],
        a.bytes,
    )
        .into_response()
}

/// `GET /`: the page.
pub(super) async fn index() -> Response {
    respond(&ASSETS[0])
}

/// `GET /NAME`: a file of the page (`/favicon.ico` is the icon), else a 404.
pub(super) async fn file(Path(name): Path<String>) -> Response {
    let name = if name == "favicon.ico" {
        "favicon.svg"
    } else {
        &name
    };
    match ASSETS.iter().find(|a| a.name == name) {
        Some(a) => respond(a),
        None => super::error::ApiError::NotFound("no such page or endpoint".into()).into_response(),
    }
}

/// Bytes of the page with its scripts and style sheet (what a first visit downloads from
/// `c4 serve`; the engine's module is fetched only by the static site).
pub fn page_weight() -> usize {
    ASSETS
        .iter()
        .filter(|a| !a.name.starts_with("connect4."))
        .map(|a| a.bytes.len())
        .sum()
}
