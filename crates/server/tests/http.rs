//! Handler tests without sockets: `app().oneshot(request)`.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::fresh_app as fresh;
use tower::ServiceExt;

/// Sends a request; returns status, content type and body.
async fn send(app: &axum::Router, request: Request<Body>) -> (StatusCode, String, Vec<u8>) {
    let response = app.clone().oneshot(request).await.expect("answers");
    let status = response.status();
    let kind = support::content_type(&response);
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .to_vec();
    (status, kind, body)
}

/// A POST with a JSON body.
fn post(path: &str, body: &str) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_owned()))
        .expect("request")
}

/// A GET.
fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).expect("request")
}

fn json_of(body: &[u8]) -> Value {
    serde_json::from_slice(body).expect("JSON")
}

#[tokio::test]
async fn the_page_is_served_for_its_paths() {
    let (app, _stop) = fresh();
    for path in ["/", "/g/abc", "/j/xyz"] {
        let (status, kind, body) = send(&app, get(path)).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(kind.starts_with("text/html"), "{path}: {kind}");
        assert!(!body.is_empty());
    }
    let (status, _, _) = send(&app, get("/assets/no-such-file.js")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, body) = send(&app, get("/healthz")).await;
    assert_eq!(
        (status, body.as_slice()),
        (StatusCode::OK, b"ok".as_slice())
    );
}

#[tokio::test]
async fn unchanged_files_are_not_sent_twice() {
    let (app, _stop) = fresh();
    let response = app.clone().oneshot(get("/")).await.expect("answers");
    let etag = response.headers().get(header::ETAG).expect("etag").clone();
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-cache");
    let again = Request::get("/")
        .header(header::IF_NONE_MATCH, etag)
        .body(Body::empty())
        .expect("request");
    let (status, _, _) = send(&app, again).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn creating_games_answers_seats_and_links() {
    let (app, _stop) = fresh();
    let (status, _, body) = send(
        &app,
        post(
            "/api/games",
            r#"{"opponent":"local","time_control":"40/90+30, 30+30"}"#,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let local = json_of(&body);
    assert_eq!(local["color"], "both");
    assert_eq!(local["links"], Value::Null);

    let (status, _, body) = send(
        &app,
        post(
            "/api/games",
            r#"{"opponent":"friend","color":"black","time_control":"15+10"}"#,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let friend = json_of(&body);
    assert_eq!(friend["color"], "black");
    let id = friend["game"].as_str().expect("id");
    let black_link = format!("/g/{id}#{}", friend["token"].as_str().expect("token"));
    assert_eq!(friend["links"]["black"], black_link);

    // The invitation seats White, once.
    let invite = format!(
        "/api/invites/{}",
        friend["invite"].as_str().expect("invite")
    );
    let (status, _, body) = send(&app, post(&invite, "")).await;
    assert_eq!(status, StatusCode::OK);
    let seat = json_of(&body);
    assert_eq!(seat["color"], "white");
    assert_eq!(seat["game"], id);
    assert_eq!(
        format!("/g/{id}#{}", seat["token"].as_str().expect("t")),
        friend["links"]["white"]
    );
    let (status, _, body) = send(&app, post(&invite, "")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(json_of(&body)["error"]["code"], "seat_taken");

    // The state, as a spectator sees it: clocks running once both are seated.
    let (status, kind, body) = send(&app, get(&format!("/api/games/{id}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("application/json"));
    let state = json_of(&body);
    assert_eq!(state["you"], "spectator");
    assert_eq!(state["clock"]["control"], "15+10");
    assert_eq!(state["clock"]["category"], "rapid");
    assert_eq!(state["clock"]["increment"], 10_000);
    assert_eq!(state["clock"]["running"], "white");

    let (status, kind, body) = send(&app, get(&format!("/api/games/{id}/pgn"))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "application/x-chess-pgn");
    assert!(String::from_utf8_lossy(&body).contains("[TimeControl \"900+10\"]"));
}

#[tokio::test]
async fn presets_and_chess960_are_accepted() {
    let (app, _stop) = fresh();
    for (tc, category) in [
        ("1+0", "blitz"),
        ("3+2", "blitz"),
        ("5+0", "blitz"),
        ("10+5", "rapid"),
        ("15+10", "rapid"),
        ("90+30", "standard"),
        ("40/90+30, 30+30", "standard"),
        ("5 d3", "blitz"),
    ] {
        let body = json!({"opponent": "local", "time_control": tc, "chess960": 518}).to_string();
        let (status, _, body) = send(&app, post("/api/games", &body)).await;
        assert_eq!(status, StatusCode::CREATED, "{tc}");
        let id = json_of(&body)["game"].as_str().expect("id").to_owned();
        let (_, _, body) = send(&app, get(&format!("/api/games/{id}"))).await;
        let state = json_of(&body);
        assert_eq!(state["clock"]["category"], category, "{tc}");
        assert_eq!(state["chess960"], 518);
    }
    let (status, _, body) = send(
        &app,
        post("/api/games", r#"{"opponent":"local","time_control":"-"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = json_of(&body)["game"].as_str().expect("id").to_owned();
    let (_, _, body) = send(&app, get(&format!("/api/games/{id}"))).await;
    assert_eq!(json_of(&body)["clock"], Value::Null);
}

#[tokio::test]
async fn bad_requests_say_what_is_wrong() {
    let (app, _stop) = fresh();
    for (body, says) in [
        ("{", "game request"),
        (r#"{"opponent":"alien"}"#, "alien"),
        (r#"{"opponent":"robot","level":9}"#, "level"),
        (r#"{"opponent":"local","level":3}"#, "level"),
        (
            r#"{"opponent":"local","time_control":"abc"}"#,
            "time_control",
        ),
        (r#"{"opponent":"local","chess960":960}"#, "chess960"),
        (r#"{"opponent":"local","color":"green"}"#, "color"),
    ] {
        let (status, _, answer) = send(&app, post("/api/games", body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        let error = json_of(&answer);
        assert_eq!(error["error"]["code"], "bad_request", "{body}");
        let message = error["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{body}: {message}");
    }
    for path in ["/api/games/nosuch", "/api/games/nosuch/pgn"] {
        let (status, _, answer) = send(&app, get(path)).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(json_of(&answer)["error"]["code"], "not_found");
    }
    let (status, _, answer) = send(&app, post("/api/invites/nosuch", "")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(json_of(&answer)["error"]["code"], "not_found");
}

#[tokio::test]
async fn time_controls_are_described() {
    let (app, _stop) = fresh();
    let (status, _, body) = send(&app, get("/api/timecontrol?tc=40%2F90%2B30%2C%2030%2B30")).await;
    assert_eq!(status, StatusCode::OK);
    let report = json_of(&body);
    assert_eq!(report["normalized"], "40/90+30, 30+30");
    assert_eq!(report["category"], "standard");
    assert_eq!(report["pgn"], "40/5400+30:1800+30");
    let (status, _, body) = send(&app, get("/api/timecontrol?tc=5%20d3")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json_of(&body)["periods"][0]["bonus"], "delay");
    let (status, _, body) = send(&app, get("/api/timecontrol?tc=abc")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(json_of(&body)["error"]["code"], "bad_request");
}
