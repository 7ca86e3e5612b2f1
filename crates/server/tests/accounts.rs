//! The page's account endpoints, through the whole app without sockets:
//! sign up, sign in, who am I, change password, sign out; the session
//! cookie's attributes; bad input refused with the field named.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use support::fresh_app as fresh;
use tower::ServiceExt;

/// What came back: status, the `Set-Cookie` header, the JSON body.
struct Answer {
    status: StatusCode,
    cookie: Option<String>,
    json: Value,
}

/// Sends `method path` with a JSON `body` and the session `cookie`.
async fn send(
    app: &axum::Router,
    method: &str,
    path: &str,
    body: &str,
    cookie: Option<&str>,
) -> Answer {
    let mut request = Request::builder().method(method).uri(path);
    if !body.is_empty() || method == "POST" {
        request = request.header(header::CONTENT_TYPE, "application/json");
    }
    if let Some(secret) = cookie {
        request = request.header(header::COOKIE, format!("other=1; rochade_session={secret}"));
    }
    let request = request.body(Body::from(body.to_owned())).expect("request");
    let response = app.clone().oneshot(request).await.expect("answers");
    let status = response.status();
    let cookie = response
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer {
        status,
        cookie,
        json,
    }
}

/// The secret in a `Set-Cookie` value.
fn secret_of(set_cookie: &str) -> String {
    set_cookie
        .split(';')
        .next()
        .and_then(|pair| pair.split_once('='))
        .map(|(_, value)| value.to_owned())
        .expect("a cookie")
}

#[tokio::test]
async fn sign_up_sign_in_who_am_i_and_sign_out() {
    let (app, _stop) = fresh();
    let up = send(
        &app,
        "POST",
        "/api/auth/signup",
        r#"{"name":"Botvinnik","password":"patriarch48"}"#,
        None,
    )
    .await;
    assert_eq!(up.status, StatusCode::CREATED, "{}", up.json);
    assert_eq!(up.json["name"], "Botvinnik");
    let set = up.cookie.expect("a session cookie");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(attribute), "{set}");
    }
    assert!(!set.contains("Secure"), "not over TLS: {set}");
    let session = secret_of(&set);
    let me = send(&app, "GET", "/api/auth/me", "", Some(&session)).await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.json["name"], "Botvinnik");

    let taken = send(
        &app,
        "POST",
        "/api/auth/signup",
        r#"{"name":"BOTVINNIK","password":"another one"}"#,
        None,
    )
    .await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    assert_eq!(taken.json["error"]["code"], "name_taken");

    let wrong = send(
        &app,
        "POST",
        "/api/auth/signin",
        r#"{"name":"botvinnik","password":"not the one"}"#,
        None,
    )
    .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.cookie.is_none());

    let out = send(&app, "POST", "/api/auth/signout", "", Some(&session)).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    assert!(out.cookie.is_some_and(|c| c.contains("Max-Age=0")));
    let gone = send(&app, "GET", "/api/auth/me", "", Some(&session)).await;
    assert_eq!(gone.status, StatusCode::UNAUTHORIZED);

    let back = send(
        &app,
        "POST",
        "/api/auth/signin",
        r#"{"name":"botvinnik","password":"patriarch48"}"#,
        None,
    )
    .await;
    assert_eq!(back.status, StatusCode::OK);
    assert_eq!(back.json["name"], "Botvinnik");
}

#[tokio::test]
async fn a_new_password_needs_the_old_one() {
    let (app, _stop) = fresh();
    let up = send(
        &app,
        "POST",
        "/api/auth/signup",
        r#"{"name":"Smyslov","password":"harmony1957"}"#,
        None,
    )
    .await;
    let session = secret_of(&up.cookie.expect("cookie"));
    let refused = send(
        &app,
        "POST",
        "/api/auth/password",
        r#"{"current":"guessing it","new":"endgame artist"}"#,
        Some(&session),
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let changed = send(
        &app,
        "POST",
        "/api/auth/password",
        r#"{"current":"harmony1957","new":"endgame artist"}"#,
        Some(&session),
    )
    .await;
    assert_eq!(changed.status, StatusCode::NO_CONTENT);
    let new = send(
        &app,
        "POST",
        "/api/auth/signin",
        r#"{"name":"Smyslov","password":"endgame artist"}"#,
        None,
    )
    .await;
    assert_eq!(new.status, StatusCode::OK);
    let anonymous = send(
        &app,
        "POST",
        "/api/auth/password",
        r#"{"current":"endgame artist","new":"third password"}"#,
        None,
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn bad_input_names_the_field_and_changes_nothing() {
    let (app, _stop) = fresh();
    for (body, says) in [
        (
            r#"{"name":"x","password":"long enough"}"#,
            "2 to 20 characters",
        ),
        (
            r#"{"name":"no spaces","password":"long enough"}"#,
            "` ` at 3",
        ),
        (r#"{"name":"Petrosian","password":"short"}"#, "password"),
        (r#"{"name":"Petrosian"}"#, "missing field `password`"),
        (
            r#"{"name":"Petrosian","password":"long enough","admin":true}"#,
            "unknown field `admin`",
        ),
        (
            r#"{"name":"Petrosian","name":"Spassky","password":"long enough"}"#,
            "duplicate key `name`",
        ),
        (r#"{"name":7,"password":"long enough"}"#, "invalid type"),
        (
            r#"{"name":"Petrosian","password":"long enough","email":"iron tigran"}"#,
            "email",
        ),
        ("[", "EOF"),
    ] {
        let answer = send(&app, "POST", "/api/auth/signup", body, None).await;
        assert_eq!(
            answer.status,
            StatusCode::BAD_REQUEST,
            "{body}: {}",
            answer.json
        );
        let message = answer.json["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{body}: {message}");
        assert!(answer.cookie.is_none());
    }
    // None of them made the account.
    let fine = send(
        &app,
        "POST",
        "/api/auth/signup",
        r#"{"name":"Petrosian","password":"long enough"}"#,
        None,
    )
    .await;
    assert_eq!(fine.status, StatusCode::CREATED, "{}", fine.json);
}

#[tokio::test]
async fn a_forged_or_foreign_cookie_is_nobody() {
    let (app, _stop) = fresh();
    for secret in [
        "",
        "ros_forged",
        "rop_not_a_session",
        "x; rochade_session=y",
    ] {
        let me = send(&app, "GET", "/api/auth/me", "", Some(secret)).await;
        assert_eq!(me.status, StatusCode::UNAUTHORIZED, "{secret}");
    }
}

/// Signs `name` up; their session secret.
async fn signed_up(app: &axum::Router, name: &str) -> String {
    let body = format!(r#"{{"name":"{name}","password":"a long secret 1"}}"#);
    let up = send(app, "POST", "/api/auth/signup", &body, None).await;
    assert_eq!(up.status, StatusCode::CREATED, "{}", up.json);
    secret_of(&up.cookie.expect("a session cookie"))
}

/// The ids of `name`'s games, finished or not.
async fn games_of(app: &axum::Router, name: &str) -> Vec<String> {
    let path = format!("/api/games/user/{name}?ongoing=true");
    let request = Request::get(&path)
        .header(header::ACCEPT, "application/x-ndjson")
        .body(Body::empty())
        .expect("request");
    let (_, bytes) = support::send_bytes(app, request).await;
    String::from_utf8(bytes)
        .expect("text")
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let game: Value = serde_json::from_str(l).expect("json");
            game["id"].as_str().expect("id").to_owned()
        })
        .collect()
}

/// `POST /api/games` with `body` and the session `cookie`.
async fn create(app: &axum::Router, body: &str, cookie: Option<&str>) -> Answer {
    send(app, "POST", "/api/games", body, cookie).await
}

/// The holder of `cookie` takes the free seat of the invitation `invite`.
async fn take_seat(app: &axum::Router, invite: &str, cookie: &str) -> Answer {
    send(
        app,
        "POST",
        &format!("/api/invites/{invite}"),
        "",
        Some(cookie),
    )
    .await
}

/// The players of game `id` as a spectator sees them.
async fn players(app: &axum::Router, id: &str) -> Value {
    let state = send(app, "GET", &format!("/api/games/{id}"), "", None).await;
    state.json["players"].clone()
}

#[tokio::test]
async fn a_signed_in_players_page_games_are_recorded_under_their_name() {
    let (app, _stop) = fresh();
    let alice = signed_up(&app, "Alice").await;
    let bob = signed_up(&app, "Bob").await;
    // A robot game: Alice's seat has her name, the robot's none.
    let robot = create(
        &app,
        r#"{"opponent":"robot","level":1,"color":"white","time_control":"5+3"}"#,
        Some(&alice),
    )
    .await;
    assert_eq!(robot.status, StatusCode::CREATED, "{}", robot.json);
    let id = robot.json["game"].as_str().expect("id").to_owned();
    let state = players(&app, &id).await;
    assert_eq!(state["white"]["name"], "Alice");
    assert_eq!(state["white"]["rating"]["rating"], 1500);
    assert!(state["black"].get("name").is_none());
    assert_eq!(games_of(&app, "alice").await, [id.as_str()]);

    // A friend game: each seat under the name of whoever took it.
    let friend = create(
        &app,
        r#"{"opponent":"friend","color":"black","time_control":"5+3"}"#,
        Some(&alice),
    )
    .await;
    let game = friend.json["game"].as_str().expect("id").to_owned();
    let invite = friend.json["invite"].as_str().expect("invite").to_owned();
    let took = take_seat(&app, &invite, &bob).await;
    assert_eq!(took.status, StatusCode::OK, "{}", took.json);
    let state = players(&app, &game).await;
    assert_eq!(state["white"]["name"], "Bob");
    assert_eq!(state["black"]["name"], "Alice");
    assert_eq!(games_of(&app, "bob").await, [game.as_str()]);

    // Anonymous play stays as it was; one account never takes both seats.
    let anonymous = create(
        &app,
        r#"{"opponent":"friend","color":"white","time_control":"5+3"}"#,
        Some(&alice),
    )
    .await;
    let own = anonymous.json["game"].as_str().expect("id").to_owned();
    let invite = anonymous.json["invite"]
        .as_str()
        .expect("invite")
        .to_owned();
    let took = take_seat(&app, &invite, &alice).await;
    assert_eq!(took.status, StatusCode::OK);
    let state = players(&app, &own).await;
    assert_eq!(state["white"]["name"], "Alice");
    assert!(state["black"].get("name").is_none());
    let local = create(&app, r#"{"opponent":"local","time_control":"5+3"}"#, None).await;
    assert_eq!(local.status, StatusCode::CREATED);
    assert_eq!(games_of(&app, "alice").await.len(), 3);
}
