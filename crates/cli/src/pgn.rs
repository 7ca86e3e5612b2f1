//! `rochade pgn`: check game records against the Laws, and convert them.

use std::{
    fs::File,
    io::{BufReader, Write},
    path::PathBuf,
};

use anyhow::Context;
use clap::{Args, Subcommand};
use rochade_laws::{
    Outcome, RuleSet,
    pgn::{PgnGame, PgnReader, ReadOptions},
};

/// Check or convert PGN files.
#[derive(Debug, Args)]
pub struct PgnArgs {
    /// What to do with the files.
    #[command(subcommand)]
    command: PgnCommand,
}

/// The `pgn` subcommands.
#[derive(Debug, Subcommand)]
enum PgnCommand {
    /// Replay every game under the Laws: per game "ok" or the first error,
    /// and the result the Laws give against the Result tag. Exits non-zero
    /// if any game is wrong.
    Check(CheckArgs),
}

/// Arguments of `pgn check`.
#[derive(Debug, Args)]
struct CheckArgs {
    /// PGN files (many games each).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The rules to judge by.
    #[arg(long, default_value = "fide")]
    rules: RuleSet,
    /// Print only the games that are wrong, and the summary.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs the command.
pub fn run(args: &PgnArgs) -> anyhow::Result<()> {
    match &args.command {
        PgnCommand::Check(check) => run_check(check),
    }
}

/// `pgn check`.
fn run_check(args: &CheckArgs) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut good, mut bad) = (0usize, 0usize);
    for path in &args.files {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let options = ReadOptions {
            rules: args.rules,
            ..ReadOptions::default()
        };
        for (index, read) in PgnReader::new(BufReader::new(file), options).enumerate() {
            let verdict = match &read {
                Ok(game) => judge_result(game),
                Err(e) if e.move_number.is_empty() => Err(format!("'{}': {}", e.text, e.message)),
                Err(e) => Err(format!(
                    "move {} '{}': {}",
                    e.move_number, e.text, e.message
                )),
            };
            match verdict {
                Ok(summary) => {
                    good += 1;
                    if !args.quiet {
                        writeln!(out, "{} game {}: ok, {summary}", path.display(), index + 1)?;
                    }
                }
                Err(problem) => {
                    bad += 1;
                    writeln!(out, "{} game {}: {problem}", path.display(), index + 1)?;
                }
            }
        }
    }
    writeln!(out, "{} games: {good} ok, {bad} wrong", good + bad)?;
    out.flush()?;
    if bad > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// Compares the Result tag (and the movetext's result) with what the Laws
/// give: a finished game must carry its result; an unfinished one may carry
/// any (resignation, time and agreement are not in the moves).
fn judge_result(read: &PgnGame) -> Result<String, String> {
    let tag = read.tags.get("Result").unwrap_or("*");
    if let Some(token) = &read.movetext_result
        && token != tag
    {
        return Err(format!("Result tag {tag} but the movetext ends {token}"));
    }
    match read.game.outcome() {
        Some(Outcome { result, reason }) if result.as_str() != tag => Err(format!(
            "Result tag {tag} but the Laws give {result} ({reason}, {})",
            reason.article()
        )),
        Some(Outcome { result, reason }) => {
            Ok(format!("{result} ({reason}, {})", reason.article()))
        }
        None => Ok(format!("{tag} (the game goes on under the Laws)")),
    }
}
