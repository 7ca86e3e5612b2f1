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

/// The colour preference of a player (C.04.3 A.6).
#[must_use]
pub fn preference(e: &Entrant) -> Preference {
    let Some(&last) = e.colours.last() else {
        return Preference {
            colour: None,
            strength: Strength::None,
        };
    };
    let diff = e.colour_difference();
    let colour = if let Some(c) = repeated_colour(e) {
        c.other()
    } else if diff >= 1 {
        Colour::Black
    } else if diff <= -1 {
        Colour::White
    } else {
        last.other()
    };
    let strength = if diff.abs() >= 2 || repeated_colour(e).is_some() {
        Strength::Absolute
    } else if diff.abs() == 1 {
        Strength::Strong
    } else {
        Strength::Mild
    };
    Preference {
        colour: Some(colour),
        strength,
    }
}

/// Whether playing `colour` would break C.04.3 C3's colour limits for
/// this player: a third game in a row with one colour, or a colour
/// difference beyond ±2.
#[must_use]
pub fn breaks_absolute(e: &Entrant, colour: Colour) -> bool {
    if repeated_colour(e) == Some(colour) {
        return true;
    }
    let step = if colour == Colour::White { 1 } else { -1 };
    (e.colour_difference() + step).abs() > 2
}

/// Whether some colour allocation lets `a` and `b` meet within the
/// colour limits of C3.
#[must_use]
pub fn has_legal_allocation(a: &Entrant, b: &Entrant) -> bool {
    let first = !breaks_absolute(a, Colour::White) && !breaks_absolute(b, Colour::Black);
    let second = !breaks_absolute(a, Colour::Black) && !breaks_absolute(b, Colour::White);
    first || second
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
