//! Variant ids and the data that describes a variant.

use std::{fmt, str::FromStr, sync::OnceLock};

use super::{
    geometry::Geometry,
    piece::{ByColor, Movement, PieceKind},
    settings::Readings,
    special::Rule,
    tables::Tables,
};

/// The variants the engine plays, in the order of their registration. The registry (the
/// module `variants`, one file per variant) gives each its spec ([`Variant::spec`]); a check
/// at compile time keeps its list and this one the same, in the same order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Variant {
    /// Persian Chess: Celtic Citadel (basic rules only).
    CelticCitadel,
    /// Persian Chess: Persian Princess (rendezvous, f6 centre square).
    PersianPrincess,
    /// Persian Chess: Egyptian Eye (rendezvous, the All-Seeing Eye on f6).
    EgyptianEye,
    /// Persian Chess: Oriental Omega (wizards and champion, champion rendezvous).
    OrientalOmega,
    /// Orthodox chess on 8x8.
    Chess,
    /// Parsi Chess (Bombay, 1814).
    Parsi,
    /// Nicholls' Citadel (2010) on 9x8, with a reconstructed start position.
    Citadel8,
    /// Nicholls' Citadel (2010) on 9x9, with a reconstructed start position.
    Citadel9,
}

impl Variant {
    /// Every variant, in the order of their registration.
    pub const ALL: [Variant; Variant::COUNT] = [
        Variant::CelticCitadel,
        Variant::PersianPrincess,
        Variant::EgyptianEye,
        Variant::OrientalOmega,
        Variant::Chess,
        Variant::Parsi,
        Variant::Citadel8,
        Variant::Citadel9,
    ];

    /// Number of variants: the last one's index plus one (a variant added at the end of the
    /// enum moves it; [`Variant::ALL`] and the registry are checked against it when compiling).
    pub const COUNT: usize = Variant::Citadel9 as usize + 1;
    /// The variant used when none is named (command line, UCI, tools).
    pub const DEFAULT: Variant = Variant::PersianPrincess;

    /// The four Persian Chess sub-variants.
    pub const PERSIAN: [Variant; 4] = [
        Variant::CelticCitadel,
        Variant::PersianPrincess,
        Variant::EgyptianEye,
        Variant::OrientalOmega,
    ];

    /// The canonical id, as used on the command line and in `UCI_Variant`.
    pub const fn id(self) -> &'static str {
        self.spec().id
    }

    /// The position of the variant in [`Variant::ALL`]: the index of every per-variant table
    /// and cache (`0..Variant::COUNT`).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The attack tables of the variant, built on first use.
    pub fn tables(self) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; Variant::COUNT] = [const { OnceLock::new() }; Variant::COUNT];
        TABLES[self.index()].get_or_init(|| Tables::build(self.spec()))
    }

    /// Whether a UCI engine plays the variant without being told (`UCI_Variant`): orthodox
    /// chess, the game of the protocol.
    pub fn is_uci_default(self) -> bool {
        self == Variant::Chess
    }

    /// Whether the variant has rule settings ([`Variant::tables_with`]).
    pub fn has_rule_settings(self) -> bool {
        self.spec().settings.is_some()
    }

    /// The tables of the variant under rule settings (the readings its rules note leaves open,
    /// e.g. `ludii` or `leap_no_capture,bonus_leap=off` for Parsi Chess; see
    /// [`parsi::ParsiSettings::parse`](super::variants::parsi::ParsiSettings::parse); the set-up for
    /// Citadel, `setup=crossed`, see
    /// [`citadel_common::ALTERNATIVE_SETUPS`](super::variants::citadel_common::ALTERNATIVE_SETUPS)),
    /// read by the parser its spec declares ([`VariantSpec::settings`]). Empty or `default`:
    /// [`Variant::tables`]. Variants without settings take only those.
    pub fn tables_with(self, settings: &str) -> Result<&'static Tables, RuleSettingsError> {
        self.tables_from(Readings::Default, settings)
    }

    /// Whether the variant's settings can start from `readings` ([`Variant::tables_from`]).
    pub fn knows_readings(self, readings: Readings) -> bool {
        match self.spec().settings {
            Some(s) => s.knows(readings),
            None => readings == Readings::Default,
        }
    }

    /// The tables of the variant under rule settings read as [`Variant::tables_with`] does,
    /// starting from a whole set of readings instead of the defaults (`tables_from(Ludii,
    /// "bonus_leap")` is `tables_with("ludii,bonus_leap")`). Readings the variant does not know
    /// are an error.
    pub fn tables_from(self, readings: Readings, settings: &str) -> Result<&'static Tables, RuleSettingsError> {
        match self.spec().settings {
            _ if !self.knows_readings(readings) => Err(RuleSettingsError::NoReadings {
                variant: self.id(),
                readings,
            }),
            Some(s) => (s.tables)(readings, settings),
            None if settings.trim().is_empty() || settings.trim().eq_ignore_ascii_case("default") => Ok(self.tables()),
            None => Err(RuleSettingsError::NoSettings(self.id())),
        }
    }

    /// A small number identifying the variant in files (stable across versions; from the spec).
    pub const fn code(self) -> u8 {
        self.spec().code
    }

    /// The variant of a [`code`](Self::code).
    pub fn from_code(code: u8) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.code() == code)
    }

    /// The ids of every variant, comma-separated (for messages and help texts).
    pub fn id_list() -> String {
        Variant::ALL.map(Variant::id).join(", ")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A variant name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (known: {known})", known = Variant::id_list())]
pub struct UnknownVariantError(pub String);

impl FromStr for Variant {
    type Err = UnknownVariantError;

    /// Reads an id or an alias, ignoring case, `-`, `_` and spaces.
    fn from_str(s: &str) -> Result<Variant, UnknownVariantError> {
        let key: String = s
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Variant::ALL
            .into_iter()
            .find(|v| {
                v.spec()
                    .aliases
                    .iter()
                    .chain([&v.id(), &v.spec().pgn_name])
                    .any(|a| a.replace([' ', '-'], "").to_ascii_lowercase() == key)
            })
            .ok_or_else(|| UnknownVariantError(s.to_string()))
    }
}

/// Rule settings that cannot be read ([`Variant::tables_with`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleSettingsError {
    /// The variant has no rule settings.
    #[error("{0} has no rule settings (only 'default')")]
    NoSettings(&'static str),
    /// No such setting.
    #[error("{variant} has no rule setting '{item}' (known: {known})")]
    Unknown {
        /// The variant's id.
        variant: &'static str,
        /// The item as given.
        item: String,
        /// The names it knows.
        known: String,
    },
    /// A set of readings the variant's settings cannot start from.
    #[error("{variant} has no '{readings}' readings")]
    NoReadings {
        /// The variant's id.
        variant: &'static str,
        /// The readings asked for.
        readings: Readings,
    },
    /// A value other than on/off.
    #[error("'{0}': the value must be on or off")]
    BadValue(String),
    /// An opening series other than 0 to 9 moves.
    #[error("'{0}': the opening series is opening_series=N with N from 0 (none) to 9")]
    BadSeries(String),
}

/// A square given by (file, rank) counted from 0, White's view. Resolved against the geometry
/// when the tables are built.
pub type Coord = (i8, i8);

/// A piece kind in play in a variant, and how it moves there.
#[derive(Clone, Copy, Debug)]
pub struct PieceSpec {
    /// The kind.
    pub kind: PieceKind,
    /// Its FEN letter in this variant, upper case (Black's is the lower case); also its SAN
    /// letter and, in lower case, its UCI promotion suffix. Unique within the variant.
    pub letter: char,
    /// Its name in this variant, lower case (`"rook"`), for messages.
    pub name: &'static str,
    /// Its movement (ignored for pawns, whose moves come from [`PawnSpec`]).
    pub movement: Movement,
}

/// How pawns move and promote. Ranks are counted from 0, White's view; Black's are mirrored.
#[derive(Clone, Copy, Debug)]
pub struct PawnSpec {
    /// The rank from which White pawns may make a double step.
    pub double_step_rank: i8,
    /// The most squares a pawn may go straight ahead from that rank (2: the double step; 3:
    /// Citadel's triple step as well). Every square a long step passes may be taken en passant.
    pub first_step_max: u8,
    /// The rank on which a White pawn promotes; the board's height where pawns promote only
    /// where a rule says (Citadel's [`Releases`](super::special::releases::Releases)).
    pub promotion_rank: i8,
    /// The kinds a pawn may promote to.
    pub promotion_kinds: &'static [PieceKind],
    /// Whether en passant captures exist.
    pub en_passant: bool,
}

/// One castling move, given for White; Black's is mirrored across the middle rank.
#[derive(Clone, Copy, Debug)]
pub struct CastlingSpec {
    /// The FEN letter of the right (upper case; Black's is its lower case).
    pub letter: char,
    /// Whether this is the king-side castling (`O-O` in SAN), else queen-side (`O-O-O`).
    pub king_side: bool,
    /// King's start square.
    pub king_from: Coord,
    /// King's destination (the move is written with these two squares).
    pub king_to: Coord,
    /// Rook's start square.
    pub rook_from: Coord,
    /// Rook's destination.
    pub rook_to: Coord,
    /// Squares that must be empty.
    pub must_be_empty: &'static [Coord],
    /// Squares the opponent must not attack (the king's start square included).
    pub must_be_safe: &'static [Coord],
}

/// Everything that describes a variant: geometry and pieces as data, special rules by name.
#[derive(Debug)]
pub struct VariantSpec {
    /// The registered variant this spec describes; `None` for specs outside the registry
    /// (tests bring their own to show that the rules need nothing else).
    pub variant: Option<Variant>,
    /// The canonical id string.
    pub id: &'static str,
    /// A small number identifying the variant in files (net headers, books, training records):
    /// stable across versions, unique (tested), never reused.
    pub code: u8,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// The display name.
    pub name: &'static str,
    /// The key of the variant in the Lichess API and the arena (`standard` for chess, the id
    /// for the variants Lichess does not know).
    pub server_key: &'static str,
    /// The value of the PGN `[Variant]` tag we write (any id, alias or this name reads back).
    /// The id for the Persian variants; Lichess's name for chess (`Standard`); a name where the
    /// game's issue asked for one (`Parsi`).
    pub pgn_name: &'static str,
    /// Board size and holes.
    pub geometry: Geometry,
    /// The piece kinds in play and their movement.
    pub pieces: &'static [PieceSpec],
    /// The piece types of the variant's NNUE feature layout, in the order of their type index:
    /// every kind in [`VariantSpec::pieces`] must be listed. Variants that share nets list the
    /// same kinds (the four Persian sub-variants list the ten Persian kinds), and the list of a
    /// variant with shipped nets never changes, whatever kinds other variants add.
    pub net_kinds: &'static [PieceKind],
    /// The start position in FEN.
    pub start_fen: &'static str,
    /// Pawn data.
    pub pawns: PawnSpec,
    /// Castling moves (at most 4 per side).
    pub castling: &'static [CastlingSpec],
    /// Material (besides the king) with which one side cannot mate a bare king; K vs K is dead
    /// whenever the list is not empty. An empty list: no insufficient-material rule at all
    /// (Citadel, whose rules have none: bare princes play on to the 50-move rule).
    pub dead_material: &'static [&'static [PieceKind]],
    /// The special rules in force.
    pub rules: &'static [Rule],
    /// The game points of a result, where the variant's rules count them (Citadel); `None`:
    /// a win is a win (what matches and ratings count anyway, 1, 1/2, 0).
    pub game_points: Option<GamePoints>,
    /// What the hand-crafted evaluation counts for the variant's own pieces, where the
    /// built-in values of their kind would be wrong (Citadel's Tiger-Riders are not knights);
    /// kinds not listed keep the built-in values.
    pub piece_values: &'static [PieceValue],
    /// The search's tunable parameters whose defaults differ in this variant, as (name,
    /// value): each accepted by an SPRT on this variant (docs/strength.md); names not listed
    /// keep the search's defaults (`search::params::SearchParams::game_defaults`).
    pub search_defaults: &'static [(&'static str, i32)],
    /// Random legal plies that open a self-play game before the engine's own opening plies,
    /// by default (`trainer selfplay --random-plies`): enough that a run of a million games is
    /// projected to repeat under 1 % of its openings (docs/training.md, "Openings of a run").
    pub selfplay_random_plies: usize,
    /// How the variant reads rule settings (the readings its rules leave open), where it has
    /// any ([`Variant::tables_with`]); `None`: only the defaults.
    pub settings: Option<&'static RuleSettings>,
}

/// How a variant reads rule settings: part of its spec ([`VariantSpec::settings`]).
#[derive(Debug)]
pub struct RuleSettings {
    /// Each setting: its name (as the settings text names it) and what it does.
    pub names: &'static [(&'static str, &'static str)],
    /// The sets of readings besides [`Readings::Default`] the variant can start from.
    pub readings: &'static [Readings],
    /// Reads a settings text (items applied in order to the given readings, one of
    /// [`RuleSettings::readings`] or the defaults) into the tables of that rule set; empty
    /// under the defaults, or `default`: the registered variant's tables. Each distinct rule
    /// set's tables are built once, so positions under equal settings share them and compare
    /// equal.
    pub tables: fn(Readings, &str) -> Result<&'static Tables, RuleSettingsError>,
}

impl RuleSettings {
    /// Whether settings may start from `readings`.
    pub fn knows(&self, readings: Readings) -> bool {
        readings == Readings::Default || self.readings.contains(&readings)
    }
}

/// The hand-crafted evaluation's figures for one kind in a variant ([`VariantSpec::piece_values`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceValue {
    /// The kind.
    pub kind: PieceKind,
    /// Material, middlegame and endgame, in centipawns.
    pub material: (i32, i32),
    /// Weight in the game phase (a knight 1, a rook 2, a queen 4).
    pub phase: i32,
    /// Value per square it reaches, middlegame and endgame.
    pub mobility: (i32, i32),
    /// Attack units per square of the enemy king's zone it hits.
    pub king_attack: i32,
}

/// The points a game is worth to each player, where a variant's rules say (Citadel, B.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePoints {
    /// To the winner of a checkmate (or a game won otherwise: time, resignation).
    pub win: u32,
    /// To the winner of a Green Gem ([`Outcome::GreenGem`](super::position::Outcome::GreenGem)).
    pub green_gem: u32,
    /// To each player of a draw.
    pub draw: u32,
}

impl VariantSpec {
    /// The movement of a kind, if the kind is in play.
    pub fn piece(&self, kind: PieceKind) -> Option<&PieceSpec> {
        self.pieces.iter().find(|p| p.kind == kind)
    }

    /// Mirrors a White coordinate for `color`.
    pub const fn mirror(&self, c: Coord, color_is_black: bool) -> Coord {
        if color_is_black {
            (c.0, self.geometry.height as i8 - 1 - c.1)
        } else {
            c
        }
    }
}

/// Convenience for specs: a per-colour pair.
pub const fn by_color<T: Copy>(white: T, black: T) -> ByColor<T> {
    ByColor([white, black])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_codes_and_indices_are_unique_and_consistent() {
        for (i, v) in Variant::ALL.into_iter().enumerate() {
            assert_eq!(v.index(), i);
            assert_eq!(v.spec().variant, Some(v), "{v}: the spec names another variant");
            assert_eq!(
                Variant::from_code(v.code()),
                Some(v),
                "{v}: code {} is not unique",
                v.code()
            );
            assert_eq!(v.id().parse::<Variant>(), Ok(v));
            assert_ne!(v.code(), 0, "{v}: code 0 is reserved");
            for w in Variant::ALL.into_iter().filter(|&w| w != v) {
                assert_ne!(v.spec().server_key, w.spec().server_key);
                for alias in v.spec().aliases {
                    assert_ne!(alias.parse::<Variant>(), Ok(w), "{v}: alias '{alias}' reads as {w}");
                }
            }
        }
    }

    #[test]
    fn piece_letters_come_from_the_spec_and_read_back() {
        for v in Variant::ALL {
            let t = v.tables();
            for p in v.spec().pieces {
                assert_eq!(t.letter(p.kind), p.letter, "{v}");
                assert_eq!(t.name(p.kind), p.name, "{v}");
                assert_eq!(t.kind_of_letter(p.letter), Some(p.kind), "{v}");
                assert_eq!(t.kind_of_letter(p.letter.to_ascii_lowercase()), Some(p.kind), "{v}");
                // A named kind under its built-in name keeps its built-in letter (a variant that
                // puts a piece of its own on a named kind's index, as Citadel does with its
                // Plains-Marshall on the fortress's, names and letters it its own way).
                if p.name == p.kind.name() {
                    assert_eq!(p.letter, p.kind.letter(), "{v}");
                }
            }
            // A letter of no kind in play reads as nothing.
            assert_eq!(t.kind_of_letter('Z'), None, "{v}");
        }
        assert_eq!(Variant::Chess.tables().kind_of_letter('S'), None);
    }

    #[test]
    fn settings_start_from_the_readings_the_spec_knows() {
        let ludii = Variant::Parsi
            .tables_from(Readings::Ludii, "bonus_leap")
            .expect("Parsi knows Ludii's");
        assert!(std::ptr::eq(
            ludii,
            Variant::Parsi.tables_with("ludii,bonus_leap").expect("reads")
        ));
        assert!(std::ptr::eq(
            Variant::Parsi.tables_from(Readings::Default, "").expect("defaults"),
            Variant::Parsi.tables()
        ));
        for v in Variant::ALL {
            assert_eq!(v.knows_readings(Readings::Ludii), v == Variant::Parsi, "{v}");
            assert_eq!(v.has_rule_settings(), v.spec().settings.is_some(), "{v}");
            assert!(std::ptr::eq(
                v.tables_from(Readings::Default, "").expect("defaults"),
                v.tables()
            ));
            if v != Variant::Parsi {
                let err = v
                    .tables_from(Readings::Ludii, "")
                    .expect_err("no Ludii readings")
                    .to_string();
                assert!(err.contains(v.id()) && err.contains("ludii"), "{err}");
            }
        }
    }

    #[test]
    fn unknown_variant_lists_every_id() {
        let e = "shogi".parse::<Variant>().unwrap_err().to_string();
        for v in Variant::ALL {
            assert!(e.contains(v.id()), "{e}");
        }
    }
}
