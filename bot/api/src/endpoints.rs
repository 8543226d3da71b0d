//! The endpoint table: every path the bot calls, in one place.

/// `GET`: the account of the token.
pub const ACCOUNT: &str = "/api/account";
/// `POST`: upgrade the account to a bot account (irreversible).
pub const BOT_UPGRADE: &str = "/api/bot/account/upgrade";
/// `POST`: the user and scopes of tokens (text body: tokens separated by commas).
pub const TOKEN_TEST: &str = "/api/token/test";
/// `GET`: bots online (NDJSON), `?nb=`.
pub const BOTS_ONLINE: &str = "/api/bot/online";
/// `GET`: the event stream (NDJSON).
pub const STREAM_EVENT: &str = "/api/stream/event";

/// `POST`: challenge a user.
pub fn challenge_create(username: &str) -> String {
    format!("/api/challenge/{}", enc(username))
}
/// `POST`: accept a challenge.
pub fn challenge_accept(id: &str) -> String {
    format!("/api/challenge/{}/accept", enc(id))
}
/// `POST`: decline a challenge (form `reason`).
pub fn challenge_decline(id: &str) -> String {
    format!("/api/challenge/{}/decline", enc(id))
}
/// `POST`: cancel our challenge.
pub fn challenge_cancel(id: &str) -> String {
    format!("/api/challenge/{}/cancel", enc(id))
}
/// `GET`: the game stream (NDJSON).
pub fn game_stream(id: &str) -> String {
    format!("/api/bot/game/stream/{}", enc(id))
}
/// `POST`: make a move (UCI).
pub fn game_move(id: &str, uci: &str) -> String {
    format!("/api/bot/game/{}/move/{}", enc(id), enc(uci))
}
/// `POST`: write in the chat (form `room`, `text`).
pub fn game_chat(id: &str) -> String {
    format!("/api/bot/game/{}/chat", enc(id))
}
/// `POST`: abort.
pub fn game_abort(id: &str) -> String {
    format!("/api/bot/game/{}/abort", enc(id))
}
/// `POST`: resign.
pub fn game_resign(id: &str) -> String {
    format!("/api/bot/game/{}/resign", enc(id))
}
/// `POST`: offer/accept (`yes`) or decline (`no`) a draw.
pub fn game_draw(id: &str, accept: bool) -> String {
    format!("/api/bot/game/{}/draw/{}", enc(id), if accept { "yes" } else { "no" })
}
/// `POST`: accept (`yes`) or decline (`no`) the opponent's takeback proposal.
pub fn game_takeback(id: &str, accept: bool) -> String {
    format!(
        "/api/bot/game/{}/takeback/{}",
        enc(id),
        if accept { "yes" } else { "no" }
    )
}
/// `POST`: claim victory after the opponent left.
pub fn game_claim_victory(id: &str) -> String {
    format!("/api/bot/game/{}/claim-victory", enc(id))
}

/// Keeps path segments safe: ids, names and UCI moves only use these characters.
fn enc(segment: &str) -> String {
    segment
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '@' | '.'))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn paths() {
        assert_eq!(super::game_move("abcd1234", "e2e4"), "/api/bot/game/abcd1234/move/e2e4");
        assert_eq!(super::game_draw("x", false), "/api/bot/game/x/draw/no");
        assert_eq!(super::challenge_create("a/../b"), "/api/challenge/a..b");
    }
}
