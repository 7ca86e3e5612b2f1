//! Rochade's chess engine: a principal variation search on shakmaty's
//! [`Chess`] board, with a UCI front end ([`run_loop`]).
//!
//! The search runs on its own thread ([`Engine`]) and talks through typed
//! messages ([`EngineCommand`] in, [`SearchReport`] out).
#![forbid(unsafe_code)]

pub mod engine;
pub mod eval;
pub mod nnue;
pub mod params;
pub mod robot;
pub mod search;
pub mod time;
pub mod uci_loop;
pub mod uci_options;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

pub use engine::{Engine, EngineCommand, SearchReport};
pub use robot::{Level, Robot, RobotClock};
pub use search::{
    Evaluation, IterationReport, RootLine, Score, SearchClock, SearchContext, SearchOutcome,
    SearchParams, search, search_in,
};
pub use time::TimeLimits;
pub use uci_loop::run_loop;

/// The positions [`bench`](fn@bench) searches.
pub const BENCH_FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/pp3ppp/4p3/3p4/3P4/2P2N2/PP3PPP/2R3K1 w - - 0 25",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

/// Searches every [`BENCH_FENS`] position to `depth` with a fresh 16 MB
/// table on one thread; returns the total nodes (the bench signature) and
/// the time taken.
#[must_use]
pub fn bench(depth: u32) -> (u64, Duration) {
    bench_threads(depth, 1)
}

/// [`bench`](fn@bench) with `threads` search threads (Lazy SMP). With more than one
/// thread the node count varies from run to run.
///
/// # Panics
///
/// Never: the FENs are fixed and valid.
#[must_use]
#[allow(clippy::unwrap_used)]
pub fn bench_threads(depth: u32, threads: usize) -> (u64, Duration) {
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    for fen in BENCH_FENS {
        let fen: Fen = fen.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let tt = search::tt::TranspositionTable::new(engine::DEFAULT_HASH_MB);
        let params = SearchParams {
            pos,
            limits: TimeLimits {
                depth: Some(depth),
                ..TimeLimits::default()
            },
            threads,
            ..SearchParams::default()
        };
        nodes += search(params, &tt, &stop, |_| {}).nodes;
    }
    (nodes, start.elapsed())
}
