//! Win/draw/loss estimates from a score: what people evaluating a position ask for.
//!
//! The nets learn the expected score `sigmoid(cp / 400)` of the search scores they were trained on
//! (400 being `nnue::network::SCALE`, or the net's own scale once calibrated: [`expected_score`]):
//! the expected score alone is their own scale. Splitting it into wins,
//! draws and losses needs a draw model, fitted per variant on the results of self-play games
//! (`trainer data wdl`): with `s` the score for the side to move,
//!
//! ```text
//! win  = sigmoid((s - margin) / scale)
//! loss = sigmoid((-s - margin) / scale)
//! draw = 1 - win - loss
//! ```
//!
//!
//! ```
//! use engine::eval::wdl::WdlModel;
//! let m = WdlModel { margin: 200.0, scale: 100.0 };
//! let e = m.estimate(0);
//! assert!(e.win == e.loss && e.draw > 0.75);
//! assert!(m.estimate(400).win > 0.85);
//! ```

use std::sync::OnceLock;

use crate::rules::Variant;

/// The expected score (wins plus half the draws) a net was trained on, for `cp` of that net,
/// whose scale (centipawns per unit of output, docs/nnue-format.md) is `scale`:
/// `sigmoid(cp / scale)`, 400 for a net as trained, another for a net calibrated since.
#[must_use]
pub fn expected_score(cp: i32, scale: i32) -> f64 {
    sigmoid(f64::from(cp) / f64::from(scale))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A draw model: see the module's documentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// The score (centipawns) at which a win becomes as likely as not.
    pub margin: f64,
    /// Centipawns per unit of the logistic: how fast wins grow with the score.
    pub scale: f64,
}

/// Probabilities of a win, a draw and a loss for the side to move (they sum to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlEstimate {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl WdlEstimate {
    /// Per mille, rounded so that the three sum to 1000 (the UCI `wdl` form).
    #[must_use]
    pub fn permille(&self) -> [u32; 3] {
        let w = (self.win * 1000.0).round().clamp(0.0, 1000.0) as u32;
        let l = ((self.loss * 1000.0).round().clamp(0.0, 1000.0) as u32).min(1000 - w);
        [w, 1000 - w - l, l]
    }

    /// Wins plus half the draws.
    #[must_use]
    pub fn expected_score(&self) -> f64 {
        self.win + self.draw / 2.0
    }
}

impl std::fmt::Display for WdlEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [w, d, l] = self.permille();
        write!(
            f,
            "win {:.1}%, draw {:.1}%, loss {:.1}%",
            f64::from(w) / 10.0,
            f64::from(d) / 10.0,
            f64::from(l) / 10.0
        )
    }
}

impl WdlModel {
    /// The estimate for a score of `cp` for the side to move.
    #[must_use]
    pub fn estimate(&self, cp: i32) -> WdlEstimate {
        let s = f64::from(cp);
        let win = sigmoid((s - self.margin) / self.scale);
        let loss = sigmoid((-s - self.margin) / self.scale);
        WdlEstimate {
            win,
            draw: (1.0 - win - loss).max(0.0),
            loss,
        }
    }

    /// The model fitted for a variant, with what it was fitted on; `None` where there is none
    /// (no self-play of that variant has been fitted). The models are data:
    /// `data/wdl-models.txt`, built into the engine.
    #[must_use]
    pub fn for_variant(variant: Variant) -> Option<(WdlModel, &'static str)> {
        fitted().iter().find(|m| m.0 == variant.id()).map(|m| (m.1, m.2))
    }
}

/// The models file, built in.
const MODELS: &str = include_str!("../../../data/wdl-models.txt");

/// The fitted models: variant id, model, source.
fn fitted() -> &'static [(&'static str, WdlModel, &'static str)] {
    static MODELS_READ: OnceLock<Vec<(&'static str, WdlModel, &'static str)>> = OnceLock::new();
    MODELS_READ.get_or_init(|| parse_models(MODELS).unwrap_or_default())
}

/// Reads a models file (see `data/wdl-models.txt`): a line per variant, `#` comments.
fn parse_models(text: &str) -> Result<Vec<(&str, WdlModel, &str)>, String> {
    let mut models = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.splitn(4, ' ');
        let (Some(id), Some(margin), Some(scale), Some(source)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("line {}: expected '<id> <margin> <scale> <source>'", n + 1));
        };
        let number = |t: &str| {
            t.parse::<f64>()
                .map_err(|_| format!("line {}: '{t}' is not a number", n + 1))
        };
        let model = WdlModel {
            margin: number(margin)?,
            scale: number(scale)?,
        };
        if model.scale <= 0.0 {
            return Err(format!("line {}: the scale must be positive", n + 1));
        }
        models.push((id, model, source));
    }
    Ok(models)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_are_probabilities_symmetric_in_the_score() {
        let m = WdlModel {
            margin: 150.0,
            scale: 120.0,
        };
        for cp in [-3000, -400, -1, 0, 1, 77, 400, 3000] {
            let e = m.estimate(cp);
            let mirror = m.estimate(-cp);
            assert!((e.win + e.draw + e.loss - 1.0).abs() < 1e-12, "{cp}");
            assert!((e.win - mirror.loss).abs() < 1e-12 && (e.draw - mirror.draw).abs() < 1e-12);
            assert_eq!(e.permille().iter().sum::<u32>(), 1000);
        }
        assert!(m.estimate(100).win > m.estimate(50).win);
        assert_eq!(m.estimate(3000).permille(), [1000, 0, 0]);
        assert_eq!(m.estimate(0).to_string(), "win 22.3%, draw 55.4%, loss 22.3%");
    }

    #[test]
    fn the_built_in_models_read_and_name_real_variants() {
        let models = parse_models(MODELS).expect("data/wdl-models.txt reads");
        assert_eq!(models.len(), 7);
        for (id, model, source) in &models {
            let v: Variant = id.parse().expect("a variant id");
            assert_eq!(WdlModel::for_variant(v), Some((*model, *source)));
            assert!(model.margin >= 0.0 && source.starts_with("model fitted on "), "{id}");
        }
        // Every variant with a built-in net has a model; chess has neither.
        let chess: Variant = "chess".parse().expect("chess");
        assert_eq!(WdlModel::for_variant(chess), None);
        assert!(parse_models("x 1 2").is_err());
        assert!(parse_models("x one 2 fitted")
            .unwrap_err()
            .contains("'one' is not a number"));
        assert!(parse_models("x 1 0 fitted").unwrap_err().contains("positive"));
    }

    #[test]
    fn the_training_scale() {
        assert_eq!(expected_score(0, 400), 0.5);
        assert!((expected_score(400, 400) - 0.731_058_578_6).abs() < 1e-9);
        // A net calibrated to 160 cp per unit: 160 of its centipawns are the 400 it learned.
        assert!((expected_score(160, 160) - expected_score(400, 400)).abs() < 1e-12);
    }
}
