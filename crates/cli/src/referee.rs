//! `rochade referee`: a batch arbiter for other programs. JSON Lines in, one
//! game a line; one JSON line out for each, in order.

use std::io::{BufRead, Write};

use clap::Args;
use rochade_laws::{ClaimKind, Game, Outcome, Reason, RuleSet, SanStyle};
use serde::Deserialize;
use serde_json::{Value, json};
use shakmaty::Position;

/// Judge games read as JSON Lines on stdin, one answer per line on stdout.
///
/// Input, one game a line:
/// {"id": any, "start": "startpos" | FEN | {"chess960": N}, "moves": ["e2e4", ...], "rules": "fide" | "fide2009" | "iccf"}
#[derive(Debug, Args)]
pub struct RefereeArgs {}

/// One input line.
#[derive(Debug, Deserialize)]
struct Request {
    #[serde(default)]
    id: Value,
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    rules: Option<String>,
}

/// Runs the command: reads stdin to its end.
pub fn run(_args: &RefereeArgs) -> anyhow::Result<()> {
    let stdin = std::io::stdin().lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (index, line) in stdin.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = judge_line(&line, index + 1);
        serde_json::to_writer(&mut out, &answer)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// The answer to one input line.
pub fn judge_line(line: &str, line_number: usize) -> Value {
    let request: Request = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => {
            return json!({"id": null, "error": {"line": line_number, "ply": 0, "move": null,
                "reason": format!("line {line_number} is not a valid request: {e}")}});
        }
    };
    match judge(&request) {
        Ok(v) => v,
        Err(error) => json!({"id": request.id, "error": error}),
    }
}

/// Plays the request's game and describes where it stands.
fn judge(request: &Request) -> Result<Value, Value> {
    let rules = match &request.rules {
        None => RuleSet::Fide,
        Some(text) => text.parse().map_err(|e| start_error(&e))?,
    };
    let mut game = start(request.start.as_ref(), rules)?;
    for (index, uci) in request.moves.iter().enumerate() {
        if let Err(e) = game.play_uci(uci) {
            return Err(json!({"ply": index + 1, "move": uci, "reason": e.to_string()}));
        }
    }
    Ok(describe(&request.id, &game))
}

/// The game described by `start`.
fn start(start: Option<&Value>, rules: RuleSet) -> Result<Game, Value> {
    match start {
        None => Ok(Game::new(rules)),
        Some(Value::String(s)) if s == "startpos" => Ok(Game::new(rules)),
        Some(Value::String(fen)) => Game::from_fen(fen, rules).map_err(|e| start_error(&e)),
        Some(Value::Object(o)) => match o.get("chess960").and_then(Value::as_u64) {
            Some(n) => Game::chess960(u32::try_from(n).unwrap_or(u32::MAX), rules)
                .map_err(|e| start_error(&e)),
            None => Err(start_error(&"start object needs \"chess960\": 0-959")),
        },
        Some(_) => Err(start_error(
            &"start must be \"startpos\", a FEN or {\"chess960\": N}",
        )),
    }
}

/// An error about the request itself, before any move.
fn start_error(e: &dyn std::fmt::Display) -> Value {
    json!({"ply": 0, "move": null, "reason": e.to_string()})
}

/// The referee's status word for an outcome.
fn status(outcome: Option<Outcome>) -> &'static str {
    match outcome.map(|o| o.reason) {
        None => "ongoing",
        Some(Reason::Checkmate) => "checkmate",
        Some(Reason::Stalemate) => "stalemate",
        Some(Reason::DeadPosition) => "dead_position",
        Some(Reason::FivefoldRepetition) => "fivefold_repetition",
        Some(Reason::SeventyFiveMoves) => "seventy_five_moves",
        Some(other) => other.as_str(),
    }
}

/// The JSON answer for a game that was played through.
fn describe(id: &Value, game: &Game) -> Value {
    let mode = game.castling_mode();
    let with_move = |kind| -> Vec<String> {
        let mut moves: Vec<String> = game
            .claims_with_move(kind)
            .into_iter()
            .map(|m| m.to_uci(mode).to_string())
            .collect();
        moves.sort();
        moves
    };
    let result = game.outcome().map_or("*", |o| o.result.as_str());
    json!({
        "id": id,
        "fen": game.fen(),
        "san": game.san_moves(&SanStyle::default()),
        "status": status(game.outcome()),
        "result": result,
        "claims": {
            "threefold_repetition": game.can_claim(ClaimKind::ThreefoldRepetition),
            "fifty_moves": game.can_claim(ClaimKind::FiftyMoves),
        },
        "claims_with_move": {
            "threefold_repetition": with_move(ClaimKind::ThreefoldRepetition),
            "fifty_moves": with_move(ClaimKind::FiftyMoves),
        },
        "legal_moves": game.position().legal_moves().len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fools_mate() {
        let v = judge_line(r#"{"id": 7, "moves": ["f2f3","e7e5","g2g4","d8h4"]}"#, 1);
        assert_eq!(v["status"], "checkmate");
        assert_eq!(v["result"], "0-1");
        assert_eq!(v["san"][3], "Qh4#");
        assert_eq!(v["legal_moves"], 0);
    }

    #[test]
    fn errors_name_ply_and_move() {
        let v = judge_line(r#"{"id": "a", "moves": ["e2e4","e2e4"]}"#, 1);
        assert_eq!(v["error"]["ply"], 2);
        assert_eq!(v["error"]["move"], "e2e4");
        let v = judge_line(
            r#"{"id": 1, "moves": ["f2f3","e7e5","g2g4","d8h4","a2a3"]}"#,
            1,
        );
        assert!(v["error"]["reason"].as_str().unwrap_or("").contains("over"));
        let v = judge_line("not json", 3);
        assert_eq!(v["error"]["line"], 3);
        let v = judge_line(r#"{"id": 1, "start": {"chess960": 960}}"#, 1);
        assert!(v["error"]["reason"].as_str().unwrap_or("").contains("959"));
    }

    #[test]
    fn claims_with_move_lists_the_repeating_move() {
        let v = judge_line(
            r#"{"id": 1, "moves": ["g1f3","g8f6","f3g1","f6g8","g1f3","g8f6","f3g1"]}"#,
            1,
        );
        assert_eq!(v["claims"]["threefold_repetition"], false);
        assert_eq!(
            v["claims_with_move"]["threefold_repetition"],
            json!(["f6g8"])
        );
    }
}
