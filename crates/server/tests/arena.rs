//! An arena through the running server (issue 18, point 10), as lichess
//! runs one: players paired as they wait with a neighbour in the ranking
//! (never the last opponent again), a win 2, a draw 1, two wins in a
//! row setting a player on fire (double points), berserk (half the
//! clock, no increment, one point more for a win of seven moves), a
//! draw in fewer than ten moves worth nothing, the end at its time with
//! the games still going set apart; the standings by points, the PGN
//! and the CSV. Wrong settings, a berserk out of place and a join after
//! the end are refused with their reason, and nothing changes.

mod support;

use std::collections::HashMap;
use std::time::Duration;

use rochade_loadtest::client::GameSocket;
use serde_json::{Value, json};
use support::{
    TestServer, WAIT, arbiter_and, creation_refused, download, expect, finish, page, play_all,
    refused, refused_saying, seat, sign_up, until,
};

/// Fourteen half-moves of an Italian game: seven moves each, enough for
/// a berserk point.
const ITALIAN: [&str; 14] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d3", "d7d6", "e1g1", "e8g8",
    "h2h3", "h7h6",
];

/// The arena game going on between `a` and `b` (either colour).
fn game_of<'a>(page: &'a Value, a: &str, b: &str) -> Option<&'a Value> {
    page["arena"]["playing"].as_array()?.iter().find(|g| {
        let names = [&g["white"]["name"], &g["black"]["name"]];
        names.contains(&&json!(a)) && names.contains(&&json!(b))
    })
}

/// The game going on of player `name`.
fn game_with<'a>(page: &'a Value, name: &str) -> Option<&'a Value> {
    page["arena"]["playing"]
        .as_array()?
        .iter()
        .find(|g| g["white"]["name"] == name || g["black"]["name"] == name)
}

/// The standings row of `name`.
fn row<'a>(page: &'a Value, name: &str) -> &'a Value {
    page["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not ranked: {page}"))
}

/// The two players' sockets in `game`, White's first.
async fn sockets(
    server: &TestServer,
    sessions: &HashMap<String, String>,
    game: &Value,
) -> (GameSocket, GameSocket) {
    let id = game["game"].as_str().expect("id");
    let mut out = Vec::new();
    for side in ["white", "black"] {
        let name = game[side]["name"].as_str().expect("name");
        let token = seat(server, &sessions[name], id).await;
        out.push(
            GameSocket::connect(&server.host, id, &token)
                .await
                .expect("connects"),
        );
    }
    let black = out.pop().expect("black");
    (out.pop().expect("white"), black)
}

/// Plays half-moves `plies` of [`ITALIAN`]; the last state.
async fn moves(
    white: &mut GameSocket,
    black: &mut GameSocket,
    plies: std::ops::Range<usize>,
) -> Value {
    let mut last = Value::Null;
    for ply in plies {
        let (mover, other) = if ply % 2 == 0 {
            (&mut *white, &mut *black)
        } else {
            (&mut *black, &mut *white)
        };
        mover
            .send(&json!({"t": "move", "ply": ply, "uci": ITALIAN[ply]}))
            .await
            .expect("sends");
        last = other
            .state(WAIT, |s| s["ply"] == ply + 1)
            .await
            .expect("the move is played");
    }
    last
}

/// `loser` resigns.
async fn resign(loser: &mut GameSocket) {
    loser.send(&json!({"t": "resign"})).await.expect("sends");
    loser
        .state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("the game ends");
}

/// Plays the fourteen half-moves of [`ITALIAN`], then White wins (Black
/// resigns) or Black does.
async fn italian(white: &mut GameSocket, black: &mut GameSocket, white_wins: bool) {
    moves(white, black, 0..ITALIAN.len()).await;
    resign(if white_wins { black } else { white }).await;
}

/// Waits until `n` games go on in the arena; the page.
async fn playing(server: &TestServer, td: &str, id: &str, n: usize) -> Value {
    until(server, td, id, |p| {
        p["arena"]["playing"]
            .as_array()
            .is_some_and(|g| g.len() == n)
    })
    .await
}

/// Plays `name`'s game going on to a win for `name` in fourteen
/// half-moves; waits until the standings have it.
async fn win(
    server: &TestServer,
    sessions: &HashMap<String, String>,
    td: &str,
    tid: &str,
    name: &str,
) {
    let p = until(server, td, tid, |p| game_with(p, name).is_some()).await;
    let game = game_with(&p, name).expect("a game").clone();
    let before = row(&p, name)["finished"].as_u64().expect("finished");
    let (mut white, mut black) = sockets(server, sessions, &game).await;
    italian(&mut white, &mut black, game["white"]["name"] == name).await;
    until(server, td, tid, |p| row(p, name)["finished"] == before + 1).await;
}

#[tokio::test]
async fn an_arena_pairs_as_players_wait_scores_streaks_and_berserk_and_ends_at_its_time() {
    let server = TestServer::start().await;
    let (td, sessions) = arbiter_and(&server, &["Anna", "Boris", "Cyril", "Dana"]).await;
    // No default time (6.7.1): the game going on at the end is played
    // after the server's time has been moved on an hour.
    let good = json!({
        "name": "Evening Arena",
        "time_control": "90+30",
        "system": "arena",
        "minutes": 60,
        "entry": {"open": true},
        "default_secs": 0,
    });
    // Wrong settings are refused naming the field; nothing is created.
    for (change, says) in [
        (json!({"minutes": null}), "minutes: an arena needs"),
        (json!({"minutes": 2}), "minutes: 5 to 720"),
        (json!({"rounds": 5}), "rounds: an arena has no rounds"),
        (json!({"time_control": "3d"}), "time_control: an arena"),
        (
            json!({"time_control": "40/90, 30+30"}),
            "time_control: an arena",
        ),
        (json!({"tiebreaks": ["BH"]}), "tiebreaks: an arena"),
        (json!({"max_byes": 1}), "max_byes"),
        (json!({"by_round": true}), "by_round"),
        (
            json!({"system": "swiss", "rounds": 3}),
            "minutes: only an arena",
        ),
    ] {
        let mut body = good.clone();
        for (k, v) in change.as_object().expect("object") {
            if v.is_null() {
                body.as_object_mut().expect("object").remove(k);
            } else {
                body[k] = v.clone();
            }
        }
        creation_refused(&server, &td, body, says).await;
    }

    let made = expect(&server, &td, "/api/tournaments", Some(good), 200).await;
    assert_eq!(made["system"], "arena");
    assert_eq!(made["minutes"], 60);
    let id = made["id"].as_str().expect("id").to_owned();
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    for name in ["Anna", "Boris", "Cyril", "Dana"] {
        expect(&server, &sessions[name], &path("join"), None, 200).await;
    }
    expect(&server, &td, &path("start"), None, 200).await;

    // All new, all rated alike: ranked by name, neighbours paired.
    let p = playing(&server, &td, &id, 2).await;
    assert!(game_of(&p, "Anna", "Boris").is_some(), "{p}");
    assert!(game_of(&p, "Cyril", "Dana").is_some(), "{p}");
    assert_eq!(p["arena"]["secondsLeft"], 3600);
    assert_eq!(
        p["arena"]["closesAt"].as_u64().expect("closes") + 120_000,
        p["arena"]["endsAt"].as_u64().expect("ends"),
        "pairing stops two minutes before the end"
    );
    // The arbiter's round controls do not fit an arena.
    refused(
        &server,
        &td,
        &path("pair"),
        Some(json!({"reason": "next"})),
        "an arena has no rounds",
    )
    .await;

    // Anna goes berserk before her first move: half her 90 minutes gone,
    // and no increment after her moves.
    let game = game_of(&p, "Anna", "Boris").expect("a game").clone();
    let anna = if game["white"]["name"] == "Anna" {
        "white"
    } else {
        "black"
    };
    let boris = if anna == "white" { "black" } else { "white" };
    let (mut white, mut black) = sockets(&server, &sessions, &game).await;
    let (mine, theirs) = if anna == "white" {
        (&mut white, &mut black)
    } else {
        (&mut black, &mut white)
    };
    mine.send(&json!({"t": "berserk"})).await.expect("sends");
    let s = theirs
        .state(WAIT, |s| s["berserk"][anna] == true)
        .await
        .expect("berserk shown");
    assert_eq!(s["berserk"][boris], false);
    // The arena's page shows it on the game being played.
    let p = until(&server, &td, &id, |p| {
        game_of(p, "Anna", "Boris").is_some_and(|g| g["berserk"][anna] == true)
    })
    .await;
    assert_eq!(
        game_of(&p, "Anna", "Boris").expect("a game")["berserk"][boris],
        false
    );
    let left = s["clock"][anna].as_u64().expect("clock");
    assert!(
        (2_690_000..=2_700_000).contains(&left),
        "45 minutes left: {s}"
    );
    refused_saying(mine, &json!({"t": "berserk"}), "already").await;
    moves(&mut white, &mut black, 0..2).await;
    // Boris has moved: too late for him.
    let his = if anna == "white" {
        &mut black
    } else {
        &mut white
    };
    refused_saying(his, &json!({"t": "berserk"}), "before one's first move").await;
    let last = moves(&mut white, &mut black, 2..ITALIAN.len()).await;
    resign(if anna == "white" {
        &mut black
    } else {
        &mut white
    })
    .await;
    // Fourteen half-moves later Anna's clock has no 30-second increments,
    // Boris's has seven.
    let anna_left = last["clock"][anna].as_u64().expect("clock");
    let boris_left = last["clock"][boris].as_u64().expect("clock");
    assert!(anna_left <= 2_700_000, "no increment for Anna: {last}");
    assert!(
        boris_left > 5_400_000 + 6 * 30_000,
        "Boris's increments: {last}"
    );
    let p = until(&server, &td, &id, |p| row(p, "Anna")["finished"] == 1).await;
    assert_eq!(row(&p, "Anna")["points"], 3, "a berserk win: {p}");
    assert_eq!(row(&p, "Anna")["sheet"][0]["berserk"], true);
    assert_eq!(row(&p, "Boris")["points"], 0);
    // Anna and Boris wait: they just met, so they are not paired again.
    assert!(game_with(&p, "Anna").is_none() && game_with(&p, "Boris").is_none());

    win(&server, &sessions, &td, &id, "Cyril").await;
    let p = playing(&server, &td, &id, 2).await;
    // Anna (3) meets Cyril (2), not Boris again; Boris meets Dana.
    assert!(game_of(&p, "Anna", "Cyril").is_some(), "{p}");
    let game = game_of(&p, "Boris", "Dana").expect("Boris and Dana");
    // A draw in three half-moves scores nothing.
    finish(&server, &sessions, game, "1/2-1/2").await;
    let p = until(&server, &td, &id, |p| row(p, "Dana")["finished"] == 2).await;
    assert_eq!(row(&p, "Dana")["points"], 0, "a quick draw: {p}");
    assert_eq!(row(&p, "Boris")["points"], 0, "a quick draw: {p}");

    // Anna wins again: two in a row, on fire; her third win scores 4.
    win(&server, &sessions, &td, &id, "Anna").await;
    let p = page(&server, &td, &id).await;
    assert_eq!(row(&p, "Anna")["points"], 5);
    assert_eq!(row(&p, "Anna")["fire"], true, "{p}");
    win(&server, &sessions, &td, &id, "Anna").await;
    let p = page(&server, &td, &id).await;
    let sheet: Vec<u64> = row(&p, "Anna")["sheet"]
        .as_array()
        .expect("sheet")
        .iter()
        .map(|s| s["points"].as_u64().expect("points"))
        .collect();
    assert_eq!(sheet, [3, 2, 4], "{p}");
    assert_eq!(row(&p, "Anna")["sheet"][2]["fire"], true);
    assert_eq!(row(&p, "Anna")["rank"], 1);
    assert_eq!(row(&p, "Anna")["points"], 9);

    // The time is up: the games going on do not count, nobody may join.
    let p = until(&server, &td, &id, |p| {
        p["arena"]["playing"]
            .as_array()
            .is_some_and(|g| !g.is_empty())
    })
    .await;
    let late = p["arena"]["playing"][0].clone();
    let points: Vec<Value> = ["Anna", "Boris", "Cyril", "Dana"]
        .iter()
        .map(|n| row(&p, n)["points"].clone())
        .collect();
    server.shared.clock.advance(Duration::from_secs(3601));
    let p = until(&server, &td, &id, |p| p["status"] == "finished").await;
    assert_eq!(p["arena"]["playing"], json!([]));
    assert_eq!(p["arena"]["secondsLeft"], 0);
    let (mut white, mut black) = sockets(&server, &sessions, &late).await;
    italian(&mut white, &mut black, true).await;
    let winner = late["white"]["name"].as_str().expect("name").to_owned();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let p = page(&server, &td, &id).await;
    let after: Vec<Value> = ["Anna", "Boris", "Cyril", "Dana"]
        .iter()
        .map(|n| row(&p, n)["points"].clone())
        .collect();
    assert_eq!(points, after, "{winner}'s late win does not count: {p}");
    let late_comer = sign_up(&server, "Emil").await;
    refused(&server, &late_comer, &path("join"), None, "finished").await;
    assert_eq!(
        page(&server, &td, &id).await["players"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );

    // Downloads: every game in the PGN, the standings as CSV, no TRF.
    let games = p["arena"]["games"].as_u64().expect("games");
    let (status, pgn) = download(&server, &path("pgn")).await;
    assert_eq!(status, 200);
    assert_eq!(
        pgn.matches("[Event \"Evening Arena\"]").count() as u64,
        games,
        "{pgn}"
    );
    let (status, csv) = download(&server, &path("standings")).await;
    assert_eq!(status, 200);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("place,number,name,rating,points,Perf"));
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("1,") && l.contains(",Anna,") && l.contains(",9,")),
        "{csv}"
    );
    let (status, trf) = download(&server, &path("trf")).await;
    assert!(status >= 400 && trf.contains("TRF16"), "{status} {trf}");
    server.stop().await;
}

/// A 30-minute 3+2 arena with `settings` added, joined by Anna, Boris
/// and Cyril and started: the director's session, the players' and the
/// arena's id.
async fn three_in_an_arena(
    server: &TestServer,
    settings: Value,
) -> (String, HashMap<String, String>, String) {
    let (td, sessions) = arbiter_and(server, &["Anna", "Boris", "Cyril"]).await;
    let mut body = json!({"name": "Blitz Arena", "time_control": "3+2", "system": "arena",
                          "minutes": 30, "entry": {"open": true}});
    for (k, v) in settings.as_object().expect("settings") {
        body[k] = v.clone();
    }
    let made = expect(server, &td, "/api/tournaments", Some(body), 200).await;
    let id = made["id"].as_str().expect("id").to_owned();
    for name in ["Anna", "Boris", "Cyril"] {
        let join = format!("/api/tournaments/{id}/join");
        expect(server, &sessions[name], &join, None, 200).await;
    }
    expect(
        server,
        &td,
        &format!("/api/tournaments/{id}/start"),
        None,
        200,
    )
    .await;
    (td, sessions, id)
}

#[tokio::test]
async fn a_player_who_leaves_an_arena_is_not_paired_until_they_come_back() {
    let server = TestServer::start().await;
    let (td, sessions, id) = three_in_an_arena(&server, json!({})).await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    let p = until(&server, &td, &id, |p| game_of(p, "Anna", "Boris").is_some()).await;
    assert!(game_with(&p, "Cyril").is_none(), "the odd one out waits");
    // Cyril leaves: a pause.
    expect(&server, &sessions["Cyril"], &path("quit"), None, 200).await;
    let game = game_of(&p, "Anna", "Boris").expect("a game").clone();
    let board = json!({"game": game["game"], "white": game["white"], "black": game["black"]});
    finish(&server, &sessions, &board, "1-0").await;
    // Only two play on: the last opponents meet again.
    let p = until(&server, &td, &id, |p| {
        p["arena"]["games"] == 2 && game_of(p, "Anna", "Boris").is_some()
    })
    .await;
    assert!(row(&p, "Cyril")["withdrawn"] == true && game_with(&p, "Cyril").is_none());
    // Cyril comes back: paired again as soon as someone waits.
    expect(&server, &sessions["Cyril"], &path("join"), None, 200).await;
    let p = page(&server, &td, &id).await;
    assert_eq!(row(&p, "Cyril")["withdrawn"], false);
    assert_eq!(p["players"].as_array().map(Vec::len), Some(3));
    let game = game_of(&p, "Anna", "Boris").expect("a game").clone();
    let board = json!({"game": game["game"], "white": game["white"], "black": game["black"]});
    finish(&server, &sessions, &board, "0-1").await;
    until(&server, &td, &id, |p| game_with(p, "Cyril").is_some()).await;
    // A player the director withdrew does not come back by themself.
    expect(
        &server,
        &td,
        &path("withdraw"),
        Some(json!({"player": "Cyril", "reason": "left the club's room"})),
        200,
    )
    .await;
    refused(
        &server,
        &sessions["Cyril"],
        &path("join"),
        None,
        "director withdrew you",
    )
    .await;
    assert_eq!(
        row(&page(&server, &td, &id).await, "Cyril")["withdrawn"],
        true
    );
    server.stop().await;
}

#[tokio::test]
async fn art_6_7_1_a_player_who_makes_no_first_move_is_paused_until_they_come_back() {
    let server = TestServer::start().await;
    let (td, sessions, id) = three_in_an_arena(&server, json!({"default_secs": 20})).await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    let p = until(&server, &td, &id, |p| game_of(p, "Anna", "Boris").is_some()).await;
    let game = game_of(&p, "Anna", "Boris").expect("a game").clone();
    let white = game["white"]["name"].as_str().expect("White").to_owned();
    // Nobody moves: White loses by default, and is paused; the other two
    // are paired, White is not.
    server.shared.advance_clocks(Duration::from_secs(21));
    let p = until(&server, &td, &id, |p| {
        p["arena"]["games"] == 2 && row(p, &white)["withdrawn"] == true
    })
    .await;
    assert!(
        game_with(&p, &white).is_none(),
        "{white} is not paired: {p}"
    );
    // White comes back: paired again once someone waits.
    expect(&server, &sessions[&white], &path("join"), None, 200).await;
    let p = page(&server, &td, &id).await;
    assert_eq!(row(&p, &white)["withdrawn"], false, "{p}");
    let going = p["arena"]["playing"][0].clone();
    let board = json!({"game": going["game"], "white": going["white"], "black": going["black"]});
    finish(&server, &sessions, &board, "1-0").await;
    let p = until(&server, &td, &id, |p| game_with(p, &white).is_some()).await;
    assert_eq!(row(&p, &white)["withdrawn"], false, "not paused again: {p}");
    server.stop().await;
}

#[tokio::test]
async fn berserk_is_for_arena_games_only() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let (mut socket, before) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    refused_saying(
        &mut socket,
        &json!({"t": "berserk", "color": "white"}),
        "berserk is for the games of an arena",
    )
    .await;
    assert!(
        before["berserk"].is_null(),
        "no berserk in a casual game: {before}"
    );
    // Nothing changed: White's clock is whole, and gains its increment.
    let after = play_all(&mut socket, &["e2e4"]).await;
    assert!(after["berserk"].is_null(), "{after}");
    let white = after["clock"]["white"].as_u64().expect("clock");
    assert!(
        white > 300_000,
        "five minutes and three seconds, less a moment: {after}"
    );
    server.stop().await;
}
