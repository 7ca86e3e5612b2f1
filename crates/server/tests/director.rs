//! The tournament director (ICCF 14) through the running server: a site
//! director creates a correspondence section, names its players and
//! starts it (every game of the Berger round robin at once, one Chess960
//! position for all, appendix B); the organiser's settings hold in each
//! game (no draw before move N, 9.1.1; no abort); the director stops and
//! restarts clocks (6.10), sets one (6.11), adjudicates (11.1), records a
//! withdrawal and a warning (13.3) and grants leave (10.1); every decision
//! is logged with its reason, shown to both players, and can be appealed;
//! anyone else's decision is refused and changes nothing.

mod support;

use std::time::Duration;

use rochade_loadtest::client::{GameSocket, request};
use serde_json::{Value, json};
use support::{TestServer, appoint, ask_page, refused_saying, seat, sign_up};

const DAY_MS: u64 = 86_400_000;
const WAIT: Duration = Duration::from_secs(10);

async fn state(server: &TestServer, id: &str) -> Value {
    request(&server.host, "GET", &format!("/api/games/{id}"), None, None)
        .await
        .expect("answers")
        .json
}

/// A decision by the holder of `session` on game `id`: status and answer.
async fn decide(
    server: &TestServer,
    session: &str,
    id: &str,
    decision: Value,
    reason: &str,
) -> (u16, Value) {
    let body = json!({"decision": decision, "reason": reason});
    ask_page(
        server,
        session,
        "POST",
        &format!("/api/games/{id}/decide"),
        Some(body),
    )
    .await
}

/// A section of `players` made and started by the site director `td`
/// with `settings`; its id and its page after the start.
async fn section(
    server: &TestServer,
    td: &str,
    settings: Value,
    players: &[&str],
) -> (String, Value) {
    let (status, made) = ask_page(server, td, "POST", "/api/tournaments", Some(settings)).await;
    assert_eq!(status, 200, "{made}");
    let id = made["id"].as_str().expect("id").to_owned();
    for name in players {
        let path = format!("/api/tournaments/{id}/players");
        let (status, answer) =
            ask_page(server, td, "POST", &path, Some(json!({"name": name}))).await;
        assert_eq!(status, 200, "{answer}");
    }
    let path = format!("/api/tournaments/{id}/start");
    let (status, started) = ask_page(server, td, "POST", &path, None).await;
    assert_eq!(status, 200, "{started}");
    let (_, page) = ask_page(server, td, "GET", &format!("/api/tournaments/{id}"), None).await;
    (id, page)
}

#[tokio::test]
async fn iccf_art_14_the_director_runs_a_section_and_decides_with_reasons() {
    let server = TestServer::start().await;
    let td = sign_up(&server, "Arbiter").await;
    let tal = sign_up(&server, "Tal").await;
    let petrosian = sign_up(&server, "Petrosian").await;
    let _smyslov = sign_up(&server, "Smyslov").await;
    let outsider = sign_up(&server, "Outsider").await;
    appoint(&server, "arbiter");

    // Only a site director creates a tournament.
    let settings = json!({
        "name": "Correspondence Masters",
        "time_control": "10/40d",
        "draws_from_move": 20,
        "chess960": "random",
    });
    let (status, refused) = ask_page(
        &server,
        &outsider,
        "POST",
        "/api/tournaments",
        Some(settings.clone()),
    )
    .await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["error"]["code"], "forbidden");
    let (status, refused) = ask_page(
        &server,
        &td,
        "POST",
        "/api/tournaments",
        Some(json!({"name": "x", "time_control": "10/40d", "chess960": 960})),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("chess960")
    );

    let (id, page) = section(&server, &td, settings, &["Tal", "Petrosian", "Smyslov"]).await;
    assert!(
        server
            .shared
            .storage
            .tournament(&id)
            .expect("reads")
            .is_some()
    );
    // Three players: a round robin of three games, all begun at once, all
    // from the one Chess960 position drawn for the event (appendix B).
    let games = page["games"].as_array().expect("games");
    assert_eq!(games.len(), 3, "{page}");
    let number = games[0]["chess960"].as_u64().expect("a Chess960 game");
    assert!(games.iter().all(|g| g["chess960"] == number), "{page}");
    assert_eq!(page["standings"].as_array().expect("standings").len(), 3);
    assert_eq!(page["director"], "Arbiter");

    // Nobody but the director names players or starts it again.
    let path = format!("/api/tournaments/{id}/players");
    let (status, _) = ask_page(
        &server,
        &outsider,
        "POST",
        &path,
        Some(json!({"name": "Outsider"})),
    )
    .await;
    assert_eq!(status, 403);
    let path = format!("/api/tournaments/{id}/start");
    let (status, again) = ask_page(&server, &td, "POST", &path, None).await;
    assert_eq!(status, 400, "{again}");
    assert_eq!(again["error"]["code"], "not_allowed");

    // Tal's game as White.
    let game = games
        .iter()
        .find(|g| g["white"] == "Tal")
        .expect("Tal has White once")["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let black_name = games.iter().find(|g| g["id"] == game).expect("game")["black"]
        .as_str()
        .expect("black")
        .to_owned();
    let black_session = if black_name == "Petrosian" {
        &petrosian
    } else {
        &_smyslov
    };
    let shown = state(&server, &game).await;
    assert_eq!(shown["rules"], "iccf");
    assert_eq!(shown["tournament"], id.as_str());
    assert_eq!(shown["chess960"], number);

    // 9.1.1: no draw before move 20; a tournament game is not aborted.
    let token = seat(&server, &tal, &game).await;
    let mut white = GameSocket::connect(&server.host, &game, &token)
        .await
        .expect("connects");
    let first = white.state(WAIT, |_| true).await.expect("state");
    let dest = first["dests"]
        .as_object()
        .expect("dests")
        .iter()
        .next()
        .map(|(from, to)| format!("{from}{}", to[0].as_str().unwrap()))
        .expect("a legal move");
    let offered = json!({"t": "move", "ply": 0, "uci": dest, "offer_draw": true});
    refused_saying(&mut white, &offered, "9.1.1").await;
    refused_saying(&mut white, &json!({"t": "abort"}), "director").await;

    // 6.10: the director stops the clocks; no move can be made; a player
    // or an outsider cannot decide, and their attempt changes nothing.
    for session in [&tal, &outsider] {
        let (status, refused) = decide(
            &server,
            session,
            &game,
            json!({"act": "stop_clocks"}),
            "mine",
        )
        .await;
        assert_eq!(status, 403, "{refused}");
    }
    assert!(state(&server, &game).await["halted"].is_null());
    let (status, stopped) = decide(
        &server,
        &td,
        &game,
        json!({"act": "stop_clocks"}),
        "a dispute about the start position is being examined",
    )
    .await;
    assert_eq!(status, 200, "{stopped}");
    let first_decision = stopped["decision"].as_i64().expect("id");
    let halted = white
        .state(WAIT, |s| s["halted"] == true)
        .await
        .expect("the players see it");
    assert!(halted["clock"]["running"].is_null(), "{halted}");
    assert_eq!(halted["decisions"][0]["decision"]["act"], "stop_clocks");
    assert_eq!(halted["decisions"][0]["by"], "Arbiter");
    refused_saying(
        &mut white,
        &json!({"t": "move", "ply": 0, "uci": dest}),
        "6.10",
    )
    .await;
    let (status, twice) = decide(&server, &td, &game, json!({"act": "stop_clocks"}), "again").await;
    assert_eq!(status, 400, "{twice}");

    // 6.10 c, 6.11: resumed, and White's clock set to five days.
    let (status, _) = decide(
        &server,
        &td,
        &game,
        json!({"act": "start_clocks"}),
        "examined",
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = decide(
        &server,
        &td,
        &game,
        json!({"act": "set_clock", "color": "white", "left_ms": 5 * DAY_MS}),
        "time lost to the server's outage restored",
    )
    .await;
    assert_eq!(status, 200);
    let set = state(&server, &game).await;
    assert_eq!(set["clock"]["running"], "white", "{set}");
    let left = set["clock"]["white"].as_u64().expect("white's time");
    assert!(left <= 5 * DAY_MS && left > 5 * DAY_MS - 60_000, "{set}");

    // Bad decisions: refused, named, nothing changed.
    let (status, bad) = decide(
        &server,
        &td,
        &game,
        json!({"act": "adjudicate", "result": "0-0"}),
        "x",
    )
    .await;
    assert_eq!(status, 400, "{bad}");
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("double_forfeit")
    );
    let (status, bad) = decide(&server, &td, &game, json!({"act": "resign"}), "x").await;
    assert_eq!(status, 400, "{bad}");
    let (status, bad) = decide(&server, &td, &game, json!({"act": "start_clocks"}), "  ").await;
    assert_eq!(status, 400, "{bad}");
    assert!(bad["error"]["message"].as_str().unwrap().contains("reason"));

    // 11.1: adjudicated a draw (5.2.6).
    let (status, _) = decide(
        &server,
        &td,
        &game,
        json!({"act": "adjudicate", "result": "1/2-1/2"}),
        "both players agreed the position is a fortress",
    )
    .await;
    assert_eq!(status, 200);
    let over = state(&server, &game).await;
    assert_eq!(over["outcome"]["reason"], "adjudicated_draw", "{over}");
    assert_eq!(over["outcome"]["article"], "ICCF 5.2.6");
    let (status, late) = decide(&server, &td, &game, json!({"act": "double_forfeit"}), "x").await;
    assert_eq!(status, 400, "{late}");
    assert_eq!(late["error"]["code"], "game_over");

    // Both players see every decision with its reason.
    for session in [&tal, black_session] {
        let (status, mine) =
            ask_page(&server, session, "GET", "/api/account/decisions", None).await;
        assert_eq!(status, 200);
        let reasons: Vec<&str> = mine["decisions"]
            .as_array()
            .expect("decisions")
            .iter()
            .filter_map(|d| d["reason"].as_str())
            .collect();
        assert_eq!(reasons.len(), 4, "{mine}");
        assert!(reasons.contains(&"a dispute about the start position is being examined"));
    }
    let (_, none) = ask_page(&server, &outsider, "GET", "/api/account/decisions", None).await;
    assert_eq!(none["decisions"], json!([]));

    // An appeal: only by a player concerned; the director answers, once.
    let appeal = json!({"kind": "appeal", "decision": first_decision, "message": "I disagree"});
    let (status, _) = ask_page(
        &server,
        &outsider,
        "POST",
        "/api/requests",
        Some(appeal.clone()),
    )
    .await;
    assert_eq!(status, 403);
    let (status, filed) = ask_page(&server, &tal, "POST", "/api/requests", Some(appeal)).await;
    assert_eq!(status, 200, "{filed}");
    let request = filed["id"].as_i64().expect("id");
    let (_, attention) = ask_page(&server, &td, "GET", "/api/director", None).await;
    assert_eq!(
        attention["requests"][0]["message"], "I disagree",
        "{attention}"
    );
    assert_eq!(attention["requests"][0]["by_name"], "Tal", "{attention}");
    let (_, nothing) = ask_page(&server, &outsider, "GET", "/api/director", None).await;
    assert_eq!(nothing["requests"], json!([]));
    let path = format!("/api/requests/{request}/answer");
    let answer = json!({"answer": "The decision stands: the position was checked."});
    let (status, _) = ask_page(&server, &tal, "POST", &path, Some(answer.clone())).await;
    assert_eq!(status, 403);
    let (status, _) = ask_page(&server, &td, "POST", &path, Some(answer.clone())).await;
    assert_eq!(status, 200);
    let (status, twice) = ask_page(&server, &td, "POST", &path, Some(answer)).await;
    assert_eq!(status, 400, "{twice}");
    let (_, mine) = ask_page(&server, &tal, "GET", "/api/account/decisions", None).await;
    assert_eq!(
        mine["requests"][0]["answer"]["text"],
        "The decision stands: the position was checked."
    );

    // 13.3: a warning; 10.1: extra leave; a silent withdrawal forfeits
    // every unfinished game of the player.
    let path = format!("/api/tournaments/{id}/warn");
    let warning = json!({"player": "Petrosian", "reason": "repeated draw offers (13.3.2.3 e)"});
    let (status, _) = ask_page(&server, &td, "POST", &path, Some(warning)).await;
    assert_eq!(status, 200);
    let path = format!("/api/tournaments/{id}/leave");
    let year =
        rochade_server::correspondence::leave::Day::of_ms(server.shared.clock.now_ms()).year();
    let grant = json!({"player": "Petrosian", "days": 10, "year": year, "reason": "illness"});
    let (status, granted) = ask_page(&server, &td, "POST", &path, Some(grant)).await;
    assert_eq!(status, 200, "{granted}");
    let (_, leave) = ask_page(&server, &petrosian, "GET", "/api/account/leave", None).await;
    assert_eq!(leave["allowance"][0]["days"], 55, "{leave}");
    let path = format!("/api/tournaments/{id}/withdraw");
    let withdrawal =
        json!({"player": "Smyslov", "silent": true, "reason": "no answer for 40 days"});
    let (status, withdrawn) = ask_page(&server, &td, "POST", &path, Some(withdrawal.clone())).await;
    assert_eq!(status, 200, "{withdrawn}");
    let forfeited = withdrawn["forfeited"].as_array().expect("forfeited");
    // Smyslov's games that were still running: two, less the one
    // adjudicated above if it was his.
    assert_eq!(
        forfeited.len(),
        if black_name == "Smyslov" { 1 } else { 2 },
        "{withdrawn}"
    );
    let (status, _) = ask_page(&server, &td, "POST", &path, Some(withdrawal)).await;
    assert_eq!(status, 400);
    for g in forfeited {
        let over = state(&server, g.as_str().unwrap()).await;
        assert_eq!(over["outcome"]["reason"], "forfeit", "{over}");
    }
    let (_, page) = ask_page(&server, &td, "GET", &format!("/api/tournaments/{id}"), None).await;
    let smyslov = page["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Smyslov")
        .expect("listed");
    assert_eq!(smyslov["withdrawn"], true);
    assert!(page["decisions"].as_array().unwrap().len() >= 7, "{page}");
    let warned = page["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["decision"]["act"] == "warning")
        .expect("the warning is logged");
    assert_eq!(
        (warned["by_name"].as_str(), warned["player_name"].as_str()),
        (Some("Arbiter"), Some("Petrosian")),
        "{warned}"
    );
    server.stop().await;
}

#[tokio::test]
async fn iccf_appendix_c_a_triple_block_game_knows_no_leave_and_no_stopped_clocks() {
    let server = TestServer::start().await;
    let td = sign_up(&server, "Arbiter").await;
    let tal = sign_up(&server, "Tal").await;
    let _keres = sign_up(&server, "Keres").await;
    appoint(&server, "arbiter");
    let settings =
        json!({"name": "Triple Block trial", "time_control": "30d+1d", "triple_block": true});
    let (_, page) = section(&server, &td, settings, &["Tal", "Keres"]).await;
    let game = page["games"][0]["id"].as_str().expect("id").to_owned();
    let (status, refused) = decide(&server, &td, &game, json!({"act": "stop_clocks"}), "x").await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Triple Block")
    );
    // Tal books leave: his Triple Block game's clocks do not stop for it.
    let day = |n: u64| {
        rochade_server::correspondence::leave::Day::of_ms(server.shared.clock.now_ms() + n * DAY_MS)
            .to_string()
    };
    let booking = json!({"from": day(2), "to": day(4)});
    let (status, booked) =
        ask_page(&server, &tal, "POST", "/api/account/leave", Some(booking)).await;
    assert_eq!(status, 200, "{booked}");
    let shown = state(&server, &game).await;
    assert_eq!(shown["clock"]["pauses"], json!([]), "{shown}");
    // Not a day control: no Triple Block.
    let (status, refused) = ask_page(
        &server,
        &td,
        "POST",
        "/api/tournaments",
        Some(json!({"name": "blitz", "time_control": "3+2", "triple_block": true})),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    server.stop().await;
}

#[tokio::test]
async fn iccf_art_14_2_silent_games_and_stopped_clocks_need_the_site_director() {
    let server = TestServer::start().await;
    let td = sign_up(&server, "Arbiter").await;
    let fischer = sign_up(&server, "Fischer").await;
    let spassky = sign_up(&server, "Spassky").await;
    appoint(&server, "arbiter");
    // A correspondence game of no tournament: the site's directors direct it.
    let terms = json!({"time_control": "30d+1d", "color": "white"});
    let (status, made) = ask_page(
        &server,
        &fischer,
        "POST",
        "/api/account/challenge/spassky",
        Some(terms),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let path = format!(
        "/api/account/challenge/{}/accept",
        made["id"].as_str().unwrap()
    );
    let (_, accepted) = ask_page(&server, &spassky, "POST", &path, None).await;
    let game = accepted["game"].as_str().expect("game").to_owned();

    let (_, attention) = ask_page(&server, &td, "GET", "/api/director", None).await;
    assert_eq!(attention["games"], json!([]), "{attention}");
    // The page offers the form of a new tournament to the site's directors only.
    assert_eq!(attention["site_director"], true, "{attention}");
    let (_, player) = ask_page(&server, &fischer, "GET", "/api/director", None).await;
    assert_eq!(player["site_director"], false, "{player}");
    // Fifteen days without a move: over the 14 the site allows.
    server
        .shared
        .advance_clocks(Duration::from_millis(15 * DAY_MS));
    let (_, attention) = ask_page(&server, &td, "GET", "/api/director", None).await;
    assert_eq!(attention["games"][0]["id"], game.as_str(), "{attention}");
    assert_eq!(attention["games"][0]["why"], "silent");
    assert!(attention["games"][0]["days"].as_u64().unwrap() >= 15);
    // A player's claim about it reaches the director.
    let claim =
        json!({"kind": "claim", "game": game, "message": "my opponent has not moved for 15 days"});
    let (status, _) = ask_page(&server, &spassky, "POST", "/api/requests", Some(claim)).await;
    assert_eq!(status, 200);
    let (_, attention) = ask_page(&server, &td, "GET", "/api/director", None).await;
    assert_eq!(attention["requests"][0]["kind"], "claim", "{attention}");
    // A player does not direct their own game.
    let (status, _) = decide(
        &server,
        &spassky,
        &game,
        json!({"act": "forfeit", "color": "white"}),
        "x",
    )
    .await;
    assert_eq!(status, 403);
    let (status, _) = decide(
        &server,
        &td,
        &game,
        json!({"act": "forfeit", "color": "white"}),
        "the claim is upheld (6.6)",
    )
    .await;
    assert_eq!(status, 200);
    let over = state(&server, &game).await;
    assert_eq!(over["outcome"]["winner"], "black", "{over}");
    let (_, attention) = ask_page(&server, &td, "GET", "/api/director", None).await;
    assert_eq!(attention["games"], json!([]), "{attention}");
    server.stop().await;
}
