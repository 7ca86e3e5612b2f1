//! Match statistics: score, Elo difference with its 95% error margin and
//! likelihood of superiority, as cutechess-cli computes them, and the
//! sequential probability ratio test (SPRT) as fishtest runs it.

use std::fmt;

/// The 97.5% quantile of the standard normal distribution.
const Z_975: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws of the first engine.
///
/// # Examples
///
/// ```
/// use rochade_arena::Tally;
///
/// let t = Tally { wins: 30, losses: 10, draws: 60 };
/// assert_eq!(t.games(), 100);
/// assert!((t.score() - 0.6).abs() < 1e-12);
/// assert!((t.elo() - 70.44).abs() < 0.01);
/// assert!((t.elo_error() - 42.80).abs() < 0.01);
/// assert_eq!(t.to_string(), "30 - 10 - 60  [0.600] 100");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points per game, from 0 to 1 (0.5 before any game).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n)
        }
    }

    /// The logistic Elo difference for the score (infinite at 0% or 100%).
    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }

    /// Half the width of the 95% confidence interval of [`elo`](Self::elo),
    /// from the per-game variance of the results (cutechess-cli's formula;
    /// infinite when the interval reaches a score of 0% or 100%, NaN before
    /// any game).
    pub fn elo_error(&self) -> f64 {
        let n = f64::from(self.games());
        let mu = self.score();
        let deviation = |count: u32, points: f64| f64::from(count) / n * (points - mu).powi(2);
        let variance =
            deviation(self.wins, 1.0) + deviation(self.draws, 0.5) + deviation(self.losses, 0.0);
        let stdev = variance.sqrt() / n.sqrt();
        let low = mu - Z_975 * stdev;
        let high = mu + Z_975 * stdev;
        if low <= 0.0 || high >= 1.0 {
            // The interval reaches a score of 0% or 100%: no finite bound.
            return f64::INFINITY;
        }
        (elo_of_score(high) - elo_of_score(low)) / 2.0
    }

    /// The likelihood of superiority: the probability that the first engine
    /// is the stronger, from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let decisive = f64::from(self.wins + self.losses);
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
    }

    /// The share of draws (0 before any game).
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            f64::from(self.draws) / f64::from(n)
        }
    }

    /// Records one result, in points for the first engine (1, ½ or 0 as
    /// 2, 1, 0 half-points).
    pub fn record(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} - {} - {}  [{:.3}] {}",
            self.wins,
            self.losses,
            self.draws,
            self.score(),
            self.games()
        )
    }
}

/// The Elo difference that gives `score` in the logistic model.
fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an `elo` advantage in the logistic model.
fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    y.copysign(x)
}

/// A sequential probability ratio test: is the first engine `elo1` rather
/// than `elo0` stronger, with false positive rate `alpha` and false negative
/// rate `beta`?
///
/// The log-likelihood ratio is the generalized SPRT approximation on the
/// trinomial (win/draw/loss) model with logistic Elo, as fishtest uses
/// it; the bounds are Wald's, `ln(beta/(1-alpha))` and `ln((1-beta)/alpha)`.
///
/// # Examples
///
/// ```
/// use rochade_arena::{Sprt, SprtStatus, Tally};
///
/// let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
/// let (lower, upper) = sprt.bounds();
/// assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
/// let t = Tally { wins: 30, losses: 10, draws: 60 };
/// assert!(sprt.llr(&t) > 0.0);
/// assert_eq!(sprt.status(&t), SprtStatus::Continue);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtStatus {
    /// Neither bound is crossed.
    Continue,
    /// The lower bound is crossed: H0 (`elo0`) accepted.
    AcceptH0,
    /// The upper bound is crossed: H1 (`elo1`) accepted.
    AcceptH1,
}

impl std::str::FromStr for Sprt {
    type Err = String;

    /// Reads `elo0=0 elo1=10 alpha=0.05 beta=0.05` (alpha and beta default
    /// to 0.05) and checks it with [`validate`](Self::validate).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("`{word}` is not key=value"))?;
            let number: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("`{key}` must be a number, not `{value}`"))?;
            match key {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                _ => {
                    return Err(format!(
                        "unknown key `{key}` (expected elo0, elo1, alpha, beta)"
                    ));
                }
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("SPRT needs elo0= and elo1=".into());
        }
        sprt.validate()?;
        Ok(sprt)
    }
}

impl Sprt {
    /// Checks that the parameters make a test.
    ///
    /// # Errors
    ///
    /// A message if `elo0 >= elo1` or a rate is not strictly between 0 and 1.
    pub fn validate(&self) -> Result<(), String> {
        let rate = |r: f64| r > 0.0 && r < 1.0;
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!(
                "SPRT needs elo0 < elo1, not {} and {}",
                self.elo0, self.elo1
            ));
        }
        if !rate(self.alpha) || !rate(self.beta) {
            return Err("SPRT alpha and beta must lie strictly between 0 and 1".into());
        }
        Ok(())
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the results so far
    /// (0 while the results have no variance).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let n = f64::from(tally.games());
        if n == 0.0 {
            return 0.0;
        }
        let s = tally.score();
        let deviation = |count: u32, points: f64| f64::from(count) / n * (points - s).powi(2);
        let variance =
            deviation(tally.wins, 1.0) + deviation(tally.draws, 0.5) + deviation(tally.losses, 0.0);
        if variance <= 0.0 {
            return 0.0;
        }
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)
    }

    /// Whether a bound is crossed.
    pub fn status(&self, tally: &Tally) -> SprtStatus {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Reference values computed independently (Python, math.erf and the
    /// same formulas as cutechess-cli's EloCalculator / fishtest's LLR).
    #[test]
    fn elo_and_error_match_reference_values() {
        let cases = [
            // (W, L, D, elo, error, los)
            (30, 10, 60, 70.436_504, 42.801_242, 0.999_217),
            (5, 5, 10, 0.0, 111.329_491, 0.5),
            (12, 25, 3, -117.164_842, 114.184_808, 0.016_291),
            (1, 0, 0, f64::INFINITY, f64::INFINITY, 0.841_345),
            (0, 37, 3, -563.747_788, f64::INFINITY, 0.0),
        ];
        for (wins, losses, draws, elo, error, los) in cases {
            let t = Tally {
                wins,
                losses,
                draws,
            };
            assert!(
                close(t.elo(), elo, 1e-3) || t.elo() == elo,
                "{t}: {}",
                t.elo()
            );
            assert!(
                close(t.elo_error(), error, 1e-3) || t.elo_error() == error,
                "{t}: {}",
                t.elo_error()
            );
            assert!(close(t.los(), los, 1e-5), "{t}: {}", t.los());
        }
    }

    #[test]
    fn sprt_matches_reference_values() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let t = Tally {
            wins: 30,
            losses: 10,
            draws: 60,
        };
        assert!(close(sprt.llr(&t), 1.483_581, 1e-5), "{}", sprt.llr(&t));
        let strong = Tally {
            wins: 300,
            losses: 100,
            draws: 600,
        };
        assert_eq!(sprt.status(&strong), SprtStatus::AcceptH1);
        let weak = Tally {
            wins: 100,
            losses: 300,
            draws: 600,
        };
        assert_eq!(sprt.status(&weak), SprtStatus::AcceptH0);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
        assert_eq!(
            sprt.llr(&Tally {
                wins: 0,
                losses: 0,
                draws: 9
            }),
            0.0
        );
    }

    #[test]
    fn sprt_reads() {
        let sprt: Sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.1".parse().unwrap();
        assert_eq!((sprt.elo1, sprt.beta), (10.0, 0.1));
        assert!("elo0=0".parse::<Sprt>().is_err());
        assert!("elo0=0 elo1=x".parse::<Sprt>().is_err());
        assert!("elo0=0 elo1=5 gamma=1".parse::<Sprt>().is_err());
        assert!("elo0=5 elo1=0".parse::<Sprt>().is_err());
    }

    #[test]
    fn sprt_validation() {
        let bad = Sprt {
            elo0: 5.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(bad.validate().is_err());
        let bad = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.0,
            beta: 0.05,
        };
        assert!(bad.validate().is_err());
    }
}
