//! A tournament as the FIDE Tournament Report File (TRF16) writes it:
//! what the Dutch pairing reads, what the standings are ranked from, and
//! what the organiser downloads. Pairing numbers are the order of the
//! players in [`Tournament::players`] (by rating at the start, late
//! entries after them).
//!
//! A game decided before both sides moved counts as a forfeit (`+`/`-`,
//! unplayed: the two may meet again, C.04.3); a game still going has no
//! result yet.

use std::collections::HashMap;

use rochade_tournament::trf::{PlayerRecord, Record, ResultCode, RoundEntry, Trf};
use rochade_tournament::{Colour, PairingNumber, Points};

use super::{Board, ByeKind, System, Tournament};
use crate::storage::tournaments::TournamentGame;

/// How a tournament's game stands, by game id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0` once over.
    pub result: Option<String>,
    /// Half-moves played.
    pub plies: usize,
    /// White went berserk, Black did (an arena's game).
    pub berserk: [bool; 2],
}

/// The outcomes of `games`, by id.
pub fn outcomes(games: &[TournamentGame]) -> HashMap<String, Outcome> {
    games
        .iter()
        .map(|g| {
            (
                g.game.setup.id.clone(),
                Outcome {
                    result: g.result.clone(),
                    plies: g.game.glance.as_ref().map_or(0, |gl| gl.ply),
                    berserk: [crate::setup::Side::White, crate::setup::Side::Black].map(|side| {
                        g.game
                            .glance
                            .as_ref()
                            .is_some_and(|gl| gl.berserk.contains(&side))
                    }),
                },
            )
        })
        .collect()
}

/// A board's result as TRF codes it, White's then Black's; `None` while
/// the game goes on.
///
/// ```
/// use std::collections::HashMap;
/// use rochade_server::tournaments::{Board, report::{board_codes, Outcome}};
/// use rochade_tournament::trf::ResultCode;
///
/// let board = Board { white: 1, black: 2, game: Some("g".into()), result: None };
/// let mut games = HashMap::new();
/// games.insert("g".to_owned(), Outcome { result: Some("0-1".into()), plies: 0, berserk: [false; 2] });
/// // White never moved: a forfeit, not a game.
/// assert_eq!(
///     board_codes(&board, &[], &games),
///     Some((ResultCode::ForfeitLoss, ResultCode::ForfeitWin))
/// );
/// ```
pub fn board_codes(
    board: &Board,
    changed: &[super::ChangedResult],
    games: &HashMap<String, Outcome>,
) -> Option<(ResultCode, ResultCode)> {
    let changed = board
        .game
        .as_ref()
        .and_then(|g| changed.iter().rev().find(|c| &c.game == g))
        .map(|c| c.result.clone());
    let outcome = board.game.as_ref().and_then(|g| games.get(g));
    let (result, plies) = match (changed.or_else(|| board.result.clone()), outcome) {
        (Some(r), _) => (r, usize::MAX),
        (None, Some(o)) => (o.result.clone()?, o.plies),
        (None, None) => return None,
    };
    codes_of(&result, plies)
}

/// TRF codes of a result written `result` after `plies` half-moves.
fn codes_of(result: &str, plies: usize) -> Option<(ResultCode, ResultCode)> {
    use ResultCode::{
        Draw, DrawUnrated, ForfeitLoss, ForfeitWin, Loss, LossUnrated, Win, WinUnrated,
    };
    let unplayed = plies < 2;
    Some(match result {
        "+-" => (ForfeitWin, ForfeitLoss),
        "-+" => (ForfeitLoss, ForfeitWin),
        "--" | "0-0" => (ForfeitLoss, ForfeitLoss),
        "1-0" if unplayed => (ForfeitWin, ForfeitLoss),
        "0-1" if unplayed => (ForfeitLoss, ForfeitWin),
        "1/2-1/2" if unplayed => (DrawUnrated, DrawUnrated),
        "1-0" => (Win, Loss),
        "0-1" => (Loss, Win),
        "1/2-1/2" => (Draw, Draw),
        "W-L" => (WinUnrated, LossUnrated),
        _ => return None,
    })
}

/// The TRF code of a bye.
fn bye_code(kind: ByeKind) -> ResultCode {
    match kind {
        ByeKind::Pairing => ResultCode::PairingAllocatedBye,
        ByeKind::Half => ResultCode::HalfPointBye,
        ByeKind::Full => ResultCode::FullPointBye,
        ByeKind::Zero => ResultCode::ZeroPointBye,
    }
}

/// How many rounds the tournament has: the Swiss's, or the round
/// robin's by the Berger tables.
pub fn total_rounds(tournament: &Tournament) -> u16 {
    match tournament.system {
        System::Swiss { rounds, .. } => rounds,
        System::RoundRobin => {
            let cycles = if tournament.double {
                rochade_tournament::berger::Cycles::Double
            } else {
                rochade_tournament::berger::Cycles::Single
            };
            let n = rochade_tournament::berger::rounds_in(tournament.players.len(), cycles);
            u16::try_from(n).unwrap_or(u16::MAX)
        }
        // An arena has no rounds: its players are paired as they wait.
        System::Arena { .. } => 0,
        // The bracket's rounds: one for each halving of its lines.
        System::Knockout => u16::try_from(
            tournament
                .players
                .len()
                .max(2)
                .next_power_of_two()
                .trailing_zeros(),
        )
        .unwrap_or(u16::MAX),
    }
}

/// What goes in the report besides the paired rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Standings and the download: games still going count as not yet
    /// played.
    Standings,
    /// The pairing of the next round: also who is not to be paired in it
    /// (byes set for it, withdrawn players).
    Pairing,
}

/// The tournament as a TRF16 file.
///
/// # Panics
///
/// Never: more than 9,999 players cannot enter (the server's limit is
/// lower), so every player has a pairing number.
pub fn trf_of(tournament: &Tournament, games: &HashMap<String, Outcome>, purpose: Purpose) -> Trf {
    let number = |id: i64| -> Option<PairingNumber> {
        let at = tournament.players.iter().position(|p| p.id == id)?;
        PairingNumber::new(u16::try_from(at + 1).ok()?)
    };
    let played = tournament.rounds.len();
    let mut entries: Vec<Vec<Option<RoundEntry>>> =
        vec![vec![None; played]; tournament.players.len()];
    for (r, round) in tournament.rounds.iter().enumerate() {
        for board in &round.boards {
            let codes = board_codes(board, &tournament.changed, games);
            for (me, them, colour, code) in [
                (board.white, board.black, Colour::White, codes.map(|c| c.0)),
                (board.black, board.white, Colour::Black, codes.map(|c| c.1)),
            ] {
                let (Some(mine), Some(theirs)) = (number(me), number(them)) else {
                    continue;
                };
                entries[mine.index()][r] = match (code, purpose) {
                    (Some(code), _) => Some(RoundEntry {
                        opponent: Some(theirs),
                        colour: Some(colour),
                        result: Some(code),
                    }),
                    // Still going: paired, no result (the pairing never
                    // sees this: a round is paired once the last is over).
                    (None, Purpose::Pairing) => Some(RoundEntry {
                        opponent: Some(theirs),
                        colour: Some(colour),
                        result: None,
                    }),
                    (None, Purpose::Standings) => None,
                };
            }
        }
        for bye in &round.byes {
            if let Some(n) = number(bye.player) {
                entries[n.index()][r] = Some(RoundEntry::bye(bye_code(bye.kind)));
            }
        }
        // Not paired in a round (absent, withdrawn, or not yet entered):
        // a zero, written out so that re-pairing the round from the file
        // leaves them out again, as it was.
        for (i, p) in tournament.players.iter().enumerate() {
            if entries[i][r].is_none()
                && !round
                    .boards
                    .iter()
                    .any(|b| b.white == p.id || b.black == p.id)
            {
                entries[i][r] = Some(RoundEntry::bye(ResultCode::ZeroPointBye));
            }
        }
    }
    if purpose == Purpose::Pairing {
        let next = u16::try_from(played + 1).unwrap_or(u16::MAX);
        for (i, p) in tournament.players.iter().enumerate() {
            let set = tournament
                .byes
                .iter()
                .find(|b| b.player == p.id && b.round == next)
                .map(|b| bye_code(b.kind));
            let absent = (tournament.is_withdrawn(p.id) || p.from_round > next)
                .then_some(ResultCode::ZeroPointBye);
            if let Some(code) = set.or(absent) {
                entries[i].push(Some(RoundEntry::bye(code)));
            }
        }
    }
    let mut records = vec![
        Record::Other(format!("012 {}", tournament.name)),
        Record::Rounds(total_rounds(tournament)),
        Record::Colours(rochade_tournament::trf::ColourRule {
            first: Some(Colour::White),
            by_rank: false,
        }),
    ];
    for (i, (p, rounds)) in tournament.players.iter().zip(entries).enumerate() {
        let points: Points = rounds
            .iter()
            .take(played)
            .flatten()
            .filter_map(|e| e.result.map(ResultCode::points))
            .sum();
        records.push(Record::Player(PlayerRecord {
            number: PairingNumber::new(u16::try_from(i + 1).unwrap_or(u16::MAX))
                .expect("fewer players than TRF16 numbers"),
            sex: None,
            title: String::new(),
            name: p.name.clone(),
            rating: p.rating,
            federation: String::new(),
            fide_id: String::new(),
            birth: String::new(),
            points,
            rank: None,
            rounds,
        }));
    }
    Trf::from_records(records)
}
