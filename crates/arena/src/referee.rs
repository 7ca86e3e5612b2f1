//! One game between two UCI engines, refereed by the laws: the arena
//! measures each engine's thinking time on the laws' clock, plays the moves
//! through [`Game`], and ends the game when the laws, an adjudication rule
//! or an engine's failure ends it.

use std::time::{Duration, Instant};

use rochade_laws::clock::Clock;
use rochade_laws::pgn::{self, MoveNode, Tags, WriteOptions};
use rochade_laws::{Game, Outcome, RuleSet, read_uci};
use rochade_uci::{
    ClientError, GoParams, PositionBase, PositionSpec, SearchResult, SideClock, UciClient,
};
use shakmaty::uci::UciMove;
use shakmaty::{ByColor, Color, Position};

use crate::adjudication::centipawns;
use crate::{
    Adjudicator, ArenaError, DrawRule, EngineSpec, Opening, ResignRule, SearchLimit, Tablebases,
    Verdict,
};

/// How long an engine may take to start and answer `uciok`/`readyok`.
const STARTUP: Duration = Duration::from_secs(30);
/// How long past its flag the arena waits for a clocked engine's move.
const FLAG_WAIT: Duration = Duration::from_millis(250);
/// How long past `st=` the arena waits before calling an engine stalled.
const MOVETIME_GRACE: Duration = Duration::from_secs(5);
/// How long a `depth=`/`nodes=` search may take before the engine is
/// called stalled.
const FIXED_SEARCH_WAIT: Duration = Duration::from_secs(600);

/// Everything one game needs.
#[derive(Debug)]
pub struct GameSetup<'a> {
    /// The game's number in the match, from 1 (the PGN `Round`).
    pub round: usize,
    /// The PGN `Event`.
    pub event: &'a str,
    /// Where the game starts.
    pub opening: &'a Opening,
    /// White's engine.
    pub white: &'a EngineSpec,
    /// Black's engine.
    pub black: &'a EngineSpec,
    /// `--resign`.
    pub resign: Option<ResignRule>,
    /// `--draw`.
    pub draw: Option<DrawRule>,
    /// `--tb`.
    pub tablebases: Option<&'a Tablebases>,
}

/// How a game ended, beyond the laws' [`Outcome`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The laws ended it (mate, stalemate, dead position, 75 moves,
    /// fivefold repetition, a fallen flag).
    Laws,
    /// An adjudication rule ended it; the text says which.
    Adjudication(String),
    /// An engine played an illegal move and lost by forfeit.
    IllegalMove(String),
    /// An engine stopped answering or exited and lost by forfeit.
    EngineFailure(String),
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The game's number in the match.
    pub round: usize,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result and its reason in the laws' terms.
    pub outcome: Outcome,
    /// What ended it.
    pub ending: Ending,
    /// The game as PGN, `[%clk]` comments included.
    pub pgn: String,
    /// Lines the engines sent that were not UCI, with who sent them.
    pub garbage: Vec<String>,
}

impl GameRecord {
    /// A short description of the end: `White mates`, `adjudication: …`.
    pub fn describe(&self) -> String {
        match &self.ending {
            Ending::Laws => format!("{}", self.outcome.reason).replace('_', " "),
            Ending::Adjudication(text) => format!("adjudication: {text}"),
            Ending::IllegalMove(text) | Ending::EngineFailure(text) => text.clone(),
        }
    }
}

/// One side: its engine and, with `tc=`, its clock.
struct Side<'a> {
    spec: &'a EngineSpec,
    client: UciClient,
    clock: Option<Clock>,
}

impl Side<'_> {
    /// The side's clock at `now` as `go` tells it, if it plays with `tc=`.
    fn go_clock(&self, color: Color, now: Duration) -> Option<SideClock> {
        let clock = self.clock.as_ref()?;
        Some(SideClock {
            remaining: clock.remaining(color, now)?,
            increment: clock.bonus(color),
            moves_to_go: clock.moves_to_go(color),
        })
    }
}

/// Starts an engine, sets its options and prepares a new game.
fn start_engine(spec: &EngineSpec) -> Result<UciClient, ArenaError> {
    let failed = |source| ArenaError::Engine {
        engine: spec.name.clone(),
        source,
    };
    let mut client = UciClient::spawn(&spec.cmd, &spec.args, STARTUP).map_err(failed)?;
    for (name, value) in &spec.options {
        client.set_option(name, Some(value)).map_err(failed)?;
    }
    client.new_game().map_err(failed)?;
    client.is_ready(STARTUP).map_err(failed)?;
    // Banners before the handshake (Stockfish prints one) are not news.
    let _ = client.take_garbage();
    Ok(client)
}

/// The laws' clock of a side with `tc=`.
fn side_clock(spec: &EngineSpec) -> Result<Option<Clock>, ArenaError> {
    match spec.limit {
        Some(SearchLimit::Clock(tc)) => {
            let control = tc.to_laws().map_err(|source| ArenaError::TimeControl {
                engine: spec.name.clone(),
                tc: tc.to_string(),
                source,
            })?;
            Ok(Some(Clock::new(control, Duration::ZERO)))
        }
        _ => Ok(None),
    }
}

/// Plays one game to its end.
///
/// # Errors
///
/// [`ArenaError`] when an engine cannot be started or set up, or the
/// opening is not a legal start; failures during the game lose it instead.
pub fn play_game(setup: &GameSetup<'_>) -> Result<GameRecord, ArenaError> {
    for spec in [setup.white, setup.black] {
        if spec.limit.is_none() {
            return Err(ArenaError::Config(format!(
                "engine `{}` has no tc=, st=, depth= or nodes=",
                spec.name
            )));
        }
    }
    let fen = setup.opening.fen.to_string();
    let mut game = Game::from_fen(&fen, RuleSet::Fide)
        .map_err(|e| ArenaError::Config(format!("opening `{fen}`: {e}")))?;
    let mut sides = ByColor {
        white: Side {
            spec: setup.white,
            client: start_engine(setup.white)?,
            clock: side_clock(setup.white)?,
        },
        black: Side {
            spec: setup.black,
            client: start_engine(setup.black)?,
            clock: side_clock(setup.black)?,
        },
    };
    let mut referee = Referee {
        start: Instant::now(),
        adjudicator: Adjudicator::new(setup.resign, setup.draw),
        clocks: Vec::new(),
        nodes: Vec::new(),
        ending: Ending::Laws,
    };
    let both_clocked = sides.iter().all(|s| s.clock.is_some());
    while game.outcome().is_none() {
        referee.play_ply(&mut game, &mut sides, setup);
    }
    let mut garbage = Vec::new();
    for side in &mut sides {
        let (lines, dropped) = side.client.take_garbage();
        garbage.extend(lines.iter().map(|g| format!("{}: {g}", side.spec.name)));
        if dropped > 0 {
            garbage.push(format!("{}: {dropped} more lines", side.spec.name));
        }
    }
    for side in sides {
        side.client.quit(Duration::from_millis(500));
    }
    let outcome = game.outcome().ok_or_else(|| {
        ArenaError::Config("internal: the game loop ended without an outcome".into())
    })?;
    let pgn = referee.write_pgn(&game, setup, both_clocked);
    Ok(GameRecord {
        round: setup.round,
        white: setup.white.name.clone(),
        black: setup.black.name.clone(),
        outcome,
        ending: referee.ending,
        pgn,
        garbage,
    })
}

/// The arbiter of one game: the time, the score watch and the record.
struct Referee {
    start: Instant,
    adjudicator: Adjudicator,
    /// Mover's time left after each ply.
    clocks: Vec<Duration>,
    /// One node per ply: the move and the engine's score and time.
    nodes: Vec<MoveNode>,
    ending: Ending,
}

impl Referee {
    /// The laws' clock reading now.
    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    /// The `go` command for the side to move: with `tc=`, the time and
    /// increment of each side that has a clock and the mover's moves to
    /// the next control; otherwise the mover's fixed limit.
    fn go_params(&self, sides: &ByColor<Side<'_>>, mover: Color, now: Duration) -> GoParams {
        let mut go = GoParams::default();
        match sides[mover].spec.limit {
            Some(SearchLimit::Clock(_)) | None => {
                if let Some(clock) = sides[mover].go_clock(mover, now) {
                    go = go.with_clock(mover, clock);
                }
                if let Some(clock) = sides[!mover].go_clock(!mover, now) {
                    go = go.with_time(!mover, clock.remaining, clock.increment);
                }
            }
            Some(SearchLimit::MoveTime(t)) => go.movetime = Some(t),
            Some(SearchLimit::Depth(d)) => go.depth = Some(d),
            Some(SearchLimit::Nodes(n)) => go.nodes = Some(n),
        }
        go
    }

    /// How long to wait for the mover's `bestmove`.
    fn wait(&self, side: &Side<'_>, mover: Color, now: Duration) -> Duration {
        match (side.spec.limit, &side.clock) {
            (Some(SearchLimit::Clock(_)), Some(clock)) => {
                clock.remaining(mover, now).unwrap_or_default() + FLAG_WAIT
            }
            (Some(SearchLimit::MoveTime(t)), _) => t + MOVETIME_GRACE,
            _ => FIXED_SEARCH_WAIT,
        }
    }

    /// Asks the side to move for a move and plays it, or ends the game.
    fn play_ply(&mut self, game: &mut Game, sides: &mut ByColor<Side<'_>>, setup: &GameSetup<'_>) {
        let mover = game.turn();
        let now = self.now();
        let go = self.go_params(sides, mover, now);
        let wait = self.wait(&sides[mover], mover, now);
        let spec = PositionSpec {
            base: PositionBase::Fen(setup.opening.fen.clone()),
            moves: game
                .moves()
                .iter()
                .map(|m| UciMove::from_move(*m, game.castling_mode()))
                .collect(),
        };
        let side = &mut sides[mover];
        let answer = side
            .client
            .position(&spec)
            .and_then(|()| side.client.go(&go, wait));
        let now = self.now();
        if let Some(clock) = &side.clock
            && clock.remaining(mover, now) == Some(Duration::ZERO)
        {
            // FIDE 6.9: the flag has fallen; the laws decide loss or draw.
            let _ = game.flag_fallen(mover);
            if matches!(answer, Err(ClientError::Timeout { .. })) {
                let _ = side.client.stop(Duration::from_secs(1));
            }
            return;
        }
        let name = side.spec.name.clone();
        let result = match answer {
            Ok(result) => result,
            Err(e) => {
                self.ending = Ending::EngineFailure(format!("{name} ({mover}) failed: {e}"));
                let _ = game.forfeit(mover);
                return;
            }
        };
        let played = read_uci(
            game.position(),
            &result.best.to_string(),
            game.castling_mode(),
        );
        let Ok(m) = played else {
            self.ending = Ending::IllegalMove(format!(
                "{name} ({mover}) played the illegal move {} in {}",
                result.best,
                game.fen()
            ));
            let _ = game.forfeit(mover);
            return;
        };
        if game.play(m).is_err() {
            self.ending =
                Ending::IllegalMove(format!("{name} ({mover}) played a refused move {m}"));
            let _ = game.forfeit(mover);
            return;
        }
        self.press_clocks(sides, mover, now);
        self.nodes.push(MoveNode {
            mv: m,
            nags: Vec::new(),
            comments: vec![comment(&result)],
            variations: Vec::new(),
        });
        let white_score = result.info.as_ref().and_then(|i| i.score).map(|s| {
            let cp = centipawns(s.kind);
            if mover == Color::White { cp } else { -cp }
        });
        self.adjudicator.record(white_score);
        if game.outcome().is_some() {
            return;
        }
        let verdict = setup
            .tablebases
            .and_then(|tb| tb.verdict(game.position()))
            .or_else(|| self.adjudicator.verdict(game.position().fullmoves().get()));
        if let Some(verdict) = verdict {
            self.adjudicate(game, verdict);
        }
    }

    /// Presses every clock after `mover`'s move; keeps the mover's time.
    fn press_clocks(&mut self, sides: &mut ByColor<Side<'_>>, mover: Color, now: Duration) {
        for (color, side) in sides.as_mut().zip_color() {
            if let Some(clock) = &mut side.clock
                && let Ok(press) = clock.press(now)
                && color == mover
                && let Some(left) = press.time_left
            {
                self.clocks.push(left);
            }
        }
    }

    /// Ends the game by an adjudication verdict: a decisive one as the
    /// loser's resignation, a drawn one as an agreed draw.
    fn adjudicate(&mut self, game: &mut Game, verdict: Verdict) {
        match verdict {
            Verdict::Win(winner, text) => {
                let _ = game.resign(winner.other());
                self.ending = Ending::Adjudication(text);
            }
            Verdict::Draw(text) => {
                let mover = game.turn();
                if game.offer_draw(mover).is_ok() && game.accept_draw(mover.other()).is_ok() {
                    self.ending = Ending::Adjudication(text);
                }
            }
        }
    }

    /// The PGN of the game, with the arena's tags and comments.
    fn write_pgn(&self, game: &Game, setup: &GameSetup<'_>, both_clocked: bool) -> String {
        let mut tags = Tags::new();
        tags.set("Event", setup.event);
        tags.set("Date", &pgn_date(std::time::SystemTime::now()));
        tags.set("Round", &setup.round.to_string());
        tags.set("White", &setup.white.name);
        tags.set("Black", &setup.black.name);
        let limits = [setup.white.limit, setup.black.limit];
        if let [Some(SearchLimit::Clock(w)), Some(SearchLimit::Clock(b))] = limits {
            if w == b {
                tags.set("TimeControl", &w.to_string());
            } else {
                tags.set("WhiteTimeControl", &w.to_string());
                tags.set("BlackTimeControl", &b.to_string());
            }
        }
        match &self.ending {
            Ending::Laws => {}
            Ending::Adjudication(text)
            | Ending::IllegalMove(text)
            | Ending::EngineFailure(text) => tags.set("TerminationDetails", text),
        }
        let clocks = if both_clocked { &self.clocks[..] } else { &[] };
        let options = WriteOptions {
            clocks,
            annotations: Some(&self.nodes),
            opening_comment: setup.opening.label.as_deref(),
            ..WriteOptions::default()
        };
        let text = pgn::write_game(game, &tags, &options);
        let termination = match &self.ending {
            Ending::Laws | Ending::IllegalMove(_) => return text,
            Ending::Adjudication(_) => "adjudication",
            Ending::EngineFailure(_) => "abandoned",
        };
        replace_termination(&text, termination)
    }
}

/// Replaces the value of the `Termination` tag the PGN writer computed.
fn replace_termination(pgn: &str, value: &str) -> String {
    pgn.lines()
        .map(|line| {
            if line.starts_with("[Termination ") {
                format!("[Termination \"{value}\"]")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// `+0.35/12 0.840s` (score from the mover's view, depth, time taken).
fn comment(result: &SearchResult) -> String {
    let mut text = String::new();
    if let Some(info) = &result.info {
        if let Some(score) = info.score {
            text = match score.kind {
                rochade_uci::ScoreKind::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
                rochade_uci::ScoreKind::Mate(n) if n > 0 => format!("+M{n}"),
                rochade_uci::ScoreKind::Mate(n) => format!("-M{}", n.unsigned_abs()),
            };
        }
        if let Some(depth) = info.depth {
            text.push_str(&format!("/{depth}"));
        }
    }
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(&format!("{:.3}s", result.elapsed.as_secs_f64()));
    text
}

/// The PGN date `YYYY.MM.DD` (UTC) of `time`.
fn pgn_date(time: std::time::SystemTime) -> String {
    let days = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (year, month, day) = rochade_laws::pgn::civil_date(i64::try_from(days).unwrap_or(0));
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_dates() {
        let at = |secs| std::time::UNIX_EPOCH + Duration::from_secs(secs);
        assert_eq!(pgn_date(at(0)), "1970.01.01");
        assert_eq!(pgn_date(at(951_782_400)), "2000.02.29");
        assert_eq!(pgn_date(at(1_795_219_200)), "2026.11.21");
    }

    #[test]
    fn termination_is_replaced_and_text_kept() {
        let pgn = "[Event \"x\"]\n[Termination \"normal\"]\n\n1. e4 1-0\n\n";
        let out = replace_termination(pgn, "adjudication");
        assert!(out.contains("[Termination \"adjudication\"]\n"));
        assert!(out.ends_with("1. e4 1-0\n\n"));
    }
}
