//! The game layer: everything about playing one game between two players, shared by
//! `engine match` ([`crate::tournament`]), `trainer selfplay` and the PGN writers.
//!
//! - [`result`]: [`GameResult`] (who won), [`Termination`] (why the game ended) and
//!   [`PgnTermination`], with their PGN forms.
//! - [`adjudication`]: the ply limit and the resign and draw rules ([`Adjudication`],
//!   [`Adjudicator`]).
//! - [`openings`]: [`Opening`], [`OpeningSource`] (random plies, a list such as an openings file,
//!   or a list followed by random plies), openings files and the seeded random numbers.
//! - [`player`]: the [`Player`] trait and [`EnginePlayer`], the engine searching with limits.
//! - [`uci_engine`]: [`UciPlayer`], another program speaking UCI, run as a child process.
//! - [`clock`]: [`TimeControl`]s (`40/60+0.6`, `10+0.1`, a time per move) and the clock of a
//!   side during a game.
//! - [`game_loop`]: [`play_game`] and [`play_timed_game`], with [`Seats`] (two players or one for
//!   both sides), the clocks ([`GameTime`]) and an [`Observer`] that sees every move picked.
//!
//! ```
//! use engine::{
//!     engine::Engine,
//!     play::{play_game, random_openings, Adjudication, EnginePlayer, Seats},
//!     rules::Variant,
//!     search::Limits,
//! };
//!
//! let opening = &random_openings(Variant::PersianPrincess, 1, 4, 1)[0];
//! let limits = Limits { depth: Some(1), ..Limits::default() };
//! let (mut a, mut b) = (Engine::new(), Engine::new());
//! let (mut white, mut black) = (EnginePlayer::new(&mut a, limits.clone()), EnginePlayer::new(&mut b, limits));
//! let rules = Adjudication { max_plies: 12, ..Adjudication::default() };
//! let game = play_game(opening, Seats::Apart { white: &mut white, black: &mut black }, &rules, &mut ())
//!     .expect("nothing asked it to stop");
//! assert!(game.moves.len() <= 12);
//! println!("{} ({})", game.result.pgn(), game.termination.description());
//! ```
//!
//! **Results on disk.** Training records (`nnue::data`) store the result from the side to move's
//! point of view in one byte ([`nnue::data::GameResult`]: loss 0, draw 1, win 2). `nnue` cannot
//! depend on the engine, and a game's result is naturally White's view, so the game layer keeps
//! its own [`GameResult`] and converts in one place, [`GameResult::for_side`]; the byte encoding
//! stays nnue's alone.
#![deny(missing_docs)]

pub mod adjudication;
pub mod clock;
pub mod game_loop;
pub mod openings;
pub mod player;
pub mod result;
pub mod uci_engine;

pub use adjudication::{Adjudication, Adjudicator, DrawRule, ResignRule, DEFAULT_MAX_PLIES};
pub use clock::{SideClock, TimeControl};
pub use game_loop::{play_game, play_timed_game, GameTime, Observer, PlayedGame, Seats, StopFlag};
pub use openings::{random_openings, read_openings, seeded_rng, Opening, OpeningSource, OpeningsError, Rng};
pub use player::{EnginePlayer, Pick, PickError, PickFailure, Player, TimeView};
pub use result::{GameResult, PgnTermination, Termination};
pub use uci_engine::{UciEngineConfig, UciEngineError, UciPlayer};
