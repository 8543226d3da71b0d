//! Text at the edges: FEN, UCI moves, SAN and PGN. Each parses text into a syntactic value first,
//! then resolves it against a variant or position, with distinct errors for each step.

pub mod fen;
pub mod pgn;
pub mod san;
pub mod uci;
