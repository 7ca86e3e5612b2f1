//! `rochade trf check`: re-pairs every round of a TRF file and reports
//! the first difference (the free pairings checker).

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::bail;
use clap::{Args, Subcommand};
use rochade_tournament::berger;
use rochade_tournament::trf::Trf;

use crate::pair::{self, System};

/// Arguments of `rochade trf`.
#[derive(Debug, Args)]
pub struct TrfArgs {
    /// What to do with the file.
    #[command(subcommand)]
    command: TrfCommand,
}

/// The `rochade trf` subcommands.
#[derive(Debug, Subcommand)]
enum TrfCommand {
    /// Re-pair every round and report the first difference from the file.
    Check {
        /// The pairing system the file was paired with.
        #[arg(long, value_enum)]
        system: System,
        /// The tournament report file.
        file: PathBuf,
    },
}

/// A round as sets: (white, black) games and players without a game.
type Sets = (BTreeSet<(u16, u16)>, BTreeSet<u16>);

/// The games and byes the file records for `round`.
fn recorded(trf: &Trf, round: u16) -> Sets {
    let mut games = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for (player, entry) in trf.round(round) {
        match entry.and_then(|e| e.opponent.map(|o| (o, e.colour))) {
            Some((o, Some(rochade_tournament::Colour::White))) => {
                games.insert((player.get(), o.get()));
            }
            Some(_) => {}
            None => {
                byes.insert(player.get());
            }
        }
    }
    (games, byes)
}

/// Runs `rochade trf`.
pub fn run(args: &TrfArgs) -> anyhow::Result<()> {
    let TrfCommand::Check { system, file } = &args.command;
    let trf = pair::read(file)?;
    let played = trf.played_rounds();
    match system {
        System::Berger => {
            let (players, cycles) = pair::berger_shape(&trf)?;
            for round in 1..=played {
                let expected = berger::round(players, usize::from(round), cycles)?;
                let want: Sets = (
                    expected
                        .games
                        .iter()
                        .map(|g| (g.white.get(), g.black.get()))
                        .collect(),
                    expected.byes.iter().map(|b| b.get()).collect(),
                );
                let got = recorded(&trf, round);
                if want != got {
                    let missing: Vec<String> = want
                        .0
                        .difference(&got.0)
                        .map(|(w, b)| format!("{w}-{b}"))
                        .collect();
                    let extra: Vec<String> = got
                        .0
                        .difference(&want.0)
                        .map(|(w, b)| format!("{w}-{b}"))
                        .collect();
                    bail!(
                        "round {round} differs: the Berger table has {} that the file lacks; the file has {} instead",
                        if missing.is_empty() {
                            "no game".to_owned()
                        } else {
                            missing.join(", ")
                        },
                        if extra.is_empty() {
                            "no other game".to_owned()
                        } else {
                            extra.join(", ")
                        },
                    );
                }
            }
        }
    }
    println!("ok: {played} rounds, every one as the system pairs it");
    Ok(())
}
