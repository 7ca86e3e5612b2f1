//! Notices of correspondence games by e-mail, through a real SMTP sink
//! (aiosmtpd from PyPI, pinned by scripts/setup-oracles): the notices that
//! arise together come in one digest, in the player's language, only to
//! players who gave an address, and each notice only once.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use rochade_loadtest::client::{GameSocket, request};
use rochade_server::ServeConfig;
use rochade_server::notify::mail::MailConfig;
use serde_json::{Value, json};
use support::{TestServer, WAIT, sign_up, temp_db};

/// An aiosmtpd sink writing every message into a Maildir; killed on drop.
struct Sink {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the sink, or `None` (with a note) where aiosmtpd is missing.
fn sink() -> Option<Sink> {
    let ok = Command::new("python3")
        .args(["-c", "import aiosmtpd"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        // CI installs it (scripts/setup-oracles): there, a missing sink fails.
        assert!(
            std::env::var_os("CI").is_none(),
            "aiosmtpd is not installed (scripts/setup-oracles installs it)"
        );
        eprintln!("skipped: aiosmtpd is not installed (scripts/setup-oracles installs it)");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    // aiosmtpd's Mailbox makes the Maildir itself.
    let dir = support::temp_dir("mail").join("maildir");
    let child = Command::new("python3")
        .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}")])
        .args(["-c", "aiosmtpd.handlers.Mailbox"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("aiosmtpd starts");
    let sink = Sink { child, port, dir };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some(sink);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the SMTP sink did not listen on port {port} within 5 s");
}

/// Every message in the Maildir `dir`, decoded by Python's `email`:
/// `[{"to", "subject", "body"}]`.
fn messages(dir: &Path) -> Vec<Value> {
    let script = r#"
import email, email.policy, json, mailbox, sys
box = mailbox.Maildir(sys.argv[1], create=False)
out = []
for key in sorted(box.keys()):
    m = email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
    out.append({"to": str(m["To"]), "subject": str(m["Subject"]), "body": m.get_content()})
print(json.dumps(out))
"#;
    if !dir.join("new").exists() {
        return Vec::new();
    }
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(dir)
        .output()
        .expect("python reads the Maildir");
    serde_json::from_slice(&output.stdout).unwrap_or_default()
}

/// Waits until the Maildir holds at least `n` messages.
async fn wait_for(dir: &Path, n: usize) -> Vec<Value> {
    for _ in 0..100 {
        let got = messages(dir);
        if got.len() >= n {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    messages(dir)
}

/// `method path` as the holder of `session`, which must succeed; the answer.
async fn ask(
    server: &TestServer,
    session: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Value {
    let (status, json) = support::ask_page(server, session, method, path, body).await;
    assert!(status < 300, "{method} {path}: {status} {json}");
    json
}

#[tokio::test]
async fn correspondence_notices_come_by_e_mail_in_one_digest_in_the_players_language() {
    let Some(sink) = sink() else { return };
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), temp_db());
    config.mail = Some(MailConfig {
        url: format!("smtp://127.0.0.1:{}", sink.port),
        from: "Rochade <rochade@localhost>".into(),
        site: "http://chess.example.org".into(),
    });
    config.limits.digest_every = Duration::from_secs(2);
    let server = TestServer::start_config(config).await;
    let fischer = sign_up(&server, "Fischer").await;
    let spassky = sign_up(&server, "Spassky").await;
    // A game of three days a move (time runs low at one day left).
    let terms = json!({"time_control": "3d/move", "color": "white"});
    let made = ask(
        &server,
        &fischer,
        "POST",
        "/api/account/challenge/spassky",
        Some(terms),
    )
    .await;
    let path = format!(
        "/api/account/challenge/{}/accept",
        made["id"].as_str().expect("id")
    );
    let accepted = ask(&server, &spassky, "POST", &path, None).await;
    let game = accepted["game"].as_str().expect("game").to_owned();
    let games = ask(&server, &fischer, "GET", "/api/account/games", None).await;
    let white = support::token_of(&games["games"][0]);
    let black = support::token_of(&accepted);
    let mut white = GameSocket::connect(&server.host, &game, &white)
        .await
        .expect("connects");
    let mut black = GameSocket::connect(&server.host, &game, &black)
        .await
        .expect("connects");
    // 5.2.3: no draw before both have moved; then White offers one with 2. Nf3.
    for (ply, uci, offer) in [(0, "e2e4", false), (1, "e7e5", false), (2, "g1f3", true)] {
        let socket = if ply % 2 == 0 { &mut white } else { &mut black };
        socket
            .send(&json!({"t": "move", "ply": ply, "uci": uci, "offer_draw": offer}))
            .await
            .expect("sends");
        loop {
            let answer = socket.recv(WAIT).await.expect("an answer");
            assert_ne!(answer["t"], "error", "{answer}");
            if answer["state"]["ply"] == ply + 1 {
                break;
            }
        }
    }

    // Spassky reads Slovak and gives an address now; Fischer gave none.
    // (Given before the moves, it made the digest race the moves: a
    // digest is sent as soon as a notice waits, and one sent between
    // 1. e4 and 1... e5 held "your move" alone: seen under load. Once
    // both of 2. Nf3's notices are kept, a digest holds both.)
    tokio::time::sleep(Duration::from_secs(1)).await;
    let settings = json!({"email": "spassky@example.org", "lang": "sk"});
    ask(
        &server,
        &spassky,
        "POST",
        "/api/account/notifications",
        Some(settings),
    )
    .await;
    let shown = ask(&server, &spassky, "GET", "/api/account/notifications", None).await;
    assert_eq!(
        shown,
        json!({"email": "spassky@example.org", "lang": "sk", "low_time_hours": [24], "own_low_time": false})
    );

    // Both notices (your move, a draw offered) in one digest, in Slovak.
    let mail = wait_for(&sink.dir, 1).await;
    assert_eq!(mail.len(), 1, "{mail:?}");
    assert!(
        mail[0]["to"]
            .as_str()
            .is_some_and(|t| t.contains("spassky@example.org"))
    );
    assert_eq!(mail[0]["subject"], "Rochade: vaše korešpondenčné partie");
    let body = mail[0]["body"].as_str().unwrap_or_default();
    assert!(body.contains("Ste na ťahu proti Fischer"), "{body}");
    assert!(body.contains("Fischer vám ponúka remízu."), "{body}");
    assert!(
        body.contains(&format!("http://chess.example.org/g/{game}")),
        "{body}"
    );

    // Each notice once: no second digest follows with nothing new.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(messages(&sink.dir).len(), 1);
    server.stop().await;
}

#[tokio::test]
async fn bad_notification_settings_are_refused_and_change_nothing() {
    let server = TestServer::start().await;
    let alice = sign_up(&server, "Alice").await;
    for (body, says) in [
        (json!({"email": "no at sign", "lang": "en"}), "e-mail"),
        (json!({"email": "a@b.cz", "lang": "de"}), "lang"),
        (json!({"email": "a@b.cz"}), "lang"),
        (json!({"email": "a@b.cz", "lang": "en", "sms": true}), "sms"),
    ] {
        let a = request(
            &server.host,
            "POST",
            "/api/account/notifications",
            Some(&body),
            Some(&alice),
        )
        .await
        .expect("answers");
        assert_eq!(a.status, 400, "{body}: {}", a.json);
        assert!(a.json.to_string().contains(says), "{body}: {}", a.json);
    }
    let shown = ask(&server, &alice, "GET", "/api/account/notifications", None).await;
    assert_eq!(
        shown,
        json!({"email": null, "lang": "en", "low_time_hours": [24], "own_low_time": false})
    );
    let anonymous = request(
        &server.host,
        "GET",
        "/api/account/notifications",
        None,
        None,
    )
    .await
    .expect("answers");
    assert_eq!(anonymous.status, 401);
    server.stop().await;
}
