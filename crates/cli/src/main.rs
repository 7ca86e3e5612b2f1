//! The `rochade` command: glue between the command line and the crates.
#![forbid(unsafe_code)]

mod bench;
mod dashboard;
mod match_cmd;
mod pair;
mod perft;
mod pgn;
mod referee;
mod serve;
mod tactics;
mod trf;

mod timecontrol;
mod uci;
mod user;

use clap::{Parser, Subcommand};

/// The allocator: mimalloc, whose per-thread free lists cost the move path
/// (many small messages made and dropped on each move) less than the
/// system's malloc (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Rochade: chess by the FIDE Laws.
#[derive(Debug, Parser)]
#[command(name = "rochade", version, about, propagate_version = true)]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands, one file each.
#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator test).
    Perft(perft::PerftArgs),
    /// Measure speed against a baseline in the same run.
    Bench(bench::BenchArgs),
    /// Check or convert PGN game records.
    Pgn(pgn::PgnArgs),
    /// Judge games given as JSON Lines on stdin (a batch arbiter).
    Referee(referee::RefereeArgs),
    /// Read a time control and print it as JSON: normalized form, PGN tag, category, periods.
    #[command(name = "timecontrol")]
    TimeControl(timecontrol::Args),
    /// Play chess as a UCI engine on stdin/stdout.
    Uci(uci::UciArgs),
    /// Serve the game page and live games (HTTP + WebSocket).
    Serve(serve::ServeArgs),
    /// Play many games over WebSockets against a running server and report round trips.
    Loadtest(serve::LoadtestArgs),
    /// Manage accounts (add, list, disable, enable, leave, director, bot) in the server's database.
    User(user::UserArgs),
    /// Make personal API tokens (Authorization: Bearer) for accounts.
    Token(user::TokenArgs),
    /// Play UCI engines against each other: openings, clocks, adjudication, Elo, SPRT, PGN.
    Match(match_cmd::MatchArgs),
    /// Run a UCI engine over an EPD tactics suite (bm/am) and report solved/total.
    Tactics(tactics::TacticsArgs),
    /// Print the next round's pairings of a TRF file (as bbpPairings -p).
    Pair(pair::PairArgs),
    /// Tournament report files: check every round's pairings.
    Trf(trf::TrfArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Referee(args) => referee::run(args),
        Command::Pgn(args) => pgn::run(args),
        Command::Bench(args) => bench::run(args),
        Command::TimeControl(args) => timecontrol::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Loadtest(args) => serve::loadtest(args),
        Command::User(args) => user::run(args),
        Command::Token(args) => user::token(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Tactics(args) => tactics::run(args),
        Command::Pair(args) => pair::run(args),
        Command::Trf(args) => trf::run(args),
    };
    match result {
        Err(e) if is_broken_pipe(&e) => Ok(()),
        other => other,
    }
}

/// A closed pipe downstream (`rochade ... | head`) is a normal end.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
