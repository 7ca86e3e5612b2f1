//! A live Swiss through the running server (issue 18, points 7, 8, 9,
//! 12): a site director creates an open event of three rounds by the
//! FIDE (Dutch) system (C.04.3); players join by themselves within its
//! conditions and one leaves before the start; the start pairs round 1
//! (five players: the lowest gets the pairing-allocated bye, C.04.1 b)
//! and starts its games in the rooms; the arbiter holds the next
//! pairing, changes a result with a reason, sets a half-point bye within
//! the event's limit, adds a late entry (paired from the next round) and
//! pairs round 2 by hand; round
//! 3 is paired by the server itself as soon as round 2's last game ends;
//! the standings carry the organiser's tie-breaks (C.07); the TRF, the
//! PGN and the standings download. Each pairing is checked against the
//! pairing library re-pairing the downloaded TRF (the free pairings
//! checker's way), and every wrong request is refused with its reason
//! and changes nothing.

mod support;

use std::collections::HashMap;
use std::time::Duration;

use rochade_loadtest::client::GameSocket;
use rochade_tournament::trf::{Record, RoundEntry, Trf};
use rochade_tournament::{RoundPairing, dutch};
use serde_json::{Value, json};
use support::{
    TestServer, appoint, ask_page, creation_refused, download, expect, finish, page, refused,
    refused_saying, seat, sign_up, until,
};

use support::WAIT;

/// The pairings of round `round` on the page, as sets of names.
fn boards(page: &Value, round: usize) -> Vec<Value> {
    page["pairings"][round - 1]["boards"]
        .as_array()
        .expect("boards")
        .clone()
}

/// What the pairing library pairs for round `round` of the downloaded
/// `trf`: the file before that round, with the round's own byes (not
/// paired players) kept, as `rochade trf check` does.
fn repaired(trf: &Trf, round: u16) -> RoundPairing {
    let index = usize::from(round) - 1;
    let records = trf
        .records()
        .iter()
        .map(|r| match r {
            Record::Player(p) => {
                let mut p = p.clone();
                let own: Option<RoundEntry> = p.rounds.get(index).copied().flatten();
                p.rounds.truncate(index);
                if let Some(e) = own.filter(|e| !e.was_paired()) {
                    p.rounds.push(Some(e));
                }
                Record::Player(p)
            }
            other => other.clone(),
        })
        .collect();
    dutch::pair(&Trf::from_records(records)).expect("pairs")
}

/// The games of round `round` in `trf`, as (white, black) numbers.
fn games_in(trf: &Trf, round: u16) -> Vec<(u16, u16)> {
    let index = usize::from(round) - 1;
    let mut games: Vec<(u16, u16)> = trf
        .players()
        .iter()
        .filter_map(|p| {
            let e = p.rounds.get(index).copied().flatten()?;
            let opponent = e.opponent?;
            (e.colour == Some(rochade_tournament::Colour::White))
                .then(|| (p.number.get(), opponent.get()))
        })
        .collect();
    games.sort_unstable();
    games
}

#[tokio::test]
async fn c04_3_a_live_swiss_paired_round_by_round_with_the_arbiters_controls() {
    let server = TestServer::start().await;
    let td = sign_up(&server, "Arbiter").await;
    appoint(&server, "arbiter");
    let names = ["Anna", "Boris", "Cyril", "Dana", "Eva"];
    let mut sessions = HashMap::new();
    for name in names.iter().chain(&["Quitter", "Latecomer", "Outsider"]) {
        sessions.insert((*name).to_owned(), sign_up(&server, name).await);
    }
    let outsider = sessions["Outsider"].clone();

    // Bad settings are refused naming the field; nothing is created.
    let good = json!({
        "name": "Club Swiss",
        "time_control": "5+3",
        "system": "swiss",
        "rounds": 3,
        "break_secs": 0,
        "entry": {"open": true},
        "max_byes": 1,
        "tiebreaks": ["BH-C1", "SB"],
    });
    for (change, says) in [
        (json!({"system": "swizz"}), "system"),
        (json!({"rounds": 0}), "rounds"),
        (json!({"rounds": null}), "rounds"),
        (json!({"tiebreaks": ["BH", "XYZ"]}), "tiebreaks[1]"),
        (json!({"tiebreaks": ["SB", "SB"]}), "twice"),
        (json!({"by_round": false}), "by_round"),
        (json!({"starts_at": 1}), "starts_at"),
        (json!({"max_byes": 4}), "max_byes"),
        (json!({"double": true}), "double"),
        (
            json!({"entry": {"open": true, "min_rating": 1800, "max_rating": 1200}}),
            "entry",
        ),
        (json!({"entry": {"opne": true}}), "opne"),
    ] {
        let mut body = good.clone();
        for (k, v) in change.as_object().expect("object") {
            body[k] = v.clone();
        }
        creation_refused(&server, &td, body, says).await;
    }

    let made = expect(&server, &td, "/api/tournaments", Some(good), 200).await;
    let id = made["id"].as_str().expect("id").to_owned();
    assert_eq!(made["system"], "swiss");
    assert_eq!(made["tiebreaks"], json!(["BH-C1", "SB"]));
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");

    // An event with conditions: an account of 30 days or more.
    let strict = expect(
        &server,
        &td,
        "/api/tournaments",
        Some(
            json!({"name": "Veterans", "time_control": "5+3", "system": "swiss", "rounds": 3,
                    "entry": {"open": true, "min_account_days": 30}}),
        ),
        200,
    )
    .await;
    let strict_join = format!("/api/tournaments/{}/join", strict["id"].as_str().unwrap());
    refused(&server, &sessions["Anna"], &strict_join, None, "30 days").await;

    // The event's page, live: told of each change.
    let mut watcher = GameSocket::open_path(&server.host, &format!("/ws/tournaments/{id}"), None)
        .await
        .expect("opens");

    // No channel is kept for a tournament that does not exist.
    assert!(
        GameSocket::open_path(&server.host, "/ws/tournaments/nosuchid", None)
            .await
            .is_err()
    );

    // Players join by themselves; one leaves before the start.
    for name in names.iter().chain(&["Quitter"]) {
        expect(&server, &sessions[*name], &path("join"), None, 200).await;
    }
    watcher
        .until("changed", WAIT, |_| true)
        .await
        .expect("the page hears of it");
    refused(&server, &sessions["Anna"], &path("join"), None, "already").await;
    expect(&server, &sessions["Quitter"], &path("quit"), None, 200).await;
    refused(
        &server,
        &sessions["Quitter"],
        &path("quit"),
        None,
        "do not play",
    )
    .await;

    // Byes before the start: Eva asks for a half-point bye in round 2;
    // the event allows one.
    let bye = |player: &str, round: u16, kind: &str| {
        Some(json!({"player": player, "round": round, "kind": kind, "reason": "asked by mail"}))
    };
    expect(&server, &td, &path("bye"), bye("Eva", 2, "half"), 200).await;
    refused(
        &server,
        &td,
        &path("bye"),
        bye("Eva", 3, "half"),
        "1 of the 1",
    )
    .await;
    refused(&server, &td, &path("bye"), bye("Eva", 3, "double"), "kind").await;
    refused(
        &server,
        &td,
        &path("bye"),
        bye("Eva", 4, "half"),
        "round: 1 to 3",
    )
    .await;
    refused(
        &server,
        &td,
        &path("bye"),
        bye("Nobody", 3, "half"),
        "does not play",
    )
    .await;
    refused(
        &server,
        &outsider,
        &path("bye"),
        bye("Eva", 3, "zero"),
        "director",
    )
    .await;

    // Nobody but the director starts it, pairs it or holds it.
    refused(&server, &outsider, &path("start"), None, "director").await;
    refused(
        &server,
        &td,
        &path("pair"),
        Some(json!({"reason": "now"})),
        "not started",
    )
    .await;

    // The start: round 1 by the Dutch system. Five players, all unrated:
    // pairing numbers by name, the top half against the bottom half, the
    // fifth has the pairing-allocated bye.
    expect(&server, &td, &path("start"), None, 200).await;
    let p = page(&server, &td, &id).await;
    assert_eq!(p["round"], 1, "{p}");
    let first = boards(&p, 1);
    assert_eq!(first.len(), 2, "{p}");
    let pair = |b: &Value| (b["white"]["name"].clone(), b["black"]["name"].clone());
    assert_eq!(pair(&first[0]), (json!("Anna"), json!("Cyril")), "{p}");
    assert_eq!(pair(&first[1]), (json!("Dana"), json!("Boris")), "{p}");
    assert_eq!(p["pairings"][0]["byes"][0]["player"]["name"], "Eva");
    assert_eq!(p["pairings"][0]["byes"][0]["kind"], "pairing");

    // While round 1 goes on: no next round, no result changed, and the
    // stored tournament is as it was.
    let before = server.shared.storage.tournament(&id).expect("reads");
    refused(
        &server,
        &td,
        &path("pair"),
        Some(json!({"reason": "now"})),
        "still going",
    )
    .await;
    let game = first[0]["game"].as_str().expect("game").to_owned();
    refused(
        &server,
        &td,
        &path("result"),
        Some(json!({"game": game, "result": "1-0", "reason": "x"})),
        "not over",
    )
    .await;
    refused(
        &server,
        &td,
        &path("bye"),
        bye("Anna", 1, "half"),
        "paired already",
    )
    .await;
    assert_eq!(
        server.shared.storage.tournament(&id).expect("reads"),
        before,
        "refusals change nothing"
    );

    // The arbiter holds round 2; round 1 ends: Anna beats Cyril, Boris
    // beats Dana.
    expect(
        &server,
        &td,
        &path("pause"),
        Some(json!({"paused": true, "reason": "a complaint"})),
        200,
    )
    .await;
    refused(
        &server,
        &td,
        &path("pause"),
        Some(json!({"paused": true, "reason": "again"})),
        "already",
    )
    .await;
    finish(&server, &sessions, &first[0], "1-0").await;
    finish(&server, &sessions, &first[1], "0-1").await;
    let p = until(&server, &td, &id, |p| {
        !p["pairings"][0]["finished"].is_null()
    })
    .await;
    assert_eq!(p["round"], 1, "held: {p}");
    let points = |p: &Value, name: &str| {
        p["standings"]
            .as_array()
            .expect("standings")
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| r["points"].as_f64().expect("points"))
            .expect("listed")
    };
    assert_eq!(points(&p, "Anna"), 1.0);
    assert_eq!(points(&p, "Eva"), 1.0, "the bye is a win");

    // The arbiter changes board 1's result after the complaint: a draw.
    refused(
        &server,
        &td,
        &path("result"),
        Some(json!({"game": game, "result": "2-0", "reason": "x"})),
        "not one of",
    )
    .await;
    refused(
        &server,
        &td,
        &path("result"),
        Some(json!({"game": "nosuchgm", "result": "1-0", "reason": "x"})),
        "not a game of this tournament",
    )
    .await;
    refused(
        &server,
        &outsider,
        &path("result"),
        Some(json!({"game": game, "result": "0-1", "reason": "mine"})),
        "director",
    )
    .await;
    expect(
        &server,
        &td,
        &path("result"),
        Some(json!({"game": game, "result": "1/2-1/2", "reason": "the flag fell after the draw was agreed"})),
        200,
    )
    .await;
    let p = page(&server, &td, &id).await;
    assert_eq!(points(&p, "Anna"), 0.5, "{p}");
    assert_eq!(points(&p, "Cyril"), 0.5, "{p}");
    assert_eq!(p["pairings"][0]["boards"][0]["result"], "1/2-1/2");

    // A late entry, paired from the next round; then round 2 by hand:
    // Eva has her half-point bye, four of the other five play (no one
    // meets again, C1) and Dana has the pairing-allocated bye: the late
    // entry has had an unplayed round already.
    expect(
        &server,
        &td,
        &path("players"),
        Some(json!({"name": "Latecomer"})),
        200,
    )
    .await;
    expect(
        &server,
        &td,
        &path("pair"),
        Some(json!({"reason": "complaint settled"})),
        200,
    )
    .await;
    let p = page(&server, &td, &id).await;
    assert_eq!(p["round"], 2, "{p}");
    let second = boards(&p, 2);
    assert_eq!(second.len(), 2, "{p}");
    let byes: Vec<(Value, Value)> = p["pairings"][1]["byes"]
        .as_array()
        .expect("byes")
        .iter()
        .map(|b| (b["player"]["name"].clone(), b["kind"].clone()))
        .collect();
    assert_eq!(
        byes,
        [
            (json!("Dana"), json!("pairing")),
            (json!("Eva"), json!("half"))
        ],
        "{p}"
    );
    assert!(
        second
            .iter()
            .any(|b| b["white"]["name"] == "Latecomer" || b["black"]["name"] == "Latecomer"),
        "{p}"
    );
    let met: Vec<_> = first.iter().map(pair).collect();
    for b in &second {
        let (w, bl) = pair(b);
        assert!(
            !met.contains(&(w.clone(), bl.clone())) && !met.contains(&(bl, w)),
            "{p}"
        );
    }

    // Let go: when round 2 ends, round 3 is paired at once (no break).
    expect(
        &server,
        &td,
        &path("pause"),
        Some(json!({"paused": false, "reason": "settled"})),
        200,
    )
    .await;
    finish(&server, &sessions, &second[0], "1-0").await;
    finish(&server, &sessions, &second[1], "1/2-1/2").await;
    let p = until(&server, &td, &id, |p| {
        p["round"] == 3
            && p["pairings"][2]["boards"]
                .as_array()
                .is_some_and(|b| b.iter().all(|b| b["started"] == true))
    })
    .await;
    let third = boards(&p, 3);
    assert_eq!(third.len(), 3, "six players, three boards: {p}");
    for b in &third {
        finish(&server, &sessions, b, "1-0").await;
    }
    let p = until(&server, &td, &id, |p| p["status"] == "finished").await;
    // The last game's end reached the page.
    while watcher
        .until("changed", Duration::from_millis(500), |_| true)
        .await
        .is_ok()
    {}
    assert_eq!(
        page(&server, &td, &id).await,
        p,
        "nothing changed after the last word"
    );
    refused(
        &server,
        &td,
        &path("pair"),
        Some(json!({"reason": "more"})),
        "finished",
    )
    .await;
    refused(
        &server,
        &sessions["Quitter"],
        &path("join"),
        None,
        "finished",
    )
    .await;

    // The standings: six players, the organiser's two tie-breaks, places
    // in order of points.
    assert_eq!(p["tiebreaks"], json!(["BH-C1", "SB"]));
    let rows = p["standings"].as_array().expect("rows");
    assert_eq!(rows.len(), 6, "{p}");
    assert!(
        rows.iter()
            .all(|r| r["tiebreaks"].as_array().unwrap().len() == 2)
    );
    for pair in rows.windows(2) {
        assert!(
            pair[0]["points"].as_f64() >= pair[1]["points"].as_f64(),
            "{p}"
        );
        assert!(pair[0]["rank"].as_u64() <= pair[1]["rank"].as_u64(), "{p}");
    }
    assert_eq!(p["provisional"], false);

    // Every act is in the log with its reason.
    let acts: Vec<&str> = p["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .filter_map(|d| d["decision"]["act"].as_str())
        .collect();
    for act in ["bye", "pause", "result", "late_entry", "pair", "resume"] {
        assert!(acts.contains(&act), "{act} is not logged: {acts:?}");
    }

    // The TRF: every round re-paired by the library from the file as it
    // stood before it gives the same games.
    let (status, text) = download(&server, &path("trf")).await;
    assert_eq!(status, 200);
    let trf = Trf::parse(&text).expect("the download is a TRF");
    assert_eq!(trf.rounds(), Some(3));
    assert_eq!(trf.players().len(), 6);
    for round in 1..=3 {
        let mut again: Vec<(u16, u16)> = repaired(&trf, round)
            .games
            .iter()
            .map(|g| (g.white.get(), g.black.get()))
            .collect();
        again.sort_unstable();
        assert_eq!(
            again,
            games_in(&trf, round),
            "round {round}:\n{}",
            trf.write().unwrap_or_else(|e| e.to_string())
        );
    }

    // The PGN of every game, and the standings as CSV.
    let (status, pgn) = download(&server, &path("pgn")).await;
    assert_eq!(status, 200);
    assert_eq!(pgn.matches("[Event \"Club Swiss\"]").count(), 7, "{pgn}");
    for round in 1..=3 {
        assert!(pgn.contains(&format!("[Round \"{round}\"]")), "{pgn}");
    }
    let (status, csv) = download(&server, &path("standings")).await;
    assert_eq!(status, 200);
    assert!(
        csv.starts_with("place,number,name,rating,points,BH-C1,SB\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 7, "{csv}");
    server.stop().await;
}

#[tokio::test]
async fn c04_3_a_swiss_starts_by_itself_at_its_time_or_is_called_off() {
    let server = TestServer::start().await;
    let td = sign_up(&server, "Arbiter").await;
    appoint(&server, "arbiter");
    let mut sessions = HashMap::new();
    for name in ["Anna", "Boris", "Cyril"] {
        sessions.insert(name, sign_up(&server, name).await);
    }
    let soon = server.shared.clock.now_ms() + 1_500;
    let settings = |name: &str| {
        json!({"name": name, "time_control": "3+2", "system": "swiss", "rounds": 2,
               "starts_at": soon, "entry": {"open": true}})
    };
    let on_time = expect(
        &server,
        &td,
        "/api/tournaments",
        Some(settings("On time")),
        200,
    )
    .await;
    let empty = expect(
        &server,
        &td,
        "/api/tournaments",
        Some(settings("Empty")),
        200,
    )
    .await;
    let (on_time, empty) = (
        on_time["id"].as_str().unwrap().to_owned(),
        empty["id"].as_str().unwrap().to_owned(),
    );
    for session in sessions.values() {
        expect(
            &server,
            session,
            &format!("/api/tournaments/{on_time}/join"),
            None,
            200,
        )
        .await;
    }
    expect(
        &server,
        &sessions["Anna"],
        &format!("/api/tournaments/{empty}/join"),
        None,
        200,
    )
    .await;
    assert_eq!(page(&server, &td, &on_time).await["status"], "created");

    // At its time the server pairs round 1 by itself; the event with one
    // player is called off.
    let p = until(&server, &td, &on_time, |p| p["round"] == 1).await;
    assert!(p["started"].as_u64().is_some_and(|at| at >= soon), "{p}");
    assert_eq!(boards(&p, 1).len(), 1, "{p}");
    assert_eq!(p["pairings"][0]["byes"][0]["kind"], "pairing");
    let p = until(&server, &td, &empty, |p| p["status"] == "finished").await;
    assert_eq!(p["round"], 0, "{p}");
    assert_eq!(p["calledOff"], json!({"by": "too_few_players"}), "{p}");
    assert!(p["games"].as_array().unwrap().is_empty(), "{p}");
    server.stop().await;
}

#[tokio::test]
async fn an_event_not_yet_begun_is_called_off_by_its_director_with_a_reason() {
    let (server, td, id, sessions) = two_players("Called off", json!({})).await;
    let path = format!("/api/tournaments/{id}/cancel");
    // Anna's open page hears of it.
    let mut anna = GameSocket::open_path(&server.host, "/ws/lobby", Some(&sessions["Anna"]))
        .await
        .expect("opens");
    anna.until("hello", WAIT, |_| true).await.expect("hello");
    let why = json!({"reason": "the hall is closed"});
    // Only its director, only with a reason; a refusal changes nothing.
    expect(&server, &sessions["Anna"], &path, Some(why.clone()), 403).await;
    refused(&server, &td, &path, Some(json!({"reason": "  "})), "reason").await;
    refused(&server, &td, &path, None, "cancel").await;
    assert_eq!(page(&server, &td, &id).await["status"], "created");

    let p = expect(&server, &td, &path, Some(why.clone()), 200).await;
    assert_eq!(p["status"], "finished", "{p}");
    assert_eq!(
        p["calledOff"],
        json!({"by": "director", "reason": "the hall is closed"}),
        "{p}"
    );
    // Told and logged with its reason; nothing begins after it, nobody
    // joins, and it is not called off twice.
    let told = "Called off: the hall is closed";
    let p = told_and_logged(&mut anna, &server, &td, &id, "call_off", told).await;
    assert_eq!(p["decisions"][0]["reason"], "the hall is closed", "{p}");
    assert!(p["games"].as_array().unwrap().is_empty(), "{p}");
    let start = format!("/api/tournaments/{id}/start");
    refused(&server, &td, &start, None, "started already").await;
    let late = sign_up(&server, "Cyril").await;
    let join = format!("/api/tournaments/{id}/join");
    refused(&server, &late, &join, None, "finished").await;
    refused(&server, &td, &path, Some(why), "has started").await;
    server.stop().await;
}

#[tokio::test]
async fn the_director_moves_the_start_of_an_event_not_yet_begun() {
    let (server, td, id, sessions) = two_players("Moved", json!({})).await;
    let path = format!("/api/tournaments/{id}/reschedule");
    let now = server.shared.clock.now_ms();
    let later = now + 3_600_000;
    let to = |at: Value| json!({"starts_at": at, "reason": "the hall opens an hour later"});
    // Only its director, only with a reason, only a time ahead within a
    // year; a refusal changes nothing.
    expect(
        &server,
        &sessions["Anna"],
        &path,
        Some(to(json!(later))),
        403,
    )
    .await;
    refused(
        &server,
        &td,
        &path,
        Some(json!({"starts_at": later, "reason": ""})),
        "reason",
    )
    .await;
    for wrong in [
        json!(now - 1),
        json!(now + 400 * 86_400_000_u64),
        json!("tomorrow"),
    ] {
        let (status, answer) = ask_page(&server, &td, "POST", &path, Some(to(wrong.clone()))).await;
        assert_eq!(status, 400, "{wrong}: {answer}");
    }
    assert_eq!(page(&server, &td, &id).await["startsAt"], Value::Null);

    // Set near, then moved later: it does not start at the first time.
    let near = server.shared.clock.now_ms() + 2_000;
    expect(&server, &td, &path, Some(to(json!(near))), 200).await;
    let p = expect(&server, &td, &path, Some(to(json!(later))), 200).await;
    assert_eq!(p["startsAt"], later, "{p}");
    tokio::time::sleep(std::time::Duration::from_millis(3_000)).await;
    assert_eq!(page(&server, &td, &id).await["status"], "created");
    assert_eq!(p["status"], "created", "{p}");
    let p = page(&server, &td, &id).await;
    assert_eq!(p["decisions"][0]["decision"]["act"], "reschedule", "{p}");
    assert_eq!(p["decisions"][0]["decision"]["starts_at"], later, "{p}");
    assert_eq!(
        p["players"].as_array().map(Vec::len),
        Some(2),
        "the entrants stay: {p}"
    );

    // Moved near: the clockwork starts it at the new time.
    let soon = server.shared.clock.now_ms() + 1_500;
    expect(&server, &td, &path, Some(to(json!(soon))), 200).await;
    let p = until(&server, &td, &id, |p| p["round"] == 1).await;
    assert!(p["started"].as_u64().is_some_and(|at| at >= soon), "{p}");
    refused(
        &server,
        &td,
        &path,
        Some(to(Value::Null)),
        "started already",
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn the_director_changes_the_settings_of_an_event_not_yet_begun() {
    let (server, td, id, sessions) = two_players("Club Swiss", json!({})).await;
    let path = format!("/api/tournaments/{id}/settings");
    let mut anna = GameSocket::open_path(&server.host, "/ws/lobby", Some(&sessions["Anna"]))
        .await
        .expect("opens");
    anna.until("hello", WAIT, |_| true).await.expect("hello");
    let settings = json!({"name": "Club Swiss, moved to rapid", "time_control": "10+5",
                          "system": "swiss", "rounds": 3, "entry": {"open": true, "min_rating": 1600},
                          "tiebreaks": ["BH-C1", "SB"], "max_byes": 1, "rated": false});
    let why = |settings: Value| json!({"settings": settings, "reason": "more time to play"});
    // Only its director, only with a reason, every setting checked as at
    // the creation (and named under `settings`), the director not
    // changed here; a refusal changes nothing.
    expect(
        &server,
        &sessions["Anna"],
        &path,
        Some(why(settings.clone())),
        403,
    )
    .await;
    refused(
        &server,
        &td,
        &path,
        Some(json!({"settings": settings, "reason": " "})),
        "reason",
    )
    .await;
    let wrong = |field: &str, value: Value| {
        let mut s = settings.clone();
        s[field] = value;
        s
    };
    for (body, says) in [
        (why(wrong("rounds", json!(0))), "settings.rounds"),
        (why(wrong("max_byes", json!(4))), "settings.max_byes"),
        (
            why(wrong("time_control", json!("ten"))),
            "settings.time_control",
        ),
        (why(wrong("tiebreaks", json!(["XX"]))), "settings.tiebreaks"),
        (why(wrong("director", json!("Anna"))), "settings.director"),
        (why(wrong("colour", json!("white"))), "colour"),
        (json!({"reason": "no settings"}), "settings"),
    ] {
        refused(&server, &td, &path, Some(body), says).await;
    }
    let before = page(&server, &td, &id).await;
    assert_eq!(before["name"], "Club Swiss", "{before}");
    assert_eq!(before["rounds"], 2, "{before}");

    let p = expect(&server, &td, &path, Some(why(settings.clone())), 200).await;
    assert_eq!(p["name"], "Club Swiss, moved to rapid", "{p}");
    assert_eq!(p["timeControl"], "10+5", "{p}");
    assert_eq!(p["rounds"], 3, "{p}");
    assert_eq!(p["rated"], false, "{p}");
    assert_eq!(p["maxByes"], 1, "{p}");
    assert_eq!(p["entry"]["minRating"], 1600, "{p}");
    assert_eq!(p["tiebreaks"], json!(["BH-C1", "SB"]), "{p}");
    assert_eq!(p["status"], "created", "{p}");
    assert_eq!(
        p["players"].as_array().map(Vec::len),
        Some(2),
        "the entrants stay, whatever the new entry conditions: {p}"
    );
    let told = "Club Swiss, moved to rapid: more time to play";
    let p = told_and_logged(&mut anna, &server, &td, &id, "settings", told).await;
    assert_eq!(p["decisions"][0]["reason"], "more time to play", "{p}");

    // The new settings are the event's: it starts as a three-round Swiss
    // at 10+5, and after the start they stay.
    let start = format!("/api/tournaments/{id}/start");
    expect(&server, &td, &start, None, 200).await;
    let p = until(&server, &td, &id, |p| p["round"] == 1).await;
    let game = p["games"][0]["id"].as_str().expect("a game").to_owned();
    let (_, g) = ask_page(&server, &td, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(g["clock"]["control"], "10+5", "{g}");
    assert_eq!(boards(&p, 1).len(), 1, "{p}");
    refused(&server, &td, &path, Some(why(settings)), "started already").await;
    server.stop().await;
}

#[tokio::test]
async fn a_change_of_settings_keeps_no_more_entrants_than_the_new_system_takes() {
    let (server, td, id, _) = two_players("Crowded", json!({})).await;
    // 49 more entrants, as if they had joined: 51, one more than a round
    // robin takes.
    use rochade_server::storage::TournamentStore;
    let storage = support::open(&server.db);
    let mut t = storage.tournament(&id).expect("reads").expect("stored");
    t.players
        .extend((0..49).map(|n| rochade_server::tournaments::Entrant {
            id: 10_000 + n,
            name: format!("Entrant{n}"),
            rating: None,
            from_round: 1,
        }));
    storage.save_tournament(&t).expect("stored");
    let path = format!("/api/tournaments/{id}/settings");
    let to = |settings: Value| json!({"settings": settings, "reason": "everyone meets everyone"});
    let round_robin = json!({"name": "Crowded", "time_control": "3+2"});
    refused(
        &server,
        &td,
        &path,
        Some(to(round_robin)),
        "51 players have entered, more than the 50",
    )
    .await;
    let p = page(&server, &td, &id).await;
    assert_eq!(p["system"], "swiss", "unchanged: {p}");
    // A knockout takes them.
    let knockout = json!({"name": "Crowded", "time_control": "3+2", "system": "knockout",
                          "knockout": {"games": 2, "tie_breaks": [{"kind": "armageddon", "time_control": "5+3"}]}});
    let p = expect(&server, &td, &path, Some(to(knockout)), 200).await;
    assert_eq!(p["system"], "knockout", "{p}");
    server.stop().await;
}

#[tokio::test]
async fn art_6_7_1_a_player_without_a_first_move_by_the_default_time_loses_by_default() {
    let (server, td, id, _) = two_players("Default", json!({"default_secs": 30})).await;
    let p = page(&server, &td, &id).await;
    assert_eq!(p["defaultSecs"], 30, "{p}");
    let p = started(&server, &td, &id).await;
    let game = boards(&p, 1)[0]["game"]
        .as_str()
        .expect("a game")
        .to_owned();
    // The state says how long White has for the first move.
    let (_, g) = ask_page(&server, &td, "GET", &format!("/api/games/{game}"), None).await;
    let due = g["clock"]["default_in"].as_u64().expect("a default time");
    assert!((1..=30_000).contains(&due), "{g}");
    // Nobody moves: a little before the default time the game goes on,
    // at it White has lost by default, a forfeit in the tables.
    server
        .shared
        .advance_clocks(std::time::Duration::from_secs(25));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, g) = ask_page(&server, &td, "GET", &format!("/api/games/{game}"), None).await;
    assert!(g["outcome"].is_null(), "{g}");
    server
        .shared
        .advance_clocks(std::time::Duration::from_secs(6));
    let p = until(&server, &td, &id, |p| {
        p["pairings"][0]["boards"][0]["result"] == "-+"
    })
    .await;
    let (_, g) = ask_page(&server, &td, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(g["outcome"]["result"], "0-1", "{g}");
    assert_eq!(g["outcome"]["reason"], "forfeit", "{g}");
    assert!(g["clock"]["default_in"].is_null(), "{g}");
    assert_eq!(g["ply"], 0, "{g}");
    assert_eq!(p["pairings"][0]["boards"][0]["result"], "-+", "{p}");
    server.stop().await;
}

#[tokio::test]
async fn art_4_7_a_move_made_in_an_unrated_event_is_not_taken_back() {
    let (server, td, id, sessions) = two_players("Friendly", json!({"rated": false})).await;
    let p = started(&server, &td, &id).await;
    let board = &boards(&p, 1)[0];
    let game = board["game"].as_str().expect("a game");
    let name = board["white"]["name"].as_str().expect("White");
    let token = seat(&server, &sessions[name], game).await;
    let mut white = GameSocket::connect(&server.host, game, &token)
        .await
        .expect("connects");
    white
        .send(&json!({"t": "move", "ply": 0, "uci": "e2e4"}))
        .await
        .expect("sends");
    white.state(WAIT, |s| s["ply"] == 1).await.expect("1. e4");
    refused_saying(
        &mut white,
        &json!({"t": "takeback", "action": "request"}),
        "casual games only",
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn the_entrants_of_a_live_event_are_reminded_five_minutes_before_its_start() {
    let server = TestServer::start().await;
    let starts = server.shared.clock.now_ms() + 10 * 60_000;
    let (server, td, id, sessions) =
        two_players_on(server, "Evening Swiss", json!({"starts_at": starts})).await;
    let mut anna = GameSocket::open_path(&server.host, "/ws/lobby", Some(&sessions["Anna"]))
        .await
        .expect("opens");
    anna.until("hello", WAIT, |_| true).await.expect("hello");
    // Six minutes before: nothing yet.
    server
        .shared
        .advance_clocks(std::time::Duration::from_secs(4 * 60));
    let early = anna
        .until("news", std::time::Duration::from_millis(500), |m| {
            m["news"]["notice"]["kind"] == "tournament_soon"
        })
        .await;
    assert!(early.is_err(), "not yet: {early:?}");
    // Five minutes before: told once, with the moment.
    server
        .shared
        .advance_clocks(std::time::Duration::from_secs(60));
    let told = anna
        .until("news", WAIT, |m| {
            m["news"]["notice"]["kind"] == "tournament_soon"
        })
        .await
        .expect("reminded");
    assert_eq!(told["news"]["notice"]["tournament"], id.as_str(), "{told}");
    assert_eq!(told["news"]["notice"]["starts_at"], starts, "{told}");
    assert_eq!(told["news"]["notice"]["name"], "Evening Swiss", "{told}");
    server
        .shared
        .advance_clocks(std::time::Duration::from_secs(60));
    let again = anna
        .until("news", std::time::Duration::from_millis(500), |m| {
            m["news"]["notice"]["kind"] == "tournament_soon"
        })
        .await;
    assert!(again.is_err(), "told once: {again:?}");
    assert_eq!(page(&server, &td, &id).await["status"], "created");
    server.stop().await;
}

#[tokio::test]
async fn the_default_time_is_checked_and_none_by_correspondence() {
    let server = TestServer::start().await;
    let td = sign_up(&server, "Arbiter").await;
    appoint(&server, "arbiter");
    let made = |extra: Value| {
        let mut body = json!({"name": "Defaults", "time_control": "10+5", "system": "swiss",
                              "rounds": 3});
        for (k, v) in extra.as_object().expect("fields") {
            body[k] = v.clone();
        }
        body
    };
    for (extra, says) in [
        (json!({"default_secs": 5}), "default_secs: 10 to 3600"),
        (json!({"default_secs": 7200}), "default_secs: 10 to 3600"),
        (
            json!({"default_secs": 60, "time_control": "3d/move", "system": "round_robin", "rounds": null}),
            "default_secs: a correspondence game has no default time",
        ),
    ] {
        refused(&server, &td, "/api/tournaments", Some(made(extra)), says).await;
    }
    for (extra, shown) in [
        (json!({}), json!(60)),
        (json!({"default_secs": 0}), Value::Null),
        (json!({"default_secs": 900}), json!(900)),
    ] {
        let t = expect(
            &server,
            &td,
            "/api/tournaments",
            Some(made(extra.clone())),
            200,
        )
        .await;
        assert_eq!(t["defaultSecs"], shown, "{extra}: {t}");
    }
    server.stop().await;
}

/// Starts event `id` as its director `td`; its page once round 1's first
/// game is made.
async fn started(server: &TestServer, td: &str, id: &str) -> Value {
    let start = format!("/api/tournaments/{id}/start");
    expect(server, td, &start, None, 200).await;
    until(server, td, id, |p| {
        p["pairings"][0]["boards"][0]["started"] == true
    })
    .await
}

/// Waits until `entrant`'s open page is told of the director's `act`
/// (the notice saying `told`) and checks that the event's log holds it
/// last; the event's page.
async fn told_and_logged(
    entrant: &mut GameSocket,
    server: &TestServer,
    td: &str,
    id: &str,
    act: &str,
    told: &str,
) -> Value {
    let news = entrant
        .until("news", WAIT, |m| m["news"]["notice"]["act"] == act)
        .await
        .expect("the entrant is told");
    assert_eq!(news["news"]["notice"]["reason"], told, "{news}");
    let p = page(server, td, id).await;
    assert_eq!(p["decisions"][0]["decision"]["act"], act, "{p}");
    p
}

/// A server with a site director (the session) and an open two-round
/// Swiss of 3+2 named `name` with `settings` added, joined by Anna and
/// Boris (their sessions by name).
async fn two_players(
    name: &str,
    settings: Value,
) -> (TestServer, String, String, HashMap<String, String>) {
    two_players_on(TestServer::start().await, name, settings).await
}

/// [`two_players`] on `server`.
async fn two_players_on(
    server: TestServer,
    name: &str,
    settings: Value,
) -> (TestServer, String, String, HashMap<String, String>) {
    let td = sign_up(&server, "Arbiter").await;
    appoint(&server, "arbiter");
    let mut body = json!({"name": name, "time_control": "3+2", "system": "swiss", "rounds": 2,
                          "entry": {"open": true}});
    for (k, v) in settings.as_object().expect("settings") {
        body[k] = v.clone();
    }
    let made = expect(&server, &td, "/api/tournaments", Some(body), 200).await;
    let id = made["id"].as_str().expect("id").to_owned();
    let mut sessions = HashMap::new();
    for player in ["Anna", "Boris"] {
        let session = sign_up(&server, player).await;
        let path = format!("/api/tournaments/{id}/join");
        expect(&server, &session, &path, None, 200).await;
        sessions.insert(player.to_owned(), session);
    }
    (server, td, id, sessions)
}

#[tokio::test]
async fn a_round_stored_before_its_games_were_made_gets_them_after_a_restart() {
    let (server, _, id, _) = two_players("Restart", json!({})).await;
    let db = server.db.clone();
    server.stop().await;

    // As if the server stopped between storing round 1 and making its
    // game: the round is there, the game is not.
    let storage = support::open(&db);
    use rochade_server::storage::TournamentStore;
    let mut t = storage.tournament(&id).expect("reads").expect("stored");
    let [anna, boris] = [t.players[0].id, t.players[1].id];
    t.started = Some(1);
    t.rounds.push(rochade_server::tournaments::Round {
        started: 1,
        boards: vec![rochade_server::tournaments::Board {
            white: anna,
            black: boris,
            game: Some("restart1".into()),
            result: None,
        }],
        byes: Vec::new(),
        finished: None,
    });
    storage.save_tournament(&t).expect("stored");
    drop(storage);

    let server = TestServer::start_with(db).await;
    let td = sign_up(&server, "Watcher").await;
    let p = until(&server, &td, &id, |p| {
        p["games"].as_array().is_some_and(|g| g.len() == 1)
    })
    .await;
    assert_eq!(p["games"][0]["id"], "restart1", "{p}");
    assert_eq!(p["games"][0]["white"], "Anna", "{p}");
    assert_eq!(p["round"], 1, "not paired again: {p}");
    server.stop().await;
}

#[tokio::test]
async fn c04_3_a_round_that_cannot_be_paired_holds_the_event_with_the_reason() {
    let (server, td, id, sessions) = two_players("Two", json!({"break_secs": 0})).await;
    let p = started(&server, &td, &id).await;
    finish(&server, &sessions, &p["pairings"][0]["boards"][0], "1-0").await;
    // Two players who have met may not meet again (C.04.3 C1): round 2
    // has no pairing; the event is held and says why.
    let p = until(&server, &td, &id, |p| p["paused"] == true).await;
    let problem = p["problem"].as_str().expect("a reason");
    assert!(problem.starts_with("round 2 could not be paired"), "{p}");
    assert_eq!(p["round"], 1, "{p}");
    server.stop().await;
}
