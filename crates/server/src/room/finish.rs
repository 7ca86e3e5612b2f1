//! Every way the server itself ends a game, in one place: a fallen flag
//! (6.9, 6.11), a tournament game's player not come by the default time
//! (6.7.1: no first move), a friend's seat nobody took in time, a game
//! idle for too long; and when the game must next be looked at for one
//! of them (its wake time, which the scheduler keeps while no room is
//! loaded).
//!
//! Resignation (5.1.2), agreement (9.1) and the rest are the players'
//! acts: they come through [`super::act`].

use std::time::Duration;

use rochade_laws::clock::Flag;

use crate::event::{CloseReason, Event};
use crate::limits::Limits;
use crate::record::Record;
use crate::setup::Mode;

/// Milliseconds of a duration, saturating.
fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Whether the friend's seat of a friend game is still free.
fn unjoined(record: &Record) -> bool {
    record.setup.mode == Mode::Friend && !record.seated.iter().all(|s| *s)
}

/// What the server must record at game time `now`, if anything: the
/// flag, a loss by default, an expired invitation, or an idle game's
/// close.
pub fn due(record: &Record, now: u64, limits: &Limits) -> Option<Event> {
    if record.is_over() {
        return None;
    }
    let flag = record.timed.clock().flag(Duration::from_millis(now));
    // 6.9: a fallen flag; 6.11: both fallen, the last period decides.
    if matches!(
        flag,
        Flag::Fallen(_)
            | Flag::BothFallen {
                in_last_period: true
            }
    ) {
        return Some(Event::Flag);
    }
    let turn = record.turn();
    if record.first_move_due(turn).is_some_and(|due| now >= due) {
        return Some(Event::Absent { color: turn.into() });
    }
    if unjoined(record) && now >= ms(limits.friend_join) {
        return Some(Event::Close {
            reason: CloseReason::Unjoined,
        });
    }
    if !record.is_correspondence() && now >= record.last_at().saturating_add(ms(limits.idle_game)) {
        return Some(Event::Close {
            reason: CloseReason::Idle,
        });
    }
    None
}

/// When, in game time, the game must next be looked at: [`due`] has
/// something to record (the running flag falls, the invitation expires,
/// the game turns idle), the player on move reaches one of their
/// thresholds `low` (ms before their flag), or a leave begins or ends.
/// `None` once over.
pub fn deadline(record: &Record, now: u64, limits: &Limits, low: &[u64]) -> Option<u64> {
    if record.is_over() {
        return None;
    }
    let mut at = if record.is_correspondence() {
        u64::MAX
    } else {
        record.last_at().saturating_add(ms(limits.idle_game))
    };
    if unjoined(record) {
        at = at.min(ms(limits.friend_join));
    }
    if let Some(due) = record.first_move_due(record.turn()) {
        at = at.min(due);
    }
    if let Some(falls) = flag_falls_at(record.timed.clock(), now) {
        at = at.min(falls.saturating_add(1));
        // A correspondence player is told when their time runs low, at
        // each of their thresholds.
        if record.is_correspondence() {
            for threshold in low {
                let when = falls.saturating_sub(*threshold);
                if when > now {
                    at = at.min(when);
                }
            }
        }
    }
    // The opponent hears when a leave begins and ends (10.1).
    if record.is_correspondence()
        && let Some(edge) = record
            .leaves
            .iter()
            .flat_map(|(_, from, to)| [*from, *to])
            .filter(|edge| *edge > now)
            .min()
    {
        at = at.min(edge);
    }
    Some(at)
}

/// The shortest of the thresholds `low` (ms) that the time left to the
/// player on move in a correspondence game has reached at game time
/// `now`, if any.
pub fn time_low(record: &Record, now: u64, low: &[u64]) -> Option<u64> {
    if !record.is_correspondence() || record.is_over() {
        return None;
    }
    let left = flag_falls_at(record.timed.clock(), now)?.saturating_sub(now);
    low.iter().copied().filter(|t| left <= *t).min()
}

/// When, in game time, the running flag falls if nobody moves: the time
/// left now, stretched over every booked pause ahead (leave, 10.1).
/// `None` when no clock runs.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::{Clock, DAY};
/// use rochade_server::room::finish::flag_falls_at;
/// let ms = |d: Duration| d.as_millis() as u64;
/// let mut clock = Clock::new("3d/move".parse()?, Duration::ZERO);
/// assert_eq!(flag_falls_at(&clock, 0), Some(ms(3 * DAY)));
/// // Seven days of leave from the second day: the flag falls a week later.
/// clock.pause(DAY, 8 * DAY)?;
/// assert_eq!(flag_falls_at(&clock, 0), Some(ms(10 * DAY)));
/// assert_eq!(flag_falls_at(&clock, ms(2 * DAY)), Some(ms(10 * DAY)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn flag_falls_at(clock: &rochade_laws::clock::Clock, now: u64) -> Option<u64> {
    if clock.is_stopped() {
        return None;
    }
    let mut left = clock.remaining(clock.turn(), Duration::from_millis(now))?;
    let mut t = Duration::from_millis(now);
    for pause in clock.pauses() {
        if pause.to <= t {
            continue;
        }
        let from = pause.from.max(t);
        if from >= t + left {
            break;
        }
        left -= from - t;
        t = pause.to;
    }
    Some(ms(t + left))
}

/// When, in game time, the game must next be looked at with nobody in
/// its room: its [`deadline`], or now if the robot is to move.
pub fn wake_at(record: &Record, now: u64, limits: &Limits, low: &[u64]) -> Option<u64> {
    let at = deadline(record, now, limits, low)?;
    let robot_to_move =
        record.setup.robot_color() == Some(record.turn()) && !record.timed.clock().is_stopped();
    Some(if robot_to_move { at.min(now) } else { at })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Timed;

    use crate::record::test_record as record;

    #[test]
    fn art_6_9_the_flag_is_due_when_the_time_is_up() {
        let r = record(r#"{"opponent":"local","time_control":"1+0"}"#);
        let limits = Limits::default();
        assert_eq!(wake_at(&r, 0, &limits, &[]), Some(60_001));
        assert_eq!(due(&r, 59_999, &limits), None);
        assert_eq!(due(&r, 60_000, &limits), Some(Event::Flag));
    }

    #[test]
    fn an_unjoined_friend_game_closes_after_the_join_time() {
        let r = record(r#"{"opponent":"friend","color":"white","time_control":"5+3"}"#);
        let limits = Limits {
            friend_join: Duration::from_secs(3600),
            ..Limits::default()
        };
        assert_eq!(wake_at(&r, 0, &limits, &[]), Some(3_600_000));
        assert_eq!(due(&r, 3_599_999, &limits), None);
        assert_eq!(
            due(&r, 3_600_000, &limits),
            Some(Event::Close {
                reason: CloseReason::Unjoined
            })
        );
    }

    #[test]
    fn an_untimed_game_closes_once_idle() {
        let mut r = record(r#"{"opponent":"local","time_control":"-"}"#);
        let limits = Limits::default();
        let idle = ms(limits.idle_game);
        r.apply(Timed {
            at: 5_000,
            event: Event::Move { uci: "e2e4".into() },
        })
        .expect("legal");
        assert_eq!(wake_at(&r, 5_000, &limits, &[]), Some(5_000 + idle));
        assert_eq!(due(&r, 4_999 + idle, &limits), None);
        assert!(matches!(
            due(&r, 5_000 + idle, &limits),
            Some(Event::Close {
                reason: CloseReason::Idle
            })
        ));
    }

    /// A game of a tournament whose default time is `default_ms`, at
    /// `control`.
    fn tournament_game(default_ms: Option<u64>, control: &str) -> Record {
        let mut r = record(&format!(
            r#"{{"opponent":"local","time_control":"{control}"}}"#
        ));
        r.setup.tournament = Some(crate::tournaments::Terms {
            id: "t".into(),
            name: "Club Swiss".into(),
            director: 1,
            triple_block: false,
            draws_from_move: None,
            silence_days: None,
            round: Some("1".into()),
            arena: false,
            default_ms,
        });
        r
    }

    #[test]
    fn art_6_7_1_white_not_come_by_the_default_time_loses_by_default() {
        let mut r = tournament_game(Some(60_000), "10+5");
        let limits = Limits::default();
        assert_eq!(wake_at(&r, 0, &limits, &[]), Some(60_000));
        assert_eq!(due(&r, 59_999, &limits), None);
        let absent = Event::Absent {
            color: crate::setup::Side::White,
        };
        assert_eq!(due(&r, 60_000, &limits), Some(absent.clone()));
        r.apply(Timed {
            at: 60_000,
            event: absent,
        })
        .expect("recorded");
        let outcome = r.timed.game().outcome().expect("over");
        assert_eq!(outcome.result.as_str(), "0-1");
        assert_eq!(outcome.reason.as_str(), "forfeit");
        assert_eq!(due(&r, 90_000, &limits), None);
    }

    #[test]
    fn art_6_7_1_black_has_the_default_time_from_whites_first_move() {
        let mut r = tournament_game(Some(60_000), "10+5");
        let limits = Limits::default();
        let play = |r: &mut Record, at: u64, uci: &str| {
            r.apply(Timed {
                at,
                event: Event::Move { uci: uci.into() },
            })
            .expect("legal");
        };
        play(&mut r, 50_000, "e2e4");
        assert_eq!(wake_at(&r, 50_000, &limits, &[]), Some(110_000));
        assert_eq!(due(&r, 109_999, &limits), None);
        assert_eq!(
            due(&r, 110_000, &limits),
            Some(Event::Absent {
                color: crate::setup::Side::Black
            })
        );
        // Once both have moved, only the clock decides.
        play(&mut r, 100_000, "e7e5");
        assert_eq!(due(&r, 200_000, &limits), None);
        let refused = r.apply(Timed {
            at: 200_000,
            event: Event::Absent {
                color: crate::setup::Side::White,
            },
        });
        assert!(refused.is_err(), "{refused:?}");
    }

    #[test]
    fn art_6_7_1_the_default_time_waits_while_the_director_holds_the_clocks() {
        use crate::director::Act;
        let mut r = tournament_game(Some(60_000), "10+5");
        let limits = Limits::default();
        let decide = |r: &mut Record, at: u64, decision: Act| {
            r.apply(Timed {
                at,
                event: Event::Decide {
                    decision,
                    by: "Arbiter".into(),
                    reason: "a pairing to check".into(),
                },
            })
            .expect("decided");
        };
        decide(&mut r, 30_000, Act::StopClocks);
        assert_eq!(due(&r, 120_000, &limits), None, "6.10: held");
        decide(&mut r, 600_000, Act::StartClocks);
        // 30 s were used before the hold: 30 s are left after it.
        assert_eq!(wake_at(&r, 600_000, &limits, &[]), Some(630_000));
        assert_eq!(due(&r, 629_999, &limits), None);
        assert!(matches!(
            due(&r, 630_000, &limits),
            Some(Event::Absent { .. })
        ));
    }

    #[test]
    fn art_6_7_1_without_a_default_time_or_by_correspondence_the_clock_decides() {
        let limits = Limits::default();
        for r in [
            tournament_game(None, "10+5"),
            tournament_game(Some(60_000), "3d/move"),
            record(r#"{"opponent":"local","time_control":"10+5"}"#),
        ] {
            assert_eq!(due(&r, 60_000, &limits), None);
            assert_ne!(wake_at(&r, 0, &limits, &[]), Some(60_000));
        }
    }

    #[test]
    fn the_robot_on_move_wants_a_room_now() {
        let r = record(r#"{"opponent":"robot","color":"black","time_control":"-"}"#);
        assert_eq!(wake_at(&r, 700, &Limits::default(), &[]), Some(700));
    }
}
