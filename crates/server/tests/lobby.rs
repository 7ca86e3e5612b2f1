//! Playing people from the page, over a real server: challenges made,
//! declined with a reason and accepted (Chess960 too) through the
//! session's JSON endpoints; the account socket that shows challenges,
//! games ("your move" first) and the lobby's seeks live; a seek accepted
//! within its rating range, refused outside it, and gone when its owner's
//! socket closes; the Board API's seek held by its stream.

mod support;

use rochade_loadtest::client::{Answer, GameSocket, request};
use serde_json::{Value, json};
use support::{TestServer, WAIT, sign_up};

/// `method path` with `body` as the holder of `session`.
async fn ask(
    server: &TestServer,
    method: &str,
    path: &str,
    body: Option<Value>,
    session: &str,
) -> Answer {
    request(&server.host, method, path, body.as_ref(), Some(session))
        .await
        .expect("answers")
}

/// Alice (`alice`) challenges Bob (`bob`) on `terms`; Bob's answer to
/// accepting it.
async fn challenged(server: &TestServer, alice: &str, bob: &str, terms: Value) -> Answer {
    let path = "/api/account/challenge/bob";
    let made = ask(server, "POST", path, Some(terms), alice).await;
    assert_eq!(made.status, 201, "{}", made.json);
    let id = made.json["id"].as_str().expect("id");
    let accept = format!("/api/account/challenge/{id}/accept");
    ask(server, "POST", &accept, None, bob).await
}

/// The lobby socket of `session` (none: a visitor), past its hello.
async fn lobby(server: &TestServer, session: Option<&str>) -> GameSocket {
    let mut socket = GameSocket::open_path(&server.host, "/ws/lobby", session)
        .await
        .expect("opens");
    socket.until("hello", WAIT, |_| true).await.expect("hello");
    socket
}

#[tokio::test]
async fn a_challenge_from_the_page_is_declined_then_accepted_as_chess960() {
    let server = TestServer::start().await;
    let alice = sign_up(&server, "Alice").await;
    let bob = sign_up(&server, "Bob").await;
    let mut bobs = lobby(&server, Some(&bob)).await;
    let mut alices = lobby(&server, Some(&alice)).await;

    let terms = json!({"time_control": "5+3", "rated": true, "color": "white", "chess960": true});
    let made = ask(
        &server,
        "POST",
        "/api/account/challenge/bob",
        Some(terms.clone()),
        &alice,
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.json);
    assert_eq!(made.json["variant"]["key"], "chess960");
    assert_eq!(made.json["perf"]["name"], "chess960");
    // Bob hears it live, on any page he has open.
    let heard = bobs
        .until("challenges", WAIT, |m| {
            m["in"].as_array().is_some_and(|a| !a.is_empty())
        })
        .await
        .expect("the challenge");
    let id = heard["in"][0]["id"].as_str().expect("id").to_owned();
    assert_eq!(heard["in"][0]["challenger"]["name"], "Alice");

    // A reason lichess does not know is refused; a known one is told.
    let path = format!("/api/account/challenge/{id}/decline");
    let wrong = ask(
        &server,
        "POST",
        &path,
        Some(json!({"reason": "busy"})),
        &bob,
    )
    .await;
    assert_eq!(wrong.status, 400);
    assert!(
        wrong.json["error"]["message"]
            .as_str()
            .expect("message")
            .contains("reason")
    );
    // Only Bob may answer it.
    let stranger = sign_up(&server, "Carol").await;
    let theirs = ask(
        &server,
        "POST",
        &path,
        Some(json!({"reason": "later"})),
        &stranger,
    )
    .await;
    assert_eq!(theirs.status, 404);
    let declined = ask(
        &server,
        "POST",
        &path,
        Some(json!({"reason": "later"})),
        &bob,
    )
    .await;
    assert_eq!(declined.status, 204);
    let news = alices
        .until("news", WAIT, |m| m["news"]["type"] == "challengeDeclined")
        .await
        .expect("declined");
    assert_eq!(news["news"]["challenge"]["declineReasonKey"], "later");

    // Again, accepted: both get the link to their own seat.
    let accepted = challenged(&server, &alice, &bob, terms).await;
    assert_eq!(accepted.status, 200, "{}", accepted.json);
    assert_eq!(accepted.json["color"], "black");
    let game = accepted.json["game"].as_str().expect("game").to_owned();
    let link = alices
        .until("game", WAIT, |m| m["game"] == game.as_str())
        .await
        .expect("link");
    assert_eq!(link["color"], "white");
    let url = link["url"].as_str().expect("url");
    let token = url.split_once('#').expect("a token").1;
    let mut play = GameSocket::connect(&server.host, &game, token)
        .await
        .expect("seat");
    let state = play.state(WAIT, |_| true).await.expect("state");
    assert!(state["chess960"].as_u64().is_some(), "{state}");
    assert_eq!(state["you"], "white");
    // Alice's open games: this one, her move first.
    let games = ask(&server, "GET", "/api/account/games", None, &alice).await;
    assert_eq!(games.json["games"][0]["gameId"], game.as_str());
    assert_eq!(games.json["games"][0]["isMyTurn"], true);
    server.stop().await;
}

#[tokio::test]
async fn the_open_games_list_follows_the_moves_live() {
    let server = TestServer::start().await;
    let alice = sign_up(&server, "Alice").await;
    let bob = sign_up(&server, "Bob").await;
    let mut alices = lobby(&server, Some(&alice)).await;
    let terms = json!({"time_control": "10+0", "color": "white"});
    let accepted = challenged(&server, &alice, &bob, terms).await;
    let game = accepted.json["game"].as_str().expect("game").to_owned();
    let link = alices.until("game", WAIT, |_| true).await.expect("link");
    let token = link["url"]
        .as_str()
        .expect("url")
        .split_once('#')
        .expect("#")
        .1
        .to_owned();
    let mut white = GameSocket::connect(&server.host, &game, &token)
        .await
        .expect("seat");
    white.state(WAIT, |_| true).await.expect("state");
    support::play(&mut white, 0, "e2e4").await;
    let games = alices
        .until("games", WAIT, |m| m["games"][0]["isMyTurn"] == false)
        .await
        .expect("the list after the move");
    assert_eq!(games["games"][0]["gameId"], game.as_str());
    server.stop().await;
}

#[tokio::test]
async fn seeks_are_accepted_within_their_range_and_go_with_their_owner() {
    let server = TestServer::start().await;
    let alice = sign_up(&server, "Alice").await;
    let bob = sign_up(&server, "Bob").await;
    let mut visitor = lobby(&server, None).await;
    let mut alices = lobby(&server, Some(&alice)).await;
    // A visitor sees the lobby but may not seek.
    visitor
        .send(&json!({"t": "seek", "time_control": "5+3"}))
        .await
        .expect("sends");
    let refused = visitor
        .until("error", WAIT, |_| true)
        .await
        .expect("refused");
    assert_eq!(refused["code"], "unauthorized");
    // Bad input names the field; nothing opens.
    for bad in [
        json!({"t": "seek", "time_control": "5+3", "rating_range": [1800, 1400]}),
        json!({"t": "seek", "time_control": "5+3", "colour": "white"}),
        json!({"t": "seek", "time_control": "1/1+0, 1/1+0, 1/1+0, 1/1+0, 1/1+0, 1/1+0"}),
        json!({"t": "seek"}),
    ] {
        alices.send(&bad).await.expect("sends");
        let error = alices
            .until("error", WAIT, |_| true)
            .await
            .expect("an error");
        assert!(
            !error["message"].as_str().expect("message").is_empty(),
            "{bad}"
        );
    }
    // A seek for 1600–1800 is out of a new player's reach (1500).
    alices
        .send(&json!({"t": "seek", "time_control": "5+3", "rated": true,
                       "rating_range": [1600, 1800]}))
        .await
        .expect("sends");
    let high = alices
        .until("seek_ok", WAIT, |_| true)
        .await
        .expect("opened")["id"]
        .clone();
    let listed = visitor
        .until("seeks", WAIT, |m| {
            m["seeks"].as_array().is_some_and(|a| a.len() == 1)
        })
        .await
        .expect("listed");
    assert_eq!(listed["seeks"][0]["user"]["name"], "Alice");
    assert_eq!(listed["seeks"][0]["perf"], "blitz");
    let path = format!("/api/lobby/seeks/{}/accept", high.as_str().expect("id"));
    let out_of_range = ask(&server, "POST", &path, None, &bob).await;
    assert_eq!(out_of_range.status, 400, "{}", out_of_range.json);
    assert_eq!(out_of_range.json["error"]["code"], "not_allowed");
    // One's own seek cannot be accepted.
    let own = ask(&server, "POST", &path, None, &alice).await;
    assert_eq!(own.json["error"]["code"], "not_allowed");
    // An open seek is taken by the first who accepts it.
    alices
        .send(&json!({"t": "seek", "time_control": "3+2", "color": "black"}))
        .await
        .expect("sends");
    let open = alices
        .until("seek_ok", WAIT, |_| true)
        .await
        .expect("opened")["id"]
        .clone();
    let path = format!("/api/lobby/seeks/{}/accept", open.as_str().expect("id"));
    let taken = ask(&server, "POST", &path, None, &bob).await;
    assert_eq!(taken.status, 200, "{}", taken.json);
    assert_eq!(taken.json["color"], "white");
    let link = alices
        .until("game", WAIT, |_| true)
        .await
        .expect("Alice's link");
    assert_eq!(link["color"], "black");
    assert_eq!(ask(&server, "POST", &path, None, &bob).await.status, 404);
    // The owner leaves: her last seek goes.
    alices.close().await;
    visitor
        .until("seeks", WAIT, |m| {
            m["seeks"].as_array().is_some_and(Vec::is_empty)
        })
        .await
        .expect("the lobby empties");
    server.stop().await;
}

/// Opens `POST /api/board/seek` with `form` as the holder of `token`; the
/// open connection (the seek lives while it does).
async fn board_seek(server: &TestServer, token: &str, form: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let mut stream = tokio::net::TcpStream::connect(&server.host)
        .await
        .expect("connects");
    let request = format!(
        "POST /api/board/seek HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
        server.host,
        form.len()
    );
    stream.write_all(request.as_bytes()).await.expect("sends");
    stream
}

#[tokio::test]
async fn a_board_api_seek_lives_while_its_stream_is_read() {
    use tokio::io::AsyncReadExt;
    let server = TestServer::start().await;
    let alice = sign_up(&server, "Alice").await;
    let bob = sign_up(&server, "Bob").await;
    let storage = support::open(&server.db);
    let token = rochade_server::accounts::admin::create_token(&storage, "alice", "board:play", "")
        .expect("a token");
    let mut bobs = lobby(&server, Some(&bob)).await;
    let mut stream = board_seek(&server, &token, "rated=true&time=3&increment=2&color=white").await;
    let listed = bobs
        .until("seeks", WAIT, |m| {
            m["seeks"].as_array().is_some_and(|a| a.len() == 1)
        })
        .await
        .expect("listed");
    assert_eq!(listed["seeks"][0]["time_control"], "3+2");
    assert_eq!(listed["seeks"][0]["user"]["name"], "Alice");
    let id = listed["seeks"][0]["id"].as_str().expect("id");
    let taken = ask(
        &server,
        "POST",
        &format!("/api/lobby/seeks/{id}/accept"),
        None,
        &alice,
    )
    .await;
    assert_eq!(taken.json["error"]["code"], "not_allowed");
    let taken = ask(
        &server,
        "POST",
        &format!("/api/lobby/seeks/{id}/accept"),
        None,
        &bob,
    )
    .await;
    assert_eq!(taken.status, 200, "{}", taken.json);
    assert_eq!(taken.json["color"], "black");
    // Accepted: the seek's stream ends.
    let mut rest = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut rest))
        .await
        .expect("the stream ends")
        .expect("reads");
    assert!(String::from_utf8_lossy(&rest).starts_with("HTTP/1.1 200"));

    // A seek whose reader hangs up goes.
    let stream = board_seek(&server, &token, "time=5&increment=0").await;
    bobs.until("seeks", WAIT, |m| {
        m["seeks"].as_array().is_some_and(|a| a.len() == 1)
    })
    .await
    .expect("listed");
    drop(stream);
    bobs.until("seeks", WAIT, |m| {
        m["seeks"].as_array().is_some_and(Vec::is_empty)
    })
    .await
    .expect("gone with its reader");
    // Bad seeks are lichess's 400s; the wrong scope is refused.
    for (form, field) in [
        ("time=5&increment=0&ratingRange=1800-1500", "ratingRange"),
        ("time=500&increment=0", "time"),
        ("increment=3", "time"),
        ("time=5&increment=0&variant=atomic", "variant"),
        ("time=5&increment=0&speed=fast", "speed"),
    ] {
        let mut stream = board_seek(&server, &token, form).await;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.expect("reads");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "{form}: {answer}");
        assert!(answer.contains(field), "{form}: {answer}");
    }
    let reader =
        rochade_server::accounts::admin::create_token(&storage, "alice", "challenge:read", "")
            .expect("a token");
    let mut stream = board_seek(&server, &reader, "time=5&increment=0").await;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("reads");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 403"));
    server.stop().await;
}

#[tokio::test]
async fn compatible_seeks_are_paired_at_once() {
    let server = TestServer::start().await;
    let alice = sign_up(&server, "Alice").await;
    let bob = sign_up(&server, "Bob").await;
    let mut alices = lobby(&server, Some(&alice)).await;
    let mut bobs = lobby(&server, Some(&bob)).await;
    alices
        .send(&json!({"t": "seek", "time_control": "3+2", "color": "white"}))
        .await
        .expect("sends");
    alices
        .until("seek_ok", WAIT, |m| m["id"].is_string())
        .await
        .expect("open");
    // Both want White: no pair; Bob's seek opens beside Alice's.
    bobs.send(&json!({"t": "seek", "time_control": "3+2", "color": "white"}))
        .await
        .expect("sends");
    bobs.until("seek_ok", WAIT, |m| m["id"].is_string())
        .await
        .expect("open");
    // Another control: no pair either. The same control, any colour: paired.
    bobs.send(&json!({"t": "seek", "time_control": "3+0"}))
        .await
        .expect("sends");
    bobs.until("seek_ok", WAIT, |m| m["id"].is_string())
        .await
        .expect("open");
    bobs.send(&json!({"t": "seek", "time_control": "3+2", "color": "random"}))
        .await
        .expect("sends");
    // Bob hears both that his seek was paired and his game's link, in
    // either order.
    let (mut paired, mut link) = (None, None);
    while paired.is_none() || link.is_none() {
        let message = bobs.recv(WAIT).await.expect("a message");
        match message["t"].as_str() {
            Some("seek_ok") if message["paired"].is_string() => paired = Some(message),
            Some("game") => link = Some(message),
            _ => {}
        }
    }
    let (paired, b) = (paired.expect("paired"), link.expect("linked"));
    let game = paired["paired"].as_str().expect("game");
    assert_eq!(b["game"], game);
    let a = alices
        .until("game", WAIT, |m| m["game"] == game)
        .await
        .expect("Alice's link");
    assert_eq!(
        (a["color"].clone(), b["color"].clone()),
        (json!("white"), json!("black"))
    );
    // Alice's seek was taken; Bob's two others stay.
    let (_, left) = rochade_loadtest::client::get_json(&server.host, "/api/lobby")
        .await
        .expect("the lobby");
    let left = left["seeks"].as_array().expect("a list");
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left.iter().all(|s| s["user"]["name"] == "Bob"));
    server.stop().await;
}

/// Issue 20, point 8: a lobby socket that goes on sending over the
/// address's limit is told why and cut off.
#[tokio::test]
async fn a_lobby_socket_that_floods_is_cut_off() {
    let server = TestServer::start().await;
    let mut flooder = lobby(&server, None).await;
    let per_second = rochade_server::limits::Limits::default().address_messages_per_second;
    let flood = rochade_server::flood::Flood::tolerated(per_second) as usize * 3;
    for _ in 0..flood {
        // The server may close before the whole flood is written.
        if flooder.send(&json!({"t": "seeks"})).await.is_err() {
            break;
        }
    }
    let cut = flooder
        .until("error", WAIT, |e| {
            e["message"].as_str().is_some_and(|m| m.contains("closed"))
        })
        .await
        .expect("told why it is cut off");
    assert_eq!(cut["code"], "rate_limited");
    let end = flooder.until("hello", WAIT, |_| false).await;
    assert!(end.is_err(), "{end:?}");
    // The address is not banned: once its limit refills, a new socket
    // is served.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    lobby(&server, None).await;
    server.stop().await;
}
