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
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go depth {depth}"))?;
        let mut score = None;
        loop {
            let line = self.read_line()?;
            if line.starts_with("bestmove") {
                break;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(i) = words.iter().position(|w| *w == "score") {
                score = match (words.get(i + 1), words.get(i + 2)) {
                    (Some(&"cp"), Some(n)) => n.parse::<i32>().ok(),
                    (Some(&"mate"), Some(n)) => n
                        .parse::<i32>()
                        .ok()
                        .map(|m| if m > 0 { MATE_CP } else { -MATE_CP }),
                    _ => score,
                };
            }
        }
        match score {
            Some(cp) => Ok(cp.clamp(-MATE_CP, MATE_CP)),
            None => bail!("Stockfish gave no score for {fen}"),
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

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}
