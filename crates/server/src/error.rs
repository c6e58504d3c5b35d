//! API errors: a status and a message for the user, as `{"error": …}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, in words.
    pub message: String,
}

impl ApiError {
    /// A 400 with a reason.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A 404.
    pub fn not_found(what: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: what.into(),
        }
    }

    /// A 500 whose cause is in the server's log, not the answer.
    pub fn internal() -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "internal error".into(),
        }
    }
}

impl From<archive::Error> for ApiError {
    fn from(e: archive::Error) -> ApiError {
        let status = match &e {
            archive::Error::BadQuery(_) => StatusCode::BAD_REQUEST,
            archive::Error::ReadOnly { .. } => StatusCode::CONFLICT,
            archive::Error::Busy => StatusCode::SERVICE_UNAVAILABLE,
            _ => {
                eprintln!("dateline serve: {e}");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        ApiError {
            status,
            message: e.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            axum::Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}
