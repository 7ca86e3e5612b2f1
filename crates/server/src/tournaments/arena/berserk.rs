//! Berserk (lichess's arena): before their first move a player may give
//! up half of their initial time and their increment for one more point
//! if they win ([`super::sheet`]). As lichess's clock does it: the
//! penalty is half the initial time, none when the initial time is under
//! forty increments (`1+2` berserk is `1+0`); a control without initial
//! time (`0+2`) cannot go berserk.

use std::time::Duration;

use rochade_laws::clock::{Bonus, Limit, Scale, TimeControl};
use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::record::Record;

/// What going berserk costs under a control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Taken from the player's clock at once.
    pub penalty: Duration,
    /// No longer added after each of their moves.
    pub increment: Duration,
}

/// The initial time and increment of an arena's control: one period for
/// the whole game on a clock (minutes, seconds), a Fischer increment or
/// none; `None` for any other control.
///
/// ```
/// use std::time::Duration;
/// use rochade_server::tournaments::arena::berserk::base_and_increment;
/// let s = Duration::from_secs;
/// assert_eq!(base_and_increment(&"3+2".parse().unwrap()), Some((s(180), s(2))));
/// assert_eq!(base_and_increment(&"40/90, 30+30".parse().unwrap()), None);
/// assert_eq!(base_and_increment(&"3d".parse().unwrap()), None);
/// ```
pub fn base_and_increment(control: &TimeControl) -> Option<(Duration, Duration)> {
    if control.scale() != Scale::Clock {
        return None;
    }
    let Limit::Periods(periods) = control.limit() else {
        return None;
    };
    let [period] = periods.as_slice() else {
        return None;
    };
    if period.moves.is_some() {
        return None;
    }
    let increment = match period.bonus {
        Bonus::None => Duration::ZERO,
        Bonus::Increment(i) => i,
        Bonus::Bronstein(_) | Bonus::Delay(_) => return None,
    };
    Some((period.base, increment))
}

/// What going berserk costs under `control`; `None` when it cannot
/// (no initial time, or not an arena's control).
///
/// ```
/// use std::time::Duration;
/// use rochade_server::tournaments::arena::berserk::{cost, Cost};
/// let s = Duration::from_secs;
/// // 3+2: half of three minutes, and the increment.
/// assert_eq!(cost(&"3+2".parse().unwrap()), Some(Cost { penalty: s(90), increment: s(2) }));
/// // 1+2: sixty seconds are under forty increments: only the increment.
/// assert_eq!(cost(&"1+2".parse().unwrap()), Some(Cost { penalty: s(0), increment: s(2) }));
/// assert_eq!(cost(&"40/90, 30+30".parse().unwrap()), None);
/// ```
pub fn cost(control: &TimeControl) -> Option<Cost> {
    let (base, increment) = base_and_increment(control)?;
    if base.is_zero() {
        return None;
    }
    let penalty = if base < increment.saturating_mul(40) {
        Duration::ZERO
    } else {
        base / 2
    };
    Some(Cost { penalty, increment })
}

/// The player of `color` goes berserk in `record` at game time `at`:
/// the penalty off their clock now, their increment gone from then on.
///
/// # Errors
///
/// `game_over` once the game has ended; `not_allowed` in a game that is
/// not an arena's, after one's first move, a second time, or under a
/// control without initial time. Nothing changes then.
pub fn go(record: &mut Record, color: Color, at: Duration) -> Result<(), ActionError> {
    let refuse = |m: &str| Err(ActionError::new(ErrorCode::NotAllowed, m));
    if record.is_over() {
        return Err(ActionError::new(ErrorCode::GameOver, "the game is over"));
    }
    if !record.setup.tournament.as_ref().is_some_and(|t| t.arena) {
        return refuse("berserk is for the games of an arena");
    }
    if record.berserk[color] {
        return refuse("you have gone berserk already");
    }
    // White's first move is ply 1, Black's ply 2.
    let moved = record.plies.len() >= if color == Color::White { 1 } else { 2 };
    if moved {
        return refuse("berserk comes before one's first move");
    }
    let Some(cost) = cost(record.timed.clock().control()) else {
        return refuse("berserk needs a clock with initial time");
    };
    let clock = record.timed.clock_mut();
    if let Some(left) = clock.remaining(color, at) {
        clock.set_time(color, left.saturating_sub(cost.penalty), at);
    }
    record.berserk[color] = true;
    Ok(())
}

/// After a move by `mover` at `at`: a berserk player's increment taken
/// back off their clock.
pub fn after_move(record: &mut Record, mover: Color, at: Duration) {
    if !record.berserk[mover] {
        return;
    }
    let Some(cost) = cost(record.timed.clock().control()) else {
        return;
    };
    let clock = record.timed.clock_mut();
    if let Some(left) = clock.remaining(mover, at) {
        clock.set_time(mover, left.saturating_sub(cost.increment), at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Event, Timed};
    use crate::setup::{GameSetup, NewGame, Side};
    use crate::tournaments::Terms;

    /// A 10+5 game of an arena (`arena`) or of a Swiss.
    fn record(arena: bool) -> Record {
        let req: NewGame = serde_json::from_str(r#"{"opponent":"local","time_control":"10+5"}"#)
            .expect("a request");
        let mut setup = GameSetup::from_request(&req, &Default::default()).expect("a setup");
        setup.tournament = Some(Terms {
            id: "t".into(),
            name: "Arena".into(),
            director: 1,
            triple_block: false,
            draws_from_move: None,
            silence_days: None,
            round: None,
            arena,
            default_ms: None,
        });
        Record::new(setup).expect("a record")
    }

    fn at(ms: u64, event: Event) -> Timed {
        Timed { at: ms, event }
    }

    fn left(r: &Record, color: Color, ms: u64) -> u64 {
        let d = r.timed.clock().remaining(color, Duration::from_millis(ms));
        d.map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0))
    }

    #[test]
    fn berserk_halves_the_clock_and_drops_the_increment() {
        let mut r = record(true);
        r.apply(at(1_000, Event::Berserk { color: Side::Black }))
            .expect("berserk");
        assert_eq!(left(&r, Color::Black, 1_000), 300_000);
        r.apply(at(2_000, Event::Move { uci: "e2e4".into() }))
            .expect("e4");
        // White: 600 s less 2 s, plus the increment.
        assert_eq!(left(&r, Color::White, 2_000), 603_000);
        r.apply(at(5_000, Event::Move { uci: "e7e5".into() }))
            .expect("e5");
        // Black: 300 s less 3 s, no increment.
        assert_eq!(left(&r, Color::Black, 5_000), 297_000);
        assert!(r.berserk[Color::Black] && !r.berserk[Color::White]);
    }

    #[test]
    fn berserk_is_refused_after_ones_first_move_twice_or_outside_an_arena() {
        let mut r = record(true);
        r.apply(at(1_000, Event::Move { uci: "e2e4".into() }))
            .expect("e4");
        let late = r.apply(at(1_500, Event::Berserk { color: Side::White }));
        assert!(late.expect_err("too late").message.contains("first move"));
        r.apply(at(1_600, Event::Berserk { color: Side::Black }))
            .expect("Black has not moved");
        let again = r.apply(at(1_700, Event::Berserk { color: Side::Black }));
        assert!(again.expect_err("once").message.contains("already"));
        assert_eq!(r.events.len(), 2, "refusals are not recorded");
        let mut swiss = record(false);
        let e = swiss.apply(at(0, Event::Berserk { color: Side::White }));
        assert!(e.expect_err("not an arena").message.contains("arena"));
        assert_eq!(left(&swiss, Color::White, 0), 600_000);
    }
}
