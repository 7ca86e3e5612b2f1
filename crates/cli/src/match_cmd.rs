//! `rochade match`: play UCI engines against each other.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use rochade_arena::{
    DrawRule, EngineSpec, MatchConfig, ResignRule, Sprt, Tablebases, elo_text, read_openings,
    run_match,
};

/// Arguments of `rochade match`.
#[derive(Debug, Args)]
#[command(after_help = "Example:\n  rochade match \\\n    \
    --engine name=ours cmd=target/release/rochade arg=uci \\\n    \
    --engine name=sf cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2400 \\\n    \
    --each tc=10+0.1 --openings data-src/openings/balanced.epd --games 40 --pgn games.pgn")]
pub struct MatchArgs {
    /// The engines, one `--engine` each.
    #[command(flatten)]
    engines: Engines,
    /// Fields for both engines, overridden by each engine's own.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// Openings: EPD (.epd) or PGN; each is played twice, colours swapped.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// With PGN openings, the number of half-moves to keep from each game.
    #[arg(long)]
    plies: Option<usize>,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Adjudicate a win when both engines agree: `movecount=N score=CP`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Vec<String>,
    /// Adjudicate a draw: `movenumber=M movecount=N score=CP`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Vec<String>,
    /// Adjudicate with the Syzygy tables in this directory.
    #[arg(long, value_name = "PATH")]
    tb: Option<PathBuf>,
    /// Stop at a decision: `elo0=0 elo1=10 alpha=0.05 beta=0.05`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Vec<String>,
    /// Append every game to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// The PGN Event tag.
    #[arg(long, default_value = "rochade match")]
    event: String,
}

/// The `--engine` groups: clap's derive cannot group values by
/// occurrence, so this part is written with the builder API.
#[derive(Debug, Clone, Default)]
struct Engines(Vec<Vec<String>>);

impl clap::FromArgMatches for Engines {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|o| o.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(Self(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for Engines {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .required(true)
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .value_name("KEY=VALUE")
                .help(
                    "An engine, as key=value fields: name=, cmd= (required), arg= (repeatable), \
                     option.NAME=VALUE, and one of tc=[moves/]seconds[+inc], st=seconds, depth=N, \
                     nodes=N. Give it twice",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// Reads `key=value` words into a rule, if any were given.
fn rule<T: std::str::FromStr<Err = String>>(
    flag: &str,
    words: &[String],
) -> anyhow::Result<Option<T>> {
    if words.is_empty() {
        return Ok(None);
    }
    words
        .join(" ")
        .parse()
        .map(Some)
        .map_err(|e| anyhow::anyhow!("--{flag}: {e}"))
}

/// Plays the match and prints the final score.
///
/// # Errors
///
/// Bad arguments, unreadable files, engines that fail to start.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let [first, second] = args.engines.0.as_slice() else {
        bail!("give exactly two --engine, not {}", args.engines.0.len());
    };
    let spec = |fields: &Vec<String>, n: usize| {
        EngineSpec::parse(args.each.iter().chain(fields).map(String::as_str))
            .with_context(|| format!("--engine number {n}"))
    };
    let engines = [spec(first, 1)?, spec(second, 2)?];
    let openings = match &args.openings {
        Some(path) => read_openings(path, args.plies)?,
        None => Vec::new(),
    };
    let tablebases = args.tb.as_deref().map(Tablebases::open).transpose()?;
    let config = MatchConfig {
        engines,
        openings,
        games: args.games,
        concurrency: args.concurrency,
        resign: rule::<ResignRule>("resign", &args.resign)?,
        draw: rule::<DrawRule>("draw", &args.draw)?,
        tablebases,
        sprt: rule::<Sprt>("sprt", &args.sprt)?,
        pgn: args.pgn.clone(),
        event: args.event.clone(),
    };
    let stdout = std::io::stdout();
    let summary = run_match(&config, &mut stdout.lock())?;
    println!(
        "Finished match: {} vs {}: {}; Elo difference {}",
        config.engines[0].name,
        config.engines[1].name,
        summary.tally,
        elo_text(&summary.tally)
    );
    Ok(())
}
