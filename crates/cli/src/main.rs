//! The `rochade` command: glue between the command line and the crates.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};

mod timecontrol;

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
    /// Read a time control and print it as JSON: normalized form, PGN tag, category, periods.
    #[command(name = "timecontrol")]
    TimeControl(timecontrol::Args),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::TimeControl(args) => timecontrol::run(args),
    }
}
