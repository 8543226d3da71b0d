//! One self-play game: the engine plays both sides from an opening through the game layer
//! ([`engine::play`]); the positions it searched become training records, the game PGN with a
//! score comment after every searched move.

use anyhow::{anyhow, bail, Context, Result};
use engine::{
    engine::Engine,
    eval::nnue::training_position,
    play::{
        play_game,
        player::{search_pick, start_engine_game},
        Adjudication, GameResult, Observer, Opening, Pick, PickError, Player, Seats, Termination,
    },
    rules::{game::Game, Color, Move, Position, Variant},
    search::{Limits, Score},
};
use nnue::{
    data::{Record, TrainingPosition},
    Layout,
};

use super::{
    opening::SampledPly,
    pgn::{write_pgn, GameText, Searched},
};

/// Everything a game needs besides the engine and the opening.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The variant.
    pub variant: Variant,
    /// Search limits per move.
    pub limits: Limits,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Positions before this ply (from the game's start) are not written.
    pub min_ply: usize,
    /// The variant's NNUE layout (for encoding records).
    pub layout: Layout,
    /// The `White` and `Black` PGN tags.
    pub player: String,
    /// The PGN `Event` tag.
    pub event: String,
}

/// Why searched positions were not written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    /// The side to move was in check.
    pub in_check: u64,
    /// The best move was a capture, a promotion or en passant.
    pub noisy: u64,
    /// The score was a mate score.
    pub mate: u64,
    /// Before the minimum ply.
    pub early: u64,
}

impl Skipped {
    /// Adds `other`.
    pub fn add(&mut self, other: &Skipped) {
        self.in_check += other.in_check;
        self.noisy += other.noisy;
        self.mate += other.mate;
        self.early += other.early;
    }
}

/// A finished game of a run.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Its id (in every record and the PGN's `Round` tag).
    pub id: u32,
    /// The training records, in game order.
    pub records: Vec<Record>,
    /// The game in PGN.
    pub pgn: String,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played, opening included.
    pub plies: usize,
    /// Positions the engine searched.
    pub searched: u64,
    /// Searched positions not written, by reason.
    pub skipped: Skipped,
    /// The hash of the opening's last position (see [`super::opening::opening_hash`]).
    pub opening_hash: u64,
}

impl PlayedGame {
    /// A drawn game of 12 plies that wrote no record, its opening hash its id: for tests of
    /// what reads shards.
    #[cfg(test)]
    pub fn without_records(id: u32) -> PlayedGame {
        PlayedGame {
            id,
            records: Vec::new(),
            pgn: String::new(),
            result: GameResult::Draw,
            termination: Termination::DrawScore,
            plies: 12,
            searched: 9,
            skipped: Skipped::default(),
            opening_hash: u64::from(id),
        }
    }
}

/// Plays game `id` from `opening` with `engine` on both sides; `sampled` says what the engine
/// said of the opening's last plies, those it chose (they get score comments in the PGN).
pub fn play(
    engine: &mut Engine,
    opening: &Opening,
    sampled: &[SampledPly],
    id: u32,
    settings: &GameSettings,
) -> Result<PlayedGame> {
    let chosen_from = opening.moves.len().saturating_sub(sampled.len());
    let mut player = SelfPlayer {
        engine,
        limits: settings.limits.clone(),
        tail: Tail::new(opening.start.clone()),
    };
    let mut recorder = Recorder {
        id,
        min_ply: settings.min_ply,
        notes: (0..opening.moves.len())
            .map(|i| {
                i.checked_sub(chosen_from).map(|k| Searched {
                    score: sampled[k].score,
                    depth: sampled[k].depth,
                })
            })
            .collect(),
        pending: Vec::new(),
        skipped: Skipped::default(),
        searched: 0,
    };
    let played = play_game(opening, Seats::Both(&mut player), &settings.adjudication, &mut recorder)
        .ok_or_else(|| anyhow!("game {id}: stopped before its end"))?;
    if let Termination::IllegalMove { .. } = &played.termination {
        let mut end = opening.start.clone();
        played.moves.iter().for_each(|&m| end.play_unchecked(m));
        bail!(
            "game {id}: the engine lost by an {} in {}",
            played.termination.description(),
            end.fen()
        );
    }
    let mut records = Vec::with_capacity(recorder.pending.len());
    for mut tp in recorder.pending {
        tp.result = played.result.for_side(if tp.stm == nnue::Color::White {
            Color::White
        } else {
            Color::Black
        });
        records.push(Record::encode(&tp, &settings.layout).with_context(|| format!("game {id}: encoding a record"))?);
    }
    let ending = played.termination.sentence(settings.adjudication.max_plies);
    let pgn = write_pgn(&GameText {
        opening,
        moves: &played.moves,
        id,
        result: played.result,
        termination: &played.termination,
        ending: &ending,
        notes: &recorder.notes,
        engine_plies: sampled.len(),
        event: &settings.event,
        player: &settings.player,
    });
    Ok(PlayedGame {
        id,
        records,
        pgn,
        result: played.result,
        termination: played.termination,
        plies: played.moves.len(),
        searched: recorder.searched,
        skipped: recorder.skipped,
        opening_hash: super::opening::opening_hash(opening),
    })
}

/// The game as the engine gets it: the position after the last capture or pawn move and the
/// moves since. Earlier positions cannot repeat, so the engine sees the same repetition history
/// as with the whole game, at a fraction of the cost of replaying it at every move.
struct Tail {
    base: Position,
    since: Vec<Move>,
    /// The position after the moves taken in so far.
    current: Position,
    /// Moves of the game taken in so far.
    synced: usize,
}

impl Tail {
    fn new(start: Position) -> Tail {
        Tail {
            base: start.clone(),
            since: Vec::new(),
            current: start,
            synced: 0,
        }
    }

    /// Takes in the moves of `game` played since the last call.
    fn sync(&mut self, game: &Game) {
        for &m in &game.moves()[self.synced..] {
            self.since.push(m);
            self.current.play_unchecked(m);
            if self.current.halfmove_clock() == 0 {
                self.base = self.current.clone();
                self.since.clear();
            }
        }
        self.synced = game.moves().len();
    }
}

/// The engine playing both sides of a self-play game.
struct SelfPlayer<'a> {
    engine: &'a mut Engine,
    limits: Limits,
    tail: Tail,
}

impl Player for SelfPlayer<'_> {
    fn new_game(&mut self, game: &Game) {
        start_engine_game(self.engine, game);
        self.tail = Tail::new(game.start().clone());
    }

    fn pick(&mut self, game: &Game) -> Result<Pick, PickError> {
        self.tail.sync(game);
        self.engine
            .set_game(self.tail.base.clone(), &self.tail.since)
            .map_err(|e| PickError(e.to_string()))?;
        Ok(search_pick(self.engine, self.limits.clone()))
    }
}

/// Turns the engine's searched positions into training positions (result filled in at the end)
/// and keeps the score comments of the PGN.
struct Recorder {
    id: u32,
    min_ply: usize,
    /// Per ply: what the search said, `None` for opening moves.
    notes: Vec<Option<Searched>>,
    /// Positions to write, in game order.
    pending: Vec<TrainingPosition>,
    skipped: Skipped,
    searched: u64,
}

impl Observer for Recorder {
    fn on_move(&mut self, game: &Game, pick: &Pick) {
        let pos = game.position();
        let ply = game.moves().len();
        self.searched += 1;
        let mut tp = training_position(
            pos,
            None,
            nnue::data::GameResult::Draw,
            pick.best,
            ply.min(u16::MAX as usize) as u16,
            self.id,
        );
        if tp.in_check {
            self.skipped.in_check += 1;
        } else if tp.noisy_best_move {
            self.skipped.noisy += 1;
        } else if matches!(pick.score, Score::Mate(_)) {
            self.skipped.mate += 1;
        } else if ply < self.min_ply {
            self.skipped.early += 1;
        } else if let Score::Cp(cp) = pick.score {
            tp.score = Some(cp.clamp(-i16::MAX as i32, i16::MAX as i32) as i16);
            self.pending.push(tp);
        }
        self.notes.push(Some(Searched {
            score: pick.score,
            depth: pick.depth,
        }));
    }
}
