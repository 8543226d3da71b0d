//! The engine's UCI options: a declarative list ([`OPTIONS`]), the `option name ... type ...`
//! line of each (the [`Display`](std::fmt::Display) of [`OptionSpec`]), and a validating setter
//! ([`set_option`]) that turns the text of a `setoption` into a typed [`OptionValue`].
//!
//! Option names are matched case-insensitively, as the UCI spec asks; combo values too. A string
//! option's empty value is written `<empty>` in its `option` line, and `<empty>` sent as a value
//! means the empty string (UCI spec).
//!
//! ```
//! use engine::uci::{set_option, OptionValue, OPTIONS};
//!
//! let (spec, value) = set_option(OPTIONS, "hash", Some("64")).unwrap();
//! assert_eq!((spec.name, value), ("Hash", OptionValue::Spin(64)));
//! assert_eq!(spec.to_string(), "option name Hash type spin default 16 min 1 max 65536");
//! assert_eq!(
//!     set_option(OPTIONS, "Hash", Some("0")).unwrap_err().to_string(),
//!     "Hash must be between 1 and 65536, got 0"
//! );
//! ```

use std::fmt;

use super::{is_integer_text, shown as cut};
use crate::rules::Variant;

/// Name of the option choosing the variant.
pub const UCI_VARIANT: &str = "UCI_Variant";
/// Name of the transposition-table size option (MB).
pub const HASH: &str = "Hash";
/// Name of the search-threads option.
pub const THREADS: &str = "Threads";
/// Name of the option giving the number of principal variations reported.
pub const MULTI_PV: &str = "MultiPV";
/// Name of the option giving the time (ms) kept back per move for communication delays.
pub const MOVE_OVERHEAD: &str = "Move Overhead";
/// Name of the button clearing the transposition table.
pub const CLEAR_HASH: &str = "Clear Hash";
/// Name of the option giving the evaluation file.
pub const EVAL_FILE: &str = "EvalFile";
/// Name of the option giving the opening book file.
pub const BOOK_FILE: &str = "BookFile";

/// Name of the option giving the rule settings of the variant (those its rules note leaves
/// open; Parsi Chess: `ludii`, `leap_no_capture=on`, ...; see `docs/rules.md`).
pub const VARIANT_RULES: &str = "VariantRules";
/// Name of the switch to the Ludii implementation's readings of Parsi Chess (applied before
/// [`VARIANT_RULES`]).
pub const PARSI_LUDII: &str = "Parsi_Ludii";
/// Name of the option that adds `wdl W D L` (per mille) to `info` lines.
pub const UCI_SHOW_WDL: &str = "UCI_ShowWDL";
/// Name of the playing-strength level, 0 (weakest) to 20 (full strength, the default).
pub const SKILL_LEVEL: &str = "Skill Level";
/// Name of the switch that limits the strength to [`UCI_ELO`] (instead of [`SKILL_LEVEL`]).
pub const UCI_LIMIT_STRENGTH: &str = "UCI_LimitStrength";
/// Name of the Elo the engine plays at when [`UCI_LIMIT_STRENGTH`] is on (docs/strength.md).
pub const UCI_ELO: &str = "UCI_Elo";
/// Name of the option setting the search's tunable constants (`name=value` items, empty: the
/// defaults; [`crate::search::params`], `engine params`).
pub const SEARCH_PARAMS: &str = "SearchParams";

/// The ids of [`Variant::ALL`], in that order: the vars of [`UCI_VARIANT`].
pub const VARIANT_IDS: [&str; Variant::ALL.len()] = {
    let mut ids = [""; Variant::ALL.len()];
    let mut i = 0;
    while i < ids.len() {
        ids[i] = Variant::ALL[i].id();
        i += 1;
    }
    ids
};

/// The engine's options, in the order they are listed after `uci`.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: UCI_VARIANT,
        kind: OptionKind::Combo {
            default: Variant::DEFAULT.id(),
            vars: &VARIANT_IDS,
        },
    },
    OptionSpec {
        name: HASH,
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65536,
        },
    },
    OptionSpec {
        name: THREADS,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptionSpec {
        name: MULTI_PV,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 64,
        },
    },
    OptionSpec {
        name: MOVE_OVERHEAD,
        kind: OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
    },
    OptionSpec {
        name: CLEAR_HASH,
        kind: OptionKind::Button,
    },
    OptionSpec {
        name: EVAL_FILE,
        kind: OptionKind::String { default: "<embedded>" },
    },
    OptionSpec {
        name: BOOK_FILE,
        kind: OptionKind::String { default: "" },
    },
    OptionSpec {
        name: VARIANT_RULES,
        kind: OptionKind::String { default: "" },
    },
    OptionSpec {
        name: PARSI_LUDII,
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        name: UCI_SHOW_WDL,
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        name: SKILL_LEVEL,
        kind: OptionKind::Spin {
            default: crate::skill::MAX_SKILL as i64,
            min: 0,
            max: crate::skill::MAX_SKILL as i64,
        },
    },
    OptionSpec {
        name: UCI_LIMIT_STRENGTH,
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        name: UCI_ELO,
        kind: OptionKind::Spin {
            default: crate::skill::ELO_MAX,
            min: crate::skill::ELO_MIN,
            max: crate::skill::ELO_MAX,
        },
    },
    OptionSpec {
        name: SEARCH_PARAMS,
        kind: OptionKind::String { default: "" },
    },
];

/// One UCI option: its name and type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name, as listed after `uci` (matched case-insensitively).
    pub name: &'static str,
    /// The type, with default and limits.
    pub kind: OptionKind,
}

/// The type of a UCI option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check`: on or off.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin`: an integer in `min..=max`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `type combo`: one of a list of words.
    Combo {
        /// The default, one of `vars`.
        default: &'static str,
        /// The allowed values.
        vars: &'static [&'static str],
    },
    /// `type button`: an action, no value.
    Button,
    /// `type string`: any text.
    String {
        /// The default (`""` is listed as `<empty>`).
        default: &'static str,
    },
}

/// A value an option was set to, checked against its [`OptionKind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    /// A `check` option's value.
    Check(bool),
    /// A `spin` option's value, within its limits.
    Spin(i64),
    /// A `combo` option's value, spelt as in its `vars` list.
    Combo(&'static str),
    /// A `button` was pressed.
    Button,
    /// A `string` option's value (`<empty>` read as `""`).
    String(String),
}

/// A `setoption` that cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// No `value` given to an option that needs one.
    #[error("{name} needs a value")]
    MissingValue {
        /// The option.
        name: &'static str,
    },
    /// A `check` value other than `true` / `false`.
    #[error("{name} must be true or false, got '{got}'")]
    NotABool {
        /// The option.
        name: &'static str,
        /// The value sent.
        got: String,
    },
    /// A `spin` value that is not an integer.
    #[error("{name} must be a whole number between {min} and {max}, got '{got}'")]
    NotANumber {
        /// The option.
        name: &'static str,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
        /// The value sent.
        got: String,
    },
    /// A `spin` value outside the limits.
    #[error("{name} must be between {min} and {max}, got {got}")]
    OutOfRange {
        /// The option.
        name: &'static str,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
        /// The value sent (integer text, possibly too large for any integer type).
        got: String,
    },
    /// A `combo` value not in the list.
    #[error("{name} must be one of {}, got '{got}'", .vars.join(", "))]
    NotAVar {
        /// The option.
        name: &'static str,
        /// The allowed values.
        vars: &'static [&'static str],
        /// The value sent.
        got: String,
    },
}

/// The option called `name`, ignoring ASCII case.
pub fn find_option<'a>(options: &'a [OptionSpec], name: &str) -> Option<&'a OptionSpec> {
    options.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// Checks a `setoption name <name> [value <value>]` against `options`: the option (for its
/// canonical name) and the typed value, or what is wrong.
pub fn set_option<'a>(
    options: &'a [OptionSpec],
    name: &str,
    value: Option<&str>,
) -> Result<(&'a OptionSpec, OptionValue), OptionError> {
    let spec = find_option(options, name).ok_or_else(|| OptionError::Unknown(cut(name)))?;
    Ok((spec, spec.parse_value(value)?))
}

impl OptionSpec {
    /// The value the option has before any `setoption`.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default),
            OptionKind::Button => OptionValue::Button,
            OptionKind::String { default } => OptionValue::String(default.to_string()),
        }
    }

    /// Checks the text after `value` (`None`: no `value` keyword) against the option's type.
    /// Surrounding whitespace is ignored; a button ignores any value; a string option without a
    /// value is set to `""`.
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let name = self.name;
        let value = value.map(str::trim);
        match self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::String { .. } => Ok(OptionValue::String(match value {
                None | Some("<empty>") => String::new(),
                Some(v) => v.to_string(),
            })),
            _ if value.is_none_or(str::is_empty) => Err(OptionError::MissingValue { name }),
            OptionKind::Check { .. } => {
                let v = value.unwrap_or_default();
                if v.eq_ignore_ascii_case("true") {
                    Ok(OptionValue::Check(true))
                } else if v.eq_ignore_ascii_case("false") {
                    Ok(OptionValue::Check(false))
                } else {
                    Err(OptionError::NotABool { name, got: cut(v) })
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let v = value.unwrap_or_default();
                match v.parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Spin(n)),
                    Ok(_) => Err(OptionError::OutOfRange {
                        name,
                        min,
                        max,
                        got: cut(v),
                    }),
                    Err(_) if is_integer_text(v) => Err(OptionError::OutOfRange {
                        name,
                        min,
                        max,
                        got: cut(v),
                    }),
                    Err(_) => Err(OptionError::NotANumber {
                        name,
                        min,
                        max,
                        got: cut(v),
                    }),
                }
            }
            OptionKind::Combo { vars, .. } => {
                let v = value.unwrap_or_default();
                vars.iter()
                    .find(|var| var.eq_ignore_ascii_case(v))
                    .map(|var| OptionValue::Combo(var))
                    .ok_or_else(|| OptionError::NotAVar {
                        name,
                        vars,
                        got: cut(v),
                    })
            }
        }
    }
}

/// The `option name <name> type <type> ...` line listed after `uci`.
impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|var| write!(f, " var {var}"))
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } => write!(
                f,
                "string default {}",
                if default.is_empty() { "<empty>" } else { default }
            ),
        }
    }
}

impl OptionValue {
    /// The value of a `check` option.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            OptionValue::Check(b) => Some(b),
            _ => None,
        }
    }

    /// The value of a `spin` option.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            OptionValue::Spin(n) => Some(n),
            _ => None,
        }
    }

    /// The value of a `combo` or `string` option.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            OptionValue::Combo(s) => Some(s),
            OptionValue::String(s) => Some(s),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str, value: Option<&str>) -> Result<OptionValue, String> {
        set_option(OPTIONS, name, value)
            .map(|(_, v)| v)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn option_lines() {
        let lines: Vec<String> = OPTIONS.iter().map(ToString::to_string).collect();
        // Every registered variant is a value, in the registry's order.
        let vars: String = Variant::ALL.iter().map(|v| format!(" var {}", v.id())).collect();
        let variant_line = format!("option name UCI_Variant type combo default persian-princess{vars}");
        assert_eq!(
            lines,
            [
                variant_line.as_str(),
                "option name Hash type spin default 16 min 1 max 65536",
                "option name Threads type spin default 1 min 1 max 256",
                "option name MultiPV type spin default 1 min 1 max 64",
                "option name Move Overhead type spin default 30 min 0 max 5000",
                "option name Clear Hash type button",
                "option name EvalFile type string default <embedded>",
                "option name BookFile type string default <empty>",
                "option name VariantRules type string default <empty>",
                "option name Parsi_Ludii type check default false",
                "option name UCI_ShowWDL type check default false",
                "option name Skill Level type spin default 20 min 0 max 20",
                "option name UCI_LimitStrength type check default false",
                format!(
                    "option name UCI_Elo type spin default {} min {} max {}",
                    crate::skill::ELO_MAX,
                    crate::skill::ELO_MIN,
                    crate::skill::ELO_MAX
                )
                .as_str(),
                "option name SearchParams type string default <empty>",
            ]
        );
        let check = OptionSpec {
            name: "Ponder",
            kind: OptionKind::Check { default: false },
        };
        assert_eq!(check.to_string(), "option name Ponder type check default false");
    }

    #[test]
    fn variant_vars_follow_the_rules() {
        let ids: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
        assert_eq!(VARIANT_IDS.to_vec(), ids);
        for v in Variant::ALL {
            assert_eq!(set("UCI_Variant", Some(v.id())), Ok(OptionValue::Combo(v.id())));
        }
    }

    #[test]
    fn defaults() {
        let defaults: Vec<OptionValue> = OPTIONS.iter().map(OptionSpec::default_value).collect();
        assert_eq!(
            defaults,
            [
                OptionValue::Combo("persian-princess"),
                OptionValue::Spin(16),
                OptionValue::Spin(1),
                OptionValue::Spin(1),
                OptionValue::Spin(30),
                OptionValue::Button,
                OptionValue::String("<embedded>".into()),
                OptionValue::String(String::new()),
                OptionValue::String(String::new()),
                OptionValue::Check(false),
                OptionValue::Check(false),
                OptionValue::Spin(20),
                OptionValue::Check(false),
                OptionValue::Spin(crate::skill::ELO_MAX),
                OptionValue::String(String::new()),
            ]
        );
        // Every default is accepted by its own option.
        for spec in OPTIONS {
            if let OptionKind::Spin { default, .. } = spec.kind {
                assert_eq!(
                    spec.parse_value(Some(&default.to_string())),
                    Ok(OptionValue::Spin(default))
                );
            }
            if let OptionKind::Combo { default, .. } = spec.kind {
                assert_eq!(spec.parse_value(Some(default)), Ok(OptionValue::Combo(default)));
            }
        }
    }

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(find_option(OPTIONS, "uci_variant").map(|o| o.name), Some(UCI_VARIANT));
        assert_eq!(
            find_option(OPTIONS, "MOVE OVERHEAD").map(|o| o.name),
            Some(MOVE_OVERHEAD)
        );
        assert_eq!(find_option(OPTIONS, "clear hash").map(|o| o.name), Some(CLEAR_HASH));
        assert_eq!(find_option(OPTIONS, "Hash2"), None);
        let (spec, value) = set_option(OPTIONS, "multipv", Some("4")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((spec.name, value), (MULTI_PV, OptionValue::Spin(4)));
    }

    #[test]
    fn spin_values() {
        assert_eq!(set("Hash", Some("1")), Ok(OptionValue::Spin(1)));
        assert_eq!(set("Hash", Some("65536")), Ok(OptionValue::Spin(65536)));
        assert_eq!(set("Hash", Some(" 256 ")), Ok(OptionValue::Spin(256)));
        assert_eq!(set("Move Overhead", Some("0")), Ok(OptionValue::Spin(0)));
        assert_eq!(set("Threads", Some("256")), Ok(OptionValue::Spin(256)));
        assert_eq!(
            set("Hash", Some("0")),
            Err("Hash must be between 1 and 65536, got 0".into())
        );
        assert_eq!(
            set("Hash", Some("65537")),
            Err("Hash must be between 1 and 65536, got 65537".into())
        );
        assert_eq!(
            set("Threads", Some("-3")),
            Err("Threads must be between 1 and 256, got -3".into())
        );
        assert_eq!(
            set("Hash", Some("99999999999999999999999")),
            Err("Hash must be between 1 and 65536, got 99999999999999999999999".into())
        );
        assert_eq!(
            set("Hash", Some("lots")),
            Err("Hash must be a whole number between 1 and 65536, got 'lots'".into())
        );
        assert_eq!(
            set("MultiPV", Some("1.5")),
            Err("MultiPV must be a whole number between 1 and 64, got '1.5'".into())
        );
        assert_eq!(set("Hash", None), Err("Hash needs a value".into()));
        assert_eq!(set("Hash", Some("")), Err("Hash needs a value".into()));
    }

    #[test]
    fn combo_values() {
        assert_eq!(
            set("UCI_Variant", Some("persian-princess")),
            Ok(OptionValue::Combo("persian-princess"))
        );
        assert_eq!(
            set("uci_variant", Some("Egyptian-Eye")),
            Ok(OptionValue::Combo("egyptian-eye"))
        );
        let ids: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
        assert_eq!(
            set("UCI_Variant", Some("shogi")),
            Err(format!("UCI_Variant must be one of {}, got 'shogi'", ids.join(", ")))
        );
        assert_eq!(set("UCI_Variant", None), Err("UCI_Variant needs a value".into()));
    }

    #[test]
    fn check_values() {
        let spec = OptionSpec {
            name: "Ponder",
            kind: OptionKind::Check { default: false },
        };
        assert_eq!(spec.parse_value(Some("true")), Ok(OptionValue::Check(true)));
        assert_eq!(spec.parse_value(Some("FALSE")), Ok(OptionValue::Check(false)));
        assert_eq!(
            spec.parse_value(Some("yes")).map_err(|e| e.to_string()),
            Err("Ponder must be true or false, got 'yes'".into())
        );
        assert_eq!(
            spec.parse_value(None).map_err(|e| e.to_string()),
            Err("Ponder needs a value".into())
        );
        assert_eq!(OptionValue::Check(true).as_bool(), Some(true));
    }

    #[test]
    fn button_and_string_values() {
        assert_eq!(set("Clear Hash", None), Ok(OptionValue::Button));
        assert_eq!(set("Clear Hash", Some("now")), Ok(OptionValue::Button));
        assert_eq!(
            set("BookFile", Some("C:\\My  Books\\pp.bin")),
            Ok(OptionValue::String("C:\\My  Books\\pp.bin".into()))
        );
        assert_eq!(set("BookFile", Some("<empty>")), Ok(OptionValue::String(String::new())));
        assert_eq!(set("BookFile", Some("")), Ok(OptionValue::String(String::new())));
        assert_eq!(set("BookFile", None), Ok(OptionValue::String(String::new())));
        assert_eq!(
            set("EvalFile", Some("<embedded>")),
            Ok(OptionValue::String("<embedded>".into()))
        );
        assert_eq!(
            set("EvalFile", Some("nn.bin"))
                .ok()
                .as_ref()
                .and_then(OptionValue::as_str),
            Some("nn.bin")
        );
    }

    #[test]
    fn unknown_options() {
        assert_eq!(set("Foo", Some("1")), Err("unknown option 'Foo'".into()));
        assert_eq!(
            set("UCI_Chess960", Some("true")),
            Err("unknown option 'UCI_Chess960'".into())
        );
        let long = "x".repeat(1000);
        let Err(msg) = set(&long, None) else { panic!("accepted") };
        assert!(msg.len() < 100, "{msg}");
    }

    #[test]
    fn with_the_command_parser() {
        use crate::uci::{parse, Command};
        let Ok(Some(Command::SetOption { name, value })) = parse("setoption name UCI_Variant value persian-princess")
        else {
            panic!("not parsed");
        };
        assert_eq!(set(&name, value.as_deref()), Ok(OptionValue::Combo("persian-princess")));
    }
}
