//! A game's record as PGN, with the clock after each move (`[%clk]`) and
//! the time each move took (`[%emt]`, ICCF 8.1.3), draw offers as `(=)`
//! (8.1.4); in ICCF numeric notation (A.18) on request.

use rochade_laws::pgn::{self, Tags, WriteOptions};
use shakmaty::Color;

use crate::record::Record;

/// The PGN of `record`, moves in SAN.
///
/// # Examples
///
/// ```
/// use rochade_server::event::{Event, Timed};
/// use rochade_server::record::Record;
/// use rochade_server::setup::{GameSetup, NewGame};
///
/// let req: NewGame = serde_json::from_str(r#"{"opponent":"local","time_control":"5+3"}"#)?;
/// let mut record = Record::new(GameSetup::from_request(&req, &Default::default())?)?;
/// record.apply(Timed { at: 2000, event: Event::Move { uci: "e2e4".into() } })?;
/// let text = rochade_server::pgn::write(&record);
/// assert!(text.contains("[TimeControl \"300+3\"]"));
/// assert!(text.contains("1. e4 {[%clk 0:05:01] [%emt 0:00:02]}"), "{text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write(record: &Record) -> String {
    write_in(record, false)
}

/// The record of `record`, moves in ICCF numeric notation when `numeric`
/// (a correspondence player's record, not for PGN readers), else SAN.
///
/// # Examples
///
/// ```
/// use rochade_server::event::{Event, Timed};
/// use rochade_server::record::Record;
/// use rochade_server::setup::{GameSetup, NewGame};
///
/// let req: NewGame = serde_json::from_str(r#"{"opponent":"local","time_control":"10/40d"}"#)?;
/// let mut record = Record::new(GameSetup::from_request(&req, &Default::default())?)?;
/// record.apply(Timed { at: 7_200_000, event: Event::Move { uci: "e2e4".into() } })?;
/// let text = rochade_server::pgn::write_in(&record, true);
/// assert!(text.contains("[TimeControl \"10/40d\"]"), "{text}");
/// assert!(text.contains("1. 5254 {[%clk 958:00:00] [%emt 2:00:00]}"), "{text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_in(record: &Record, numeric: bool) -> String {
    let game = record.timed.game();
    let setup = &record.setup;
    let mut tags = Tags::new();
    tags.set("Event", "Rochade game");
    tags.set("Site", &format!("/g/{}", setup.id));
    let name = |color: Color| match (setup.player(color), setup.robot) {
        (Some(player), _) => player.name.clone(),
        (None, Some((level, side))) if Color::from(side) == color => {
            format!("Rochade robot level {level}")
        }
        _ => format!("{color}"),
    };
    tags.set("White", &name(Color::White));
    tags.set("Black", &name(Color::Black));
    for (color, elo, title) in [
        (Color::White, "WhiteElo", "WhiteTitle"),
        (Color::Black, "BlackElo", "BlackTitle"),
    ] {
        if let Some(player) = setup.player(color) {
            if let Some(rating) = player.rating {
                tags.set(elo, &rating.rating.to_string());
            }
            if player.bot {
                tags.set(title, "BOT");
            }
        }
    }
    if setup.rated {
        tags.set("Event", "Rated Rochade game");
    }
    let control = record.timed.clock().control();
    if let Some(tc) = control.to_pgn() {
        tags.set("TimeControl", &tc);
    } else if record.is_correspondence() {
        // Days, as correspondence players write them (ICCF's `10/40d`).
        tags.set("TimeControl", &control.to_string());
    }
    if record.aborted {
        tags.set("Result", "*");
        let why = record.closed.map_or("aborted", |c| match c {
            crate::event::CloseReason::Unjoined => "aborted: nobody took the second seat",
            crate::event::CloseReason::Idle => "abandoned: idle for too long",
        });
        tags.set("Annotator", why);
    }
    let clocks = record.timed.clock_times();
    let elapsed = record.timed.elapsed_times();
    let options = WriteOptions {
        clocks: &clocks,
        elapsed: &elapsed,
        numeric,
        ..WriteOptions::default()
    };
    pgn::write_game(game, &tags, &options)
}
