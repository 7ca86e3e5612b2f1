//! Open challenges are kept in the database: one made before a restart is
//! still there after it, and a server (a node) other than the one that
//! took it sees it, lists it and lets it be accepted, once. On SQLite and,
//! under `scripts/with-postgres`, on PostgreSQL.

mod support;

use axum::http::StatusCode;
use rochade_server::accounts::admin;
use support::ask;

/// Fischer's and Spassky's tokens over the fresh database `db`.
fn players(db: &std::path::Path) -> (String, String) {
    let storage = support::open(db);
    for name in ["Fischer", "Spassky"] {
        admin::add_user(&storage, name, None, false).expect("account");
    }
    let scopes = "board:play,challenge:read,challenge:write";
    (
        admin::create_token(&storage, "fischer", scopes, "").expect("token"),
        admin::create_token(&storage, "spassky", scopes, "").expect("token"),
    )
}

#[tokio::test]
async fn a_challenge_outlives_its_server_and_is_accepted_from_another_once() {
    let db = support::temp_db();
    let (fischer, spassky) = players(&db);
    let (first, stop) = support::app_over(support::open(&db));
    let id = support::challenge(
        &first,
        &fischer,
        "spassky",
        "clock.limit=300&clock.increment=3",
    )
    .await;
    drop(stop);
    drop(first);

    // A second server over the same database: after a restart, or another node.
    let (second, _stop) = support::app_over(support::open(&db));
    let (status, open) = ask(&second, "GET", "/api/challenge", Some(&spassky), "").await;
    assert_eq!(status, StatusCode::OK, "{open}");
    assert_eq!(open["in"][0]["id"], id.as_str(), "{open}");
    assert_eq!(open["in"][0]["timeControl"]["show"], "5+3", "{open}");
    let (_, theirs) = ask(&second, "GET", "/api/challenge", Some(&fischer), "").await;
    assert_eq!(theirs["out"][0]["id"], id.as_str(), "{theirs}");

    // A third, beside it: the challenge is accepted once, whichever asks.
    let (third, _stop3) = support::app_over(support::open(&db));
    let game = support::accepted(&second, &fischer, &id, &spassky).await;
    assert!(!game.is_empty());
    let path = format!("/api/challenge/{id}/accept");
    let (status, body) = ask(&third, "POST", &path, Some(&spassky), "").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (_, open) = ask(&third, "GET", "/api/challenge", Some(&spassky), "").await;
    assert_eq!(open["in"], serde_json::json!([]), "{open}");
}

#[tokio::test]
async fn a_declined_or_cancelled_challenge_is_gone_for_every_server() {
    let db = support::temp_db();
    let (fischer, spassky) = players(&db);
    let (a, _stop_a) = support::app_over(support::open(&db));
    let (b, _stop_b) = support::app_over(support::open(&db));
    let declined =
        support::challenge(&a, &fischer, "spassky", "clock.limit=60&clock.increment=0").await;
    let path = format!("/api/challenge/{declined}/decline");
    let (status, body) = ask(&b, "POST", &path, Some(&spassky), "reason=later").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let cancelled =
        support::challenge(&b, &fischer, "spassky", "clock.limit=60&clock.increment=0").await;
    let path = format!("/api/challenge/{cancelled}/cancel");
    let (status, body) = ask(&a, "POST", &path, Some(&fischer), "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for app in [&a, &b] {
        let (_, open) = ask(app, "GET", "/api/challenge", Some(&spassky), "").await;
        assert_eq!(open["in"], serde_json::json!([]), "{open}");
    }
}
