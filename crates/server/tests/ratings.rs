//! Ratings and a player's history through the whole app: rated games
//! between accounts change both Glicko-2 ratings in their category in the
//! commit that ends them; casual games and games against the robot do
//! not; the profile, the rating history, the list of games (filtered by
//! result and category) and the replay show them.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use rochade_server::accounts::admin;
use serde_json::Value;
use support::ask;

/// The app with Fischer and Spassky, and a token for each.
struct Club {
    app: axum::Router,
    _stop: tokio::sync::watch::Sender<bool>,
    fischer: String,
    spassky: String,
}

fn club() -> Club {
    let storage = support::open(&support::temp_db());
    for name in ["Fischer", "Spassky"] {
        admin::add_user(&storage, name, None, false).expect("account");
    }
    let scopes = "board:play,challenge:write";
    let fischer = admin::create_token(&storage, "fischer", scopes, "").expect("token");
    let spassky = admin::create_token(&storage, "spassky", scopes, "").expect("token");
    let (app, stop) = support::app_over(storage);
    Club {
        app,
        _stop: stop,
        fischer,
        spassky,
    }
}

/// Fischer (White) challenges Spassky with `form`; Spassky accepts; the
/// game's id.
async fn game(c: &Club, form: &str) -> String {
    let id = support::challenge(&c.app, &c.fischer, "spassky", form).await;
    support::accepted(&c.app, &c.fischer, &id, &c.spassky).await
}

/// Plays `moves` alternately, White first.
async fn play(c: &Club, id: &str, moves: &[&str]) {
    for (i, uci) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { &c.fischer } else { &c.spassky };
        let path = format!("/api/board/game/{id}/move/{uci}");
        let (status, body) = ask(&c.app, "POST", &path, Some(token), "").await;
        assert_eq!(status, StatusCode::OK, "{uci}: {body}");
    }
}

/// 5.1.1: the fool's mate, Black wins.
const FOOLS_MATE: [&str; 4] = ["f2f3", "e7e5", "g2g4", "d8h4"];

async fn get(c: &Club, path: &str) -> (StatusCode, Value) {
    ask(&c.app, "GET", path, None, "").await
}

/// The NDJSON lines of `path`.
async fn lines(c: &Club, path: &str) -> Vec<Value> {
    let request = Request::get(path)
        .header(header::ACCEPT, "application/x-ndjson")
        .body(Body::empty())
        .expect("request");
    let (status, bytes) = support::send_bytes(&c.app, request).await;
    assert_eq!(status, StatusCode::OK);
    String::from_utf8(bytes)
        .expect("text")
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[tokio::test]
async fn a_rated_game_changes_both_ratings_in_its_category() {
    let c = club();
    let id = game(&c, "rated=true&clock.limit=300&clock.increment=3").await;
    play(&c, &id, &FOOLS_MATE).await;
    let (_, fischer) = get(&c, "/api/user/fischer").await;
    let (_, spassky) = get(&c, "/api/user/Spassky").await;
    let (f, s) = (&fischer["perfs"]["blitz"], &spassky["perfs"]["blitz"]);
    assert_eq!(
        (f["games"].as_u64(), s["games"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(f["rating"].as_i64() < Some(1500), "{fischer}");
    assert!(s["rating"].as_i64() > Some(1500), "{spassky}");
    assert_eq!(f["prov"], true);
    assert!(fischer["perfs"].get("rapid").is_none());
    assert_eq!(fischer["count"]["loss"], 1);
    assert_eq!(spassky["count"]["win"], 1);
    assert_eq!(spassky["count"]["rated"], 1);
    // The token's own account shows the same.
    let (_, me) = ask(&c.app, "GET", "/api/account", Some(&c.spassky), "").await;
    assert_eq!(me["perfs"]["blitz"], spassky["perfs"]["blitz"]);

    let (_, history) = get(&c, "/api/user/spassky/rating-history").await;
    let blitz = history
        .as_array()
        .expect("a list")
        .iter()
        .find(|p| p["name"] == "Blitz")
        .expect("blitz");
    let points = blitz["points"].as_array().expect("points");
    assert_eq!(points.len(), 1);
    assert_eq!(points[0][3], s["rating"]);

    let games = lines(&c, "/api/games/user/spassky").await;
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g["id"], id.as_str());
    assert_eq!(
        (g["rated"].clone(), g["perf"].clone()),
        (Value::Bool(true), "blitz".into())
    );
    assert_eq!(g["fideCategory"], "blitz");
    assert_eq!(g["status"], "mate");
    assert_eq!(g["winner"], "black");
    assert_eq!(g["moves"], "f3 e5 g4 Qh4#");
    assert_eq!(g["players"]["white"]["rating"], 1500);
    let diff = g["players"]["black"]["ratingDiff"]
        .as_i64()
        .expect("a diff");
    assert_eq!(1500 + diff, s["rating"].as_i64().expect("rating"));
    assert_eq!(g["clock"]["totalTime"], 420);
}

#[tokio::test]
async fn casual_games_change_no_rating() {
    let c = club();
    let id = game(&c, "rated=false&clock.limit=300&clock.increment=3").await;
    play(&c, &id, &FOOLS_MATE).await;
    let (_, spassky) = get(&c, "/api/user/spassky").await;
    assert_eq!(spassky["perfs"], serde_json::json!({}));
    assert_eq!(spassky["count"]["win"], 1);
    assert_eq!(spassky["count"]["rated"], 0);
    let games = lines(&c, "/api/games/user/spassky").await;
    assert!(games[0]["players"]["black"].get("ratingDiff").is_none());
}

#[tokio::test]
async fn the_list_filters_by_result_category_and_colour() {
    let c = club();
    let blitz = game(&c, "rated=true&clock.limit=300&clock.increment=3").await;
    play(&c, &blitz, &FOOLS_MATE).await;
    let rapid = game(&c, "rated=true&clock.limit=900&clock.increment=0").await;
    let resign = format!("/api/board/game/{rapid}/resign");
    assert_eq!(
        ask(&c.app, "POST", &resign, Some(&c.spassky), "").await.0,
        StatusCode::OK
    );
    let ids = |games: Vec<Value>| -> Vec<String> {
        games
            .iter()
            .map(|g| g["id"].as_str().expect("id").to_owned())
            .collect()
    };
    // Newest first.
    assert_eq!(
        ids(lines(&c, "/api/games/user/fischer").await),
        [rapid.as_str(), blitz.as_str()]
    );
    assert_eq!(
        ids(lines(&c, "/api/games/user/fischer?result=win").await),
        std::slice::from_ref(&rapid)
    );
    assert_eq!(
        ids(lines(&c, "/api/games/user/fischer?result=loss").await),
        std::slice::from_ref(&blitz)
    );
    assert!(
        lines(&c, "/api/games/user/fischer?result=draw")
            .await
            .is_empty()
    );
    assert_eq!(
        ids(lines(&c, "/api/games/user/spassky?perfType=blitz").await),
        std::slice::from_ref(&blitz)
    );
    assert_eq!(
        ids(lines(&c, "/api/games/user/spassky?perfType=rapid,blitz&max=1").await),
        std::slice::from_ref(&rapid)
    );
    assert!(
        lines(&c, "/api/games/user/spassky?color=white")
            .await
            .is_empty()
    );
    // The next page starts before the last game shown.
    let first = lines(&c, "/api/games/user/spassky?max=1").await;
    let until = first[0]["createdAt"].as_u64().expect("createdAt") - 1;
    let next = lines(&c, &format!("/api/games/user/spassky?max=1&until={until}")).await;
    assert!(ids(next).iter().all(|id| *id != ids(first.clone())[0]));
    // Bad queries are 400s that name the field.
    for (query, field) in [
        ("result=won", "result"),
        ("perfType=blitzz", "perfType"),
        ("color=red", "color"),
        ("max=-1", "max"),
        ("colour=white", "colour"),
    ] {
        let (status, body) = get(&c, &format!("/api/games/user/fischer?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert!(
            body["error"].as_str().expect("error").contains(field),
            "{body}"
        );
    }
    assert_eq!(
        get(&c, "/api/games/user/nobody").await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(get(&c, "/api/user/nobody").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_game_replays_move_by_move_and_exports_as_pgn() {
    let c = club();
    let id = game(&c, "rated=true&clock.limit=300&clock.increment=3").await;
    play(&c, &id, &FOOLS_MATE).await;
    let (status, replay) = get(&c, &format!("/api/games/{id}/replay")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(replay["result"], "0-1");
    assert_eq!(replay["white"], "Fischer");
    let moves = replay["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[3]["san"], "Qh4#");
    assert_eq!(
        moves[3]["fen"],
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    assert_eq!(
        get(&c, "/api/games/nosuchgm/replay").await.0,
        StatusCode::NOT_FOUND
    );
    let request = Request::get("/api/games/user/fischer")
        .body(Body::empty())
        .expect("request");
    let (status, pgn) = support::send_bytes(&c.app, request).await;
    assert_eq!(status, StatusCode::OK);
    let pgn = String::from_utf8(pgn).expect("text");
    assert!(
        pgn.contains("[White \"Fischer\"]") && pgn.contains("[WhiteElo \"1500\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("2... Qh4#"), "{pgn}");
}
