//! A live knockout through the running server (issue 18, points 3, 7,
//! 8, 12): four players seeded by rating into a bracket; matches of two
//! games, then two blitz games, then an Armageddon in which a draw counts
//! for Black; each next game started as soon as the last one ends, the
//! colours of each stage drawn by lot; a withdrawal in the final; a match
//! for third place; standings by the round reached. Wrong settings and
//! the arbiter's acts a bracket decides by itself are refused with their
//! reason, and nothing changes.

mod support;

use std::collections::HashMap;

use serde_json::{Value, json};
use support::{
    TestServer, appoint, creation_refused, expect, finish, page, refused, sign_up, until,
};

/// The match `id` on the page.
fn match_of<'a>(page: &'a Value, id: &str) -> &'a Value {
    let bracket = &page["bracket"];
    bracket["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .flat_map(|r| r["matches"].as_array().expect("matches"))
        .chain(std::iter::once(&bracket["thirdPlace"]))
        .find(|m| m["id"] == id)
        .unwrap_or_else(|| panic!("no match {id}: {page}"))
}

/// Plays the game of match `id` going on, so that `winner` wins it (or
/// a draw when `winner` is empty); waits until the bracket has moved on.
async fn play(
    server: &TestServer,
    sessions: &HashMap<String, String>,
    td: &str,
    tid: &str,
    id: &str,
    winner: &str,
) {
    let p = until(server, td, tid, |p| {
        match_of(p, id)["games"]
            .as_array()
            .is_some_and(|g| g.iter().all(|g| g["started"] == true))
    })
    .await;
    let m = match_of(&p, id);
    let games = m["games"].as_array().expect("games");
    let game = games
        .iter()
        .find(|g| g["result"].is_null())
        .unwrap_or_else(|| panic!("no game going on in {id}: {p}"));
    let count = games.len();
    let board = json!({
        "game": game["game"],
        "white": {"name": game["white"]},
        "black": {"name": game["black"]},
    });
    let result = if winner.is_empty() {
        "1/2-1/2"
    } else if game["white"] == winner {
        "1-0"
    } else {
        "0-1"
    };
    finish(server, sessions, &board, result).await;
    until(server, td, tid, |p| {
        let m = match_of(p, id);
        m["state"] == "decided" || m["games"].as_array().is_some_and(|g| g.len() > count)
    })
    .await;
}

#[tokio::test]
async fn a_knockout_plays_its_matches_through_the_tie_breaks_to_the_final() {
    let server = TestServer::start().await;
    let td = sign_up(&server, "Arbiter").await;
    appoint(&server, "arbiter");
    let mut sessions = HashMap::new();
    for name in ["Anna", "Boris", "Cyril", "Dana"] {
        sessions.insert(name.to_owned(), sign_up(&server, name).await);
    }
    let good = json!({
        "name": "Club Cup",
        "time_control": "5+3",
        "system": "knockout",
        "knockout": {
            "games": 2,
            "tie_breaks": [
                {"kind": "blitz", "games": 2, "time_control": "3+2"},
                {"kind": "armageddon", "time_control": "3+2"}
            ],
            "third_place": true
        },
        "entry": {"open": true},
    });
    // Bad matches are refused naming what is wrong; nothing is created.
    for (knockout, says) in [
        (Value::Null, "needs its matches"),
        (json!({"games": 2}), "can end tied"),
        (
            json!({"games": 0, "tie_breaks": [{"kind": "armageddon", "time_control": "3+2"}]}),
            "knockout.games",
        ),
        (
            json!({"games": 2, "tie_breaks": [{"kind": "bullet", "time_control": "1+0"}]}),
            "tie_breaks[0].kind",
        ),
        (
            json!({"games": 2, "tie_breaks": [{"kind": "armageddon", "time_control": "soon"}]}),
            "tie_breaks[0].time_control",
        ),
        (
            json!({"games": 2, "tie_breaks": [{"kind": "armageddon", "games": 2, "time_control": "3+2"}]}),
            "Armageddon is one game",
        ),
        (
            json!({"games": 2, "tie_breaks": [{"kind": "armageddon", "time_control": "3+2"}], "extra": 1}),
            "extra",
        ),
    ] {
        let mut body = good.clone();
        body["knockout"] = knockout;
        creation_refused(&server, &td, body, says).await;
    }

    let made = expect(&server, &td, "/api/tournaments", Some(good), 200).await;
    let id = made["id"].as_str().expect("id").to_owned();
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    for name in ["Anna", "Boris", "Cyril", "Dana"] {
        expect(&server, &sessions[name], &path("join"), None, 200).await;
    }
    expect(&server, &td, &path("start"), None, 200).await;

    // Seeds by rating (all new: by name): 1 Anna plays 4 Dana, 2 Boris
    // plays 3 Cyril; each match's first game has begun.
    let p = until(&server, &td, &id, |p| {
        ["1.1", "1.2"].iter().all(|m| {
            match_of(p, m)["games"]
                .as_array()
                .is_some_and(|g| g.len() == 1)
        })
    })
    .await;
    assert_eq!(p["system"], "knockout");
    assert_eq!(match_of(&p, "1.1")["upper"]["name"], "Anna");
    assert_eq!(match_of(&p, "1.1")["lower"]["name"], "Dana");
    assert_eq!(match_of(&p, "1.2")["upper"]["name"], "Boris");
    assert_eq!(p["bracket"]["stages"].as_array().expect("stages").len(), 3);

    // What the bracket decides by itself is not the arbiter's.
    for (what, body) in [
        ("pair", json!({"reason": "now"})),
        (
            "bye",
            json!({"player": "Anna", "round": 2, "kind": "half", "reason": "r"}),
        ),
        (
            "result",
            json!({"game": "x", "result": "1-0", "reason": "r"}),
        ),
    ] {
        refused(&server, &td, &path(what), Some(body), "bracket decides").await;
    }
    refused(&server, &sessions["Anna"], &path("join"), None, "already").await;

    // 1.1: Anna wins both standard games.
    play(&server, &sessions, &td, &id, "1.1", "Anna").await;
    play(&server, &sessions, &td, &id, "1.1", "Anna").await;
    let p = page(&server, &td, &id).await;
    assert_eq!(match_of(&p, "1.1")["winner"]["name"], "Anna", "{p}");
    assert_eq!(match_of(&p, "1.1")["games"].as_array().unwrap().len(), 2);

    // 1.2: one game each, two blitz draws, then the Armageddon is drawn:
    // Black goes through on draw odds.
    play(&server, &sessions, &td, &id, "1.2", "Boris").await;
    play(&server, &sessions, &td, &id, "1.2", "Cyril").await;
    play(&server, &sessions, &td, &id, "1.2", "").await;
    play(&server, &sessions, &td, &id, "1.2", "").await;
    let p = page(&server, &td, &id).await;
    let games = match_of(&p, "1.2")["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 5, "{p}");
    assert_eq!(games[2]["stage"], 1, "the blitz stage: {p}");
    let armageddon = &games[4];
    assert_eq!(armageddon["stage"], 2, "{p}");
    play(&server, &sessions, &td, &id, "1.2", "").await;
    let p = page(&server, &td, &id).await;
    let black = armageddon["black"].as_str().expect("black");
    assert_eq!(
        match_of(&p, "1.2")["winner"]["name"],
        black,
        "draw odds: {p}"
    );

    // The final and the match for third place begin; the finalist who is
    // not Anna withdraws: Anna is the champion, the final's game is
    // forfeited, and the third-place match is played out.
    let p = until(&server, &td, &id, |p| {
        match_of(p, "2.1")["games"]
            .as_array()
            .is_some_and(|g| g.len() == 1)
            && match_of(p, "third place")["games"]
                .as_array()
                .is_some_and(|g| g.len() == 1)
    })
    .await;
    let finalist = if match_of(&p, "2.1")["upper"]["name"] == "Anna" {
        match_of(&p, "2.1")["lower"]["name"].clone()
    } else {
        match_of(&p, "2.1")["upper"]["name"].clone()
    };
    let finalist = finalist.as_str().expect("name").to_owned();
    let body = json!({"player": finalist, "silent": false, "reason": "fell ill"});
    expect(&server, &td, &path("withdraw"), Some(body.clone()), 200).await;
    refused(&server, &td, &path("withdraw"), Some(body), "already").await;
    let p = until(&server, &td, &id, |p| {
        match_of(p, "2.1")["winner"]["name"] == "Anna"
    })
    .await;
    assert_eq!(p["bracket"]["champion"]["name"], "Anna", "{p}");
    let third = match_of(&p, "third place");
    let upper = third["upper"]["name"].as_str().expect("upper").to_owned();
    play(&server, &sessions, &td, &id, "third place", &upper).await;
    play(&server, &sessions, &td, &id, "third place", &upper).await;
    let p = until(&server, &td, &id, |p| p["status"] == "finished").await;

    // Standings by the round reached: the champion, the finalist, the
    // winner of the match for third place, the last.
    let rows = p["standings"].as_array().expect("rows");
    let order: Vec<(&str, u64)> = rows
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["rank"].as_u64().unwrap()))
        .collect();
    assert_eq!(order[0], ("Anna", 1), "{p}");
    assert_eq!(order[1], (finalist.as_str(), 2), "{p}");
    assert_eq!(order[2], (upper.as_str(), 3), "{p}");
    assert_eq!(order[3].1, 4, "{p}");

    // Every game's PGN, each with its match and game as the round.
    let (status, pgn) = support::download(&server, &path("pgn")).await;
    assert_eq!(status, 200);
    assert!(pgn.contains("[Event \"Club Cup\"]"), "{pgn}");
    assert!(pgn.contains("[Round \"1.2.5\"]"), "the Armageddon: {pgn}");
    assert!(pgn.contains("[Round \"3rd.1\"]"), "{pgn}");
    server.stop().await;
}
