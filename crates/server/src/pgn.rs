//! A game's record as PGN, with the clock after each move (`[%clk]`).

use rochade_laws::pgn::{self, Tags, WriteOptions};
use shakmaty::Color;

use crate::record::Record;

/// The PGN of `record`.
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
/// assert!(text.contains("1. e4 {[%clk 0:05:01]}"), "{text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write(record: &Record) -> String {
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
    if let Some(tc) = record.timed.clock().control().to_pgn() {
        tags.set("TimeControl", &tc);
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
    let options = WriteOptions {
        clocks: &clocks,
        ..WriteOptions::default()
    };
    pgn::write_game(game, &tags, &options)
}
