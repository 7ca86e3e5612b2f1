//! The UCI protocol loop: reads GUI commands, drives the search thread,
//! prints its reports.

use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use rochade_uci::{
    EngineMessage, GuiCommand, Id, Info, OptionDecl, OptionKind, PositionBase, PositionSpec,
    ScoreKind,
};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::engine::{DEFAULT_HASH_MB, Engine, EngineCommand, SearchReport};
use crate::search::{Score, SearchParams, hash};
use crate::time::TimeLimits;

const DEFAULT_OVERHEAD_MS: i64 = 10;

/// The game as set by the last valid `position` command.
struct Game {
    pos: Chess,
    /// Keys of the positions before `pos`, oldest first.
    history: Vec<u64>,
}

impl Game {
    fn from_spec(spec: &PositionSpec) -> Result<Self, String> {
        let mut pos = match &spec.base {
            PositionBase::StartPos => Chess::default(),
            PositionBase::Fen(fen) => fen
                .clone()
                .into_position(CastlingMode::Standard)
                .map_err(|e| format!("illegal position: {e}"))?,
        };
        let mut history = Vec::new();
        for uci in &spec.moves {
            let m = uci
                .to_move(&pos)
                .map_err(|_| format!("illegal move {uci}"))?;
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

fn options() -> [OptionDecl; 2] {
    [
        OptionDecl {
            name: "Hash".into(),
            kind: OptionKind::Spin {
                default: DEFAULT_HASH_MB as i64,
                min: 1,
                max: 1024,
            },
        },
        OptionDecl {
            name: "Move Overhead".into(),
            kind: OptionKind::Spin {
                default: DEFAULT_OVERHEAD_MS,
                min: 0,
                max: 5000,
            },
        },
    ]
}

/// Runs the UCI loop until `quit` or the end of input.
///
/// # Errors
///
/// Only when reading the input or writing the output fails.
pub fn run_loop<R: BufRead, W: Write + Send>(reader: R, writer: W) -> std::io::Result<()> {
    let out = Mutex::new(writer);
    let (report_tx, report_rx) = channel();
    std::thread::scope(|scope| {
        let out_ref = &out;
        let printer = scope.spawn(move || print_reports(&report_rx, out_ref));
        let engine = Engine::spawn(report_tx);
        let result = read_commands(reader, &out, &engine);
        engine.quit();
        let printed = printer.join().unwrap_or(Ok(()));
        result.and(printed)
    })
}

fn read_commands<R: BufRead, W: Write>(
    reader: R,
    out: &Mutex<W>,
    engine: &Engine,
) -> std::io::Result<()> {
    let mut game = Game {
        pos: Chess::default(),
        history: Vec::new(),
    };
    let mut overhead = Duration::from_millis(DEFAULT_OVERHEAD_MS as u64);
    for line in reader.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let command = match GuiCommand::parse(&line) {
            Ok(command) => command,
            Err(e) => {
                write_line(out, &format!("info string error: {e}"))?;
                continue;
            }
        };
        match command {
            GuiCommand::Uci => {
                write_line(
                    out,
                    &EngineMessage::Id(Id::Name("Rochade".into())).to_string(),
                )?;
                write_line(
                    out,
                    &EngineMessage::Id(Id::Author("Rochade developers".into())).to_string(),
                )?;
                for option in options() {
                    write_line(out, &EngineMessage::Option(option).to_string())?;
                }
                write_line(out, &EngineMessage::UciOk.to_string())?;
            }
            GuiCommand::IsReady => write_line(out, &EngineMessage::ReadyOk.to_string())?,
            GuiCommand::UciNewGame => engine.send(EngineCommand::NewGame),
            GuiCommand::Position(spec) => match Game::from_spec(&spec) {
                Ok(new_game) => game = new_game,
                Err(e) => write_line(out, &format!("info string error: {e}; position unchanged"))?,
            },
            GuiCommand::Go(go) => {
                if engine.is_searching() {
                    write_line(out, "info string error: already searching")?;
                    continue;
                }
                let params = SearchParams {
                    pos: game.pos.clone(),
                    history: game.history.clone(),
                    limits: TimeLimits::from_go(&go, game.pos.turn(), overhead),
                };
                engine.send(EngineCommand::Start(Box::new(params)));
            }
            GuiCommand::Stop | GuiCommand::PonderHit => engine.send(EngineCommand::Stop),
            GuiCommand::Quit => break,
            GuiCommand::SetOption { name, value } => {
                if let Err(e) = set_option(&name, value.as_deref(), engine, &mut overhead) {
                    write_line(out, &format!("info string error: {e}"))?;
                }
            }
            GuiCommand::Debug(_) | GuiCommand::Register(_) => {}
        }
    }
    Ok(())
}

fn set_option(
    name: &str,
    value: Option<&str>,
    engine: &Engine,
    overhead: &mut Duration,
) -> Result<(), String> {
    let number = |max: u64| -> Result<u64, String> {
        let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
        let n: u64 = v
            .trim()
            .parse()
            .map_err(|_| format!("bad value {v} for {name}"))?;
        if n > max {
            return Err(format!("value {n} for {name} above {max}"));
        }
        Ok(n)
    };
    if name.eq_ignore_ascii_case("Hash") {
        let mb = number(1024)?.max(1);
        engine.send(EngineCommand::SetHash(mb as usize));
    } else if name.eq_ignore_ascii_case("Move Overhead") {
        *overhead = Duration::from_millis(number(5000)?);
    } else {
        return Err(format!("unknown option {name}"));
    }
    Ok(())
}

fn print_reports<W: Write>(
    reports: &Receiver<SearchReport>,
    out: &Mutex<W>,
) -> std::io::Result<()> {
    for report in reports {
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
                    score: Some(rochade_uci::Score::exact(score)),
                    nodes: Some(it.nodes),
                    nps: Some(it.nodes * 1000 / millis),
                    hashfull: Some(it.hashfull),
                    time: Some(it.time),
                    pv: it.pv.iter().map(|&m| UciMove::from_standard(m)).collect(),
                    ..Info::default()
                }))
            }
            SearchReport::BestMove { best, ponder } => EngineMessage::BestMove {
                best: best.map_or(UciMove::Null, UciMove::from_standard),
                ponder: ponder.map(UciMove::from_standard),
            },
        };
        write_line(out, &message.to_string())?;
    }
    Ok(())
}
