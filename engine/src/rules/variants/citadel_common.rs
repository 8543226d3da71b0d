//! What the two boards of Nicholls' Citadel (2010) share: the pieces, the plainsmen's promotion
//! by file and the releases of the prisoners, the princes' royalty by their number, the
//! transferring (castling) of the elder prince. The rules as the engine plays them are in the
//! project's rules note on Parsi Chess and Citadel, Part B, and in docs/rules.md.
//!
//! **The start position is a reconstruction**: the original diagram is lost. The set-up below
//! is the note's reading (B.3): War Machines on a/i, Horsemen on b/h, Shieldsmen on c/g, the
//! elder prince on e; White's Plains-General and White Tiger-Rider on d/f, Blue's
//! Plains-Marshall and Blue Tiger-Rider on d/f; nine plainsmen each on the second rank; the
//! younger prince and the Chief Commander held as prisoners. It is data (the start FEN of
//! each spec), so a correction is a data change; the note's alternatives are in
//! [`ALTERNATIVE_SETUPS`].

use super::RuleSetSlot;
use crate::rules::{
    piece::{Bent, Movement, PieceKind, F, N, W},
    special::{
        prince_royalty::PrinceRoyalty,
        releases::{Prisoner, Releases},
    },
    tables::Tables,
    variant::{CastlingSpec, GamePoints, PieceSpec, PieceValue, RuleSettings, RuleSettingsError, Variant, VariantSpec},
};

/// The hand-crafted evaluation's figures for the Citadel's own pieces (estimates, not tuned: a
/// Tiger-Rider reaches 30-40 squares of an empty board against a queen's 24-32, but its bent
/// lines are blocked early in a full position; a Shieldsman is a non-royal king, worth a minor
/// piece and more in the ending; the younger prince counts as a Shieldsman, and the elder as a
/// king, nothing). The Charger moves as a rook and is valued as one.
pub const PIECE_VALUES: &[PieceValue] = &[
    PieceValue {
        kind: BLUE_TIGER,
        material: (820, 900),
        phase: 4,
        mobility: (1, 2),
        king_attack: 5,
    },
    PieceValue {
        kind: WHITE_TIGER,
        material: (800, 880),
        phase: 4,
        mobility: (1, 2),
        king_attack: 5,
    },
    PieceValue {
        kind: SHIELDSMAN,
        material: (300, 360),
        phase: 1,
        mobility: (2, 3),
        king_attack: 2,
    },
    PieceValue {
        kind: YOUNGER_PRINCE,
        material: (300, 360),
        phase: 0,
        mobility: (0, 0),
        king_attack: 0,
    },
    PieceValue {
        kind: CHARGER,
        material: (480, 540),
        phase: 2,
        mobility: (2, 4),
        king_attack: 3,
    },
];

/// The game points of B.9: 3 for a checkmate, 5 for the Green Gem (a mate made by taking one
/// of two High Princes), 1 each for a draw.
pub const GAME_POINTS: GamePoints = GamePoints {
    win: 3,
    green_gem: 5,
    draw: 1,
};

/// The Shieldsman: a non-royal king-stepper.
pub const SHIELDSMAN: PieceKind = PieceKind::custom(10);
/// The younger prince: a king-stepper, royal only while he is his side's only prince.
pub const YOUNGER_PRINCE: PieceKind = PieceKind::custom(11);
/// The Blue Tiger-Rider: a rook whose first orthogonal step may turn 45 degrees outward
/// into a bishop's slide (rook + aanca).
pub const BLUE_TIGER: PieceKind = PieceKind::custom(12);
/// The White Tiger-Rider: a bishop whose first diagonal step may turn 45 degrees outward
/// into a rook's slide (bishop + griffon).
pub const WHITE_TIGER: PieceKind = PieceKind::custom(13);
/// The Plains-Marshall (rook + knight), on the kind of Persian Chess's fortress.
pub const MARSHALL: PieceKind = PieceKind::Fortress;
/// The Plains-General (bishop + knight), on the kind of Persian Chess's princess.
pub const GENERAL: PieceKind = PieceKind::Princess;
/// The Charger: a rook that never castles (what a plainsman becomes on the a and i files).
pub const CHARGER: PieceKind = PieceKind::custom(14);

/// The pieces, with their letters (B.3) and moves (B.4, B.5).
pub const PIECES: &[PieceSpec] = &[
    PieceSpec {
        kind: PieceKind::Pawn,
        letter: 'P',
        name: "plainsman",
        movement: Movement::leaper(&[]),
    },
    PieceSpec {
        kind: PieceKind::Knight,
        letter: 'N',
        name: "horseman",
        movement: Movement::leaper(&[N]),
    },
    PieceSpec {
        kind: PieceKind::Rook,
        letter: 'R',
        name: "war machine",
        movement: Movement::slider(&[], true, false),
    },
    PieceSpec {
        kind: PieceKind::Queen,
        letter: 'Q',
        name: "chief commander",
        movement: Movement::slider(&[], true, true),
    },
    PieceSpec {
        kind: PieceKind::King,
        letter: 'K',
        name: "elder prince",
        movement: Movement::leaper(&[W, F]),
    },
    PieceSpec {
        kind: MARSHALL,
        letter: 'M',
        name: "plains-marshall",
        movement: Movement::slider(&[N], true, false),
    },
    PieceSpec {
        kind: GENERAL,
        letter: 'G',
        name: "plains-general",
        movement: Movement::slider(&[N], false, true),
    },
    PieceSpec {
        kind: CHARGER,
        letter: 'C',
        name: "charger",
        movement: Movement::slider(&[], true, false),
    },
    PieceSpec {
        kind: SHIELDSMAN,
        letter: 'S',
        name: "shieldsman",
        movement: Movement::leaper(&[W, F]),
    },
    PieceSpec {
        kind: YOUNGER_PRINCE,
        letter: 'Y',
        name: "younger prince",
        movement: Movement::leaper(&[W, F]),
    },
    PieceSpec {
        kind: BLUE_TIGER,
        letter: 'T',
        name: "blue tiger-rider",
        movement: Movement {
            bent: Bent::AfterOrthogonalStep,
            ..Movement::slider(&[], true, false)
        },
    },
    PieceSpec {
        kind: WHITE_TIGER,
        letter: 'X',
        name: "white tiger-rider",
        movement: Movement {
            bent: Bent::AfterDiagonalStep,
            ..Movement::slider(&[], false, true)
        },
    },
];

/// The kinds of the Citadel's net layout, in type order.
pub const NET_KINDS: &[PieceKind] = &[
    PieceKind::Pawn,
    PieceKind::Knight,
    PieceKind::Rook,
    PieceKind::Queen,
    PieceKind::King,
    MARSHALL,
    GENERAL,
    CHARGER,
    SHIELDSMAN,
    YOUNGER_PRINCE,
    BLUE_TIGER,
    WHITE_TIGER,
];

/// Transferring (B.8 step 5): the elder prince goes two squares toward an original War Machine
/// on a or i, which goes three squares the other way and lands next to him; the three squares
/// between them empty; the squares the prince stands on, crosses and reaches unattacked only
/// while he is the Prince-Royal. Rights `W` (toward a) and `E` (toward i); Blue's `w`, `e`.
pub const CASTLING: &[CastlingSpec] = &[
    CastlingSpec {
        letter: 'W',
        king_side: false,
        king_from: (4, 0),
        king_to: (2, 0),
        rook_from: (0, 0),
        rook_to: (3, 0),
        must_be_empty: &[(1, 0), (2, 0), (3, 0)],
        must_be_safe: &[(4, 0), (3, 0), (2, 0)],
    },
    CastlingSpec {
        letter: 'E',
        king_side: true,
        king_from: (4, 0),
        king_to: (6, 0),
        rook_from: (8, 0),
        rook_to: (5, 0),
        must_be_empty: &[(5, 0), (6, 0), (7, 0)],
        must_be_safe: &[(4, 0), (5, 0), (6, 0)],
    },
];

/// The prisoners: the younger prince (released on c, e, g of the last rank) and the Chief
/// Commander (on d, f), with their squares.
const fn prisoners(younger: &'static [(i8, i8)], commander: &'static [(i8, i8)]) -> [Prisoner; 2] {
    [
        Prisoner {
            kind: YOUNGER_PRINCE,
            letter: 'Y',
            squares: younger,
        },
        Prisoner {
            kind: PieceKind::Queen,
            letter: 'Q',
            squares: commander,
        },
    ]
}

/// The penultimate rank's promotions outside the citadel (a/i: Charger, b/h: Horseman, c/g:
/// Shieldsman) on a board whose penultimate rank is `rank`.
const fn promotions(rank: i8) -> [((i8, i8), PieceKind); 6] {
    [
        ((0, rank), CHARGER),
        ((1, rank), PieceKind::Knight),
        ((2, rank), SHIELDSMAN),
        ((6, rank), SHIELDSMAN),
        ((7, rank), PieceKind::Knight),
        ((8, rank), CHARGER),
    ]
}

const PROMOTIONS_8: [((i8, i8), PieceKind); 6] = promotions(6);
const PROMOTIONS_9: [((i8, i8), PieceKind); 6] = promotions(7);
const PRISONERS_8: [Prisoner; 2] = prisoners(&[(2, 7), (4, 7), (6, 7)], &[(3, 7), (5, 7)]);
const PRISONERS_9: [Prisoner; 2] = prisoners(&[(2, 8), (4, 8), (6, 8)], &[(3, 8), (5, 8)]);

/// Promotion and releases on the 9x8 board.
pub const RELEASES_8: Releases = Releases {
    fixed: &PROMOTIONS_8,
    prisoners: &PRISONERS_8,
};

/// Promotion and releases on the 9x9 board.
pub const RELEASES_9: Releases = Releases {
    fixed: &PROMOTIONS_9,
    prisoners: &PRISONERS_9,
};

/// Royalty by the number of princes, and opposing princes never adjacent.
pub static PRINCES: PrinceRoyalty = PrinceRoyalty {
    younger: YOUNGER_PRINCE,
};

/// The rules note's other readings of the lost start position (B.3), as FENs of each board
/// (8 ranks, 9 ranks): (b) crossed (White has the Plains-Marshall and the White Tiger-Rider,
/// Blue the Plains-General and the Blue Tiger-Rider); (c) the d and f pieces swapped. Chosen
/// with the rule setting `setup=NAME` ([`tables_with`]: `engine ... --rules setup=crossed`,
/// the UCI option `VariantRules`, `trainer selfplay --rules`), or given as a FEN.
pub const ALTERNATIVE_SETUPS: &[(&str, &str, &str)] = &[
    (
        "crossed",
        "rnsgktsnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNSMKXSNR w WEwe - YQyq 0 1",
        "rnsgktsnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNSMKXSNR w WEwe - YQyq 0 1",
    ),
    (
        "swapped",
        "rnstkmsnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNSXKGSNR w WEwe - YQyq 0 1",
        "rnstkmsnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNSXKGSNR w WEwe - YQyq 0 1",
    ),
];

/// The rule settings of the Citadel: only the set-up (`setup=NAME`, [`ALTERNATIVE_SETUPS`]).
pub const SETTINGS: &[(&str, &str)] = &[(
    "setup",
    "the start position: reconstructed (the default), crossed or swapped (rules note B.3)",
)];

/// How a Citadel board reads its rule settings ([`tables_with`]).
pub(super) const fn rule_settings(variant: Variant) -> RuleSettings {
    RuleSettings {
        names: SETTINGS,
        readings: &[],
        // Only the defaults reach the parser (`Variant::tables_from` checks `readings`).
        tables: match variant {
            Variant::Citadel8 => |_, text| tables_with(Variant::Citadel8, text),
            _ => |_, text| tables_with(Variant::Citadel9, text),
        },
    }
}

/// One slot per alternative set-up of each board (9x8 first).
static RULE_SETS: [RuleSetSlot; 2 * ALTERNATIVE_SETUPS.len()] =
    [const { RuleSetSlot::new() }; 2 * ALTERNATIVE_SETUPS.len()];

/// The tables of a Citadel board (`variant`) under rule settings: empty, `default` or
/// `setup=reconstructed` give the registered variant's; `setup=crossed` and `setup=swapped`
/// (or the bare names) a variant with that start position, built once per process. The
/// settings are only the set-up: every rule stays as the rules note decides.
fn tables_with(variant: Variant, text: &str) -> Result<&'static Tables, RuleSettingsError> {
    let spec = variant.spec();
    let mut chosen: Option<usize> = None;
    for item in text.split([',', ' ']).map(str::trim).filter(|i| !i.is_empty()) {
        let lower = item.to_ascii_lowercase().replace('-', "_");
        let name = lower.strip_prefix("setup=").unwrap_or(&lower).trim();
        chosen = match name {
            "default" | "reconstructed" => None,
            _ => match ALTERNATIVE_SETUPS.iter().position(|(n, _, _)| *n == name) {
                Some(i) => Some(i),
                None => {
                    return Err(RuleSettingsError::Unknown {
                        variant: spec.id,
                        item: item.to_string(),
                        known: std::iter::once("default, setup=reconstructed".to_string())
                            .chain(ALTERNATIVE_SETUPS.iter().map(|(n, _, _)| format!("setup={n}")))
                            .collect::<Vec<_>>()
                            .join(", "),
                    })
                }
            },
        };
    }
    let Some(i) = chosen else {
        return Ok(variant.tables());
    };
    let (name, fen8, fen9) = ALTERNATIVE_SETUPS[i];
    let board = usize::from(spec.geometry.height != 8);
    Ok(RULE_SETS[board * ALTERNATIVE_SETUPS.len() + i].tables(
        || spec.rules.to_vec(),
        |rules| VariantSpec {
            rules,
            start_fen: if board == 0 { fen8 } else { fen9 },
            ..*spec
        },
        |tables| tables.rules.rule_settings = format!("setup={name}"),
    ))
}
