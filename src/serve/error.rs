//! The API's errors: every one becomes a JSON body `{"error": MESSAGE}` with a status that
//! says whose fault it was (400 for the request, 404 for a missing run or model, 503 when the
//! server is saturated or a move ran out of time). Nothing a client sends reaches a panic.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Seconds a refused client is told to wait (`Retry-After`) when the server is full.
pub const RETRY_AFTER_S: u64 = 1;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request itself is wrong: bad moves, unknown agent, bad spec, body too long, ...
    #[error("{0}")]
    BadRequest(String),
    /// A run, model or file that does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The lane the work needed was full: its queue, or no slot freed in time (a 503 with
    /// `Retry-After`).
    #[error("the server is busy: {0}")]
    Busy(String),
    /// A bug or a failed blocking task: reported, never a panic in the client's face.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// A 400 from any error with a message (the typed errors of the library).
    pub fn bad(e: impl std::fmt::Display) -> Self {
        ApiError::BadRequest(e.to_string())
    }

    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // Messages quote what the client sent: never more than a few hundred characters of it.
        let mut text = self.to_string();
        if text.len() > 300 {
            let cut = (0..=300)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            text.truncate(cut);
            text.push_str("...");
        }
        let body = serde_json::json!({ "error": text });
        let mut response = (self.status(), Json(body)).into_response();
        if matches!(self, ApiError::Busy(_)) {
            // A full lane frees a slot within a second or two: when to ask again.
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(RETRY_AFTER_S),
            );
        }
        response
    }
}

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(r: axum::extract::rejection::JsonRejection) -> Self {
        ApiError::BadRequest(format!("bad request body: {}", r.body_text()))
    }
}

impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(r: axum::extract::rejection::QueryRejection) -> Self {
        ApiError::BadRequest(format!("bad query: {}", r.body_text()))
    }
}

/// The result type of every handler.
pub(crate) type ApiResult<T> = Result<T, ApiError>;
