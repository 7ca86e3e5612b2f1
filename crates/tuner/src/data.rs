//! The data file: one labelled position per line,
//! `FEN <tab> result <tab> stockfish`, both labels from White's side:
//! the result as 1, 0.5 or 0, Stockfish's evaluation in centipawns (`-`
//! when not labelled).

use std::io::Write;
use std::path::{Path, PathBuf};

use shakmaty::fen::Fen;

/// A labelled position.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The position.
    pub fen: Fen,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f64,
    /// Stockfish's evaluation for White in centipawns, if labelled.
    pub stockfish: Option<i32>,
}

/// Why a data file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file system failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A line is not `FEN <tab> result <tab> stockfish`.
    #[error("{path}:{line}: {what}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What was wrong.
        what: String,
    },
}

/// Appends `records` to `out`, one line each.
pub fn append(out: &mut impl Write, records: &[Record]) -> std::io::Result<()> {
    for r in records {
        let sf = r
            .stockfish
            .map_or_else(|| "-".to_owned(), |cp| cp.to_string());
        writeln!(out, "{}\t{}\t{sf}", r.fen, r.result)?;
    }
    out.flush()
}

/// Reads the records of `path`.
pub fn read(path: &Path) -> Result<Vec<Record>, DataError> {
    let text = std::fs::read_to_string(path).map_err(|source| DataError::Io {
        path: path.to_owned(),
        source,
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            parse_line(l).map_err(|what| DataError::Parse {
                path: path.to_owned(),
                line: i + 1,
                what,
            })
        })
        .collect()
}

/// One record from its line, or what was wrong with it.
fn parse_line(line: &str) -> Result<Record, String> {
    let mut fields = line.split('\t');
    let (Some(fen), Some(result), Some(sf), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected three tab-separated fields".to_owned());
    };
    let fen: Fen = fen.parse().map_err(|e| format!("bad FEN {fen:?}: {e}"))?;
    let result = match result {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        other => return Err(format!("result {other:?} is not 1, 0.5 or 0")),
    };
    let stockfish = match sf {
        "-" => None,
        cp => Some(
            cp.parse()
                .map_err(|_| format!("Stockfish score {cp:?} is not an integer"))?,
        ),
    };
    Ok(Record {
        fen,
        result,
        stockfish,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let dir = std::env::temp_dir().join(format!("rochade-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("round-trip.tsv");
        let records = vec![
            Record {
                fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().expect("fen"),
                result: 0.5,
                stockfish: Some(-35),
            },
            Record {
                fen: "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1".parse().expect("fen"),
                result: 1.0,
                stockfish: None,
            },
        ];
        let mut file = std::fs::File::create(&path).expect("created");
        append(&mut file, &records).expect("written");
        assert_eq!(read(&path).expect("read"), records);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn bad_lines_say_what_and_where() {
        assert!(parse_line("nonsense").is_err());
        let err = parse_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\t2\t-").expect_err("bad result");
        assert!(err.contains("result"), "{err}");
        let err = parse_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\t1\tx").expect_err("bad score");
        assert!(err.contains("Stockfish"), "{err}");
    }
}
