//! `rochade referee`: a batch arbiter for other programs. JSON Lines in, one
//! game a line; one JSON line out for each, in order.

use std::{
    io::{BufRead, Write},
    path::PathBuf,
};

use anyhow::Context;
use clap::Args;
use rochade_laws::{ClaimKind, Game, Outcome, Reason, RuleSet, SanStyle, TablebaseClaim};
use rochade_tablebase::Tablebase;
use serde::Deserialize;
use serde_json::{Value, json};
use shakmaty::Position;

/// What `rochade referee --help` says after the options: the protocol in
/// short, with an example (the full protocol: tests/oracle/differential.py).
const HELP: &str = r#"Input, one game a line:
  {"id": any, "start": "startpos" | FEN | {"chess960": N}, "moves": ["e2e4", ...],
   "rules": "fide" | "fide2009" | "iccf"}

Output, one line each, in order:
  {"id", "fen", "san", "status", "result", "claims", "claims_with_move", "legal_moves"}
  or {"id", "error": {"ply", "move", "reason"}}.
  "claims" says what the player on move may claim now: "threefold_repetition",
  "fifty_moves"; "claims_with_move" the moves that would make those claims correct.
  Under "iccf", "claims" also has "tablebase_win" and "tablebase_draw" (ICCF 5.1.3,
  5.2.4: the win or draw the Syzygy tables give the player on move; false without
  --syzygy, with more than 7 pieces, or where the tables do not hold the position),
  and "fifty_moves" is never offered with 7 or fewer pieces (ICCF 9.3).

Example:
  $ echo '{"id": 1, "start": "8/8/8/4k3/8/8/8/KQ6 w - - 99 80", "rules": "iccf"}' \
      | rochade referee --syzygy data/syzygy
  {"claims":{"fifty_moves":false,"tablebase_draw":false,"tablebase_win":true,
   "threefold_repetition":false},"claims_with_move":{"fifty_moves":[],...},...}"#;

/// Judge games read as JSON Lines on stdin, one answer per line on stdout.
#[derive(Debug, Args)]
#[command(after_help = HELP)]
pub struct RefereeArgs {
    /// A directory of Syzygy tables (*.rtbw; any set, 3-7 pieces) for the
    /// ICCF tablebase claims; may be given more than once.
    #[arg(long, value_name = "DIR")]
    syzygy: Vec<PathBuf>,
}

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
pub fn run(args: &RefereeArgs) -> anyhow::Result<()> {
    let tables = open_tables(&args.syzygy)?;
    let stdin = std::io::stdin().lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (index, line) in stdin.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = judge_line(&line, index + 1, tables.as_ref());
        serde_json::to_writer(&mut out, &answer)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// The tables in `dirs`, or `None` when none is given.
fn open_tables(dirs: &[PathBuf]) -> anyhow::Result<Option<Tablebase>> {
    let Some((first, rest)) = dirs.split_first() else {
        return Ok(None);
    };
    let mut tables = Tablebase::open(first).context("--syzygy")?;
    for dir in rest {
        tables.add_directory(dir).context("--syzygy")?;
    }
    Ok(Some(tables))
}

/// The answer to one input line, with `tables` for the ICCF tablebase claims.
pub fn judge_line(line: &str, line_number: usize, tables: Option<&Tablebase>) -> Value {
    let request: Request = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => {
            return json!({"id": null, "error": {"line": line_number, "ply": 0, "move": null,
                "reason": format!("line {line_number} is not a valid request: {e}")}});
        }
    };
    match judge(&request, tables) {
        Ok(v) => v,
        Err(error) => json!({"id": request.id, "error": error}),
    }
}

/// Plays the request's game and describes where it stands.
fn judge(request: &Request, tables: Option<&Tablebase>) -> Result<Value, Value> {
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
    let mut answer = describe(&request.id, &game);
    if rules == RuleSet::Iccf {
        let claims = tablebase_claims(&game, tables)?;
        if let Some(object) = answer["claims"].as_object_mut() {
            for (claim, holds) in claims {
                object.insert(claim.as_str().to_owned(), Value::Bool(holds));
            }
        }
    }
    Ok(answer)
}

/// ICCF 5.1.3, 5.2.4: whether the player on move could claim the win or
/// the draw the tables give; both false for an ended game, with more than
/// seven pieces, without tables or outside them.
fn tablebase_claims(
    game: &Game,
    tables: Option<&Tablebase>,
) -> Result<[(TablebaseClaim, bool); 2], Value> {
    let pos = game.position();
    let verdict = match tables {
        Some(tables)
            if game.outcome().is_none()
                && pos.board().occupied().count() as u32
                    <= rochade_laws::tablebase::TABLEBASE_MAX_PIECES =>
        {
            tables.verdict(pos).map_err(|e| start_error(&e))?.value()
        }
        _ => None,
    };
    let holds = |claim: TablebaseClaim| verdict.is_some_and(|v| claim.holds(v));
    Ok([TablebaseClaim::Win, TablebaseClaim::Draw].map(|c| (c, holds(c))))
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
        let v = judge_line(
            r#"{"id": 7, "moves": ["f2f3","e7e5","g2g4","d8h4"]}"#,
            1,
            None,
        );
        assert_eq!(v["status"], "checkmate");
        assert_eq!(v["result"], "0-1");
        assert_eq!(v["san"][3], "Qh4#");
        assert_eq!(v["legal_moves"], 0);
    }

    #[test]
    fn errors_name_ply_and_move() {
        let v = judge_line(r#"{"id": "a", "moves": ["e2e4","e2e4"]}"#, 1, None);
        assert_eq!(v["error"]["ply"], 2);
        assert_eq!(v["error"]["move"], "e2e4");
        let v = judge_line(
            r#"{"id": 1, "moves": ["f2f3","e7e5","g2g4","d8h4","a2a3"]}"#,
            1,
            None,
        );
        assert!(v["error"]["reason"].as_str().unwrap_or("").contains("over"));
        let v = judge_line("not json", 3, None);
        assert_eq!(v["error"]["line"], 3);
        let v = judge_line(r#"{"id": 1, "start": {"chess960": 960}}"#, 1, None);
        assert!(v["error"]["reason"].as_str().unwrap_or("").contains("959"));
    }

    #[test]
    fn claims_with_move_lists_the_repeating_move() {
        let v = judge_line(
            r#"{"id": 1, "moves": ["g1f3","g8f6","f3g1","f6g8","g1f3","g8f6","f3g1"]}"#,
            1,
            None,
        );
        assert_eq!(v["claims"]["threefold_repetition"], false);
        assert_eq!(
            v["claims_with_move"]["threefold_repetition"],
            json!(["f6g8"])
        );
    }

    /// The fetched tables (scripts/fetch-test-data), or `None`, saying so.
    fn tables() -> Option<Tablebase> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
        if !dir.is_dir() {
            eprintln!(
                "skipped: {} is absent; run scripts/fetch-test-data",
                dir.display()
            );
            return None;
        }
        Some(Tablebase::open(dir).expect("tables"))
    }

    #[test]
    fn iccf_art_5_1_3_and_9_3_tablebase_claims_instead_of_fifty_moves() {
        let Some(tables) = tables() else { return };
        // King and queen against king after 99 half-moves: the win is
        // claimed from the tables, the fifty-move rule is not there.
        let kqk = r#"{"id": 1, "start": "8/8/8/4k3/8/8/8/KQ6 w - - 99 80", "moves": ["b1b2"], "rules": "iccf"}"#;
        let v = judge_line(kqk, 1, Some(&tables));
        assert_eq!(v["claims"]["fifty_moves"], false);
        assert_eq!(
            v["claims"]["tablebase_win"], false,
            "Black is on move and lost"
        );
        assert_eq!(v["claims"]["tablebase_draw"], false);
        let kqk = kqk.replace(r#""moves": ["b1b2"], "#, "");
        let v = judge_line(&kqk, 1, Some(&tables));
        assert_eq!(v["claims"]["tablebase_win"], true);
        assert_eq!(v["claims_with_move"]["fifty_moves"], json!([]));
        // Without tables, or under the FIDE rules.
        let v = judge_line(&kqk, 1, None);
        assert_eq!(v["claims"]["tablebase_win"], false);
        let fide = kqk.replace("iccf", "fide");
        let v = judge_line(&fide, 1, Some(&tables));
        assert_eq!(v["claims"].get("tablebase_win"), None);
        assert_ne!(v["claims_with_move"]["fifty_moves"], json!([]));
    }

    #[test]
    fn iccf_art_5_2_4_tablebase_draw_and_positions_outside_the_tables() {
        let Some(tables) = tables() else { return };
        let krkr = r#"{"id": 1, "start": "8/8/4k3/8/8/3K4/R7/7r b - - 0 1", "rules": "iccf"}"#;
        let v = judge_line(krkr, 1, Some(&tables));
        assert_eq!(v["claims"]["tablebase_draw"], true);
        assert_eq!(v["claims"]["tablebase_win"], false);
        let start = r#"{"id": 2, "rules": "iccf"}"#;
        let v = judge_line(start, 1, Some(&tables));
        assert_eq!(v["claims"]["tablebase_draw"], false);
        assert_eq!(v["claims"]["tablebase_win"], false);
    }
}
