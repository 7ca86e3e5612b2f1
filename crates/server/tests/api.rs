//! The lichess-compatible API through the whole app without sockets:
//! tokens, scopes, lichess's error shape, bad bodies. The real client
//! (berserk) drives it in `tests/api/berserk_api.py`.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use rochade_server::accounts::admin;
use serde_json::Value;

/// The app with a person and a bot, and a token for each.
fn with_accounts() -> (
    axum::Router,
    tokio::sync::watch::Sender<bool>,
    String,
    String,
) {
    let storage = support::open(&support::temp_db());
    admin::add_user(&storage, "Lasker", Some("philosopher1894"), false).expect("person");
    admin::add_user(&storage, "Deepblue", None, true).expect("bot");
    let person = admin::create_token(&storage, "lasker", "board:play", "").expect("token");
    let bot = admin::create_token(&storage, "deepblue", "bot:play", "").expect("token");
    let (app, stop) = support::app_over(storage);
    (app, stop, person, bot)
}

/// Sends a request; returns status and JSON.
async fn send(app: &axum::Router, request: Request<Body>) -> (StatusCode, Value) {
    support::send_json(app, request).await
}

fn account(authorization: Option<&str>) -> Request<Body> {
    let mut request = Request::get("/api/account");
    if let Some(value) = authorization {
        request = request.header(header::AUTHORIZATION, value);
    }
    request.body(Body::empty()).expect("request")
}

fn token_test(body: Vec<u8>) -> Request<Body> {
    Request::post("/api/token/test")
        .body(Body::from(body))
        .expect("request")
}

#[tokio::test]
async fn the_account_of_a_token_and_lichess_errors() {
    let (app, _stop, person, bot) = with_accounts();
    let (status, me) = send(&app, account(Some(&format!("Bearer {person}")))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["id"], "lasker");
    assert_eq!(me["username"], "Lasker");
    assert!(me.get("title").is_none());
    let (_, me) = send(&app, account(Some(&format!("bearer {bot}")))).await;
    assert_eq!(me["title"], "BOT");
    for refused in [
        None,
        Some("Bearer"),
        Some("Bearer rop_unknown"),
        Some("Basic bGFza2VyOnBoaWxvc29waGVy"),
    ] {
        let (status, body) = send(&app, account(refused)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{refused:?}");
        assert_eq!(body, serde_json::json!({"error": "No such token"}));
    }
}

#[tokio::test]
async fn tokens_are_tested_in_bulk_within_limits() {
    let (app, _stop, person, _bot) = with_accounts();
    let (status, answer) = send(
        &app,
        token_test(format!("{person}, rop_bad,,").into_bytes()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer[&person]["userId"], "lasker");
    assert_eq!(answer[&person]["scopes"], "board:play");
    assert_eq!(answer["rop_bad"], Value::Null);
    assert_eq!(answer.as_object().map(|o| o.len()), Some(2));
    let many = vec!["rop_x"; 1001].join(",");
    let (status, body) = send(&app, token_test(many.into_bytes())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().is_some_and(|e| e.contains("1000")));
    let (status, _) = send(&app, token_test(vec![0xff, 0xfe])).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
