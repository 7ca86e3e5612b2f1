//! Property tests: time accounting and parse/print round trips.

use std::num::NonZeroU32;
use std::time::Duration;

use proptest::prelude::*;
use shakmaty::Color;

use super::*;

fn bonus(kind: u8, amount: Duration) -> Bonus {
    match kind % 4 {
        0 => Bonus::None,
        1 => Bonus::Increment(amount),
        2 => Bonus::Bronstein(amount),
        _ => Bonus::Delay(amount),
    }
}

/// Times in milliseconds: whole minutes, whole seconds, and fractions.
fn clock_period() -> impl Strategy<Value = (Option<u32>, u64, u8, u64)> {
    (
        proptest::option::of(1u32..120),
        prop_oneof![
            (1u64..7200).prop_map(|s| s * 1000),
            (1u64..=MAX_TIME.as_secs()).prop_map(|s| s * 1000),
            (1u64..600).prop_map(|m| m * 60_000),
            1u64..7_200_000,
        ],
        any::<u8>(),
        prop_oneof![(0u64..600).prop_map(|s| s * 1000), 0u64..600_000],
    )
}

fn day_period() -> impl Strategy<Value = (Option<u32>, u64, u8, u64)> {
    (
        proptest::option::of(1u32..50),
        (1u64..=366).prop_map(|d| d * DAY.as_secs() * 1000),
        any::<u8>(),
        (0u64..30).prop_map(|d| d * DAY.as_secs() * 1000),
    )
}

fn build(periods: Vec<(Option<u32>, u64, u8, u64)>, scale: Scale) -> TimeControl {
    let periods = periods
        .into_iter()
        .map(|(m, b, k, a)| {
            Period::new(
                m.and_then(NonZeroU32::new),
                Duration::from_millis(b),
                bonus(k, Duration::from_millis(a)),
            )
        })
        .collect();
    match TimeControl::new(periods, scale) {
        Ok(tc) => tc,
        Err(e) => panic!("strategy made an invalid control: {e}"),
    }
}

fn any_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        6 => proptest::collection::vec(clock_period(), 1..4).prop_map(|p| build(p, Scale::Clock)),
        3 => proptest::collection::vec(day_period(), 1..3).prop_map(|p| build(p, Scale::Days)),
        1 => (1u64..100_000).prop_map(|s| TimeControl::per_move(Duration::from_secs(s), Scale::Clock)
            .unwrap_or_else(|e| panic!("{e}"))),
        1 => (1u64..=366).prop_map(|d| TimeControl::per_move(Duration::from_secs(d * DAY.as_secs()), Scale::Days)
            .unwrap_or_else(|e| panic!("{e}"))),
        1 => Just(TimeControl::no_clock()),
        1 => (1u64..100_000_000).prop_map(|ms| TimeControl::sandclock(Duration::from_millis(ms))
            .unwrap_or_else(|e| panic!("{e}"))),
    ]
}

/// A small OTB control for clock runs.
fn otb_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        proptest::collection::vec(
            (
                proptest::option::of(1u32..6),
                1u64..400,
                any::<u8>(),
                0u64..20
            ),
            1..4
        )
        .prop_map(|p| build(p, Scale::Clock)),
        (1u64..100).prop_map(
            |s| TimeControl::per_move(Duration::from_secs(s), Scale::Clock)
                .unwrap_or_else(|e| panic!("{e}"))
        ),
        Just(TimeControl::no_clock()),
    ]
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Press(u64),
    Stop(u64),
    Start(u64),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    proptest::collection::vec(
        prop_oneof![
            8 => (0u64..120_000).prop_map(Op::Press),
            1 => (0u64..60_000).prop_map(Op::Stop),
            1 => (0u64..60_000).prop_map(Op::Start),
        ],
        0..80,
    )
}

fn unwrap_press(clock: &mut Clock, now: Duration) -> Press {
    clock
        .press(now)
        .unwrap_or_else(|e| panic!("press at {now:?}: {e}"))
}

proptest! {
    #[test]
    fn print_then_parse_is_identity(tc in any_control()) {
        let human = tc.to_string();
        prop_assert_eq!(TimeControl::parse(&human), Ok(tc.clone()), "auto: {}", human);
        prop_assert_eq!(TimeControl::parse_as(&human, Syntax::Human), Ok(tc.clone()), "human: {}", human);
        if let Some(pgn) = tc.to_pgn() {
            prop_assert_eq!(TimeControl::parse_as(&pgn, Syntax::Pgn), Ok(tc.clone()), "pgn: {}", pgn);
        }
    }

    #[test]
    fn parsing_any_text_never_panics(text in "\\PC{0,20}") {
        let _ = TimeControl::parse(&text);
        let _ = TimeControl::parse_as(&text, Syntax::Pgn);
    }

    #[test]
    fn parsing_clock_like_text_never_panics(text in "[-0-9/+:*?dbsmh ,]{0,16}") {
        if let Ok(tc) = TimeControl::parse(&text) {
            prop_assert_eq!(TimeControl::parse(&tc.to_string()), Ok(tc));
        }
    }

    /// The sum of the time used equals the time that passed while the clock ran.
    #[test]
    fn time_used_is_time_run(tc in otb_control(), ops in ops()) {
        let mut clock = Clock::new(tc, Duration::ZERO);
        let mut now = Duration::ZERO;
        let mut ran = Duration::ZERO;
        let mut stopped = false;
        for op in ops {
            match op {
                Op::Press(ms) => {
                    let dt = Duration::from_millis(ms);
                    now += dt;
                    if !stopped { ran += dt; }
                    if let Ok(p) = clock.press(now) {
                        prop_assert!(!stopped);
                        prop_assert!(p.elapsed <= ran);
                    }
                }
                Op::Stop(ms) => {
                    let dt = Duration::from_millis(ms);
                    now += dt;
                    if !stopped { ran += dt; }
                    clock.stop(now);
                    stopped = true;
                }
                Op::Start(ms) => {
                    let dt = Duration::from_millis(ms);
                    now += dt;
                    if !stopped { ran += dt; }
                    clock.start(now);
                    stopped = false;
                }
            }
        }
        clock.start(now);
        unwrap_press(&mut clock, now);
        prop_assert_eq!(clock.used(Color::White) + clock.used(Color::Black), ran);
    }

    /// Time left only grows by a bonus or a period transition (no arbiter here),
    /// never while a clock runs, and the waiting player's time is frozen.
    #[test]
    fn time_left_grows_only_by_bonus_or_transition(tc in otb_control(), steps in proptest::collection::vec(0u64..200_000, 1..60)) {
        let mut clock = Clock::new(tc.clone(), Duration::ZERO);
        let mut now = Duration::ZERO;
        for ms in steps {
            let mover = clock.turn();
            let waiting = !mover;
            let at_start = clock.remaining(mover, now);
            let waiting_left = clock.remaining(waiting, now);
            let period = clock.period(mover);
            let p = tc.periods().get(period).copied();
            let completes_period = clock.moves_to_go(mover) == Some(1);
            let mid = now + Duration::from_millis(ms / 2);
            now += Duration::from_millis(ms);
            prop_assert!(clock.remaining(mover, now) <= clock.remaining(mover, mid));
            prop_assert!(clock.remaining(mover, mid) <= at_start);
            prop_assert_eq!(clock.remaining(waiting, now), waiting_left);
            let press = unwrap_press(&mut clock, now);
            match (tc.limit(), at_start, press.time_left) {
                (Limit::NoClock, None, None) => {}
                (Limit::PerMove(budget), _, Some(left)) => prop_assert_eq!(left, *budget),
                (Limit::Periods(periods), Some(before), Some(after)) => {
                    let bonus = p.map_or(Duration::ZERO, |p| p.bonus.amount());
                    let transition = if completes_period {
                        periods.get(clock.period(mover)).map_or(Duration::ZERO, |p| p.base)
                    } else {
                        prop_assert_eq!(clock.period(mover), period);
                        Duration::ZERO
                    };
                    prop_assert!(after <= before + bonus + transition,
                        "after {:?} > before {:?} + bonus {:?} + transition {:?}", after, before, bonus, transition);
                    if matches!(p.map(|p| p.bonus), Some(Bonus::Delay(_)) | Some(Bonus::None)) && transition.is_zero() {
                        prop_assert!(after <= before, "a delay never adds time (FIDE 6.3.2)");
                    }
                }
                other => prop_assert!(false, "unexpected {:?}", other),
            }
        }
    }

    /// A sandclock neither makes nor loses sand: what one player uses, the
    /// other gets, and the two times always add up to the whole.
    #[test]
    fn sandclock_keeps_its_sand(total in 1u64..3600, steps in proptest::collection::vec(0u64..200_000, 1..40)) {
        let total = Duration::from_secs(total);
        let mut clock = Clock::new(TimeControl::sandclock(total).unwrap_or_else(|e| panic!("{e}")), Duration::ZERO);
        let mut now = Duration::ZERO;
        for ms in steps {
            now += Duration::from_millis(ms);
            let white = clock.remaining(Color::White, now).unwrap_or_default();
            let black = clock.remaining(Color::Black, now).unwrap_or_default();
            prop_assert_eq!(white + black, total);
            if clock.flag(now) != Flag::Up {
                prop_assert!(white.is_zero() || black.is_zero());
                break;
            }
            unwrap_press(&mut clock, now);
        }
    }
}
