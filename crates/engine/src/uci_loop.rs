//! The UCI protocol loop: reads GUI commands, drives the search thread,
//! prints its reports.
//!
//! Bad input never ends the loop: an unparsable line, an illegal move or
//! FEN in `position`, a negative time, an unknown option or a bad value is
//! answered with `info string error: …`, and the last valid position and
//! option values stay as they were.

use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};

use rochade_uci::{
    EngineMessage, GoParams, GuiCommand, Id, Info, PositionBase, PositionSpec, ScoreKind,
};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::engine::{Engine, EngineCommand, SearchReport};
use crate::search::{Score, SearchParams, hash};
use crate::time::TimeLimits;
use crate::uci_options::{Effect, Options};

/// The game as set by the last valid `position` command.
struct Game {
    pos: Chess,
    /// Keys of the positions before `pos`, oldest first.
    history: Vec<u64>,
}

impl Game {
    fn from_spec(spec: &PositionSpec, mode: CastlingMode) -> Result<Self, String> {
        let mut pos = match &spec.base {
            PositionBase::StartPos => Chess::default(),
            PositionBase::Fen(fen) => fen
                .clone()
                .into_position(mode)
                .map_err(|e| format!("illegal position: {e}"))?,
        };
        let mut history = Vec::new();
        for (i, uci) in spec.moves.iter().enumerate() {
            let m = uci
                .to_move(&pos)
                .map_err(|_| format!("illegal move {uci} (move {} of the list)", i + 1))?;
            history.push(hash(&pos));
            if m.is_zeroing() {
                history.clear();
            }
            pos.play_unchecked(m);
        }
        Ok(Self { pos, history })
    }
}

fn write_line<W: Write>(out: &Mutex<W>, line: &str) -> std::io::Result<()> {
    let mut w = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    writeln!(w, "{line}")?;
    w.flush()
}

fn error_line<W: Write>(out: &Mutex<W>, message: &str) -> std::io::Result<()> {
    write_line(out, &format!("info string error: {message}"))
}

/// The castling notation for `chess960`.
fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// Runs the UCI loop until `quit` or the end of input.
///
/// # Errors
///
/// Only when reading the input or writing the output fails.
pub fn run_loop<R: BufRead, W: Write + Send>(reader: R, writer: W) -> std::io::Result<()> {
    let out = Mutex::new(writer);
    let chess960 = AtomicBool::new(false);
    let (report_tx, report_rx) = channel();
    std::thread::scope(|scope| {
        let (out_ref, chess960_ref) = (&out, &chess960);
        let printer = scope.spawn(move || print_reports(&report_rx, out_ref, chess960_ref));
        let engine = Engine::spawn(report_tx);
        let result = read_commands(reader, &out, &engine, &chess960);
        engine.quit();
        let printed = printer.join().unwrap_or(Ok(()));
        result.and(printed)
    })
}

fn read_commands<R: BufRead, W: Write>(
    reader: R,
    out: &Mutex<W>,
    engine: &Engine,
    chess960: &AtomicBool,
) -> std::io::Result<()> {
    let mut game = Game {
        pos: Chess::default(),
        history: Vec::new(),
    };
    let mut options = Options::default();
    for line in reader.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let command = match GuiCommand::parse(&line) {
            Ok(command) => command,
            Err(e) => {
                error_line(out, &e.to_string())?;
                continue;
            }
        };
        match command {
            GuiCommand::Uci => {
                for id in [
                    Id::Name("Rochade".into()),
                    Id::Author("Rochade developers".into()),
                ] {
                    write_line(out, &EngineMessage::Id(id).to_string())?;
                }
                for option in Options::declarations() {
                    write_line(out, &EngineMessage::Option(option).to_string())?;
                }
                write_line(out, &EngineMessage::UciOk.to_string())?;
            }
            GuiCommand::IsReady => write_line(out, &EngineMessage::ReadyOk.to_string())?,
            GuiCommand::UciNewGame => engine.send(EngineCommand::NewGame),
            GuiCommand::Position(spec) => {
                match Game::from_spec(&spec, castling_mode(options.chess960)) {
                    Ok(new_game) => game = new_game,
                    Err(e) => error_line(out, &format!("{e}; position unchanged"))?,
                }
            }
            GuiCommand::Go(go) => {
                if engine.is_searching() {
                    error_line(out, "already searching; go ignored")?;
                    continue;
                }
                for word in negative_times(&line) {
                    error_line(out, &format!("negative {word}, read as 0"))?;
                }
                let searchmoves = root_moves(&go, &game.pos, out)?;
                let params = SearchParams {
                    pos: game.pos.clone(),
                    history: game.history.clone(),
                    limits: TimeLimits::from_go(&go, game.pos.turn(), options.overhead),
                    multipv: options.multipv,
                    searchmoves,
                    mate: go.mate,
                    threads: options.threads,
                    level: options.level(),
                    seed: None,
                    evaluation: options.evaluation(),
                };
                engine.send(EngineCommand::Start(Box::new(params)));
            }
            GuiCommand::Stop => engine.send(EngineCommand::Stop),
            GuiCommand::PonderHit => engine.send(EngineCommand::PonderHit),
            GuiCommand::Quit => break,
            GuiCommand::SetOption { name, value } => {
                if engine.is_searching() {
                    error_line(out, &format!("option {name} not set during a search"))?;
                    continue;
                }
                match options.set(&name, value.as_deref()) {
                    Ok(Effect::None) => {}
                    Ok(Effect::Hash(mb)) => engine.send(EngineCommand::SetHash(mb)),
                    Ok(Effect::Tablebase(tb)) => {
                        if tb.is_some() {
                            let n = options.tablebase_files;
                            write_line(out, &format!("info string {n} Syzygy tables found"))?;
                        }
                        engine.send(EngineCommand::SetTablebase(tb));
                    }
                    Err(e) => error_line(out, &format!("{e}; unchanged"))?,
                }
                chess960.store(options.chess960, Ordering::SeqCst);
            }
            GuiCommand::Debug(_) | GuiCommand::Register(_) => {}
        }
    }
    Ok(())
}

/// The `go` time keywords given a negative value in `line` (the parser
/// reads them as 0), with the value, e.g. `wtime -20`.
fn negative_times(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| {
            ["wtime", "btime", "winc", "binc", "movetime"].contains(&w[0]) && w[1].starts_with('-')
        })
        .map(|w| format!("{} {}", w[0], w[1]))
        .collect()
}

/// The legal moves of `go searchmoves`; illegal ones are reported and
/// dropped, and if none is left the search takes every move.
fn root_moves<W: Write>(go: &GoParams, pos: &Chess, out: &Mutex<W>) -> std::io::Result<Vec<Move>> {
    let mut moves = Vec::new();
    for uci in &go.searchmoves {
        match uci.to_move(pos) {
            Ok(m) if !moves.contains(&m) => moves.push(m),
            Ok(_) => {}
            Err(_) => error_line(out, &format!("searchmoves: illegal move {uci} ignored"))?,
        }
    }
    if moves.is_empty() && !go.searchmoves.is_empty() {
        error_line(out, "searchmoves: no legal move left; searching all moves")?;
    }
    Ok(moves)
}

fn print_reports<W: Write>(
    reports: &Receiver<SearchReport>,
    out: &Mutex<W>,
    chess960: &AtomicBool,
) -> std::io::Result<()> {
    for report in reports {
        let mode = castling_mode(chess960.load(Ordering::SeqCst));
        let uci = |m: Move| UciMove::from_move(m, mode);
        let message = match report {
            SearchReport::Iteration(it) => {
                let millis = it.time.as_millis().max(1) as u64;
                let score = match it.score {
                    Score::Cp(cp) => ScoreKind::Cp(cp),
                    Score::Mate(n) => ScoreKind::Mate(n),
                };
                EngineMessage::Info(Box::new(Info {
                    depth: Some(it.depth),
                    seldepth: Some(it.seldepth),
                    multipv: Some(it.multipv),
                    score: Some(rochade_uci::Score::exact(score)),
                    nodes: Some(it.nodes),
                    nps: Some(it.nodes * 1000 / millis),
                    hashfull: Some(it.hashfull),
                    tbhits: Some(it.tbhits),
                    time: Some(it.time),
                    pv: it.pv.iter().map(|&m| uci(m)).collect(),
                    ..Info::default()
                }))
            }
            SearchReport::BestMove { best, ponder } => EngineMessage::BestMove {
                best: best.map_or(UciMove::Null, uci),
                ponder: ponder.map(uci),
            },
        };
        write_line(out, &message.to_string())?;
    }
    Ok(())
}
