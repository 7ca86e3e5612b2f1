//! TRF16, the FIDE Tournament Report File, with the extensions the
//! pairing engines read (JaVaFo and bbpPairings): `XXR` (number of rounds),
//! `XXC` (`white1`/`black1`: the colour of the top player in round 1;
//! `rank`), `XXA` (acceleration points per round) and the `240` bye
//! records of TRF-2026.
//!
//! [`Trf::parse`] refuses malformed files with the line and column and
//! what is wrong; [`Trf::write`] writes the file back. Lines the reader
//! does not interpret (the `012` name, `092` type, comments…) are kept
//! as they are, in their place.
//!
//! ```
//! use rochade_tournament::trf::Trf;
//!
//! let text = "012 Club championship\n\
//! XXR 3\n\
//! 001    1      Alpha                             2000                             1.0    1     2 w 1  \n\
//! 001    2      Beta                              1900                             0.0    2     1 b 0  \n";
//! let trf = Trf::parse(text).unwrap();
//! assert_eq!(trf.players().len(), 2);
//! assert_eq!(trf.rounds(), Some(3));
//! assert_eq!(trf.played_rounds(), 1);
//! assert_eq!(Trf::parse(&trf.write().unwrap()).unwrap(), trf);
//! ```

mod code;
mod error;
mod read;
mod write;

pub use code::ResultCode;
pub use error::{TrfError, TrfErrorKind, TrfWriteError};

use crate::{Colour, PairingNumber, Points};

/// A whole tournament report file: its records in file order.
///
/// # Examples
///
/// ```
/// use rochade_tournament::trf::Trf;
///
/// let trf = Trf::parse("012 Empty\nXXR 5\n").unwrap();
/// assert!(trf.players().is_empty());
/// assert_eq!(trf.header("012"), Some("Empty"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trf {
    records: Vec<Record>,
}

/// One line of a TRF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// A `001` player record.
    Player(PlayerRecord),
    /// `XXR n`: the tournament has `n` rounds.
    Rounds(u16),
    /// `XXC`: the colour of the first board's top player in round 1
    /// (`white1`/`black1`), and whether pairing numbers follow the rank
    /// column (`rank`).
    Colours(ColourRule),
    /// `XXA`: acceleration points added to a player's score, per round.
    Acceleration(Acceleration),
    /// `240`: byes (full, half or zero point) for a round, by player.
    Byes(ByeRecord),
    /// Any other line, kept as it was (without its line end).
    Other(String),
}

/// The options of an `XXC` record.
///
/// # Examples
///
/// ```
/// use rochade_tournament::{Colour, trf::Trf};
///
/// let trf = Trf::parse("XXC white1\n").unwrap();
/// assert_eq!(trf.first_colour(), Some(Colour::White));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ColourRule {
    /// `white1` or `black1`: the colour of the top player in round 1.
    pub first: Option<Colour>,
    /// `rank`: pairing numbers follow the rank column.
    pub by_rank: bool,
}

/// An `XXA` record: points added for pairing purposes, round by round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acceleration {
    /// The player.
    pub player: PairingNumber,
    /// Points added in round 1, 2, … (blank fields are zero).
    pub points: Vec<Points>,
}

/// A `240` record: byes given in one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByeRecord {
    /// `F`, `H` or `Z`.
    pub kind: ResultCode,
    /// The round (1-based).
    pub round: u16,
    /// The players who get the bye.
    pub players: Vec<PairingNumber>,
}

/// A `001` record: one player and their rounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Starting rank (columns 5–8).
    pub number: PairingNumber,
    /// Sex (column 10), `m` or `w`, if given.
    pub sex: Option<char>,
    /// Title (columns 11–13), trimmed.
    pub title: String,
    /// Name (columns 15–47), trimmed.
    pub name: String,
    /// FIDE rating (columns 49–52), if given.
    pub rating: Option<u16>,
    /// Federation (columns 54–56), trimmed.
    pub federation: String,
    /// FIDE number (columns 58–68), trimmed.
    pub fide_id: String,
    /// Birth date (columns 70–79), trimmed.
    pub birth: String,
    /// Points (columns 81–84).
    pub points: Points,
    /// Rank (columns 86–89), if given.
    pub rank: Option<u16>,
    /// The round blocks (columns 92–99 for round 1, then every 10
    /// columns); `None` for a blank block.
    pub rounds: Vec<Option<RoundEntry>>,
}

/// One round block of a `001` record.
///
/// # Examples
///
/// ```
/// use rochade_tournament::trf::{ResultCode, RoundEntry};
///
/// let bye = RoundEntry::bye(ResultCode::HalfPointBye);
/// assert!(bye.opponent.is_none());
/// assert_eq!(bye.result, Some(ResultCode::HalfPointBye));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundEntry {
    /// The scheduled opponent (`0000` or blank: none).
    pub opponent: Option<PairingNumber>,
    /// The scheduled colour (`-` or blank: none).
    pub colour: Option<Colour>,
    /// The result; `None` for a pairing not yet played (opponent and
    /// colour with a blank result column).
    pub result: Option<ResultCode>,
}

impl RoundEntry {
    /// A round without an opponent: a bye or an absence.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::{ResultCode, RoundEntry};
    ///
    /// assert!(RoundEntry::bye(ResultCode::PairingAllocatedBye).colour.is_none());
    /// ```
    #[must_use]
    pub fn bye(kind: ResultCode) -> RoundEntry {
        RoundEntry {
            opponent: None,
            colour: None,
            result: Some(kind),
        }
    }

    /// Whether the player took part in this round's pairing: a game,
    /// a forfeit, or the pairing-allocated bye.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::{ResultCode, RoundEntry};
    ///
    /// assert!(RoundEntry::bye(ResultCode::PairingAllocatedBye).was_paired());
    /// assert!(!RoundEntry::bye(ResultCode::HalfPointBye).was_paired());
    /// ```
    #[must_use]
    pub fn was_paired(&self) -> bool {
        self.opponent.is_some()
            || matches!(
                self.result,
                Some(ResultCode::PairingAllocatedBye | ResultCode::ForfeitWin)
            )
    }
}

impl Trf {
    /// A file made of these records.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::{Record, Trf};
    ///
    /// let trf = Trf::from_records(vec![Record::Rounds(7)]);
    /// assert_eq!(trf.write().unwrap(), "XXR 7\r\n");
    /// ```
    #[must_use]
    pub fn from_records(records: Vec<Record>) -> Trf {
        Trf { records }
    }

    /// Every record, in file order.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// assert_eq!(Trf::parse("012 A\n022 B\n").unwrap().records().len(), 2);
    /// ```
    #[must_use]
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The player records, in file order.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// assert!(Trf::parse("012 A\n").unwrap().players().is_empty());
    /// ```
    #[must_use]
    pub fn players(&self) -> Vec<&PlayerRecord> {
        self.records
            .iter()
            .filter_map(|r| match r {
                Record::Player(p) => Some(p),
                _ => None,
            })
            .collect()
    }

    /// The player with this pairing number.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::{PairingNumber, trf::Trf};
    ///
    /// let trf = Trf::parse("012 A\n").unwrap();
    /// assert!(trf.player(PairingNumber::new(1).unwrap()).is_none());
    /// ```
    #[must_use]
    pub fn player(&self, number: PairingNumber) -> Option<&PlayerRecord> {
        self.players().into_iter().find(|p| p.number == number)
    }

    /// The text of a header record such as `012` (tournament name), trimmed.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// let trf = Trf::parse("012 Open 2025\n").unwrap();
    /// assert_eq!(trf.header("012"), Some("Open 2025"));
    /// assert_eq!(trf.header("022"), None);
    /// ```
    #[must_use]
    pub fn header(&self, tag: &str) -> Option<&str> {
        self.records.iter().find_map(|r| match r {
            Record::Other(line) => line
                .strip_prefix(tag)
                .filter(|rest| rest.is_empty() || rest.starts_with(' '))
                .map(str::trim),
            _ => None,
        })
    }

    /// The number of rounds (`XXR`), if given.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// assert_eq!(Trf::parse("XXR 9\n").unwrap().rounds(), Some(9));
    /// ```
    #[must_use]
    pub fn rounds(&self) -> Option<u16> {
        self.records.iter().find_map(|r| match r {
            Record::Rounds(n) => Some(*n),
            _ => None,
        })
    }

    /// The colour of the top player in round 1 (`XXC white1`/`black1`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::{Colour, trf::Trf};
    ///
    /// assert_eq!(Trf::parse("XXC black1\n").unwrap().first_colour(), Some(Colour::Black));
    /// ```
    #[must_use]
    pub fn first_colour(&self) -> Option<Colour> {
        self.records.iter().find_map(|r| match r {
            Record::Colours(rule) => rule.first,
            _ => None,
        })
    }

    /// The number of rounds already paired: the last round in which some
    /// player has a game, a forfeit or the pairing-allocated bye. Blocks
    /// after it (a requested bye, `0000 - H`) are requests for the next
    /// round, as JaVaFo and bbpPairings read them.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// assert_eq!(Trf::parse("012 A\n").unwrap().played_rounds(), 0);
    /// ```
    #[must_use]
    pub fn played_rounds(&self) -> u16 {
        self.players()
            .iter()
            .flat_map(|p| {
                p.rounds
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.is_some_and(|e| e.was_paired()))
                    .map(|(i, _)| i + 1)
            })
            .max()
            .map_or(0, |r| u16::try_from(r).unwrap_or(u16::MAX))
    }

    /// The players' own round entries for `round` (1-based), by player.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// assert!(Trf::parse("012 A\n").unwrap().round(1).is_empty());
    /// ```
    #[must_use]
    pub fn round(&self, round: u16) -> Vec<(PairingNumber, Option<RoundEntry>)> {
        let index = usize::from(round).saturating_sub(1);
        self.players()
            .iter()
            .map(|p| (p.number, p.rounds.get(index).copied().flatten()))
            .collect()
    }

    /// The same file with every round from `round` on removed from the
    /// player records (as the file stood before `round` was paired).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// let trf = Trf::parse("012 A\n").unwrap();
    /// assert_eq!(trf.before_round(1), trf);
    /// ```
    #[must_use]
    pub fn before_round(&self, round: u16) -> Trf {
        let keep = usize::from(round).saturating_sub(1);
        let records = self
            .records
            .iter()
            .map(|r| match r {
                Record::Player(p) => {
                    let mut p = p.clone();
                    p.rounds.truncate(keep);
                    Record::Player(p)
                }
                other => other.clone(),
            })
            .collect();
        Trf { records }
    }
}

impl Trf {
    /// Reads a TRF16 file (with the `XXR`, `XXC`, `XXA` and `240`
    /// records). Lines may end in CR, LF or CR LF; blank lines are skipped.
    ///
    /// # Errors
    ///
    /// [`TrfError`] with the line and column of the first problem:
    /// fields in the wrong columns, numbers that are not numbers, unknown
    /// result codes, impossible rounds (a bye with an opponent, a game
    /// without a colour), unknown or repeated players, and games the two
    /// players' records tell differently.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::{Trf, TrfErrorKind};
    ///
    /// let line = "001    1      Alpha                             2000                             1.0    1     9 w 1  ";
    /// let err = Trf::parse(line).unwrap_err();
    /// assert_eq!((err.line, err.column), (1, 92));
    /// assert_eq!(err.kind, TrfErrorKind::UnknownPlayer(9));
    /// ```
    pub fn parse(text: &str) -> Result<Trf, TrfError> {
        read::parse(text)
    }

    /// Writes the file, one record per line ending in CR LF, `001`
    /// records in the TRF16 columns.
    ///
    /// # Errors
    ///
    /// [`TrfWriteError::PairingNumber`] when a pairing number is above
    /// 9,999 (a tournament of 10,000 players or more): TRF16 has four
    /// columns for it, and nothing is written.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// let trf = Trf::parse("012 Open\nXXR 9\nXXC white1\n").unwrap();
    /// assert_eq!(trf.write().unwrap(), "012 Open\r\nXXR 9\r\nXXC white1\r\n");
    /// ```
    pub fn write(&self) -> Result<String, TrfWriteError> {
        write::write(self)
    }
}

impl PlayerRecord {
    /// This record as one `001` line (without a line end).
    ///
    /// # Errors
    ///
    /// [`TrfWriteError::PairingNumber`] for a pairing number (the
    /// player's or an opponent's) above 9,999.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::Trf;
    ///
    /// let line = "001    1      Alpha                             2000                             0.0    1";
    /// let trf = Trf::parse(line).unwrap();
    /// assert_eq!(trf.players()[0].to_line().unwrap().trim_end(), line);
    /// ```
    pub fn to_line(&self) -> Result<String, TrfWriteError> {
        write::player(self)
    }
}
