//! `rochade tactics`: run a UCI engine over an EPD test suite.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use rochade_arena::{EngineSpec, read_suite, run_tactics};

/// Arguments of `rochade tactics`.
#[derive(Debug, Args)]
#[command(
    after_help = "Example:\n  rochade tactics data-src/tactics/wac.epd --movetime 1000\n  \
    rochade tactics data-src/tactics/wac.epd --movetime 1000 --engine cmd=/usr/games/stockfish"
)]
pub struct TacticsArgs {
    /// The suite: EPD with `bm` (best moves) or `am` (moves to avoid).
    file: PathBuf,
    /// Milliseconds per position.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// The engine as `key=value` fields (cmd=, arg=, option.NAME=VALUE,
    /// name=); default: this program's own engine (`rochade uci`).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// Only the first N positions.
    #[arg(long)]
    limit: Option<usize>,
}

/// Runs the suite and prints solved/total and the failures.
///
/// # Errors
///
/// Unreadable suite, an engine that fails.
pub fn run(args: &TacticsArgs) -> anyhow::Result<()> {
    let engine = if args.engine.is_empty() {
        let me = std::env::current_exe().context("cannot find the rochade program")?;
        EngineSpec::parse(
            ["name=rochade", "arg=uci"]
                .into_iter()
                .chain([format!("cmd={}", me.display()).as_str()]),
        )?
    } else {
        EngineSpec::parse(args.engine.iter().map(String::as_str))?
    };
    let mut problems = read_suite(&args.file)?;
    if let Some(limit) = args.limit {
        problems.truncate(limit);
    }
    let stdout = std::io::stdout();
    let attempts = run_tactics(
        &engine,
        &problems,
        Duration::from_millis(args.movetime),
        &mut stdout.lock(),
    )?;
    let solved = attempts.iter().filter(|a| a.solved).count();
    let failures: Vec<&str> = attempts
        .iter()
        .filter(|a| !a.solved)
        .map(|a| a.id.as_str())
        .collect();
    println!(
        "{}: solved {solved}/{} ({:.1}%) at {} ms per position",
        engine.name,
        attempts.len(),
        100.0 * solved as f64 / attempts.len().max(1) as f64,
        args.movetime
    );
    if !failures.is_empty() {
        println!("failed: {}", failures.join(" "));
    }
    Ok(())
}
