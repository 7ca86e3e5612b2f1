//! Scenario tests with injected time, each naming its article.

use std::time::Duration;

use shakmaty::Color::{Black, White};

use super::*;
use crate::rules::RuleSet;

fn s(secs: u64) -> Duration {
    Duration::from_secs(secs)
}

fn min(m: u64) -> Duration {
    Duration::from_secs(60 * m)
}

fn tc(text: &str) -> TimeControl {
    match TimeControl::parse(text) {
        Ok(tc) => tc,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn press(clock: &mut Clock, now: Duration) -> Press {
    match clock.press(now) {
        Ok(p) => p,
        Err(e) => panic!("press at {now:?}: {e}"),
    }
}

// ---------- parsing and printing ----------

#[test]
fn human_forms() {
    // FIDE 6.3.1: the controls must be specified in advance; these are the usual ways.
    for (text, normal, pgn) in [
        ("5+3", "5+3", Some("300+3")),
        ("3+2", "3+2", Some("180+2")),
        ("15+10", "15+10", Some("900+10")),
        ("90+30", "90+30", Some("5400+30")),
        (
            "40/90+30, 30+30",
            "40/90+30, 30+30",
            Some("40/5400+30:1800+30"),
        ),
        (
            "40/120, 20/60, 30",
            "40/120, 20/60, 30",
            Some("40/7200:20/3600:1800"),
        ),
        ("5 d3", "5 d3", None),
        ("60 b10", "60 b10", None),
        ("30s+1", "30s+1", Some("30+1")),
        ("1h+30s", "60+30", Some("3600+30")),
        ("4h", "4h", Some("14400")),
        ("200m+30", "200m+30", Some("12000+30")),
    ] {
        let t = tc(text);
        assert_eq!(t.to_string(), normal, "{text}");
        assert_eq!(t.to_pgn().as_deref(), pgn, "{text}");
    }
}

#[test]
fn pgn_forms() {
    // PGN standard 9.6.1
    assert_eq!(tc("300+3"), tc("5+3"));
    assert_eq!(tc("40/5400+30:1800+30"), tc("40/90+30, 30+30"));
    assert_eq!(tc("-"), TimeControl::no_clock());
    assert_eq!(TimeControl::parse("?"), Err(TimeControlError::Unknown));
    let sand = tc("*180");
    assert_eq!(
        sand,
        TimeControl::sandclock(Duration::from_secs(180)).expect("valid")
    );
    assert_eq!(sand.to_pgn().as_deref(), Some("*180"));
    assert_eq!(sand.to_string(), "sandclock 3");
    assert_eq!(tc("hourglass 3"), sand);
    assert_eq!(tc("sandclock 90s").to_pgn().as_deref(), Some("*90"));
    // A bare `*` names no time; `*0` and `*-5` hold no sand.
    for bad in ["*", "*0", "*-5", "*x", "sandclock", "sandclock 3d"] {
        assert!(TimeControl::parse(bad).is_err(), "{bad}");
    }
    // PGN `40/9000`: 40 moves in 9000 s, repeating.
    let t = TimeControl::parse_as("40/9000", Syntax::Pgn).expect("valid");
    assert!(t.repeats());
    assert_eq!(t.to_pgn().as_deref(), Some("40/9000"));
}

#[test]
fn correspondence_forms() {
    // ICCF: 10 moves in 50 days, Fischer in days, days per move.
    let t = tc("10/50d");
    assert_eq!(t.scale(), Scale::Days);
    assert_eq!(t.periods()[0].base, 50 * DAY);
    assert_eq!(t.to_string(), "10/50d");
    assert_eq!(t.to_pgn(), None);
    let t = tc("30d+1d");
    assert_eq!(t.periods()[0].bonus, Bonus::Increment(DAY));
    assert_eq!(t.to_string(), "30d+1d");
    let t = tc("3d/move");
    assert_eq!(t.limit(), &Limit::PerMove(3 * DAY));
    assert_eq!(t.to_string(), "3d/move");
    assert_eq!(tc("30d+0").to_string(), "30d+0d");
    assert!(matches!(
        TimeControl::parse("30d+30"),
        Err(TimeControlError::MixedUnits { .. })
    ));
}

#[test]
fn rejected_forms_say_what_is_wrong() {
    assert_eq!(
        TimeControl::parse("40/0"),
        Err(TimeControlError::ZeroBase { period: 1 })
    );
    assert!(matches!(
        TimeControl::parse("-5+3"),
        Err(TimeControlError::Negative { .. })
    ));
    assert!(matches!(
        TimeControl::parse("abc"),
        Err(TimeControlError::Syntax { .. })
    ));
    assert!(matches!(
        TimeControl::parse("5+"),
        Err(TimeControlError::Syntax { .. })
    ));
    assert!(matches!(
        TimeControl::parse("367d"),
        Err(TimeControlError::TooLong { .. })
    ));
    assert!(matches!(
        TimeControl::parse("0/90"),
        Err(TimeControlError::MoveCount { .. })
    ));
    assert!(matches!(
        TimeControl::parse("99999999999999999999999+3"),
        Err(TimeControlError::Syntax { .. })
    ));
    assert_eq!(TimeControl::parse("  "), Err(TimeControlError::Empty));
    assert!(TimeControl::parse("40/90+30,").is_err());
    assert!(TimeControl::parse("5 x3").is_err());
    assert!(TimeControl::parse("366d").is_ok());
}

#[test]
fn categories() {
    use Category::*;
    // FIDE B.1: 10 minutes or less, counting base + 60 × increment.
    assert_eq!(tc("5+3").category(RuleSet::Fide), Blitz);
    assert_eq!(tc("10+0").category(RuleSet::Fide), Blitz);
    assert_eq!(tc("3+2").category(RuleSet::Fide), Blitz);
    // FIDE A.1: more than 10 and less than 60 minutes.
    assert_eq!(tc("10+1").category(RuleSet::Fide), Rapid);
    assert_eq!(tc("15+10").category(RuleSet::Fide), Rapid);
    assert_eq!(tc("59+0").category(RuleSet::Fide), Rapid);
    // Standard: 60 minutes or more.
    assert_eq!(tc("60+0").category(RuleSet::Fide), Standard);
    assert_eq!(tc("90+30").category(RuleSet::Fide), Standard);
    assert_eq!(tc("40/90+30, 30+30").category(RuleSet::Fide), Standard);
    // FIDE 2009 B1: blitz less than 15 minutes; A1: rapid 15 to less than 60.
    assert_eq!(tc("14+0").category(RuleSet::Fide2009), Blitz);
    assert_eq!(tc("10+0").category(RuleSet::Fide2009), Blitz);
    assert_eq!(tc("15+0").category(RuleSet::Fide2009), Rapid);
    assert_eq!(tc("11+0").category(RuleSet::Fide), Rapid);
    assert_eq!(tc("60+0").category(RuleSet::Fide2009), Standard);
    // Day-based controls are correspondence.
    assert_eq!(tc("10/50d").category(RuleSet::Fide), Correspondence);
    assert_eq!(tc("3d/move").category(RuleSet::Iccf), Correspondence);
    assert_eq!(TimeControl::no_clock().category(RuleSet::Fide), Standard);
}

// ---------- the clock ----------

#[test]
fn only_one_clock_runs_and_white_starts() {
    // FIDE 6.1 and 6.6
    let mut c = Clock::new(tc("5+0"), s(100));
    assert_eq!(c.remaining(White, s(110)), Some(s(290)));
    assert_eq!(c.remaining(Black, s(110)), Some(s(300)));
    press(&mut c, s(110));
    assert_eq!(c.remaining(White, s(150)), Some(s(290)));
    assert_eq!(c.remaining(Black, s(150)), Some(s(260)));
}

#[test]
fn a_delay_never_adds_time() {
    // FIDE 6.3.2: in delay mode the main time does not change if the player
    // presses before the delay has passed, however much of it was used.
    let mut c = Clock::new(tc("5 d3"), s(0));
    let p = press(&mut c, s(1));
    assert_eq!(p.time_left, Some(min(5)));
    assert_eq!(p.elapsed, s(1));
    press(&mut c, s(2)); // Black
    let p = press(&mut c, s(10)); // White used 8 s: 5 over the delay
    assert_eq!(p.time_left, Some(min(5) - s(5)));
    for now in 10..20 {
        assert!(c.remaining(Black, s(now)) <= Some(min(5)));
    }
}

#[test]
fn bronstein_gives_back_at_most_the_delay() {
    // FIDE 6.3.2 (Bronstein mode, glossary): the time used, up to the delay, is given back.
    let mut c = Clock::new(tc("60 b10"), s(0));
    assert_eq!(press(&mut c, s(4)).time_left, Some(min(60)));
    assert_eq!(press(&mut c, s(34)).time_left, Some(min(60) - s(20)));
    // The running clock shows the time without the give-back until the press.
    assert_eq!(c.remaining(White, s(39)), Some(min(60) - s(5)));
}

#[test]
fn fischer_increment_is_added_after_each_move() {
    // FIDE 6.3.1: an increment for each move.
    let mut c = Clock::new(tc("3+2"), s(0));
    assert_eq!(press(&mut c, s(10)).time_left, Some(s(172)));
}

#[test]
fn the_bonus_is_the_current_periods() {
    // FIDE 6.3.1, 6.3.2: each period has its own bonus, of any kind.
    for (text, bonus) in [
        ("3+2", s(2)),
        ("60 b10", s(10)),
        ("5 d3", s(3)),
        ("5+0", s(0)),
        ("30s/move", s(0)),
        ("*180", s(0)),
        ("-", s(0)),
    ] {
        let c = Clock::new(tc(text), s(0));
        assert_eq!((c.bonus(White), c.bonus(Black)), (bonus, bonus), "{text}");
    }
    let mut c = Clock::new(tc("2/90, 30+30"), s(0));
    for (now, white, black) in [(1, 0, 0), (2, 0, 0), (3, 30, 0), (4, 30, 30), (5, 30, 30)] {
        press(&mut c, s(now));
        assert_eq!(
            (c.bonus(White), c.bonus(Black)),
            (s(white), s(black)),
            "{now}"
        );
    }
}

#[test]
fn at_move_40_the_next_period_is_added_and_saved_time_kept() {
    // FIDE 6.3.2: time saved in one period is added to the next.
    let mut c = Clock::new(tc("40/90+30, 30+30"), s(0));
    let mut now = s(0);
    for _ in 0..39 {
        now += s(60);
        press(&mut c, now); // White, 60 s a move
        now += s(30);
        press(&mut c, now); // Black, 30 s a move
    }
    // White's 40th move.
    now += s(60);
    let p = press(&mut c, now);
    assert_eq!(p.moves, 40);
    // 90 min - 40 × 60 s + 40 × 30 s + 30 min
    assert_eq!(p.time_left, Some(min(90) - min(40) + min(20) + min(30)));
    assert_eq!(c.period(White), 1);
    assert!(c.is_last_period(White));
    assert_eq!(c.period(Black), 0);
    assert!(!c.is_last_period(Black));
}

#[test]
fn three_period_control_adds_each_period() {
    // FIDE 6.3.2: "40/120, 20/60, 30".
    let mut c = Clock::new(tc("40/120, 20/60, 30"), s(0));
    let mut now = s(0);
    for _ in 0..60 {
        now += s(10);
        press(&mut c, now);
        now += s(10);
        press(&mut c, now);
    }
    assert_eq!(
        c.remaining(White, now),
        Some(min(120) + min(60) + min(30) - s(600))
    );
    assert_eq!(c.period(White), 2);
    assert!(c.is_last_period(White));
}

#[test]
fn flag_falls_when_time_reaches_zero() {
    // FIDE 6.8: the flag is fallen when observed; `flag(now)` is the observation.
    let mut c = Clock::new(tc("1+0"), s(0));
    press(&mut c, s(30));
    assert_eq!(c.flag(s(89)), Flag::Up);
    assert_eq!(c.flag(s(90)), Flag::Fallen(Black));
    // With a delay, the flag falls only after delay + time.
    let c = Clock::new(tc("1 d5"), s(0));
    assert_eq!(c.flag(s(64)), Flag::Up);
    assert_eq!(c.flag(s(65)), Flag::Fallen(White));
}

#[test]
fn both_flags_in_the_last_period_is_a_draw() {
    // FIDE 6.11: both flags fallen in the last period is a draw.
    let mut c = Clock::new(tc("1+0"), s(0));
    press(&mut c, s(61)); // White's flag fell at 60 s
    assert_eq!(c.flag(s(62)), Flag::Fallen(White));
    assert_eq!(
        c.flag(s(200)),
        Flag::BothFallen {
            in_last_period: true
        }
    );
}

#[test]
fn both_flags_in_an_earlier_period_the_game_goes_on() {
    // FIDE 6.11.1: both flags fallen in a period that is not the last: the game goes on.
    let mut c = Clock::new(tc("2/1, 30"), s(0));
    press(&mut c, s(61)); // White's flag falls in period 1, move 1
    assert_eq!(
        c.flag(s(200)),
        Flag::BothFallen {
            in_last_period: false
        }
    );
    // The game goes on: White's second move completes period 1 and brings period 2.
    press(&mut c, s(200)); // Black, flag fallen
    let p = press(&mut c, s(210));
    assert_eq!(p.time_left, Some(min(30)));
    assert!(c.is_last_period(White));
}

#[test]
fn the_arbiters_stop_freezes_both_clocks() {
    // FIDE 6.12.1: the arbiter stops the clocks; 6.12.3: and decides when play resumes.
    let mut c = Clock::new(tc("5+3"), s(0));
    press(&mut c, s(10));
    c.stop(s(20));
    for now in [20, 100, 10_000] {
        assert_eq!(c.remaining(White, s(now)), Some(s(293)));
        assert_eq!(c.remaining(Black, s(now)), Some(s(290)));
        assert_eq!(c.flag(s(now)), Flag::Up);
    }
    assert_eq!(c.press(s(30)), Err(ClockError::Stopped));
    c.start(s(10_000));
    assert_eq!(c.remaining(Black, s(10_005)), Some(s(285)));
    let p = press(&mut c, s(10_005));
    assert_eq!(p.elapsed, s(15));
}

#[test]
fn arbiter_adjusts_times_and_the_move_counter() {
    // FIDE 6.10.2: the arbiter adjusts times and the move counter.
    let mut c = Clock::new(tc("40/90+30, 30+30"), s(0));
    c.stop(s(100));
    c.set_time(White, min(50), s(100));
    c.set_moves(White, 39);
    c.start(s(200));
    let p = press(&mut c, s(260));
    assert_eq!(p.moves, 40);
    assert_eq!(p.time_left, Some(min(50) - s(60) + s(30) + min(30)));
    // Penalty: two minutes to the opponent (FIDE 7.5.5), one in blitz.
    c.add_time(White, penalty_time(Category::Standard), s(270));
    assert_eq!(c.remaining(White, s(270)), p.time_left.map(|t| t + min(2)));
    // Giving time to the running player.
    let before = c.remaining(Black, s(300));
    c.add_time(Black, penalty_time(Category::Blitz), s(300));
    assert_eq!(c.remaining(Black, s(300)), before.map(|t| t + min(1)));
}

#[test]
fn arbiter_time_raises_a_fallen_flag() {
    // FIDE 6.10.2
    let mut c = Clock::new(tc("1+0"), s(0));
    assert_eq!(c.flag(s(70)), Flag::Fallen(White));
    c.stop(s(70));
    c.set_time(White, s(30), s(70));
    assert_eq!(c.flag(s(70)), Flag::Up);
}

#[test]
fn fixed_time_per_move_does_not_carry() {
    // Fixed time per move: unused time is lost.
    let mut c = Clock::new(tc("30s/move"), s(0));
    assert_eq!(press(&mut c, s(5)).time_left, Some(s(30)));
    assert_eq!(c.remaining(White, s(5)), Some(s(30)));
    assert_eq!(c.flag(s(34)), Flag::Up);
    assert_eq!(c.flag(s(35)), Flag::Fallen(Black));
}

#[test]
fn no_clock_never_flags() {
    let mut c = Clock::new(TimeControl::no_clock(), s(0));
    let p = press(&mut c, s(1_000_000));
    assert_eq!(p.time_left, None);
    assert_eq!(p.elapsed, s(1_000_000));
    assert_eq!(c.flag(Duration::MAX), Flag::Up);
}

#[test]
fn correspondence_moves_per_period_carry_forward() {
    // ICCF: 10 moves in 50 days, time saved carried forward; the period repeats.
    let mut c = Clock::new(tc("10/50d"), s(0));
    let mut now = Duration::ZERO;
    for _ in 0..10 {
        now += DAY;
        press(&mut c, now);
        now += 2 * DAY;
        press(&mut c, now);
    }
    assert_eq!(
        c.remaining(White, now),
        Some(50 * DAY - 10 * DAY + 50 * DAY)
    );
    assert_eq!(
        c.remaining(Black, now),
        Some(50 * DAY - 20 * DAY + 50 * DAY)
    );
    assert!(!c.is_last_period(White));
}

#[test]
fn leave_stops_both_clocks() {
    // ICCF 10.1: during leave both clocks are stopped.
    let mut c = Clock::new(tc("10/50d"), s(0));
    c.pause(2 * DAY, 5 * DAY).expect("valid pause");
    c.pause(4 * DAY, 6 * DAY).expect("valid pause"); // merged: days 2 to 6
    assert_eq!(c.pauses().len(), 1);
    let p = press(&mut c, 7 * DAY);
    assert_eq!(p.elapsed, 3 * DAY);
    assert!(c.pauses().is_empty(), "leave that is over is dropped");
    assert_eq!(c.pause(DAY, DAY), Err(ClockError::EmptyPause));
}

#[test]
fn time_going_backwards_does_not_panic() {
    let mut c = Clock::new(tc("5+3"), s(100));
    let p = press(&mut c, s(50));
    assert_eq!(p.elapsed, Duration::ZERO);
    assert_eq!(c.remaining(Black, s(0)), Some(s(300)));
    assert_eq!(c.flag(Duration::MAX), Flag::Fallen(Black));
}

#[test]
fn sandclock_time_flows_to_the_opponent() {
    // PGN standard 9.6.1: `*180`, a sandclock with 180 s in all.
    let s = Duration::from_secs;
    let mut clock = Clock::new(tc("*180"), s(0));
    assert_eq!(clock.remaining(White, s(0)), Some(s(90)));
    assert_eq!(clock.remaining(Black, s(0)), Some(s(90)));
    // While White thinks, the sand runs to Black's side.
    assert_eq!(clock.remaining(Black, s(30)), Some(s(120)));
    clock.press(s(30)).expect("running");
    assert_eq!(clock.remaining(White, s(30)), Some(s(60)));
    clock.press(s(130)).expect("running");
    assert_eq!(clock.remaining(Black, s(130)), Some(s(20)));
    assert_eq!(clock.remaining(White, s(130)), Some(s(160)));
    // White's side runs empty: the flag falls (6.8), and it is the last period.
    assert_eq!(clock.flag(s(289)), Flag::Up);
    assert_eq!(clock.flag(s(290)), Flag::Fallen(White));
    assert_eq!(clock.remaining(Black, s(400)), Some(s(180)));
}

#[test]
fn fractions_of_a_second() {
    // Engine matches are played at "10+0.1": 10 s and 0.1 s a move.
    let ms = Duration::from_millis;
    let t = TimeControl::parse_as("10+0.1", Syntax::Pgn).expect("valid");
    assert_eq!(
        t,
        TimeControl::sudden_death(ms(10_000), Bonus::Increment(ms(100))).expect("valid")
    );
    assert_eq!(t.to_pgn().as_deref(), Some("10+0.1"));
    assert_eq!(t.to_string(), "10s+0.1");
    assert_eq!(tc("10s+0.1"), t);
    assert_eq!(tc("1.5+0.25").periods()[0].base, ms(90_000));
    assert_eq!(tc("1.5+0.25").to_string(), "90s+0.25");
    assert_eq!(tc("300+0.5").to_pgn().as_deref(), Some("300+0.5"));
    assert_eq!(tc("*90.5").to_pgn().as_deref(), Some("*90.5"));
    for bad in ["5+0.0001", "5+0.", "5+.5.5", "0.0001s+0", "10/50.5d"] {
        assert!(TimeControl::parse(bad).is_err(), "{bad}");
    }
}
