//! The standings of a tournament: points as each game ends, the
//! organiser's tie-breaks (C.07) in columns, each player's rounds (the
//! Swiss table) and, for a round robin, the crosstable.

use std::collections::HashMap;

use rochade_tournament::crosstable::Crosstable;
use rochade_tournament::tiebreak::{self, Cut, Format, TieBreak};
use rochade_tournament::trf::ResultCode;
use serde_json::{Value, json};

use super::report::{self, Outcome, Purpose, board_codes};
use super::{ByeKind, System, Tournament};
use crate::error::{ActionError, ErrorCode};

/// Most tie-breaks an organiser may list.
pub const MAX_TIEBREAKS: usize = 6;

/// The tie-breaks a tournament uses when the organiser names none: for a
/// Swiss Buchholz Cut-1, Buchholz, direct encounter, wins (C.07's
/// recommendation for individual Swiss events); for a round robin direct
/// encounter, wins, Sonneborn-Berger, Koya.
pub fn default_order(system: System) -> Vec<TieBreak> {
    match system {
        System::Swiss { .. } => vec![
            TieBreak::Buchholz(Cut::Cut1),
            TieBreak::Buchholz(Cut::None),
            TieBreak::DirectEncounter,
            TieBreak::Wins,
        ],
        System::RoundRobin => vec![
            TieBreak::DirectEncounter,
            TieBreak::Wins,
            TieBreak::SonnebornBerger,
            TieBreak::Koya,
        ],
        // A knockout ranks by the round reached, an arena by its points
        // then performance.
        System::Knockout | System::Arena { .. } => Vec::new(),
    }
}

/// The tie-breaks named in `codes`, checked.
///
/// ```
/// use rochade_server::tournaments::standings::checked_order;
/// assert_eq!(checked_order(&["bh-c1".into(), "SB".into()]).unwrap(), vec!["BH-C1", "SB"]);
/// assert!(checked_order(&["BH".into(), "BH".into()]).is_err());
/// assert!(checked_order(&["Buchholz".into()]).is_err());
/// ```
///
/// # Errors
///
/// `bad_request` naming the first unknown or repeated name, or too many.
pub fn checked_order(codes: &[String]) -> Result<Vec<String>, ActionError> {
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    if codes.len() > MAX_TIEBREAKS {
        return Err(bad(format!(
            "tiebreaks: at most {MAX_TIEBREAKS}, not {}",
            codes.len()
        )));
    }
    let mut seen: Vec<TieBreak> = Vec::new();
    for (i, code) in codes.iter().enumerate() {
        let tie: TieBreak = code
            .parse()
            .map_err(|e| bad(format!("tiebreaks[{i}]: {e}")))?;
        if seen.contains(&tie) {
            return Err(bad(format!("tiebreaks[{i}]: {tie} is listed twice")));
        }
        seen.push(tie);
    }
    Ok(seen.iter().map(|t| t.code().to_owned()).collect())
}

/// The tournament's tie-breaks, in its order.
pub fn order(tournament: &Tournament) -> Vec<TieBreak> {
    let named: Vec<TieBreak> = tournament
        .tiebreaks
        .iter()
        .filter_map(|c| c.parse().ok())
        .collect();
    if named.is_empty() {
        default_order(tournament.system)
    } else {
        named
    }
}

/// A round's entry for one player as the table shows it: TRF's result
/// character (`1`, `=`, `0`, `+`, `-`, `U`, `H`, `F`, `Z`), `*` for a
/// game going on.
fn result_char(code: Option<ResultCode>) -> String {
    code.map_or_else(
        || "*".to_owned(),
        |c| match c {
            ResultCode::Win => "1".into(),
            ResultCode::Draw => "=".into(),
            ResultCode::Loss => "0".into(),
            ResultCode::WinUnrated => "W".into(),
            ResultCode::DrawUnrated => "D".into(),
            ResultCode::LossUnrated => "L".into(),
            ResultCode::ForfeitWin => "+".into(),
            ResultCode::ForfeitLoss => "-".into(),
            ResultCode::HalfPointBye => "H".into(),
            ResultCode::FullPointBye => "F".into(),
            ResultCode::PairingAllocatedBye => "U".into(),
            ResultCode::ZeroPointBye => "Z".into(),
        },
    )
}

/// Each player's rounds: `(opponent's number, colour, result)`, by
/// player index.
fn rounds_of(tournament: &Tournament, games: &HashMap<String, Outcome>) -> Vec<Vec<Value>> {
    let index: HashMap<i64, usize> = tournament
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    let mut table = vec![Vec::new(); tournament.players.len()];
    for (r, round) in tournament.rounds.iter().enumerate() {
        let mut seen = vec![false; tournament.players.len()];
        for board in &round.boards {
            let codes = board_codes(board, &tournament.changed, games);
            for (me, them, colour, code) in [
                (board.white, board.black, "w", codes.map(|c| c.0)),
                (board.black, board.white, "b", codes.map(|c| c.1)),
            ] {
                let (Some(&i), Some(&j)) = (index.get(&me), index.get(&them)) else {
                    continue;
                };
                seen[i] = true;
                table[i].push(json!({
                    "round": r + 1,
                    "opponent": j + 1,
                    "colour": colour,
                    "result": result_char(code),
                    "game": board.game,
                }));
            }
        }
        for bye in &round.byes {
            if let Some(&i) = index.get(&bye.player) {
                seen[i] = true;
                let code = match bye.kind {
                    ByeKind::Pairing => ResultCode::PairingAllocatedBye,
                    ByeKind::Half => ResultCode::HalfPointBye,
                    ByeKind::Full => ResultCode::FullPointBye,
                    ByeKind::Zero => ResultCode::ZeroPointBye,
                };
                table[i].push(json!({"round": r + 1, "result": result_char(Some(code))}));
            }
        }
        for (i, p) in tournament.players.iter().enumerate() {
            if !seen[i] {
                let result = if usize::from(p.from_round) > r + 1 {
                    Value::Null
                } else {
                    json!("Z")
                };
                table[i].push(json!({"round": r + 1, "result": result}));
            }
        }
    }
    table
}

/// The crosstable of a round robin: for each player, their results
/// against each pairing number (`1`, `½`, `0`, `+`, `-`, both cycles of
/// a double one side by side; empty against themselves and for games not
/// yet over).
fn crosstable(rounds: &[Vec<Value>], players: usize) -> Vec<Vec<String>> {
    rounds
        .iter()
        .map(|mine| {
            let mut row = vec![String::new(); players];
            for entry in mine {
                let Some(j) = entry["opponent"].as_u64() else {
                    continue;
                };
                let shown = match entry["result"].as_str() {
                    Some("1" | "W") => "1",
                    Some("=" | "D") => "½",
                    Some("0" | "L") => "0",
                    Some("+") => "+",
                    Some("-") => "-",
                    _ => continue,
                };
                if let Some(cell) = usize::try_from(j).ok().and_then(|j| row.get_mut(j - 1)) {
                    cell.push_str(shown);
                }
            }
            row
        })
        .collect()
}

/// The standings as the page and the API show them: ranked rows (place,
/// pairing number, name, rating, points, tie-break values in the
/// organiser's order, rounds), the tie-breaks' names, whether a game is
/// still going (the tie-breaks are then provisional), and for a round
/// robin the crosstable in pairing-number order.
pub fn standings_json(tournament: &Tournament, games: &HashMap<String, Outcome>) -> Value {
    let order = order(tournament);
    let format = match tournament.system {
        System::Swiss { .. } => Format::Swiss,
        System::RoundRobin => Format::RoundRobin,
        System::Knockout => {
            return json!({
                "tiebreaks": [],
                "rows": super::knockout::standings_rows(tournament),
                "provisional": tournament.finished.is_none(),
                "bracket": super::knockout::bracket_json(tournament, games),
            });
        }
        System::Arena { .. } => {
            return json!({
                "tiebreaks": ["Perf"],
                "rows": super::arena::ranking::rows(tournament, games),
                "provisional": tournament.finished.is_none(),
            });
        }
    };
    let trf = report::trf_of(tournament, games, Purpose::Standings);
    let played = u16::try_from(tournament.rounds.len()).unwrap_or(u16::MAX);
    let rounds = rounds_of(tournament, games);
    let going = rounds
        .iter()
        .flatten()
        .any(|e| e["result"].as_str() == Some("*"));
    let lines = Crosstable::from_trf(&trf, played)
        .map(|table| tiebreak::standings(&table, &order, format))
        .unwrap_or_default();
    let rows: Vec<Value> = lines
        .iter()
        .filter_map(|line| {
            let i = line.player.index();
            let p = tournament.players.get(i)?;
            Some(json!({
                "rank": line.rank,
                "number": i + 1,
                "id": p.id,
                "name": p.name,
                "rating": p.rating,
                "points": f64::from(line.points.tenths()) / 10.0,
                "tiebreaks": line.values.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "withdrawn": tournament.is_withdrawn(p.id),
                "finished": rounds[i].iter().filter(|e| e["opponent"].is_u64()
                    && e["result"].as_str().is_some_and(|r| r != "*")).count(),
                "rounds": rounds[i],
            }))
        })
        .collect();
    let mut json = json!({
        "tiebreaks": order.iter().map(|t| t.code()).collect::<Vec<_>>(),
        "rows": rows,
        "provisional": going,
    });
    if tournament.system == System::RoundRobin {
        json["crosstable"] = json!(crosstable(&rounds, tournament.players.len()));
    }
    json
}

/// The standings as text, one line a player: place, name, points, the
/// tie-breaks (the download beside the TRF).
pub fn standings_text(tournament: &Tournament, games: &HashMap<String, Outcome>) -> String {
    let json = standings_json(tournament, games);
    let mut out = format!("{}\n\n{:>4}  {:<30} {:>6}", tournament.name, "#", "", "Pts");
    for code in json["tiebreaks"].as_array().into_iter().flatten() {
        out.push_str(&format!(" {:>8}", code.as_str().unwrap_or_default()));
    }
    out.push('\n');
    for row in json["rows"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "{:>4}  {:<30} {:>6}",
            row["rank"],
            row["name"].as_str().unwrap_or_default(),
            row["points"]
        ));
        for v in row["tiebreaks"].as_array().into_iter().flatten() {
            out.push_str(&format!(" {:>8}", v.as_str().unwrap_or_default()));
        }
        out.push('\n');
    }
    out
}

/// Each round's pairings as the page lists them: boards in order with
/// the players' names and numbers, the game, its result (`1-0`, `½-½`,
/// `0-1`, forfeits `+-`, `-+`, `--`; none while it goes on), then the
/// byes.
pub fn rounds_json(tournament: &Tournament, games: &HashMap<String, Outcome>) -> Vec<Value> {
    let who = |id: i64| {
        let at = tournament.players.iter().position(|p| p.id == id);
        json!({
            "id": id,
            "name": at.map(|i| tournament.players[i].name.clone()),
            "number": at.map(|i| i + 1),
        })
    };
    tournament
        .rounds
        .iter()
        .enumerate()
        .map(|(r, round)| {
            let boards: Vec<Value> = round
                .boards
                .iter()
                .enumerate()
                .map(|(b, board)| {
                    let result =
                        board_codes(board, &tournament.changed, games).map(|codes| match codes {
                            (ResultCode::ForfeitWin, _) => "+-",
                            (_, ResultCode::ForfeitWin) => "-+",
                            (ResultCode::ForfeitLoss, ResultCode::ForfeitLoss) => "--",
                            (ResultCode::Win | ResultCode::WinUnrated, _) => "1-0",
                            (_, ResultCode::Win | ResultCode::WinUnrated) => "0-1",
                            _ => "1/2-1/2",
                        });
                    json!({
                        "board": b + 1,
                        "white": who(board.white),
                        "black": who(board.black),
                        "game": board.game,
                        // Named, and made in the rooms.
                        "started": board.game.as_ref().is_some_and(|g| games.contains_key(g)),
                        "result": result,
                    })
                })
                .collect();
            let byes: Vec<Value> = round
                .byes
                .iter()
                .map(|bye| {
                    let kind = match bye.kind {
                        ByeKind::Pairing => "pairing",
                        ByeKind::Half => "half",
                        ByeKind::Full => "full",
                        ByeKind::Zero => "zero",
                    };
                    json!({"player": who(bye.player), "kind": kind})
                })
                .collect();
            json!({
                "round": r + 1,
                "started": round.started,
                "finished": round.finished,
                "boards": boards,
                "byes": byes,
            })
        })
        .collect()
}
