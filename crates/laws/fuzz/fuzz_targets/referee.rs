//! The referee's work (`rochade referee`, `crates/cli/src/referee.rs`)
//! through the library: arbitrary text parsed as a request, the game set up
//! and played until the first bad move, then described. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_laws::{ClaimKind, Game, RuleSet, SanStyle};
use serde::Deserialize;
use serde_json::Value;

/// One referee input line.
#[derive(Debug, Deserialize)]
struct Request {
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    rules: Option<String>,
}

/// The game a request starts from, if it names a valid one.
fn start(request: &Request) -> Option<Game> {
    let rules = match &request.rules {
        None => RuleSet::Fide,
        Some(text) => text.parse().ok()?,
    };
    match &request.start {
        None => Some(Game::new(rules)),
        Some(Value::String(s)) if s == "startpos" => Some(Game::new(rules)),
        Some(Value::String(fen)) => Game::from_fen(fen, rules).ok(),
        Some(Value::Object(o)) => {
            let n = o.get("chess960").and_then(Value::as_u64)?;
            Game::chess960(u32::try_from(n).unwrap_or(u32::MAX), rules).ok()
        }
        Some(_) => None,
    }
}

fuzz_target!(|text: &str| {
    let Ok(request) = serde_json::from_str::<Request>(text) else {
        return;
    };
    let Some(mut game) = start(&request) else {
        return;
    };
    for m in &request.moves {
        if game.play_uci(m).is_err() {
            break;
        }
    }
    let _ = game.can_claim(ClaimKind::ThreefoldRepetition);
    let _ = game.can_claim(ClaimKind::FiftyMoves);
    let _ = game.claims_with_move(ClaimKind::ThreefoldRepetition);
    let _ = game.claims_with_move(ClaimKind::FiftyMoves);
    let _ = game.fen();
    let _ = game.san_moves(&SanStyle::default());
});
