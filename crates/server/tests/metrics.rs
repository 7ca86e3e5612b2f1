//! What the server does, seen from outside (issue 20, point 7):
//! `GET /metrics` in the Prometheus text format counts the moves played
//! and the time each act took, the group commit's batches and syncs, the
//! open sockets and loaded rooms; `GET /healthz` answers while the
//! process runs; `GET /readyz` says whether to send the node players,
//! and why not.

mod support;

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use serde_json::json;
use support::{TestServer, download, play_all};

/// The samples of a scrape, by name with labels, after checking that
/// every sample belongs to a family with a `# HELP` and a `# TYPE`.
fn samples(text: &str) -> HashMap<String, f64> {
    let mut typed = Vec::new();
    let mut helped = Vec::new();
    let mut out = HashMap::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("a type");
            assert!(["counter", "gauge", "histogram"].contains(&kind), "{line}");
            typed.push(name.to_owned());
        } else if let Some(rest) = line.strip_prefix("# HELP ") {
            helped.push(rest.split_once(' ').expect("a help").0.to_owned());
        } else {
            let (key, value) = line.rsplit_once(' ').expect("name and value");
            let name = key.split('{').next().expect("name");
            let family = ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|s| name.strip_suffix(s))
                .filter(|f| typed.iter().any(|t| t == f))
                .unwrap_or(name);
            assert!(typed.iter().any(|t| t == family), "untyped: {line}");
            assert!(helped.iter().any(|h| h == family), "no help: {line}");
            out.insert(key.to_owned(), value.parse().expect("a number"));
        }
    }
    out
}

#[tokio::test]
async fn metrics_count_the_moves_the_writes_and_the_sockets() {
    let server = TestServer::start().await;
    let (status, text) = download(&server, "/metrics").await;
    assert_eq!(status, 200);
    let before = samples(&text);

    // A game on one device: four moves.
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let token = game["token"].as_str().expect("token").to_owned();
    let (mut socket, _) = server.connect(&game, &token).await;
    play_all(&mut socket, &["e2e4", "e7e5", "g1f3", "b8c6"]).await;

    let (_, text) = download(&server, "/metrics").await;
    let after = samples(&text);
    let grew = |name: &str| after[name] - before[name];
    assert_eq!(grew("rochade_moves_total"), 4.0, "{text}");
    assert!(grew("rochade_act_seconds_count") >= 4.0, "{text}");
    assert!(grew("rochade_write_batch_writes_count") >= 4.0, "{text}");
    assert_eq!(
        after["rochade_act_seconds_count"],
        after["rochade_act_seconds_bucket{le=\"+Inf\"}"]
    );
    assert!(after["rochade_write_sync_seconds_sum"] > 0.0, "{text}");
    assert!(after["rochade_sockets"] >= 1.0, "{text}");
    assert!(after["rochade_rooms"] >= 1.0, "{text}");
    // Buckets only grow.
    let buckets: Vec<f64> = text
        .lines()
        .filter(|l| l.starts_with("rochade_act_seconds_bucket"))
        .map(|l| l.rsplit_once(' ').unwrap().1.parse().unwrap())
        .collect();
    assert!(buckets.windows(2).all(|w| w[0] <= w[1]), "{text}");
    drop(socket);

    // Liveness, and readiness with its reason.
    assert_eq!(download(&server, "/healthz").await, (200, "ok".into()));
    assert_eq!(download(&server, "/readyz").await, (200, "ready".into()));
    let metrics = &rochade_server::metrics::METRICS;
    metrics.failing.store(true, Ordering::Relaxed);
    assert_eq!(
        download(&server, "/readyz").await,
        (503, "the database refuses writes".into())
    );
    // The next group commit that succeeds makes it ready again.
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    assert!(game["game"].is_string());
    assert_eq!(download(&server, "/readyz").await, (200, "ready".into()));
    server.stop().await;
}
