//! Line-by-line reading of an NDJSON response body: partial lines are buffered across chunks,
//! blank keep-alive lines are skipped, and a body silent for longer than the timeout counts as a
//! dead connection.

use std::{pin::Pin, time::Duration};

use futures::{Stream, StreamExt};
use serde::de::DeserializeOwned;

use super::client::ApiError;

type ByteStream = Pin<Box<dyn Stream<Item = Result<Vec<u8>, String>> + Send>>;

/// An NDJSON body being read.
pub struct NdjsonReader {
    body: ByteStream,
    buffer: Vec<u8>,
    timeout: Duration,
    ended: bool,
}

impl NdjsonReader {
    /// Reads `response`'s body; `timeout` is the longest silence (keep-alives included) accepted.
    pub fn new(response: reqwest::Response, timeout: Duration) -> NdjsonReader {
        let body = response
            .bytes_stream()
            .map(|chunk| chunk.map(|b| b.to_vec()).map_err(|e| e.to_string()));
        NdjsonReader::from_stream(Box::pin(body), timeout)
    }

    /// Reads any stream of byte chunks (for tests).
    pub fn from_stream(body: ByteStream, timeout: Duration) -> NdjsonReader {
        NdjsonReader {
            body,
            buffer: Vec::new(),
            timeout,
            ended: false,
        }
    }

    /// The next non-blank line, `None` at the end of the body.
    pub async fn next_line(&mut self) -> Result<Option<String>, ApiError> {
        loop {
            if let Some(pos) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=pos).collect();
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if text.is_empty() {
                    continue;
                }
                return Ok(Some(text));
            }
            if self.ended {
                let rest = String::from_utf8_lossy(&std::mem::take(&mut self.buffer))
                    .trim()
                    .to_string();
                return Ok((!rest.is_empty()).then_some(rest));
            }
            match tokio::time::timeout(self.timeout, self.body.next()).await {
                Err(_) => return Err(ApiError::Network(format!("stream silent for {:?}", self.timeout))),
                Ok(None) => self.ended = true,
                Ok(Some(Err(e))) => return Err(ApiError::Network(e)),
                Ok(Some(Ok(chunk))) => self.buffer.extend_from_slice(&chunk),
            }
        }
    }

    /// The next line decoded as `T`; lines that do not decode are skipped with a warning.
    pub async fn next_json<T: DeserializeOwned>(&mut self) -> Result<Option<T>, ApiError> {
        while let Some(line) = self.next_line().await? {
            match serde_json::from_str(&line) {
                Ok(value) => return Ok(Some(value)),
                Err(e) => tracing::warn!("skipping undecodable line ({e}): {line}"),
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn splits_lines_across_chunks_and_skips_blanks() {
        let chunks: Vec<Result<Vec<u8>, String>> = vec![
            Ok(b"{\"a\":".to_vec()),
            Ok(b"1}\n\n\n{\"a\"".to_vec()),
            Ok(b":2}\n".to_vec()),
            Ok(b"\n{\"a\":3}".to_vec()),
        ];
        let mut r = NdjsonReader::from_stream(Box::pin(futures::stream::iter(chunks)), Duration::from_secs(1));
        let mut got = Vec::new();
        while let Some(line) = r.next_line().await.expect("no error") {
            got.push(line);
        }
        assert_eq!(got, vec![r#"{"a":1}"#, r#"{"a":2}"#, r#"{"a":3}"#]);
    }

    #[tokio::test]
    async fn silence_is_an_error() {
        let mut r = NdjsonReader::from_stream(Box::pin(futures::stream::pending()), Duration::from_millis(20));
        assert!(r.next_line().await.is_err());
    }
}
