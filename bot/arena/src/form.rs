//! Request bodies: `application/x-www-form-urlencoded` or JSON (lichess-bot and berserk post
//! JSON), read into one flat map of strings. As on Lichess, a JSON `null` means the key is
//! absent (berserk sends every parameter, the unused ones as null).

use std::collections::HashMap;

/// Reads a body as a form or as a flat JSON object. A JSON body that is not an object (or
/// not JSON at all) is an error naming what is wrong; an empty one is an empty map.
pub fn parse_body(content_type: &str, body: &[u8]) -> Result<HashMap<String, String>, String> {
    if content_type.starts_with("application/json") {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(HashMap::new());
        }
        let map = match serde_json::from_slice::<serde_json::Value>(body) {
            Ok(serde_json::Value::Object(map)) => map,
            Ok(_) => return Err("Invalid JSON body: an object of parameters is expected".into()),
            Err(e) => return Err(format!("Invalid JSON body: {e}")),
        };
        return Ok(map
            .into_iter()
            .filter_map(|(k, v)| {
                let v = match v {
                    serde_json::Value::Null => return None,
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                Some((k, v))
            })
            .collect());
    }
    Ok(parse_urlencoded(&String::from_utf8_lossy(body)))
}

/// Reads `a=1&b=x+y` (also query strings); of a repeated key, the last value.
pub fn parse_urlencoded(text: &str) -> HashMap<String, String> {
    parse_pairs(text).into_iter().collect()
}

/// Reads `a=1&b=x+y&a=2` into its pairs in order, repeated keys kept (checkbox lists).
pub fn parse_pairs(text: &str) -> Vec<(String, String)> {
    text.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// A boolean form value (`true`, `1`, `yes`, `on`, any case: Python clients send `True`).
pub fn truthy(v: Option<&String>) -> bool {
    v.is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes" | "on"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_json() {
        let f = parse_body(
            "application/x-www-form-urlencoded",
            b"clock.limit=60&text=hi+there%21&x=%zz",
        )
        .expect("a form");
        assert_eq!(f["clock.limit"], "60");
        assert_eq!(f["text"], "hi there!");
        assert_eq!(f["x"], "%zz");
        let j = parse_body(
            "application/json",
            br#"{"clock.limit": 60, "rated": true, "variant": "standard"}"#,
        )
        .expect("JSON");
        assert_eq!(j["clock.limit"], "60");
        assert!(truthy(j.get("rated")));
        assert_eq!(parse_urlencoded("a=%")["a"], "%");
        // berserk's challenge body: unused parameters are null, which means absent.
        let b = parse_body(
            "application/json",
            br#"{"rated": false, "clock.limit": null, "days": null, "variant": null, "fen": null, "color": "white"}"#,
        )
        .expect("JSON");
        assert_eq!(b.len(), 2, "{b:?}");
        assert_eq!(b["rated"], "false");
        assert_eq!(b["color"], "white");
        // Malformed JSON is an error, not an empty request; an empty body is no parameters.
        let err = parse_body("application/json", b"{").expect_err("malformed");
        assert!(err.starts_with("Invalid JSON body"), "{err}");
        assert!(parse_body("application/json", b"[1]").is_err());
        assert!(parse_body("application/json", b" ").expect("empty").is_empty());
    }
}
