//! The perpetual-check ban of Parsi Chess (rules note A.8, ENGINE POLICY reading): a move by side
//! S is illegal when it gives check, it would make a position occur for the third time, and every
//! move S made since that position's first occurrence gave check. If S has no other legal move,
//! the move stays legal and the game is drawn by repetition.
//!
//! The filter reads the game's earlier positions from the hashes it is given (a
//! [`Game`](crate::rules::game::Game) and the search pass them) and S's run of checking moves from
//! the position ([`Position::checking_run`]); without history it forbids nothing.

use super::CustomRule;
use crate::rules::{moves::MoveList, position::Position};

/// The rule.
#[derive(Debug)]
pub struct NoPerpetualCheck;

/// The rule, to name in a variant's rules.
pub static NO_PERPETUAL_CHECK: NoPerpetualCheck = NoPerpetualCheck;

impl CustomRule for NoPerpetualCheck {
    fn name(&self) -> &'static str {
        "no perpetual check"
    }

    fn has_filter(&self) -> bool {
        true
    }

    fn reads_history(&self) -> bool {
        true
    }

    /// With fewer than four earlier positions, during an opening series, or when the mover's
    /// last move gave no check, the filter keeps every move (see [`forbids_nothing`]).
    fn filter_spares_ordinary_moves(&self, pos: &Position, history: &[u64]) -> bool {
        forbids_nothing(pos, history)
    }

    fn filter(&self, pos: &Position, history: &[u64], moves: &mut MoveList) {
        // Nothing else to play: the checks stay legal (and the repetition draws).
        if let Some(kept) = allowed(pos, history, moves).filter(|k| !k.is_empty()) {
            *moves = kept;
        }
    }

    fn filter_part(&self, pos: &Position, history: &[u64], moves: &mut MoveList) -> bool {
        if let Some(kept) = allowed(pos, history, moves) {
            *moves = kept;
        }
        true
    }
}

/// The moves of `moves` that are not perpetual checks, or `None` where the ban surely forbids
/// nothing.
fn allowed(pos: &Position, history: &[u64], moves: &MoveList) -> Option<MoveList> {
    if forbids_nothing(pos, history) {
        return None;
    }
    let us = pos.turn();
    let mut kept = MoveList::new();
    for &m in moves.iter() {
        let after = pos.after(m);
        if after.in_check() && is_perpetual(&after, history, us) {
            continue;
        }
        kept.push(m);
    }
    Some(kept)
}

/// Whether the ban surely forbids no move of `pos`: during an opening series (rules note A.9);
/// with fewer than four earlier positions; or when the mover's last move gave no check. A third
/// occurrence comes at least four plies after the first (each occurrence has the same side to
/// move, so they are an even number of plies apart), so at least two of the mover's moves
/// separate it from the first, and [`is_perpetual`] wants every one of them a check: the last
/// one before this move too.
fn forbids_nothing(pos: &Position, history: &[u64]) -> bool {
    pos.in_opening_series() || history.len() < 4 || pos.checking_run(pos.turn()) == 0
}

/// Whether `after`, reached by a checking move of `us` from the position that follows `history`,
/// occurs for the third time with only checks by `us` since its first occurrence.
fn is_perpetual(after: &Position, history: &[u64], us: crate::rules::Color) -> bool {
    let h = after.hash();
    let mut seen = history.iter().enumerate().filter(|&(_, &x)| x == h);
    let Some((first, _)) = seen.next() else { return false };
    if seen.next().is_none() {
        return false;
    }
    // Positions after `us`'s moves since the first occurrence: first + 2, first + 4, ..., and
    // `after` itself at index `history.len() + 1`.
    let moves_since = (history.len() + 1 - first) / 2;
    usize::from(after.checking_run(us)) >= moves_since
}

#[cfg(test)]
mod tests {
    use crate::rules::special::test_support::parsi::fen;

    /// A.8: a check that would make a position occur for the third time, when every move of the
    /// checking side since its first occurrence gave check, is illegal (in a game, which knows the
    /// history); a bare position forbids nothing.
    #[test]
    fn perpetual_check_is_forbidden_in_a_game() {
        let start = fen("4Q2k/p5p1/7p/8/8/8/P7/K7 b - - 0 1");
        let mut game = crate::rules::game::Game::new(start);
        for m in ["h8h7", "e8e4", "h7h8", "e4e8", "h8h7", "e8e4", "h7h8"] {
            let mv = game.position().parse_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            assert!(game.legal_moves().contains(mv), "{m} is legal in the game");
            game.play(mv);
        }
        assert_eq!(game.outcome(), None);
        assert_eq!(game.position().checking_run(crate::rules::Color::White), 3);
        let check = game
            .position()
            .parse_uci("e4e8")
            .expect("Qe8+ is a move of the position");
        assert!(
            game.position().legal_moves().contains(check),
            "without the history it is legal"
        );
        assert!(
            !game.legal_moves().contains(check),
            "the third Qe8+ is a perpetual check"
        );
        assert!(game.legal_moves().len() > 10, "White has other moves");
        // A quiet move in between starts the count again.
        let quiet = fen("7k/p5p1/7p/8/4Q3/8/P7/K7 w - - 0 1");
        let after = quiet.after(quiet.parse_uci("a2a3").unwrap());
        assert_eq!(after.checking_run(crate::rules::Color::White), 0);
    }
}
