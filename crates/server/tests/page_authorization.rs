//! Every acting endpoint of the page and every socket message, tried as
//! each kind of asker: the owner, the opponent, a spectator, another
//! signed-in player, an anonymous visitor and a lichess token (which never
//! authorizes the page's endpoints, whatever its scopes). Exactly the
//! allowed ones work, and a refused request changes nothing. The
//! lichess-compatible API's own table is `authorization.rs`.

mod support;

use rochade_loadtest::client::{GameSocket, request};
use serde_json::{Value, json};
use support::{TestServer, WAIT, sign_up};

/// Who asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    /// The one whose thing it is (the challenger, the seek's owner, White).
    Owner,
    /// The other player (the challenged, Black).
    Opponent,
    /// Another signed-in player.
    Other,
    /// Nobody signed in.
    Anonymous,
    /// A lichess token with every scope, sent as `Authorization: Bearer`.
    Token,
}

const EVERYONE: [Who; 5] = [
    Who::Owner,
    Who::Opponent,
    Who::Other,
    Who::Anonymous,
    Who::Token,
];

/// The askers: Alice (owner), Bob (opponent), Carol (another), and a token
/// of Alice's.
struct Askers {
    server: TestServer,
    alice: String,
    bob: String,
    carol: String,
    token: String,
}

async fn askers() -> Askers {
    let server = TestServer::start().await;
    let (alice, bob, carol) = (
        sign_up(&server, "Alice").await,
        sign_up(&server, "Bob").await,
        sign_up(&server, "Carol").await,
    );
    let storage = support::open(&server.db);
    let token = rochade_server::accounts::admin::create_token(
        &storage,
        "alice",
        "board:play,bot:play,challenge:read,challenge:write",
        "",
    )
    .expect("a token");
    Askers {
        server,
        alice,
        bob,
        carol,
        token,
    }
}

impl Askers {
    /// The session of `who`, if signed in.
    fn session(&self, who: Who) -> Option<&str> {
        match who {
            Who::Owner => Some(self.alice.as_str()),
            Who::Opponent => Some(self.bob.as_str()),
            Who::Other => Some(self.carol.as_str()),
            Who::Anonymous | Who::Token => None,
        }
    }

    /// `method path` with a JSON `body` as `who`; the status and JSON.
    async fn ask(&self, who: Who, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let session = self.session(who);
        if who == Who::Token {
            support::bearer(&self.server.host, method, path, body.as_ref(), &self.token).await
        } else {
            let a = request(&self.server.host, method, path, body.as_ref(), session)
                .await
                .expect("answers");
            (a.status, a.json)
        }
    }

    /// Alice's challenge to Bob; its id.
    async fn challenge(&self) -> String {
        let terms = json!({"time_control": "5+3", "color": "white"});
        let (status, body) = self
            .ask(
                Who::Owner,
                "POST",
                "/api/account/challenge/bob",
                Some(terms),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body["id"].as_str().expect("id").to_owned()
    }

    /// The lobby socket of `who`, past its hello.
    async fn lobby(&self, who: Who) -> GameSocket {
        let mut socket = GameSocket::open_path(&self.server.host, "/ws/lobby", self.session(who))
            .await
            .expect("opens");
        socket.until("hello", WAIT, |_| true).await.expect("hello");
        socket
    }
}

#[tokio::test]
async fn challenges_from_the_page_answer_only_to_their_players() {
    let a = askers().await;
    let id = a.challenge().await;
    // (action, body, who may)
    let table: [(&str, Option<Value>, &[Who]); 3] = [
        ("accept", None, &[Who::Opponent]),
        (
            "decline",
            Some(json!({"reason": "later"})),
            &[Who::Opponent],
        ),
        ("cancel", None, &[Who::Owner]),
    ];
    for (action, body, allowed) in &table {
        for who in EVERYONE {
            if allowed.contains(&who) {
                continue;
            }
            let path = format!("/api/account/challenge/{id}/{action}");
            let (status, answer) = a.ask(who, "POST", &path, body.clone()).await;
            let expected = match who {
                Who::Anonymous | Who::Token => 401,
                _ => 404,
            };
            assert_eq!(status, expected, "{action} as {who:?}: {answer}");
        }
    }
    // Nothing changed: each allowed asker still can (the first on this
    // challenge, the others on fresh ones).
    for (action, who, expected) in [
        ("decline", Who::Opponent, 204),
        ("cancel", Who::Owner, 204),
        ("accept", Who::Opponent, 200),
    ] {
        let id = if action == "decline" {
            id.clone()
        } else {
            a.challenge().await
        };
        let path = format!("/api/account/challenge/{id}/{action}");
        let (status, body) = a.ask(who, "POST", &path, None).await;
        assert_eq!(status, expected, "{action}: {body}");
    }
    // Making a challenge and reading one's lists need a session.
    for who in EVERYONE {
        let terms = json!({"time_control": "5+3"});
        let (status, _) = a
            .ask(who, "POST", "/api/account/challenge/bob", Some(terms))
            .await;
        let expected = match who {
            Who::Owner | Who::Other => 201,
            Who::Opponent => 400, // oneself
            Who::Anonymous | Who::Token => 401,
        };
        assert_eq!(status, expected, "challenge as {who:?}");
        for path in ["/api/account/games", "/api/account/challenges"] {
            let (status, _) = a.ask(who, "GET", path, None).await;
            let expected = if matches!(who, Who::Anonymous | Who::Token) {
                401
            } else {
                200
            };
            assert_eq!(status, expected, "{path} as {who:?}");
        }
    }
    a.server.stop().await;
}

#[tokio::test]
async fn seeks_answer_only_to_whom_they_are_for() {
    let a = askers().await;
    let mut owner = a.lobby(Who::Owner).await;
    let mut watcher = a.lobby(Who::Anonymous).await;
    owner
        .send(&json!({"t": "seek", "time_control": "3+2"}))
        .await
        .expect("sends");
    let id = owner.until("seek_ok", WAIT, |_| true).await.expect("open")["id"]
        .as_str()
        .expect("id")
        .to_owned();
    // Over the socket: a visitor may neither seek, cancel nor accept;
    // another player may not cancel; the owner may not accept.
    for (who, message, code) in [
        (
            Who::Anonymous,
            json!({"t": "seek", "time_control": "3+2"}),
            "unauthorized",
        ),
        (
            Who::Anonymous,
            json!({"t": "cancel", "id": id}),
            "unauthorized",
        ),
        (
            Who::Anonymous,
            json!({"t": "accept", "id": id}),
            "unauthorized",
        ),
        (Who::Other, json!({"t": "cancel", "id": id}), "not_found"),
        (Who::Owner, json!({"t": "accept", "id": id}), "not_allowed"),
    ] {
        let mut socket = if who == Who::Anonymous {
            GameSocket::open_path(&a.server.host, "/ws/lobby", None)
                .await
                .expect("opens")
        } else {
            a.lobby(who).await
        };
        socket.send(&message).await.expect("sends");
        let error = socket
            .until("error", WAIT, |_| true)
            .await
            .expect("refused");
        assert_eq!(error["code"], code, "{who:?} {message}");
    }
    // Over HTTP: only another signed-in player may accept.
    let path = format!("/api/lobby/seeks/{id}/accept");
    for (who, expected) in [(Who::Owner, 400), (Who::Anonymous, 401), (Who::Token, 401)] {
        let (status, body) = a.ask(who, "POST", &path, None).await;
        assert_eq!(status, expected, "accept as {who:?}: {body}");
    }
    // None of that touched it.
    let listed = watcher
        .until("seeks", WAIT, |m| {
            m["seeks"].as_array().is_some_and(|s| s.len() == 1)
        })
        .await
        .expect("still open");
    assert_eq!(listed["seeks"][0]["id"], id.as_str());
    let (status, body) = a.ask(Who::Other, "POST", &path, None).await;
    assert_eq!(status, 200, "{body}");
    a.server.stop().await;
}

#[tokio::test]
async fn only_the_seat_holders_act_by_socket_in_a_game_between_accounts() {
    let a = askers().await;
    let id = a.challenge().await;
    let (_, accepted) = a
        .ask(
            Who::Opponent,
            "POST",
            &format!("/api/account/challenge/{id}/accept"),
            None,
        )
        .await;
    let game = accepted["game"].as_str().expect("game").to_owned();
    let black = accepted["url"]
        .as_str()
        .expect("url")
        .split_once('#')
        .expect("#")
        .1
        .to_owned();
    let (_, games) = a.ask(Who::Owner, "GET", "/api/account/games", None).await;
    let white = games["games"][0]["url"]
        .as_str()
        .expect("url")
        .split_once('#')
        .expect("#")
        .1
        .to_owned();
    let other = a
        .server
        .create(json!({"opponent": "local", "time_control": "-"}))
        .await;
    let wrong = other["token"].as_str().expect("token").to_owned();
    // Every message that acts, as each asker who holds no seat: a
    // spectator (no token), another game's token. The session cookie of
    // a signed-in player never stands for a seat token.
    let acts = [
        json!({"t": "move", "ply": 0, "uci": "e2e4"}),
        json!({"t": "resign"}),
        json!({"t": "abort"}),
        json!({"t": "draw", "action": "offer"}),
        json!({"t": "takeback", "action": "request"}),
        json!({"t": "claim", "kind": "threefold"}),
        json!({"t": "rematch", "action": "offer"}),
        json!({"t": "chat", "text": "hello"}),
        json!({"t": "claim_victory"}),
        json!({"t": "conditional", "lines": ["e5 Nf3"]}),
        json!({"t": "tablebase_claim", "claim": "win"}),
        json!({"t": "berserk"}),
    ];
    for token in ["", wrong.as_str()] {
        let (mut socket, first) = a.server.connect(&json!({"game": game}), token).await;
        assert_eq!(first["you"], "spectator");
        for act in &acts {
            socket.send(act).await.expect("sends");
            let error = socket
                .until("error", WAIT, |_| true)
                .await
                .expect("refused");
            assert_eq!(error["code"], "spectator", "{act} with token {token:?}");
        }
    }
    // Black may not move for White.
    let (mut b, _) = a.server.connect(&json!({"game": game}), &black).await;
    b.send(&acts[0]).await.expect("sends");
    let error = b.until("error", WAIT, |_| true).await.expect("refused");
    assert_ne!(error["code"], "spectator");
    // Nothing changed; White's move is played.
    let (mut w, first) = a.server.connect(&json!({"game": game}), &white).await;
    assert_eq!(first["ply"], 0);
    assert_eq!(first["you"], "white");
    w.send(&acts[0]).await.expect("sends");
    w.state(WAIT, |s| s["ply"] == 1).await.expect("played");
    a.server.stop().await;
}

#[tokio::test]
async fn bad_bodies_name_the_field_and_change_nothing() {
    let a = askers().await;
    let path = "/api/account/challenge/bob";
    for (body, field) in [
        (json!({"time_control": "5+3", "rated": "yes"}), "rated"),
        (json!({"rated": true}), "time_control"),
        (json!({"time_control": "5+3", "colour": "white"}), "colour"),
        (json!({"time_control": "5+3", "color": "green"}), "color"),
        (json!({"time_control": "5+3", "chess960": 518}), "chess960"),
        (json!({"time_control": "x".repeat(100)}), "time_control"),
        (
            json!({"time_control": "5+3", "note": "y".repeat(100_000)}),
            "note",
        ),
    ] {
        let (status, answer) = a.ask(Who::Owner, "POST", path, Some(body.clone())).await;
        assert!(status == 400 || status == 413, "{body}: {status} {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            status == 413 || message.contains(field),
            "{field}: {answer}"
        );
    }
    let decline = json!({"reason": 7});
    let (status, answer) = a
        .ask(
            Who::Opponent,
            "POST",
            "/api/account/challenge/x/decline",
            Some(decline),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("decline")
    );
    // None of them made a challenge.
    let (_, open) = a
        .ask(Who::Opponent, "GET", "/api/account/challenges", None)
        .await;
    assert_eq!(open["in"], json!([]));
    a.server.stop().await;
}

#[tokio::test]
async fn leave_is_booked_only_by_a_signed_in_player_for_their_own_account() {
    let a = askers().await;
    let tomorrow = rochade_server::correspondence::leave::Day::of_ms(
        a.server.shared.clock.now_ms() + 86_400_000,
    );
    let body = json!({"from": tomorrow.to_string(), "to": tomorrow.to_string()});
    for who in EVERYONE {
        let (status, answer) = a
            .ask(who, "POST", "/api/account/leave", Some(body.clone()))
            .await;
        let expected = match who {
            Who::Anonymous | Who::Token => 401,
            _ => 200,
        };
        assert_eq!(status, expected, "leave as {who:?}: {answer}");
        // Each books for their own account: Alice's leave is hers alone.
        let (status, shown) = a.ask(who, "GET", "/api/account/leave", None).await;
        if expected == 200 {
            assert_eq!(status, 200);
            assert_eq!(
                shown["leave"].as_array().map(Vec::len),
                Some(1),
                "{who:?}: {shown}"
            );
        } else {
            assert_eq!(status, 401, "{who:?}");
        }
    }
    a.server.stop().await;
}

#[tokio::test]
async fn notification_settings_are_each_signed_in_players_own() {
    let a = askers().await;
    for who in EVERYONE {
        let body = json!({"email": format!("{who:?}@example.org").to_lowercase(), "lang": "cs"});
        let (status, answer) = a
            .ask(who, "POST", "/api/account/notifications", Some(body))
            .await;
        let expected = match who {
            Who::Anonymous | Who::Token => 401,
            _ => 200,
        };
        assert_eq!(status, expected, "notifications as {who:?}: {answer}");
    }
    // Each changed only their own.
    for (who, email) in [
        (Who::Owner, "owner@example.org"),
        (Who::Opponent, "opponent@example.org"),
        (Who::Other, "other@example.org"),
    ] {
        let (_, shown) = a.ask(who, "GET", "/api/account/notifications", None).await;
        assert_eq!(shown["email"], email, "{who:?}");
    }
    a.server.stop().await;
}

#[tokio::test]
async fn notes_are_kept_only_by_the_players_of_the_game_each_their_own() {
    let a = askers().await;
    let id = a.challenge().await;
    let path = format!("/api/account/challenge/{id}/accept");
    let (status, seat) = a.ask(Who::Opponent, "POST", &path, None).await;
    assert_eq!(status, 200, "{seat}");
    let notes = format!(
        "/api/account/notes/{}",
        seat["game"].as_str().expect("game")
    );
    for who in EVERYONE {
        let body = json!({"text": format!("{who:?}'s plan")});
        let (status, answer) = a.ask(who, "POST", &notes, Some(body)).await;
        let expected = match who {
            Who::Owner | Who::Opponent => 200,
            Who::Other => 404,
            Who::Anonymous | Who::Token => 401,
        };
        assert_eq!(status, expected, "notes as {who:?}: {answer}");
        let (status, _) = a.ask(who, "GET", &notes, None).await;
        assert_eq!(status, expected, "reading notes as {who:?}");
    }
    // Each player reads their own, and nobody else's text was kept.
    for (who, text) in [
        (Who::Owner, "Owner's plan"),
        (Who::Opponent, "Opponent's plan"),
    ] {
        let (_, shown) = a.ask(who, "GET", &notes, None).await;
        assert_eq!(shown["text"], text, "{who:?}");
    }
    a.server.stop().await;
}

#[tokio::test]
async fn only_the_director_decides_and_only_players_write_to_the_director() {
    let a = askers().await;
    // Alice directs the site; Bob and Carol play a section of hers.
    support::appoint(&a.server, "alice");
    let settings = json!({"name": "Section 1", "time_control": "10/40d"});
    for who in EVERYONE {
        if who == Who::Owner {
            continue;
        }
        let (status, answer) = a
            .ask(who, "POST", "/api/tournaments", Some(settings.clone()))
            .await;
        let expected = if matches!(who, Who::Anonymous | Who::Token) {
            401
        } else {
            403
        };
        assert_eq!(status, expected, "create as {who:?}: {answer}");
    }
    let (status, made) = a
        .ask(Who::Owner, "POST", "/api/tournaments", Some(settings))
        .await;
    assert_eq!(status, 200, "{made}");
    let id = made["id"].as_str().expect("id").to_owned();
    let (_, list) = a.ask(Who::Anonymous, "GET", "/api/tournaments", None).await;
    assert_eq!(list["tournaments"].as_array().expect("list").len(), 1);

    // The director's acts on the tournament, before and after the start.
    let players = format!("/api/tournaments/{id}/players");
    let start = format!("/api/tournaments/{id}/start");
    let refused = |who: Who| {
        if matches!(who, Who::Anonymous | Who::Token) {
            401
        } else {
            403
        }
    };
    for who in EVERYONE.into_iter().filter(|w| *w != Who::Owner) {
        let (status, _) = a
            .ask(who, "POST", &players, Some(json!({"name": "Bob"})))
            .await;
        assert_eq!(status, refused(who), "players as {who:?}");
        let (status, _) = a.ask(who, "POST", &start, None).await;
        assert_eq!(status, refused(who), "start as {who:?}");
    }
    let (_, page) = a
        .ask(
            Who::Anonymous,
            "GET",
            &format!("/api/tournaments/{id}"),
            None,
        )
        .await;
    assert_eq!(page["players"], json!([]), "nothing changed: {page}");
    for name in ["Bob", "Carol"] {
        let (status, body) = a
            .ask(Who::Owner, "POST", &players, Some(json!({"name": name})))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, started) = a.ask(Who::Owner, "POST", &start, None).await;
    assert_eq!(status, 200, "{started}");
    let game = started["games"][0].as_str().expect("a game").to_owned();

    let year =
        rochade_server::correspondence::leave::Day::of_ms(a.server.shared.clock.now_ms()).year();
    let acts: [(String, Value); 4] = [
        (
            format!("/api/games/{game}/decide"),
            json!({"decision": {"act": "stop_clocks"}, "reason": "checking"}),
        ),
        (
            format!("/api/tournaments/{id}/warn"),
            json!({"player": "Bob", "reason": "rude chat"}),
        ),
        (
            format!("/api/tournaments/{id}/leave"),
            json!({"player": "Bob", "days": 5, "year": year, "reason": "illness"}),
        ),
        (
            format!("/api/tournaments/{id}/withdraw"),
            json!({"player": "Carol", "silent": false, "reason": "asked to leave"}),
        ),
    ];
    for (path, body) in &acts {
        for who in EVERYONE.into_iter().filter(|w| *w != Who::Owner) {
            let (status, answer) = a.ask(who, "POST", path, Some(body.clone())).await;
            assert_eq!(status, refused(who), "{path} as {who:?}: {answer}");
        }
    }
    // Nothing changed: no decision logged, the game's clocks run.
    let (_, bobs) = a
        .ask(Who::Opponent, "GET", "/api/account/decisions", None)
        .await;
    assert_eq!(bobs["decisions"], json!([]), "{bobs}");
    let (_, shown) = a
        .ask(Who::Anonymous, "GET", &format!("/api/games/{game}"), None)
        .await;
    assert!(shown["halted"].is_null(), "{shown}");
    // The director may.
    for (path, body) in &acts {
        let (status, answer) = a.ask(Who::Owner, "POST", path, Some(body.clone())).await;
        assert_eq!(status, 200, "{path}: {answer}");
    }

    // Writing to the director: only the players concerned; answering:
    // only the director. Reading one's decisions and the director's list
    // needs a session.
    let (_, bobs) = a
        .ask(Who::Opponent, "GET", "/api/account/decisions", None)
        .await;
    // Bob's warning concerns Bob alone (the forfeits concern Carol too).
    let decision = bobs["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .find(|d| d["decision"]["act"] == "warning")
        .and_then(|d| d["id"].as_i64())
        .expect("Bob's warning");
    let appeal = json!({"kind": "appeal", "decision": decision, "message": "unfair"});
    for who in [Who::Owner, Who::Other, Who::Anonymous, Who::Token] {
        let (status, answer) = a
            .ask(who, "POST", "/api/requests", Some(appeal.clone()))
            .await;
        let expected = if matches!(who, Who::Anonymous | Who::Token) {
            401
        } else {
            403
        };
        assert_eq!(status, expected, "appeal as {who:?}: {answer}");
    }
    let (status, filed) = a
        .ask(Who::Opponent, "POST", "/api/requests", Some(appeal))
        .await;
    assert_eq!(status, 200, "{filed}");
    let answer_path = format!("/api/requests/{}/answer", filed["id"]);
    for who in EVERYONE.into_iter().filter(|w| *w != Who::Owner) {
        let (status, _) = a
            .ask(who, "POST", &answer_path, Some(json!({"answer": "no"})))
            .await;
        assert_eq!(status, refused(who), "answer as {who:?}");
    }
    let (status, _) = a
        .ask(
            Who::Owner,
            "POST",
            &answer_path,
            Some(json!({"answer": "it stands"})),
        )
        .await;
    assert_eq!(status, 200);
    for path in ["/api/account/decisions", "/api/director"] {
        for who in [Who::Anonymous, Who::Token] {
            let (status, _) = a.ask(who, "GET", path, None).await;
            assert_eq!(status, 401, "{path} as {who:?}");
        }
    }
    a.server.stop().await;
}

#[tokio::test]
async fn a_live_event_is_entered_by_players_and_run_by_its_director_alone() {
    let a = askers().await;
    support::appoint(&a.server, "alice");
    let settings = json!({"name": "Blitz Swiss", "time_control": "3+2", "system": "swiss",
                          "rounds": 2, "entry": {"open": true}, "max_byes": 1});
    let (status, made) = a
        .ask(Who::Owner, "POST", "/api/tournaments", Some(settings))
        .await;
    assert_eq!(status, 200, "{made}");
    let id = made["id"].as_str().expect("id").to_owned();
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    let page = || async {
        a.ask(
            Who::Anonymous,
            "GET",
            &format!("/api/tournaments/{id}"),
            None,
        )
        .await
        .1
    };

    // Entering and leaving: one's own act, signed in on the page.
    for who in [Who::Anonymous, Who::Token] {
        for what in ["join", "quit"] {
            let (status, answer) = a.ask(who, "POST", &path(what), None).await;
            assert_eq!(status, 401, "{what} as {who:?}: {answer}");
        }
    }
    let (status, answer) = a.ask(Who::Other, "POST", &path("quit"), None).await;
    assert_eq!(status, 404, "Carol is not in it: {answer}");
    for who in [Who::Opponent, Who::Other] {
        let (status, answer) = a.ask(who, "POST", &path("join"), None).await;
        assert_eq!(status, 200, "join as {who:?}: {answer}");
    }

    // The arbiter's controls: the director's alone, before and after the
    // start; a refused one changes nothing.
    let refused = |who: Who| {
        if matches!(who, Who::Anonymous | Who::Token) {
            401
        } else {
            403
        }
    };
    let acts = [
        (
            path("bye"),
            json!({"player": "Bob", "round": 2, "kind": "half", "reason": "r"}),
        ),
        (path("pause"), json!({"paused": true, "reason": "r"})),
        (path("pair"), json!({"reason": "r"})),
        (
            path("result"),
            json!({"game": "whatever", "result": "1-0", "reason": "r"}),
        ),
        (path("players"), json!({"name": "Alice"})),
        (path("start"), json!({})),
        (path("cancel"), json!({"reason": "r"})),
        (
            path("reschedule"),
            json!({"starts_at": null, "reason": "r"}),
        ),
        (
            path("settings"),
            json!({"settings": {"name": "Taken", "time_control": "3+2"}, "reason": "r"}),
        ),
    ];
    for stage in ["before the start", "after it"] {
        let before = page().await;
        for (p, body) in &acts {
            for who in EVERYONE.into_iter().filter(|w| *w != Who::Owner) {
                let (status, answer) = a.ask(who, "POST", p, Some(body.clone())).await;
                assert_eq!(status, refused(who), "{p} as {who:?} {stage}: {answer}");
            }
        }
        assert_eq!(page().await, before, "nothing changed {stage}");
        if stage == "before the start" {
            let (status, answer) = a.ask(Who::Owner, "POST", &path("start"), None).await;
            assert_eq!(status, 200, "{answer}");
        }
    }
    // The director may: a bye for round 2, a hold.
    for (p, body) in &acts[..2] {
        let (status, answer) = a.ask(Who::Owner, "POST", p, Some(body.clone())).await;
        assert_eq!(status, 200, "{p}: {answer}");
    }
    let shown = page().await;
    assert_eq!(shown["paused"], true, "{shown}");
    a.server.stop().await;
}

/// Simul `id` as anyone sees it.
async fn shown(a: &Askers, id: &str) -> Value {
    let (status, simul) = a
        .ask(Who::Anonymous, "GET", &format!("/api/simuls/{id}"), None)
        .await;
    assert_eq!(status, 200, "anyone may look");
    simul
}

#[tokio::test]
async fn only_the_host_runs_a_simul_and_only_accounts_apply() {
    let a = askers().await;
    let refused = |who: Who| {
        if matches!(who, Who::Anonymous | Who::Token) {
            401
        } else {
            403
        }
    };
    let settings = json!({"name": "Simul", "time_control": "5+3", "host_extra_time": 60});
    for who in [Who::Anonymous, Who::Token] {
        let (status, _) = a
            .ask(who, "POST", "/api/simuls", Some(settings.clone()))
            .await;
        assert_eq!(status, 401, "create as {who:?}");
    }
    let (_, list) = a.ask(Who::Anonymous, "GET", "/api/simuls", None).await;
    assert_eq!(list["simuls"], json!([]), "nothing created");
    let (status, made) = a
        .ask(Who::Owner, "POST", "/api/simuls", Some(settings.clone()))
        .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().expect("id").to_owned();
    let path = |step: &str| format!("/api/simuls/{id}/{step}");

    // Applying and withdrawing: a signed-in account other than the host.
    for who in EVERYONE {
        let (status, answer) = a.ask(who, "POST", &path("apply"), None).await;
        let expected = match who {
            Who::Owner => 400, // the host plays every board
            Who::Opponent | Who::Other => 200,
            Who::Anonymous | Who::Token => 401,
        };
        assert_eq!(status, expected, "apply as {who:?}: {answer}");
    }
    for who in [Who::Anonymous, Who::Token, Who::Owner] {
        let (status, _) = a.ask(who, "POST", &path("withdraw"), None).await;
        let expected = if who == Who::Owner { 404 } else { 401 };
        assert_eq!(status, expected, "withdraw as {who:?}");
    }
    // The host's steps: refused to everyone else, and nothing changes.
    let before = shown(&a, &id).await;
    let steps: [(&str, Option<Value>); 4] = [
        ("accept", Some(json!({"name": "Bob"}))),
        ("reject", Some(json!({"name": "Carol"}))),
        ("start", None),
        ("cancel", None),
    ];
    for (step, body) in &steps {
        for who in EVERYONE.into_iter().filter(|w| *w != Who::Owner) {
            let (status, answer) = a.ask(who, "POST", &path(step), body.clone()).await;
            assert_eq!(status, refused(who), "{step} as {who:?}: {answer}");
        }
    }
    assert_eq!(shown(&a, &id).await, before, "nothing changed");
    // The host may; an applicant may withdraw.
    for (step, body) in &steps[..3] {
        let (status, answer) = a.ask(Who::Owner, "POST", &path(step), body.clone()).await;
        assert_eq!(status, 200, "{step}: {answer}");
    }
    let simul = shown(&a, &id).await;
    assert_eq!(simul["status"], "started");
    assert_eq!(simul["boards"][0]["player"], "Bob");
    assert!(simul["boards"][0]["you"].is_null(), "a spectator's view");
    // Only the host and the player see the seat of a board.
    for (who, seat) in [(Who::Owner, "white"), (Who::Opponent, "black")] {
        let (_, simul) = a.ask(who, "GET", &format!("/api/simuls/{id}"), None).await;
        assert_eq!(simul["boards"][0]["you"], seat, "{who:?}");
    }
    let (_, carols) = a
        .ask(Who::Other, "GET", &format!("/api/simuls/{id}"), None)
        .await;
    assert!(carols["boards"][0]["you"].is_null());
    // A second simul: cancelled by the host alone.
    let (_, second) = a
        .ask(Who::Owner, "POST", "/api/simuls", Some(settings))
        .await;
    let second = second["id"].as_str().expect("id").to_owned();
    let cancel = format!("/api/simuls/{second}/cancel");
    for who in EVERYONE.into_iter().filter(|w| *w != Who::Owner) {
        let (status, _) = a.ask(who, "POST", &cancel, None).await;
        assert_eq!(status, refused(who), "cancel as {who:?}");
    }
    let (status, _) = a
        .ask(
            Who::Opponent,
            "POST",
            &format!("/api/simuls/{second}/apply"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = a
        .ask(
            Who::Opponent,
            "POST",
            &format!("/api/simuls/{second}/withdraw"),
            None,
        )
        .await;
    assert_eq!(status, 200, "an applicant withdraws");
    let (status, _) = a.ask(Who::Owner, "POST", &cancel, None).await;
    assert_eq!(status, 200);
    a.server.stop().await;
}
