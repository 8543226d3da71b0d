//! Seeks (`POST /api/board/seek`): paired at once with a compatible seek of another player,
//! or kept until one arrives or the connection closes.

use engine::rules::Position;
use tokio::sync::mpsc::UnboundedSender;

use super::{now_ms, Inner, Refusal};
use lichess_api::{types::GameClock, variants};

use crate::game::GameSetup;

/// A seek (`POST /api/board/seek`), waiting for a compatible one.
#[derive(Clone)]
pub(super) struct Seek {
    /// The connection of a real-time seek (dropping `done` closes it); 0 for correspondence.
    conn: u64,
    pub(super) user: String,
    pub(super) variant_key: String,
    pub(super) rated: bool,
    pub(super) clock: Option<GameClock>,
    pub(super) days: Option<u32>,
    pub(super) color: String,
    done: Option<UnboundedSender<String>>,
}

/// What a seek asks for.
#[derive(Clone, Debug)]
pub struct SeekParams {
    /// Variant key.
    pub variant: String,
    /// Rated.
    pub rated: bool,
    /// Real time: minutes and increment seconds.
    pub clock: Option<(f64, u64)>,
    /// Correspondence: days per move.
    pub days: Option<u32>,
    /// white / black / random.
    pub color: String,
}

impl Inner {
    /// `POST /api/board/seek`: pairs with a compatible seek of another player at once, or
    /// waits. `done` is the real-time seek's connection (dropped when paired); `None` for a
    /// correspondence seek, whose id is returned.
    pub fn seek(
        &mut self,
        user: &str,
        p: SeekParams,
        conn: u64,
        done: Option<UnboundedSender<String>>,
    ) -> Result<Option<String>, Refusal> {
        self.transact(|inner| inner.seek_unit(user, p, conn, done))
    }

    fn seek_unit(
        &mut self,
        user: &str,
        p: SeekParams,
        conn: u64,
        done: Option<UnboundedSender<String>>,
    ) -> Result<Option<String>, Refusal> {
        if self.users.get(user).is_some_and(|u| u.bot) {
            return Err(Refusal::bad("Bot accounts cannot seek: use challenges"));
        }
        let variant = variants::arena_variant(&p.variant)
            .ok_or_else(|| Refusal::bad(format!("Unsupported variant: {}", p.variant)))?;
        if !matches!(p.color.as_str(), "white" | "black" | "random") {
            return Err(Refusal::bad(format!("Invalid color: {}", p.color)));
        }
        let clock = match (p.clock, p.days) {
            (Some((minutes, inc)), None) => {
                if !(0.0..=180.0).contains(&minutes) || (minutes == 0.0 && inc == 0) {
                    return Err(Refusal::bad("Invalid time"));
                }
                Some(GameClock {
                    initial: (minutes * 60_000.0).round() as u64,
                    increment: inc * 1000,
                })
            }
            (None, Some(days)) => {
                if !super::challenges::CORRESPONDENCE_DAYS.contains(&days) {
                    return Err(Refusal::bad(format!("Invalid days: {days}")));
                }
                None
            }
            _ => return Err(Refusal::bad("Give either time and increment, or days")),
        };
        let fits = |s: &Seek| {
            s.user != user
                && s.variant_key == p.variant
                && s.rated == p.rated
                && s.clock == clock
                && s.days == p.days
                && !(s.color == p.color && s.color != "random")
        };
        if let Some(i) = self.seeks.iter().position(fits) {
            let other = self.seeks.remove(i);
            let me_white = match (p.color.as_str(), other.color.as_str()) {
                ("white", _) | (_, "black") => true,
                ("black", _) | (_, "white") => false,
                _ => (self.next_id >> 9) & 1 == 0,
            };
            let (white, black) = if me_white {
                (user.to_string(), other.user.clone())
            } else {
                (other.user.clone(), user.to_string())
            };
            let id = self.new_id();
            self.start_game(GameSetup {
                id: id.clone(),
                variant: variants::variant_ref(variant, false),
                start: Position::startpos(variant),
                initial_fen: None,
                white,
                black,
                rated: p.rated,
                clock,
                days: p.days,
                source: "lobby",
                created_at: now_ms(),
            });
            drop(other.done);
            return Ok(done.is_none().then_some(id));
        }
        let correspondence = done.is_none();
        let id = self.new_id();
        self.seeks.push(Seek {
            conn,
            user: user.to_string(),
            variant_key: p.variant,
            rated: p.rated,
            clock,
            days: p.days,
            color: p.color,
            done,
        });
        Ok(correspondence.then_some(id))
    }

    /// A real-time seek's connection closed: the seek is canceled.
    pub fn close_seek(&mut self, conn: u64) {
        self.seeks.retain(|s| s.conn != conn);
    }
}
