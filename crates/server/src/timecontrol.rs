//! A time control described as JSON, as `rochade timecontrol` prints it
//! and `GET /api/timecontrol` answers: normalised form, PGN tag, category,
//! periods.

use rochade_laws::clock::{Bonus, Limit, Syntax, TimeControl, TimeControlError};
use rochade_laws::rules::RuleSet;
use serde::Serialize;

/// The JSON printed.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Report {
    /// The normalized human (or correspondence) form.
    pub normalized: String,
    /// The PGN tag, or null when there is none (correspondence, delays, time per move).
    pub pgn: Option<String>,
    /// blitz, rapid, standard or correspondence.
    pub category: &'static str,
    /// The rule set used for the category.
    pub rules: &'static str,
    /// periods, per_move or no_clock.
    pub kind: &'static str,
    /// The budget of each move, for fixed time per move.
    pub per_move_seconds: Option<u64>,
    /// The periods in order.
    pub periods: Vec<PeriodReport>,
}

/// One period in the JSON.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct PeriodReport {
    /// Moves to make in the period; null for the rest of the game.
    pub moves: Option<u32>,
    /// Time added when the period begins.
    pub base_seconds: u64,
    /// none, increment, bronstein or delay.
    pub bonus: &'static str,
    /// The bonus per move.
    pub bonus_seconds: u64,
}

/// Describes a time control.
///
/// # Errors
///
/// [`TimeControlError`] saying what is wrong with `control`.
///
/// # Examples
///
/// ```
/// use rochade_laws::{clock::Syntax, rules::RuleSet};
/// let r = rochade_server::timecontrol::report("3+2", RuleSet::Fide, Syntax::Auto)?;
/// assert_eq!(r.category, "blitz");
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
pub fn report(control: &str, rules: RuleSet, syntax: Syntax) -> Result<Report, TimeControlError> {
    let tc = TimeControl::parse_as(control, syntax)?;
    let (kind, per_move_seconds) = match tc.limit() {
        Limit::Periods(_) => ("periods", None),
        Limit::PerMove(budget) => ("per_move", Some(budget.as_secs())),
        Limit::NoClock => ("no_clock", None),
    };
    let periods = tc
        .periods()
        .iter()
        .map(|p| {
            let bonus = match p.bonus {
                Bonus::None => "none",
                Bonus::Increment(_) => "increment",
                Bonus::Bronstein(_) => "bronstein",
                Bonus::Delay(_) => "delay",
            };
            PeriodReport {
                moves: p.moves.map(|m| m.get()),
                base_seconds: p.base.as_secs(),
                bonus,
                bonus_seconds: p.bonus.amount().as_secs(),
            }
        })
        .collect();
    Ok(Report {
        normalized: tc.to_string(),
        pgn: tc.to_pgn(),
        category: tc.category(rules).as_str(),
        rules: rules.as_str(),
        kind,
        per_move_seconds,
        periods,
    })
}
