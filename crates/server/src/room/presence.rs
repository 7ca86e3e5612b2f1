//! Who is in the room: sockets per seat and spectators. A seat holds at
//! most a set number of sockets; the players hear of a change only when a
//! seat goes from empty to taken or back, and such changes within a short
//! window share one state message, so that sockets coming and going
//! cannot make the room talk to everyone about each of them.

use std::time::Duration;

use shakmaty::{ByColor, Color};
use tokio::time::Instant;

use crate::error::{ActionError, ErrorCode};
use crate::setup::Seats;

/// The room's sockets.
#[derive(Debug)]
pub struct Presence {
    /// Sockets per seat (a local token's socket counts for both).
    seats: ByColor<u32>,
    /// Since when each seat has had no socket (`None` while it has one).
    empty_since: ByColor<Option<Instant>>,
    /// Spectators' sockets.
    spectators: u32,
    /// Which seats the players were last told are connected.
    shown: ByColor<bool>,
    /// When the last presence change was sent.
    sent: Option<Instant>,
    /// Sockets one seat may hold.
    cap: u32,
    /// The shortest time between two presence messages.
    every: Duration,
}

impl Presence {
    /// Nobody there; `cap` sockets a seat, changes sent at most every `every`.
    pub fn new(cap: usize, every: Duration) -> Presence {
        Presence {
            seats: ByColor::new_with(|_| 0),
            empty_since: ByColor::new_with(|_| Some(Instant::now())),
            spectators: 0,
            shown: ByColor::new_with(|_| false),
            sent: None,
            cap: u32::try_from(cap).unwrap_or(u32::MAX),
            every,
        }
    }

    /// A socket with `seats` joins.
    ///
    /// # Errors
    ///
    /// `too_many_sockets` when a seat it holds is full; nothing is counted.
    pub fn join(&mut self, seats: Seats) -> Result<(), ActionError> {
        if seats == Seats::Spectator {
            self.spectators += 1;
            return Ok(());
        }
        for color in Color::ALL {
            if seats.holds(color) && self.seats[color] >= self.cap {
                return Err(ActionError::new(
                    ErrorCode::TooManySockets,
                    format!("this seat has {} sockets open already", self.cap),
                ));
            }
        }
        for color in Color::ALL {
            if seats.holds(color) {
                self.seats[color] += 1;
                self.empty_since[color] = None;
            }
        }
        Ok(())
    }

    /// A socket with `seats` left.
    pub fn leave(&mut self, seats: Seats) {
        if seats == Seats::Spectator {
            self.spectators = self.spectators.saturating_sub(1);
        }
        for color in Color::ALL {
            if seats.holds(color) {
                self.seats[color] = self.seats[color].saturating_sub(1);
                if self.seats[color] == 0 {
                    self.empty_since[color] = Some(Instant::now());
                }
            }
        }
    }

    /// Which seats have a socket.
    pub fn connected(&self) -> ByColor<bool> {
        self.seats.map(|n| n > 0)
    }

    /// How long the seat of `color` has had no socket (since the room
    /// was loaded, at most); `None` while it has one.
    pub fn gone_for(&self, color: Color) -> Option<Duration> {
        self.empty_since[color].map(|since| since.elapsed())
    }

    /// Whether no socket at all is open.
    pub fn is_empty(&self) -> bool {
        self.spectators == 0 && self.seats.iter().all(|n| *n == 0)
    }

    /// When the players should next hear of a presence change, if one is
    /// pending.
    pub fn due(&self) -> Option<Instant> {
        if self.connected() == self.shown {
            return None;
        }
        Some(
            self.sent
                .map_or_else(Instant::now, |sent| sent + self.every),
        )
    }

    /// The players have just been sent a state showing `connected()`.
    pub fn shown(&mut self) {
        self.shown = self.connected();
        self.sent = Some(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_seat_refuses_more_sockets() {
        let mut p = Presence::new(2, Duration::from_millis(250));
        let white = Seats::One(Color::White);
        p.join(white).expect("one");
        p.join(white).expect("two");
        assert_eq!(
            p.join(white).map_err(|e| e.code),
            Err(ErrorCode::TooManySockets)
        );
        // A local token holds both seats: refused too, and nothing counted.
        assert!(p.join(Seats::Both).is_err());
        assert_eq!(
            p.connected(),
            ByColor {
                white: true,
                black: false
            }
        );
        p.join(Seats::Spectator)
            .expect("spectators are not capped here");
    }

    #[tokio::test(start_paused = true)]
    async fn changes_within_the_window_share_one_message() {
        let mut p = Presence::new(8, Duration::from_millis(250));
        let black = Seats::One(Color::Black);
        p.join(black).expect("joins");
        assert_eq!(p.due(), Some(Instant::now()));
        p.shown();
        // Many more sockets on a seat already shown: nothing to send.
        for _ in 0..5 {
            p.join(black).expect("joins");
        }
        assert_eq!(p.due(), None);
        for _ in 0..6 {
            p.leave(black);
        }
        let due = p.due().expect("the seat emptied");
        assert_eq!(due, Instant::now() + Duration::from_millis(250));
        assert!(p.is_empty());
        tokio::time::advance(Duration::from_secs(3)).await;
        assert_eq!(p.gone_for(Color::Black), Some(Duration::from_secs(3)));
        p.join(black).expect("back");
        assert_eq!(p.gone_for(Color::Black), None);
    }
}
