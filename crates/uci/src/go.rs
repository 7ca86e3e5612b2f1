//! The `go` command's parameters.

use std::fmt;
use std::time::Duration;

use shakmaty::Color;
use shakmaty::uci::UciMove;

use crate::tokens::{Token, Tokens, set_once, unexpected};
use crate::{UciParseError, millis};

/// The parameters of `go`; every field is optional.
///
/// Times are whole milliseconds on the wire. A negative time (some GUIs send
/// `wtime -20` after a flag fall) is clamped to zero, with nothing recorded.
/// Sub-millisecond parts of a [`Duration`] are dropped when printing.
/// `searchmoves` with no move after it reads as no restriction. A keyword
/// given twice, or an unknown one, is an error.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_uci::{GoParams, GuiCommand};
///
/// let cmd = GuiCommand::parse("go wtime 300000 btime -5 winc 2000 movestogo 40").unwrap();
/// let expected = GoParams {
///     wtime: Some(Duration::from_secs(300)),
///     btime: Some(Duration::ZERO),
///     winc: Some(Duration::from_secs(2)),
///     movestogo: Some(40),
///     ..GoParams::default()
/// };
/// assert_eq!(cmd, GuiCommand::Go(expected));
/// assert_eq!(cmd.to_string(), "go wtime 300000 btime 0 winc 2000 movestogo 40");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct GoParams {
    /// `searchmoves`: restrict the search to these moves (empty: no
    /// restriction).
    pub searchmoves: Vec<UciMove>,
    /// `ponder`: search in pondering mode.
    pub ponder: bool,
    /// `wtime`: White's remaining clock time.
    pub wtime: Option<Duration>,
    /// `btime`: Black's remaining clock time.
    pub btime: Option<Duration>,
    /// `winc`: White's increment per move.
    pub winc: Option<Duration>,
    /// `binc`: Black's increment per move.
    pub binc: Option<Duration>,
    /// `movestogo`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `depth`: search this many plies only.
    pub depth: Option<u32>,
    /// `nodes`: search this many nodes only.
    pub nodes: Option<u64>,
    /// `mate`: search for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime`: search exactly this long.
    pub movetime: Option<Duration>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

impl GoParams {
    /// Reads the tokens after `go`.
    pub(crate) fn read(tokens: &mut Tokens<'_>) -> Result<Self, UciParseError> {
        let mut go = Self::default();
        let mut searchmoves = None;
        let mut ponder = None;
        let mut infinite = None;
        while let Some(keyword) = tokens.next_token() {
            match keyword.text {
                "searchmoves" => set_once(&mut searchmoves, tokens.moves(), keyword)?,
                "ponder" => set_once(&mut ponder, true, keyword)?,
                "infinite" => set_once(&mut infinite, true, keyword)?,
                "wtime" => set_once(&mut go.wtime, millis::read(tokens, keyword)?, keyword)?,
                "btime" => set_once(&mut go.btime, millis::read(tokens, keyword)?, keyword)?,
                "winc" => set_once(&mut go.winc, millis::read(tokens, keyword)?, keyword)?,
                "binc" => set_once(&mut go.binc, millis::read(tokens, keyword)?, keyword)?,
                "movetime" => set_once(&mut go.movetime, millis::read(tokens, keyword)?, keyword)?,
                "movestogo" => number(tokens, keyword, &mut go.movestogo)?,
                "depth" => number(tokens, keyword, &mut go.depth)?,
                "nodes" => number(tokens, keyword, &mut go.nodes)?,
                "mate" => number(tokens, keyword, &mut go.mate)?,
                _ => return Err(unexpected("go", keyword)),
            }
        }
        go.searchmoves = searchmoves.unwrap_or_default();
        go.ponder = ponder.unwrap_or(false);
        go.infinite = infinite.unwrap_or(false);
        Ok(go)
    }
}

/// One side's clock as `go` tells it to an engine: the time left, the
/// increment per move and the moves to the next time control.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_uci::{GoParams, SideClock};
/// use shakmaty::Color;
///
/// let clock = SideClock {
///     remaining: Duration::from_secs(300),
///     increment: Duration::from_secs(3),
///     moves_to_go: None,
/// };
/// let go = GoParams::default().with_clock(Color::Black, clock);
/// assert_eq!(go.to_string(), "go btime 300000 binc 3000");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SideClock {
    /// Time left on the side's clock.
    pub remaining: Duration,
    /// Bonus per move: the Fischer increment (a delay is told as one too,
    /// UCI having no word for it).
    pub increment: Duration,
    /// Moves to the next time control, if the period has a move count.
    pub moves_to_go: Option<u32>,
}

impl GoParams {
    /// Sets `color`'s time and increment (`wtime` and `winc`, or `btime`
    /// and `binc`). A zero increment is left out, as the UCI spec sends
    /// `winc` only when it is positive.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_uci::GoParams;
    /// use shakmaty::Color;
    ///
    /// let go = GoParams::default()
    ///     .with_time(Color::White, Duration::from_secs(60), Duration::from_millis(500))
    ///     .with_time(Color::Black, Duration::from_secs(55), Duration::ZERO);
    /// assert_eq!(go.to_string(), "go wtime 60000 btime 55000 winc 500");
    /// ```
    #[must_use]
    pub fn with_time(mut self, color: Color, remaining: Duration, increment: Duration) -> Self {
        let increment = Some(increment).filter(|i| !i.is_zero());
        let (time, inc) = match color {
            Color::White => (&mut self.wtime, &mut self.winc),
            Color::Black => (&mut self.btime, &mut self.binc),
        };
        *time = Some(remaining);
        *inc = increment;
        self
    }

    /// Sets the clock of `mover`, the side to move: its time and increment
    /// as [`GoParams::with_time`] does, and `movestogo` from
    /// [`SideClock::moves_to_go`]. The opponent's time, if the engine is to
    /// know it, is set with [`GoParams::with_time`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_uci::{GoParams, SideClock};
    /// use shakmaty::Color;
    ///
    /// let mover = SideClock {
    ///     remaining: Duration::from_secs(90 * 60),
    ///     increment: Duration::from_secs(30),
    ///     moves_to_go: Some(40),
    /// };
    /// let go = GoParams::default()
    ///     .with_clock(Color::White, mover)
    ///     .with_time(Color::Black, Duration::from_secs(89 * 60), Duration::from_secs(30));
    /// assert_eq!(go.to_string(), "go wtime 5400000 btime 5340000 winc 30000 binc 30000 movestogo 40");
    /// ```
    #[must_use]
    pub fn with_clock(self, mover: Color, clock: SideClock) -> Self {
        let mut go = self.with_time(mover, clock.remaining, clock.increment);
        go.movestogo = clock.moves_to_go;
        go
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

impl fmt::Display for GoParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for m in &self.searchmoves {
                write!(f, " {m}")?;
            }
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let times = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
        ];
        for (keyword, value) in times {
            if let Some(value) = value {
                millis::write(f, keyword, value)?;
            }
        }
        if let Some(n) = self.movestogo {
            write!(f, " movestogo {n}")?;
        }
        if let Some(n) = self.depth {
            write!(f, " depth {n}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(n) = self.mate {
            write!(f, " mate {n}")?;
        }
        if let Some(t) = self.movetime {
            millis::write(f, "movetime", t)?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<GoParams, UciParseError> {
        let mut tokens = Tokens::new(line);
        tokens.next_token();
        GoParams::read(&mut tokens)
    }

    #[test]
    fn bare_go_is_default() {
        assert_eq!(read("go"), Ok(GoParams::default()));
        assert_eq!(GoParams::default().to_string(), "go");
    }

    #[test]
    fn all_parameters() {
        let go = read(
            "go searchmoves e2e4 d2d4 ponder wtime 1 btime 2 winc 3 binc 4 movestogo 5 depth 6 nodes 7 mate 8 movetime 9 infinite",
        )
        .unwrap();
        assert_eq!(go.searchmoves.len(), 2);
        assert!(go.ponder && go.infinite);
        assert_eq!(go.binc, Some(Duration::from_millis(4)));
        assert_eq!(go.nodes, Some(7));
        assert_eq!(go.movetime, Some(Duration::from_millis(9)));
        assert_eq!(read(&go.to_string()), Ok(go));
    }

    #[test]
    fn a_side_clock_sets_that_sides_fields_only() {
        let s = Duration::from_secs;
        let clock = SideClock {
            remaining: s(10),
            increment: s(1),
            moves_to_go: Some(3),
        };
        let white = GoParams::default().with_clock(Color::White, clock);
        let black = GoParams::default().with_clock(Color::Black, clock);
        assert_eq!(white.to_string(), "go wtime 10000 winc 1000 movestogo 3");
        assert_eq!(black.to_string(), "go btime 10000 binc 1000 movestogo 3");
        let no_inc = SideClock {
            increment: Duration::ZERO,
            ..clock
        };
        let go = white.with_clock(Color::White, no_inc);
        assert_eq!((go.wtime, go.winc), (Some(s(10)), None));
        assert_eq!(read(&go.to_string()), Ok(go));
    }

    #[test]
    fn errors_point_at_tokens() {
        assert_eq!(
            read("go depth"),
            Err(UciParseError::MissingValue {
                keyword: "depth",
                index: 1
            })
        );
        assert_eq!(
            read("go depth 3 depth 4"),
            Err(UciParseError::Duplicate {
                keyword: "depth",
                index: 3
            })
        );
        assert!(matches!(
            read("go perft 3"),
            Err(UciParseError::UnexpectedToken { index: 1, .. })
        ));
        assert!(matches!(
            read("go depth -1"),
            Err(UciParseError::InvalidNumber { index: 2, .. })
        ));
    }

    #[test]
    fn empty_searchmoves_is_no_restriction() {
        assert_eq!(
            read("go searchmoves infinite").map(|g| g.searchmoves.len()),
            Ok(0)
        );
    }
}
