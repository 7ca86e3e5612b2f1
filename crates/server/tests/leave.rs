//! Leave (ICCF 10.1) through the running server: a player books whole
//! days ahead within the yearly allowance; both clocks of every
//! correspondence game of theirs stand still over them, in games begun
//! before the booking and after it; a booking that breaks a rule is
//! refused with the rule named and nothing stored.

mod support;

use std::time::Duration;

use rochade_loadtest::client::request;
use rochade_server::correspondence::leave::Day;
use serde_json::{Value, json};
use support::{TestServer, ask_page, sign_up};

const DAY_MS: u64 = 86_400_000;

/// A correspondence game of `control`: `white` challenges `black`, who
/// accepts; the game's id.
async fn game(
    server: &TestServer,
    white: &str,
    black: &str,
    black_name: &str,
    control: &str,
) -> String {
    let terms = json!({"time_control": control, "color": "white"});
    let path = format!("/api/account/challenge/{black_name}");
    let (status, made) = ask_page(server, white, "POST", &path, Some(terms)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().expect("id");
    let path = format!("/api/account/challenge/{id}/accept");
    let (status, accepted) = ask_page(server, black, "POST", &path, None).await;
    assert_eq!(status, 200, "{accepted}");
    accepted["game"].as_str().expect("game").to_owned()
}

async fn state(server: &TestServer, id: &str) -> Value {
    let a = request(&server.host, "GET", &format!("/api/games/{id}"), None, None)
        .await
        .expect("answers");
    a.json
}

/// The day `n` days from the server's today.
fn day(server: &TestServer, n: u64) -> String {
    Day::of_ms(server.shared.clock.now_ms() + n * DAY_MS).to_string()
}

#[tokio::test]
async fn iccf_art_10_1_leave_stops_both_clocks_in_every_correspondence_game() {
    let server = TestServer::start().await;
    let fischer = sign_up(&server, "Fischer").await;
    let spassky = sign_up(&server, "Spassky").await;
    let first = game(&server, &fischer, &spassky, "spassky", "10/40d").await;

    let (status, shown) = ask_page(&server, &fischer, "GET", "/api/account/leave", None).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["allowance"][0]["left"], 45);

    // Spassky's open page hears of Fischer's leave (10.1).
    let mut page =
        rochade_loadtest::client::GameSocket::open_path(&server.host, "/ws/lobby", Some(&spassky))
            .await
            .expect("opens");
    page.until("hello", Duration::from_secs(10), |_| true)
        .await
        .expect("hello");

    // Seven days, from the day after tomorrow.
    let booking = json!({"from": day(&server, 2), "to": day(&server, 8)});
    let (status, booked) = ask_page(
        &server,
        &fischer,
        "POST",
        "/api/account/leave",
        Some(booking),
    )
    .await;
    assert_eq!(status, 200, "{booked}");
    assert_eq!(booked["days"], 7);
    assert_eq!(booked["games"], 1);
    let told = page
        .until("news", Duration::from_secs(10), |m| {
            m["news"]["notice"]["kind"] == "leave"
        })
        .await
        .expect("the opponent is told");
    assert_eq!(told["news"]["notice"]["player"], "Fischer", "{told}");
    assert_eq!(told["news"]["gameId"], first.as_str());

    let s = state(&server, &first).await;
    assert_eq!(
        s["clock"]["pauses"].as_array().map(Vec::len),
        Some(1),
        "{s}"
    );
    // White's forty days now end seven days later.
    let flag_in = s["clock"]["flag_in"].as_u64().expect("a running flag");
    assert!(flag_in > 46 * DAY_MS && flag_in <= 47 * DAY_MS, "{flag_in}");

    // The list of games (one query, no room) shows the same deadline.
    let (status, list) = ask_page(&server, &fischer, "GET", "/api/account/games", None).await;
    assert_eq!(status, 200, "{list}");
    let entry = &list["games"][0];
    assert_eq!(
        (entry["rules"].as_str(), entry["isMyTurn"].as_bool()),
        (Some("iccf"), Some(true))
    );
    let deadline = entry["deadline"].as_u64().expect("a deadline");
    let now = server.shared.clock.now_ms();
    assert!(
        deadline > now + 46 * DAY_MS && deadline <= now + 47 * DAY_MS,
        "{entry}"
    );

    // A game begun after the booking takes the leave in too.
    let second = game(&server, &spassky, &fischer, "fischer", "3d/move").await;
    let s = state(&server, &second).await;
    assert_eq!(
        s["clock"]["pauses"].as_array().map(Vec::len),
        Some(1),
        "{s}"
    );
    assert_eq!(s["rules"], "iccf");

    // Into the leave: White's clock of the first game stands still.
    let to = s["clock"]["pauses"][0][1]
        .as_u64()
        .expect("the pause's end");
    assert!(to > 8 * DAY_MS);
    // An hour into the leave (it begins at midnight, whatever the time of
    // day the test runs at).
    let now = server.shared.clock.now_ms();
    let begins = (now / DAY_MS + 2) * DAY_MS;
    assert_eq!(Day::of_ms(begins).to_string(), day(&server, 2));
    server
        .shared
        .advance_clocks(Duration::from_millis(begins + 3_600_000 - now));
    let during = state(&server, &first).await["clock"]["white"]
        .as_u64()
        .expect("white");
    server.shared.advance_clocks(Duration::from_millis(DAY_MS));
    let later = state(&server, &first).await["clock"]["white"]
        .as_u64()
        .expect("white");
    assert_eq!(during, later, "the clock ran during the leave");
    // Spassky's page hears the leave begin, and end.
    let begun = page
        .until("news", Duration::from_secs(10), |m| {
            m["news"]["notice"]["kind"] == "leave_begins"
        })
        .await
        .expect("told the leave begins");
    assert_eq!(begun["news"]["notice"]["player"], "Fischer", "{begun}");
    // An hour after its last day.
    server
        .shared
        .advance_clocks(Duration::from_millis(6 * DAY_MS));
    page.until("news", Duration::from_secs(10), |m| {
        m["news"]["notice"]["kind"] == "leave_ends"
    })
    .await
    .expect("told the leave is over");

    let (_, shown) = ask_page(&server, &fischer, "GET", "/api/account/leave", None).await;
    assert_eq!(
        shown["allowance"][0]["used"].as_i64().unwrap_or(0)
            + shown["allowance"][1]["used"].as_i64().unwrap_or(0),
        7,
        "{shown}"
    );
    server.stop().await;
}

#[tokio::test]
async fn iccf_art_10_1_a_booking_that_breaks_a_rule_is_refused_and_nothing_is_stored() {
    let server = TestServer::start().await;
    let fischer = sign_up(&server, "Fischer").await;
    let ok = json!({"from": day(&server, 10), "to": day(&server, 12)});
    let (status, body) = ask_page(&server, &fischer, "POST", "/api/account/leave", Some(ok)).await;
    assert_eq!(status, 200, "{body}");
    let refusals = [
        (
            json!({"from": day(&server, 0), "to": day(&server, 1)}),
            "booked ahead",
        ),
        (
            json!({"from": day(&server, 12), "to": day(&server, 14)}),
            "overlaps",
        ),
        (
            json!({"from": day(&server, 20), "to": day(&server, 20 + 400)}),
            "allowance",
        ),
        (
            json!({"from": day(&server, 5), "to": day(&server, 3)}),
            "ends",
        ),
        (
            json!({"from": "2027-02-30", "to": day(&server, 3)}),
            "from:",
        ),
        (json!({"from": day(&server, 3), "to": 7}), "to"),
        (json!({"from": day(&server, 3)}), "to"),
        (
            json!({"from": day(&server, 3), "to": day(&server, 4), "days": 2}),
            "days",
        ),
    ];
    for (body, says) in refusals {
        let (status, answer) = ask_page(
            &server,
            &fischer,
            "POST",
            "/api/account/leave",
            Some(body.clone()),
        )
        .await;
        assert_eq!(status, 400, "{body}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{body}: {message}");
    }
    let (_, shown) = ask_page(&server, &fischer, "GET", "/api/account/leave", None).await;
    assert_eq!(shown["leave"].as_array().map(Vec::len), Some(1), "{shown}");
    server.stop().await;
}
