//! The `state` object of the protocol: everything a page needs to draw the
//! game, made once per change and sent to every socket of the game.

mod dests;
mod lazy;
mod moves;
mod now_json;

use std::time::Duration;

use rochade_laws::ClaimKind;
use rochade_laws::fen::{FenStyle, write as write_fen};
use serde::Serialize;
use shakmaty::{ByColor, Color, Position};

use crate::record::{Ply, Record};
use crate::setup::{Mode, Side};

pub use dests::Dests;
pub use lazy::LazyState;
pub use moves::{MovesJson, MovesSnapshot};

/// One player as shown.
#[derive(Debug, Serialize)]
pub struct Player {
    /// `human` or `robot`.
    pub kind: &'static str,
    /// The robot's level.
    pub level: Option<u32>,
    /// Whether a socket holds this seat now (the robot always does).
    pub connected: bool,
    /// The account playing this side, if a signed-in player took it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Their rating in the game's category when they sat down.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<crate::setup::ShownRating>,
}

/// Both players.
#[derive(Debug, Serialize)]
pub struct Players {
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
}

/// The clocks as shown.
#[derive(Debug, Serialize)]
pub struct ClockState {
    /// The control, normalised.
    pub control: String,
    /// blitz, rapid, standard or correspondence.
    pub category: &'static str,
    /// White's time left, ms.
    pub white: u64,
    /// Black's time left, ms.
    pub black: u64,
    /// Whose clock runs.
    pub running: Option<Side>,
    /// The bonus per move of the player on turn, ms.
    pub increment: u64,
    /// How long until the running flag falls if nobody moves, ms: the
    /// time left stretched over booked leave (10.1). A correspondence
    /// page shows `now + flag_in` as the deadline's date.
    pub flag_in: Option<u64>,
    /// Booked pauses of both clocks (leave, 10.1) not yet over, as ms from
    /// now: `[from, to]`, `from` 0 while one runs.
    pub pauses: Vec<[u64; 2]>,
    /// How long the player on move has to make their first move before
    /// they lose by default, ms (a tournament game's default time, 6.7.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_in: Option<u64>,
}

/// Pending offers.
#[derive(Debug, Serialize)]
pub struct Offers {
    /// A draw offer (9.1).
    pub draw: Option<Side>,
    /// A take-back request.
    pub takeback: Option<Side>,
    /// A rematch offer.
    pub rematch: Option<Side>,
}

/// What the side to move could claim now.
#[derive(Debug, Serialize)]
pub struct Claimable {
    /// 9.2.
    pub threefold: bool,
    /// 9.3.
    pub fifty: bool,
    /// ICCF 5.1.3: the tables give the side to move a win (a server with
    /// `--syzygy`, ICCF rules, seven or fewer pieces).
    pub tablebase_win: bool,
    /// ICCF 5.2.4: the tables give a draw.
    pub tablebase_draw: bool,
}

/// The end of the game.
#[derive(Debug, Serialize)]
pub struct OutcomeState {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'static str,
    /// The winner.
    pub winner: Option<Side>,
    /// The reason's snake_case name.
    pub reason: &'static str,
    /// The reason's stable id.
    pub reason_id: u16,
    /// The article of the Laws.
    pub article: &'static str,
}

/// The state of a game at one moment (without `you`, which each socket
/// adds): what rarely changes ([`Head`]), every move, and what changes
/// with each move ([`Now`]). A room writes the three apart, keeps the
/// moves written between states ([`MovesJson`]), and after a move sends
/// sockets that ask for it only the move and the [`Now`]
/// ([`moved_message`]).
#[derive(Debug)]
pub struct GameState<'a> {
    /// What rarely changes.
    pub head: Head<'a>,
    /// Every move, UCI and SAN.
    pub moves: &'a [Ply],
    /// What changes with each move.
    pub now: Now<'a>,
}

/// The part of a state that a move does not change.
#[derive(Debug, Serialize)]
pub struct Head<'a> {
    /// The game id.
    pub id: &'a str,
    /// The rules played: `fide`, `fide2009` or `iccf`.
    pub rules: &'static str,
    /// robot, local or friend.
    pub mode: Mode,
    /// The players.
    pub players: Players,
    /// The start position.
    pub initial_fen: String,
    /// The Chess960 number.
    pub chess960: Option<u32>,
    /// Take-backs may be asked for (a casual game not under the ICCF
    /// rules).
    pub casual: bool,
    /// The tournament the game belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<&'a str>,
    /// The simul the game is a board of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simul: Option<&'a str>,
    /// Who went berserk, in an arena's game (none in any other).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub berserk: Option<Berserked>,
    /// The director's decisions on the game, oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<DecisionState<'a>>,
}

/// The part of a state that a move may change (besides the moves).
#[derive(Debug, Serialize)]
pub struct Now<'a> {
    /// The position now.
    pub fen: String,
    /// Half-moves played.
    pub ply: usize,
    /// The side to move.
    pub turn: Side,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The last move in UCI.
    pub last_move: Option<&'a str>,
    /// Legal destinations by origin square.
    pub dests: Dests,
    /// The clocks.
    pub clock: Option<ClockState>,
    /// Pending offers.
    pub offers: Offers,
    /// Claims the side to move could make now.
    pub claimable: Claimable,
    /// The result, once there is one.
    pub outcome: Option<OutcomeState>,
    /// Ended without result (aborted, or closed by the server).
    pub aborted: bool,
    /// Why the server closed the game: `unjoined` or `idle`.
    pub closed: Option<&'static str>,
    /// Who lost by leaving the game (the opponent claimed the win).
    pub left: Option<Side>,
    /// The rematch game.
    pub rematch: Option<&'a str>,
    /// The director has stopped the clocks (6.10 a).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub halted: bool,
}

/// Who went berserk in an arena's game.
#[derive(Debug, Serialize)]
pub struct Berserked {
    /// White did.
    pub white: bool,
    /// Black did.
    pub black: bool,
}

/// A director's decision as the players see it.
#[derive(Debug, Serialize)]
pub struct DecisionState<'a> {
    /// What was decided (`{"act": "stop_clocks"}`, …).
    pub decision: &'a crate::director::Act,
    /// The director's name.
    pub by: &'a str,
    /// Why.
    pub reason: &'a str,
    /// How long ago, ms.
    pub ago: u64,
}

/// Milliseconds of a duration.
fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

impl<'a> GameState<'a> {
    /// The state of `record` at game time `now`; `connected` says which
    /// seats have a socket.
    pub fn of(record: &'a Record, now: Duration, connected: ByColor<bool>) -> GameState<'a> {
        GameState {
            head: Head::of(record, now, connected),
            moves: &record.plies,
            now: Now::of(record, now),
        }
    }

    /// The state as one JSON object (a room writes its parts itself,
    /// keeping the moves between states: [`MovesJson`]).
    pub fn into_json(self) -> String {
        assemble(
            &to_string(&self.head),
            &moves::write_all(self.moves),
            &self.now.into_json(),
        )
    }
}

impl<'a> Head<'a> {
    /// The head of `record`'s state at game time `now`; `connected` says
    /// which seats have a socket.
    pub fn of(record: &'a Record, now: Duration, connected: ByColor<bool>) -> Head<'a> {
        let game = record.timed.game();
        let robot = record.setup.robot;
        let player = |color: Color| {
            let is_robot = robot.is_some_and(|(_, side)| Color::from(side) == color);
            Player {
                kind: if is_robot { "robot" } else { "human" },
                level: robot.filter(|_| is_robot).map(|(level, _)| level),
                connected: is_robot || connected[color],
                name: record.setup.player(color).map(|p| p.name.clone()),
                rating: record.setup.player(color).and_then(|p| p.rating),
            }
        };
        Head {
            id: &record.setup.id,
            rules: record.setup.rules.as_str(),
            mode: record.setup.mode,
            players: Players {
                white: player(Color::White),
                black: player(Color::Black),
            },
            initial_fen: write_fen(game.history().start(), FenStyle::XFen),
            chess960: game.chess960_number(),
            casual: record.setup.casual && record.setup.rules != rochade_laws::RuleSet::Iccf,
            tournament: record.setup.tournament.as_ref().map(|t| t.id.as_str()),
            simul: record.setup.simul.as_ref().map(|t| t.id.as_str()),
            berserk: record
                .setup
                .tournament
                .as_ref()
                .is_some_and(|t| t.arena)
                .then(|| Berserked {
                    white: record.berserk[Color::White],
                    black: record.berserk[Color::Black],
                }),
            decisions: record
                .decisions
                .iter()
                .map(|(at, decision, by, reason)| DecisionState {
                    decision,
                    by,
                    reason,
                    ago: ms(now).saturating_sub(*at),
                })
                .collect(),
        }
    }
}

impl<'a> Now<'a> {
    /// What a move may change in `record`'s state at game time `now`.
    pub fn of(record: &'a Record, now: Duration) -> Now<'a> {
        let game = record.timed.game();
        let pos = game.position();
        let over = record.is_over();
        let clock = record.timed.clock();
        let control = clock.control();
        let clock_state = match (
            clock.remaining(Color::White, now),
            clock.remaining(Color::Black, now),
        ) {
            (Some(white), Some(black)) => Some(ClockState {
                control: control.to_string(),
                category: control.category(record.setup.rules).as_str(),
                white: ms(white),
                black: ms(black),
                running: (!over && !clock.is_stopped()).then(|| clock.turn().into()),
                increment: ms(clock.bonus(clock.turn())),
                flag_in: (!over)
                    .then(|| crate::room::finish::flag_falls_at(clock, ms(now)))
                    .flatten()
                    .map(|at| at.saturating_sub(ms(now))),
                pauses: clock
                    .pauses()
                    .iter()
                    .filter(|p| p.to > now)
                    .map(|p| [ms(p.from.saturating_sub(now)), ms(p.to - now)])
                    .collect(),
                default_in: (!over)
                    .then(|| record.first_move_due(record.turn()))
                    .flatten()
                    .map(|at| at.saturating_sub(ms(now))),
            }),
            _ => None,
        };
        let dests = if over {
            Dests::default()
        } else {
            Dests::of(pos, game.castling_mode())
        };
        Now {
            fen: record.fen(),
            ply: record.plies.len(),
            turn: game.turn().into(),
            check: pos.is_check(),
            last_move: record.plies.last().map(|p| p.uci.as_str()),
            dests,
            clock: clock_state,
            offers: Offers {
                draw: game.pending_offer().map(|o| o.by.into()),
                takeback: record.takeback.map(Side::from),
                rematch: record.rematch_offer.map(Side::from),
            },
            claimable: Claimable {
                threefold: game.can_claim(ClaimKind::ThreefoldRepetition),
                fifty: game.can_claim(ClaimKind::FiftyMoves),
                // The room, which has the tables, fills these in.
                tablebase_win: false,
                tablebase_draw: false,
            },
            outcome: game.outcome().map(|o| OutcomeState {
                result: o.result.as_str(),
                winner: o.result.winner().map(Side::from),
                reason: o.reason.as_str(),
                reason_id: o.reason.id(),
                article: o.reason.article(),
            }),
            aborted: record.aborted,
            closed: record.closed.map(|c| c.as_str()),
            left: record.left.map(Side::from),
            rematch: record.rematch.as_deref(),
            halted: record.halted,
        }
    }
}

/// One of our own types as JSON (which cannot fail: no maps with
/// non-string keys, no failing `Serialize`).
pub(crate) fn to_string(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The state object from its head, its moves (a JSON array) and its now
/// (both JSON objects).
///
/// # Examples
///
/// ```
/// let json = rochade_server::state::assemble(r#"{"id":"x"}"#, "[]", r#"{"ply":0}"#);
/// assert_eq!(json, r#"{"id":"x","moves":[],"ply":0}"#);
/// ```
pub fn assemble<'a>(head: &'a str, moves_json: &str, now: &'a str) -> String {
    let inner = |object: &'a str| -> &'a str {
        object
            .strip_prefix('{')
            .and_then(|o| o.strip_suffix('}'))
            .unwrap_or(object)
    };
    let (head, now) = (inner(head), inner(now));
    let mut json = String::with_capacity(head.len() + moves_json.len() + now.len() + 16);
    json.push('{');
    json.push_str(head);
    json.push_str(",\"moves\":");
    json.push_str(moves_json);
    json.push(',');
    json.push_str(now);
    json.push('}');
    json
}

/// The message telling a socket of one move: the ply, the move (UCI, SAN
/// and a draw offer made with it) and the part of the state a move
/// changes (`ply_json` and `now` as JSON). A page that holds the state
/// before the move adds the move to its list and takes the rest (docs/protocol.md).
///
/// # Examples
///
/// ```
/// let m = rochade_server::state::moved_message(r#"{"uci":"e2e4","san":"e4"}"#, r#"{"ply":1}"#);
/// assert_eq!(m, r#"{"v":1,"t":"move","move":{"uci":"e2e4","san":"e4"},"state":{"ply":1}}"#);
/// ```
pub fn moved_message(ply_json: &str, now: &str) -> String {
    format!("{{\"v\":1,\"t\":\"move\",\"move\":{ply_json},\"state\":{now}}}")
}

/// A state message for one socket: `state_json` is [`GameState::into_json`],
/// `you` the socket's seats.
///
/// # Examples
///
/// ```
/// let msg = rochade_server::state::message(r#"{"id":"x"}"#, "white");
/// assert_eq!(msg, r#"{"v":1,"t":"state","state":{"you":"white","id":"x"}}"#);
/// ```
pub fn message(state_json: &str, you: &str) -> String {
    let rest = state_json.strip_prefix('{').unwrap_or(state_json);
    format!("{{\"v\":1,\"t\":\"state\",\"state\":{{\"you\":\"{you}\",{rest}}}")
}

/// The state object alone with `you` added (for HTTP).
pub fn with_you(state_json: &str, you: &str) -> String {
    let rest = state_json.strip_prefix('{').unwrap_or(state_json);
    format!("{{\"you\":\"{you}\",{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{test_random_move, test_record};

    /// [`Now::into_json`] writes what serde_json writes from the derived
    /// `Serialize`, byte for byte, after every ply of random games (the
    /// clocks running, checks, castling both ways in Chess960, games
    /// that end).
    #[test]
    fn now_as_json_is_what_serde_json_writes() {
        let mut seed: u64 = 7;
        for body in [
            r#"{"opponent":"local","time_control":"5+3"}"#,
            r#"{"opponent":"local","time_control":"3+2","chess960":518}"#,
            r#"{"opponent":"local","chess960":"random"}"#,
        ] {
            for _ in 0..20 {
                let mut record = test_record(body);
                for ply in 0..200_u64 {
                    let now = Duration::from_millis(1000 * ply);
                    let serde = serde_json::to_string(&Now::of(&record, now)).expect("JSON");
                    assert_eq!(Now::of(&record, now).into_json(), serde);
                    if record.is_over() {
                        break;
                    }
                    test_random_move(&mut record, &mut seed, 1000 * ply + 500);
                }
            }
        }
    }
}
