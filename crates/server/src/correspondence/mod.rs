//! Correspondence chess by the ICCF rules, on top of the rooms: leave
//! (10.1), which stops both clocks of every correspondence game of the
//! player on leave; conditional moves, played by the server when the
//! opponent's move matches; each player's private notes on a game. The
//! deadlines themselves wait in the one scheduler ([`crate::schedule`]),
//! like every other game's.

pub mod conditional;
pub mod http;
pub mod leave;
pub mod notes;
