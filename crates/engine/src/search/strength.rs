//! Playing strength below full: what each [`Level`] may search, and how it
//! draws its move among the best lines.
//!
//! A weaker level searches less deep and fewer nodes, and looks at several
//! lines at the root (MultiPV). It then picks among them with a softmax
//! over the score gap to the best line: a line `gap` centipawns worse has
//! weight `exp(-gap / temperature)`, and lines more than `max_loss` worse
//! are never chosen. The temperature grows as the level drops, so a weak
//! level often prefers a slightly worse move but never throws a piece away
//! on a whim. docs/robot-levels.md has the table.

use rand::Rng;

use crate::robot::Level;

use super::{MATE_BOUND, RootLine};

/// What one level may search and how freely it chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    /// Deepest iteration; `None`: no cap.
    pub depth: Option<u32>,
    /// Node budget per move; `None`: no cap.
    pub nodes: Option<u64>,
    /// Lines searched at the root to choose among.
    pub multipv: usize,
    /// Softmax temperature in centipawns; 0 always plays the best line.
    pub temperature: u32,
    /// Lines this many centipawns or more below the best are never played.
    pub max_loss: u32,
    /// The Elo the level is meant to play at (UCI_Elo maps onto it).
    pub elo: u32,
}

/// The levels 1 to 8, weakest first.
const STRENGTHS: [Strength; 8] = [
    level(Some(1), Some(200), 6, 120, 380, 550),
    level(Some(2), Some(1_000), 5, 60, 200, 850),
    level(Some(3), Some(2_000), 4, 50, 170, 1250),
    level(Some(4), Some(3_000), 4, 45, 150, 1450),
    level(Some(8), Some(7_000), 4, 30, 95, 1650),
    level(Some(12), Some(30_000), 3, 12, 40, 1900),
    level(Some(20), Some(300_000), 2, 8, 25, 2150),
    level(None, None, 1, 0, 0, 2400),
];

const fn level(
    depth: Option<u32>,
    nodes: Option<u64>,
    multipv: usize,
    temperature: u32,
    max_loss: u32,
    elo: u32,
) -> Strength {
    Strength {
        depth,
        nodes,
        multipv,
        temperature,
        max_loss,
        elo,
    }
}

impl Level {
    /// What this level may search and how freely it chooses.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_engine::robot::Level;
    /// assert_eq!(Level::MAX.strength().temperature, 0);
    /// assert_eq!(Level::MIN.strength().depth, Some(1));
    /// ```
    #[must_use]
    pub fn strength(self) -> Strength {
        STRENGTHS[usize::from(self.get()) - 1]
    }

    /// The level meant to play at `elo`: the strongest whose Elo is at
    /// most `elo` (level 1 below its Elo).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_engine::robot::Level;
    /// assert_eq!(Level::from_elo(0).get(), 1);
    /// assert_eq!(Level::from_elo(1450).get(), 4);
    /// assert_eq!(Level::from_elo(3000), Level::MAX);
    /// ```
    #[must_use]
    pub fn from_elo(elo: u32) -> Self {
        let n = STRENGTHS.iter().filter(|s| s.elo <= elo).count().max(1);
        Self::clamped(n as u32)
    }

    /// The level for a Stockfish-style `Skill Level` of 0 to 20 (beyond
    /// clamps): 0 is level 1, 20 is level 8, evenly between.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_engine::robot::Level;
    /// assert_eq!(Level::from_skill(0), Level::MIN);
    /// assert_eq!(Level::from_skill(10).get(), 5);
    /// assert_eq!(Level::from_skill(20), Level::MAX);
    /// ```
    #[must_use]
    pub fn from_skill(skill: u32) -> Self {
        let skill = skill.min(20);
        Self::clamped(1 + (skill * 7 + 10) / 20)
    }

    /// The Elo range UCI_Elo accepts: that of level 1 to that of level 8.
    #[must_use]
    pub fn elo_range() -> (u32, u32) {
        (STRENGTHS[0].elo, STRENGTHS[7].elo)
    }

    /// The level `n`, clamped into 1–8.
    fn clamped(n: u32) -> Self {
        Self::new(n.clamp(1, 8)).unwrap_or(Self::MAX)
    }
}

/// Index of the line to play among `lines` (best first): the first at
/// temperature 0, else drawn by softmax over the gap to the best score.
/// Mate scores are never traded away: with a mate for us on the board only
/// mating lines are candidates.
pub fn choose_line<R: Rng>(strength: &Strength, lines: &[RootLine], rng: &mut R) -> usize {
    let Some(best) = lines.iter().map(|l| l.score).max() else {
        return 0;
    };
    if strength.temperature == 0 || lines.len() < 2 {
        return lines.iter().position(|l| l.score == best).unwrap_or(0);
    }
    let weight = |l: &RootLine| {
        let gap = best.saturating_sub(l.score);
        let mate_spoilt = best >= MATE_BOUND && l.score < MATE_BOUND;
        if mate_spoilt || gap >= strength.max_loss as i32 {
            0.0
        } else {
            (-f64::from(gap) / f64::from(strength.temperature)).exp()
        }
    };
    let weights: Vec<f64> = lines.iter().map(weight).collect();
    let total: f64 = weights.iter().sum();
    let mut draw = rng.random::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if draw < *w {
            return i;
        }
        draw -= w;
    }
    lines.iter().position(|l| l.score == best).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn lines(scores: &[i32]) -> Vec<RootLine> {
        scores
            .iter()
            .map(|&score| RootLine {
                score,
                pv: Vec::new(),
            })
            .collect()
    }

    fn counts(level: u32, scores: &[i32], draws: usize) -> Vec<usize> {
        let strength = Level::new(level).expect("level").strength();
        let lines = lines(scores);
        let mut rng = StdRng::seed_from_u64(7);
        let mut counts = vec![0; scores.len()];
        for _ in 0..draws {
            counts[choose_line(&strength, &lines, &mut rng)] += 1;
        }
        counts
    }

    #[test]
    fn table_weakens_monotonically() {
        for pair in STRENGTHS.windows(2) {
            let (weak, strong) = (pair[0], pair[1]);
            assert!(weak.temperature > strong.temperature);
            assert!(weak.max_loss > strong.max_loss);
            assert!(weak.multipv >= strong.multipv);
            assert!(weak.elo < strong.elo);
            assert!(weak.depth.unwrap_or(u32::MAX) < strong.depth.unwrap_or(u32::MAX));
            assert!(weak.nodes.unwrap_or(u64::MAX) < strong.nodes.unwrap_or(u64::MAX));
        }
    }

    #[test]
    fn full_strength_plays_the_best_line() {
        assert_eq!(counts(8, &[30, 25, -400], 200), vec![200, 0, 0]);
    }

    #[test]
    fn weak_levels_vary_but_never_blunder() {
        // Two near-equal moves and one that drops a piece (-300 cp).
        let scores = [40, 20, -260];
        let weak = counts(1, &scores, 2000);
        assert!(weak[1] > 400, "{weak:?}");
        assert!(weak[0] > weak[1], "{weak:?}");
        let mid = counts(4, &scores, 2000);
        assert_eq!(mid[2], 0, "level 4 never loses 300 cp: {mid:?}");
        assert!(
            mid[0] > weak[0],
            "stronger prefers the best more: {mid:?} {weak:?}"
        );
        let strong = counts(7, &scores, 2000);
        assert!(strong[0] > 1600 && strong[2] == 0, "{strong:?}");
    }

    #[test]
    fn a_mate_is_not_traded_for_material() {
        let scores = [MATE_BOUND + 10, 900];
        assert_eq!(counts(1, &scores, 500), vec![500, 0]);
    }
}
