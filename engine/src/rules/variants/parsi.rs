//! Parsi Chess, the Bombay game of 1814 as Murray describes it (the project's rules note on
//! Parsi Chess and Citadel, Part A): orthodox moves on 8x8 with the vizier left of the king, no
//! castling and no en passant, double steps only on the rook's, vizier's and king's files while
//! the piece behind has not moved, promotion by arrival square, the king's one knight leap, the
//! bonus knight leap, no stalemating, no perpetual check, a bare king draws. See docs/rules.md.

use super::RuleSetSlot;
use crate::rules::{
    geometry::Geometry,
    piece::{Movement, PieceKind, F, N, W},
    special::{
        bare_king::BareKing,
        bonus_leap::BONUS_KNIGHT_LEAP,
        king_leap::{KingLeap, KING_LEAP},
        no_stalemating::NO_STALEMATING,
        opening_series::OpeningSeries,
        perpetual_check::NO_PERPETUAL_CHECK, square_promotion::SquarePromotion,
        unmoved_double_step::UnmovedDoubleStep, Rule,
    },
    settings::Readings,
    tables::Tables,
    variant::{PawnSpec, PieceSpec, RuleSettingsError, Variant, VariantSpec, RuleSettings},
};

/// The start position of Parsi Chess (the FEN of [`SPEC`]), as a macro so that the start of a
/// game with an opening series can extend it.
macro_rules! start_fen {
    () => {
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadeh Ll 0 1"
    };
}

/// The start position under an opening series: its field says no ply of the series is played.
const SERIES_START_FEN: &str = concat!(start_fen!(), " 0");

/// How Parsi Chess reads its rule settings ([`ParsiSettings::parse`]).
pub const RULE_SETTINGS: RuleSettings = RuleSettings {
    names: SETTINGS,
    readings: &[Readings::Ludii],
    tables: |readings, text| Ok(ParsiSettings::parse_from(ParsiSettings::of(readings), text)?.tables()),
};

/// The opening series rules, by their number of moves (the rule of 0 is never used).
static SERIES: [OpeningSeries; 10] = {
    let mut series = [const { OpeningSeries { moves: 0 } }; 10];
    let mut n = 0;
    while n < series.len() {
        series[n].moves = n as u8;
        n += 1;
    }
    series
};

/// One slot per rule set, by [`ParsiSettings::index`].
static RULE_SETS: [RuleSetSlot; ParsiSettings::COUNT] = [const { RuleSetSlot::new() }; ParsiSettings::COUNT];

/// The spec of Parsi Chess.
pub const SPEC: VariantSpec = VariantSpec {
    variant: Some(Variant::Parsi),
    id: "parsi",
    code: 6,
    aliases: &["parsi-chess"],
    name: "Parsi Chess",
    server_key: "parsi",
    pgn_name: "Parsi",
    geometry: Geometry::rectangle(8, 8),
    pieces: &[
        PieceSpec {
            kind: PieceKind::Pawn,
            letter: 'P',
            name: "pawn",
            movement: Movement::leaper(&[]),
        },
        PieceSpec {
            kind: PieceKind::Knight,
            letter: 'N',
            name: "horse",
            movement: Movement::leaper(&[N]),
        },
        PieceSpec {
            kind: PieceKind::Bishop,
            letter: 'B',
            name: "camel",
            movement: Movement::slider(&[], false, true),
        },
        PieceSpec {
            kind: PieceKind::Rook,
            letter: 'R',
            name: "rook",
            movement: Movement::slider(&[], true, false),
        },
        PieceSpec {
            kind: PieceKind::Queen,
            letter: 'Q',
            name: "vizier",
            movement: Movement::slider(&[], true, true),
        },
        PieceSpec {
            kind: PieceKind::King,
            letter: 'K',
            name: "king",
            movement: Movement::leaper(&[W, F]),
        },
    ],
    net_kinds: &[
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ],
    start_fen: start_fen!(),
    pawns: PawnSpec {
        double_step_rank: 1,
        first_step_max: 2,
        promotion_rank: 7,
        promotion_kinds: &[PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight],
        en_passant: false,
    },
    castling: &[],
    // A bare king draws by its own rule; no other material is dead.
    dead_material: &[&[]],
    game_points: None,
    piece_values: &[],
    search_defaults: &[],
    // Its engine plies gather on fewer lines than the Persian games': with 3 random plies a
    // million games would repeat up to 7.3 % of their openings, with 5 at most 0.45 %.
    selfplay_random_plies: 5,
    settings: Some(&RULE_SETTINGS),
    rules: &[
        Rule::UnmovedDoubleStep(UnmovedDoubleStep { files: &[0, 3, 4, 7], while_present: false }),
        Rule::Custom(&KING_LEAP),
        Rule::SquarePromotion(SquarePromotion {
            colour_bound: &[PieceKind::Bishop],
            no_check_on_arrival: &[PieceKind::Knight],
            by_own_file: false,
        }),
        Rule::Custom(&BONUS_KNIGHT_LEAP),
        Rule::Custom(&NO_STALEMATING),
        Rule::Custom(&NO_PERPETUAL_CHECK),
        Rule::BareKing(BareKing),
    ],
};

/// The rule settings of Parsi Chess (rules note A.12): the readings the engine did not choose,
/// selectable one by one, with the Ludii implementation's set as [`ParsiSettings::LUDII`], and the
/// optional opening series (A.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParsiSettings {
    /// A pawn becomes the mover's own start piece of its file; the king's file never promotes
    /// (Ludii). Default off: the piece that started on the arrival square (Murray).
    pub promotion_by_own_file: bool,
    /// A bishop is available only while the side has none on squares of the promotion
    /// square's colour. Default on; Ludii counts bishops like any other kind.
    pub bishop_colour_test: bool,
    /// A knight may not give check on arrival by promotion. Default on; Ludii has no such rule.
    pub knight_no_check_on_arrival: bool,
    /// A promotion to a knight may be followed by one knight move (a compound move). Default
    /// on; Ludii's code has none.
    pub bonus_leap: bool,
    /// The king's leap only onto an empty square. Default off (it may capture); Ludii on.
    pub leap_no_capture: bool,
    /// The king's leap is lost the first time the king is in check, and never escapes a check.
    /// Default off; Ludii on.
    pub leap_lost_when_checked: bool,
    /// 100 plies without a capture or a pawn move draw. Default on.
    pub fifty_move_rule: bool,
    /// The double step is allowed while the piece that started behind the pawn stands there
    /// again, even after it moved (the Ludii description's literal wording). Default off:
    /// only while it has never moved (also the Ludii code).
    pub double_step_while_present: bool,
    /// The opening series (A.9): each side makes this many moves in a row at the start, White
    /// first; 0 (the default): none. Read as `opening_series=N`, N from 0 to 9.
    pub opening_series: u8,
}

/// Each setting: its name (as `Variant::tables_with` and the UCI options read it) and what it
/// does.
pub const SETTINGS: &[(&str, &str)] = &[
    (
        "promotion_by_own_file",
        "a pawn becomes its own file's start piece; the king's file never promotes (Ludii)",
    ),
    ("bishop_colour_test", "a bishop is available only while none is on that square colour"),
    ("knight_no_check_on_arrival", "a knight may not give check on arrival by promotion"),
    ("bonus_leap", "a promotion to a knight may be followed by one knight move"),
    ("leap_no_capture", "the king's leap only onto an empty square (Ludii)"),
    ("leap_lost_when_checked", "the king's leap is lost when the king is first checked (Ludii)"),
    ("fifty_move_rule", "100 plies without a capture or a pawn move draw"),
    (
        "double_step_while_present",
        "the double step while the piece behind stands there again, moved or not",
    ),
];

impl Default for ParsiSettings {
    fn default() -> ParsiSettings {
        ParsiSettings::DEFAULT
    }
}

impl ParsiSettings {
    /// The readings the engine chose (docs/rules.md).
    pub const DEFAULT: ParsiSettings = ParsiSettings {
        promotion_by_own_file: false,
        bishop_colour_test: true,
        knight_no_check_on_arrival: true,
        bonus_leap: true,
        leap_no_capture: false,
        leap_lost_when_checked: false,
        fifty_move_rule: true,
        double_step_while_present: false,
        opening_series: 0,
    };

    /// The Ludii implementation's readings (text and code, rules note A.12).
    pub const LUDII: ParsiSettings = ParsiSettings {
        promotion_by_own_file: true,
        bishop_colour_test: false,
        knight_no_check_on_arrival: false,
        bonus_leap: false,
        leap_no_capture: true,
        leap_lost_when_checked: true,
        fifty_move_rule: true,
        double_step_while_present: false,
        opening_series: 0,
    };

    fn field(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "promotion_by_own_file" => &mut self.promotion_by_own_file,
            "bishop_colour_test" => &mut self.bishop_colour_test,
            "knight_no_check_on_arrival" => &mut self.knight_no_check_on_arrival,
            "bonus_leap" => &mut self.bonus_leap,
            "leap_no_capture" => &mut self.leap_no_capture,
            "leap_lost_when_checked" => &mut self.leap_lost_when_checked,
            "fifty_move_rule" => &mut self.fifty_move_rule,
            "double_step_while_present" => &mut self.double_step_while_present,
            _ => return None,
        })
    }

    /// The value of a setting by its name.
    pub fn get(&self, name: &str) -> Option<bool> {
        let mut copy = *self;
        copy.field(name).map(|v| *v)
    }

    /// Sets a setting by its name (false: no such setting).
    pub fn set(&mut self, name: &str, value: bool) -> bool {
        match self.field(name) {
            Some(v) => {
                *v = value;
                true
            }
            None => false,
        }
    }

    /// The settings of a whole set of readings.
    pub const fn of(readings: Readings) -> ParsiSettings {
        match readings {
            Readings::Default => ParsiSettings::DEFAULT,
            Readings::Ludii => ParsiSettings::LUDII,
        }
    }

    /// Reads settings: items separated by commas or spaces, applied in order to the defaults.
    /// An item is `default`, `ludii`, a setting's name (on), `name=on|off|true|false|1|0`, or
    /// `no_name` (off). Names take `-` for `_` and any case.
    pub fn parse(text: &str) -> Result<ParsiSettings, RuleSettingsError> {
        ParsiSettings::parse_from(ParsiSettings::DEFAULT, text)
    }

    /// Reads settings as [`ParsiSettings::parse`] does, applying the items to `base`.
    pub fn parse_from(base: ParsiSettings, text: &str) -> Result<ParsiSettings, RuleSettingsError> {
        let mut s = base;
        for item in text.split([',', ' ']).map(str::trim).filter(|i| !i.is_empty()) {
            let lower = item.to_ascii_lowercase().replace('-', "_");
            if lower.starts_with("opening_series") {
                let n = lower
                    .strip_prefix("opening_series=")
                    .and_then(|v| v.trim().parse::<u8>().ok())
                    .filter(|n| *n <= 9)
                    .ok_or_else(|| RuleSettingsError::BadSeries(item.to_string()))?;
                s.opening_series = n;
                continue;
            }
            let (name, value) = match lower.split_once('=') {
                Some((n, v)) => {
                    let value = match v.trim() {
                        "on" | "true" | "1" | "yes" => true,
                        "off" | "false" | "0" | "no" => false,
                        _ => return Err(RuleSettingsError::BadValue(item.to_string())),
                    };
                    (n.trim().to_string(), value)
                }
                None => match lower.strip_prefix("no_") {
                    Some(n) if ParsiSettings::DEFAULT.get(n).is_some() => (n.to_string(), false),
                    _ => (lower.clone(), true),
                },
            };
            match name.as_str() {
                "default" if value => s = ParsiSettings::of(Readings::Default),
                "ludii" if value => s = ParsiSettings::of(Readings::Ludii),
                _ => {
                    if !s.set(&name, value) {
                        return Err(RuleSettingsError::Unknown {
                            variant: SPEC.id,
                            item: item.to_string(),
                            known: format!(
                                "default, ludii, opening_series=N, {}",
                                SETTINGS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                            ),
                        });
                    }
                }
            }
        }
        Ok(s)
    }

    /// The settings as text that [`ParsiSettings::parse`] reads back: empty for the defaults,
    /// `ludii` for the Ludii set, else the settings that differ from the defaults.
    pub fn describe(&self) -> String {
        if *self == ParsiSettings::DEFAULT {
            return String::new();
        }
        if *self == ParsiSettings::LUDII {
            return "ludii".to_string();
        }
        if *self
            == (ParsiSettings {
                opening_series: self.opening_series,
                ..ParsiSettings::LUDII
            })
        {
            return format!("ludii,opening_series={}", self.opening_series);
        }
        let mut items: Vec<String> = SETTINGS
            .iter()
            .filter_map(|&(name, _)| {
                let v = self.get(name)?;
                (ParsiSettings::DEFAULT.get(name) != Some(v)).then(|| format!("{name}={}", if v { "on" } else { "off" }))
            })
            .collect();
        if self.opening_series > 0 {
            items.push(format!("opening_series={}", self.opening_series));
        }
        items.join(",")
    }

    /// The rules of the spec under these settings.
    fn rules(&self) -> Vec<Rule> {
        let mut rules = Vec::new();
        if self.opening_series > 0 {
            rules.push(Rule::Custom(&SERIES[self.opening_series as usize]));
        }
        rules.extend([
            Rule::UnmovedDoubleStep(UnmovedDoubleStep {
                files: &[0, 3, 4, 7],
                while_present: self.double_step_while_present,
            }),
            Rule::Custom(KingLeap::with(!self.leap_no_capture, self.leap_lost_when_checked)),
            Rule::SquarePromotion(SquarePromotion {
                colour_bound: if self.bishop_colour_test { &[PieceKind::Bishop] } else { &[] },
                no_check_on_arrival: if self.knight_no_check_on_arrival { &[PieceKind::Knight] } else { &[] },
                by_own_file: self.promotion_by_own_file,
            }),
        ]);
        if self.bonus_leap {
            rules.push(Rule::Custom(&BONUS_KNIGHT_LEAP));
        }
        rules.extend([
            Rule::Custom(&NO_STALEMATING),
            Rule::Custom(&NO_PERPETUAL_CHECK),
            Rule::BareKing(BareKing),
        ]);
        rules
    }

    /// Number of distinct settings: the boolean settings' combinations times the opening
    /// series' lengths (0 to 9).
    pub const COUNT: usize = (1 << 8) * 10;

    /// The settings' number, from 0 to [`ParsiSettings::COUNT`] - 1: one bit per boolean setting
    /// (in the order of [`SETTINGS`]) and the opening series' length above them.
    pub fn index(&self) -> usize {
        let bits = SETTINGS
            .iter()
            .enumerate()
            .filter(|(_, (name, _))| self.get(name) == Some(true))
            .fold(0, |bits, (i, _)| bits | 1 << i);
        (self.opening_series as usize) << SETTINGS.len() | bits
    }

    /// The tables of Parsi Chess under these settings: the registered variant's for the
    /// defaults, else built once per distinct settings and kept for the process (positions of
    /// the same settings share them, so they compare equal).
    pub fn tables(&self) -> &'static Tables {
        if *self == ParsiSettings::DEFAULT {
            return Variant::Parsi.tables();
        }
        RULE_SETS[self.index()].tables(
            || self.rules(),
            |rules| VariantSpec {
                rules,
                start_fen: if self.opening_series > 0 { SERIES_START_FEN } else { SPEC.start_fen },
                ..SPEC
            },
            |tables| {
                tables.rules.fifty_move_rule = self.fifty_move_rule;
                tables.rules.rule_settings = self.describe();
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_rules_are_the_specs() {
        assert_eq!(format!("{:?}", ParsiSettings::DEFAULT.rules()), format!("{:?}", SPEC.rules));
        assert!(std::ptr::eq(ParsiSettings::DEFAULT.tables(), Variant::Parsi.tables()));
    }

    #[test]
    fn settings_read_and_write_back() {
        for text in ["", "ludii", "leap_no_capture=on", "bonus_leap=off,fifty_move_rule=off"] {
            let s = ParsiSettings::parse(text).expect("reads");
            assert_eq!(s.describe(), text);
        }
        let s = ParsiSettings::parse("Ludii, Bonus-Leap").expect("reads");
        assert!(s.bonus_leap && s.leap_no_capture && s.promotion_by_own_file);
        assert_eq!(ParsiSettings::parse("no_bonus_leap").map(|s| s.bonus_leap), Ok(false));
        assert_eq!(ParsiSettings::parse("ludii,default"), Ok(ParsiSettings::DEFAULT));
        assert!(ParsiSettings::parse("leap_no_capture=maybe").is_err());
        let err = ParsiSettings::parse("castling").expect_err("no such setting").to_string();
        assert!(err.contains("castling") && err.contains("leap_no_capture"), "{err}");
        let a = ParsiSettings::LUDII.tables();
        assert!(std::ptr::eq(a, ParsiSettings::parse("ludii").expect("reads").tables()));
        assert_eq!(a.rules.rule_settings, "ludii");
        assert_eq!(
            ParsiSettings::parse_from(ParsiSettings::LUDII, "bonus_leap,opening_series=2"),
            ParsiSettings::parse("ludii,bonus_leap,opening_series=2")
        );
        assert!(ParsiSettings::parse("opening_series=3").expect("reads").tables().spec.start_fen.ends_with(" 1 0"));
    }

    #[test]
    fn every_settings_has_its_own_number() {
        assert_eq!(SETTINGS.len(), 8, "ParsiSettings::COUNT counts 8 boolean settings");
        assert_eq!(SERIES_START_FEN, format!("{} 0", SPEC.start_fen));
        let mut seen = vec![false; ParsiSettings::COUNT];
        for bits in 0..1usize << SETTINGS.len() {
            for series in 0..=9 {
                let mut s = ParsiSettings { opening_series: series, ..ParsiSettings::DEFAULT };
                for (i, (name, _)) in SETTINGS.iter().enumerate() {
                    s.set(name, bits >> i & 1 == 1);
                }
                let i = s.index();
                assert!(i < ParsiSettings::COUNT && !seen[i], "{s:?}");
                seen[i] = true;
            }
        }
        assert!(SERIES.iter().enumerate().all(|(n, s)| s.moves as usize == n));
    }
}
