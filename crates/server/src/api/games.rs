//! A game in lichess's words: the `gameStart`/`gameFinish` news of the
//! event stream, and the `gameFull`/`gameState` lines of a game stream,
//! made from the game's setup and the protocol's state object
//! ([`crate::state::GameState`]).

use serde_json::{Value, json};
use shakmaty::Color;

use crate::challenges::{speed_of, time_control_json};
use crate::setup::{GameSetup, Player, ShownRating};

/// lichess's name of a colour.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// lichess's status of a game: `started`, or how it ended.
pub fn status(state: &Value) -> &'static str {
    if state["aborted"] == true {
        return "aborted";
    }
    match state["outcome"]["reason"].as_str() {
        None => "started",
        Some("checkmate") => "mate",
        Some("resignation") => "resign",
        Some("stalemate") => "stalemate",
        Some("timeout") => "outoftime",
        Some("timeout_vs_insufficient_material") => "outoftime",
        Some("forfeit") if !state["left"].is_null() => "timeout",
        Some("forfeit" | "double_forfeit") => "noStart",
        // lichess has no adjudication; its "unknown finish" is the nearest.
        Some("adjudicated_win") => "unknownFinish",
        Some(_) => "draw",
    }
}

/// A player as a game describes them: an account, or the robot.
fn player_json(setup: &GameSetup, color: Color) -> Value {
    match setup.player(color) {
        Some(player) => account_json(player),
        None => match setup.robot {
            Some((level, _)) => json!({"aiLevel": level}),
            None => json!({"id": null, "name": "Anonymous"}),
        },
    }
}

/// An account's rating when the game began (a new player's for games
/// stored before ratings were kept).
pub fn shown(player: &Player) -> ShownRating {
    player.rating.unwrap_or(ShownRating {
        rating: 1500,
        provisional: true,
    })
}

/// An account as a game describes it.
fn account_json(player: &Player) -> Value {
    json!({
        "id": player.key(),
        "name": player.name,
        "title": if player.bot { json!("BOT") } else { Value::Null },
        "rating": shown(player).rating,
        "provisional": shown(player).provisional,
    })
}

/// The control of a game, parsed (stored setups always parse).
fn control(setup: &GameSetup) -> Option<rochade_laws::clock::TimeControl> {
    setup.control().ok()
}

/// lichess's description of the game's variant.
fn variant_json(setup: &GameSetup) -> Value {
    if setup.chess960.is_some() {
        json!({"key": "chess960", "name": "Chess960", "short": "960"})
    } else {
        json!({"key": "standard", "name": "Standard", "short": "Std"})
    }
}

/// The `gameState` object of `state`.
pub fn game_state(state: &Value) -> Value {
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .map(|moves| moves.iter().filter_map(|m| m["uci"].as_str()).collect())
        .unwrap_or_default();
    let clock = &state["clock"];
    let increment = clock["increment"].as_u64().unwrap_or(0);
    let mut game_state = json!({
        "type": "gameState",
        "moves": moves.join(" "),
        "wtime": clock["white"].as_u64().unwrap_or(u64::MAX / 2),
        "btime": clock["black"].as_u64().unwrap_or(u64::MAX / 2),
        "winc": increment,
        "binc": increment,
        "status": status(state),
    });
    if let Some(winner) = state["outcome"]["winner"].as_str() {
        game_state["winner"] = json!(winner);
    }
    match state["offers"]["draw"].as_str() {
        Some("white") => game_state["wdraw"] = json!(true),
        Some("black") => game_state["bdraw"] = json!(true),
        _ => {}
    }
    match state["offers"]["takeback"].as_str() {
        Some("white") => game_state["wtakeback"] = json!(true),
        Some("black") => game_state["btakeback"] = json!(true),
        _ => {}
    }
    game_state
}

/// The `gameFull` object: the game's settings and its state now.
pub fn game_full(setup: &GameSetup, state: &Value, created: u64) -> Value {
    let control = control(setup);
    let speed = control.as_ref().map_or("correspondence", speed_of);
    let clock = control
        .as_ref()
        .map(time_control_json)
        .filter(|tc| tc["type"] == "clock")
        .map(|tc| {
            json!({"initial": tc["limit"].as_u64().unwrap_or(0) * 1000,
                         "increment": tc["increment"].as_u64().unwrap_or(0) * 1000})
        });
    json!({
        "type": "gameFull",
        "id": setup.id,
        "variant": variant_json(setup),
        "speed": speed,
        "perf": {"name": setup.perf().key()},
        "rated": setup.rated,
        "createdAt": created,
        "white": player_json(setup, Color::White),
        "black": player_json(setup, Color::Black),
        "initialFen": if setup.chess960.is_none() { json!("startpos") } else { state["initial_fen"].clone() },
        "clock": clock,
        "state": game_state(state),
    })
}

/// The `gameStart` or `gameFinish` news (`kind`) of a game for the
/// player of `color`.
pub fn game_event(kind: &str, setup: &GameSetup, state: &Value, color: Color) -> Value {
    let control = control(setup);
    let speed = control.as_ref().map_or("correspondence", speed_of);
    let opponent = match setup.player(color.other()) {
        Some(player) => {
            json!({"id": player.key(), "username": player.name, "rating": shown(player).rating})
        }
        None => match setup.robot {
            Some((level, _)) => {
                json!({"id": null, "username": format!("Rochade robot level {level}"), "ai": level})
            }
            None => json!({"id": null, "username": "Anonymous"}),
        },
    };
    let ply = state["ply"].as_u64().unwrap_or(0);
    let to_move = state["turn"].as_str() == Some(color_name(color));
    let left = match color {
        Color::White => state["clock"]["white"].as_u64(),
        Color::Black => state["clock"]["black"].as_u64(),
    };
    let mut game = json!({
        "id": setup.id,
        "gameId": setup.id,
        "fullId": setup.id,
        "color": color_name(color),
        "fen": state["fen"],
        "hasMoved": ply > u64::from(color == Color::Black),
        "isMyTurn": to_move && status(state) == "started",
        "lastMove": state["last_move"].as_str().unwrap_or(""),
        "opponent": opponent,
        "perf": setup.perf().key(),
        "rated": setup.rated,
        "secondsLeft": left.map(|ms| ms / 1000),
        "source": if setup.robot.is_some() { "ai" } else { "friend" },
        "speed": speed,
        "variant": variant_json(setup),
        "compat": {"bot": true, "board": true},
        "status": {"name": status(state)},
    });
    if let Some(winner) = state["outcome"]["winner"].as_str() {
        game["winner"] = json!(winner);
    }
    json!({"type": kind, "game": game})
}
