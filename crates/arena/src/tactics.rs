//! `rochade tactics`: a UCI engine against a test suite of positions with
//! best moves (`bm`) or moves to avoid (`am`).

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use rochade_uci::{GoParams, PositionBase, PositionSpec, UciClient};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use crate::{ArenaError, EngineSpec, FileLineError, read_epd};

/// How long past its move time an engine may take to answer.
const GRACE: Duration = Duration::from_secs(5);

/// One test position.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The `id`, or `line N`.
    pub id: String,
    /// The position.
    pub position: Chess,
    /// The FEN as read.
    pub fen: shakmaty::fen::Fen,
    /// Moves that solve it (`bm`); empty if only `am` is given.
    pub best: Vec<Move>,
    /// Moves that fail it (`am`).
    pub avoid: Vec<Move>,
}

impl Problem {
    /// Whether `m` solves the problem: one of `bm` if any, and none of `am`.
    pub fn is_solved_by(&self, m: &Move) -> bool {
        (self.best.is_empty() || self.best.contains(m)) && !self.avoid.contains(m)
    }

    /// The expected answer in SAN: `Qg6` or `not Rxb2`.
    pub fn expected(&self) -> String {
        let san = |moves: &[Move]| {
            moves
                .iter()
                .map(|m| SanPlus::from_move(self.position.clone(), *m).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match (self.best.is_empty(), self.avoid.is_empty()) {
            (false, true) => san(&self.best),
            (true, false) => format!("not {}", san(&self.avoid)),
            _ => format!("{} and not {}", san(&self.best), san(&self.avoid)),
        }
    }
}

/// Reads an EPD suite: every line needs `bm` or `am` (SAN).
///
/// # Errors
///
/// [`ArenaError::Io`], or [`ArenaError::Line`] for an illegal position, a
/// move that is not legal SAN there, or a line with neither `bm` nor `am`.
pub fn read_suite(path: &Path) -> Result<Vec<Problem>, ArenaError> {
    let file = std::fs::File::open(path).map_err(|source| ArenaError::Io {
        path: path.to_owned(),
        source,
    })?;
    let mut problems = Vec::new();
    for (record, line) in read_epd(std::io::BufReader::new(file), path)? {
        let error = |reason: String| FileLineError {
            path: path.to_owned(),
            line,
            reason,
        };
        let position: Chess = record
            .fen
            .clone()
            .into_position(CastlingMode::Standard)
            .map_err(|e| error(format!("illegal position: {e}")))?;
        let moves = |opcode: &str| -> Result<Vec<Move>, FileLineError> {
            record
                .operands(opcode)
                .unwrap_or_default()
                .iter()
                .map(|text| {
                    text.parse::<SanPlus>()
                        .ok()
                        .and_then(|san| san.san.to_move(&position).ok())
                        .ok_or_else(|| error(format!("`{opcode} {text}` is not a legal move here")))
                })
                .collect()
        };
        let best = moves("bm")?;
        let avoid = moves("am")?;
        if best.is_empty() && avoid.is_empty() {
            return Err(error("no `bm` or `am` operation".into()).into());
        }
        problems.push(Problem {
            id: record
                .id()
                .map_or_else(|| format!("line {line}"), str::to_owned),
            position,
            fen: record.fen,
            best,
            avoid,
        });
    }
    Ok(problems)
}

/// The engine's answer to one problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// The problem's id.
    pub id: String,
    /// The move played, in SAN (or the raw text if illegal).
    pub played: String,
    /// What was expected.
    pub expected: String,
    /// Whether it solved the problem.
    pub solved: bool,
}

/// Runs `engine` over `problems` at `movetime` per position, printing one
/// line per position to `out`; returns every attempt.
///
/// # Errors
///
/// [`ArenaError::Engine`] when the engine cannot be started or stops
/// answering, [`ArenaError::Io`] when `out` fails.
pub fn run_tactics(
    engine: &EngineSpec,
    problems: &[Problem],
    movetime: Duration,
    out: &mut dyn Write,
) -> Result<Vec<Attempt>, ArenaError> {
    let failed = |source| ArenaError::Engine {
        engine: engine.name.clone(),
        source,
    };
    let io = |source| ArenaError::Io {
        path: "<output>".into(),
        source,
    };
    let mut client =
        UciClient::spawn(&engine.cmd, &engine.args, Duration::from_secs(30)).map_err(failed)?;
    for (name, value) in &engine.options {
        client.set_option(name, Some(value)).map_err(failed)?;
    }
    let mut attempts = Vec::with_capacity(problems.len());
    for problem in problems {
        client.new_game().map_err(failed)?;
        client.is_ready(Duration::from_secs(30)).map_err(failed)?;
        client
            .position(&PositionSpec {
                base: PositionBase::Fen(problem.fen.clone()),
                moves: Vec::new(),
            })
            .map_err(failed)?;
        let go = GoParams {
            movetime: Some(movetime),
            ..GoParams::default()
        };
        let result = client.go(&go, movetime + GRACE).map_err(failed)?;
        let played = result.best.to_move(&problem.position).ok();
        let solved = played.as_ref().is_some_and(|m| problem.is_solved_by(m));
        let attempt = Attempt {
            id: problem.id.clone(),
            played: played.map_or_else(
                || illegal(&result.best),
                |m| SanPlus::from_move(problem.position.clone(), m).to_string(),
            ),
            expected: problem.expected(),
            solved,
        };
        writeln!(
            out,
            "{} {}: played {}, expected {}",
            if solved { "solved" } else { "FAILED" },
            attempt.id,
            attempt.played,
            attempt.expected
        )
        .map_err(io)?;
        attempts.push(attempt);
    }
    client.quit(Duration::from_secs(1));
    Ok(attempts)
}

/// How an illegal answer is shown.
fn illegal(m: &UciMove) -> String {
    format!("{m} (illegal)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_suite(text: &str) -> tempfile_path::TempPath {
        tempfile_path::TempPath::with(text)
    }

    /// A small temporary file, removed on drop.
    mod tempfile_path {
        use std::path::PathBuf;

        pub struct TempPath(pub PathBuf);

        impl TempPath {
            pub fn with(text: &str) -> Self {
                static COUNTER: std::sync::atomic::AtomicUsize =
                    std::sync::atomic::AtomicUsize::new(0);
                let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let path = std::env::temp_dir()
                    .join(format!("rochade-tactics-{}-{n}.epd", std::process::id()));
                std::fs::write(&path, text).expect("temp file");
                Self(path)
            }
        }

        impl Drop for TempPath {
            fn drop(&mut self) {
                let _ = std::fs::remove_file(&self.0);
            }
        }
    }

    #[test]
    fn wac_reads_completely() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data-src/tactics/wac.epd");
        let suite = read_suite(&path).unwrap();
        assert_eq!(suite.len(), 300);
        assert_eq!(suite[0].id, "WAC.001");
        assert_eq!(suite[0].expected(), "Qg6");
        assert_eq!(suite[21].best.len(), 2, "WAC.022 has two solutions");
    }

    #[test]
    fn bm_and_am() {
        let suite = write_suite(
            "4k3/8/8/8/8/8/8/R3K3 w Q - bm Ra8+; id \"mate\";\n\
             4k3/8/8/8/8/8/8/R3K3 w Q - am Kd1; id \"avoid\";\n",
        );
        let problems = read_suite(&suite.0).unwrap();
        let mate = &problems[0];
        let ra8 = "a1a8"
            .parse::<UciMove>()
            .unwrap()
            .to_move(&mate.position)
            .unwrap();
        assert!(mate.is_solved_by(&ra8));

        let avoid = &problems[1];
        assert!(
            !avoid.is_solved_by(
                &"e1d1"
                    .parse::<UciMove>()
                    .unwrap()
                    .to_move(&avoid.position)
                    .unwrap()
            )
        );
        assert!(avoid.is_solved_by(&ra8));
        assert_eq!(avoid.expected(), "not Kd1");
        assert_eq!(problems[0].expected(), "Ra8+");
    }

    #[test]
    fn bad_suites_name_the_line() {
        let suite = write_suite("4k3/8/8/8/8/8/8/R3K3 w Q - id \"x\";\n");
        let err = read_suite(&suite.0).unwrap_err().to_string();
        assert!(err.ends_with(":1: no `bm` or `am` operation"), "{err}");
        let suite = write_suite("\n4k3/8/8/8/8/8/8/R3K3 w Q - bm Qa8;\n");
        let err = read_suite(&suite.0).unwrap_err().to_string();
        assert!(
            err.ends_with(":2: `bm Qa8` is not a legal move here"),
            "{err}"
        );
    }
}
