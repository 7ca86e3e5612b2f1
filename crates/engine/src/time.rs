//! Time management: turns `go` parameters into limits for one search.

use std::time::Duration;

use rochade_uci::GoParams;
use shakmaty::Color;

/// Moves assumed left when the GUI does not say (`movestogo` absent).
const DEFAULT_MOVES_TO_GO: u32 = 30;

/// When a search must end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeLimits {
    /// Do not start another iteration after this long.
    pub soft: Option<Duration>,
    /// Abort the search after this long.
    pub hard: Option<Duration>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// `go infinite`: no bestmove before `stop`.
    pub infinite: bool,
    /// `go ponder`: the budget starts at the ponder hit.
    pub ponder: bool,
}

impl TimeLimits {
    /// Whether the search is bounded by the clock.
    #[must_use]
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// Limits from a UCI `go` for the side `us`, keeping `overhead` in
    /// reserve for communication. `infinite` ignores the clock; `ponder`
    /// computes the budget as usual, to run from the ponder hit.
    #[must_use]
    pub fn from_go(go: &GoParams, us: Color, overhead: Duration) -> Self {
        let mut limits = Self {
            depth: go.depth,
            nodes: go.nodes,
            infinite: go.infinite,
            ponder: go.ponder,
            ..Self::default()
        };
        if go.infinite {
            return limits;
        }
        if let Some(movetime) = go.movetime {
            let t = movetime
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            limits.soft = Some(t);
            limits.hard = Some(t);
            return limits;
        }
        let (time, inc) = match us {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        if let Some(time) = time {
            let inc = inc.unwrap_or_default();
            let usable = time.saturating_sub(overhead).max(Duration::from_millis(1));
            let moves_to_go = go.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 50);
            let target = (usable / moves_to_go + inc * 3 / 4)
                .min(usable / 2)
                .max(Duration::from_millis(1));
            let hard = (target * 3).min(usable / 2).max(target);
            limits.soft = Some(target * 6 / 10);
            limits.hard = Some(hard);
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_minus_overhead() {
        let go = GoParams {
            movetime: Some(Duration::from_millis(1000)),
            ..GoParams::default()
        };
        let l = TimeLimits::from_go(&go, Color::White, Duration::from_millis(10));
        assert_eq!(l.hard, Some(Duration::from_millis(990)));
    }

    #[test]
    fn clock_uses_own_side_and_stays_below_half() {
        let go = GoParams {
            wtime: Some(Duration::from_millis(60_000)),
            btime: Some(Duration::from_millis(1_000)),
            binc: Some(Duration::from_millis(100)),
            ..GoParams::default()
        };
        let l = TimeLimits::from_go(&go, Color::Black, Duration::from_millis(10));
        let hard = l.hard.expect("timed");
        assert!(hard <= Duration::from_millis(495), "{hard:?}");
        assert!(l.soft.expect("timed") <= hard);
        let infinite = GoParams {
            infinite: true,
            ..go
        };
        assert!(!TimeLimits::from_go(&infinite, Color::White, Duration::ZERO).is_timed());
    }
}
