//! Time management: turns `go` parameters into limits for one search.

use std::time::Duration;

use rochade_uci::GoParams;
use shakmaty::Color;

/// Moves assumed left when the GUI does not say (`movestogo` absent). The
/// clock is spent geometrically: each move takes about this fraction of
/// what is left, plus the increment.
const DEFAULT_MOVES_TO_GO: u32 = 20;

/// When a search must end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeLimits {
    /// Do not start another iteration after this long, when the best move
    /// is neither stable nor in doubt; the search scales it by how the
    /// iterations go (see `search::iterate`), never beyond `hard`.
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
            let (soft, hard) = clock_budget(time, inc.unwrap_or_default(), go.movestogo, overhead);
            limits.soft = Some(soft);
            limits.hard = Some(hard);
        }
        limits
    }
}

/// The soft and hard limits of one move with `time` left, `inc` per move
/// and `movestogo` moves to the next control. Every move to come costs
/// `overhead` on top of its thinking time, so the overhead is counted once
/// per move left, not once in all. The soft limit is the target; the hard
/// limit is four times the target and keeps half the clock in reserve (all but 5 overheads on the
/// last move before a control).
fn clock_budget(
    time: Duration,
    inc: Duration,
    movestogo: Option<u32>,
    overhead: Duration,
) -> (Duration, Duration) {
    const MIN: Duration = Duration::from_millis(1);
    let moves = movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 50);
    let horizon = (time + inc * (moves - 1)).saturating_sub(overhead * (moves + 2));
    let target = (horizon / moves).max(MIN);
    let reserve = if moves == 1 {
        time.saturating_sub(overhead * 5)
    } else {
        time.saturating_sub(overhead) / 2
    };
    let hard = (target * 4).min(reserve).max(MIN);
    (target.min(hard), hard)
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

    #[test]
    fn overhead_counts_for_every_move_to_come() {
        // 1+0 near the end: 150 ms left, 10 ms overhead per move.
        let (soft, hard) = clock_budget(
            Duration::from_millis(150),
            Duration::ZERO,
            None,
            Duration::from_millis(10),
        );
        assert!(hard <= Duration::from_millis(70), "{hard:?}");
        assert!(soft <= hard);
        // Less time than the overheads of the moves to come: a few ms.
        let (_, hard) = clock_budget(
            Duration::from_millis(100),
            Duration::ZERO,
            None,
            Duration::from_millis(10),
        );
        assert!(hard <= Duration::from_millis(5), "{hard:?}");
    }

    #[test]
    fn increment_and_moves_to_go_raise_the_budget() {
        let ms = Duration::from_millis;
        let base = clock_budget(ms(10_000), Duration::ZERO, None, ms(10)).1;
        let with_inc = clock_budget(ms(10_000), ms(1_000), None, ms(10)).1;
        let last_move = clock_budget(ms(10_000), Duration::ZERO, Some(1), ms(10)).1;
        assert!(
            with_inc > base && last_move > with_inc,
            "{base:?} {with_inc:?} {last_move:?}"
        );
        assert!(last_move <= ms(9_950));
    }

    #[test]
    fn ponder_keeps_the_budget_for_after_the_hit() {
        let go = GoParams {
            ponder: true,
            wtime: Some(Duration::from_millis(60_000)),
            ..GoParams::default()
        };
        let l = TimeLimits::from_go(&go, Color::White, Duration::from_millis(10));
        assert!(l.ponder && l.is_timed());
    }
}
