//! A year of correspondence chess in seconds, against the real binary
//! (issue 17 point 16): `rochade serve --test-clock` moves its time when
//! standard input says so. Two players meet twice in a `10/40d` section
//! of a director's tournament: moves days apart, leave (10.1) that stops
//! both games' clocks, an e-mail reminder through an SMTP relay, a
//! director's stop and restart of the clocks (6.10), a fallen flag that
//! the leave put off by exactly its days (6.7), a tablebase claim (5.1.3),
//! an adjudication (11.1), and the leave allowance renewed on 1 January.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rochade_loadtest::client::{GameSocket, request};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);
const DAY_MS: u64 = 86_400_000;

/// An SMTP sink on a free port: every message's text, as received.
fn smtp_sink() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
    let port = listener.local_addr().expect("addr").port();
    let got = Arc::new(Mutex::new(Vec::new()));
    let kept = got.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let kept = kept.clone();
            std::thread::spawn(move || {
                let Ok(read) = stream.try_clone() else { return };
                let mut lines = BufReader::new(read);
                let mut out = stream;
                let mut say = |s: &str| out.write_all(s.as_bytes()).is_ok();
                say("220 sink\r\n");
                let mut line = String::new();
                while lines.read_line(&mut line).is_ok_and(|n| n > 0) {
                    let verb = line.trim().to_ascii_uppercase();
                    if verb == "DATA" {
                        say("354 go on\r\n");
                        let mut text = String::new();
                        let mut l = String::new();
                        while lines.read_line(&mut l).is_ok_and(|n| n > 0) && l != ".\r\n" {
                            text.push_str(&l);
                            l.clear();
                        }
                        kept.lock().expect("lock").push(text);
                        say("250 kept\r\n");
                    } else if verb.starts_with("QUIT") {
                        say("221 bye\r\n");
                        return;
                    } else {
                        say("250 ok\r\n");
                    }
                    line.clear();
                }
            });
        }
    });
    (port, got)
}

/// The real server with a clock the test moves.
struct Server {
    child: Child,
    input: ChildStdin,
    answers: BufReader<ChildStdout>,
    host: String,
    db: PathBuf,
}

impl Server {
    async fn start(dir: &Path, smtp: u16) -> Server {
        let host = support::free_host();
        let db = dir.join("year.sqlite");
        let syzygy = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
        let mut child = Command::new(env!("CARGO_BIN_EXE_rochade"))
            .args(["serve", "--test-clock", "--addr", &host, "--db"])
            .arg(&db)
            .arg("--syzygy")
            .arg(&syzygy)
            .args(["--smtp", &format!("smtp://127.0.0.1:{smtp}")])
            .args([
                "--limit",
                "digest_every=10s",
                "--limit",
                "games_per_minute=1000",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("rochade serve starts");
        support::listening(&host, WAIT).await;
        let input = child.stdin.take().expect("stdin");
        let answers = BufReader::new(child.stdout.take().expect("stdout"));
        Server {
            child,
            input,
            answers,
            host,
            db,
        }
    }

    /// Moves the server's time on by `days`; server time after it.
    fn advance(&mut self, days: u64) -> u64 {
        writeln!(self.input, "advance {days}d").expect("writes");
        self.input.flush().expect("flushes");
        let mut line = String::new();
        self.answers.read_line(&mut line).expect("answers");
        line.trim()
            .strip_prefix("now ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("the clock answered {line:?}"))
    }

    /// `method path` as `session` (none: anonymous); status and answer.
    async fn ask(
        &self,
        session: Option<&str>,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let a = request(&self.host, method, path, body.as_ref(), session)
            .await
            .expect("answers");
        (a.status, a.json)
    }

    /// The same, which must succeed.
    async fn ok(&self, session: &str, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, json) = self.ask(Some(session), method, path, body).await;
        assert!(status < 300, "{method} {path}: {status} {json}");
        json
    }

    /// The body of `GET path`, as text.
    async fn text(&self, path: &str) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut stream = tokio::net::TcpStream::connect(&self.host)
            .await
            .expect("connects");
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.host
        );
        stream.write_all(head.as_bytes()).await.expect("sends");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("reads");
        answer
    }

    async fn sign_up(&self, name: &str) -> String {
        let body = json!({"name": name, "password": "a long secret 1"});
        request(&self.host, "POST", "/api/auth/signup", Some(&body), None)
            .await
            .expect("answers")
            .session
            .expect("a session")
    }

    async fn state(&self, game: &str) -> Value {
        self.ask(None, "GET", &format!("/api/games/{game}"), None)
            .await
            .1
    }

    /// Polls game `game` until `wanted` holds of its state.
    async fn until(&self, game: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let state = self.state(game).await;
            if wanted(&state) {
                return state;
            }
            assert!(Instant::now() < deadline, "never came: {state}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The socket of `session`'s seat in `game`.
    async fn seat(&self, session: &str, game: &str) -> GameSocket {
        let games = self.ok(session, "GET", "/api/account/games", None).await;
        let entry = games["games"]
            .as_array()
            .expect("games")
            .iter()
            .find(|g| g["id"] == game)
            .unwrap_or_else(|| panic!("{game} not in {games}"));
        let token = entry["url"]
            .as_str()
            .and_then(|u| u.split_once('#'))
            .expect("a seat link")
            .1;
        let mut socket = GameSocket::connect(&self.host, game, token)
            .await
            .expect("connects");
        socket.state(WAIT, |_| true).await.expect("state");
        socket
    }

    /// `session` plays `uci` in `game` at ply `ply`.
    async fn play(&self, session: &str, game: &str, ply: usize, uci: &str) {
        let mut socket = self.seat(session, game).await;
        socket
            .send(&json!({"t": "move", "ply": ply, "uci": uci}))
            .await
            .expect("sends");
        socket
            .state(WAIT, |s| s["ply"] == ply + 1)
            .await
            .unwrap_or_else(|e| panic!("{uci} in {game}: {e}"));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The UTC day `YYYY-MM-DD` of `ms`.
fn day(ms: u64) -> String {
    rochade_server::correspondence::leave::Day::of_ms(ms).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn iccf_a_year_of_correspondence_in_seconds_against_the_real_binary() {
    let dir = std::env::temp_dir().join(format!("rochade-year-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (smtp, mail) = smtp_sink();
    let mut server = Server::start(&dir, smtp).await;
    let start = server.advance(0);

    // Day 0: two players, a director, a double round robin of 10/40d.
    let td = server.sign_up("Arbiter").await;
    let ivan = server.sign_up("Ivan").await;
    let olga = server.sign_up("Olga").await;
    let settings = json!({"email": "olga@example.org", "lang": "en"});
    server
        .ok(&olga, "POST", "/api/account/notifications", Some(settings))
        .await;
    let appointed = Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(["user", "director", "arbiter", "--db"])
        .arg(&server.db)
        .output()
        .expect("rochade user runs");
    assert!(appointed.status.success(), "{appointed:?}");
    let made = server
        .ok(
            &td,
            "POST",
            "/api/tournaments",
            Some(json!({"name": "A year", "time_control": "10/40d", "double": true})),
        )
        .await;
    let id = made["id"].as_str().expect("id").to_owned();
    for name in ["Ivan", "Olga"] {
        let path = format!("/api/tournaments/{id}/players");
        server
            .ok(&td, "POST", &path, Some(json!({"name": name})))
            .await;
    }
    server
        .ok(&td, "POST", &format!("/api/tournaments/{id}/start"), None)
        .await;
    let page = server
        .ok(&td, "GET", &format!("/api/tournaments/{id}"), None)
        .await;
    let game_of = |white: &str| {
        page["games"]
            .as_array()
            .expect("games")
            .iter()
            .find(|g| g["white"] == white)
            .and_then(|g| g["id"].as_str())
            .expect("a game")
            .to_owned()
    };
    let (g1, g2) = (game_of("Ivan"), game_of("Olga"));
    assert_eq!(server.state(&g1).await["rules"], "iccf");

    // Ivan opens in game 1; two days later Olga answers. In game 2 Olga,
    // White, never moves.
    server.play(&ivan, &g1, 0, "e2e4").await;
    server.advance(2);
    server.play(&olga, &g1, 1, "e7e5").await;

    // 10.1: Olga books ten days of leave, from day 3 to day 12; both her
    // games' clocks stop over them.
    let now = server.advance(0);
    let booking = json!({"from": day(start + 3 * DAY_MS), "to": day(start + 12 * DAY_MS)});
    let booked = server
        .ok(&olga, "POST", "/api/account/leave", Some(booking))
        .await;
    assert_eq!(booked["days"], 10, "{booked}");
    assert_eq!(booked["games"], 2, "{booked}");
    let allowance = server.ok(&olga, "GET", "/api/account/leave", None).await;
    assert_eq!(allowance["allowance"][0]["left"], 35, "{allowance}");
    assert!(now >= start + 2 * DAY_MS);

    // Day 4, in Olga's leave: Ivan moves; it is Olga's move again.
    server.advance(2);
    server.play(&ivan, &g1, 2, "g1f3").await;

    // A reminder by e-mail: it is Olga's move against Ivan.
    let deadline = Instant::now() + WAIT;
    loop {
        let got = mail.lock().expect("lock").clone();
        if got
            .iter()
            .any(|m| m.contains("olga@example.org") && m.contains("Ivan"))
        {
            break;
        }
        assert!(Instant::now() < deadline, "no reminder came: {got:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Day 20: the director stops game 1's clocks for 29 days; Olga's time
    // does not run meanwhile (6.10).
    server.advance(16);
    let path = format!("/api/games/{g1}/decide");
    let stop = json!({"decision": {"act": "stop_clocks"}, "reason": "a dispute is examined"});
    server.ok(&td, "POST", &path, Some(stop)).await;
    let before = server.state(&g1).await["clock"]["black"]
        .as_u64()
        .expect("ms");
    server.advance(29);
    let after = server.state(&g1).await["clock"]["black"]
        .as_u64()
        .expect("ms");
    assert_eq!(before, after, "the director's stop holds the clocks");
    let resume = json!({"decision": {"act": "start_clocks"}, "reason": "examined"});
    server.ok(&td, "POST", &path, Some(resume)).await;

    // 6.7: Olga's flag in game 2 falls after 40 days of her own time plus
    // the 10 days of leave: still up on day 49, down by day 51.
    let g2_state = server.state(&g2).await;
    assert!(g2_state["outcome"].is_null(), "day 49: {g2_state}");
    let flag_in = g2_state["clock"]["flag_in"].as_u64().expect("flag_in");
    let now = server.advance(0);
    let falls = now - start + flag_in;
    assert!(
        falls.abs_diff(50 * DAY_MS) < 60_000,
        "the flag falls 40 days of play and 10 of leave after the start, not {falls} ms"
    );
    server.advance(2);
    let over = server.until(&g2, |s| !s["outcome"].is_null()).await;
    assert_eq!(over["outcome"]["reason"], "timeout", "{over}");
    assert_eq!(over["outcome"]["winner"], "black");

    // Day 60: the director adjudicates game 1 (11.1), before Olga's time
    // there runs out (on about day 80).
    server.advance(9);
    let adjudicate = json!({"decision": {"act": "adjudicate", "result": "1/2-1/2"},
                            "reason": "the position is a known draw"});
    server.ok(&td, "POST", &path, Some(adjudicate)).await;
    let drawn = server.state(&g1).await;
    assert_eq!(drawn["outcome"]["reason"], "adjudicated_draw", "{drawn}");
    let decisions = server
        .ok(&olga, "GET", "/api/account/decisions", None)
        .await;
    assert_eq!(decisions["decisions"].as_array().expect("list").len(), 3);
    // The record as ICCF writes it: the event, no rounds, when each move
    // was sent (UTC), the time it took, the adjudication.
    let pgn = server.text(&format!("/api/games/{g1}/pgn")).await;
    let moved = |days: u64| rochade_laws::pgn::pgn_date(start + days * DAY_MS);
    for wanted in [
        "[Event \"A year\"]".to_owned(),
        "[Round \"-\"]".to_owned(),
        format!("[Date \"{}\"]", moved(0)),
        "[Termination \"adjudication\"]".to_owned(),
        format!("[%ccsnt {},", moved(0)),
        format!("[%ccsnt {},", moved(2)),
        format!("[%ccsnt {},", moved(4)),
        "[%emt 48:00:00]".to_owned(),
    ] {
        assert!(pgn.contains(&wanted), "{wanted} is not in {pgn}");
    }

    // Day 100: a tablebase claim (5.1.3) in a game begun from a position.
    server.advance(40);
    let (status, made) = server
        .ask(
            None,
            "POST",
            "/api/games",
            Some(json!({"opponent": "local", "time_control": "10/40d",
                        "fen": "4k3/8/8/8/8/8/8/4K2Q w - - 0 1"})),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let tb = made["game"].as_str().expect("game").to_owned();
    let token = made["token"].as_str().expect("a token").to_owned();
    let mut both = GameSocket::connect(&server.host, &tb, &token)
        .await
        .expect("connects");
    let first = both.state(WAIT, |_| true).await.expect("state");
    assert_eq!(first["claimable"]["tablebase_win"], true, "{first}");
    both.send(&json!({"t": "tablebase_claim", "claim": "win"}))
        .await
        .expect("sends");
    let won = both
        .state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("decided");
    assert_eq!(won["outcome"]["reason"], "tablebase_win", "{won}");

    // Day 365: a new year, a new allowance (10.1: unused days lost).
    server.advance(265);
    let renewed = server.ok(&olga, "GET", "/api/account/leave", None).await;
    let year = rochade_server::correspondence::leave::Day::of_ms(start).year();
    assert_eq!(renewed["allowance"][0]["year"], year + 1, "{renewed}");
    assert_eq!(renewed["allowance"][0]["left"], 45, "{renewed}");
    let standings = server
        .ok(&td, "GET", &format!("/api/tournaments/{id}"), None)
        .await;
    let points = |name: &str| {
        standings["standings"]
            .as_array()
            .expect("standings")
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| s["points"].as_f64().expect("points"))
            .expect("listed")
    };
    assert_eq!((points("Ivan"), points("Olga")), (1.5, 0.5), "{standings}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
