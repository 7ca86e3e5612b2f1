//! `rochade pgn`: check game records against the Laws, and convert them.

use std::{
    fs::File,
    io::{BufReader, Write},
    path::PathBuf,
};

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use rochade_laws::{
    Game, Language, Outcome, RuleSet, SanStyle,
    pgn::{PgnGame, PgnReader, ReadOptions, WriteOptions, write_game},
};
use shakmaty::{Color, Position};

/// Check or convert PGN files.
#[derive(Debug, Args)]
pub struct PgnArgs {
    /// What to do with the files.
    #[command(subcommand)]
    command: PgnCommand,
}

/// The `pgn` subcommands.
#[derive(Debug, Subcommand)]
enum PgnCommand {
    /// Replay every game under the Laws: per game "ok" or the first error,
    /// and the result the Laws give against the Result tag. Exits non-zero
    /// if any game is wrong.
    Check(CheckArgs),
    /// Rewrite every game: as PGN, or as a move list per line in SAN, long
    /// algebraic, UCI or ICCF numeric notation, in any language's letters.
    Convert(ConvertArgs),
}

/// Target notations of `pgn convert`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Target {
    /// PGN records.
    Pgn,
    /// Numbered SAN, one game a line.
    San,
    /// Numbered long algebraic (`e2-e4`), one game a line.
    Lan,
    /// UCI moves, one game a line.
    Uci,
    /// ICCF numeric notation (`5254`), one game a line.
    Numeric,
}

/// Arguments of `pgn convert`.
#[derive(Debug, Args)]
struct ConvertArgs {
    /// A PGN file.
    file: PathBuf,
    /// What to write.
    #[arg(long, value_enum, default_value = "pgn")]
    to: Target,
    /// Piece letters: en, sk, cs, de, fr, es, it, nl, pl, hu, ru, figurine.
    #[arg(long, default_value = "en")]
    lang: Language,
    /// The rules to replay the games by.
    #[arg(long, default_value = "fide")]
    rules: RuleSet,
}

/// Arguments of `pgn check`.
#[derive(Debug, Args)]
struct CheckArgs {
    /// PGN files (many games each).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The rules to judge by.
    #[arg(long, default_value = "fide")]
    rules: RuleSet,
    /// Print only the games that are wrong, and the summary.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs the command.
pub fn run(args: &PgnArgs) -> anyhow::Result<()> {
    match &args.command {
        PgnCommand::Check(check) => run_check(check),
        PgnCommand::Convert(convert) => run_convert(convert),
    }
}

/// `pgn convert`: games that fail are reported on stderr and skipped.
fn run_convert(args: &ConvertArgs) -> anyhow::Result<()> {
    let file =
        File::open(&args.file).with_context(|| format!("cannot open {}", args.file.display()))?;
    let keep = args.to == Target::Pgn;
    let options = ReadOptions {
        rules: args.rules,
        keep_variations: keep,
        keep_annotations: keep,
    };
    let style = SanStyle::in_language(args.lang);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = 0;
    for (index, read) in PgnReader::new(BufReader::new(file), options).enumerate() {
        let read = match read {
            Ok(read) => read,
            Err(e) => {
                failed += 1;
                eprintln!("{} game {}: {e}", args.file.display(), index + 1);
                continue;
            }
        };
        let text = match args.to {
            Target::Pgn => write_game(
                &read.game,
                &read.tags,
                &WriteOptions {
                    annotations: Some(&read.mainline),
                    opening_comment: read.opening_comment.as_deref(),
                    san: style,
                    ..WriteOptions::default()
                },
            ),
            target => format!("{}\n", move_list(&read.game, target, &style)),
        };
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    anyhow::ensure!(failed == 0, "{failed} game(s) could not be converted");
    Ok(())
}

/// One game's moves on one line in `target` notation.
fn move_list(game: &Game, target: Target, style: &SanStyle) -> String {
    let mode = game.castling_mode();
    let positions = game.history().positions();
    let mut words = Vec::new();
    for (ply, (m, pos)) in game.moves().iter().zip(positions).enumerate() {
        let numbered = matches!(target, Target::San | Target::Lan);
        if numbered && (pos.turn() == Color::White || ply == 0) {
            let dots = if pos.turn() == Color::White {
                "."
            } else {
                "..."
            };
            words.push(format!("{}{dots}", pos.fullmoves()));
        }
        words.push(match target {
            Target::San | Target::Pgn => rochade_laws::write_san(pos, *m, style),
            Target::Lan => rochade_laws::write_lan(pos, *m, style),
            Target::Uci => rochade_laws::write_uci(*m, mode),
            Target::Numeric => rochade_laws::write_numeric(pos, *m),
        });
    }
    words.join(" ")
}

/// `pgn check`.
fn run_check(args: &CheckArgs) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut good, mut bad) = (0usize, 0usize);
    for path in &args.files {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let options = ReadOptions {
            rules: args.rules,
            ..ReadOptions::default()
        };
        let mut reader = PgnReader::new(BufReader::new(file), options);
        let mut index = 0;
        while let Some(read) = reader.next() {
            index += 1;
            let verdict = match &read {
                Ok(game) => judge_result(game),
                Err(e) if e.move_number.is_empty() => Err(format!("'{}': {}", e.text, e.message)),
                Err(e) => Err(format!(
                    "move {} '{}': {}",
                    e.move_number, e.text, e.message
                )),
            };
            match verdict {
                Ok(summary) => {
                    good += 1;
                    if !args.quiet {
                        writeln!(out, "{} game {index}: ok, {summary}", path.display())?;
                    }
                }
                Err(problem) => {
                    bad += 1;
                    writeln!(out, "{} game {index}: {problem}", path.display())?;
                }
            }
            // The next game is recorded in this one's memory.
            if let Ok(game) = read {
                reader.recycle(game);
            }
        }
    }
    writeln!(out, "{} games: {good} ok, {bad} wrong", good + bad)?;
    out.flush()?;
    if bad > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// Compares the Result tag (and the movetext's result) with what the Laws
/// give: a finished game must carry its result; an unfinished one may carry
/// any (resignation, time and agreement are not in the moves).
fn judge_result(read: &PgnGame) -> Result<String, String> {
    let tag = read.tags.get("Result").unwrap_or("*");
    // A result PGN's movetext cannot carry (a double forfeit's 0-0) stays
    // in the tag, the movetext ending `*`.
    let carried = rochade_laws::pgn::is_termination_marker(tag);
    if let Some(token) = &read.movetext_result
        && token != tag
        && (carried || token != "*")
    {
        return Err(format!("Result tag {tag} but the movetext ends {token}"));
    }
    match read.game.outcome() {
        Some(Outcome { result, reason }) if result.as_str() != tag => Err(format!(
            "Result tag {tag} but the Laws give {result} ({reason}, {})",
            reason.article()
        )),
        Some(Outcome { result, reason }) => {
            Ok(format!("{result} ({reason}, {})", reason.article()))
        }
        None => Ok(format!("{tag} (the game goes on under the Laws)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> PgnGame {
        rochade_laws::pgn::PgnReader::new(text.as_bytes(), Default::default())
            .next()
            .expect("a game")
            .expect("reads")
    }

    #[test]
    fn iccf_art_6_9_a_double_forfeit_keeps_0_0_in_the_tag_and_star_in_the_movetext() {
        assert!(judge_result(&read("[Result \"0-0\"]\n\n1. e4 e5 *\n")).is_ok());
        // A result the movetext can carry must match it.
        let e = judge_result(&read("[Result \"1-0\"]\n\n1. e4 *\n")).expect_err("mismatch");
        assert!(e.contains("movetext ends *"), "{e}");
    }
}
