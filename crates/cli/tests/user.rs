//! `rochade user` and `rochade token` on a database that a running
//! `rochade serve` uses at the same time: an account made from the command
//! line signs in on the page at once; a disabled one no longer does.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use rochade_loadtest::client::post_json;
use serde_json::json;

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rochade-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs `rochade ARGS --db DB`.
fn rochade(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .expect("rochade runs")
}

/// Standard output as text.
fn out(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn accounts_and_tokens_from_the_command_line() {
    let dir = temp_dir("accounts");
    let db = dir.join("r.sqlite");
    let password = dir.join("password");
    std::fs::write(&password, "Najdorf 1910\n").expect("writes");
    let pw = password.to_str().expect("path");
    let added = rochade(&db, &["user", "add", "Najdorf", "--password-file", pw]);
    assert!(added.status.success(), "{added:?}");
    assert_eq!(out(&added).trim(), "added Najdorf");
    let bot = rochade(&db, &["user", "add", "Stockbot", "--bot"]);
    assert!(bot.status.success(), "{bot:?}");
    // Names are unique without regard to case; the refusal says why.
    let again = rochade(&db, &["user", "add", "najdorf"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("taken"));
    let bad = rochade(&db, &["user", "add", "a b"]);
    assert!(!bad.status.success());
    let list = out(&rochade(&db, &["user", "list"]));
    assert_eq!(list, "Najdorf\t\nStockbot\tbot, no password\n");
    let token = rochade(
        &db,
        &[
            "token",
            "create",
            "stockbot",
            "--scopes",
            "bot:play,challenge:write",
        ],
    );
    assert!(token.status.success(), "{token:?}");
    assert!(out(&token).starts_with("rop_"));
    let scope = rochade(
        &db,
        &["token", "create", "stockbot", "--scopes", "email:read"],
    );
    assert!(!scope.status.success());
    assert!(String::from_utf8_lossy(&scope.stderr).contains("unknown scope `email:read`"));
    let nobody = rochade(&db, &["user", "disable", "nobody"]);
    assert!(!nobody.status.success());
}

#[tokio::test]
async fn an_account_made_while_the_server_runs_signs_in_at_once() {
    let dir = temp_dir("running");
    let db = dir.join("r.sqlite");
    let host = support::free_host();
    let log = dir.join("serve.log");
    let mut server = Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(["serve", "--addr", &host, "--db"])
        .arg(&db)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("rochade serve starts");
    support::listening(&host, Duration::from_secs(20)).await;
    let password = dir.join("password");
    std::fs::write(&password, "Reti opening 1923").expect("writes");
    let pw = password.to_str().expect("path");
    let added = rochade(&db, &["user", "add", "Reti", "--password-file", pw]);
    assert!(added.status.success(), "{added:?}");
    let sign_in = json!({"name": "reti", "password": "Reti opening 1923"});
    let (status, answer) = match post_json(&host, "/api/auth/signin", &sign_in).await {
        Ok(answered) => answered,
        Err(e) => panic!("sign-in: {e}; the server's log:\n{}", support::log_of(&log)),
    };
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["name"], "Reti");
    let disabled = rochade(&db, &["user", "disable", "Reti"]);
    assert!(disabled.status.success(), "{disabled:?}");
    let (status, _) = post_json(&host, "/api/auth/signin", &sign_in)
        .await
        .expect("answers");
    assert_eq!(status, 401);
    let _ = server.kill();
    let _ = server.wait();
}
