//! `rochade serve`: the game server, and `rochade loadtest` against it.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context as _;
use rochade_server::{EngineChoice, ServeConfig};

/// Arguments of `rochade serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The SQLite database (created and migrated on first start).
    #[arg(long, default_value = "rochade.sqlite")]
    db: PathBuf,
    /// An external UCI engine for the robot's levels (e.g. /usr/games/stockfish).
    #[arg(long)]
    engine: Option<PathBuf>,
}

/// Serves until SIGTERM or Ctrl-C, then drains and stops.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let mut config = ServeConfig::new(args.addr, args.db.clone());
    if let Some(path) = &args.engine {
        config.engine = EngineChoice::external(path)?;
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(rochade_server::serve(config, stop_signal()))?;
    Ok(())
}

/// Completes on Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
