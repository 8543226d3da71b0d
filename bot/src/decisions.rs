//! Resign and draw decisions from the history of our search scores (one entry per own move).

use engine::search::Score;

use crate::config::DecisionsConfig;

/// A mate counts as this many centipawns (minus the distance).
pub const MATE_CP: i32 = 30_000;

/// A search score as centipawns from our side; mates are +/-[`MATE_CP`], nearer mates further
/// out.
pub fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_CP - n,
        Score::Mate(n) => -MATE_CP - n,
    }
}

/// The scores of one game and the rules that read them.
#[derive(Clone, Debug, Default)]
pub struct Decisions {
    config: DecisionsConfig,
    scores: Vec<i32>,
}

impl Decisions {
    /// An empty history.
    pub fn new(config: &DecisionsConfig) -> Decisions {
        Decisions {
            config: config.clone(),
            scores: Vec::new(),
        }
    }

    /// Records the score (cp, our side) of one of our searches.
    pub fn record(&mut self, cp: i32) {
        self.scores.push(cp);
    }

    /// The latest score, if we searched already.
    pub fn latest(&self) -> Option<i32> {
        self.scores.last().copied()
    }

    fn last_n(&self, n: usize) -> Option<&[i32]> {
        (n >= 1 && self.scores.len() >= n).then(|| &self.scores[self.scores.len() - n..])
    }

    /// Resign: the last `resign_moves` scores are all at or below `resign_score`, and the game
    /// has `plies >= 2` (before that a resignation would only abort).
    pub fn should_resign(&self, plies: usize) -> bool {
        let c = &self.config;
        c.resign_score != 0
            && plies >= 2
            && self
                .last_n(c.resign_moves)
                .is_some_and(|s| s.iter().all(|&cp| cp <= c.resign_score))
    }

    /// Offer a draw with the move about to be played at ply `plies` (moves played so far):
    /// the last `offer_draw_moves` scores are all within `offer_draw_score` of 0, and at least
    /// `offer_draw_after_ply` plies have been played.
    pub fn should_offer_draw(&self, plies: usize) -> bool {
        let c = &self.config;
        plies >= c.offer_draw_after_ply
            && self
                .last_n(c.offer_draw_moves)
                .is_some_and(|s| s.iter().all(|&cp| cp.abs() <= c.offer_draw_score))
    }

    /// Accept the opponent's draw offer: our latest score is at most `accept_draw_score` (no
    /// score yet: decline).
    pub fn accept_draw(&self) -> bool {
        self.latest().is_some_and(|cp| cp <= self.config.accept_draw_score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(f: impl FnOnce(&mut DecisionsConfig)) -> Decisions {
        let mut c = DecisionsConfig::default();
        f(&mut c);
        Decisions::new(&c)
    }

    #[test]
    fn mate_scores() {
        assert_eq!(score_cp(Score::Cp(-42)), -42);
        assert!(score_cp(Score::Mate(1)) > score_cp(Score::Mate(5)));
        assert!(score_cp(Score::Mate(-1)) < score_cp(Score::Mate(-5)));
        assert!(score_cp(Score::Mate(-5)) < -20_000 && score_cp(Score::Mate(3)) > 20_000);
        assert!(score_cp(Score::Mate(0)) <= -MATE_CP);
    }

    #[test]
    fn resign_needs_consecutive_bad_scores() {
        let mut d = with(|c| {
            c.resign_score = -500;
            c.resign_moves = 3;
        });
        for cp in [-600, -700] {
            d.record(cp);
        }
        assert!(!d.should_resign(10), "only two moves");
        d.record(-400);
        assert!(!d.should_resign(10), "the streak broke");
        for cp in [-500, -900, -20000] {
            d.record(cp);
        }
        assert!(d.should_resign(10));
        assert!(!d.should_resign(1), "abortable: never resign");
        let mut never = with(|c| c.resign_score = 0);
        for _ in 0..5 {
            never.record(-29_000);
        }
        assert!(!never.should_resign(20));
    }

    #[test]
    fn draw_offers() {
        let mut d = with(|c| {
            c.offer_draw_score = 20;
            c.offer_draw_moves = 2;
            c.offer_draw_after_ply = 30;
        });
        d.record(5);
        assert!(!d.should_offer_draw(40), "one score only");
        d.record(-20);
        assert!(d.should_offer_draw(40));
        assert!(!d.should_offer_draw(29), "too early");
        d.record(21);
        assert!(!d.should_offer_draw(40));
        let mut never = with(|c| c.offer_draw_moves = 0);
        never.record(0);
        assert!(!never.should_offer_draw(200));
    }

    #[test]
    fn draw_answers() {
        let mut d = with(|c| c.accept_draw_score = 0);
        assert!(!d.accept_draw(), "no score yet");
        d.record(35);
        assert!(!d.accept_draw());
        d.record(0);
        assert!(d.accept_draw());
        d.record(-300);
        assert!(d.accept_draw());
    }
}
