//! How much of a move's time budget to spend: less when the best move has
//! stayed the same for several iterations, more when it keeps changing or
//! the score is falling.

use std::time::Duration;

use shakmaty::Move;

/// Follows the iterations of one search and scales its soft time limit.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_engine::search::Effort;
/// use shakmaty::{Move, Role, Square};
///
/// let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
/// let d4 = Move::Normal { role: Role::Pawn, from: Square::D2, capture: None, to: Square::D4, promotion: None };
/// let soft = Duration::from_millis(100);
/// let hard = Duration::from_millis(400);
///
/// let mut stable = Effort::default();
/// for depth in 1..=8 {
///     stable.iteration(depth, e4, 30);
/// }
/// let mut changing = Effort::default();
/// for depth in 1..=8 {
///     changing.iteration(depth, if depth % 2 == 0 { e4 } else { d4 }, 30);
/// }
/// assert!(stable.soft(soft, hard) < soft);
/// assert!(changing.soft(soft, hard) > soft);
/// assert!(changing.soft(soft, hard) <= hard);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Effort {
    best: Option<Move>,
    score: Option<i32>,
    /// Changes of the best move, each halved at every later iteration.
    changes: f64,
    /// The score fell by this many centipawns in the last iteration.
    drop: i32,
}

/// Iterations before this depth are too shallow to judge stability.
const FROM_DEPTH: u32 = 4;

impl Effort {
    /// Records a completed iteration at `depth` with its best move and score.
    pub fn iteration(&mut self, depth: u32, best: Move, score: i32) {
        if depth >= FROM_DEPTH {
            self.changes *= 0.5;
            if self.best.is_some_and(|b| b != best) {
                self.changes += 1.0;
            }
            self.drop = self.score.map_or(0, |s| (s - score).max(0));
        }
        self.best = Some(best);
        self.score = Some(score);
    }

    /// The soft limit to use now: `soft` scaled between 0.5 and 2.5 times,
    /// never beyond `hard`.
    #[must_use]
    pub fn soft(&self, soft: Duration, hard: Duration) -> Duration {
        let falling = match self.drop {
            d if d > 60 => 1.5,
            d if d > 25 => 1.25,
            _ => 1.0,
        };
        let factor = ((0.75 + 0.6 * self.changes) * falling).clamp(0.5, 2.5);
        soft.mul_f64(factor).min(hard)
    }
}
