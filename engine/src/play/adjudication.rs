//! Adjudication: ending a game before the rules do, by the ply limit or by the scores the
//! players report (resign and draw rules).

use super::result::{GameResult, Termination};

/// Plies after which a game is adjudicated a draw when none is given.
pub const DEFAULT_MAX_PLIES: usize = 400;

/// Resign adjudication: a game is won when the reported scores give one side at least
/// `score_cp` for `plies` consecutive plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Threshold in centipawns, White's view either way (mate scores are beyond every threshold).
    pub score_cp: i32,
    /// Consecutive plies (a match asks for `2 * k`: `k` moves of each engine; 0 counts as 1).
    pub plies: usize,
}

/// Draw adjudication: a game is drawn when the reported scores stay within `score_cp` of 0 for
/// `plies` consecutive plies, counting only plies from `after_ply` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Threshold in centipawns.
    pub score_cp: i32,
    /// Consecutive plies (0 counts as 1).
    pub plies: usize,
    /// Plies before this one (counted from the game start, opening included) do not count.
    pub after_ply: usize,
}

/// When a game is ended before the rules end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Games reaching this many plies (opening included) are drawn.
    pub max_plies: usize,
    /// Resign adjudication, if any.
    pub resign: Option<ResignRule>,
    /// Draw adjudication, if any.
    pub draw: Option<DrawRule>,
}

impl Default for Adjudication {
    /// [`DEFAULT_MAX_PLIES`], no resign or draw adjudication.
    fn default() -> Adjudication {
        Adjudication {
            max_plies: DEFAULT_MAX_PLIES,
            resign: None,
            draw: None,
        }
    }
}

/// Applies the resign and draw rules to the scores reported ply by ply.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive plies with White ahead, with Black ahead, near 0.
    white_ahead: usize,
    black_ahead: usize,
    near_zero: usize,
}

impl Adjudicator {
    /// An adjudicator for a new game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            white_ahead: 0,
            black_ahead: 0,
            near_zero: 0,
        }
    }

    /// Records a move without a score (another program may report none): the counts of
    /// consecutive plies start again.
    pub fn record_unscored(&mut self) {
        self.white_ahead = 0;
        self.black_ahead = 0;
        self.near_zero = 0;
    }

    /// Records the score (centipawns, White's view, mates beyond every threshold) reported for
    /// the move played at `ply` (0-based, opening included) and says whether the game is now
    /// adjudicated. The resign rule is asked first.
    pub fn record(&mut self, ply: usize, white_cp: i32) -> Option<(GameResult, Termination)> {
        if let Some(r) = self.rules.resign {
            if white_cp >= r.score_cp {
                self.white_ahead += 1;
                self.black_ahead = 0;
            } else if white_cp <= -r.score_cp {
                self.black_ahead += 1;
                self.white_ahead = 0;
            } else {
                self.white_ahead = 0;
                self.black_ahead = 0;
            }
            let needed = r.plies.max(1);
            if self.white_ahead >= needed {
                return Some((GameResult::WhiteWins, Termination::Resign));
            }
            if self.black_ahead >= needed {
                return Some((GameResult::BlackWins, Termination::Resign));
            }
        }
        if let Some(d) = self.rules.draw {
            if ply >= d.after_ply && white_cp.abs() <= d.score_cp {
                self.near_zero += 1;
            } else {
                self.near_zero = 0;
            }
            if self.near_zero >= d.plies.max(1) {
                return Some((GameResult::Draw, Termination::DrawScore));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(resign: Option<(i32, usize)>, draw: Option<(i32, usize, usize)>) -> Adjudication {
        Adjudication {
            max_plies: 400,
            resign: resign.map(|(score_cp, plies)| ResignRule { score_cp, plies }),
            draw: draw.map(|(score_cp, plies, after_ply)| DrawRule {
                score_cp,
                plies,
                after_ply,
            }),
        }
    }

    #[test]
    fn resign_needs_both_engines_for_k_moves_each() {
        // Two moves of each engine: four plies.
        let mut a = Adjudicator::new(rules(Some((500, 4)), None));
        // White-view scores of alternating engines: three in a row beyond 500, then one below.
        assert_eq!(a.record(10, 600), None);
        assert_eq!(a.record(11, 700), None);
        assert_eq!(a.record(12, 650), None);
        assert_eq!(a.record(13, 400), None);
        assert_eq!(a.record(14, 600), None);
        assert_eq!(a.record(15, 600), None);
        assert_eq!(a.record(16, 600), None);
        assert_eq!(a.record(17, 99_990), Some((GameResult::WhiteWins, Termination::Resign)));
        // A move without a score breaks the run.
        let mut u = Adjudicator::new(rules(Some((500, 2)), Some((10, 2, 0))));
        assert_eq!(u.record(0, 600), None);
        u.record_unscored();
        assert_eq!(u.record(2, 600), None);
        assert_eq!(u.record(3, 0), None);
        u.record_unscored();
        assert_eq!(u.record(5, 0), None);
        assert_eq!(u.record(6, 0), Some((GameResult::Draw, Termination::DrawScore)));
        let mut b = Adjudicator::new(rules(Some((300, 2)), None));
        assert_eq!(b.record(0, -300), None);
        assert_eq!(b.record(1, -99_000), Some((GameResult::BlackWins, Termination::Resign)));
    }

    #[test]
    fn draw_counts_only_after_the_given_ply() {
        let mut a = Adjudicator::new(rules(None, Some((10, 4, 20))));
        for ply in 16..20 {
            assert_eq!(a.record(ply, 0), None);
        }
        assert_eq!(a.record(20, 5), None);
        assert_eq!(a.record(21, -10), None);
        assert_eq!(a.record(22, 11), None);
        assert_eq!(a.record(23, 0), None);
        assert_eq!(a.record(24, 0), None);
        assert_eq!(a.record(25, 0), None);
        assert_eq!(a.record(26, 0), Some((GameResult::Draw, Termination::DrawScore)));
        // Without rules nothing is adjudicated.
        let mut none = Adjudicator::new(Adjudication::default());
        assert!((0..100).all(|p| none.record(p, 0).is_none()));
    }

    fn self_play_rules() -> Adjudication {
        rules(Some((1000, 4)), Some((10, 8, 80)))
    }

    #[test]
    fn resign_needs_consecutive_agreeing_plies() {
        let mut a = Adjudicator::new(self_play_rules());
        assert_eq!(a.record(10, 1200), None);
        assert_eq!(a.record(11, 1500), None);
        assert_eq!(a.record(12, 900), None);
        for p in 13..16 {
            assert_eq!(a.record(p, 1000), None);
        }
        assert_eq!(a.record(16, 1000), Some((GameResult::WhiteWins, Termination::Resign)));
        let mut b = Adjudicator::new(self_play_rules());
        for p in 0..3 {
            assert_eq!(b.record(p, -99_990), None);
        }
        assert_eq!(b.record(3, -2000), Some((GameResult::BlackWins, Termination::Resign)));
    }

    #[test]
    fn draw_counts_from_the_given_ply() {
        let mut a = Adjudicator::new(self_play_rules());
        for p in 74..80 {
            assert_eq!(a.record(p, 0), None);
        }
        for p in 80..87 {
            assert_eq!(a.record(p, 5), None);
        }
        assert_eq!(a.record(87, -10), Some((GameResult::Draw, Termination::DrawScore)));
        let off = Adjudication {
            resign: None,
            draw: None,
            ..self_play_rules()
        };
        let mut b = Adjudicator::new(off);
        for p in 0..200 {
            assert_eq!(b.record(p, if p < 100 { 0 } else { 5000 }), None);
        }
    }
}
