//! The search's tunable constants in one typed table: pruning margins, reductions, the LMR
//! formula and the history bonus. [`SearchParams`] holds one value of each; [`PARAMS`] lists
//! them with their defaults (the values the search had before it was made tunable), ranges and
//! SPSA perturbation sizes (`c_end`). The `SearchParams` UCI option and `engine spsa` read and
//! write them as text: `name=value` items separated by commas, semicolons or spaces
//! ([`SearchParams::parse`]).
//!
//! ```
//! use engine::search::params::SearchParams;
//!
//! let p = SearchParams::parse("rfp_margin=90, lmr_div=240").unwrap();
//! assert_eq!((p.rfp_margin, p.lmr_div), (90, 240));
//! assert_eq!(p.to_string(), "rfp_margin=90,lmr_div=240");
//! assert_eq!(SearchParams::parse("").unwrap(), SearchParams::default());
//! assert_eq!(
//!     SearchParams::parse("rfp_margin=5").unwrap_err().to_string(),
//!     "search parameter rfp_margin must be between 20 and 250, got 5"
//! );
//! ```

use std::fmt;

use crate::rules::{Variant, VariantSpec};

/// One tunable constant: its name (as in the option string), default, range and the SPSA
/// perturbation it is tuned with at the end of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// The name in the option string, e.g. `rfp_margin`.
    pub name: &'static str,
    /// The value the search uses by default.
    pub default: i32,
    /// The smallest accepted value.
    pub min: i32,
    /// The largest accepted value.
    pub max: i32,
    /// SPSA: the perturbation at the last iteration (`c_end`), in the parameter's units.
    pub c_end: f64,
    /// What it does, for `engine params`.
    pub meaning: &'static str,
}

macro_rules! search_params {
    ($($field:ident: $default:expr, $min:expr, $max:expr, $c_end:expr, $meaning:expr;)*) => {
        /// One value of each tunable constant of the search (see [`PARAMS`]); the default is the
        /// search's standard behaviour. It also remembers which values were set by name
        /// ([`SearchParams::parse`], [`SearchParams::set`]): those hold in every game, the others
        /// give way to a game's own defaults ([`SearchParams::for_game`]).
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct SearchParams {
            $(
                #[doc = $meaning]
                pub $field: i32,
            )*
            /// Bit `i`: the `i`-th entry of [`PARAMS`] was set by name.
            named: u128,
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $($field: $default,)* named: 0 }
            }
        }

        /// The tunable constants, in the order of [`SearchParams::get`].
        pub const PARAMS: &[ParamSpec] = &[
            $(ParamSpec {
                name: stringify!($field),
                default: $default,
                min: $min,
                max: $max,
                c_end: $c_end,
                meaning: $meaning,
            },)*
        ];

        impl SearchParams {
            /// The value of the `index`-th entry of [`PARAMS`].
            ///
            /// # Panics
            /// `index` is not below `PARAMS.len()` (a caller's logic error).
            pub fn get(&self, index: usize) -> i32 {
                let values = [$(self.$field,)*];
                values[index]
            }

            /// Sets the `index`-th entry of [`PARAMS`] (unchecked: callers keep it in range) and
            /// marks it as set by name: it then holds in every game ([`SearchParams::for_game`]).
            ///
            /// # Panics
            /// `index` is not below `PARAMS.len()` (a caller's logic error).
            pub fn set(&mut self, index: usize, value: i32) {
                self.set_value(index, value);
                self.named |= 1 << index;
            }

            /// Sets the `index`-th value without marking it as set by name.
            fn set_value(&mut self, index: usize, value: i32) {
                let fields = [$(&mut self.$field,)*];
                *fields.into_iter().nth(index).expect("index of a parameter") = value;
            }
        }
    };
}

search_params! {
    asp_delta: 20, 5, 100, 3.0, "aspiration window: first half-width around the previous score (cp)";
    rfp_depth: 7, 1, 15, 1.0, "reverse futility pruning: deepest depth it applies at";
    rfp_margin: 85, 20, 250, 8.0, "reverse futility pruning: margin per ply of depth (cp)";
    nmp_min_depth: 3, 1, 8, 1.0, "null-move pruning: shallowest depth it is tried at";
    nmp_base: 3, 1, 6, 0.7, "null-move pruning: base reduction (plies)";
    nmp_depth_div: 4, 1, 12, 1.0, "null-move pruning: one more ply of reduction per this many plies of depth";
    nmp_eval_div: 200, 50, 800, 20.0, "null-move pruning: one more ply of reduction per this many cp of eval above beta";
    nmp_eval_max: 3, 0, 6, 0.7, "null-move pruning: most plies added for the eval above beta";
    iir_depth: 6, 2, 14, 1.0, "internal iterative reduction: shallowest depth it applies at";
    lmp_depth: 6, 1, 12, 1.0, "late-move pruning: deepest depth it applies at";
    lmp_base: 3, 0, 12, 1.0, "late-move pruning: quiet moves searched before pruning is lmp_base + depth^2 (half + 1 when not improving)";
    fut_depth: 4, 1, 10, 1.0, "futility pruning of quiet moves: deepest depth it applies at";
    fut_base: 120, 0, 400, 10.0, "futility pruning: base margin (cp)";
    fut_margin: 100, 20, 300, 8.0, "futility pruning: margin per ply of depth (cp)";
    see_depth: 4, 1, 10, 1.0, "SEE pruning of losing captures: deepest depth it applies at";
    see_capture: 90, 0, 300, 8.0, "SEE pruning: a capture losing more than this per ply of depth is skipped (cp)";
    see_quiet_depth: 8, 1, 12, 1.0, "SEE pruning of quiet moves (not killers or countermoves): deepest depth it applies at";
    see_quiet: 25, 0, 100, 3.0, "SEE pruning of quiet moves: a move losing more than this times depth^2 is skipped (cp)";
    lmr_min_depth: 3, 2, 8, 1.0, "late-move reductions: shallowest depth they apply at";
    lmr_base: 75, 0, 200, 8.0, "late-move reductions: base of the table, hundredths of a ply (base + ln(depth) ln(moves) / div)";
    lmr_div: 225, 100, 500, 15.0, "late-move reductions: divisor of the table's log product, hundredths";
    lmr_hist_div: 6000, 1000, 20000, 500.0, "late-move reductions: one ply less (more) per this much good (bad) history, up to 2";
    hist_bonus: 8, 1, 32, 1.0, "history: with hist_lin 0, the bonus of a cutoff move is hist_bonus * depth^2 (the other quiets lose as much)";
    hist_lin: 160, 0, 1000, 20.0, "history: with a value above 0, a cutoff's bonus is hist_lin * depth instead of hist_bonus * depth^2 (still at most hist_bonus_max): more weight to the shallow cutoffs, which are most of them (0: the square of the depth, the default before 2026-12-04)";
    hist_bonus_max: 1600, 200, 8000, 100.0, "history: largest bonus";
    qs_delta: 200, 0, 600, 15.0, "quiescence delta pruning: a capture is skipped when even its victim plus this margin cannot reach alpha (cp)";
    qs_big_delta: 150, 0, 600, 15.0, "quiescence: the node stands pat when even the best possible gain plus this margin cannot reach alpha (cp)";
    se_depth: 6, 4, 64, 1.0, "singular extensions: shallowest depth they apply at (64: off)";
    se_margin: 2, 0, 20, 0.5, "singular extensions: the other moves are tested against the table's score less this per ply of depth (cp)";
    se_neg: 0, 0, 2, 0.5, "singular extensions: plies taken from the table move when another move reaches the test's bound, that bound is below beta and the table's score is at or above it (0: none)";
    se_double: 0, 0, 300, 5.0, "singular extensions: at non-PV nodes the table move is searched two plies deeper when every other move stays this far (cp) below the test's bound (0: never), at most 6 times along a line";
    check_ext: 1, 0, 2, 0.5, "1: a move that gives check is searched a ply deeper (0: no check extension; 2: only a check whose exchange loses nothing)";
    lmr_after: 2, 1, 4, 0.5, "late-move reductions: moves searched at a node before they reduce";
    lmr_deeper: 0, 0, 200, 5.0, "late-move reductions: a reduced move that beats the best score by this (cp) plus 2 per ply is searched again a ply deeper, one within a cp per ply of it a ply shallower (0: again at the full depth)";
    tt_pv: 0, 0, 2, 0.5, "late-move reductions: plies less at a non-PV node that the table marks as having been on a principal variation (0: none)";
    cut_child: 0, 0, 1, 0.5, "1: the first move of a non-PV node is searched as the opposite kind of node (cut node after all node and back), as later moves re-searched at full depth are (0: as a node expected to fail low)";
    tm_soft: 100, 25, 400, 10.0, "time management: a clock's soft limit (the time after which no new iteration starts) in percent of its plan (100: as planned; a fixed time per move is never scaled)";
    tm_nodes: 0, 0, 200, 10.0, "time management: a clock's soft limit scaled by the share of the search's nodes spent on the best move, down when it took most of them and up when it took few: by 1 + tm_nodes/100 (1 - 2 share), within 0.5 .. 1.5 (0: not scaled)";
    lmr_bad_captures: 0, 0, 1, 0.5, "1: late-move reductions also for the captures the picker tries last (their exchange loses): the table's value less one ply, at least one (0: captures are never reduced)";
    hist_prune: 0, 0, 20000, 300.0, "history pruning: at depth 3 or less, not in check, a quiet move other than the table move, a killer or the countermove is skipped when its history is below -hist_prune times depth (0: off)";
    cap_hist: 0, 0, 256, 4.0, "capture history: a capture's ordering score (most valuable victim first) gains its history, by moving kind, target and captured kind, divided by this; raised for a capture that cuts off, lowered for the captures searched before a cutoff (0: off)";
    partial: 0, 0, 1, 0.5, "1: when a node or time limit stops an iteration, a root move that iteration completed and found better than every move before it (it raised alpha) is played, with its line and score (0: the last complete iteration's move)";
    hist_exact: 0, 0, 1, 0.5, "1: a quiet best move that raised alpha without a cutoff (an exact score at a PV node) gains history, killer and countermove standing as a cutoff's does (0: only cutoffs)";
    prior_bonus: 0, 0, 400, 20.0, "history: when no move of a node reaches alpha, the quiet move that led to it gains this percent of a cutoff's history bonus at the node's depth (0: none)";
    quiet_threat: 0, 0, 30000, 1000.0, "quiet moves' ordering: a piece other than a pawn leaving a cell an enemy pawn attacks gains this much history, one stepping onto such a cell loses it (0: history alone)";
    cap_fut: 0, 0, 400, 15.0, "futility pruning of captures (not at the root, not in or into check, depth 6 or less): skipped when the static evaluation + 200 + this per ply of depth + the victim's value stays at or below alpha (0: off)";
    cont_hist: 100, 0, 400, 20.0, "continuation history: a quiet move's ordering score (and so its reductions' history term) gains this percent of the sum of two entries, one by the piece and target of the move one ply before, one by those of the move two plies before, each by the quiet move's kind and target; raised for a quiet move that cuts off, lowered for those searched before it (0: off; 32 MB a search thread when on)";
    ref_hist: 0, 0, 1, 0.5, "1: late-move reductions of a killer or countermove take its own history into account, as other quiet moves do (0: its ordering score above every history takes 2 plies off)";
    cont_ply4: 0, 0, 400, 20.0, "continuation history (with cont_hist on): a quiet move's ordering score also gains this percent of the entry by the piece and target of our move four plies before (the rows of the move two plies before), which a cutoff updates too (0: off)";
    corr_hist: 100, 0, 400, 20.0, "correction history: the static evaluation gains this percent of the sum of three entries (each within 51 cp), by the pawns, by White's other pieces and by Black's, which learn from each node's search score how far the evaluation was off (0: off)";
    corr_cont: 0, 0, 400, 20.0, "correction history (with corr_hist on): the static evaluation also gains this percent of an entry keyed by the pieces and targets of the two moves before the node, learnt as the other three (0: off)";
    pawn_hist: 0, 0, 400, 20.0, "pawn history: a quiet move's ordering score (and so its reductions' history term) gains this percent of an entry by side to move, the pawns' cells (hashed to one of 512 buckets) and the move's kind and target, raised for a quiet move that cuts off and lowered for those searched before it (0: off; 4 MB a search thread when on)";
    tt_cap_r: 0, 0, 2, 0.5, "late-move reductions: plies more for a quiet move at a node whose table move is a capture or promotion (0: none)";
    cut_cnt: 0, 0, 2, 0.5, "late-move reductions: plies more for a quiet move whose siblings' searches (the replies to this node's earlier moves and to its siblings') cut off more than 3 times (0: none)";
    alpha_red: 0, 0, 2, 0.5, "plies taken from the depth of a node's later moves once a move raised alpha without a cutoff, at depths 3 to 11 (0: none)";
    cut_r: 1, 0, 3, 0.5, "late-move reductions: plies more for a quiet move at a node expected to cut off (a null-window node below a reduced or later move)";
    eval_hist: 0, 0, 200, 5.0, "history from the static evaluation: at a node not in check after the opponent's quiet move (their node not in check either), that move's history gains this tenth of the cp its side gained, the sum of both evaluations negated, within the largest bonus (0: none)";
    fl_move: 0, 0, 1, 0.5, "1: a node where no move reached alpha stores no move in the table (the entry keeps the move it had; at the root after an aspiration fail-low, the previous best move stays first) and decides the correction history as a node without a best move (0: the move with the highest fail-soft score is stored)";
    lmr_count: 0, 0, 1, 0.5, "1: late-move reductions and late-move pruning count every move the picker gave before this one, pruned moves included (0: only the moves searched)";
    tt_hist: 0, 0, 1, 0.5, "1: a table cutoff (a lower bound at or above beta, at a node off the principal variation) by a quiet table move gives that move a cutoff's history, killer and countermove standing (0: table cutoffs update nothing)";
    qs_tt: 0, 0, 1, 0.5, "1: quiescence tries the table's move first when it is one of the node's moves (a capture or promotion, or an evasion in check) (0: most valuable victim first, the table's move among the others)";
    tt_eval: 0, 0, 1, 0.5, "1: reverse futility, null-move and futility pruning judge a node by the table's score where the entry's bound says more than the static evaluation (a lower bound above it, an upper bound below it), mate scores aside; improving and the correction history keep the static evaluation (0: the corrected static evaluation)";
    qs_tt_eval: 0, 0, 1, 0.5, "1: quiescence's stand-pat score is the table's score where the entry's bound says the position is worth at least that much more (a lower bound above the evaluation), or at most that much less (an upper bound below it), mate scores aside (0: the corrected static evaluation)";
    fs_prune: 0, 0, 1, 0.5, "1: a quiet move skipped by futility pruning, or a capture skipped by quiescence's delta test, raises the node's fail-soft best score to the estimate the test used, so that a node failing low does not claim a bound below what it skipped (0: skipped moves leave the best score as it is)";
    net_r50: 0, 0, 1000, 20.0, "with a net: its evaluation scaled toward a draw as the 50-move clock runs, by (net_r50 - halfmove clock) / net_r50 (the clock capped at net_r50), so that a side ahead prefers the moves that reset the clock and a side behind the ones that don't; the hand-crafted evaluation is not scaled (0: off)";
    net_scale: 100, 10, 200, 5.0, "with a net: its evaluation multiplied by this percent before the search uses it (the lone-king drive and the 50-move scaling apply after), so that the search's margins, tuned on other games' nets, meet the net's scale (100: as the net says); the hand-crafted evaluation is not scaled";
    hist_malus: 100, 25, 300, 10.0, "history: what each quiet move searched before a cutoff loses (in the quiet, continuation and pawn histories), in percent of the cutoff move's bonus (100: as much)";
}

// The names set are kept as bits of a `u128`.
const _: () = assert!(PARAMS.len() <= 128);

/// Why a `SearchParams` text is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// An item is not `name=value`.
    #[error("'{0}' is not of the form name=value")]
    NotNameValue(String),
    /// No parameter has this name.
    #[error("unknown search parameter '{0}' (engine params lists them)")]
    Unknown(String),
    /// A value that is not a whole number.
    #[error("search parameter {name} must be a whole number, got '{got}'")]
    NotANumber {
        /// The parameter.
        name: &'static str,
        /// The value given.
        got: String,
    },
    /// A value outside the parameter's range.
    #[error("search parameter {name} must be between {min} and {max}, got {got}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The smallest value.
        min: i32,
        /// The largest value.
        max: i32,
        /// The value given.
        got: String,
    },
    /// A parameter given twice.
    #[error("search parameter {0} is given twice")]
    Duplicate(&'static str),
}

/// The index in [`PARAMS`] of the parameter called `name` (ASCII case ignored).
pub fn find_param(name: &str) -> Option<usize> {
    PARAMS.iter().position(|p| p.name.eq_ignore_ascii_case(name))
}

/// Text shortened for messages (outside input may be long).
fn shown(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

impl SearchParams {
    /// Reads `name=value` items separated by commas, semicolons or whitespace (empty: the
    /// defaults; `<empty>` and `default` too). Parameters not named keep their defaults.
    pub fn parse(text: &str) -> Result<SearchParams, ParamsError> {
        let mut params = SearchParams::default();
        let text = text.trim();
        if text == "<empty>" || text.eq_ignore_ascii_case("default") {
            return Ok(params);
        }
        let mut seen = [false; PARAMS.len()];
        for item in text
            .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .filter(|s| !s.is_empty())
        {
            let Some((name, value)) = item.split_once('=') else {
                return Err(ParamsError::NotNameValue(shown(item)));
            };
            if name.is_empty() {
                return Err(ParamsError::NotNameValue(shown(item)));
            }
            let index = find_param(name).ok_or_else(|| ParamsError::Unknown(shown(name)))?;
            let spec = &PARAMS[index];
            if seen[index] {
                return Err(ParamsError::Duplicate(spec.name));
            }
            seen[index] = true;
            let v: i64 = value.parse().map_err(|_| {
                if !value.is_empty() && value.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) {
                    ParamsError::OutOfRange {
                        name: spec.name,
                        min: spec.min,
                        max: spec.max,
                        got: shown(value),
                    }
                } else {
                    ParamsError::NotANumber {
                        name: spec.name,
                        got: shown(value),
                    }
                }
            })?;
            if v < i64::from(spec.min) || v > i64::from(spec.max) {
                return Err(ParamsError::OutOfRange {
                    name: spec.name,
                    min: spec.min,
                    max: spec.max,
                    got: v.to_string(),
                });
            }
            params.set(index, v as i32);
        }
        Ok(params)
    }

    /// The values set by name or different from the defaults as `name=value` items joined by
    /// `sep` (empty for the defaults). `,` gives the UCI option's usual form; `;` a form that
    /// fits in an `engine match` player specification, whose items are separated by commas.
    /// Read back by [`SearchParams::parse`], it gives these parameters again.
    pub fn text(&self, sep: &str) -> String {
        PARAMS
            .iter()
            .enumerate()
            .filter(|(i, p)| self.is_named(*i) || self.get(*i) != p.default)
            .map(|(i, p)| format!("{}={}", p.name, self.get(i)))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Whether every value is its default and none was set by name.
    pub fn is_default(&self) -> bool {
        *self == SearchParams::default()
    }

    /// Whether the `index`-th entry of [`PARAMS`] was set by name.
    pub fn is_named(&self, index: usize) -> bool {
        index < PARAMS.len() && self.named >> index & 1 == 1
    }

    /// The defaults of a game: [`PARAMS`]'s, with the game's own
    /// ([`VariantSpec::search_defaults`]). None of them counts as set by name.
    pub fn game_defaults(spec: &VariantSpec) -> SearchParams {
        let mut params = SearchParams::default();
        for &(name, value) in spec.search_defaults {
            // Every registered variant's names are checked by a test.
            if let Some(index) = find_param(name) {
                params.set_value(index, value.clamp(PARAMS[index].min, PARAMS[index].max));
            }
        }
        params
    }

    /// The parameters a search of the game `spec` uses: the values set by name, and the game's
    /// defaults ([`SearchParams::game_defaults`]) for the others. The result remembers the same
    /// names as `self`.
    pub fn for_game(&self, spec: &VariantSpec) -> SearchParams {
        let mut params = SearchParams::game_defaults(spec);
        for index in (0..PARAMS.len()).filter(|&i| self.is_named(i)) {
            params.set(index, self.get(index));
        }
        params
    }

    /// The late-move reduction of the `moves`-th move at `depth` (both at least 1) before its
    /// adjustments: `base + ln(depth) ln(moves) / div`, rounded down.
    pub fn lmr_reduction(&self, depth: usize, moves: usize) -> i32 {
        let base = f64::from(self.lmr_base) / 100.0;
        let div = f64::from(self.lmr_div) / 100.0;
        (base + (depth as f64).ln() * (moves as f64).ln() / div) as i32
    }
}

/// The changed values, `name=value` separated by commas (see [`SearchParams::text`]).
impl fmt::Display for SearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(","))
    }
}

impl std::str::FromStr for SearchParams {
    type Err = ParamsError;

    fn from_str(s: &str) -> Result<SearchParams, ParamsError> {
        SearchParams::parse(s)
    }
}

/// The table of [`PARAMS`] for people: name, default, range, SPSA step, meaning.
pub fn table() -> String {
    let mut out = format!(
        "{:<15} {:>7} {:>14} {:>7}  meaning\n",
        "name", "default", "range", "c_end"
    );
    for p in PARAMS {
        out.push_str(&format!(
            "{:<15} {:>7} {:>14} {:>7}  {}\n",
            p.name,
            p.default,
            format!("{}..{}", p.min, p.max),
            p.c_end,
            p.meaning
        ));
    }
    let games: Vec<&VariantSpec> = Variant::ALL
        .iter()
        .map(|v| v.spec())
        .filter(|s| !s.search_defaults.is_empty())
        .collect();
    if !games.is_empty() {
        out.push_str(
            "\ndefaults of single games (each accepted by an SPRT on that game; SearchParams items override them):\n",
        );
        for spec in games {
            let items: Vec<String> = spec
                .search_defaults
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            out.push_str(&format!("{:<17} {}\n", spec.id, items.join(",")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_searchs_constants_and_in_range() {
        let d = SearchParams::default();
        assert_eq!(
            (
                d.rfp_margin,
                d.nmp_base,
                d.nmp_depth_div,
                d.nmp_eval_div,
                d.lmr_base,
                d.lmr_div
            ),
            (85, 3, 4, 200, 75, 225)
        );
        assert_eq!(
            (d.fut_base, d.fut_margin, d.see_capture, d.hist_bonus, d.iir_depth),
            (120, 100, 90, 8, 6)
        );
        for (i, p) in PARAMS.iter().enumerate() {
            assert_eq!(d.get(i), p.default, "{}", p.name);
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.c_end > 0.0 && p.c_end < f64::from(p.max - p.min), "{}", p.name);
            assert!(p.min >= 0, "{}: no parameter may go negative", p.name);
        }
        // Divisors can never be zero.
        for name in ["nmp_depth_div", "nmp_eval_div", "lmr_div", "lmr_hist_div"] {
            assert!(PARAMS[find_param(name).unwrap()].min >= 1, "{name}");
        }
        let names: std::collections::HashSet<&str> = PARAMS.iter().map(|p| p.name).collect();
        assert_eq!(names.len(), PARAMS.len(), "names are unique");
    }

    #[test]
    fn the_lmr_formula_with_defaults_is_the_old_one() {
        let p = SearchParams::default();
        for d in 1..64usize {
            for m in 1..64usize {
                let old = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
                assert_eq!(p.lmr_reduction(d, m), old, "depth {d} move {m}");
            }
        }
    }

    #[test]
    fn get_and_set_agree() {
        let mut p = SearchParams::default();
        for i in 0..PARAMS.len() {
            p.set(i, 1000 + i as i32);
        }
        for i in 0..PARAMS.len() {
            assert_eq!(p.get(i), 1000 + i as i32);
        }
        assert_eq!(p.rfp_margin, 1000 + find_param("rfp_margin").unwrap() as i32);
    }

    #[test]
    fn parses_good_text() {
        let p = SearchParams::parse("rfp_margin=90,lmr_div=240").unwrap();
        assert_eq!((p.rfp_margin, p.lmr_div, p.nmp_base), (90, 240, 3));
        let q = SearchParams::parse(" RFP_Margin=90 ; lmr_div=240 ").unwrap();
        assert_eq!(p, q);
        let r = SearchParams::parse("rfp_margin=90 lmr_div=240").unwrap();
        assert_eq!(p, r);
        for empty in ["", "  ", "<empty>", "default", ",;,"] {
            assert_eq!(
                SearchParams::parse(empty).unwrap(),
                SearchParams::default(),
                "{empty:?}"
            );
        }
        // The range ends are accepted.
        assert_eq!(SearchParams::parse("nmp_eval_max=0").unwrap().nmp_eval_max, 0);
        assert_eq!(SearchParams::parse("lmr_hist_div=20000").unwrap().lmr_hist_div, 20000);
        // Text round trip.
        assert_eq!(p.to_string(), "rfp_margin=90,lmr_div=240");
        assert_eq!(p.text(";"), "rfp_margin=90;lmr_div=240");
        assert_eq!(SearchParams::parse(&p.text(";")).unwrap(), p);
        assert_eq!(SearchParams::default().to_string(), "");
        assert!(SearchParams::default().is_default() && !p.is_default());
        // A default value given by name is written back: it holds in every game, whatever that
        // game's own default.
        let named = SearchParams::parse("rfp_margin=85").unwrap();
        assert_eq!(named.to_string(), "rfp_margin=85");
        assert!(!named.is_default() && named.is_named(find_param("rfp_margin").unwrap()));
        assert_eq!(SearchParams::parse(&named.to_string()).unwrap(), named);
    }

    #[test]
    fn refuses_bad_text() {
        let err = |t: &str| SearchParams::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("rfp_margin=90,foo=3"),
            "unknown search parameter 'foo' (engine params lists them)"
        );
        assert_eq!(
            err("rfp_margin=1000"),
            "search parameter rfp_margin must be between 20 and 250, got 1000"
        );
        assert_eq!(
            err("lmr_div=-5"),
            "search parameter lmr_div must be between 100 and 500, got -5"
        );
        assert_eq!(
            err("lmr_div=99999999999999999999999"),
            "search parameter lmr_div must be between 100 and 500, got 99999999999999999999999"
        );
        assert_eq!(
            err("lmr_div=2.5"),
            "search parameter lmr_div must be a whole number, got '2.5'"
        );
        assert_eq!(
            err("lmr_div="),
            "search parameter lmr_div must be a whole number, got ''"
        );
        assert_eq!(err("lmr_div"), "'lmr_div' is not of the form name=value");
        assert_eq!(err("=3"), "'=3' is not of the form name=value");
        assert_eq!(
            err("lmr_div=200,lmr_div=210"),
            "search parameter lmr_div is given twice"
        );
        let long = format!("{}=1", "x".repeat(1000));
        assert!(err(&long).len() < 120, "{}", err(&long));
    }

    #[test]
    fn game_defaults_name_parameters_in_range_once() {
        for spec in Variant::ALL.iter().map(|v| v.spec()) {
            let mut names = std::collections::HashSet::new();
            for &(name, value) in spec.search_defaults {
                let i = find_param(name).unwrap_or_else(|| panic!("{}: unknown {name}", spec.id));
                let p = &PARAMS[i];
                assert_eq!(p.name, name, "{}: spelled as PARAMS spells it", spec.id);
                assert!(names.insert(name), "{}: {name} twice", spec.id);
                assert!((p.min..=p.max).contains(&value), "{}: {name}={value}", spec.id);
                assert_ne!(value, p.default, "{}: {name} as the default says nothing", spec.id);
                // The game's default is used unless the parameter is set by name.
                let d = SearchParams::game_defaults(spec);
                assert_eq!(d.get(i), value);
                assert!(!d.is_named(i));
                assert_eq!(SearchParams::default().for_game(spec).get(i), value);
                let pinned = SearchParams::parse(&format!("{name}={}", p.default)).unwrap();
                assert_eq!(pinned.for_game(spec).get(i), p.default);
            }
        }
    }

    #[test]
    fn values_set_by_name_hold_in_every_game() {
        let p = SearchParams::parse("rfp_margin=90,fl_move=0").unwrap();
        for spec in Variant::ALL.iter().map(|v| v.spec()) {
            let g = p.for_game(spec);
            assert_eq!((g.rfp_margin, g.fl_move), (90, 0));
            // Those not named are the game's defaults.
            let d = SearchParams::game_defaults(spec);
            for i in (0..PARAMS.len()).filter(|&i| !p.is_named(i)) {
                assert_eq!(g.get(i), d.get(i), "{}", PARAMS[i].name);
            }
            assert_eq!(g.to_string(), p.for_game(spec).to_string());
            if spec.search_defaults.is_empty() {
                assert_eq!(SearchParams::default().for_game(spec), SearchParams::default());
                assert_eq!(p.for_game(spec), p);
            }
        }
    }

    #[test]
    fn the_table_lists_every_parameter() {
        let t = table();
        let games = Variant::ALL
            .iter()
            .filter(|v| !v.spec().search_defaults.is_empty())
            .count();
        let games = if games == 0 { 0 } else { 2 + games };
        assert_eq!(t.lines().count(), PARAMS.len() + 1 + games);
        assert!(t.contains("rfp_margin") && t.contains("20..250"));
    }
}
