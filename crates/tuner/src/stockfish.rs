//! A minimal UCI driver for Stockfish, used to label positions.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{Context, bail};

/// The score given for a forced mate, in centipawns.
pub const MATE_CP: i32 = 3000;

/// A running Stockfish process.
pub struct Stockfish {
    child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Stockfish {
    /// Starts `binary` with one thread and a 16 MB hash.
    pub fn start(binary: &Path) -> anyhow::Result<Self> {
        let mut child = Command::new(binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let input = BufWriter::new(child.stdin.take().context("Stockfish stdin")?);
        let output = BufReader::new(child.stdout.take().context("Stockfish stdout")?);
        let mut sf = Self {
            child,
            input,
            output,
        };
        sf.send("uci")?;
        sf.wait_for("uciok")?;
        sf.send("setoption name Threads value 1")?;
        sf.send("setoption name Hash value 16")?;
        sf.new_game()?;
        Ok(sf)
    }

    /// Clears Stockfish's tables (so labels do not depend on earlier games).
    pub fn new_game(&mut self) -> anyhow::Result<()> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok")
    }

    /// Stockfish's evaluation of `fen` at `depth`, in centipawns for the
    /// side to move (mates as ±[`MATE_CP`]).
    pub fn evaluate(&mut self, fen: &str, depth: u32) -> anyhow::Result<i32> {
        self.best_move(fen, &[], depth).map(|(_, score)| score)
    }

    /// Stockfish's move and evaluation at `depth` in the position after
    /// `moves` (UCI) from `fen`: the move in UCI and the score in
    /// centipawns for the side to move (mates as ±[`MATE_CP`]).
    pub fn best_move(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
    ) -> anyhow::Result<(String, i32)> {
        let line = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        self.send(&line)?;
        self.send(&format!("go depth {depth}"))?;
        let mut score = None;
        loop {
            let line = self.read_line()?;
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"bestmove") {
                let best = words.get(1).context("bestmove without a move")?;
                let score = score.with_context(|| format!("Stockfish gave no score for {fen}"))?;
                return Ok(((*best).to_owned(), score));
            }
            if let Some(s) = parse_score(&words) {
                score = Some(s);
            }
        }
    }

    /// Sends one command line.
    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.input, "{line}")?;
        self.input.flush().context("writing to Stockfish")
    }

    /// The next output line.
    fn read_line(&mut self) -> anyhow::Result<String> {
        let mut line = String::new();
        if self.output.read_line(&mut line)? == 0 {
            bail!("Stockfish closed its output");
        }
        Ok(line)
    }

    /// Reads lines until one equals `token`.
    fn wait_for(&mut self, token: &str) -> anyhow::Result<()> {
        while self.read_line()?.trim() != token {}
        Ok(())
    }
}

/// The exact score of an `info` line in centipawns (mates as
/// ±[`MATE_CP`]); `None` for lines without one or with a bound only.
fn parse_score(words: &[&str]) -> Option<i32> {
    let i = words.iter().position(|w| *w == "score")?;
    if matches!(words.get(i + 3), Some(&"lowerbound" | &"upperbound")) {
        return None;
    }
    let n: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(n.clamp(-MATE_CP, MATE_CP)),
        "mate" => Some(if n > 0 { MATE_CP } else { -MATE_CP }),
        _ => None,
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_from_info_lines() {
        let words = |l: &'static str| l.split_whitespace().collect::<Vec<_>>();
        assert_eq!(
            parse_score(&words("info depth 7 score cp -35 nodes 9 pv e2e4")),
            Some(-35)
        );
        assert_eq!(
            parse_score(&words("info depth 9 score mate -2 pv a1a2")),
            Some(-MATE_CP)
        );
        assert_eq!(
            parse_score(&words("info depth 9 score cp 50 lowerbound nodes 1")),
            None
        );
        assert_eq!(parse_score(&words("info string hello")), None);
    }
}
