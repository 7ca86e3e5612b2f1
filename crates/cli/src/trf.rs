//! `rochade trf check`: re-pairs every round of a TRF file and reports
//! the first difference (the free pairings checker).

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::bail;
use clap::{Args, Subcommand};
use rochade_tournament::trf::{ResultCode, Trf};
use rochade_tournament::{RoundPairing, berger, dutch};

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
        /// Baku acceleration (C.04.5.1) on top of the file's XXA records
        /// (Dutch only).
        #[arg(long)]
        baku: bool,
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

/// The round as `system` pairs it from the rounds before it.
fn repair(trf: &Trf, system: System, baku: bool, round: u16) -> anyhow::Result<RoundPairing> {
    Ok(match system {
        System::Berger => {
            let (players, cycles) = pair::berger_shape(trf)?;
            berger::round(players, usize::from(round), cycles)?
        }
        System::Dutch => dutch::pair_round_with(trf, round, pair::method(baku))?,
    })
}

/// Runs `rochade trf`.
pub fn run(args: &TrfArgs) -> anyhow::Result<()> {
    let TrfCommand::Check { system, baku, file } = &args.command;
    let trf = pair::read(file)?;
    let played = trf.played_rounds();
    for round in 1..=played {
        let expected = repair(&trf, *system, *baku, round)?;
        let want: Sets = (
            expected
                .games
                .iter()
                .map(|g| (g.white.get(), g.black.get()))
                .collect(),
            expected.byes.iter().map(|b| b.get()).collect(),
        );
        let mut got = recorded(&trf, round);
        if matches!(system, System::Dutch) {
            // Only the pairing-allocated bye is the system's; requested
            // byes and absences are the file's own.
            got.1 = trf
                .round(round)
                .into_iter()
                .filter(|(_, e)| {
                    e.is_some_and(|e| e.result == Some(ResultCode::PairingAllocatedBye))
                })
                .map(|(p, _)| p.get())
                .collect();
        }
        if want != got {
            let show = |games: Vec<String>, byes: Vec<String>, none: &str| {
                let all: Vec<String> = games.into_iter().chain(byes).collect();
                if all.is_empty() {
                    none.to_owned()
                } else {
                    all.join(", ")
                }
            };
            let missing = show(
                want.0
                    .difference(&got.0)
                    .map(|(w, b)| format!("{w}-{b}"))
                    .collect(),
                want.1
                    .difference(&got.1)
                    .map(|p| format!("{p} bye"))
                    .collect(),
                "nothing",
            );
            let extra = show(
                got.0
                    .difference(&want.0)
                    .map(|(w, b)| format!("{w}-{b}"))
                    .collect(),
                got.1
                    .difference(&want.1)
                    .map(|p| format!("{p} bye"))
                    .collect(),
                "nothing else",
            );
            bail!(
                "round {round} differs: the system pairs {missing} that the file lacks; the file has {extra} instead"
            );
        }
    }
    println!("ok: {played} rounds, every one as the system pairs it");
    Ok(())
}
