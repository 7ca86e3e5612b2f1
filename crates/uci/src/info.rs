//! The `info` message.

use std::fmt;
use std::time::Duration;

use shakmaty::uci::UciMove;

use crate::tokens::{Token, Tokens, set_once, unexpected};
use crate::{Score, ScoreBound, UciParseError, millis};

/// Win/draw/loss expectation in permille (`wdl <w> <d> <l>`), as Stockfish
/// sends with `UCI_ShowWDL`; not in the original spec.
///
/// # Examples
///
/// ```
/// use rochade_uci::Wdl;
///
/// assert_eq!(Wdl { win: 1, draw: 924, loss: 75 }.to_string(), "1 924 75");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Expected wins per thousand.
    pub win: u32,
    /// Expected draws per thousand.
    pub draw: u32,
    /// Expected losses per thousand.
    pub loss: u32,
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.win, self.draw, self.loss)
    }
}

/// `currline [cpunr] <m>…`: the line a CPU is searching.
///
/// # Examples
///
/// ```
/// use rochade_uci::CurrLine;
///
/// let line = CurrLine { cpu: Some(2), moves: vec!["e2e4".parse().unwrap()] };
/// assert_eq!(line.to_string(), "2 e2e4");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CurrLine {
    /// The CPU number, if the engine uses several.
    pub cpu: Option<u32>,
    /// The moves of the line.
    pub moves: Vec<UciMove>,
}

impl fmt::Display for CurrLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(cpu) = self.cpu {
            write!(f, "{cpu}")?;
            sep = " ";
        }
        for m in &self.moves {
            write!(f, "{sep}{m}")?;
            sep = " ";
        }
        Ok(())
    }
}

/// The fields of an `info` message; all optional.
///
/// Move lists (`pv`, `refutation`) are empty when absent; a keyword with no
/// move after it reads as empty too. `string` takes the rest of the line
/// (trimmed) and is printed last. Times are whole milliseconds, negative
/// ones clamped to zero. A keyword given twice, an unknown keyword, or a
/// bound without a score is an error.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_uci::{EngineMessage, Info, Score, ScoreKind};
///
/// let line = "info depth 12 seldepth 15 multipv 1 score cp -32 nodes 59683 nps 195042 \
///             hashfull 23 tbhits 0 time 306 pv c7c5 g1f3";
/// let EngineMessage::Info(info) = EngineMessage::parse(line).unwrap() else { panic!() };
/// assert_eq!(info.depth, Some(12));
/// assert_eq!(info.score, Some(Score::exact(ScoreKind::Cp(-32))));
/// assert_eq!(info.time, Some(Duration::from_millis(306)));
/// assert_eq!(info.pv.len(), 2);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Info {
    /// `depth`: search depth in plies.
    pub depth: Option<u32>,
    /// `seldepth`: selective search depth in plies.
    pub seldepth: Option<u32>,
    /// `multipv`: which of the best lines this is, from 1.
    pub multipv: Option<u32>,
    /// `score`, with `lowerbound`/`upperbound`.
    pub score: Option<Score>,
    /// `wdl`: win/draw/loss permille (Stockfish extension).
    pub wdl: Option<Wdl>,
    /// `nodes`: nodes searched.
    pub nodes: Option<u64>,
    /// `nps`: nodes per second.
    pub nps: Option<u64>,
    /// `hashfull`: hash table fill in permille.
    pub hashfull: Option<u32>,
    /// `tbhits`: endgame tablebase hits.
    pub tbhits: Option<u64>,
    /// `sbhits`: shredderbase hits.
    pub sbhits: Option<u64>,
    /// `cpuload`: CPU usage in permille.
    pub cpuload: Option<u32>,
    /// `time`: time searched.
    pub time: Option<Duration>,
    /// `currmove`: the move being searched.
    pub currmove: Option<UciMove>,
    /// `currmovenumber`: its number, from 1.
    pub currmovenumber: Option<u32>,
    /// `pv`: the principal variation.
    pub pv: Vec<UciMove>,
    /// `refutation`: a move and the line refuting it.
    pub refutation: Vec<UciMove>,
    /// `currline`: the line being searched.
    pub currline: Option<CurrLine>,
    /// `string`: free text, the rest of the line.
    pub string: Option<String>,
}

impl Info {
    /// Reads the tokens after `info`.
    pub(crate) fn read(tokens: &mut Tokens<'_>) -> Result<Self, UciParseError> {
        let mut info = Self::default();
        let mut pv = None;
        let mut refutation = None;
        while let Some(keyword) = tokens.next_token() {
            match keyword.text {
                "depth" => number(tokens, keyword, &mut info.depth)?,
                "seldepth" => number(tokens, keyword, &mut info.seldepth)?,
                "multipv" => number(tokens, keyword, &mut info.multipv)?,
                "nodes" => number(tokens, keyword, &mut info.nodes)?,
                "nps" => number(tokens, keyword, &mut info.nps)?,
                "hashfull" => number(tokens, keyword, &mut info.hashfull)?,
                "tbhits" => number(tokens, keyword, &mut info.tbhits)?,
                "sbhits" => number(tokens, keyword, &mut info.sbhits)?,
                "cpuload" => number(tokens, keyword, &mut info.cpuload)?,
                "currmovenumber" => number(tokens, keyword, &mut info.currmovenumber)?,
                "time" => set_once(&mut info.time, millis::read(tokens, keyword)?, keyword)?,
                "score" => set_once(&mut info.score, Score::read(tokens, keyword)?, keyword)?,
                "lowerbound" => set_bound(&mut info.score, ScoreBound::Lower, keyword)?,
                "upperbound" => set_bound(&mut info.score, ScoreBound::Upper, keyword)?,
                "wdl" => set_once(&mut info.wdl, read_wdl(tokens, keyword)?, keyword)?,
                "currmove" => set_once(&mut info.currmove, tokens.one_move(keyword)?, keyword)?,
                "pv" => set_once(&mut pv, tokens.moves(), keyword)?,
                "refutation" => set_once(&mut refutation, tokens.moves(), keyword)?,
                "currline" => set_once(&mut info.currline, read_currline(tokens), keyword)?,
                "string" => info.string = Some(tokens.rest().to_owned()),
                _ => return Err(unexpected("info", keyword)),
            }
        }
        info.pv = pv.unwrap_or_default();
        info.refutation = refutation.unwrap_or_default();
        Ok(info)
    }
}

fn number<T: std::str::FromStr>(
    tokens: &mut Tokens<'_>,
    keyword: Token<'_>,
    slot: &mut Option<T>,
) -> Result<(), UciParseError> {
    let value = tokens.number(keyword)?;
    set_once(slot, value, keyword)
}

fn set_bound(
    score: &mut Option<Score>,
    bound: ScoreBound,
    keyword: Token<'_>,
) -> Result<(), UciParseError> {
    match score {
        None => Err(unexpected("info", keyword)),
        Some(score) if score.bound != ScoreBound::Exact => Err(UciParseError::Duplicate {
            keyword: "score",
            index: keyword.index,
        }),
        Some(score) => {
            score.bound = bound;
            Ok(())
        }
    }
}

fn read_wdl(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<Wdl, UciParseError> {
    Ok(Wdl {
        win: tokens.number(keyword)?,
        draw: tokens.number(keyword)?,
        loss: tokens.number(keyword)?,
    })
}

fn read_currline(tokens: &mut Tokens<'_>) -> CurrLine {
    let first_is_move = tokens
        .peek()
        .is_some_and(|t| t.text.parse::<UciMove>().is_ok());
    let cpu = if first_is_move {
        None
    } else {
        let cpu = tokens.peek().and_then(|t| t.text.parse::<u32>().ok());
        if cpu.is_some() {
            tokens.next_token();
        }
        cpu
    };
    CurrLine {
        cpu,
        moves: tokens.moves(),
    }
}

fn write_moves(f: &mut fmt::Formatter<'_>, keyword: &str, moves: &[UciMove]) -> fmt::Result {
    if moves.is_empty() {
        return Ok(());
    }
    f.write_str(keyword)?;
    for m in moves {
        write!(f, " {m}")?;
    }
    Ok(())
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (keyword, value) in numbers {
            if let Some(value) = value {
                write!(f, " {keyword} {value}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        if let Some(wdl) = self.wdl {
            write!(f, " wdl {wdl}")?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
            ("sbhits", self.sbhits),
            ("cpuload", self.cpuload.map(u64::from)),
        ];
        for (keyword, value) in numbers {
            if let Some(value) = value {
                write!(f, " {keyword} {value}")?;
            }
        }
        if let Some(time) = self.time {
            millis::write(f, "time", time)?;
        }
        if let Some(m) = self.currmove {
            write!(f, " currmove {m}")?;
        }
        if let Some(n) = self.currmovenumber {
            write!(f, " currmovenumber {n}")?;
        }
        write_moves(f, " pv", &self.pv)?;
        write_moves(f, " refutation", &self.refutation)?;
        if let Some(line) = &self.currline {
            f.write_str(" currline")?;
            if line.cpu.is_some() || !line.moves.is_empty() {
                write!(f, " {line}")?;
            }
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScoreKind;

    fn read(line: &str) -> Result<Info, UciParseError> {
        let mut tokens = Tokens::new(line);
        tokens.next_token();
        Info::read(&mut tokens)
    }

    #[test]
    fn stockfish_wdl_with_late_bound() {
        let info = read(
            "info depth 15 seldepth 21 multipv 1 score cp -45 wdl 1 924 75 upperbound nodes 160751 \
             nps 204778 hashfull 40 tbhits 0 time 785 pv c7c6 b1c3",
        )
        .unwrap();
        assert_eq!(
            info.score,
            Some(Score {
                kind: ScoreKind::Cp(-45),
                bound: ScoreBound::Upper
            })
        );
        assert_eq!(
            info.wdl,
            Some(Wdl {
                win: 1,
                draw: 924,
                loss: 75
            })
        );
        assert_eq!(read(&info.to_string()), Ok(info));
    }

    #[test]
    fn string_takes_the_rest() {
        let info = read("info depth 3 string hello  depth 4").unwrap();
        assert_eq!(info.depth, Some(3));
        assert_eq!(info.string.as_deref(), Some("hello  depth 4"));
        assert_eq!(read("info string").unwrap().string.as_deref(), Some(""));
    }

    #[test]
    fn currline_with_and_without_cpu() {
        let info = read("info currline 2 e2e4 e7e5").unwrap();
        assert_eq!(info.currline.as_ref().and_then(|l| l.cpu), Some(2));
        let info = read("info currline 0000 e2e4").unwrap();
        let line = info.currline.unwrap_or_default();
        assert_eq!((line.cpu, line.moves.len()), (None, 2));
        let empty = Info {
            currline: Some(CurrLine::default()),
            ..Info::default()
        };
        assert_eq!(read(&empty.to_string()), Ok(empty));
    }

    #[test]
    fn refutation_and_currmove() {
        let info = read("info currmove e2e4 currmovenumber 1 refutation d1h5 g6h5").unwrap();
        assert_eq!(info.refutation.len(), 2);
        assert_eq!(info.currmovenumber, Some(1));
        assert_eq!(read(&info.to_string()), Ok(info));
    }

    #[test]
    fn errors() {
        assert!(matches!(
            read("info lowerbound"),
            Err(UciParseError::UnexpectedToken { index: 1, .. })
        ));
        assert!(matches!(
            read("info score cp 1 lowerbound upperbound"),
            Err(UciParseError::Duplicate { index: 5, .. })
        ));
        assert!(matches!(
            read("info depth 1 depth 2"),
            Err(UciParseError::Duplicate {
                keyword: "depth",
                index: 3
            })
        ));
        assert!(matches!(
            read("info wdl 1 2"),
            Err(UciParseError::MissingValue { keyword: "wdl", .. })
        ));
        assert!(matches!(
            read("info currmove e9e4"),
            Err(UciParseError::InvalidMove { index: 2, .. })
        ));
        assert!(matches!(
            read("info pv e2e4 e9e5"),
            Err(UciParseError::UnexpectedToken { index: 3, .. })
        ));
    }

    #[test]
    fn empty_info() {
        assert_eq!(read("info"), Ok(Info::default()));
        assert_eq!(Info::default().to_string(), "info");
    }
}
