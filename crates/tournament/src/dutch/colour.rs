//! Colour preferences (C.04.3 A.6) and the colour allocation rules
//! (C.04.3 E.1–E.5).

use super::player::Entrant;
use crate::Colour;

/// How much a player wants their preferred colour (A.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No game played yet: no preference.
    None,
    /// Colour difference 0: alternate from the last game (A.6.c).
    Mild,
    /// Colour difference ±1 (A.6.b).
    Strong,
    /// Colour difference beyond ±1, or the same colour in the last two
    /// games (A.6.a).
    Absolute,
}

/// A player's colour preference: the colour and how strong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preference {
    /// The colour wanted, if any.
    pub colour: Option<Colour>,
    /// How much.
    pub strength: Strength,
}

/// The colour of the last two games when they were the same.
#[must_use]
pub fn repeated_colour(e: &Entrant) -> Option<Colour> {
    match e.colours.as_slice() {
        [.., a, b] if a == b => Some(*b),
        _ => None,
    }
}

/// What the colour rules read of a player's history, worked out once:
/// a round weighs n²/2 pairs, and each read the two histories again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// White games minus Black games ([`Entrant::colour_difference`]).
    pub difference: i32,
    /// The colour of the last two games when they were the same.
    pub repeated: Option<Colour>,
    /// The colour preference (A.6).
    pub preference: Preference,
}

impl Standing {
    /// The standing of `e`.
    #[must_use]
    pub fn of(e: &Entrant) -> Standing {
        let difference = e.colour_difference();
        let repeated = repeated_colour(e);
        let preference = match e.colours.last() {
            None => Preference {
                colour: None,
                strength: Strength::None,
            },
            Some(&last) => {
                let colour = if let Some(c) = repeated {
                    c.other()
                } else if difference >= 1 {
                    Colour::Black
                } else if difference <= -1 {
                    Colour::White
                } else {
                    last.other()
                };
                let strength = if difference.abs() >= 2 || repeated.is_some() {
                    Strength::Absolute
                } else if difference.abs() == 1 {
                    Strength::Strong
                } else {
                    Strength::Mild
                };
                Preference {
                    colour: Some(colour),
                    strength,
                }
            }
        };
        Standing {
            difference,
            repeated,
            preference,
        }
    }

    /// Whether playing `colour` would break C.04.3 C3's colour limits:
    /// a third game in a row with one colour, or a colour difference
    /// beyond ±2.
    #[must_use]
    pub fn breaks_absolute(&self, colour: Colour) -> bool {
        if self.repeated == Some(colour) {
            return true;
        }
        let step = if colour == Colour::White { 1 } else { -1 };
        (self.difference + step).abs() > 2
    }

    /// Whether some colour allocation lets this player and `other` meet
    /// within the colour limits of C3.
    #[must_use]
    pub fn has_legal_allocation(&self, other: &Standing) -> bool {
        let first = !self.breaks_absolute(Colour::White) && !other.breaks_absolute(Colour::Black);
        let second = !self.breaks_absolute(Colour::Black) && !other.breaks_absolute(Colour::White);
        first || second
    }
}

/// The colour preference of a player (C.04.3 A.6).
#[must_use]
pub fn preference(e: &Entrant) -> Preference {
    Standing::of(e).preference
}

/// Whether playing `colour` would break C.04.3 C3's colour limits for
/// this player: a third game in a row with one colour, or a colour
/// difference beyond ±2.
#[must_use]
pub fn breaks_absolute(e: &Entrant, colour: Colour) -> bool {
    Standing::of(e).breaks_absolute(colour)
}

/// Whether some colour allocation lets `a` and `b` meet within the
/// colour limits of C3.
#[must_use]
pub fn has_legal_allocation(a: &Entrant, b: &Entrant) -> bool {
    Standing::of(a).has_legal_allocation(&Standing::of(b))
}

/// (White, Black) for a pair, by the colour allocation rules E.1–E.5;
/// `initial` is the colour drawn by lot for the top player of round 1.
#[must_use]
pub fn allocate<'a>(a: &'a Entrant, b: &'a Entrant, initial: Colour) -> (&'a Entrant, &'a Entrant) {
    let (pa, pb) = (preference(a), preference(b));
    let higher = if a.number < b.number { a } else { b };
    let give = |player: &'a Entrant, colour: Colour| {
        let other = if std::ptr::eq(player, a) { b } else { a };
        match colour {
            Colour::White => (player, other),
            Colour::Black => (other, player),
        }
    };
    // E.1: grant both preferences.
    if let (Some(ca), Some(cb)) = (pa.colour, pb.colour)
        && ca != cb
    {
        return give(a, ca);
    }
    // E.2: grant the stronger preference; both absolute (or equally
    // strong and alike): the wider colour difference wins.
    if pa.strength != pb.strength {
        let (stronger, p) = if pa.strength > pb.strength {
            (a, pa)
        } else {
            (b, pb)
        };
        if let Some(c) = p.colour {
            return give(stronger, c);
        }
    } else if pa.strength > Strength::None && pa.colour == pb.colour {
        let (da, db) = (a.colour_difference(), b.colour_difference());
        match pa.colour {
            Some(Colour::White) if da != db => {
                return give(if da < db { a } else { b }, Colour::White);
            }
            Some(Colour::Black) if da != db => {
                return give(if da > db { a } else { b }, Colour::Black);
            }
            _ => {}
        }
    }
    // E.3: alternate to the latest round in which they had different colours.
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return give(a, ca.other());
        }
    }
    // E.4: grant the higher ranked player's preference.
    if let Some(c) = preference(higher).colour {
        return give(higher, c);
    }
    // E.5: an odd pairing number gets the initial colour.
    let colour = if higher.number.get() % 2 == 1 {
        initial
    } else {
        initial.other()
    };
    give(higher, colour)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairingNumber;

    fn entrant(n: u16, colours: &str) -> Entrant {
        Entrant {
            number: PairingNumber::new(n).expect("a number"),
            score: 0,
            colours: colours
                .chars()
                .map(|c| {
                    if c == 'w' {
                        Colour::White
                    } else {
                        Colour::Black
                    }
                })
                .collect(),
            floats: Vec::new(),
            opponents: Vec::new(),
            bye_eligible: true,
        }
    }

    #[test]
    fn c04_3_a6_preferences() {
        assert_eq!(preference(&entrant(1, "")).strength, Strength::None);
        let mild = preference(&entrant(1, "wb"));
        assert_eq!(
            (mild.colour, mild.strength),
            (Some(Colour::White), Strength::Mild)
        );
        let strong = preference(&entrant(1, "wbw"));
        assert_eq!(
            (strong.colour, strong.strength),
            (Some(Colour::Black), Strength::Strong)
        );
        let twice = preference(&entrant(1, "bww"));
        assert_eq!(
            (twice.colour, twice.strength),
            (Some(Colour::Black), Strength::Absolute)
        );
        let wide = preference(&entrant(1, "wbwwbw"));
        assert_eq!(
            (wide.colour, wide.strength),
            (Some(Colour::Black), Strength::Absolute)
        );
    }

    /// Every colour history of up to `len` games.
    fn histories(len: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..len {
            last = last
                .iter()
                .flat_map(|h| [format!("{h}w"), format!("{h}b")])
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// Whether the history `h` keeps within C3's limits: never three
    /// games in a row with one colour at its end, a colour difference
    /// of at most ±2.
    fn within_limits(h: &str) -> bool {
        let diff = h.matches('w').count() as i32 - h.matches('b').count() as i32;
        !(h.ends_with("www") || h.ends_with("bbb") || diff.abs() > 2)
    }

    /// A.6 read from the history as a string.
    fn reference_preference(h: &str) -> Preference {
        let diff = h.matches('w').count() as i32 - h.matches('b').count() as i32;
        let twice = h.ends_with("ww") || h.ends_with("bb");
        let other_than_last = if h.ends_with('w') {
            Colour::Black
        } else {
            Colour::White
        };
        let (colour, strength) = match (h.is_empty(), twice, diff) {
            (true, _, _) => (None, Strength::None),
            (false, true, _) => (Some(other_than_last), Strength::Absolute),
            (false, false, d) if d.abs() >= 2 => (
                Some(if d > 0 { Colour::Black } else { Colour::White }),
                Strength::Absolute,
            ),
            (false, false, 1) => (Some(Colour::Black), Strength::Strong),
            (false, false, -1) => (Some(Colour::White), Strength::Strong),
            (false, false, _) => (Some(other_than_last), Strength::Mild),
        };
        Preference { colour, strength }
    }

    #[test]
    fn standing_agrees_with_the_history() {
        let all = histories(7);
        assert_eq!(all.len(), 255);
        for h in &all {
            let e = entrant(1, h);
            let s = Standing::of(&e);
            assert_eq!(s.difference, e.colour_difference(), "{h}");
            assert_eq!(s.repeated, repeated_colour(&e), "{h}");
            assert_eq!(s.preference, reference_preference(h), "{h}");
            assert_eq!(preference(&e), s.preference, "{h}");
            for (colour, c) in [(Colour::White, 'w'), (Colour::Black, 'b')] {
                let breaks = !within_limits(&format!("{h}{c}"));
                assert_eq!(s.breaks_absolute(colour), breaks, "{h} {c}");
                assert_eq!(breaks_absolute(&e, colour), breaks, "{h} {c}");
            }
        }
        // Some allocation keeps both within the limits, tried on every
        // pair of histories of up to five games.
        let short = histories(5);
        for a in &short {
            for b in &short {
                let legal = (within_limits(&format!("{a}w")) && within_limits(&format!("{b}b")))
                    || (within_limits(&format!("{a}b")) && within_limits(&format!("{b}w")));
                let (ea, eb) = (entrant(1, a), entrant(2, b));
                assert_eq!(has_legal_allocation(&ea, &eb), legal, "{a} {b}");
                let (sa, sb) = (Standing::of(&ea), Standing::of(&eb));
                assert_eq!(sa.has_legal_allocation(&sb), legal, "{a} {b}");
            }
        }
    }

    #[test]
    fn c04_3_c3_two_absolute_alike_cannot_meet() {
        assert!(!has_legal_allocation(&entrant(1, "ww"), &entrant(2, "bww")));
        assert!(has_legal_allocation(&entrant(1, "ww"), &entrant(2, "bb")));
    }

    #[test]
    fn c04_3_e1_to_e5() {
        let white = |a: &Entrant, b: &Entrant, i| allocate(a, b, i).0.number.get();
        // E.1 both preferences.
        assert_eq!(white(&entrant(1, "w"), &entrant(2, "b"), Colour::White), 2);
        // E.2 the stronger preference.
        assert_eq!(
            white(&entrant(1, "wb"), &entrant(2, "wbb"), Colour::White),
            2
        );
        // E.3 alternate from the last round with different colours.
        assert_eq!(
            white(&entrant(2, "wbwb"), &entrant(1, "bwwb"), Colour::White),
            2
        );
        // E.4 the higher ranked player's preference.
        assert_eq!(
            white(&entrant(3, "wb"), &entrant(2, "wb"), Colour::White),
            2
        );
        // E.5 odd number: initial colour; even: the other.
        assert_eq!(white(&entrant(1, ""), &entrant(4, ""), Colour::Black), 4);
        assert_eq!(white(&entrant(2, ""), &entrant(5, ""), Colour::White), 5);
    }
}
