//! Bad input of every kind on every endpoint: odd ids and moves, bodies that are not forms or
//! not JSON, JSON of every type, huge numbers, unknown query flags. Every answer is below 500,
//! every error is Lichess's JSON `{"error": ...}`, and the arena goes on playing afterwards.

use crate::common;

use bot::arena::Endpoint;
use common::Raw;

/// Values for path parameters.
const IDS: [&str; 8] = [
    "x",
    "nosuchid",
    "%00",
    "..%2F..%2Fetc",
    "%F0%9F%98%80",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "e2e4",
    "-1",
];

/// Request bodies: (content type, body).
fn bodies() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("application/json", b"{".to_vec()),
        ("application/json", b"[1,2,3]".to_vec()),
        ("application/json", b"null".to_vec()),
        (
            "application/json",
            br#"{"clock.limit": -5, "clock.increment": 1e300, "days": "x", "variant": ["a"], "fen": {"x": 1}, "color": 7, "rated": "maybe"}"#.to_vec(),
        ),
        (
            "application/json",
            br#"{"clock.limit": 99999999999999999999, "fen": "8/8/8/8/8/8/8/8 w - - 0 1", "variant": "standard"}"#.to_vec(),
        ),
        (
            "application/x-www-form-urlencoded",
            b"variant=persian-princess&fen=%ZZ&clock.limit=60&clock.increment=&days=0&color=purple".to_vec(),
        ),
        ("application/x-www-form-urlencoded", b"&&&===&%".to_vec()),
        ("text/plain", vec![0xff, 0xfe, 0x00, 0x80]),
        ("application/x-www-form-urlencoded", b"text=".repeat(3000)),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_request_breaks_the_arena() {
    // Fresh is not used by the bad requests (which may, say, upgrade Human to a bot).
    let arena = common::arena_with(vec![common::account("Fresh", false, &[])]).await;
    let raw = Raw::new(&arena);
    let mut checked = 0;
    for e in Endpoint::ALL {
        let (method, template) = e.template();
        for (i, id) in IDS.iter().enumerate() {
            let path = template
                .split('/')
                .map(|seg| if seg.starts_with('{') { *id } else { seg })
                .collect::<Vec<_>>()
                .join("/");
            let path = format!("{path}?offeringDraw=perhaps&nb=-3&max=x&since=&color=green&ids=,,,");
            for (kind, body) in bodies() {
                let token = ["alpha-token", "human-token", "wrong-token"][i % 3];
                let request = match method {
                    "GET" => raw.http.get(format!("{}{path}", raw.base)),
                    _ => raw.http.post(format!("{}{path}", raw.base)),
                };
                let response = request
                    .bearer_auth(token)
                    .header("Content-Type", kind)
                    .body(body)
                    .timeout(std::time::Duration::from_secs(5))
                    .send()
                    .await;
                let Ok(response) = response else {
                    // A stream that stays open (a valid one) times out here: not an error.
                    continue;
                };
                let status = response.status().as_u16();
                assert!(status < 500, "{method} {path} ({kind}): {status}");
                if status >= 400 {
                    let text = response.text().await.unwrap_or_default();
                    let json: serde_json::Value = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("{method} {path}: {status} not JSON ({e}): {text}"));
                    assert!(json["error"].is_string(), "{method} {path}: {text}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} requests checked");
    // Still serving: a game starts and a move is played.
    let (status, text) = raw
        .post(
            "fresh-token",
            "/api/challenge/alpha",
            &[("variant", "persian-princess"), ("color", "white")],
        )
        .await;
    assert_eq!(status, 200, "{text}");
    let id = serde_json::from_str::<serde_json::Value>(&text).expect("JSON")["id"]
        .as_str()
        .expect("id")
        .to_string();
    assert_eq!(
        raw.post("alpha-token", &format!("/api/challenge/{id}/accept"), &[])
            .await
            .0,
        200
    );
    let (status, text) = raw
        .post("fresh-token", &format!("/api/board/game/{id}/move/e3e4"), &[])
        .await;
    assert_eq!(status, 200, "{text}");
}
