//! Text at the edges: FEN, UCI moves and SAN. Each parses text into a syntactic value first,
//! then resolves it against a variant or position, with distinct errors for each step.

pub mod fen;
pub mod san;
pub mod uci;
