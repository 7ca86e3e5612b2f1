//! `rochade bench`: speed figures measured in one run, as ratios against a
//! baseline measured alongside (the machines are shared and noisy).

use std::{fs, io::Cursor, ops::ControlFlow, path::PathBuf, time::Instant};

use anyhow::Context;
use clap::{Args, Subcommand};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use rochade_laws::{
    Game, RuleSet, dead, perft,
    pgn::{PgnReader, ReadOptions, Tags, WriteOptions, write_game},
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
    /// The dead-position check (5.2.2) on every position of PGN files:
    /// cost per position, and how many the cheap gate settles.
    Dead {
        /// PGN files (a middlegame-heavy one of master games, an
        /// endgame-heavy one from `bench random-games`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Repeat the timing this many times and keep the best.
        #[arg(long, default_value_t = 5)]
        rounds: u32,
    },
    /// Writes long random games as PGN to standard output: each move drawn
    /// uniformly from the legal moves until the Laws end the game (most end
    /// in long endgames by the 75-move rule). The same seed gives the same
    /// games: the endgame-heavy corpus of `bench dead` and
    /// `scripts/bench-pgn`.
    RandomGames {
        /// How many games.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// The seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// A correspondence player's list of games (`GET /api/account/games`)
    /// on a database of many unfinished games, and the server's start over
    /// them.
    Dashboard {
        /// Unfinished games in the database.
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        /// How many of them the player plays.
        #[arg(long, default_value_t = 200)]
        mine: usize,
        /// How many times the list is asked for.
        #[arg(long, default_value_t = 50)]
        requests: usize,
        /// Store the games as before glances (each entry then loads its
        /// room), for comparison.
        #[arg(long)]
        without_glances: bool,
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
        Some(BenchCommand::Dead { files, rounds }) => {
            files.iter().try_for_each(|file| bench_dead(file, *rounds))
        }
        Some(BenchCommand::RandomGames { games, seed }) => random_games(*games, *seed),
        Some(BenchCommand::Dashboard {
            games,
            mine,
            requests,
            without_glances,
        }) => crate::dashboard::run(*games, *mine, *requests, !without_glances),
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
            // As `pgn check` reads: each game recorded in the last one's memory.
            let mut reader = PgnReader::new(Cursor::new(&bytes), ReadOptions::default());
            let (mut games, mut errors) = (0usize, 0usize);
            while let Some(read) = reader.next() {
                games += 1;
                match read {
                    Ok(game) => reader.recycle(game),
                    Err(_) => errors += 1,
                }
            }
            (games, errors)
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

/// `bench dead`: the dead-position check's cost per position of `file`,
/// in total (best of `rounds`) and one by one (median, p99, worst), and how
/// many positions the gate settles.
fn bench_dead(file: &PathBuf, rounds: u32) -> anyhow::Result<()> {
    let bytes = fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let positions: Vec<Chess> = PgnReader::new(Cursor::new(&bytes), ReadOptions::default())
        .filter_map(Result::ok)
        .flat_map(|g| g.game.history().positions().to_vec())
        .collect();
    anyhow::ensure!(!positions.is_empty(), "no positions in {}", file.display());
    let n = positions.len() as f64;
    let all = || {
        positions
            .iter()
            .filter(|p| dead::is_dead(std::hint::black_box(p)))
            .count()
    };
    let (mut best, mut dead_count) = (f64::INFINITY, 0);
    for _ in 0..rounds.max(1) {
        let (seconds, count) = timed(all);
        (best, dead_count) = (best.min(seconds), count);
    }
    let (mut alive, mut gate_dead) = (0, 0);
    for p in &positions {
        match dead::gate(p) {
            dead::Gate::Alive => alive += 1,
            dead::Gate::Dead => gate_dead += 1,
            dead::Gate::Open => {}
        }
    }
    let mut times: Vec<f64> = positions
        .iter()
        .map(|p| timed(|| dead::is_dead(std::hint::black_box(p))).0 * 1e6)
        .collect();
    times.sort_by(f64::total_cmp);
    let few = positions
        .iter()
        .filter(|p| p.board().occupied().count() <= 8)
        .count();
    println!(
        "{}: {} positions ({:.0}% with 8 men or fewer), {dead_count} dead",
        file.display(),
        positions.len(),
        100.0 * few as f64 / n
    );
    println!(
        "  gate: {alive} alive, {gate_dead} dead by material, {} left to the search",
        positions.len() - alive - gate_dead
    );
    println!(
        "  dead-position check: {:.3} µs per position on average ({:.3} s in all); one by one median {:.2} µs, p99 {:.2} µs, worst {:.0} µs",
        best * 1e6 / n,
        best,
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        times[times.len() - 1]
    );
    Ok(())
}

/// `bench random-games`: `games` random games from seed `seed`, as PGN on
/// standard output.
fn random_games(games: usize, seed: u64) -> anyhow::Result<()> {
    use std::io::Write;
    let mut rng = SplitMix(seed);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for round in 1..=games {
        let mut game = Game::new(RuleSet::Fide);
        // The Laws end every game: mate, stalemate, dead position, fivefold
        // repetition or 75 moves; the cap only guards the loop.
        while game.outcome().is_none() && game.moves().len() < 5_000 {
            let moves = game.position().legal_moves();
            let Some(m) = moves.get(rng.below(moves.len())) else {
                break;
            };
            game.play(*m)?;
        }
        let mut tags = Tags::new();
        tags.set("Event", "Random game");
        tags.set("Round", &round.to_string());
        tags.set("White", "random");
        tags.set("Black", "random");
        out.write_all(write_game(&game, &tags, &WriteOptions::default()).as_bytes())?;
    }
    out.flush()?;
    Ok(())
}

/// A small seeded generator (SplitMix64): the same seed, the same games on
/// every machine.
struct SplitMix(u64);

impl SplitMix {
    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        if n == 0 { 0 } else { (z % n as u64) as usize }
    }
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
