//! Variant ids and the data that describes a variant.

use std::{fmt, str::FromStr, sync::OnceLock};

use super::{
    geometry::Geometry,
    piece::{ByColor, Movement, PieceKind},
    special::Rule,
    tables::Tables,
    variants,
};

/// The variants the engine plays.
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
}

impl Variant {
    /// Every variant, in the order of their ids.
    pub const ALL: [Variant; 5] = [
        Variant::CelticCitadel,
        Variant::PersianPrincess,
        Variant::EgyptianEye,
        Variant::OrientalOmega,
        Variant::Chess,
    ];

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
        self.spec_static().id
    }

    /// The data that describes the variant.
    pub const fn spec(self) -> &'static VariantSpec {
        self.spec_static()
    }

    const fn spec_static(self) -> &'static VariantSpec {
        match self {
            Variant::CelticCitadel => &variants::celtic_citadel::SPEC,
            Variant::PersianPrincess => &variants::persian_princess::SPEC,
            Variant::EgyptianEye => &variants::egyptian_eye::SPEC,
            Variant::OrientalOmega => &variants::oriental_omega::SPEC,
            Variant::Chess => &variants::chess::SPEC,
        }
    }

    /// The attack tables of the variant, built on first use.
    pub fn tables(self) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        TABLES[self as usize].get_or_init(|| Tables::build(self.spec()))
    }

    /// A small number identifying the variant in files (stable across versions).
    pub const fn code(self) -> u8 {
        match self {
            Variant::CelticCitadel => 1,
            Variant::PersianPrincess => 2,
            Variant::EgyptianEye => 3,
            Variant::OrientalOmega => 4,
            Variant::Chess => 5,
        }
    }

    /// The variant of a [`code`](Self::code).
    pub fn from_code(code: u8) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.code() == code)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A variant name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (known: celtic-citadel, persian-princess, egyptian-eye, oriental-omega, chess)")]
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
                    .chain(std::iter::once(&v.id()))
                    .any(|a| a.replace('-', "") == key)
            })
            .ok_or_else(|| UnknownVariantError(s.to_string()))
    }
}

/// A square given by (file, rank) counted from 0, White's view. Resolved against the geometry
/// when the tables are built.
pub type Coord = (i8, i8);

/// A piece kind in play in a variant, and how it moves there.
#[derive(Clone, Copy, Debug)]
pub struct PieceSpec {
    /// The kind.
    pub kind: PieceKind,
    /// Its movement (ignored for pawns, whose moves come from [`PawnSpec`]).
    pub movement: Movement,
}

/// How pawns move and promote. Ranks are counted from 0, White's view; Black's are mirrored.
#[derive(Clone, Copy, Debug)]
pub struct PawnSpec {
    /// The rank from which White pawns may make a double step.
    pub double_step_rank: i8,
    /// The rank on which a White pawn promotes.
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
    /// The id.
    pub variant: Variant,
    /// The canonical id string.
    pub id: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// The display name.
    pub name: &'static str,
    /// The key of the variant in the Lichess API and the arena (`standard` for chess, the id
    /// for the variants Lichess does not know).
    pub server_key: &'static str,
    /// Board size and holes.
    pub geometry: Geometry,
    /// The piece kinds in play and their movement.
    pub pieces: &'static [PieceSpec],
    /// The start position in FEN.
    pub start_fen: &'static str,
    /// Pawn data.
    pub pawns: PawnSpec,
    /// Castling moves (at most 4 per side).
    pub castling: &'static [CastlingSpec],
    /// Material (besides the king) with which one side cannot mate a bare king; K vs K is always dead.
    pub dead_material: &'static [&'static [PieceKind]],
    /// The special rules in force.
    pub rules: &'static [Rule],
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
