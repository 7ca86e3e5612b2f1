//! `rochade bench`: speed figures measured in one run, as ratios against a
//! baseline measured alongside (the machines are shared and noisy).

use std::{fs, io::Cursor, ops::ControlFlow, path::PathBuf, time::Instant};

use anyhow::Context;
use clap::{Args, Subcommand};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use rochade_laws::{
    RuleSet, dead, perft,
    pgn::{PgnReader, ReadOptions},
};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

/// Measure speed. Without a subcommand: the engine's node count on fixed
/// positions (a signature for regression checks) and nodes per second.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Which measurement; the engine bench when left out.
    #[command(subcommand)]
    command: Option<BenchCommand>,
    /// Search depth of the engine bench.
    #[arg(long, default_value_t = 10)]
    depth: u32,
    /// Search threads of the engine bench; the node count is a stable
    /// signature only with 1.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// The measurements.
#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Full PGN validation (`pgn check`) against raw pgn-reader + shakmaty
    /// SAN replay, on the same file.
    Pgn {
        /// A PGN file.
        file: PathBuf,
        /// Repeat the measurement this many times and keep the best.
        #[arg(long, default_value_t = 7)]
        rounds: u32,
    },
    /// Perft through rochade-laws against raw shakmaty perft.
    Perft {
        /// Depth from the start position and from Kiwipete.
        #[arg(long, default_value_t = 5)]
        depth: u32,
    },
    /// The dead-position check on every position of a PGN file.
    Dead {
        /// A PGN file.
        file: PathBuf,
    },
    /// The robot's time per move at one level, over a game it plays
    /// against itself (no clock).
    Robot {
        /// The level, 1 to 8.
        #[arg(long, default_value_t = 1)]
        level: u32,
        /// Plies to play.
        #[arg(long, default_value_t = 60)]
        plies: u32,
    },
}

/// Runs the command.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    match &args.command {
        None => {
            let threads = args.threads.max(1);
            let (nodes, elapsed) = rochade_engine::bench_threads(args.depth, threads);
            let nps = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
            // One line: with 1 thread the node count is the signature.
            let kind = if threads == 1 { " (signature)" } else { "" };
            println!(
                "depth {}, {threads} thread(s): {nodes} nodes{kind}, {:.3} s, {nps:.0} nodes/s",
                args.depth,
                elapsed.as_secs_f64()
            );
            Ok(())
        }
        Some(BenchCommand::Pgn { file, rounds }) => bench_pgn(file, *rounds),
        Some(BenchCommand::Perft { depth }) => bench_perft(*depth),
        Some(BenchCommand::Dead { file }) => bench_dead(file),
        Some(BenchCommand::Robot { level, plies }) => bench_robot(*level, *plies),
    }
}

/// Wall time of one run of `f`, in seconds, and its answer.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let start = Instant::now();
    let answer = f();
    (start.elapsed().as_secs_f64(), answer)
}

/// Best wall times of `a` and `b`, run in turns (`rounds` each, after one
/// warm-up run each) so that both see the same load on a shared machine,
/// and their last answers.
fn interleaved<A, B>(
    rounds: u32,
    mut a: impl FnMut() -> A,
    mut b: impl FnMut() -> B,
) -> ((f64, A), (f64, B)) {
    let (mut answer_a, mut answer_b) = (a(), b());
    let (mut best_a, mut best_b) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds.max(1) {
        let (seconds, answer) = timed(&mut a);
        best_a = best_a.min(seconds);
        answer_a = answer;
        let (seconds, answer) = timed(&mut b);
        best_b = best_b.min(seconds);
        answer_b = answer;
    }
    ((best_a, answer_a), (best_b, answer_b))
}

/// `bench pgn`.
fn bench_pgn(file: &PathBuf, rounds: u32) -> anyhow::Result<()> {
    let bytes = fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let ((raw, raw_moves), (ours, (games, errors))) = interleaved(
        rounds,
        || raw_replay(&bytes),
        || {
            let reader = PgnReader::new(Cursor::new(&bytes), ReadOptions::default());
            reader.fold((0usize, 0usize), |(g, e), r| {
                (g + 1, e + usize::from(r.is_err()))
            })
        },
    );
    println!(
        "file: {} ({} bytes, {games} games, {errors} with errors)",
        file.display(),
        bytes.len()
    );
    println!(
        "raw pgn-reader + shakmaty SAN replay: {raw:.3} s ({raw_moves} moves, {:.0} moves/s)",
        raw_moves as f64 / raw
    );
    println!(
        "rochade full validation:              {ours:.3} s ({:.0} moves/s)",
        raw_moves as f64 / ours
    );
    println!("rochade / raw speed: {:.1}%", 100.0 * raw / ours);
    Ok(())
}

/// Replays every game's main line with nothing but shakmaty; counts moves.
fn raw_replay(bytes: &[u8]) -> u64 {
    struct Replay;
    impl Visitor for Replay {
        type Tags = Option<Chess>;
        type Movetext = (Chess, u64, bool);
        type Output = u64;
        fn begin_tags(&mut self) -> ControlFlow<u64, Option<Chess>> {
            ControlFlow::Continue(None)
        }
        fn tag(
            &mut self,
            tags: &mut Option<Chess>,
            name: &[u8],
            value: RawTag<'_>,
        ) -> ControlFlow<u64> {
            if name == b"FEN" {
                *tags = Fen::from_ascii(value.as_bytes())
                    .ok()
                    .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            }
            ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<u64, (Chess, u64, bool)> {
            ControlFlow::Continue((tags.unwrap_or_default(), 0, true))
        }
        fn san(&mut self, (pos, n, ok): &mut (Chess, u64, bool), san: SanPlus) -> ControlFlow<u64> {
            if *ok {
                match san.san.to_move(pos) {
                    Ok(m) => {
                        pos.play_unchecked(m);
                        *n += 1;
                    }
                    Err(_) => *ok = false,
                }
            }
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, (_, n, _): (Chess, u64, bool)) -> u64 {
            n
        }
    }
    let mut reader = Reader::new(Cursor::new(bytes));
    let mut total = 0;
    while let Ok(Some(n)) = reader.read_game(&mut Replay) {
        total += n;
    }
    total
}

/// `bench perft`.
fn bench_perft(depth: u32) -> anyhow::Result<()> {
    let kiwipete: Chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        .parse::<Fen>()?
        .into_position(CastlingMode::Standard)?;
    for (name, pos, d) in [
        ("start", Chess::default(), depth),
        ("kiwipete", kiwipete, depth.saturating_sub(1)),
    ] {
        // Interleaved rounds: both sides see the same load on a shared machine.
        let (mut raw, mut ours, mut n1, mut n2) = (f64::INFINITY, f64::INFINITY, 0, 0);
        for _ in 0..7 {
            let (t, n) = timed(|| shakmaty::perft(&pos, d));
            (raw, n1) = (raw.min(t), n);
            let (t, n) = timed(|| perft::count(&pos, d));
            (ours, n2) = (ours.min(t), n);
        }
        anyhow::ensure!(n1 == n2, "{name}: counts differ ({n1} vs {n2})");
        println!(
            "{name} depth {d}: {n1} nodes; shakmaty {raw:.3} s ({:.1} Mnps), rochade-laws {ours:.3} s ({:.1} Mnps), ratio {:.3}",
            n1 as f64 / raw / 1e6,
            n1 as f64 / ours / 1e6,
            ours / raw
        );
    }
    Ok(())
}

/// `bench dead`: median and worst time of the dead-position check.
fn bench_dead(file: &PathBuf) -> anyhow::Result<()> {
    let bytes = fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let options = ReadOptions {
        rules: RuleSet::Fide2009,
        ..ReadOptions::default()
    };
    let positions: Vec<Chess> = PgnReader::new(Cursor::new(&bytes), options)
        .filter_map(Result::ok)
        .flat_map(|g| g.game.history().positions().to_vec())
        .filter(|p| p.board().occupied().count() >= 16)
        .collect();
    let mut times: Vec<f64> = positions
        .iter()
        .map(|p| {
            let start = Instant::now();
            std::hint::black_box(dead::is_dead(std::hint::black_box(p)));
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    anyhow::ensure!(
        !times.is_empty(),
        "no middlegame positions in {}",
        file.display()
    );
    times.sort_by(f64::total_cmp);
    let gated = positions.iter().filter(|p| dead::may_be_dead(p)).count();
    println!(
        "positions that pass the cheap gate to chasolver: {gated} of {}",
        positions.len()
    );
    println!(
        "dead-position check on {} positions with 16+ pieces: median {:.2} µs, p99 {:.2} µs, max {:.2} µs",
        times.len(),
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        times[times.len() - 1]
    );
    Ok(())
}

/// `bench robot`: mean and longest think of a robot playing itself.
fn bench_robot(level: u32, plies: u32) -> anyhow::Result<()> {
    use rochade_engine::robot::{Level, Robot};
    let mut robot = Robot::new(Level::new(level)?);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut pos = Chess::default();
    let mut history = Vec::new();
    let mut times = Vec::new();
    for _ in 0..plies {
        let (seconds, m) = timed(|| robot.choose_move(&pos, &history, None, &stop));
        let Some(m) = m else { break };
        times.push(seconds);
        history.push(rochade_engine::search::hash(&pos));
        pos.play_unchecked(m);
        if pos.is_game_over() {
            break;
        }
    }
    anyhow::ensure!(!times.is_empty(), "no move played");
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let max = times.iter().copied().fold(0.0, f64::max);
    println!(
        "level {level}: {} moves, mean {:.1} ms, longest {:.1} ms per move",
        times.len(),
        mean * 1e3,
        max * 1e3
    );
    Ok(())
}
