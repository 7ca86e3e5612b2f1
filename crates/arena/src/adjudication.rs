//! Ending games early: engines' agreement on a decisive or a drawn score,
//! and Syzygy tablebases.

use std::path::Path;

use rochade_uci::ScoreKind;
use shakmaty::{Chess, Color, Position};
use shakmaty_syzygy::{Tablebase, Wdl};

use crate::ArenaError;

/// Centipawns that stand for a mate score when comparing with thresholds.
const MATE_CP: i32 = 100_000;

/// `--resign movecount=N score=CP`: a game is won when both engines' scores
/// agree that one side is ahead by at least `score` centipawns for `move_count`
/// consecutive moves each.
///
/// # Examples
///
/// ```
/// use rochade_arena::ResignRule;
///
/// let rule: ResignRule = "movecount=3 score=1000".parse().unwrap();
/// assert_eq!(rule, ResignRule { move_count: 3, score: 1000 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves per engine.
    pub move_count: u32,
    /// Centipawn threshold.
    pub score: i32,
}

/// `--draw movenumber=M movecount=N score=CP`: from move `move_number` on, a
/// game is drawn when both engines' scores stay within `score` centipawns of
/// zero for `move_count` consecutive moves each.
///
/// # Examples
///
/// ```
/// use rochade_arena::DrawRule;
///
/// let rule: DrawRule = "movenumber=40 movecount=8 score=10".parse().unwrap();
/// assert_eq!(rule, DrawRule { move_number: 40, move_count: 8, score: 10 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRule {
    /// The first full move number at which the rule applies.
    pub move_number: u32,
    /// Consecutive moves per engine.
    pub move_count: u32,
    /// Centipawn threshold.
    pub score: i32,
}

/// Reads `key=value` words into the named numbers, all required.
fn read_numbers<const N: usize>(text: &str, keys: [&'static str; N]) -> Result<[i64; N], String> {
    let mut values = [None; N];
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("`{word}` is not key=value"))?;
        let slot = keys
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| format!("unknown key `{key}` (expected {})", keys.join(", ")))?;
        let number = value
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0 && *n <= i64::from(i32::MAX))
            .ok_or_else(|| format!("`{key}` must be a whole number from 0, not `{value}`"))?;
        values[slot] = Some(number);
    }
    let mut out = [0; N];
    for (i, key) in keys.iter().enumerate() {
        out[i] = values[i].ok_or_else(|| format!("missing `{key}=`"))?;
    }
    Ok(out)
}

impl std::str::FromStr for ResignRule {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let [move_count, score] = read_numbers(text, ["movecount", "score"])?;
        Ok(Self {
            move_count: u32::try_from(move_count.max(1)).unwrap_or(1),
            score: i32::try_from(score).unwrap_or(i32::MAX),
        })
    }
}

impl std::str::FromStr for DrawRule {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let [move_number, move_count, score] =
            read_numbers(text, ["movenumber", "movecount", "score"])?;
        Ok(Self {
            move_number: u32::try_from(move_number).unwrap_or(u32::MAX),
            move_count: u32::try_from(move_count.max(1)).unwrap_or(1),
            score: i32::try_from(score).unwrap_or(i32::MAX),
        })
    }
}

/// A verdict that ends a game before the Laws do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The side wins; the text says why.
    Win(Color, String),
    /// A draw; the text says why.
    Draw(String),
}

/// A score in centipawns, mates as ±`MATE_CP` minus the distance.
pub fn centipawns(kind: ScoreKind) -> i32 {
    match kind {
        ScoreKind::Cp(cp) => cp.clamp(-MATE_CP + 1000, MATE_CP - 1000),
        ScoreKind::Mate(n) if n > 0 => MATE_CP - n.min(999),
        ScoreKind::Mate(n) => -MATE_CP + n.saturating_neg().min(999),
    }
}

/// Watches the engines' scores, ply by ply, for the resign and draw rules.
///
/// # Examples
///
/// ```
/// use rochade_arena::{Adjudicator, ResignRule, Verdict};
/// use shakmaty::Color;
///
/// let mut adj = Adjudicator::new(Some(ResignRule { move_count: 2, score: 500 }), None);
/// // White-relative scores of four plies: both engines see White winning.
/// for cp in [600, 700, 800, 900] {
///     adj.record(Some(cp));
/// }
/// assert!(matches!(adj.verdict(30), Some(Verdict::Win(Color::White, _))));
/// ```
#[derive(Debug, Clone)]
pub struct Adjudicator {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    /// White-relative scores, one per ply; `None` when the engine sent none.
    scores: Vec<Option<i32>>,
}

impl Adjudicator {
    /// An adjudicator with these rules (either may be absent).
    pub fn new(resign: Option<ResignRule>, draw: Option<DrawRule>) -> Self {
        Self {
            resign,
            draw,
            scores: Vec::new(),
        }
    }

    /// Records the score of the ply just played, from White's point of view.
    pub fn record(&mut self, white_score: Option<i32>) {
        self.scores.push(white_score);
    }

    /// The last `plies` scores if there are that many and all are known.
    fn last(&self, plies: usize) -> Option<Vec<i32>> {
        let start = self.scores.len().checked_sub(plies)?;
        self.scores[start..].iter().copied().collect()
    }

    /// The verdict after the last recorded ply, with `fullmove` the move
    /// number of the position now on the board.
    pub fn verdict(&self, fullmove: u32) -> Option<Verdict> {
        if let Some(rule) = self.resign {
            let plies = 2 * rule.move_count as usize;
            if let Some(scores) = self.last(plies) {
                for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
                    if scores.iter().all(|s| s * sign >= rule.score) {
                        return Some(Verdict::Win(
                            color,
                            format!(
                                "both engines scored {} ahead by {} cp or more for {} moves",
                                color, rule.score, rule.move_count
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(rule) = self.draw
            && fullmove >= rule.move_number
            && let Some(scores) = self.last(2 * rule.move_count as usize)
            && scores.iter().all(|s| s.abs() <= rule.score)
        {
            return Some(Verdict::Draw(format!(
                "both engines scored within {} cp of equality for {} moves",
                rule.score, rule.move_count
            )));
        }
        None
    }
}

/// Syzygy tables for adjudication.
pub struct Tablebases {
    tables: Tablebase<Chess>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases(max {} pieces)", self.tables.max_pieces())
    }
}

impl Tablebases {
    /// Opens the tables in `dir`.
    ///
    /// # Errors
    ///
    /// [`ArenaError::Tablebase`] if the directory cannot be read or holds
    /// no table.
    pub fn open(dir: &Path) -> Result<Self, ArenaError> {
        let mut tables = Tablebase::new();
        let found = tables
            .add_directory(dir)
            .map_err(|e| ArenaError::Tablebase {
                path: dir.to_owned(),
                reason: e.to_string(),
            })?;
        if found == 0 {
            return Err(ArenaError::Tablebase {
                path: dir.to_owned(),
                reason: "no Syzygy table found".into(),
            });
        }
        Ok(Self { tables })
    }

    /// The verdict of the tables for a position reached by a capture or a
    /// pawn move (half-move clock 0), with few enough pieces and no
    /// castling rights. A win the 50-move rule would spoil (cursed win,
    /// blessed loss) counts as a draw.
    pub fn verdict(&self, pos: &Chess) -> Option<Verdict> {
        if pos.halfmoves() != 0
            || pos.board().occupied().count() > self.tables.max_pieces()
            || pos.castles().any()
        {
            return None;
        }
        let wdl = self.tables.probe_wdl_after_zeroing(pos).ok()?;
        let mover = pos.turn();
        Some(match wdl {
            Wdl::Win => Verdict::Win(mover, "Syzygy tablebase win".into()),
            Wdl::Loss => Verdict::Win(mover.other(), "Syzygy tablebase win".into()),
            Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss => {
                Verdict::Draw("Syzygy tablebase draw".into())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    #[test]
    fn rules_parse_and_reject() {
        assert!("movecount=3".parse::<ResignRule>().is_err());
        assert!("movecount=3 score=x".parse::<ResignRule>().is_err());
        assert!("movecount=3 score=5 depth=2".parse::<ResignRule>().is_err());
        assert!("movecount=3 score=-5".parse::<ResignRule>().is_err());
        assert_eq!(
            "movenumber=40,movecount=8,score=10".parse::<DrawRule>(),
            Ok(DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            })
        );
    }

    #[test]
    fn mate_scores_count_as_decisive() {
        assert_eq!(centipawns(ScoreKind::Mate(3)), 99_997);
        assert_eq!(centipawns(ScoreKind::Mate(-2)), -99_998);
        assert_eq!(centipawns(ScoreKind::Cp(i32::MAX)), 99_000);
        let mut adj = Adjudicator::new(
            Some(ResignRule {
                move_count: 1,
                score: 1000,
            }),
            None,
        );
        adj.record(Some(centipawns(ScoreKind::Mate(-4))));
        adj.record(Some(-centipawns(ScoreKind::Mate(3))));
        assert!(matches!(
            adj.verdict(10),
            Some(Verdict::Win(Color::Black, _))
        ));
    }

    #[test]
    fn disagreement_or_missing_scores_do_not_adjudicate() {
        let rule = ResignRule {
            move_count: 2,
            score: 500,
        };
        let mut adj = Adjudicator::new(Some(rule), None);
        for cp in [600, 700, 100, 900] {
            adj.record(Some(cp));
        }
        assert_eq!(adj.verdict(30), None);
        let mut adj = Adjudicator::new(Some(rule), None);
        for cp in [Some(600), None, Some(800), Some(900)] {
            adj.record(cp);
        }
        assert_eq!(adj.verdict(30), None);
        let mut adj = Adjudicator::new(Some(rule), None);
        for cp in [600, 700, 800] {
            adj.record(Some(cp));
        }
        assert_eq!(adj.verdict(30), None, "only three plies");
    }

    #[test]
    fn draw_rule_waits_for_its_move_number() {
        let rule = DrawRule {
            move_number: 40,
            move_count: 2,
            score: 10,
        };
        let mut adj = Adjudicator::new(None, Some(rule));
        for cp in [5, -3, 0, 10] {
            adj.record(Some(cp));
        }
        assert_eq!(adj.verdict(39), None);
        assert!(matches!(adj.verdict(40), Some(Verdict::Draw(_))));
        adj.record(Some(11));
        assert_eq!(adj.verdict(41), None);
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// Needs the 3-4 piece tables of `scripts/fetch-test-data` in data/syzygy.
    #[test]
    fn syzygy_verdicts() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
        let tb =
            Tablebases::open(&dir).unwrap_or_else(|e| panic!("{e} (run scripts/fetch-test-data)"));
        // KQ v K, Black to move just after a capture: White wins.
        let won = position("8/8/8/4k3/8/8/3QK3/8 b - - 0 40");
        assert!(matches!(
            tb.verdict(&won),
            Some(Verdict::Win(Color::White, _))
        ));
        // KR v KR: a draw.
        let drawn = position("8/8/4k3/3r4/8/3R4/4K3/8 w - - 0 50");
        assert!(matches!(tb.verdict(&drawn), Some(Verdict::Draw(_))));
        // Not just after a zeroing move: no verdict.
        let later = position("8/8/8/4k3/8/8/3QK3/8 b - - 3 42");
        assert_eq!(tb.verdict(&later), None);
        // Too many pieces for 3-4 piece tables.
        assert_eq!(tb.verdict(&Chess::default()), None);
        assert!(Tablebases::open(Path::new("/nonexistent")).is_err());
    }
}
