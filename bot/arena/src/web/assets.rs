//! The files the pages load, compiled into the binary (the arena needs no web root and no
//! internet). The piece set is the project's own drawing (`pieces.svg`, same licence as the code).

const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

macro_rules! asset {
    ($name:literal, $kind:expr) => {
        ($name, $kind, include_str!(concat!("assets/", $name)))
    };
}

/// (name, content type, bytes).
const FILES: &[(&str, &str, &str)] = &[
    asset!("arena.css", "text/css; charset=utf-8"),
    asset!("common.js", JS),
    asset!("board.js", JS),
    asset!("game.js", JS),
    asset!("lobby.js", JS),
    asset!("tv.js", JS),
    asset!("games.js", JS),
    asset!("explorer.js", JS),
    asset!("analysis.js", JS),
    asset!("sound.js", JS),
    asset!("pieces.svg", SVG),
    asset!("favicon.svg", SVG),
];

/// The content type and bytes of an asset.
pub fn get(name: &str) -> Option<(&'static str, &'static str)> {
    FILES.iter().find(|f| f.0 == name).map(|f| (f.1, f.2))
}

/// The gzip form of an asset (compressed once, on first use).
pub fn gzipped(name: &str) -> Option<&'static [u8]> {
    use std::io::Write as _;
    static GZIPPED: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    let all = GZIPPED.get_or_init(|| {
        FILES
            .iter()
            .map(|f| {
                let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                // Writing to memory cannot fail; an empty result would only mean "send it plain".
                let _ = z.write_all(f.2.as_bytes());
                z.finish().unwrap_or_default()
            })
            .collect()
    });
    let i = FILES.iter().position(|f| f.0 == name)?;
    all.get(i).filter(|z| !z.is_empty()).map(Vec::as_slice)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_script_the_pages_name_is_served() {
        for name in [
            "arena.css",
            "common.js",
            "board.js",
            "game.js",
            "lobby.js",
            "tv.js",
            "games.js",
            "explorer.js",
            "analysis.js",
            "sound.js",
            "pieces.svg",
        ] {
            assert!(super::get(name).is_some_and(|f| !f.1.is_empty()), "{name}");
        }
        assert!(super::get("../mod.rs").is_none());
    }
}
