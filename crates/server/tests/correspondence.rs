//! Correspondence games between accounts through the running server: the
//! ICCF rules by default for a control in days, moves final when sent
//! (4.3), draw offers made with a move (9.1.2.1), no idle close and no
//! "opponent gone" (the clock alone decides, 6.7), the deadline moved by
//! nobody but the clock.

mod support;

use std::time::Duration;

use serde_json::Value;
use support::{TestServer, bearer_raw, temp_db};

const DAY: Duration = Duration::from_secs(86_400);

/// Fischer (White) and Spassky (Black) with Board API tokens, in a game
/// of `form`'s control; the server, the game id and both tokens.
async fn correspondence(form: &str) -> (TestServer, String, String, String) {
    let db = temp_db();
    let storage = support::open(&db);
    let scopes = "board:play,challenge:write";
    let mut tokens = Vec::new();
    for name in ["Fischer", "Spassky"] {
        rochade_server::accounts::admin::add_user(&storage, name, None, false).expect("account");
        tokens.push(
            rochade_server::accounts::admin::create_token(&storage, name, scopes, "")
                .expect("token"),
        );
    }
    drop(storage);
    let server = TestServer::start_with(db).await;
    let form = format!("{form}&color=white");
    let (status, made) = post(&server, "/api/challenge/spassky", &form, &tokens[0]).await;
    assert_eq!(status, 200, "{made}");
    let id = made["id"].as_str().expect("challenge id").to_owned();
    let path = format!("/api/challenge/{id}/accept");
    let (status, body) = post(&server, &path, "", &tokens[1]).await;
    assert_eq!(status, 200, "{body}");
    let (fischer, spassky) = (tokens.remove(0), tokens.remove(0));
    let (_, playing) = bearer_raw(
        &server.host,
        "GET",
        "/api/account/playing",
        "",
        "",
        &fischer,
    )
    .await;
    let game = playing["nowPlaying"][0]["gameId"]
        .as_str()
        .expect("a game")
        .to_owned();
    (server, game, fischer, spassky)
}

/// A form POST with a bearer token: status and JSON answer.
async fn post(server: &TestServer, path: &str, form: &str, token: &str) -> (u16, Value) {
    bearer_raw(
        &server.host,
        "POST",
        path,
        "application/x-www-form-urlencoded",
        form,
        token,
    )
    .await
}

/// `ms` is `expected` less the few seconds a test takes at most.
fn assert_near(ms: &Value, expected: Duration) {
    let expected = expected.as_millis() as u64;
    let ms = ms.as_u64().expect("milliseconds");
    assert!(
        ms <= expected && ms + 10_000 > expected,
        "{ms} ms, expected about {expected}"
    );
}

/// The game's state as a spectator sees it.
async fn state(server: &TestServer, id: &str) -> Value {
    let (status, body) =
        bearer_raw(&server.host, "GET", &format!("/api/games/{id}"), "", "", "").await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn a_game_in_days_plays_by_the_iccf_rules() {
    let (server, id, fischer, spassky) = correspondence("days=3").await;
    let s = state(&server, &id).await;
    assert_eq!(s["rules"], "iccf");
    assert_eq!(s["clock"]["category"], "correspondence");
    assert_near(&s["clock"]["flag_in"], 3 * DAY);

    let mv = |uci: &str| format!("/api/board/game/{id}/move/{uci}");
    let (status, body) = post(&server, &mv("e2e4"), "", &fischer).await;
    assert_eq!(status, 200, "{body}");

    // 4.3: a move once made cannot be taken back.
    let takeback = format!("/api/board/game/{id}/takeback/yes");
    let (status, body) = post(&server, &takeback, "", &fischer).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().is_some_and(|e| e.contains("4.3")),
        "{body}"
    );

    // 9.1.2.1: an offer comes with a move, not on its own…
    let draw = format!("/api/board/game/{id}/draw/yes");
    let (status, body) = post(&server, &draw, "", &spassky).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("9.1.2.1")),
        "{body}"
    );
    // …and with one it stands after the opponent's reply (ICCF 9.1.2.1).
    let (status, body) = post(
        &server,
        &format!("{}?offeringDraw=true", mv("e7e5")),
        "",
        &spassky,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let s = state(&server, &id).await;
    assert_eq!(s["offers"]["draw"], "black");
    // 8.1.4: the move carries the offer, (=) in the record.
    assert_eq!(s["moves"][1]["offer"], true, "{s}");
    assert!(s["moves"][0].get("offer").is_none(), "{s}");
    let (status, body) = post(&server, &mv("g1f3"), "", &fischer).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(state(&server, &id).await["offers"]["draw"], "black");

    // Nobody is "gone" from a correspondence game.
    let claim = format!("/api/board/game/{id}/claim-victory");
    let (status, body) = post(&server, &claim, "", &spassky).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().is_some_and(|e| e.contains("6.7")),
        "{body}"
    );
    server.stop().await;
}

#[tokio::test]
async fn art_6_7_a_correspondence_game_never_closes_for_idleness_only_the_flag_ends_it() {
    let (server, id, fischer, spassky) = correspondence("days=14").await;
    let mv = |uci: &str| format!("/api/board/game/{id}/move/{uci}");
    for (uci, token) in [("e2e4", &fischer), ("e7e5", &spassky)] {
        let (status, body) = post(&server, &mv(uci), "", token).await;
        assert_eq!(status, 200, "{body}");
    }
    // Ten days without a move: a live game would have closed as idle.
    server.shared.advance_clocks(10 * DAY);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let s = state(&server, &id).await;
    assert!(s["outcome"].is_null() && s["closed"].is_null(), "{s}");
    assert_near(&s["clock"]["flag_in"], 4 * DAY);
    // The fourteenth day passes: White's flag falls and Black, who can
    // still mate, wins (6.7).
    server
        .shared
        .advance_clocks(4 * DAY + Duration::from_secs(1));
    let mut ended = Value::Null;
    for _ in 0..50 {
        ended = state(&server, &id).await;
        if !ended["outcome"].is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(ended["outcome"]["result"], "0-1", "{ended}");
    assert_eq!(ended["outcome"]["reason"], "timeout");
    server.stop().await;
}

#[tokio::test]
async fn a_live_game_keeps_the_fide_laws_and_its_take_backs() {
    let (server, id, fischer, spassky) = correspondence("clock.limit=600&clock.increment=0").await;
    assert_eq!(state(&server, &id).await["rules"], "fide");
    let (status, body) = post(
        &server,
        &format!("/api/board/game/{id}/move/e2e4"),
        "",
        &fischer,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // FIDE: a draw may be offered on its own.
    let (status, body) = post(
        &server,
        &format!("/api/board/game/{id}/draw/yes"),
        "",
        &spassky,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}
