//! Text at the edges: FEN, UCI moves, SAN and PGN. Each parses text into a syntactic value first,
//! then resolves it against a variant or position, with distinct errors for each step.

pub mod fen;
pub mod pgn;
pub mod san;
pub mod uci;

/// Why a move that the bare position allows is forbidden in the game: the only legality filter
/// that reads a game's earlier positions is Parsi Chess's perpetual-check ban.
pub const FORBIDDEN_BY_HISTORY: &str =
    "the game's earlier positions forbid it: a perpetual check, a check that brings \
     a position back for the third time when every move of the checking side since its first occurrence gave check";
