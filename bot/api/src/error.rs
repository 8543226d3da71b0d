//! The errors of API calls, shared by the client and the NDJSON stream reader.

/// Errors of API calls. Callers branch on them.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    /// No connection, a reset, a timeout.
    #[error("network error: {0}")]
    Network(String),
    /// HTTP 429 after the retries.
    #[error("rate limited (HTTP 429)")]
    RateLimited,
    /// Another HTTP error status, with the server's `error` message.
    #[error("HTTP {status}: {message}")]
    Http {
        /// The status code.
        status: u16,
        /// The `error` field of the body, or the body.
        message: String,
    },
    /// A body that does not decode.
    #[error("cannot decode response: {0}")]
    Decode(String),
}

impl ApiError {
    /// The HTTP status, if the server answered with an error status.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Http { status, .. } => Some(*status),
            ApiError::RateLimited => Some(429),
            _ => None,
        }
    }
}
