//! The arena's metrics, scraped by Prometheus at `GET /metrics` (OpenMetrics text): requests by
//! route, method and status, rate-limited requests, moves, store writes (latency and failures),
//! and at each scrape the running games, open streams and whether the store is degraded.

use std::time::Duration;

use prometheus_client::{
    encoding::EncodeLabelSet,
    metrics::{
        counter::Counter,
        family::Family,
        gauge::Gauge,
        histogram::{exponential_buckets, Histogram},
    },
    registry::Registry,
};

/// The labels of a request.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// HTTP method.
    pub method: String,
    /// The route's path template (`/api/bot/game/{id}/move/{mv}`), `unmatched` otherwise.
    pub route: String,
    /// Status code.
    pub status: u16,
}

/// The metrics of one server.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    rate_limited: Counter,
    moves: Counter,
    store_writes: Histogram,
    store_errors: Counter,
    running_games: Gauge,
    open_streams: Gauge,
    degraded: Gauge,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// The metrics, registered.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("arena");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status",
            requests.clone(),
        );
        let rate_limited = Counter::default();
        registry.register(
            "rate_limited",
            "Requests answered 429 by the rate limits",
            rate_limited.clone(),
        );
        let moves = Counter::default();
        registry.register("moves", "Moves played", moves.clone());
        // 50 us to about 3 s.
        let store_writes = Histogram::new(exponential_buckets(0.000_05, 2.0, 16));
        registry.register(
            "store_write_seconds",
            "Time from a unit's first database write to its commit",
            store_writes.clone(),
        );
        let store_errors = Counter::default();
        registry.register(
            "store_errors",
            "State changes whose database writes failed (answered 503, nothing changed)",
            store_errors.clone(),
        );
        let running_games = Gauge::default();
        registry.register("running_games", "Games in progress", running_games.clone());
        let open_streams = Gauge::default();
        registry.register("open_streams", "Open event and game streams", open_streams.clone());
        let degraded = Gauge::default();
        registry.register(
            "store_degraded",
            "1 while the database takes no writes",
            degraded.clone(),
        );
        Metrics {
            registry,
            requests,
            rate_limited,
            moves,
            store_writes,
            store_errors,
            running_games,
            open_streams,
            degraded,
        }
    }

    /// Counts an answered request.
    pub fn request(&self, method: &str, route: &str, status: u16) {
        self.requests
            .get_or_create(&RequestLabels {
                method: method.to_string(),
                route: route.to_string(),
                status,
            })
            .inc();
        if status == 429 {
            self.rate_limited.inc();
        }
    }

    /// Counts a move.
    pub fn moved(&self) {
        self.moves.inc();
    }

    /// A unit of work's writes, committed (`ok`) or failed.
    pub fn store_write(&self, took: Duration, ok: bool) {
        self.store_writes.observe(took.as_secs_f64());
        if !ok {
            self.store_errors.inc();
        }
    }

    /// The text Prometheus reads, with the gauges as they are now.
    pub fn render(&self, running_games: usize, open_streams: usize, degraded: bool) -> String {
        self.running_games.set(running_games as i64);
        self.open_streams.set(open_streams as i64);
        self.degraded.set(i64::from(degraded));
        let mut text = String::new();
        if let Err(e) = prometheus_client::encoding::text::encode(&mut text, &self.registry) {
            tracing::warn!("arena: encoding the metrics: {e}");
        }
        text
    }
}

/// The content type of [`Metrics::render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_names_every_metric() {
        let m = Metrics::new();
        m.request("POST", "/api/bot/game/{id}/move/{mv}", 200);
        m.request("GET", "/api/account", 429);
        m.moved();
        m.store_write(Duration::from_millis(2), false);
        let text = m.render(3, 7, true);
        for line in [
            "arena_http_requests_total{method=\"POST\",route=\"/api/bot/game/{id}/move/{mv}\",status=\"200\"} 1",
            "arena_rate_limited_total 1",
            "arena_moves_total 1",
            "arena_store_errors_total 1",
            "arena_store_write_seconds_count 1",
            "arena_running_games 3",
            "arena_open_streams 7",
            "arena_store_degraded 1",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
        }
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
