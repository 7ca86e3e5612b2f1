//! "Your time is running low" at the thresholds each correspondence
//! player sets (issue 17 point 13): up to three, in hours, in the
//! notification settings; told once per move and threshold, on the page
//! at once (and in the e-mail digest, `mail.rs`); bad thresholds refused
//! with the rule named and nothing changed.

mod support;

use std::time::Duration;

use rochade_loadtest::client::GameSocket;
use serde_json::{Value, json};
use support::{TestServer, WAIT, account_game_of, ask_page, play};

const HOUR_MS: u64 = 3_600_000;

/// Signs `name` in again; the session.
async fn sign_in(server: &TestServer, name: &str) -> String {
    let body = json!({"name": name, "password": "a long secret 1"});
    rochade_loadtest::client::request(&server.host, "POST", "/api/auth/signin", Some(&body), None)
        .await
        .expect("answers")
        .session
        .expect("a session")
}

/// Sets the thresholds of the holder of `session` to `hours`; the status
/// and the answer.
async fn set_hours(server: &TestServer, session: &str, hours: Value) -> (u16, Value) {
    let body = json!({"email": null, "lang": "en", "low_time_hours": hours});
    ask_page(
        server,
        session,
        "POST",
        "/api/account/notifications",
        Some(body),
    )
    .await
}

/// The next "time running low" notice on the page `socket`.
async fn low(socket: &mut GameSocket) -> Value {
    socket
        .until("news", WAIT, |m| m["news"]["notice"]["kind"] == "time_low")
        .await
        .expect("told the time runs low")
}

#[tokio::test]
async fn each_player_hears_their_time_runs_low_at_their_own_thresholds() {
    let server = TestServer::start().await;
    let (game, white, _black, _api) = account_game_of(&server, "3d/move").await;
    let spassky = sign_in(&server, "Spassky").await;

    // Bad thresholds: refused, named, nothing changed.
    for (hours, says) in [
        (json!([0]), "1 to 720 hours"),
        (json!([721]), "1 to 720 hours"),
        (json!([1, 2, 3, 4]), "at most 3"),
        (json!(["a day"]), "low_time_hours"),
    ] {
        let (status, refused) = set_hours(&server, &spassky, hours).await;
        assert_eq!(status, 400, "{refused}");
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{message} should say {says}");
    }
    let (_, shown) = ask_page(&server, &spassky, "GET", "/api/account/notifications", None).await;
    assert_eq!(
        shown["low_time_hours"],
        json!([24]),
        "the server's: {shown}"
    );
    assert_eq!(shown["own_low_time"], false);

    // Spassky wants to hear at two days and at twelve hours.
    let (status, set) = set_hours(&server, &spassky, json!([12, 48])).await;
    assert_eq!(status, 200, "{set}");
    assert_eq!(set["low_time_hours"], json!([48, 12]));
    assert_eq!(set["own_low_time"], true);

    let mut page = GameSocket::open_path(&server.host, "/ws/lobby", Some(&spassky))
        .await
        .expect("opens");
    page.until("hello", WAIT, |_| true).await.expect("hello");

    // Fischer moves: Spassky has three days for his.
    let mut fischer = GameSocket::connect(&server.host, &game, &white)
        .await
        .expect("connects");
    fischer.state(WAIT, |_| true).await.expect("state");
    play(&mut fischer, 0, "e2e4").await;
    fischer
        .state(WAIT, |s| s["ply"] == 1)
        .await
        .expect("played");

    // 25 hours on: 47 left, past the 48-hour threshold.
    server
        .shared
        .advance_clocks(Duration::from_millis(25 * HOUR_MS));
    let first = low(&mut page).await;
    assert_eq!(first["news"]["gameId"], game.as_str(), "{first}");
    // 24 more: 23 left, nothing new; 12 more: 11 left, past twelve hours.
    server
        .shared
        .advance_clocks(Duration::from_millis(24 * HOUR_MS));
    server
        .shared
        .advance_clocks(Duration::from_millis(12 * HOUR_MS));
    let second = low(&mut page).await;
    let deadline = second["news"]["notice"]["deadline"]
        .as_u64()
        .expect("deadline");
    let now = server.shared.clock.now_ms();
    assert!(deadline > now && deadline - now <= 12 * HOUR_MS, "{second}");
    // Told twice, not three times: the page hears no third one.
    assert!(
        page.until("news", Duration::from_millis(500), |m| {
            m["news"]["notice"]["kind"] == "time_low"
        })
        .await
        .is_err(),
        "a third notice"
    );

    // Back to the server's thresholds.
    let (_, reset) = set_hours(&server, &spassky, json!([])).await;
    assert_eq!(reset["low_time_hours"], json!([24]), "{reset}");
    assert_eq!(reset["own_low_time"], false);
    server.stop().await;
}
