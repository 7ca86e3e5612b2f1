//! `rochade timecontrol CONTROL`: read a time control and describe it as JSON.

use std::time::Duration;

use anyhow::Context as _;
use clap::ValueEnum;
use rochade_laws::clock::{Bonus, Limit, Syntax, TimeControl};
use rochade_laws::rules::RuleSet;
use serde::Serialize;

/// Arguments of `rochade timecontrol`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The time control: `5+3`, `40/90+30, 30+30`, `5 d3`, `60 b10`, PGN
    /// `300+3` or `40/5400+30:1800+30` or `-`, ICCF `10/50d`, `30d+1d`, `3d/move`.
    #[arg(allow_hyphen_values = true)]
    control: String,
    /// The rule set that decides the category.
    #[arg(long, default_value = "fide")]
    rules: RuleSet,
    /// How to read CONTROL (auto: PGN for `-`, `:` or a first base of 180 or more, else human).
    #[arg(long, value_enum, default_value_t = SyntaxArg::Auto)]
    syntax: SyntaxArg,
}

/// The `--syntax` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SyntaxArg {
    /// Guess.
    Auto,
    /// Human and correspondence forms.
    Human,
    /// The PGN `TimeControl` tag.
    Pgn,
}

impl From<SyntaxArg> for Syntax {
    fn from(s: SyntaxArg) -> Self {
        match s {
            SyntaxArg::Auto => Syntax::Auto,
            SyntaxArg::Human => Syntax::Human,
            SyntaxArg::Pgn => Syntax::Pgn,
        }
    }
}

/// A time in JSON: whole seconds as an integer, otherwise seconds with
/// the milliseconds as decimals (`0.1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seconds(Duration);

impl Serialize for Seconds {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.subsec_millis() == 0 {
            serializer.serialize_u64(self.0.as_secs())
        } else {
            serializer.serialize_f64(self.0.as_secs_f64())
        }
    }
}

/// The JSON printed.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Report {
    /// The normalized human (or correspondence) form.
    normalized: String,
    /// The PGN tag, or null when there is none (correspondence, delays, time per move).
    pgn: Option<String>,
    /// blitz, rapid, standard or correspondence.
    category: &'static str,
    /// The rule set used for the category.
    rules: &'static str,
    /// periods, per_move, sandclock or no_clock.
    kind: &'static str,
    /// The budget of each move, for fixed time per move.
    per_move_seconds: Option<Seconds>,
    /// The time in the sandclock, both sides together.
    sandclock_seconds: Option<Seconds>,
    /// The periods in order.
    periods: Vec<PeriodReport>,
}

/// One period in the JSON.
#[derive(Debug, Serialize, PartialEq, Eq)]
struct PeriodReport {
    /// Moves to make in the period; null for the rest of the game.
    moves: Option<u32>,
    /// Time added when the period begins.
    base_seconds: Seconds,
    /// none, increment, bronstein or delay.
    bonus: &'static str,
    /// The bonus per move.
    bonus_seconds: Seconds,
}

/// Describe a time control.
pub fn report(control: &str, rules: RuleSet, syntax: Syntax) -> anyhow::Result<Report> {
    let tc = TimeControl::parse_as(control, syntax)
        .with_context(|| format!("invalid time control `{control}`"))?;
    let (kind, per_move_seconds, sandclock_seconds) = match tc.limit() {
        Limit::Periods(_) => ("periods", None, None),
        Limit::PerMove(budget) => ("per_move", Some(Seconds(*budget)), None),
        Limit::Sandclock(total) => ("sandclock", None, Some(Seconds(*total))),
        Limit::NoClock => ("no_clock", None, None),
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
                base_seconds: Seconds(p.base),
                bonus,
                bonus_seconds: Seconds(p.bonus.amount()),
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
        sandclock_seconds,
        periods,
    })
}

/// Run the subcommand: print one JSON object on stdout.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let report = report(&args.control, args.rules, args.syntax.into())?;
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(control: &str, rules: RuleSet) -> serde_json::Value {
        let r = report(control, rules, Syntax::Auto).expect("valid");
        serde_json::to_value(r).expect("serializable")
    }

    #[test]
    fn multi_period() {
        let v = json("40/90+30, 30+30", RuleSet::Fide);
        assert_eq!(v["normalized"], "40/90+30, 30+30");
        assert_eq!(v["pgn"], "40/5400+30:1800+30");
        assert_eq!(v["category"], "standard");
        assert_eq!(v["periods"][0]["moves"], 40);
        assert_eq!(v["periods"][0]["base_seconds"], 5400);
        assert_eq!(v["periods"][0]["bonus"], "increment");
        assert_eq!(v["periods"][1]["moves"], serde_json::Value::Null);
    }

    #[test]
    fn correspondence_has_no_pgn() {
        let v = json("10/50d", RuleSet::Iccf);
        assert_eq!(v["pgn"], serde_json::Value::Null);
        assert_eq!(v["category"], "correspondence");
        let v = json("3d/move", RuleSet::Iccf);
        assert_eq!(v["kind"], "per_move");
        assert_eq!(v["per_move_seconds"], 3 * 86_400);
    }

    #[test]
    fn rules_change_the_category() {
        // FIDE B.1 vs FIDE 2009 B1
        assert_eq!(json("12+0", RuleSet::Fide)["category"], "rapid");
        assert_eq!(json("12+0", RuleSet::Fide2009)["category"], "blitz");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        for (bad, says) in [
            ("40/0", "no time"),
            ("-5+3", "negative"),
            ("abc", "cannot read"),
            ("5+", "increment"),
            ("400d", "longer than a year"),
        ] {
            let err = report(bad, RuleSet::Fide, Syntax::Auto).expect_err(bad);
            let text = format!("{err:#}");
            assert!(text.contains(says), "{bad}: {text}");
        }
    }
}
