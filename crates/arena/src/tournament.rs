//! `rochade match`: two engines, a schedule of games with each opening
//! played with both colours, games in parallel, running statistics and an
//! optional SPRT that stops the match.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use rochade_laws::GameResult;

use crate::{
    ArenaError, DrawRule, EngineSpec, GameRecord, GameSetup, Opening, ResignRule, Sprt, SprtStatus,
    Tablebases, Tally, play_game,
};

/// The settings of a match.
#[derive(Debug)]
pub struct MatchConfig {
    /// The two engines; the statistics are from the first one's view.
    pub engines: [EngineSpec; 2],
    /// Start positions, used in order, each for two games with colours
    /// swapped (the standard position if empty).
    pub openings: Vec<Opening>,
    /// How many games (at most; an SPRT may stop earlier).
    pub games: usize,
    /// How many games run at once.
    pub concurrency: usize,
    /// `--resign`.
    pub resign: Option<ResignRule>,
    /// `--draw`.
    pub draw: Option<DrawRule>,
    /// `--tb`.
    pub tablebases: Option<Tablebases>,
    /// `--sprt`.
    pub sprt: Option<Sprt>,
    /// Where to append the games (`--pgn`).
    pub pgn: Option<PathBuf>,
    /// The PGN `Event`.
    pub event: String,
}

/// What a match produced.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchSummary {
    /// The first engine's results.
    pub tally: Tally,
    /// The SPRT's state at the end, if one ran.
    pub sprt: Option<SprtStatus>,
}

/// The opening and colours of game `index` (from 0): games 2k and 2k+1
/// share opening k (cycling), the first engine has White in the even one.
///
/// # Examples
///
/// ```
/// use rochade_arena::schedule;
///
/// assert_eq!(schedule(0, 3), (0, false));
/// assert_eq!(schedule(1, 3), (0, true));
/// assert_eq!(schedule(6, 3), (0, false));
/// ```
pub fn schedule(index: usize, openings: usize) -> (usize, bool) {
    ((index / 2) % openings.max(1), index % 2 == 1)
}

/// Plays the match, printing progress to `out` as cutechess-cli does.
///
/// # Errors
///
/// [`ArenaError`] when the settings are wrong, the PGN file cannot be
/// written, or a game cannot start (an engine fails to start); games
/// already running are finished first.
pub fn run_match(config: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, ArenaError> {
    if config.games == 0 || config.concurrency == 0 {
        return Err(ArenaError::Config(
            "--games and --concurrency must be at least 1".into(),
        ));
    }
    if let Some(sprt) = &config.sprt {
        sprt.validate().map_err(ArenaError::Config)?;
    }
    let mut pgn_file = match &config.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|source| ArenaError::Io {
                    path: path.clone(),
                    source,
                })?,
        ),
        None => None,
    };
    let start = [Opening::startpos()];
    let openings: &[Opening] = if config.openings.is_empty() {
        &start
    } else {
        &config.openings
    };
    let [first, second] = &config.engines;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel();
    let mut tally = Tally::default();
    let mut sprt_status = None;
    let mut failure = None;
    let io = |e| ArenaError::Io {
        path: PathBuf::from("<output>"),
        source: e,
    };
    std::thread::scope(|scope| -> Result<(), ArenaError> {
        for _ in 0..config.concurrency.min(config.games) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= config.games {
                        break;
                    }
                    let (opening, swapped) = schedule(index, openings.len());
                    let (white, black) = if swapped {
                        (second, first)
                    } else {
                        (first, second)
                    };
                    let setup = GameSetup {
                        round: index + 1,
                        event: &config.event,
                        opening: &openings[opening],
                        white,
                        black,
                        resign: config.resign,
                        draw: config.draw,
                        tablebases: config.tablebases.as_ref(),
                    };
                    let _ = sender.send(Event::Started(
                        index + 1,
                        white.name.clone(),
                        black.name.clone(),
                    ));
                    let result = play_game(&setup);
                    if result.is_err() {
                        stop.store(true, Ordering::SeqCst);
                    }
                    if sender
                        .send(Event::Finished(swapped, Box::new(result)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Any failure here stops the game threads before the scope joins them.
        let mut handle = |event: Event| -> Result<(), ArenaError> {
            match event {
                Event::Started(round, white, black) => {
                    writeln!(
                        out,
                        "Started game {round} of {} ({white} vs {black})",
                        config.games
                    )
                    .map_err(io)?;
                }
                Event::Finished(swapped, result) => match *result {
                    Ok(record) => {
                        if let Some(file) = &mut pgn_file {
                            file.write_all(record.pgn.as_bytes()).map_err(|source| {
                                ArenaError::Io {
                                    path: config.pgn.clone().unwrap_or_default(),
                                    source,
                                }
                            })?;
                        }
                        tally.record(first_engine_half_points(&record, swapped));
                        report_game(out, &record, first, second, &tally).map_err(io)?;
                        if let Some(sprt) = &config.sprt {
                            let status = sprt.status(&tally);
                            let (lower, upper) = sprt.bounds();
                            writeln!(
                                out,
                                "SPRT: llr {:.3} ({:.1}%), lbound {:.2}, ubound {:.2}{}",
                                sprt.llr(&tally),
                                100.0 * sprt.llr(&tally) / upper,
                                lower,
                                upper,
                                match status {
                                    SprtStatus::Continue => "",
                                    SprtStatus::AcceptH0 => " - H0 was accepted",
                                    SprtStatus::AcceptH1 => " - H1 was accepted",
                                }
                            )
                            .map_err(io)?;
                            sprt_status = Some(status);
                            if status != SprtStatus::Continue {
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                    Err(e) => {
                        failure.get_or_insert(e);
                    }
                },
            }
            Ok(())
        };
        for event in results {
            if let Err(e) = handle(event) {
                stop.store(true, Ordering::SeqCst);
                return Err(e);
            }
        }
        Ok(())
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(MatchSummary {
        tally,
        sprt: sprt_status,
    })
}

/// What the game threads tell the printing thread.
enum Event {
    /// Round, White, Black.
    Started(usize, String, String),
    /// Whether the first engine had Black, and the game.
    Finished(bool, Box<Result<GameRecord, ArenaError>>),
}

/// The first engine's half-points (2, 1 or 0) in a game.
fn first_engine_half_points(record: &GameRecord, first_is_black: bool) -> u8 {
    match (record.outcome.result, first_is_black) {
        (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => 2,
        (GameResult::Draw, _) => 1,
        _ => 0,
    }
}

/// Prints the finished game and the running score.
fn report_game(
    out: &mut dyn Write,
    record: &GameRecord,
    first: &EngineSpec,
    second: &EngineSpec,
    tally: &Tally,
) -> std::io::Result<()> {
    writeln!(
        out,
        "Finished game {} ({} vs {}): {} {{{}}}",
        record.round,
        record.white,
        record.black,
        record.outcome.result,
        record.describe()
    )?;
    for line in &record.garbage {
        writeln!(out, "  non-UCI output: {line}")?;
    }
    writeln!(out, "Score of {} vs {}: {tally}", first.name, second.name)?;
    writeln!(
        out,
        "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
        elo_text(tally),
        100.0 * tally.los(),
        100.0 * tally.draw_ratio()
    )?;
    out.flush()
}

/// `12.3 +/- 45.6`, with `inf` and `nan` as cutechess-cli prints them.
pub fn elo_text(tally: &Tally) -> String {
    format!("{:.1} +/- {:.1}", tally.elo(), tally.elo_error())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opening_is_played_with_both_colours() {
        let mut seen = std::collections::HashSet::new();
        for index in 0..10 {
            seen.insert(schedule(index, 5));
        }
        assert_eq!(seen.len(), 10);
    }

    #[test]
    fn bad_settings_are_errors() {
        let spec = EngineSpec::parse(["cmd=/bin/true", "st=1"]).unwrap();
        let mut config = MatchConfig {
            engines: [spec.clone(), spec],
            openings: Vec::new(),
            games: 0,
            concurrency: 1,
            resign: None,
            draw: None,
            tablebases: None,
            sprt: None,
            pgn: None,
            event: "test".into(),
        };
        assert!(run_match(&config, &mut Vec::new()).is_err());
        config.games = 2;
        config.sprt = Some(Sprt {
            elo0: 5.0,
            elo1: 0.0,
            alpha: 0.05,
            beta: 0.05,
        });
        assert!(run_match(&config, &mut Vec::new()).is_err());
        // An engine that is not an engine stops the match with its name.
        config.sprt = None;
        let err = run_match(&config, &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("true"), "{err}");
    }
}
