//! A game's record as PGN, with the clock after each move (`[%clk]`) and
//! the time each move took (`[%emt]`, ICCF 8.1.3), draw offers as `(=)`
//! (8.1.4); in ICCF numeric notation (A.18) on request. A correspondence
//! game under ICCF rules is written as the ICCF webserver writes its
//! games: the tournament as `Event`, `Round "-"`, the start as `Date`, and
//! each move's sending time as `[%ccsnt YYYY.MM.DD,HH:MM]` (UTC).

use rochade_laws::RuleSet;
use rochade_laws::pgn::{self, MoveNode, Tags, WriteOptions, pgn_date};
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
    write_in(record, false, None)
}

/// The record of `record`, moves in ICCF numeric notation when `numeric`
/// (a correspondence player's record, not for PGN readers), else SAN;
/// `epoch` (the server time at which the game's time line began, Unix ms)
/// dates the game and, under ICCF rules, each move.
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
/// let text = rochade_server::pgn::write_in(&record, true, Some(1_554_240_000_000));
/// assert!(text.contains("[TimeControl \"10/40d\"]"), "{text}");
/// assert!(text.contains("[Date \"2019.04.02\"]"), "{text}");
/// assert!(text.contains("[Round \"-\"]"), "{text}");
/// assert!(
///     text.contains("1. 5254 {[%clk 958:00:00] [%emt 2:00:00] [%ccsnt 2019.04.02,23:20]}"),
///     "{text}"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_in(record: &Record, numeric: bool, epoch: Option<u64>) -> String {
    let game = record.timed.game();
    let setup = &record.setup;
    let iccf = setup.rules == RuleSet::Iccf && record.is_correspondence();
    let mut tags = Tags::new();
    tags.set("Event", "Rochade game");
    tags.set("Site", &format!("/g/{}", setup.id));
    if let Some(epoch) = epoch {
        tags.set("Date", &pgn_date(epoch));
    }
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
    if let Some(simul) = &setup.simul {
        tags.set("Event", &simul.name);
    }
    if let Some(terms) = &setup.tournament
        && !iccf
    {
        tags.set(
            "Event",
            if terms.name.is_empty() {
                &terms.id
            } else {
                &terms.name
            },
        );
        if let Some(round) = &terms.round {
            tags.set("Round", round);
        }
    }
    if iccf {
        // The ICCF webserver's way: the event, no round numbers.
        tags.set("Round", "-");
        if let Some(terms) = &setup.tournament {
            let name = if terms.name.is_empty() {
                &terms.id
            } else {
                &terms.name
            };
            tags.set("Event", name);
        }
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
    // ICCF: when each move was sent.
    let sent: Option<Vec<MoveNode>> = epoch.filter(|_| iccf).map(|epoch| {
        game.moves()
            .iter()
            .zip(&record.plies)
            .map(|(m, ply)| MoveNode {
                mv: *m,
                nags: Vec::new(),
                comments: record
                    .events
                    .get(ply.event)
                    .map(|e| vec![format!("[%ccsnt {}]", moment(epoch + e.at))])
                    .unwrap_or_default(),
                variations: Vec::new(),
            })
            .collect()
    });
    let options = WriteOptions {
        clocks: &clocks,
        elapsed: &elapsed,
        annotations: sent.as_deref(),
        numeric,
        ..WriteOptions::default()
    };
    pgn::write_game(game, &tags, &options)
}

/// `unix_ms` as ICCF's `[%ccsnt]` writes it, `YYYY.MM.DD,HH:MM` (UTC).
fn moment(unix_ms: u64) -> String {
    let minutes = unix_ms / 60_000;
    format!(
        "{},{:02}:{:02}",
        pgn_date(unix_ms),
        (minutes / 60) % 24,
        minutes % 60
    )
}

/// The PGN of games read from storage, one after another in the order
/// of `ids` (unknown ids left out), without loading a room for any of
/// them: a tournament's or a simul's download.
///
/// # Errors
///
/// `internal` when storage fails; a stored game that does not replay.
pub async fn of_stored(
    shared: &crate::rooms::Shared,
    ids: impl IntoIterator<Item = String>,
) -> Result<String, crate::error::ActionError> {
    let mut text = String::new();
    for id in ids {
        let Some(stored) = shared.stored(move |s| s.load(&id)).await? else {
            continue;
        };
        let record = Record::replay(stored.setup, stored.events)?;
        text.push_str(write_in(&record, false, Some(stored.epoch)).trim_end());
        text.push_str("\n\n");
    }
    Ok(text)
}
