//! Line-by-line reading of an NDJSON response body: partial lines are buffered across chunks,
//! blank keep-alive lines are skipped, and a body that sends no complete line (keep-alives
//! included) for longer than the timeout counts as a dead connection.
//!
//! The buffer is bounded: a line longer than [`MAX_LINE`] bytes (a real Lichess line is a few
//! kilobytes) is dropped up to its newline without being kept, with one warning naming its
//! length. Every chunk is scanned once, and each chunk spends a unit of the task's cooperative
//! budget, so a server that floods one endless line costs little CPU and cannot keep the task
//! from seeing a shutdown.

use std::{pin::Pin, time::Duration};

use futures::{Stream, StreamExt};
use serde::de::DeserializeOwned;
use tokio::time::Instant;

use super::error::ApiError;

type ByteStream = Pin<Box<dyn Stream<Item = Result<Vec<u8>, String>> + Send>>;

/// The longest line kept (1 MiB); longer lines are skipped.
pub const MAX_LINE: usize = 1 << 20;

/// A line buffer larger than this is freed after its line rather than kept for the next.
const SMALL_LINE: usize = 64 * 1024;

/// How much of a line that does not decode goes into the log.
const EXCERPT_CHARS: usize = 200;

/// An NDJSON body being read.
pub struct NdjsonReader {
    body: ByteStream,
    /// The chunk being read, from `pos` on.
    chunk: Vec<u8>,
    pos: usize,
    /// The start of the current line (never longer than `max_line`).
    line: Vec<u8>,
    /// The bytes of an overlong line skipped so far, while skipping one.
    skipping: Option<usize>,
    max_line: usize,
    /// The most bytes the line buffer ever held.
    peak: usize,
    timeout: Duration,
    ended: bool,
}

impl NdjsonReader {
    /// Reads `response`'s body; `timeout` is the longest time without a complete line
    /// (keep-alives included) accepted.
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
            chunk: Vec::new(),
            pos: 0,
            line: Vec::new(),
            skipping: None,
            max_line: MAX_LINE,
            peak: 0,
            timeout,
            ended: false,
        }
    }

    /// Sets the longest line kept (tests use a small one).
    pub fn with_max_line(mut self, max_line: usize) -> NdjsonReader {
        self.max_line = max_line;
        self
    }

    /// The most bytes ever held for a line (at most the line limit).
    pub fn peak_buffered(&self) -> usize {
        self.peak
    }

    /// The next non-blank line, `None` at the end of the body.
    pub async fn next_line(&mut self) -> Result<Option<String>, ApiError> {
        let mut deadline = Instant::now() + self.timeout;
        loop {
            if self.pos < self.chunk.len() {
                let rest = &self.chunk[self.pos..];
                match rest.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        self.pos += i + 1;
                        deadline = Instant::now() + self.timeout;
                        if let Some(text) = self.end_line(i) {
                            return Ok(Some(text));
                        }
                    }
                    None => {
                        let n = rest.len();
                        self.pos = self.chunk.len();
                        self.extend_line(n);
                    }
                }
                continue;
            }
            if self.ended {
                if self.skipping.take().is_some() {
                    return Ok(None); // the body ended inside an overlong line: dropped
                }
                let rest = trimmed(&std::mem::take(&mut self.line));
                return Ok((!rest.is_empty()).then_some(rest));
            }
            match tokio::time::timeout_at(deadline, self.body.next()).await {
                Err(_) => {
                    return Err(ApiError::Network(format!(
                        "stream sent no complete line for {:?}",
                        self.timeout
                    )))
                }
                Ok(None) => self.ended = true,
                Ok(Some(Err(e))) => return Err(ApiError::Network(e)),
                Ok(Some(Ok(chunk))) => {
                    self.chunk = chunk;
                    self.pos = 0;
                    // A body that is always ready (a flood) must still let the task yield.
                    tokio::task::coop::consume_budget().await;
                }
            }
        }
    }

    /// Adds the `n` bytes before `self.pos` to the current line, or starts (or goes on)
    /// skipping it when it gets too long.
    fn extend_line(&mut self, n: usize) {
        let start = self.pos - n;
        if let Some(skipped) = &mut self.skipping {
            *skipped += n;
        } else if self.line.len() + n > self.max_line {
            self.skipping = Some(self.line.len() + n);
            self.line = Vec::new();
        } else {
            self.push_to_line(start, self.pos);
        }
    }

    /// Appends `chunk[from..to]` to the line (which stays within the limit), growing its
    /// buffer no further than the limit.
    fn push_to_line(&mut self, from: usize, to: usize) {
        let needed = self.line.len() + (to - from);
        if needed > self.line.capacity() {
            let target = (self.line.capacity() * 2).max(needed).min(self.max_line.max(needed));
            self.line.reserve_exact(target - self.line.len());
        }
        self.line.extend_from_slice(&self.chunk[from..to]);
        self.peak = self.peak.max(self.line.capacity());
    }

    /// The line ends with the `n` bytes before the newline just passed: its text, or `None`
    /// when it was blank or too long.
    fn end_line(&mut self, n: usize) -> Option<String> {
        let start = self.pos - 1 - n;
        let total = match self.skipping.take() {
            Some(skipped) => Some(skipped + n),
            None if self.line.len() + n > self.max_line => Some(self.line.len() + n),
            None => None,
        };
        if let Some(total) = total {
            self.line = Vec::new();
            tracing::warn!(
                "skipped a stream line of {total} bytes (longer than the {} byte limit)",
                self.max_line
            );
            return None;
        }
        self.push_to_line(start, self.pos - 1);
        let text = trimmed(&self.line);
        if self.line.capacity() > SMALL_LINE {
            self.line = Vec::new(); // a long (but allowed) line: give its memory back
        } else {
            self.line.clear();
        }
        (!text.is_empty()).then_some(text)
    }

    /// The next line decoded as `T`; lines that do not decode are skipped with a warning that
    /// shows only their start and length.
    pub async fn next_json<T: DeserializeOwned>(&mut self) -> Result<Option<T>, ApiError> {
        while let Some(line) = self.next_line().await? {
            match serde_json::from_str(&line) {
                Ok(value) => return Ok(Some(value)),
                Err(e) => tracing::warn!("{}", undecodable(&line, &e)),
            }
        }
        Ok(None)
    }
}

fn trimmed(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}

/// The warning for a line that does not decode: the error, the line's length and its first
/// characters (never the whole line).
pub fn undecodable(line: &str, error: &serde_json::Error) -> String {
    let mut excerpt: String = line.chars().take(EXCERPT_CHARS).collect();
    if excerpt.len() < line.len() {
        excerpt.push_str("...");
    }
    format!(
        "skipping an undecodable line of {} bytes ({error}): {excerpt}",
        line.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(chunks: Vec<Vec<u8>>) -> NdjsonReader {
        let chunks: Vec<Result<Vec<u8>, String>> = chunks.into_iter().map(Ok).collect();
        NdjsonReader::from_stream(Box::pin(futures::stream::iter(chunks)), Duration::from_secs(1))
    }

    async fn all_lines(r: &mut NdjsonReader) -> Vec<String> {
        let mut got = Vec::new();
        while let Some(line) = r.next_line().await.expect("no error") {
            got.push(line);
        }
        got
    }

    #[tokio::test]
    async fn splits_lines_across_chunks_and_skips_blanks() {
        let chunks = vec![
            b"{\"a\":".to_vec(),
            b"1}\n\n\n{\"a\"".to_vec(),
            b":2}\n".to_vec(),
            b"\n{\"a\":3}".to_vec(),
        ];
        let mut r = reader(chunks);
        assert_eq!(all_lines(&mut r).await, vec![r#"{"a":1}"#, r#"{"a":2}"#, r#"{"a":3}"#]);
    }

    #[tokio::test]
    async fn silence_is_an_error() {
        let mut r = NdjsonReader::from_stream(Box::pin(futures::stream::pending()), Duration::from_millis(20));
        assert!(r.next_line().await.is_err());
    }

    #[tokio::test]
    async fn bytes_without_a_newline_count_as_silence() {
        // A server that keeps sending one line never completes a line: the connection is
        // dead as far as events and keep-alives go.
        let endless = futures::stream::unfold((), |()| async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            Some((Ok(vec![b'x'; 100]), ()))
        });
        let mut r = NdjsonReader::from_stream(Box::pin(endless), Duration::from_millis(100));
        let started = std::time::Instant::now();
        let err = r.next_line().await.expect_err("no complete line");
        assert!(err.to_string().contains("no complete line"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[tokio::test]
    async fn a_huge_line_in_chunks_is_never_buffered_whole() {
        // 8 MiB of one line, in 64 KiB chunks, then silence: the reader holds at most the
        // limit while it waits for the newline.
        let limit = 256 * 1024;
        let chunks: Vec<Result<Vec<u8>, String>> = std::iter::once(Ok(b"{\"a\":1}\n{\"junk\":\"".to_vec()))
            .chain((0..128).map(|_| Ok(vec![b'x'; 64 * 1024])))
            .collect();
        let body = futures::stream::iter(chunks).chain(futures::stream::pending());
        let mut r = NdjsonReader::from_stream(Box::pin(body), Duration::from_millis(200)).with_max_line(limit);
        assert_eq!(r.next_line().await.expect("first line").as_deref(), Some(r#"{"a":1}"#));
        assert!(r.next_line().await.is_err(), "the line never ends");
        let peak = r.peak_buffered();
        assert!(peak > 0 && peak <= limit, "{peak} bytes held");
    }

    #[tokio::test]
    async fn a_long_line_is_skipped_up_to_its_newline() {
        // Lines over the limit are skipped whether they end in the chunk where they went over
        // or later; a line at the limit is kept; the lines after them come through.
        let limit = 1000;
        let at_limit = format!("{{\"b\":\"{}\"}}", "y".repeat(limit - 8));
        assert_eq!(at_limit.len(), limit);
        let mut chunks = vec![b"{\"a\":1}\n".to_vec(), vec![b'x'; 700]];
        chunks.extend((0..10).map(|_| vec![b'x'; 300]));
        chunks.push(b"xx\n{\"a\":2}\n".to_vec());
        chunks.push(format!("{}\n", "z".repeat(limit + 1)).into_bytes());
        chunks.push(format!("{at_limit}\n{{\"a\":3}}").into_bytes());
        let mut r = reader(chunks).with_max_line(limit);
        assert_eq!(
            all_lines(&mut r).await,
            vec![
                r#"{"a":1}"#.to_string(),
                r#"{"a":2}"#.into(),
                at_limit,
                r#"{"a":3}"#.into()
            ]
        );
        assert!(r.peak_buffered() <= limit);
        // A body that ends inside an overlong line yields nothing more.
        let mut r = reader(vec![b"{\"a\":1}\n".to_vec(), vec![b'x'; 2000]]).with_max_line(limit);
        assert_eq!(all_lines(&mut r).await, vec![r#"{"a":1}"#]);
    }

    #[tokio::test]
    async fn an_event_after_a_line_over_the_default_limit_comes_through() {
        // 3 MiB of junk with no newline for a while, then a real event.
        let mut chunks = vec![b"\n".to_vec()];
        chunks.extend((0..48).map(|_| vec![b'#'; 64 * 1024]));
        chunks.push(
            b"\n{\"type\":\"gameFinish\",\"game\":{\"fullId\":\"abcdefgh1234\",\"gameId\":\"abcdefgh\"}}\n".to_vec(),
        );
        let mut r = reader(chunks);
        let event: Option<crate::types::Event> = r.next_json().await.expect("no error");
        match event {
            Some(crate::types::Event::GameFinish { game }) => assert_eq!(game.game_id, "abcdefgh"),
            other => panic!("expected the gameFinish, got {other:?}"),
        }
        assert!(r.peak_buffered() <= MAX_LINE);
    }

    /// A log sink for one test: what `tracing` writes, as text.
    #[derive(Clone, Default)]
    struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap_or_else(|p| p.into_inner()).extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn junk_lines_are_logged_short() {
        let sink = Sink::default();
        let writer = sink.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        // A 10 MB line of junk (within a raised limit: it must still not be copied to the
        // log), then a real line.
        let junk = "j".repeat(10_000_000);
        let chunks = vec![format!("{junk}\n").into_bytes(), b"{\"a\":1}\n".to_vec()];
        let mut r = reader(chunks).with_max_line(20_000_000);
        let value: Option<serde_json::Value> = r.next_json().await.expect("no error");
        assert_eq!(value, Some(serde_json::json!({"a": 1})));
        // A 2 MB line over the default limit, then a real line.
        let mut r = reader(vec![vec![b'k'; 2_000_000], b"\n{\"a\":2}\n".to_vec()]);
        let value: Option<serde_json::Value> = r.next_json().await.expect("no error");
        assert_eq!(value, Some(serde_json::json!({"a": 2})));
        let log = String::from_utf8_lossy(&sink.0.lock().unwrap_or_else(|p| p.into_inner())).to_string();
        assert!(
            log.len() < 1500,
            "{} bytes of log:\n{}",
            log.len(),
            log.chars().take(3000).collect::<String>()
        );
        assert!(log.contains("undecodable line of 10000000 bytes"), "{log}");
        assert!(log.contains(&"j".repeat(EXCERPT_CHARS)), "{log}");
        assert!(!log.contains(&"j".repeat(EXCERPT_CHARS + 1)), "{log}");
        assert!(log.contains("skipped a stream line of 2000000 bytes"), "{log}");
    }

    #[test]
    fn undecodable_lines_are_cut() {
        let line = "é".repeat(1000);
        let e = serde_json::from_str::<serde_json::Value>(&line).expect_err("junk");
        let text = undecodable(&line, &e);
        assert!(text.len() < 600, "{text}");
        assert!(text.contains("2000 bytes") && text.ends_with("..."), "{text}");
        let e = serde_json::from_str::<serde_json::Value>("nope").expect_err("junk");
        assert!(undecodable("nope", &e).ends_with(": nope"));
    }
}
