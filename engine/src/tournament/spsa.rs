//! Tuning the search's constants ([`crate::search::params`]) by SPSA (simultaneous
//! perturbation stochastic approximation) on self-play at fixed nodes.
//!
//! Iteration `k` (from 0) of a run of `N`:
//!
//! - every tuned parameter `i` is perturbed by `±c_k,i` (one fair coin per parameter, `Δ_i = ±1`),
//!   `c_k,i = c_i / (k + 1)^gamma` with `c_i = c_end,i · N^gamma`, so that the last iteration
//!   perturbs by the table's `c_end`;
//! - the engine with `θ + c_k Δ` plays the engine with `θ - c_k Δ`: one or more game pairs, each
//!   opening with both colours, openings drawn as `engine match` draws them (random plies,
//!   seeded per iteration);
//! - with `r` the net result of `θ+` (games won minus games lost), every parameter moves by
//!   `a_k,i · r · Δ_i / c_k,i`, with `a_k,i = a_i / (k + 1 + A)^alpha`, and is clamped to its
//!   range.
//!
//! The gain `a_i` is chosen so that at the first iteration one game won net moves parameter `i`
//! by `early_step · c_end,i` (`a_i = early_step · c_end,i · c_i · (1 + A)^alpha`); later steps
//! shrink with `k`. The engines play with the values rounded to whole numbers.
//!
//! [`run_spsa`] plays the games with the match runner ([`super::run_match`]) and keeps its state
//! in a folder (state after every iteration, so that a rerun resumes; θ per iteration as CSV; the
//! current values as a `SearchParams` option string).

use std::{
    fs,
    io::Write as _,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

use super::{run_match, MatchConfig, MatchError, PlayerConfig, Wdl};
use crate::{
    play::{openings::DEFAULT_RANDOM_PLIES, Adjudication, OpeningSource},
    rng::{SplitMix64, GOLDEN_GAMMA},
    rules::{tables::Tables, Variant},
    search::params::{ParamSpec, SearchParams, PARAMS},
};

/// The gain schedule of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Iterations of the run (`N`).
    pub iterations: usize,
    /// Decay exponent of the step gain `a_k`.
    pub alpha: f64,
    /// Decay exponent of the perturbation `c_k`.
    pub gamma: f64,
    /// Stability constant `A` of `a_k` (usually a tenth of the iterations).
    pub big_a: f64,
    /// The move of a parameter, in units of its `c_end`, for one game won net at the first
    /// iteration.
    pub early_step: f64,
}

impl Schedule {
    /// The default exponents (alpha 0.602, gamma 0.101), `A` a tenth of the iterations and
    /// early steps of 0.02 `c_end` per game won net.
    pub fn new(iterations: usize) -> Schedule {
        Schedule {
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            big_a: iterations as f64 / 10.0,
            early_step: DEFAULT_EARLY_STEP,
        }
    }

    /// The perturbation of a parameter with this `c_end` at iteration `k`.
    pub fn c_k(&self, c_end: f64, k: usize) -> f64 {
        let c = c_end * (self.iterations.max(1) as f64).powf(self.gamma);
        c / ((k + 1) as f64).powf(self.gamma)
    }

    /// The step gain of a parameter with this `c_end` at iteration `k`.
    pub fn a_k(&self, c_end: f64, k: usize) -> f64 {
        let a = self.early_step * c_end * self.c_k(c_end, 0) * (1.0 + self.big_a).powf(self.alpha);
        a / ((k + 1) as f64 + self.big_a).powf(self.alpha)
    }

    /// Checks the settings.
    pub fn check(&self) -> Result<(), String> {
        if self.iterations == 0 {
            return Err("the run needs at least one iteration".into());
        }
        let finite = [self.alpha, self.gamma, self.big_a, self.early_step];
        if finite.iter().any(|x| !x.is_finite()) {
            return Err("alpha, gamma, A and the early step must be numbers".into());
        }
        if !(0.0..=1.0).contains(&self.alpha) || !(0.0..=1.0).contains(&self.gamma) {
            return Err("alpha and gamma must be between 0 and 1".into());
        }
        if self.big_a < 0.0 {
            return Err("A must not be negative".into());
        }
        if self.early_step <= 0.0 || self.early_step > 10.0 {
            return Err("the early step must be above 0 and at most 10 (units of c_end)".into());
        }
        Ok(())
    }
}

/// The default early step: one game won net moves a parameter by this many `c_end` at first.
pub const DEFAULT_EARLY_STEP: f64 = 0.02;

/// The SPSA iterate: the tuned parameters (indices into [`PARAMS`]) with their current values.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The schedule.
    pub schedule: Schedule,
    /// Indices into [`PARAMS`] of the tuned parameters.
    pub tuned: Vec<usize>,
    /// Their current values (θ), real-valued, within their ranges.
    pub theta: Vec<f64>,
    /// Iterations done.
    pub k: usize,
    /// The seed of the perturbations.
    pub seed: u64,
}

impl Spsa {
    /// A run from the defaults of `tuned`.
    pub fn new(schedule: Schedule, tuned: Vec<usize>, seed: u64) -> Spsa {
        let theta = tuned.iter().map(|&i| f64::from(PARAMS[i].default)).collect();
        Spsa {
            schedule,
            tuned,
            theta,
            k: 0,
            seed,
        }
    }

    fn spec(&self, j: usize) -> &'static ParamSpec {
        &PARAMS[self.tuned[j]]
    }

    /// The perturbation signs of iteration `k` (one ±1 per tuned parameter), from the seed and
    /// `k` alone (a resumed run draws the same ones).
    pub fn signs(&self, k: usize) -> Vec<f64> {
        let mut rng = SplitMix64::new(self.seed ^ GOLDEN_GAMMA ^ (k as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
        self.tuned
            .iter()
            .map(|_| if rng.next_u64() >> 63 == 1 { 1.0 } else { -1.0 })
            .collect()
    }

    /// The two perturbed points of the current iteration, `θ + c_k Δ` and `θ - c_k Δ`,
    /// clamped to the ranges (real-valued).
    pub fn points(&self, signs: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let side = |s: f64| {
            (0..self.tuned.len())
                .map(|j| {
                    let p = self.spec(j);
                    let c = self.schedule.c_k(p.c_end, self.k);
                    (self.theta[j] + s * c * signs[j]).clamp(f64::from(p.min), f64::from(p.max))
                })
                .collect()
        };
        (side(1.0), side(-1.0))
    }

    /// The search parameters of real-valued tuned values: the defaults, with the tuned ones
    /// rounded to whole numbers.
    pub fn params_of(&self, values: &[f64]) -> SearchParams {
        let mut p = SearchParams::default();
        for (j, &v) in values.iter().enumerate() {
            let spec = self.spec(j);
            p.set(self.tuned[j], (v.round() as i32).clamp(spec.min, spec.max));
        }
        p
    }

    /// The current values as search parameters.
    pub fn current(&self) -> SearchParams {
        self.params_of(&self.theta)
    }

    /// Ends the current iteration: `result` is the net result of `θ+` against `θ-` (games won
    /// minus games lost, or any measure of `f(θ+) - f(θ-)`).
    pub fn update(&mut self, signs: &[f64], result: f64) {
        for (j, &sign) in signs.iter().enumerate().take(self.tuned.len()) {
            let p = self.spec(j);
            let c = self.schedule.c_k(p.c_end, self.k);
            let a = self.schedule.a_k(p.c_end, self.k);
            let next = self.theta[j] + a * result * sign / c;
            self.theta[j] = next.clamp(f64::from(p.min), f64::from(p.max));
        }
        self.k += 1;
    }
}

/// Reads the list of parameters to tune: names separated by commas (`all`: every one).
pub fn parse_tuned(text: &str) -> Result<Vec<usize>, String> {
    let text = text.trim();
    if text.is_empty() || text.eq_ignore_ascii_case("all") {
        return Ok((0..PARAMS.len()).collect());
    }
    let mut out = Vec::new();
    for name in text.split([',', ';', ' ']).map(str::trim).filter(|n| !n.is_empty()) {
        let i = crate::search::params::find_param(name)
            .ok_or_else(|| format!("unknown search parameter '{name}' (engine params lists them)"))?;
        if out.contains(&i) {
            return Err(format!("search parameter {} is given twice", PARAMS[i].name));
        }
        out.push(i);
    }
    if out.is_empty() {
        return Err("no parameter to tune".into());
    }
    Ok(out)
}

/// A tuning run: what is played and where the state is kept.
#[derive(Clone, Debug)]
pub struct SpsaRun {
    /// The variant.
    pub variant: Variant,
    /// The rules (the variant's tables under its rule settings).
    pub rules: &'static Tables,
    /// The players' settings (in-process; limits such as `nodes=2000`); the tuned values are
    /// set on top of them.
    pub player: PlayerConfig,
    /// Game pairs per iteration.
    pub pairs: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Indices into [`PARAMS`] of the tuned parameters.
    pub tuned: Vec<usize>,
    /// The gain schedule.
    pub schedule: Schedule,
    /// Seed of the perturbations and the openings.
    pub seed: u64,
    /// The folder of the state, the CSV and the result.
    pub out: PathBuf,
}

/// The file names in the output folder.
pub const STATE_FILE: &str = "state.json";
/// θ after every iteration.
pub const CSV_FILE: &str = "theta.csv";
/// The current values as a `SearchParams` option string.
pub const RESULT_FILE: &str = "params.txt";

/// What defines a run: a state file is resumed only by the same settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Setup {
    variant: String,
    rules: String,
    player: String,
    pairs: usize,
    params: Vec<String>,
    schedule: Schedule,
    seed: u64,
}

/// The state file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct State {
    setup: Setup,
    /// Iterations done.
    k: usize,
    /// θ of the tuned parameters, in the order of `setup.params`.
    theta: Vec<f64>,
    /// Results of θ+ so far.
    wins: u32,
    draws: u32,
    losses: u32,
}

/// Why a run cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    /// A setting is wrong, or the folder holds another run.
    #[error("{0}")]
    Config(String),
    /// A file cannot be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        error: std::io::Error,
    },
    /// The games could not be played.
    #[error(transparent)]
    Match(#[from] MatchError),
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> SpsaError + '_ {
    move |error| SpsaError::Io {
        path: path.display().to_string(),
        error,
    }
}

/// One finished iteration, for progress lines.
#[derive(Clone, Debug)]
pub struct IterationReport {
    /// Iterations done (this one included).
    pub done: usize,
    /// Iterations of the run.
    pub iterations: usize,
    /// θ+ against θ- in this iteration.
    pub wdl: Wdl,
    /// θ+ against θ- over the run so far.
    pub total: Wdl,
    /// The tuned parameters' names and values after the update.
    pub theta: Vec<(&'static str, f64)>,
    /// Time of this iteration.
    pub elapsed: Duration,
}

impl IterationReport {
    /// A progress line, e.g. `iteration 3/20: +1 (1-1-0), total 3-2-1, 0.8 s; rfp_margin 85.2 ...`.
    pub fn line(&self) -> String {
        let net = i64::from(self.wdl.wins) - i64::from(self.wdl.losses);
        let theta: Vec<String> = self.theta.iter().map(|(n, v)| format!("{n} {v:.2}")).collect();
        format!(
            "iteration {}/{}: {net:+} ({}-{}-{}), total {}-{}-{}, {:.1} s; {}",
            self.done,
            self.iterations,
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            self.total.wins,
            self.total.draws,
            self.total.losses,
            self.elapsed.as_secs_f64(),
            theta.join(" ")
        )
    }
}

/// What a run ends with.
#[derive(Clone, Debug)]
pub struct SpsaOutcome {
    /// Iterations done.
    pub done: usize,
    /// Iterations done by an earlier process (resumed from the state file).
    pub resumed_from: usize,
    /// The tuned values, rounded, as search parameters.
    pub params: SearchParams,
    /// θ+ against θ- over the run.
    pub total: Wdl,
}

impl SpsaRun {
    fn setup(&self) -> Setup {
        Setup {
            variant: self.variant.id().to_string(),
            rules: self.rules.rules.settings().to_string(),
            player: self.player.spec(),
            pairs: self.pairs,
            params: self.tuned.iter().map(|&i| PARAMS[i].name.to_string()).collect(),
            schedule: self.schedule.clone(),
            seed: self.seed,
        }
    }

    fn check(&self) -> Result<(), SpsaError> {
        let bad = |m: &str| Err(SpsaError::Config(m.to_string()));
        self.schedule.check().map_err(SpsaError::Config)?;
        if self.pairs == 0 {
            return bad("each iteration needs at least one game pair");
        }
        if self.concurrency == 0 {
            return bad("concurrency must be at least 1");
        }
        if self.tuned.is_empty() {
            return bad("no parameter to tune");
        }
        if self.player.is_external() {
            return bad("the tuned engines are this engine in-process (no cmd=...)");
        }
        if !self.player.params.is_default() {
            return bad("the players' SearchParams are set by the tuning: give them no option.SearchParams");
        }
        Ok(())
    }

    /// The openings of iteration `k`: random plies as `engine match` draws them, seeded by the
    /// run's seed and `k`.
    fn openings(&self, k: usize) -> OpeningSource {
        OpeningSource::Random {
            plies: DEFAULT_RANDOM_PLIES,
            seed: self.seed.wrapping_add((k as u64 + 1).wrapping_mul(GOLDEN_GAMMA)),
        }
    }
}

/// Reads the state file of `out`, if there is one, and checks that it belongs to `setup`.
fn load_state(path: &Path, setup: &Setup) -> Result<Option<State>, SpsaError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path)(e)),
    };
    let state: State = serde_json::from_str(&text)
        .map_err(|e| SpsaError::Config(format!("{}: not a state file of engine spsa: {e}", path.display())))?;
    if state.setup != *setup {
        let (Ok(serde_json::Value::Object(old)), Ok(serde_json::Value::Object(new))) =
            (serde_json::to_value(&state.setup), serde_json::to_value(setup))
        else {
            return Err(SpsaError::Config(format!("{} belongs to another run", path.display())));
        };
        let differ: Vec<String> = new
            .iter()
            .filter(|(k, v)| old.get(k.as_str()) != Some(v))
            .map(|(k, v)| {
                format!(
                    "{k}: {} in the file, {} now",
                    old.get(k.as_str()).unwrap_or(&serde_json::Value::Null),
                    v
                )
            })
            .collect();
        return Err(SpsaError::Config(format!(
            "{} belongs to another run ({}): give another --out, or the same settings to resume it",
            path.display(),
            differ.join("; ")
        )));
    }
    if state.theta.len() != setup.params.len() || state.k > setup.schedule.iterations {
        return Err(SpsaError::Config(format!(
            "{}: the state is inconsistent",
            path.display()
        )));
    }
    Ok(Some(state))
}

/// Writes `text` to `path` through a temporary file and a rename (a crash leaves the old file
/// or the new one, never half of one).
fn write_atomically(path: &Path, text: &str) -> Result<(), SpsaError> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(io_error(&tmp))?;
    fs::rename(&tmp, path).map_err(io_error(path))
}

fn csv_header(run: &SpsaRun) -> String {
    let names: Vec<&str> = run.tuned.iter().map(|&i| PARAMS[i].name).collect();
    format!("iteration,wins,draws,losses,{}\n", names.join(","))
}

/// Makes the CSV hold the header and the rows of the first `k` iterations (rows of an
/// iteration whose state was never saved are dropped).
fn prepare_csv(path: &Path, run: &SpsaRun, k: usize) -> Result<(), SpsaError> {
    let header = csv_header(run);
    let mut text = header.clone();
    if k > 0 {
        let old = match fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io_error(path)(e)),
        };
        for line in old.lines().skip(1) {
            let iteration = line.split(',').next().and_then(|n| n.parse::<usize>().ok());
            if iteration.is_some_and(|i| i >= 1 && i <= k) {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    write_atomically(path, &text)
}

/// Iterations already done by `run` in its folder (0 for a new run); an error when the folder
/// holds another run or a state that cannot be read.
pub fn saved_iterations(run: &SpsaRun) -> Result<usize, SpsaError> {
    run.check()?;
    Ok(load_state(&run.out.join(STATE_FILE), &run.setup())?.map_or(0, |s| s.k))
}

/// Runs (or resumes) a tuning run; `on_iteration` gets every finished iteration.
pub fn run_spsa(run: &SpsaRun, on_iteration: &mut dyn FnMut(&IterationReport)) -> Result<SpsaOutcome, SpsaError> {
    run.check()?;
    fs::create_dir_all(&run.out).map_err(io_error(&run.out))?;
    let setup = run.setup();
    let state_path = run.out.join(STATE_FILE);
    let csv_path = run.out.join(CSV_FILE);
    let result_path = run.out.join(RESULT_FILE);
    let mut spsa = Spsa::new(run.schedule.clone(), run.tuned.clone(), run.seed);
    // A game with defaults of its own starts from them.
    let start = SearchParams::game_defaults(run.variant.spec());
    spsa.theta = run.tuned.iter().map(|&i| f64::from(start.get(i))).collect();
    let mut total = Wdl::default();
    if let Some(state) = load_state(&state_path, &setup)? {
        spsa.theta = state.theta;
        spsa.k = state.k;
        total = Wdl {
            wins: state.wins,
            draws: state.draws,
            losses: state.losses,
        };
    }
    let resumed_from = spsa.k;
    prepare_csv(&csv_path, run, spsa.k)?;
    let mut csv = fs::OpenOptions::new()
        .append(true)
        .open(&csv_path)
        .map_err(io_error(&csv_path))?;
    while spsa.k < run.schedule.iterations {
        let started = Instant::now();
        let signs = spsa.signs(spsa.k);
        let (plus, minus) = spsa.points(&signs);
        let mut first = run.player.clone();
        first.params = spsa.params_of(&plus);
        first.name = "theta+".into();
        let mut second = run.player.clone();
        second.params = spsa.params_of(&minus);
        second.name = "theta-".into();
        let mut config = MatchConfig::new(run.variant, 2 * run.pairs, first, second);
        config.rules = run.rules;
        config.concurrency = run.concurrency;
        config.openings = run.openings(spsa.k);
        config.adjudication = Adjudication::default();
        let report = run_match(&config, &mut |_, _| {})?;
        let wdl = report.wdl;
        spsa.update(&signs, f64::from(wdl.wins) - f64::from(wdl.losses));
        total.wins += wdl.wins;
        total.draws += wdl.draws;
        total.losses += wdl.losses;
        let values: Vec<String> = spsa.theta.iter().map(|v| format!("{v:.4}")).collect();
        let row = format!(
            "{},{},{},{},{}\n",
            spsa.k,
            wdl.wins,
            wdl.draws,
            wdl.losses,
            values.join(",")
        );
        csv.write_all(row.as_bytes())
            .and_then(|()| csv.flush())
            .map_err(io_error(&csv_path))?;
        let state = State {
            setup: setup.clone(),
            k: spsa.k,
            theta: spsa.theta.clone(),
            wins: total.wins,
            draws: total.draws,
            losses: total.losses,
        };
        let text = serde_json::to_string_pretty(&state).map_err(|e| SpsaError::Config(e.to_string()))?;
        write_atomically(&state_path, &text)?;
        write_atomically(&result_path, &format!("{}\n", spsa.current()))?;
        on_iteration(&IterationReport {
            done: spsa.k,
            iterations: run.schedule.iterations,
            wdl,
            total,
            theta: spsa
                .tuned
                .iter()
                .zip(&spsa.theta)
                .map(|(&i, &v)| (PARAMS[i].name, v))
                .collect(),
            elapsed: started.elapsed(),
        });
    }
    write_atomically(&result_path, &format!("{}\n", spsa.current()))?;
    Ok(SpsaOutcome {
        done: spsa.k,
        resumed_from,
        params: spsa.current(),
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::find_param;

    #[test]
    fn the_schedule_ends_at_c_end_and_starts_at_the_early_step() {
        let s = Schedule::new(1000);
        assert!((s.c_k(8.0, 999) - 8.0).abs() < 1e-9);
        assert!(s.c_k(8.0, 0) > s.c_k(8.0, 500));
        // One game won net at the first iteration moves a parameter by early_step c_end.
        let step = s.a_k(8.0, 0) / s.c_k(8.0, 0);
        assert!((step - DEFAULT_EARLY_STEP * 8.0).abs() < 1e-9, "{step}");
        // Steps shrink.
        assert!(s.a_k(8.0, 999) / s.c_k(8.0, 999) < step);
        assert!(s.check().is_ok());
        assert!(Schedule {
            alpha: 2.0,
            ..s.clone()
        }
        .check()
        .is_err());
        assert!(Schedule {
            iterations: 0,
            ..s.clone()
        }
        .check()
        .is_err());
        assert!(Schedule { early_step: 0.0, ..s }.check().is_err());
    }

    #[test]
    fn signs_are_seeded_balanced_and_per_iteration() {
        let spsa = Spsa::new(Schedule::new(100), (0..PARAMS.len()).collect(), 7);
        assert_eq!(spsa.signs(3), spsa.signs(3));
        assert_ne!(spsa.signs(3), spsa.signs(4));
        let plus: usize = (0..200)
            .map(|k| spsa.signs(k).iter().filter(|&&s| s > 0.0).count())
            .sum();
        let all = 200 * PARAMS.len();
        assert!(plus * 10 > all * 4 && plus * 10 < all * 6, "{plus} of {all}");
    }

    #[test]
    fn points_are_clamped_and_rounded() {
        let i = find_param("nmp_eval_max").unwrap();
        let mut spsa = Spsa::new(Schedule::new(10), vec![i], 1);
        spsa.theta[0] = 0.2;
        let (plus, minus) = spsa.points(&[1.0]);
        assert_eq!(minus[0], 0.0, "clamped at the minimum");
        assert!(plus[0] > 0.2);
        assert_eq!(spsa.params_of(&[2.6]).nmp_eval_max, 3);
        assert_eq!(
            spsa.params_of(&[2.6]).rfp_margin,
            85,
            "untuned parameters keep their defaults"
        );
    }

    #[test]
    fn parses_the_tuned_list() {
        assert_eq!(parse_tuned("all").unwrap().len(), PARAMS.len());
        assert_eq!(parse_tuned("").unwrap().len(), PARAMS.len());
        assert_eq!(
            parse_tuned("rfp_margin, lmr_div").unwrap(),
            vec![find_param("rfp_margin").unwrap(), find_param("lmr_div").unwrap()]
        );
        assert!(parse_tuned("rfp_margin,nope").unwrap_err().contains("'nope'"));
        assert!(parse_tuned("rfp_margin,rfp_margin").unwrap_err().contains("twice"));
    }

    /// A noisy objective with a known optimum: "games" between the two points, won with a
    /// probability that grows with the difference of a concave quadratic, converge toward the
    /// optimum.
    #[test]
    fn converges_on_a_noisy_synthetic_objective() {
        let names = ["rfp_margin", "lmr_div", "fut_base"];
        let tuned: Vec<usize> = names.iter().map(|n| find_param(n).unwrap()).collect();
        // Optimum a few c_end away from the defaults, inside the ranges.
        let optimum: Vec<f64> = tuned
            .iter()
            .zip([4.0, -3.0, 5.0])
            .map(|(&i, off)| f64::from(PARAMS[i].default) + off * PARAMS[i].c_end)
            .collect();
        let scale: Vec<f64> = tuned.iter().map(|&i| 3.0 * PARAMS[i].c_end).collect();
        let f = |x: &[f64]| -> f64 {
            -x.iter()
                .zip(&optimum)
                .zip(&scale)
                .map(|((x, o), s)| ((x - o) / s).powi(2))
                .sum::<f64>()
        };
        let distance = |x: &[f64]| -> f64 {
            x.iter()
                .zip(&optimum)
                .zip(&scale)
                .map(|((x, o), s)| ((x - o) / s).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        let iterations = 3000;
        let schedule = Schedule {
            early_step: 0.3,
            ..Schedule::new(iterations)
        };
        let mut spsa = Spsa::new(schedule, tuned, 11);
        let start = distance(&spsa.theta);
        let mut rng = SplitMix64::new(99);
        for k in 0..iterations {
            let signs = spsa.signs(k);
            let (plus, minus) = spsa.points(&signs);
            // Two games: θ+ wins each with probability 0.5 + (f(θ+) - f(θ-)) / 2 (clamped),
            // else loses: a noisy measure of the difference.
            let p = (0.5 + (f(&plus) - f(&minus)) / 2.0).clamp(0.02, 0.98);
            let result: f64 = (0..2).map(|_| if rng.next_f64() < p { 1.0 } else { -1.0 }).sum();
            spsa.update(&signs, result);
        }
        let end = distance(&spsa.theta);
        assert_eq!(spsa.k, iterations);
        assert!(
            end < start / 3.0,
            "distance to the optimum: {start:.2} at the start, {end:.2} at the end"
        );
        // Each parameter moved toward its optimum.
        for (j, &i) in spsa.tuned.iter().enumerate() {
            let d0 = (f64::from(PARAMS[i].default) - optimum[j]).abs();
            assert!(
                (spsa.theta[j] - optimum[j]).abs() < d0 / 2.0,
                "{}: {:.1}",
                PARAMS[i].name,
                spsa.theta[j]
            );
        }
    }
}
