//! The rating categories ("perfs"), with lichess's names and bounds.

use rochade_laws::clock::{Category, Limit, TimeControl};
use rochade_laws::rules::RuleSet;

/// A rating category. Clock games fall in one by their estimated duration,
/// the time for 40 moves (the base time plus 40 times the increment), with
/// lichess's bounds:
/// ultra-bullet under 30 s, bullet under 3 min, blitz under 8 min, rapid
/// under 25 min, classical from 25 min. Games counted in days are
/// correspondence; Chess960 games have a category of their own.
///
/// # Examples
///
/// ```
/// use rochade_server::ratings::Perf;
/// let blitz: rochade_laws::clock::TimeControl = "5+3".parse()?;
/// assert_eq!(Perf::of(&blitz, false), Perf::Blitz);
/// assert_eq!(Perf::of(&blitz, true), Perf::Chess960);
/// assert_eq!(Perf::of(&"3d/move".parse()?, false), Perf::Correspondence);
/// assert_eq!(Perf::Blitz.key(), "blitz");
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Perf {
    /// Under 30 seconds estimated.
    UltraBullet,
    /// Under 3 minutes estimated.
    Bullet,
    /// Under 8 minutes estimated.
    Blitz,
    /// Under 25 minutes estimated.
    Rapid,
    /// 25 minutes or more estimated.
    Classical,
    /// Counted in days, or without a clock.
    Correspondence,
    /// Chess960, at any speed.
    Chess960,
}

impl Perf {
    /// Every category, fastest first.
    pub const ALL: [Perf; 7] = [
        Perf::UltraBullet,
        Perf::Bullet,
        Perf::Blitz,
        Perf::Rapid,
        Perf::Classical,
        Perf::Correspondence,
        Perf::Chess960,
    ];

    /// The category of a game with `control`, Chess960 or not.
    pub fn of(control: &TimeControl, chess960: bool) -> Perf {
        if chess960 {
            Perf::Chess960
        } else {
            Perf::speed(control)
        }
    }

    /// The speed of `control`: the category a standard game with it falls
    /// in (lichess's `speed`).
    pub fn speed(control: &TimeControl) -> Perf {
        if control.category(RuleSet::Fide) == Category::Correspondence {
            return Perf::Correspondence;
        }
        if matches!(control.limit(), Limit::PerMove(_) | Limit::NoClock) {
            return Perf::Correspondence;
        }
        let estimated = control.time_for_moves(40).map_or(0, |t| t.as_secs());
        match estimated {
            0..30 => Perf::UltraBullet,
            30..180 => Perf::Bullet,
            180..480 => Perf::Blitz,
            480..1500 => Perf::Rapid,
            _ => Perf::Classical,
        }
    }

    /// lichess's key: `ultraBullet`, `bullet`, `blitz`, `rapid`,
    /// `classical`, `correspondence`, `chess960`.
    pub const fn key(self) -> &'static str {
        match self {
            Perf::UltraBullet => "ultraBullet",
            Perf::Bullet => "bullet",
            Perf::Blitz => "blitz",
            Perf::Rapid => "rapid",
            Perf::Classical => "classical",
            Perf::Correspondence => "correspondence",
            Perf::Chess960 => "chess960",
        }
    }

    /// The name lichess shows (`UltraBullet`, `Blitz`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Perf::UltraBullet => "UltraBullet",
            Perf::Bullet => "Bullet",
            Perf::Blitz => "Blitz",
            Perf::Rapid => "Rapid",
            Perf::Classical => "Classical",
            Perf::Correspondence => "Correspondence",
            Perf::Chess960 => "Chess960",
        }
    }

    /// The category named by its key.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::ratings::Perf;
    /// assert_eq!(Perf::from_key("rapid"), Some(Perf::Rapid));
    /// assert_eq!(Perf::from_key("Rapid"), None);
    /// ```
    pub fn from_key(key: &str) -> Option<Perf> {
        Perf::ALL.into_iter().find(|p| p.key() == key)
    }
}

impl std::fmt::Display for Perf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perf(tc: &str) -> Perf {
        Perf::speed(&tc.parse().expect("a control"))
    }

    #[test]
    fn the_bounds_are_lichess_s() {
        assert_eq!(perf("15s+0"), Perf::UltraBullet);
        assert_eq!(perf("1/2+0"), Perf::Classical); // 2 min a move
        assert_eq!(perf("30s+0"), Perf::Bullet);
        assert_eq!(perf("1+0"), Perf::Bullet);
        assert_eq!(perf("2+1"), Perf::Bullet); // 120 + 40 = 160 s
        assert_eq!(perf("3+0"), Perf::Blitz);
        assert_eq!(perf("5+3"), Perf::Blitz); // 300 + 120 = 420 s
        assert_eq!(perf("5+5"), Perf::Rapid); // 500 s
        assert_eq!(perf("10+0"), Perf::Rapid);
        assert_eq!(perf("15+10"), Perf::Rapid); // 900 + 400 s
        assert_eq!(perf("20+10"), Perf::Classical); // 1200 + 400 s
        assert_eq!(perf("20+5"), Perf::Rapid); // 1400 s
        assert_eq!(perf("25+0"), Perf::Classical);
        assert_eq!(perf("40/90+30, 30+30"), Perf::Classical);
    }

    #[test]
    fn days_and_no_clock_are_correspondence() {
        assert_eq!(perf("3d/move"), Perf::Correspondence);
        assert_eq!(perf("30d+1d"), Perf::Correspondence);
        assert_eq!(perf("10/40d"), Perf::Correspondence);
        assert_eq!(perf("-"), Perf::Correspondence);
    }

    #[test]
    fn every_key_reads_back() {
        for p in Perf::ALL {
            assert_eq!(Perf::from_key(p.key()), Some(p));
        }
    }
}
