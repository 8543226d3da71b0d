//! Ratings: Glicko-2 per perf with Lichess's choices (start 1500, deviation 500, volatility
//! 0.09, tau 0.75, deviation kept within 45..500, provisional while the deviation is 110 or
//! more), updated after each rated game rather than in rating periods. The arithmetic is the
//! `skillratings` crate's.

use skillratings::{
    glicko2::{glicko2, Glicko2Config, Glicko2Rating},
    Outcomes,
};

/// Lichess's system constant.
pub const TAU: f64 = 0.75;
/// Deviation of a new perf.
pub const START_DEVIATION: f64 = 500.0;
/// The smallest deviation Lichess keeps.
pub const MIN_DEVIATION: f64 = 45.0;
/// Provisional while the deviation is at least this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Games over which `prog` (rating progress) is measured, as on Lichess.
pub const PROGRESS_GAMES: usize = 12;

/// One perf of one player.
#[derive(Clone, Debug, PartialEq)]
pub struct PerfRating {
    /// Glicko-2 rating.
    pub rating: f64,
    /// Rating deviation.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// Ratings after the last games (at most `PROGRESS_GAMES + 1`), oldest first.
    pub recent: Vec<i32>,
}

impl Default for PerfRating {
    fn default() -> PerfRating {
        PerfRating {
            rating: 1500.0,
            deviation: START_DEVIATION,
            volatility: 0.09,
            games: 0,
            recent: Vec::new(),
        }
    }
}

impl PerfRating {
    /// The rating shown (rounded).
    pub fn shown(&self) -> i32 {
        self.rating.round() as i32
    }

    /// Provisional (deviation of 110 or more).
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// Progress over the last games: the rating now minus the rating `PROGRESS_GAMES` games ago.
    pub fn progress(&self) -> i32 {
        match self.recent.first() {
            Some(first) if self.recent.len() > 1 => self.shown() - first,
            _ => 0,
        }
    }

    /// The JSON of the `perfs` entry: `games`, `rating`, `rd`, `prog`, and `prov` when provisional.
    pub fn json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "games": self.games,
            "rating": self.shown(),
            "rd": self.deviation.round() as i64,
            "prog": self.progress(),
        });
        if self.provisional() {
            v["prov"] = true.into();
        }
        v
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn with(&self, r: Glicko2Rating) -> PerfRating {
        let mut recent = self.recent.clone();
        if recent.is_empty() {
            recent.push(self.shown());
        }
        let rating = PerfRating {
            rating: r.rating,
            deviation: r.deviation.clamp(MIN_DEVIATION, START_DEVIATION),
            volatility: r.volatility,
            games: self.games + 1,
            recent: Vec::new(),
        };
        recent.push(rating.shown());
        let skip = recent.len().saturating_sub(PROGRESS_GAMES + 1);
        PerfRating {
            recent: recent.split_off(skip),
            ..rating
        }
    }
}

/// The ratings after one rated game: `white_score` is 1, 0.5 or 0.
pub fn after_game(white: &PerfRating, black: &PerfRating, white_score: f64) -> (PerfRating, PerfRating) {
    let outcome = if white_score > 0.75 {
        Outcomes::WIN
    } else if white_score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (w, b) = glicko2(&white.glicko(), &black.glicko(), &outcome, &config);
    (white.with(w), black.with(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// The worked example of Glickman's "Example of the Glicko-2 system" (tau 0.5): a 1500
    /// player (RD 200, volatility 0.06) beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a
    /// 1700 (RD 300): 1464.06, RD 151.52, volatility 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let r = glicko2_rating_period(&player, &results, &Glicko2Config::new());
        assert!((r.rating - 1464.06).abs() < 0.01, "{r:?}");
        assert!((r.deviation - 151.52).abs() < 0.01, "{r:?}");
        assert!((r.volatility - 0.05999).abs() < 0.00001, "{r:?}");
    }

    #[test]
    fn one_game_moves_new_ratings_as_lichess_does() {
        let new = PerfRating::default();
        assert!(new.provisional());
        let (w, b) = after_game(&new, &new, 1.0);
        // Two new players: the winner gains and the loser loses the same, by a lot (RD 500).
        assert!(w.shown() > 1650 && w.shown() < 1800, "{w:?}");
        assert_eq!(w.shown() - 1500, 1500 - b.shown());
        assert!(w.deviation < START_DEVIATION);
        assert_eq!((w.games, b.games), (1, 1));
        assert_eq!(w.progress(), w.shown() - 1500);
        let (d1, d2) = after_game(&new, &new, 0.5);
        assert_eq!((d1.shown(), d2.shown()), (1500, 1500));
        // Many games: the deviation shrinks below the provisional mark but never below 45.
        let (mut a, mut b) = (new.clone(), new);
        for i in 0..200u32 {
            (a, b) = after_game(&a, &b, if i.is_multiple_of(2) { 1.0 } else { 0.0 });
        }
        assert!(!a.provisional(), "{a:?}");
        assert!(a.deviation >= MIN_DEVIATION);
        assert_eq!(a.recent.len(), PROGRESS_GAMES + 1);
        assert_eq!(a.json()["games"], 200);
        assert!(a.json().get("prov").is_none());
    }
}
