//! Every acting endpoint of the lichess-compatible API tried as each kind
//! of asker: the owner, the opponent, another account, nobody, a token
//! without the scope, a bot on the Board API. Exactly the allowed ones
//! work, and a refused request changes nothing.

mod support;

use axum::http::StatusCode;
use rochade_server::accounts::admin;
use support::ask;

/// The askers.
struct Askers {
    app: axum::Router,
    _stop: tokio::sync::watch::Sender<bool>,
    fischer: String,
    spassky: String,
    lasker: String,
    no_scope: String,
    bot: String,
}

fn askers() -> Askers {
    let storage = support::open(&support::temp_db());
    for name in ["Fischer", "Spassky", "Lasker"] {
        admin::add_user(&storage, name, None, false).expect("account");
    }
    admin::add_user(&storage, "Bot", None, true).expect("bot");
    let all = "board:play,challenge:read,challenge:write";
    let token =
        |name: &str, scopes: &str| admin::create_token(&storage, name, scopes, "").expect("token");
    let (fischer, spassky, lasker) = (
        token("fischer", all),
        token("spassky", all),
        token("lasker", all),
    );
    let no_scope = token("fischer", "preference:read");
    let bot = token("bot", "bot:play");
    let (app, stop) = support::app_over(storage);
    Askers {
        app,
        _stop: stop,
        fischer,
        spassky,
        lasker,
        no_scope,
        bot,
    }
}

/// A challenge from Fischer (White) to Spassky; returns its id.
async fn challenge(a: &Askers) -> String {
    let form = "clock.limit=300&clock.increment=3";
    support::challenge(&a.app, &a.fischer, "spassky", form).await
}

/// The game Fischer and Spassky play (Fischer White).
async fn game(a: &Askers) -> String {
    let id = challenge(a).await;
    support::accepted(&a.app, &a.fischer, &id, &a.spassky).await
}

/// The game's half-moves and whether it is over, as a spectator sees it.
async fn progress(a: &Askers, game: &str) -> (u64, bool) {
    let (_, state) = ask(&a.app, "GET", &format!("/api/games/{game}"), None, "").await;
    (
        state["ply"].as_u64().expect("ply"),
        !state["outcome"].is_null() || state["aborted"] == true,
    )
}

#[tokio::test]
async fn challenges_answer_only_to_their_own_players() {
    let a = askers();
    let (status, _) = ask(&a.app, "POST", "/api/challenge/spassky", None, "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = ask(
        &a.app,
        "POST",
        "/api/challenge/spassky",
        Some(&a.no_scope),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = ask(
        &a.app,
        "POST",
        "/api/challenge/fischer",
        Some(&a.fischer),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) = ask(
        &a.app,
        "POST",
        "/api/challenge/nobody",
        Some(&a.fischer),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = ask(
        &a.app,
        "POST",
        "/api/challenge/spassky",
        Some(&a.fischer),
        "clock.limit=ten",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("clock.limit")),
        "{body}"
    );
    let (status, body) = ask(
        &a.app,
        "POST",
        "/api/challenge/spassky",
        Some(&a.fischer),
        "admin=1",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("unknown field `admin`")),
        "{body}"
    );

    // (action, who may, who may not).
    let id = challenge(&a).await;
    for (action, refused) in [
        ("accept", [&a.fischer, &a.lasker]),
        ("decline", [&a.fischer, &a.lasker]),
        ("cancel", [&a.spassky, &a.lasker]),
    ] {
        let path = format!("/api/challenge/{id}/{action}");
        for token in refused {
            assert_eq!(
                ask(&a.app, "POST", &path, Some(token), "").await.0,
                StatusCode::NOT_FOUND,
                "{action}"
            );
        }
        assert_eq!(
            ask(&a.app, "POST", &path, None, "").await.0,
            StatusCode::UNAUTHORIZED,
            "{action}"
        );
        assert_eq!(
            ask(&a.app, "POST", &path, Some(&a.no_scope), "").await.0,
            StatusCode::FORBIDDEN,
            "{action}"
        );
    }
    // None of the refusals touched it: Spassky can still accept.
    let path = format!("/api/challenge/{id}/accept");
    assert_eq!(
        ask(&a.app, "POST", &path, Some(&a.spassky), "").await.0,
        StatusCode::OK
    );
    assert_eq!(
        ask(&a.app, "POST", &path, Some(&a.spassky), "").await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn only_the_players_act_in_their_game() {
    let a = askers();
    let game = game(&a).await;
    let paths = [
        format!("/api/board/game/{game}/move/e2e4"),
        format!("/api/board/game/{game}/draw/yes"),
        format!("/api/board/game/{game}/takeback/yes"),
        format!("/api/board/game/{game}/resign"),
        format!("/api/board/game/{game}/abort"),
        format!("/api/board/game/{game}/chat"),
        format!("/api/board/game/{game}/claim-victory"),
        format!("/api/board/game/{game}/berserk"),
    ];
    for path in &paths {
        for (token, expected) in [
            (None, StatusCode::UNAUTHORIZED),
            (Some(&a.no_scope), StatusCode::FORBIDDEN),
            (Some(&a.lasker), StatusCode::NOT_FOUND),
            (Some(&a.bot), StatusCode::FORBIDDEN),
        ] {
            let (status, body) = ask(&a.app, "POST", path, token.map(String::as_str), "").await;
            assert_eq!(status, expected, "{path}: {body}");
        }
        let bot_path = path.replace("/board/", "/bot/");
        let (status, _) = ask(&a.app, "POST", &bot_path, Some(&a.fischer), "").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{bot_path}");
    }
    assert_eq!(progress(&a, &game).await, (0, false), "nothing changed");
    // Black may not move for White; White may.
    let (status, body) = ask(&a.app, "POST", &paths[0], Some(&a.spassky), "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(progress(&a, &game).await, (0, false));
    let (status, body) = ask(&a.app, "POST", &paths[0], Some(&a.fischer), "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(progress(&a, &game).await, (1, false));
    // An illegal move says why and changes nothing.
    let (status, body) = ask(
        &a.app,
        "POST",
        &format!("/api/board/game/{game}/move/e7e4"),
        Some(&a.spassky),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(progress(&a, &game).await, (1, false));
    // Berserk, Black before their first move: not an arena's game.
    let berserk = format!("/api/board/game/{game}/berserk");
    let (status, body) = ask(&a.app, "POST", &berserk, Some(&a.spassky), "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("arena"), "{body}");
    assert_eq!(progress(&a, &game).await, (1, false));
    // 5.1.2: the opponent resigns; nothing more is allowed.
    let resign = format!("/api/board/game/{game}/resign");
    assert_eq!(
        ask(&a.app, "POST", &resign, Some(&a.spassky), "").await.0,
        StatusCode::OK
    );
    assert_eq!(progress(&a, &game).await, (1, true));
    assert_eq!(
        ask(&a.app, "POST", &resign, Some(&a.fischer), "").await.0,
        StatusCode::BAD_REQUEST
    );
}
