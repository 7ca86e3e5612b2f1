//! The bracket as an arbiter reads it: round by round, one match a line,
//! with its score by stage, what it waits for, and who goes through.
//!
//! ```
//! use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
//!
//! let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
//! let text = b.to_string();
//! assert!(text.contains("1.1  1 - bye: 1 advances without a game"));
//! assert!(text.contains("1.2  2 - 3: colours to be drawn (standard)"));
//! assert!(text.contains("2.1  1 - winner of 1.2"));
//! ```

use std::fmt;

use super::{Bracket, BracketMatch, Entrant, Line, Match, MatchId, Next, Outcome, Play, WonBy};
use crate::PairingNumber;

/// A bracket listing with the players' names: see [`Bracket::listing`].
pub struct Listing<'a, F> {
    bracket: &'a Bracket,
    name: F,
}

impl Bracket {
    /// The listing of the bracket with each player shown as `name` says
    /// (the `Display` of a bracket shows seed numbers).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// let names = ["Carlsen", "Caruana"];
    /// let b = Bracket::new(2, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let text = b.listing(|p| names[p.index()].to_owned()).to_string();
    /// assert!(text.contains("1.1  Carlsen - Caruana"));
    /// ```
    #[must_use]
    pub fn listing<F: Fn(PairingNumber) -> String>(&self, name: F) -> Listing<'_, F> {
        Listing {
            bracket: self,
            name,
        }
    }
}

/// The title of round `round` of `rounds`.
fn round_title(round: usize, rounds: usize) -> String {
    match rounds - round {
        0 => format!("Round {round} (final)"),
        1 => format!("Round {round} (semi-finals)"),
        2 => format!("Round {round} (quarter-finals)"),
        _ => format!("Round {round}"),
    }
}

/// Writes `m` on one line: its players, the score of each stage begun,
/// what it waits for or who goes through.
pub(super) fn write_match(
    f: &mut fmt::Formatter<'_>,
    m: &Match,
    name: &dyn Fn(PairingNumber) -> String,
) -> fmt::Result {
    let (upper, lower) = m.players();
    write!(f, "{} - {}", name(upper), name(lower))?;
    let mut scores = Vec::new();
    for (i, stage) in m.format().stages().iter().enumerate() {
        if let Some((a, b)) = m.score(i) {
            scores.push(format!("{} {a}-{b}", stage.kind()));
        }
    }
    if !scores.is_empty() {
        write!(f, ": {}", scores.join(", "))?;
    }
    let sep = if scores.is_empty() { ": " } else { "; " };
    match m.next() {
        Next::DrawColours { kind, .. } => write!(f, "{sep}colours to be drawn ({kind})"),
        Next::Game(g) => {
            let block = if g.block > 1 {
                format!(" (block {})", g.block)
            } else {
                String::new()
            };
            write!(
                f,
                "{sep}next game {}, {}{block}, {} White",
                g.number,
                g.rules.kind(),
                name(g.white)
            )
        }
        Next::Finished(Outcome::Won { winner, loser, by }) => {
            write!(f, "{sep}{} advances", name(winner))?;
            match by {
                WonBy::Score { .. } => Ok(()),
                WonBy::DrawOdds => f.write_str(" (Armageddon drawn: draw odds)"),
                WonBy::Withdrawal => write!(f, " ({} withdrew)", name(loser)),
            }
        }
        Next::Finished(Outcome::NoWinner) => write!(f, "{sep}double forfeit, nobody advances"),
    }
}

impl<F: Fn(PairingNumber) -> String> Listing<'_, F> {
    /// Who stands on `line`, or where the player will come from.
    fn line(&self, line: Line) -> String {
        match line {
            Line::Seed(p) => (self.name)(p),
            Line::Empty => "bye".to_owned(),
            Line::WinnerOf(id) | Line::LoserOf(id) => {
                let entrant = self.bracket.get(id).map(|m| match line {
                    Line::LoserOf(_) => m.loser(),
                    _ => m.winner(),
                });
                match entrant {
                    Some(Entrant::Player(p)) => (self.name)(p),
                    Some(Entrant::Undecided) if matches!(line, Line::LoserOf(_)) => {
                        format!("loser of {id}")
                    }
                    Some(Entrant::Undecided) => format!("winner of {id}"),
                    _ => "bye".to_owned(),
                }
            }
        }
    }

    /// Writes one match of the bracket on a line.
    fn write_line(&self, f: &mut fmt::Formatter<'_>, m: &BracketMatch) -> fmt::Result {
        let label = match m.id() {
            MatchId::ThirdPlace => "3rd".to_owned(),
            id => id.to_string(),
        };
        write!(f, "  {label:>5}  ")?;
        let (upper, lower) = m.lines();
        match m.play() {
            Play::Match(game) => write_match(f, game, &self.name)?,
            Play::Waiting => write!(f, "{} - {}", self.line(upper), self.line(lower))?,
            Play::Bye { advances } => {
                write!(f, "{} - {}: ", self.line(upper), self.line(lower))?;
                match advances {
                    Some(p) => write!(f, "{} advances without a game", (self.name)(*p))?,
                    None => f.write_str("nobody advances")?,
                }
            }
        }
        writeln!(f)
    }
}

impl<F: Fn(PairingNumber) -> String> fmt::Display for Listing<'_, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.bracket;
        writeln!(
            f,
            "Knockout: {} players, {} lines, {} rounds",
            b.players(),
            b.size(),
            b.rounds()
        )?;
        let rules = b.rules();
        writeln!(f, "Matches: {}", rules.matches)?;
        if let Some(format) = &rules.final_format {
            writeln!(f, "Final: {format}")?;
        }
        if let Some(format) = &rules.third_place {
            writeln!(f, "Third place: {format}")?;
        }
        for round in 1..=b.rounds() {
            writeln!(f, "{}", round_title(round, b.rounds()))?;
            for m in b.round(round).unwrap_or_default() {
                self.write_line(f, m)?;
            }
        }
        if let Some(third) = b.third_place() {
            writeln!(f, "Match for third place")?;
            self.write_line(f, third)?;
        }
        if let Some(p) = b.champion() {
            writeln!(f, "Winner: {}", (self.name)(p))?;
        }
        Ok(())
    }
}

impl fmt::Display for Bracket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.listing(|p| p.to_string()).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use crate::knockout::testing::n;
    use crate::knockout::{Bracket, GameResult, MatchFormat, MatchId, Rules};

    /// The World Cup 2023 format as the listing writes it.
    const WC: &str = "2 standard games, 90'/40 + 30' + 30\" from move 1; \
        if tied, 2 rapid games, 25' + 10\"; if tied, 2 rapid games, 10' + 10\"; \
        if tied, 2 blitz games, 5' + 3\"; if tied, 1 blitz game, 3' + 2\", until decided";

    #[test]
    fn an_arbiter_reads_the_bracket_round_by_round() {
        let wc = MatchFormat::world_cup_2023();
        let mut b = Bracket::new(6, Rules::new(wc.clone()).third_place(wc)).unwrap();
        let m = MatchId::Round {
            round: 1,
            number: 2,
        };
        b.set_colours(m, n(5)).unwrap();
        b.record(m, GameResult::Draw).unwrap();
        b.record(m, GameResult::Draw).unwrap();
        b.set_colours(m, n(4)).unwrap();
        b.record(m, GameResult::WhiteWins).unwrap();
        b.record(m, GameResult::Draw).unwrap();
        b.withdraw(n(6)).unwrap();
        b.set_colours(
            MatchId::Round {
                round: 2,
                number: 2,
            },
            n(2),
        )
        .unwrap();
        let names = ["Ann", "Bob", "Cem", "Dov", "Eva", "Fay"];
        let text = b.listing(|p| names[p.index()].to_owned()).to_string();
        assert_eq!(
            text,
            "Knockout: 6 players, 8 lines, 3 rounds\n\
             Matches: {WC}\n\
             Third place: {WC}\n\
             Round 1 (quarter-finals)\n\
             \x20   1.1  Ann - bye: Ann advances without a game\n\
             \x20   1.2  Dov - Eva: standard 1.0-1.0, rapid 1.5-0.5; Dov advances\n\
             \x20   1.3  Cem - Fay: Cem advances (Fay withdrew)\n\
             \x20   1.4  Bob - bye: Bob advances without a game\n\
             Round 2 (semi-finals)\n\
             \x20   2.1  Ann - Dov: colours to be drawn (standard)\n\
             \x20   2.2  Cem - Bob: next game 1, standard, Bob White\n\
             Round 3 (final)\n\
             \x20   3.1  winner of 2.1 - winner of 2.2\n\
             Match for third place\n\
             \x20   3rd  loser of 2.1 - loser of 2.2\n"
                .replace("{WC}", WC)
        );
    }
}
