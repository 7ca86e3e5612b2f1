//! An arena's settings as the organiser gives them to
//! `POST /api/tournaments` (`"system": "arena"`, `"minutes"`): a length
//! within [`MIN_MINUTES`]–[`MAX_MINUTES`], a live control of minutes and
//! seconds (one period, a Fischer increment or none), and nothing that
//! belongs to rounds.

use rochade_laws::clock::TimeControl;

use super::{MAX_MINUTES, MIN_MINUTES, berserk};
use crate::error::{ActionError, ErrorCode};
use crate::tournaments::System;

/// A refusal naming what is wrong.
fn bad(message: String) -> ActionError {
    ActionError::new(ErrorCode::BadRequest, message)
}

/// The arena asked for: `minutes` long, and no rounds.
///
/// ```
/// use rochade_server::tournaments::{System, arena::settings::system};
/// assert_eq!(system(Some(60), None, false).unwrap(), System::Arena { minutes: 60 });
/// assert!(system(None, None, false).unwrap_err().message.starts_with("minutes"));
/// assert!(system(Some(60), Some(5), false).unwrap_err().message.starts_with("rounds"));
/// ```
///
/// # Errors
///
/// `bad_request` naming the field: no length or one out of range,
/// rounds, a double cycle.
pub fn system(
    minutes: Option<u16>,
    rounds: Option<u16>,
    double: bool,
) -> Result<System, ActionError> {
    if rounds.is_some() {
        return Err(bad(
            "rounds: an arena has no rounds; give its minutes".into()
        ));
    }
    if double {
        return Err(bad("double: only a round robin is played twice".into()));
    }
    let minutes =
        minutes.ok_or_else(|| bad("minutes: an arena needs its length in minutes".into()))?;
    if !(MIN_MINUTES..=MAX_MINUTES).contains(&minutes) {
        return Err(bad(format!(
            "minutes: {MIN_MINUTES} to {MAX_MINUTES}, not {minutes}"
        )));
    }
    Ok(System::Arena { minutes })
}

/// Whether the rest of the settings fit an arena.
///
/// # Errors
///
/// `bad_request` naming the field: a control that is not minutes and
/// seconds, tie-breaks (points then performance), byes, a start by
/// round.
pub fn check(
    control: &TimeControl,
    tiebreaks: &[String],
    max_byes: u8,
    by_round: Option<bool>,
) -> Result<(), ActionError> {
    if berserk::base_and_increment(control).is_none() {
        return Err(bad(format!(
            "time_control: an arena is played at minutes and seconds (3+2), not {control}"
        )));
    }
    if !tiebreaks.is_empty() {
        return Err(bad(
            "tiebreaks: an arena ranks by points, then by performance".into(),
        ));
    }
    if max_byes > 0 {
        return Err(bad("max_byes: an arena has no rounds to miss".into()));
    }
    if by_round.is_some() {
        return Err(bad("by_round: an arena has no rounds".into()));
    }
    Ok(())
}
