//! The subcommands `nnue` (train a network and write it) and
//! `nnue-check` (measure a network file).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, ensure};
use clap::Args;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rochade_engine::nnue::{Network, QB};

use super::check::{engine_mse, quantisation_error};
use super::data::{LoadOptions, Split, load};
use super::model::Model;
use super::train::{Epoch, Phase, Settings, mse, rate_at, train};

/// Options of `nnue`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Data files (repeatable), read in order; every tenth position is
    /// held out for validation.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where to write the network; it is also written after every epoch
    /// that lowers the validation error.
    #[arg(long, default_value = "crates/engine/nets/default.nnue")]
    out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 12)]
    epochs: u32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Adam's step size at the start (× 0.3 after 60 % of the steps and
    /// again after 85 %).
    #[arg(long, default_value_t = 0.003)]
    lr: f32,
    /// Epochs after the others with the output weights rounded to what
    /// the network file can hold and fixed, at the last step size, so that
    /// the other weights make up for the rounding.
    #[arg(long, default_value_t = 1)]
    snap_epochs: u32,
    /// Weight of the game result in the target; the rest is Stockfish's
    /// score as an expected score. Below 1, positions without a
    /// Stockfish score are skipped.
    #[arg(long, default_value_t = 0.0)]
    lambda: f64,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the starting weights (the shuffling uses seed + 1).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Do not mirror half the positions of each epoch from left to right.
    #[arg(long)]
    no_mirror: bool,
    /// Read only the first this many positions of the data.
    #[arg(long)]
    max_positions: Option<usize>,
}

/// Options of `nnue-check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Data files (repeatable), read in order; every tenth position is
    /// measured (the validation positions of `nnue` and `tune`).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// The network file.
    #[arg(long)]
    net: PathBuf,
    /// Weight of the game result in the target.
    #[arg(long, default_value_t = 0.0)]
    lambda: f64,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Read only the first this many positions of the data.
    #[arg(long)]
    max_positions: Option<usize>,
}

/// Reads the data and says what was read.
fn read(
    data: &[PathBuf],
    lambda: f64,
    max_positions: Option<usize>,
    training: bool,
) -> anyhow::Result<Split> {
    let started = Instant::now();
    let options = LoadOptions {
        lambda,
        max_positions: max_positions.unwrap_or(usize::MAX),
        training,
    };
    let split = load(data, &options)?;
    let training = if training {
        format!("{} training and ", split.training.len())
    } else {
        String::new()
    };
    println!(
        "{training}{} validation positions read in {:.1} s ({} without a Stockfish score skipped)",
        split.validation.len(),
        started.elapsed().as_secs_f64(),
        split.unlabelled,
    );
    if split.incomplete > 0 {
        println!(
            "{} file(s) end in a line without a line end (still being written?); it was left out",
            split.incomplete
        );
    }
    ensure!(!split.validation.is_empty(), "no validation positions");
    Ok(split)
}

/// Writes `net` to `path`.
fn write(path: &Path, net: &Network) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, net.to_bytes()).with_context(|| format!("writing {}", path.display()))
}

/// Runs `nnue`.
///
/// # Errors
///
/// The data cannot be read or the network cannot be written.
pub fn run_train(args: &TrainArgs) -> anyhow::Result<()> {
    let split = read(&args.data, args.lambda, args.max_positions, true)?;
    ensure!(!split.training.is_empty(), "no training positions");
    let threads = args.threads.max(1);
    let model = Model::random(&mut StdRng::seed_from_u64(args.seed));
    println!(
        "start: validation MSE {:.6}",
        mse(&model, &split.validation, threads)
    );
    let mut settings = Settings {
        epochs: args.epochs,
        batch: args.batch,
        rate: args.lr,
        threads,
        seed: args.seed.wrapping_add(1),
        phase: Phase::Float,
        mirror: !args.no_mirror,
    };
    let (mut best, mut float_mse) = train(
        &settings,
        model,
        &split.training,
        &split.validation,
        |e, model| report(args, "epoch", e, model),
    );
    if args.snap_epochs > 0 {
        best.snap_output();
        settings.epochs = args.snap_epochs;
        settings.rate = rate_at(args.lr, 1, 1);
        settings.phase = Phase::Snapped;
        println!(
            "output weights rounded to multiples of 1/{QB}: validation MSE {:.6}",
            mse(&best, &split.validation, threads)
        );
        (best, float_mse) = train(
            &settings,
            best,
            &split.training,
            &split.validation,
            |e, model| report(args, "snapped epoch", e, model),
        );
    }
    let net = best.quantise();
    write(&args.out, &net)?;
    println!(
        "validation MSE {float_mse:.6} (float), {:.6} (quantised, through the engine); \
         float and engine evaluations differ by {:.2} cp on average; written to {}",
        engine_mse(&net, &split.validation, threads),
        quantisation_error(&best, &net, &split.validation, threads),
        args.out.display()
    );
    Ok(())
}

/// Prints what epoch `e` measured, and writes the network if it is the
/// best so far.
fn report(args: &TrainArgs, what: &str, e: &Epoch, model: &Model) {
    println!(
        "{what} {:3}: training loss {:.6}, validation MSE {:.6}{}, {:.0} positions/s, lr {:.1e}",
        e.number,
        e.training,
        e.validation,
        if e.best { " (best)" } else { "" },
        e.speed,
        e.rate,
    );
    if e.best
        && let Err(err) = write(&args.out, &model.quantise())
    {
        eprintln!("{err:#}");
    }
}

/// Runs `nnue-check`.
///
/// # Errors
///
/// The network or the data cannot be read.
pub fn run_check(args: &CheckArgs) -> anyhow::Result<()> {
    let bytes =
        std::fs::read(&args.net).with_context(|| format!("reading {}", args.net.display()))?;
    let net = Network::from_bytes(&bytes).with_context(|| args.net.display().to_string())?;
    let split = read(&args.data, args.lambda, args.max_positions, false)?;
    println!(
        "{}: validation MSE {:.6} on {} positions (lambda {})",
        args.net.display(),
        engine_mse(&net, &split.validation, args.threads),
        split.validation.len(),
        args.lambda
    );
    Ok(())
}
