//! The load tool against a server that misbehaves on purpose
//! (`fake_server`): it rides out sockets closed after a commit, `busy`
//! answers and late commits without losing or repeating a move, and it
//! reports a server that forgets or repeats one.

mod fake_server;

use std::time::Duration;

use fake_server::{FakeServer, Faults};
use rochade_loadtest::{LoadConfig, LoadReport, Resilience, run_with};

/// A short run: `games` games at 20 moves a second for two seconds.
async fn short_run(server: &FakeServer, games: usize, resilience: Resilience) -> LoadReport {
    let mut config = LoadConfig::new(&server.host, games);
    config.rate = 20.0;
    config.ramp = Duration::from_millis(200);
    config.duration = Duration::from_secs(2);
    config.max_plies = 30;
    run_with(config, resilience)
        .await
        .expect("the fake server answers")
}

/// Resilience with a short window, so that a failing test fails soon.
fn resilient() -> Resilience {
    Resilience {
        reconnect_for: Duration::from_secs(5),
        check_stored: true,
    }
}

#[tokio::test]
async fn moves_whose_answers_go_missing_are_neither_lost_nor_repeated() {
    let server = FakeServer::start(Faults {
        close_before_store: 5,
        close_after_store: 7,
        busy: 11,
        late_busy: 13,
        ..Faults::default()
    })
    .await;
    let report = short_run(&server, 6, resilient()).await;
    let stored = report.stored.clone().expect("read back");
    assert_eq!(
        (report.lost, report.duplicated, report.unacknowledged),
        (0, 0, 0),
        "{report:#?}"
    );
    assert!(stored.is_clean(), "{report:#?}");
    assert_eq!(stored.games, report.games_played, "{report:#?}");
    assert_eq!(
        stored.finished, stored.games,
        "every game resigned: {report:#?}"
    );
    assert_eq!(report.failed_games, 0, "{report:#?}");
    // Each fault was met: a socket closed before the commit (the move read
    // back as not stored and sent again) and after it (read back as
    // stored), busy (the move sent again after a pause) and a late commit
    // (sent again, refused as stale, read back as stored).
    assert!(report.reconnects > 0, "{report:#?}");
    assert!(report.resent > 0, "{report:#?}");
    assert!(report.busy > 0, "{report:#?}");
    assert!(report.recovered > 0, "{report:#?}");
    assert!(server.moves_received() as u64 > report.moves, "{report:#?}");
}

/// Lost and duplicated moves, as seen during a run against a server with
/// `faults` and as read back after it.
async fn reported(faults: Faults) -> ((u64, u64), (u64, u64)) {
    let server = FakeServer::start(faults).await;
    let report = short_run(&server, 3, resilient()).await;
    let stored = report.stored.expect("read back");
    (
        (report.lost, report.duplicated),
        (stored.lost, stored.duplicated),
    )
}

#[tokio::test]
async fn a_move_forgotten_or_stored_twice_is_reported() {
    let forget = Faults {
        forget: 9,
        ..Faults::default()
    };
    let double = Faults {
        double: 9,
        ..Faults::default()
    };
    let (forgotten, doubled) = tokio::join!(reported(forget), reported(double));
    // Lost, during the run and in the stored games.
    assert!(forgotten.0.0 > 0 && forgotten.1.0 > 0, "{forgotten:?}");
    // Duplicated, likewise.
    assert!(doubled.0.1 > 0 && doubled.1.1 > 0, "{doubled:?}");
}

#[tokio::test]
async fn without_resilience_a_closed_socket_ends_the_game() {
    let server = FakeServer::start(Faults {
        close_after_store: 5,
        ..Faults::default()
    })
    .await;
    let report = short_run(&server, 3, Resilience::none()).await;
    assert!(report.failed_games > 0, "{report:#?}");
    assert!(report.unacknowledged > 0, "{report:#?}");
    assert_eq!(report.reconnects, 0, "{report:#?}");
    assert!(report.stored.is_none());
}
