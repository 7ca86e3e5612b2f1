//! `rochade pair`: the next round's pairings of a TRF file, printed as
//! bbpPairings and JaVaFo print them with `-p`.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use rochade_tournament::berger::{self, Cycles};
use rochade_tournament::dutch::{self, acceleration::Method};
use rochade_tournament::trf::Trf;

/// The pairing systems `rochade pair` knows.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum System {
    /// Round robin by the FIDE Berger tables (C.05 Annex 1); single or
    /// double as the file's XXR says.
    Berger,
    /// Swiss by the FIDE (Dutch) System (C.04.3); the file's XXR gives
    /// the number of rounds, XXC the initial colour, XXA acceleration.
    Dutch,
}

/// Arguments of `rochade pair`.
#[derive(Debug, Args)]
pub struct PairArgs {
    /// The pairing system.
    #[arg(long, value_enum)]
    system: System,
    /// Baku acceleration (C.04.5.1) on top of the file's XXA records
    /// (Dutch only).
    #[arg(long)]
    baku: bool,
    /// The tournament report file (TRF16, with XXR).
    file: PathBuf,
}

/// The acceleration method `--baku` asks for.
pub fn method(baku: bool) -> Method {
    if baku { Method::Baku } else { Method::None }
}

/// Reads and parses a TRF file.
pub fn read(file: &PathBuf) -> anyhow::Result<Trf> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    Trf::parse(&text).with_context(|| format!("{}", file.display()))
}

/// The number of players and cycles of a round robin, from the file's
/// players and its XXR.
pub fn berger_shape(trf: &Trf) -> anyhow::Result<(usize, Cycles)> {
    let players = trf.players().len();
    let Some(rounds) = trf.rounds().map(usize::from) else {
        bail!("the file has no XXR record (number of rounds)");
    };
    for cycles in [Cycles::Single, Cycles::Double] {
        if berger::rounds_in(players, cycles) == rounds {
            return Ok((players, cycles));
        }
    }
    bail!(
        "XXR {rounds} fits neither a single ({}) nor a double ({}) round robin of {players} players",
        berger::rounds_in(players, Cycles::Single),
        berger::rounds_in(players, Cycles::Double)
    )
}

/// Prints the next round's pairings.
pub fn run(args: &PairArgs) -> anyhow::Result<()> {
    let trf = read(&args.file)?;
    match args.system {
        System::Berger => {
            let (players, cycles) = berger_shape(&trf)?;
            let next = usize::from(trf.played_rounds()) + 1;
            if next > berger::rounds_in(players, cycles) {
                bail!(
                    "the tournament is finished: all {} rounds are paired",
                    next - 1
                );
            }
            print!("{}", berger::round(players, next, cycles)?);
        }
        System::Dutch => print!("{}", dutch::pair_with(&trf, method(args.baku))?),
    }
    Ok(())
}
