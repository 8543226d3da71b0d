//! The files the pages load, compiled into the binary (the arena needs no web root and no
//! internet). The piece set is the project's own drawing (`pieces.svg`, same licence as the code).

/// (name, content type, bytes).
const FILES: &[(&str, &str, &str)] = &[
    ("arena.css", "text/css; charset=utf-8", include_str!("assets/arena.css")),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/common.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/game.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/lobby.js"),
    ),
    ("tv.js", "text/javascript; charset=utf-8", include_str!("assets/tv.js")),
    (
        "games.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/games.js"),
    ),
    ("pieces.svg", "image/svg+xml", include_str!("assets/pieces.svg")),
    ("favicon.svg", "image/svg+xml", include_str!("assets/favicon.svg")),
];

/// The content type and bytes of an asset.
pub fn get(name: &str) -> Option<(&'static str, &'static str)> {
    FILES.iter().find(|f| f.0 == name).map(|f| (f.1, f.2))
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
            "pieces.svg",
        ] {
            assert!(super::get(name).is_some_and(|f| !f.1.is_empty()), "{name}");
        }
        assert!(super::get("../mod.rs").is_none());
    }
}
