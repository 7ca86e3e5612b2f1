//! `rochade uci`: speak UCI on stdin/stdout, for chess GUIs.

use clap::Args;

/// Arguments of `rochade uci` (none yet).
#[derive(Debug, Args)]
pub struct UciArgs {}

/// Runs the engine's UCI loop until `quit` or end of input.
///
/// # Errors
///
/// When stdin or stdout fail.
pub fn run(_args: &UciArgs) -> anyhow::Result<()> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout();
    rochade_engine::run_loop(stdin, stdout)?;
    Ok(())
}
