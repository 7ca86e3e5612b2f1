//! Opening positions for a match, read from EPD or PGN.

use std::io::BufRead;
use std::path::Path;

use rochade_laws::pgn::{PgnReader, ReadOptions};
use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position};

use crate::{ArenaError, EpdRecord, FileLineError};

/// A position the games of a match start from.
///
/// # Examples
///
/// ```
/// use rochade_arena::Opening;
///
/// let o = Opening::startpos();
/// assert_eq!(o.fen.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The position.
    pub fen: Fen,
    /// What it is, for the PGN: the EPD `id` or `c0`, or the PGN moves.
    pub label: Option<String>,
}

impl Opening {
    /// The standard initial position.
    pub fn startpos() -> Self {
        Self {
            fen: Fen::default(),
            label: None,
        }
    }
}

/// Reads openings: EPD (`.epd`; one position per line, `#` lines and blank
/// lines skipped) or PGN (any other name; the position after `plies`
/// half-moves of each game, or after all of them).
///
/// # Errors
///
/// [`ArenaError::Io`] if the file cannot be read, [`ArenaError::Line`] for a
/// bad line or game, [`ArenaError::Config`] if it holds no opening.
pub fn read_openings(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, ArenaError> {
    let file = std::fs::File::open(path).map_err(|source| ArenaError::Io {
        path: path.to_owned(),
        source,
    })?;
    let is_epd = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("epd"));
    let openings = if is_epd {
        read_epd_openings(std::io::BufReader::new(file), path)?
    } else {
        read_pgn_openings(file, path, plies)?
    };
    if openings.is_empty() {
        return Err(ArenaError::Config(format!(
            "{}: no opening found",
            path.display()
        )));
    }
    Ok(openings)
}

/// Reads EPD lines as openings; the label is `id`, else `c0`.
pub(crate) fn read_epd_openings(
    reader: impl BufRead,
    path: &Path,
) -> Result<Vec<Opening>, ArenaError> {
    let mut openings = Vec::new();
    for (record, _line) in read_epd(reader, path)? {
        let label = record
            .id()
            .map(str::to_owned)
            .or_else(|| record.operands("c0").map(|o| o.join(" ")));
        openings.push(Opening {
            fen: record.fen,
            label,
        });
    }
    Ok(openings)
}

/// Reads the EPD records of a file with their line numbers; `#` and blank
/// lines are skipped.
///
/// # Errors
///
/// [`ArenaError::Io`] or [`ArenaError::Line`].
pub fn read_epd(reader: impl BufRead, path: &Path) -> Result<Vec<(EpdRecord, usize)>, ArenaError> {
    let mut records = Vec::new();
    for (index, line) in reader.lines().enumerate() {
        let line = line.map_err(|source| ArenaError::Io {
            path: path.to_owned(),
            source,
        })?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let record = EpdRecord::parse(text).map_err(|reason| FileLineError {
            path: path.to_owned(),
            line: index + 1,
            reason,
        })?;
        records.push((record, index + 1));
    }
    Ok(records)
}

/// Reads PGN games and keeps the position after `plies` half-moves.
fn read_pgn_openings(
    input: impl std::io::Read,
    path: &Path,
    plies: Option<usize>,
) -> Result<Vec<Opening>, ArenaError> {
    let mut openings = Vec::new();
    for (index, game) in PgnReader::new(input, ReadOptions::default()).enumerate() {
        let game = game.map_err(|e| FileLineError {
            path: path.to_owned(),
            line: index + 1,
            reason: format!("game {}: {}", index + 1, e.message),
        })?;
        let history = game.game.history();
        let mut pos = history.start().clone();
        let moves = game.game.moves();
        let count = plies.map_or(moves.len(), |p| p.min(moves.len()));
        let mut words = Vec::new();
        for m in &moves[..count] {
            if pos.turn().is_white() {
                words.push(format!("{}.", pos.fullmoves()));
            }
            words.push(shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string());
            pos.play_unchecked(*m);
        }
        openings.push(Opening {
            fen: Fen::from_position(&pos, EnPassantMode::Legal),
            label: (!words.is_empty()).then(|| words.join(" ")),
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_openings_stop_after_plies() {
        let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let openings = read_pgn_openings(pgn.as_bytes(), Path::new("x.pgn"), Some(4)).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(
            openings[0].fen.to_string(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        );
        assert_eq!(openings[0].label.as_deref(), Some("1. e4 e5 2. Nf3 Nc6"));
        assert_eq!(openings[1].label.as_deref(), Some("1. d4"));
    }

    #[test]
    fn bad_pgn_names_the_game() {
        let pgn = "1. e4 e5 *\n\n1. e5 *\n";
        let err = read_pgn_openings(pgn.as_bytes(), Path::new("x.pgn"), None).unwrap_err();
        assert!(err.to_string().starts_with("x.pgn:2: game 2"), "{err}");
    }

    #[test]
    fn epd_openings_and_errors() {
        let epd =
            "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n";
        let openings = read_epd_openings(epd.as_bytes(), Path::new("o.epd")).unwrap();
        assert_eq!(openings.len(), 1);
        assert_eq!(openings[0].label.as_deref(), Some("e4"));
        let err = read_epd_openings("junk\n".as_bytes(), Path::new("o.epd")).unwrap_err();
        assert_eq!(err.to_string(), "o.epd:1: expected four FEN fields");
    }

    #[test]
    fn committed_balanced_set_reads() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data-src/openings/balanced.epd");
        let openings = read_openings(&path, None).unwrap();
        assert!(openings.len() >= 30, "{}", openings.len());
        assert!(openings.iter().all(|o| o.label.is_some()));
    }
}
