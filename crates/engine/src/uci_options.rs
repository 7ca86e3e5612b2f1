//! The engine's UCI options: their declarations, their values, and the
//! checks on a `setoption` (unknown names and bad values are typed errors).

use std::sync::Arc;
use std::time::Duration;

use rochade_uci::{OptionDecl, OptionKind};
use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;

use crate::engine::DEFAULT_HASH_MB;
use crate::robot::Level;
use crate::search::Evaluation;

/// Move Overhead's default, in milliseconds: a loaded machine (or a GUI
/// over a network) takes tens of milliseconds between our `bestmove` and
/// its clock.
const DEFAULT_OVERHEAD_MS: i64 = 30;
/// The most search threads.
const MAX_THREADS: i64 = 256;
/// The most lines MultiPV asks for.
const MAX_MULTIPV: i64 = 256;
/// The largest table in megabytes.
const MAX_HASH_MB: i64 = 4096;

/// What is wrong with a `setoption`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option {0:?}")]
    Unknown(String),
    /// The option needs a value and got none.
    #[error("option {0} needs a value")]
    MissingValue(&'static str),
    /// A spin option got something that is not a whole number.
    #[error("option {name}: {value:?} is not a whole number")]
    NotANumber {
        /// The option.
        name: &'static str,
        /// What was sent.
        value: String,
    },
    /// A spin option got a number outside its range.
    #[error("option {name}: {value} is outside {min}..={max}")]
    OutOfRange {
        /// The option.
        name: &'static str,
        /// What was sent.
        value: i64,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// A check option got something other than `true` or `false`.
    #[error("option {name}: {value:?} is neither true nor false")]
    NotABool {
        /// The option.
        name: &'static str,
        /// What was sent.
        value: String,
    },
    /// The Syzygy path could not be loaded.
    #[error("SyzygyPath {path:?}: {reason}")]
    Syzygy {
        /// The path as sent.
        path: String,
        /// Why it failed.
        reason: String,
    },
}

/// What the loop must do after an option changed.
pub enum Effect {
    /// Nothing beyond remembering the value.
    None,
    /// Resize the table to this many megabytes.
    Hash(usize),
    /// Use these tablebases (`None`: none).
    Tablebase(Option<Arc<Tablebase<Chess>>>),
}

/// The current option values.
#[derive(Debug, Clone)]
pub struct Options {
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Time kept back per move for communication.
    pub overhead: Duration,
    /// Chess960 castling (king takes rook) in input and output.
    pub chess960: bool,
    /// The `Level` option (also set by `Skill Level`).
    level: Level,
    /// `UCI_LimitStrength`: play at `UCI_Elo`.
    limit_strength: bool,
    /// `UCI_Elo`.
    elo: u32,
    /// `Use NNUE`: the network evaluation (else the classical one).
    pub use_nnue: bool,
    /// Tables found at `SyzygyPath`.
    pub tablebase_files: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            threads: 1,
            multipv: 1,
            overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS as u64),
            chess960: false,
            level: Level::MAX,
            limit_strength: false,
            elo: Level::elo_range().1,
            use_nnue: Evaluation::default() == Evaluation::Network,
            tablebase_files: 0,
        }
    }
}

fn spin(name: &str, default: i64, min: i64, max: i64) -> OptionDecl {
    OptionDecl {
        name: name.into(),
        kind: OptionKind::Spin { default, min, max },
    }
}

fn check(name: &str, default: bool) -> OptionDecl {
    OptionDecl {
        name: name.into(),
        kind: OptionKind::Check { default },
    }
}

impl Options {
    /// The evaluation to search with (`Use NNUE`).
    #[must_use]
    pub fn evaluation(&self) -> Evaluation {
        if self.use_nnue {
            Evaluation::Network
        } else {
            Evaluation::Classical
        }
    }

    /// The level to play at: `UCI_Elo` when `UCI_LimitStrength` is on,
    /// else the `Level` option (which `Skill Level` also sets).
    #[must_use]
    pub fn level(&self) -> Level {
        if self.limit_strength {
            Level::from_elo(self.elo)
        } else {
            self.level
        }
    }

    /// The `option` lines sent after `uci`.
    #[must_use]
    pub fn declarations() -> Vec<OptionDecl> {
        let (elo_min, elo_max) = Level::elo_range();
        vec![
            spin("Hash", DEFAULT_HASH_MB as i64, 1, MAX_HASH_MB),
            spin("Threads", 1, 1, MAX_THREADS),
            spin("MultiPV", 1, 1, MAX_MULTIPV),
            spin("Move Overhead", DEFAULT_OVERHEAD_MS, 0, 5000),
            check("Ponder", false),
            check("UCI_Chess960", false),
            check("Use NNUE", Evaluation::default() == Evaluation::Network),
            spin("Level", 8, 1, 8),
            spin("Skill Level", 20, 0, 20),
            check("UCI_LimitStrength", false),
            spin(
                "UCI_Elo",
                i64::from(elo_max),
                i64::from(elo_min),
                i64::from(elo_max),
            ),
            OptionDecl {
                name: "SyzygyPath".into(),
                kind: OptionKind::String {
                    default: "<empty>".into(),
                },
            },
        ]
    }

    /// Applies `setoption name <name> value <value>`; names are matched
    /// without regard to case, as UCI asks.
    ///
    /// # Errors
    ///
    /// [`OptionError`] for an unknown name or a bad value; nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let decl = Self::declarations()
            .into_iter()
            .find(|d| d.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| OptionError::Unknown(name.to_owned()))?;
        let name: &'static str = option_name(&decl.name);
        let text = value
            .map(str::trim)
            .ok_or(OptionError::MissingValue(name))?;
        let effect = match decl.kind {
            OptionKind::Spin { min, max, .. } => {
                let n = parse_spin(name, text, min, max)?;
                self.set_spin(name, n)
            }
            OptionKind::Check { .. } => {
                let on = match text.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(OptionError::NotABool {
                            name,
                            value: text.to_owned(),
                        });
                    }
                };
                match name {
                    "UCI_Chess960" => self.chess960 = on,
                    "UCI_LimitStrength" => self.limit_strength = on,
                    "Use NNUE" => self.use_nnue = on,
                    _ => {} // Ponder: the GUI decides whether to send `go ponder`.
                }
                Effect::None
            }
            _ => self.set_syzygy_path(text)?,
        };
        Ok(effect)
    }

    /// Stores a checked spin value.
    fn set_spin(&mut self, name: &str, n: i64) -> Effect {
        let n_u32 = u32::try_from(n).unwrap_or(0);
        match name {
            "Hash" => return Effect::Hash(n as usize),
            "Threads" => self.threads = n as usize,
            "MultiPV" => self.multipv = n as usize,
            "Move Overhead" => self.overhead = Duration::from_millis(n as u64),
            "Level" => self.level = Level::new(n_u32).unwrap_or(Level::MAX),
            "Skill Level" => self.level = Level::from_skill(n_u32),
            _ => self.elo = n_u32, // UCI_Elo
        }
        Effect::None
    }

    /// Loads every table in the directories of `path` (separated by `:`,
    /// or `;` on Windows); `<empty>` or nothing unloads them.
    fn set_syzygy_path(&mut self, path: &str) -> Result<Effect, OptionError> {
        if path.is_empty() || path == "<empty>" {
            self.tablebase_files = 0;
            return Ok(Effect::Tablebase(None));
        }
        let separator = if cfg!(windows) { ';' } else { ':' };
        let mut tb = Tablebase::new();
        let mut files = 0;
        for dir in path.split(separator).filter(|d| !d.is_empty()) {
            files += tb.add_directory(dir).map_err(|e| OptionError::Syzygy {
                path: path.to_owned(),
                reason: format!("{dir}: {e}"),
            })?;
        }
        if files == 0 {
            return Err(OptionError::Syzygy {
                path: path.to_owned(),
                reason: "no Syzygy tables there".into(),
            });
        }
        self.tablebase_files = files;
        Ok(Effect::Tablebase(Some(Arc::new(tb))))
    }
}

/// The declared name as a static string (for error messages).
fn option_name(name: &str) -> &'static str {
    const NAMES: [&str; 12] = [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Ponder",
        "UCI_Chess960",
        "Use NNUE",
        "Level",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "SyzygyPath",
    ];
    NAMES.into_iter().find(|n| *n == name).unwrap_or("option")
}

/// A spin value within `min..=max`.
fn parse_spin(name: &'static str, text: &str, min: i64, max: i64) -> Result<i64, OptionError> {
    let n: i64 = text.parse().map_err(|_| OptionError::NotANumber {
        name,
        value: text.to_owned(),
    })?;
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(OptionError::OutOfRange {
            name,
            value: n,
            min,
            max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_names_are_all_known() {
        for decl in Options::declarations() {
            assert_eq!(option_name(&decl.name), decl.name);
        }
    }

    #[test]
    fn bad_values_are_typed_errors_and_change_nothing() {
        let mut o = Options::default();
        assert_eq!(
            o.set("Threads", Some("0")).err(),
            Some(OptionError::OutOfRange {
                name: "Threads",
                value: 0,
                min: 1,
                max: MAX_THREADS
            })
        );
        assert!(matches!(
            o.set("multipv", Some("two")),
            Err(OptionError::NotANumber { .. })
        ));
        assert!(matches!(
            o.set("UCI_Chess960", Some("yes")),
            Err(OptionError::NotABool { .. })
        ));
        assert_eq!(
            o.set("Contempt", Some("1")).err(),
            Some(OptionError::Unknown("Contempt".into()))
        );
        assert_eq!(
            o.set("Level", None).err(),
            Some(OptionError::MissingValue("Level"))
        );
        assert!(matches!(
            o.set("SyzygyPath", Some("/no/such/dir")),
            Err(OptionError::Syzygy { .. })
        ));
        assert_eq!((o.threads, o.multipv, o.chess960), (1, 1, false));
    }

    #[test]
    fn use_nnue_chooses_the_evaluation() {
        let mut o = Options::default();
        assert_eq!(o.evaluation(), Evaluation::default());
        assert!(o.set("use nnue", Some("false")).is_ok());
        assert_eq!(o.evaluation(), Evaluation::Classical);
        assert!(o.set("Use NNUE", Some("maybe")).is_err());
        assert_eq!(o.evaluation(), Evaluation::Classical);
        assert!(o.set("Use NNUE", Some("true")).is_ok());
        assert_eq!(o.evaluation(), Evaluation::Network);
    }

    #[test]
    fn levels_from_level_skill_and_elo() {
        let mut o = Options::default();
        assert_eq!(o.level(), Level::MAX);
        assert!(o.set("Skill Level", Some("0")).is_ok());
        assert_eq!(o.level(), Level::MIN);
        assert!(o.set("Level", Some("3")).is_ok());
        assert_eq!(o.level().get(), 3);
        assert!(o.set("UCI_Elo", Some("1650")).is_ok());
        assert_eq!(o.level().get(), 3, "UCI_Elo counts only with LimitStrength");
        assert!(o.set("UCI_LimitStrength", Some("true")).is_ok());
        assert_eq!(o.level().get(), 5, "the strongest level at or below 1650");
    }
}
