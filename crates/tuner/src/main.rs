//! `rochade-tune`: tunes the evaluation weights of `rochade-engine` by
//! Texel's method, reproducibly.
//!
//! - `generate` plays seeded self-play games, keeps quiet positions and
//!   labels them with the game result and a Stockfish evaluation;
//! - `tune` fits the sigmoid constant K, then every weight by gradient
//!   descent on the mean squared error, and writes
//!   `crates/engine/src/eval/weights.rs`;
//! - `start` writes the starting weights (PeSTO plus hand values);
//! - `nnue` trains the engine's network (`rochade_engine::nnue`) and
//!   writes the network file; `nnue-check` measures a network file.
//!
//! See `crates/tuner/README.md` for the exact commands.
#![forbid(unsafe_code)]

mod data;
mod nnue;
mod selfplay;
mod sfplay;
mod start;
mod stockfish;
mod texel;
mod write;

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use rochade_engine::eval::features::SECTIONS;

/// Texel tuning for Rochade's evaluation.
#[derive(Debug, Parser)]
#[command(name = "rochade-tune", version, about)]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Play self-play games and write labelled quiet positions.
    Generate(GenerateArgs),
    /// Play Stockfish against itself and write its quiet positions,
    /// each labelled with the score of the search that moved from it.
    Sfplay(SfplayArgs),
    /// Fit the weights to a data file and write the weights module.
    Tune(TuneArgs),
    /// Write the starting weights (PeSTO tables plus hand values).
    Start(StartArgs),
    /// Train the engine's network (NNUE) on data files and write the
    /// network file.
    Nnue(nnue::cli::TrainArgs),
    /// Measure a network file through the engine's inference on the
    /// validation positions of data files.
    NnueCheck(nnue::cli::CheckArgs),
}

/// Options of `generate`.
#[derive(Debug, Args)]
struct GenerateArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the random openings; game `i` uses `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Node budget of each self-play move.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random legal moves played from the start position.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Chance that a quiet position is kept.
    #[arg(long, default_value_t = 0.5)]
    sample: f64,
    /// Play with the embedded network (`network`) or the classical
    /// evaluation (`classical`).
    #[arg(long, default_value = "classical", value_parser = parse_evaluation)]
    evaluation: rochade_engine::Evaluation,
    /// Stockfish search depth for the labels (0: no Stockfish labels).
    #[arg(long, default_value_t = 7)]
    sf_depth: u32,
    /// The Stockfish binary.
    #[arg(long, default_value = "/usr/games/stockfish")]
    stockfish: PathBuf,
    /// Worker threads (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: u64,
    /// Output file.
    #[arg(long, default_value = "data/tuner/positions.tsv")]
    out: PathBuf,
}

/// Options of `sfplay`.
#[derive(Debug, Args)]
struct SfplayArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the random openings; game `i` uses `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stockfish's search depth for each move.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Random legal moves played from the start position (one more in
    /// half the games).
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Score (centipawns) that ends a game as won once it has held for
    /// six plies.
    #[arg(long, default_value_t = 1500)]
    win_score: i32,
    /// Chance that a ply after the opening is a random legal move.
    #[arg(long, default_value_t = 0.0)]
    random_moves: f64,
    /// The Stockfish binary.
    #[arg(long, default_value = "/usr/games/stockfish")]
    stockfish: PathBuf,
    /// Stockfish processes at once (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: u64,
    /// Output file.
    #[arg(long, default_value = "data/tuner/sfplay.tsv")]
    out: PathBuf,
}

/// Options of `tune`.
#[derive(Debug, Args)]
struct TuneArgs {
    /// Data file written by `generate`.
    #[arg(long, default_value = "data/tuner/positions.tsv")]
    data: PathBuf,
    /// Weight of the game result in the label; the rest is Stockfish's
    /// evaluation as a win probability.
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Gradient-descent epochs (full batch, Adam).
    #[arg(long, default_value_t = 2000)]
    epochs: u32,
    /// Penalty on the squared distance (in centipawns) of each weight from
    /// the starting weights, added to the mean squared error.
    #[arg(long, default_value_t = 1e-9)]
    ridge: f64,
    /// Sections of `rochade_engine::eval::features` to keep at their
    /// starting values, by name (e.g. `--freeze MATERIAL --freeze PSQT`).
    #[arg(long)]
    freeze: Vec<String>,
    /// Sections of `rochade_engine::eval::features` to set to zero and
    /// keep there (the evaluation without those terms), by name.
    #[arg(long)]
    drop: Vec<String>,
    /// Start from the weights the engine is built with
    /// (`rochade_engine::eval::weights::WEIGHTS`) instead of the starting
    /// weights of `rochade-tune start`; with `--epochs 0` this measures the
    /// current evaluation's error.
    #[arg(long)]
    from_current: bool,
    /// The sigmoid constant K, instead of fitting it to the starting
    /// weights. K fixes the scale of the tuned evaluation: with K = 1 a
    /// centipawn means what it means in Stockfish's labels.
    #[arg(long)]
    k: Option<f64>,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Where to write the weights module.
    #[arg(long, default_value = "crates/engine/src/eval/weights.rs")]
    out: PathBuf,
}

/// Options of `start`.
#[derive(Debug, Args)]
struct StartArgs {
    /// Where to write the weights module.
    #[arg(long, default_value = "crates/engine/src/eval/weights.rs")]
    out: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let command = std::env::args()
        .skip(1)
        .fold(String::from("rochade-tune"), |acc, a| acc + " " + &a);
    match cli.command {
        Command::Generate(args) => generate(&args),
        Command::Sfplay(args) => sfplay(&args),
        Command::Tune(args) => tune(&args, &command),
        Command::Start(args) => {
            let weights = start::start_weights();
            write::write_weights(
                &args.out,
                &weights,
                &command,
                "the starting point of tuning",
            )
        }
        Command::Nnue(args) => nnue::cli::run_train(&args),
        Command::NnueCheck(args) => nnue::cli::run_check(&args),
    }
}

/// An evaluation by name: `network` or `classical`.
fn parse_evaluation(name: &str) -> Result<rochade_engine::Evaluation, String> {
    match name {
        "network" => Ok(rochade_engine::Evaluation::Network),
        "classical" => Ok(rochade_engine::Evaluation::Classical),
        other => Err(format!("{other:?} is neither network nor classical")),
    }
}

/// Runs `generate`.
fn generate(args: &GenerateArgs) -> anyhow::Result<()> {
    let settings = selfplay::Settings {
        nodes: args.nodes,
        random_plies: args.random_plies,
        sample: args.sample,
        evaluation: args.evaluation,
        sf_depth: args.sf_depth,
        stockfish: args.stockfish.clone(),
    };
    let stockfish = (settings.sf_depth > 0).then_some(settings.stockfish.as_path());
    play_to_file(
        &args.out,
        args.seed,
        args.games,
        args.threads,
        stockfish,
        |seed, sf| selfplay::play_game(&settings, seed, sf),
    )
}

/// Runs `sfplay`.
fn sfplay(args: &SfplayArgs) -> anyhow::Result<()> {
    let settings = sfplay::Settings {
        depth: args.depth,
        random_plies: args.random_plies,
        win_score: args.win_score,
        random_moves: args.random_moves,
        stockfish: args.stockfish.clone(),
    };
    play_to_file(
        &args.out,
        args.seed,
        args.games,
        args.threads,
        Some(&settings.stockfish),
        |seed, sf| {
            let sf = sf.context("no Stockfish process")?;
            sfplay::play_game(&settings, seed, sf)
        },
    )
}

/// Plays games `seed .. seed + games` with `play` on `threads` workers
/// (see [`selfplay::play_games`]) and writes their positions to `out`.
fn play_to_file<P>(
    out: &std::path::Path,
    seed: u64,
    games: u64,
    threads: u64,
    stockfish: Option<&std::path::Path>,
    play: P,
) -> anyhow::Result<()>
where
    P: Fn(u64, Option<&mut stockfish::Stockfish>) -> anyhow::Result<Vec<data::Record>> + Sync,
{
    let mut file = create(out)?;
    let positions =
        selfplay::play_games(seed, games, threads.max(1), stockfish, play, |records| {
            data::append(&mut file, records).with_context(|| format!("writing {}", out.display()))
        })?;
    println!("{positions} positions written to {}", out.display());
    Ok(())
}

/// Creates `path` (and its folder) for buffered writing.
fn create(path: &std::path::Path) -> anyhow::Result<std::io::BufWriter<std::fs::File>> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    Ok(std::io::BufWriter::new(file))
}

/// Runs `tune`.
fn tune(args: &TuneArgs, command: &str) -> anyhow::Result<()> {
    let records = data::read(&args.data)?;
    let set = texel::Dataset::new(&records, args.lambda)?;
    let mut start = if args.from_current {
        rochade_engine::eval::weights::WEIGHTS
            .iter()
            .map(|w| [f64::from(w.mg), f64::from(w.eg)])
            .collect()
    } else {
        start::start_weights()
    };
    let frozen = args
        .freeze
        .iter()
        .chain(&args.drop)
        .map(|name| {
            SECTIONS
                .iter()
                .find(|s| s.name == name.as_str())
                .map(|s| s.start..s.start + s.len)
                .with_context(|| {
                    let names: Vec<&str> = SECTIONS.iter().map(|s| s.name).collect();
                    format!("no section {name:?}; the sections are {}", names.join(", "))
                })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    for range in &frozen[args.freeze.len()..] {
        start[range.clone()].fill([0.0; 2]);
    }
    let report = texel::tune(
        &set,
        start,
        args.epochs,
        args.rate,
        args.ridge,
        &frozen,
        args.k,
    );
    let summary = format!(
        "{} positions ({} training, {} validation), lambda {}, ridge {:e}, frozen [{}], \
         dropped [{}], K {:.3}; validation MSE {:.6} -> {:.6}",
        records.len(),
        set.training_len(),
        set.validation_len(),
        args.lambda,
        args.ridge,
        args.freeze.join(", "),
        args.drop.join(", "),
        report.k,
        report.validation_before,
        report.validation_after
    );
    println!("{summary}");
    write::write_weights(&args.out, &report.weights, command, &summary)
}
