//! Simultaneous exhibitions end to end over HTTP and the game sockets: a
//! host and three players apply, are accepted and play; the host's page
//! shows every board and which wait for the host; at the end every
//! board's result and PGN. Bad requests answer a typed error and change
//! nothing.

mod support;

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use rochade_loadtest::client::GameSocket;
use rochade_server::storage::SimulStore;
use serde_json::{Value, json};
use support::{TestServer, WAIT, ask_page, play, sign_up};
use tower::ServiceExt;

/// The seat token in a board's link `/g/{id}#{token}`.
fn token(board: &Value) -> String {
    let url = board["url"].as_str().expect("a link");
    url.split_once('#').expect("a token").1.to_owned()
}

/// The socket of the seat in `board`'s link, past its first state.
async fn seat(server: &TestServer, board: &Value) -> GameSocket {
    let game = board["game"].as_str().expect("game");
    let mut socket = GameSocket::connect(&server.host, game, &token(board))
        .await
        .expect("connects");
    socket.state(WAIT, |_| true).await.expect("first state");
    socket
}

/// Plays `uci` answering ply `ply` on `socket` and waits for it.
async fn moves(socket: &mut GameSocket, ply: usize, uci: &str) -> Value {
    play(socket, ply, uci).await;
    socket
        .state(WAIT, |s| s["ply"] == ply + 1)
        .await
        .expect("the move is acknowledged")
}

/// `GET path` through the app; the status and the body as text.
async fn text(server: &TestServer, path: &str) -> (u16, String) {
    let app = rochade_server::app(server.shared.clone());
    let request = Request::get(path).body(Body::empty()).expect("request");
    let response = app.oneshot(request).await.expect("answers");
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// The four accounts and their sessions: a host and three players.
struct People {
    server: TestServer,
    host: String,
    ann: String,
    ben: String,
    cy: String,
}

async fn people() -> People {
    let server = TestServer::start().await;
    let host = sign_up(&server, "Judit").await;
    let ann = sign_up(&server, "Ann").await;
    let ben = sign_up(&server, "Ben").await;
    let cy = sign_up(&server, "Cy").await;
    People {
        server,
        host,
        ann,
        ben,
        cy,
    }
}

impl People {
    /// The host creates a simul with `settings`; its id.
    async fn create(&self, settings: Value) -> String {
        let (status, made) = ask_page(
            &self.server,
            &self.host,
            "POST",
            "/api/simuls",
            Some(settings),
        )
        .await;
        assert_eq!(status, 201, "{made}");
        made["id"].as_str().expect("id").to_owned()
    }

    /// `POST /api/simuls/{id}/{step}` as `session`.
    async fn step(&self, session: &str, id: &str, step: &str, body: Option<Value>) -> (u16, Value) {
        ask_page(
            &self.server,
            session,
            "POST",
            &format!("/api/simuls/{id}/{step}"),
            body,
        )
        .await
    }

    /// The simul as `session` sees it.
    async fn show(&self, session: &str, id: &str) -> Value {
        let (status, simul) = ask_page(
            &self.server,
            session,
            "GET",
            &format!("/api/simuls/{id}"),
            None,
        )
        .await;
        assert_eq!(status, 200, "{simul}");
        simul
    }
}

#[tokio::test]
async fn a_host_plays_three_boards_from_the_applications_to_every_pgn() {
    let p = people().await;
    let id = p
        .create(json!({
            "name": "Friday simul",
            "time_control": "5+3",
            "host_extra_time": 60,
            "host_extra_time_per_player": 10,
            "host_color": "white",
        }))
        .await;
    for session in [&p.ann, &p.ben, &p.cy] {
        let (status, answer) = p.step(session, &id, "apply", None).await;
        assert_eq!(status, 200, "{answer}");
    }
    for name in ["Ann", "ben", "Cy"] {
        let (status, answer) = p
            .step(&p.host, &id, "accept", Some(json!({"name": name})))
            .await;
        assert_eq!(status, 200, "{answer}");
    }
    let waiting = p.show(&p.ann, &id).await;
    assert_eq!(waiting["status"], "created");
    assert_eq!(waiting["hostClockExtra"], 90, "60 s and 10 s a player");
    let (status, started) = p.step(&p.host, &id, "start", None).await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["games"].as_array().expect("games").len(), 3);

    // The host's page: every board, each with the host's own seat, every
    // one waiting for the host (White); 5 minutes and 90 s on the host's clock.
    let simul = p.show(&p.host, &id).await;
    assert_eq!(simul["status"], "started");
    let boards = simul["boards"].as_array().expect("boards").clone();
    let players: Vec<&str> = boards.iter().filter_map(|b| b["player"].as_str()).collect();
    assert_eq!(players, ["Ann", "Ben", "Cy"]);
    assert_eq!(simul["waiting"], json!([1, 2, 3]));
    for board in &boards {
        assert_eq!(board["you"], "white", "{board}");
        assert_eq!(board["hostColor"], "white");
        let white = board["clock"]["white"].as_u64().expect("a clock");
        assert!((380_000..=390_000).contains(&white), "{board}");
        assert_eq!(board["clock"]["black"], 300_000, "{board}");
    }
    // A player sees their own seat only.
    let anns = p.show(&p.ann, &id).await;
    assert_eq!(anns["boards"][0]["you"], "black");
    assert!(anns["boards"][1]["you"].is_null());
    assert!(
        !anns["boards"][1]["url"]
            .as_str()
            .expect("url")
            .contains('#')
    );
    let ann_board = anns["boards"][0].clone();
    let ben_board = p.show(&p.ben, &id).await["boards"][1].clone();
    let cy_board = p.show(&p.cy, &id).await["boards"][2].clone();

    let mut host: Vec<GameSocket> = Vec::new();
    for board in &boards {
        host.push(seat(&p.server, board).await);
    }
    let mut ann = seat(&p.server, &ann_board).await;
    let mut ben = seat(&p.server, &ben_board).await;
    let mut cy = seat(&p.server, &cy_board).await;

    // The host moves on board 1: it waits no more, the others still do.
    moves(&mut host[0], 0, "e2e4").await;
    assert_eq!(p.show(&p.host, &id).await["waiting"], json!([2, 3]));
    moves(&mut ann, 1, "e7e5").await;
    assert_eq!(p.show(&p.host, &id).await["waiting"], json!([1, 2, 3]));

    // Board 1: the scholar's mate, 1-0.
    for (ply, uci) in [(2, "d1h5"), (4, "f1c4"), (6, "h5f7")] {
        moves(&mut host[0], ply, uci).await;
        if ply < 6 {
            let answer = if ply == 2 { "b8c6" } else { "g8f6" };
            moves(&mut ann, ply + 1, answer).await;
        }
    }
    // Board 2: the fool's mate, 0-1.
    for (ply, uci) in [(0, "f2f3"), (2, "g2g4")] {
        moves(&mut host[1], ply, uci).await;
        moves(&mut ben, ply + 1, if ply == 0 { "e7e5" } else { "d8h4" }).await;
    }
    // Board 3: Cy resigns after the host's first move, 1-0 (5.1.2).
    moves(&mut host[2], 0, "d2d4").await;
    cy.send(&json!({"t": "resign"})).await.expect("sends");
    cy.state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("over");

    let done = p.show(&p.host, &id).await;
    assert_eq!(done["status"], "finished", "{done}");
    assert!(done["finished"].as_u64().is_some());
    assert_eq!(done["waiting"], json!([]));
    let results: Vec<&str> = done["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .filter_map(|b| b["result"].as_str())
        .collect();
    assert_eq!(results, ["1-0", "0-1", "1-0"]);

    let (status, pgn) = text(&p.server, &format!("/api/simuls/{id}/pgn")).await;
    assert_eq!(status, 200);
    assert_eq!(pgn.matches("[Event \"Friday simul\"]").count(), 3, "{pgn}");
    assert_eq!(pgn.matches("[White \"Judit\"]").count(), 3, "{pgn}");
    for (black, result) in [("Ann", "1-0"), ("Ben", "0-1"), ("Cy", "1-0")] {
        assert!(pgn.contains(&format!("[Black \"{black}\"]")), "{pgn}");
        assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");
    }
    assert!(pgn.contains("Qxf7#") && pgn.contains("Qh4#"), "{pgn}");
    // The boards in order: Ann's before Ben's before Cy's.
    let at = |name: &str| pgn.find(&format!("[Black \"{name}\"]")).expect("there");
    assert!(at("Ann") < at("Ben") && at("Ben") < at("Cy"));
    p.server.stop().await;
}

#[tokio::test]
async fn the_host_may_play_black_and_boards_may_start_from_chess960_or_a_position() {
    let p = people().await;
    let id = p
        .create(
            json!({"name": "960", "time_control": "3+2", "host_color": "black", "chess960": 518}),
        )
        .await;
    p.step(&p.ann, &id, "apply", None).await;
    p.step(&p.host, &id, "accept", Some(json!({"name": "Ann"})))
        .await;
    let (status, _) = p.step(&p.host, &id, "start", None).await;
    assert_eq!(status, 200);
    let board = p.show(&p.host, &id).await["boards"][0].clone();
    assert_eq!(board["you"], "black");
    assert_eq!(board["chess960"], 518);
    assert_eq!(
        p.show(&p.host, &id).await["waiting"],
        json!([]),
        "White (Ann) moves first"
    );
    // No extra time asked: even clocks.
    assert_eq!(board["clock"]["black"], 180_000, "{board}");

    let fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1";
    let id = p
        .create(
            json!({"name": "Endgame", "time_control": "1+0", "fen": fen, "host_extra_time": 30}),
        )
        .await;
    p.step(&p.ben, &id, "apply", None).await;
    p.step(&p.host, &id, "accept", Some(json!({"name": "Ben"})))
        .await;
    p.step(&p.host, &id, "start", None).await;
    let board = p.show(&p.ben, &id).await["boards"][0].clone();
    assert_eq!(board["fen"], fen);
    assert_eq!(board["you"], "black");
    p.server.stop().await;
}

/// The error code of an answer.
fn code(answer: &Value) -> &str {
    answer["error"]["code"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn bad_input_answers_a_typed_error_and_changes_nothing() {
    let p = people().await;
    // Unknown simul.
    let (status, answer) = ask_page(&p.server, &p.ann, "GET", "/api/simuls/nosuch", None).await;
    assert_eq!((status, code(&answer)), (404, "not_found"));
    for step in ["apply", "withdraw", "start", "cancel"] {
        let (status, answer) = p.step(&p.host, "nosuch", step, None).await;
        assert_eq!((status, code(&answer)), (404, "not_found"), "{step}");
    }
    // Bad settings, each naming its field.
    for (settings, field) in [
        (json!({"name": " ", "time_control": "5+3"}), "name"),
        (
            json!({"name": "S", "time_control": "3d/move"}),
            "time_control",
        ),
        (json!({"name": "S", "time_control": "-"}), "time_control"),
        (
            json!({"name": "S", "time_control": "5+3", "host_extra_time": 3601}),
            "host_extra_time",
        ),
        (
            json!({"name": "S", "time_control": "5+3", "host_extra_time_per_player": 61}),
            "host_extra_time_per_player",
        ),
        (
            json!({"name": "S", "time_control": "5+3", "host_color": "purple"}),
            "host_color",
        ),
        (
            json!({"name": "S", "time_control": "5+3", "chess960": 960}),
            "chess960",
        ),
        (
            json!({"name": "S", "time_control": "5+3", "chess960": 3, "fen": "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"}),
            "fen",
        ),
        (
            json!({"name": "S", "time_control": "5+3", "fen": "not a position"}),
            "fen",
        ),
        (
            json!({"name": "S", "time_control": "5+3", "boards": 3}),
            "boards",
        ),
    ] {
        let (status, answer) = ask_page(
            &p.server,
            &p.host,
            "POST",
            "/api/simuls",
            Some(settings.clone()),
        )
        .await;
        assert_eq!(
            (status, code(&answer)),
            (400, "bad_request"),
            "{settings}: {answer}"
        );
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(field), "{settings}: {message}");
    }
    let (_, list) = ask_page(&p.server, &p.host, "GET", "/api/simuls", None).await;
    assert_eq!(list["simuls"], json!([]), "nothing was created");

    let id = p
        .create(json!({"name": "Simul", "time_control": "5+3"}))
        .await;
    // One waiting simul per host.
    let (status, answer) = ask_page(
        &p.server,
        &p.host,
        "POST",
        "/api/simuls",
        Some(json!({"name": "Another", "time_control": "5+3"})),
    )
    .await;
    assert_eq!((status, code(&answer)), (400, "not_allowed"), "{answer}");
    p.step(&p.ann, &id, "apply", None).await;
    let before = p.show(&p.host, &id).await;
    let refusals = [
        // Accepting someone who did not apply.
        (
            &p.host,
            "accept",
            Some(json!({"name": "Ben"})),
            404,
            "not_found",
        ),
        (
            &p.host,
            "reject",
            Some(json!({"name": "Nobody"})),
            404,
            "not_found",
        ),
        // A bad body.
        (
            &p.host,
            "accept",
            Some(json!({"who": "Ann"})),
            400,
            "bad_request",
        ),
        // A non-host acting.
        (
            &p.ann,
            "accept",
            Some(json!({"name": "Ann"})),
            403,
            "forbidden",
        ),
        (&p.ben, "start", None, 403, "forbidden"),
        (&p.ben, "cancel", None, 403, "forbidden"),
        // The host applying, twice applying, withdrawing without applying.
        (&p.host, "apply", None, 400, "not_allowed"),
        (&p.ann, "apply", None, 400, "not_allowed"),
        (&p.ben, "withdraw", None, 404, "not_found"),
        // Starting with nobody accepted.
        (&p.host, "start", None, 400, "not_allowed"),
    ];
    for (session, step, body, status, expected) in &refusals {
        let (got, answer) = p.step(session, &id, step, body.clone()).await;
        assert_eq!(
            (got, code(&answer)),
            (*status, *expected),
            "{step}: {answer}"
        );
    }
    assert_eq!(p.show(&p.host, &id).await, before, "nothing changed");
    let (status, answer) = ask_page(
        &p.server,
        &p.host,
        "GET",
        &format!("/api/simuls/{id}/pgn"),
        None,
    )
    .await;
    assert_eq!(
        (status, code(&answer)),
        (400, "not_allowed"),
        "no boards yet"
    );

    // Too many boards: 40 accepted already (stored as such), one more is refused.
    let storage = support::open(&p.server.db);
    let mut full = storage.simul(&id).expect("reads").expect("there");
    for i in 0..rochade_server::simuls::MAX_BOARDS {
        full.applicants.push(rochade_server::simuls::Applicant {
            player: rochade_server::simuls::Entrant {
                id: 1000 + i as i64,
                name: format!("p{i}"),
            },
            accepted: true,
            at: 0,
        });
    }
    let from = full.revision;
    full.revision += 1;
    assert!(storage.update_simul(&full, from).expect("stores"));
    // A stale revision is not stored over.
    assert!(!storage.update_simul(&full, from).expect("reads"));
    let before = p.show(&p.host, &id).await;
    let (status, answer) = p
        .step(&p.host, &id, "accept", Some(json!({"name": "Ann"})))
        .await;
    assert_eq!((status, code(&answer)), (400, "not_allowed"), "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("at most 40 boards")
    );
    assert_eq!(p.show(&p.host, &id).await, before, "nothing changed");
    // Back to Ann alone, accepted; started once, not twice.
    let mut one = storage.simul(&id).expect("reads").expect("there");
    one.applicants.retain(|a| a.player.name == "Ann");
    let from = one.revision;
    one.revision += 1;
    assert!(storage.update_simul(&one, from).expect("stores"));
    p.step(&p.host, &id, "accept", Some(json!({"name": "Ann"})))
        .await;
    let (status, _) = p.step(&p.host, &id, "start", None).await;
    assert_eq!(status, 200);
    let started = p.show(&p.host, &id).await;
    for (session, step, body) in [
        (&p.host, "start", None),
        (&p.host, "cancel", None),
        (&p.ann, "withdraw", None),
        (&p.ben, "apply", None),
        (&p.host, "accept", Some(json!({"name": "Ann"}))),
    ] {
        let (status, answer) = p.step(session, &id, step, body).await;
        assert_eq!(
            (status, code(&answer)),
            (400, "not_allowed"),
            "{step}: {answer}"
        );
    }
    let games = |simul: &Value| -> Vec<Value> {
        simul["boards"]
            .as_array()
            .expect("boards")
            .iter()
            .map(|b| b["game"].clone())
            .collect()
    };
    assert_eq!(
        games(&p.show(&p.host, &id).await),
        games(&started),
        "the same boards"
    );
    assert_eq!(
        p.server
            .shared
            .storage
            .simul_games(&id)
            .expect("reads")
            .len(),
        1,
        "one game, not two"
    );
    // A cancelled simul refuses everything after.
    let id = p
        .create(json!({"name": "Off", "time_control": "5+3"}))
        .await;
    let (status, _) = p.step(&p.host, &id, "cancel", None).await;
    assert_eq!(status, 200);
    let (status, answer) = p.step(&p.ann, &id, "apply", None).await;
    assert_eq!((status, code(&answer)), (400, "not_allowed"), "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("cancelled")
    );
    p.server.stop().await;
}
