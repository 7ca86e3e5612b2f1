//! `rochade perft`: move-tree node counts, printed as Stockfish's `go perft`.

use std::io::Write;

use anyhow::{Context, bail};
use clap::Args;
use rochade_laws::{Game, RuleSet, perft};

/// Count the leaf nodes of the legal move tree (a move generator test).
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// How many plies deep to count.
    depth: u32,
    /// Start from this FEN (standard, X-FEN or Shredder-FEN).
    #[arg(long, conflicts_with = "chess960")]
    fen: Option<String>,
    /// Start from Chess960 position N (0-959).
    #[arg(long, value_name = "N")]
    chess960: Option<u32>,
    /// Print the count below each legal move first, as `e2e4: 600`.
    #[arg(long)]
    divide: bool,
}

/// Runs the command.
pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    if args.depth > 12 {
        bail!("depth {} is too deep for perft (at most 12)", args.depth);
    }
    let game = match (&args.fen, args.chess960) {
        (Some(fen), _) => Game::from_fen(fen, RuleSet::Fide).context("--fen")?,
        (None, Some(n)) => Game::chess960(n, RuleSet::Fide).context("--chess960")?,
        (None, None) => Game::default(),
    };
    let pos = game.position();
    let mut out = std::io::stdout().lock();
    let total = if args.divide {
        let parts = perft::divide(pos, args.depth, game.castling_mode());
        for (uci, n) in &parts {
            writeln!(out, "{uci}: {n}")?;
        }
        writeln!(out)?;
        if args.depth == 0 {
            1
        } else {
            parts.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft::count(pos, args.depth)
    };
    writeln!(out, "Nodes searched: {total}")?;
    Ok(())
}
