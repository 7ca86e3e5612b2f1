//! `rochade loadtest`: many games over real WebSockets against a running
//! server. Each game is a friend game with one socket per colour; the side
//! to move plays a random legal move about every `1/rate` seconds and
//! times the round trip from sending the move to the state that
//! acknowledges it. Every acknowledged move list is compared with the
//! moves sent, which counts lost and duplicated moves. A game rides out a
//! node that dies ([`Resilience`], `crate::game`), and after the run every
//! game is read back and its stored moves compared with those
//! acknowledged (`crate::stored`). A move that rode out a failure is
//! timed to its acknowledgement, the pauses and tries included.

use std::sync::Arc;
use std::time::Duration;

use rand::Rng;
use serde::Serialize;
use serde_json::json;
use tokio::time::Instant;

use crate::client::{ClientError, post_json};
use crate::game::{Plan, play_game};
use crate::resilience::{CHECK_AT_LEAST, Resilience};
use crate::stored::{StoredCheck, check_stored};
use crate::tally::Tally;

/// How many games that broke off the tool says why, on stderr.
const SAID_FAILURES: u64 = 20;

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// The server, `ws://host:port` (or `host:port`).
    pub url: String,
    /// Concurrent games (two sockets each).
    pub games: usize,
    /// Moves per second per game.
    pub rate: f64,
    /// How long to measure after all games have started.
    pub duration: Duration,
    /// Time over which the games are started.
    pub ramp: Duration,
    /// A game is resigned and replaced after this many plies (the first
    /// game of each of the `games` places after a random number up to it,
    /// so that games end and begin all through the run).
    pub max_plies: usize,
    /// The server's process id, for its memory (Linux `/proc`).
    pub server_pid: Option<u32>,
    /// Password sign-ins a second to run beside the games (an account
    /// made for the run; the server's sign-in limits must allow them).
    pub sign_ins: f64,
    /// A directory on the server's disk (its database's): the disk's
    /// own sync latency is measured there before and after the run.
    pub disk: Option<std::path::PathBuf>,
    /// After the games, with every socket closed: how long to watch the
    /// server's `/metrics` for its rooms to unload (a game nobody plays or
    /// watches should cost no task and no memory beyond its row).
    pub unload_wait: Option<Duration>,
    /// The players' sockets ask for move messages after moves, as the
    /// page does (docs/protocol.md); `false`: the whole state after every
    /// move, as before they existed.
    pub move_messages: bool,
}

impl LoadConfig {
    /// `games` games against `url` at one move a second each, measured for
    /// 30 s after a 20 s ramp, resigned after 80 plies.
    pub fn new(url: &str, games: usize) -> LoadConfig {
        LoadConfig {
            url: url.to_owned(),
            games,
            rate: 1.0,
            duration: Duration::from_secs(30),
            ramp: Duration::from_secs(20),
            max_plies: 80,
            server_pid: None,
            sign_ins: 0.0,
            disk: None,
            unload_wait: None,
            move_messages: true,
        }
    }
}

/// The figures.
#[derive(Debug, Clone, Serialize)]
pub struct LoadReport {
    /// Concurrent games.
    pub games: usize,
    /// Open sockets.
    pub sockets: usize,
    /// Moves acknowledged while measuring.
    pub moves: u64,
    /// Moves per second while measuring.
    pub moves_per_second: f64,
    /// Median round trip, ms.
    pub p50_ms: f64,
    /// 99th percentile round trip, ms.
    pub p99_ms: f64,
    /// Slowest round trip, ms.
    pub max_ms: f64,
    /// The round trips of each second of the measuring, by when the move
    /// was sent: where a tail comes from (a stall, a burst, the ramp).
    pub by_second: Vec<crate::seconds::Second>,
    /// Acknowledged moves that a later state of the game did not hold in
    /// their place (seen during the run).
    pub lost: u64,
    /// Moves a state held beyond those acknowledged (seen during the run).
    pub duplicated: u64,
    /// Moves given up on: within the resilience's window no state said
    /// whether they were stored (their games are read back after the run).
    pub unacknowledged: u64,
    /// Error messages received.
    pub errors: u64,
    /// `busy` answers, each followed by a pause and the same act again.
    pub busy: u64,
    /// Sockets opened again after one broke.
    pub reconnects: u64,
    /// Moves whose answer went missing and which the state read again
    /// showed stored: acknowledged without being sent again.
    pub recovered: u64,
    /// Moves sent again at the same ply because the state read again
    /// showed them not stored.
    pub resent: u64,
    /// Games made during the run (a game resigned at `max_plies` is
    /// replaced).
    pub games_played: u64,
    /// Games that failed to start or broke off.
    pub failed_games: u64,
    /// With [`Resilience::check_stored`]: every game read back after the
    /// run, its stored moves against those acknowledged.
    pub stored: Option<StoredCheck>,
    /// Server memory before the games, KiB.
    pub rss_before_kib: Option<u64>,
    /// Server memory with all games running, KiB.
    pub rss_after_kib: Option<u64>,
    /// Server memory per active game, KiB.
    pub kib_per_game: Option<f64>,
    /// Sign-ins that succeeded while measuring.
    pub sign_ins: u64,
    /// Sign-ins refused or failed while measuring.
    pub sign_in_failures: u64,
    /// Median sign-in time, ms (Argon2id included).
    pub sign_in_p50_ms: f64,
    /// The disk's own sync latency just before the run (with `disk`).
    pub disk_sync_before: Option<crate::disk::DiskSync>,
    /// The disk's own sync latency while measuring, one sync every
    /// [`crate::disk::DURING_EVERY`] (with `disk`); each second's slowest
    /// is in `by_second`.
    pub disk_sync_during: Option<crate::disk::DiskSync>,
    /// Whether the syncs during the run were timed from a thread above
    /// the load ([`crate::disk::During::realtime`]); without it they also
    /// hold the wait for a core the load tool keeps busy.
    pub disk_probe_realtime: Option<bool>,
    /// The disk's own sync latency just after the run.
    pub disk_sync_after: Option<crate::disk::DiskSync>,
    /// With `unload_wait`: what the server held once every socket closed.
    pub after_close: Option<Unloading>,
    /// The load tool's own CPU time while measuring, in µs a move (Linux
    /// `/proc`): near a core's worth, the tool and not the server sets the
    /// pace, and its own delays are in the round trips.
    pub load_cpu_us_per_move: Option<f64>,
    /// The server's CPU time while measuring, in µs a move (with
    /// `server_pid`): game creation and the ramp left out.
    pub server_cpu_us_per_move: Option<f64>,
}

/// What the server holds after the games' sockets close, read from its
/// `/metrics`: rooms (a task and a loaded game each) and sockets.
#[derive(Debug, Clone, Serialize)]
pub struct Unloading {
    /// Rooms just after the last socket closed.
    pub rooms_at_close: Option<u64>,
    /// Sockets the server still counted then.
    pub sockets_at_close: Option<u64>,
    /// Seconds until no room was left (`None`: not within the wait).
    pub rooms_gone_after_s: Option<f64>,
    /// Rooms at the end of the wait.
    pub rooms_left: Option<u64>,
    /// Server memory once the rooms were gone (or at the end of the
    /// wait), KiB: what the allocator keeps of the freed games stays with
    /// the process, so compare it with `rss_after_kib`, not with zero.
    pub rss_unloaded_kib: Option<u64>,
}

/// The value of the gauge `name` in a Prometheus text page.
fn gauge(page: &str, name: &str) -> Option<u64> {
    page.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|v| v as u64)
}

/// Watches the server's rooms unload for at most `wait` after the games'
/// sockets closed.
async fn unloading(host: &str, wait: Duration, pid: Option<u32>) -> Unloading {
    let read = || async {
        match crate::client::get_text(host, "/metrics").await {
            Ok((200, page)) => (
                gauge(&page, "rochade_rooms"),
                gauge(&page, "rochade_sockets"),
            ),
            _ => (None, None),
        }
    };
    let closed = Instant::now();
    let (rooms_at_close, sockets_at_close) = read().await;
    let mut rooms = rooms_at_close;
    while rooms != Some(0) && closed.elapsed() < wait {
        tokio::time::sleep(Duration::from_millis(500)).await;
        rooms = read().await.0;
    }
    let gone = (rooms == Some(0)).then(|| closed.elapsed().as_secs_f64());
    Unloading {
        rooms_at_close,
        sockets_at_close,
        rooms_gone_after_s: gone,
        rooms_left: rooms,
        rss_unloaded_kib: pid.and_then(rss_kib),
    }
}

/// A process's CPU time so far (user and system), in seconds, from
/// `/proc/PID/stat` (clock ticks of 1/100 s); `None`: this process.
fn cpu_seconds(pid: Option<u32>) -> Option<f64> {
    let path = pid.map_or("/proc/self/stat".to_owned(), |pid| {
        format!("/proc/{pid}/stat")
    });
    let stat = std::fs::read_to_string(path).ok()?;
    // The fields after the command's name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    // utime and stime: fields 14 and 15 of the line, 12 and 13 after the name.
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

/// CPU seconds from `from` to `to` in µs a move.
fn per_move(from: Option<f64>, to: Option<f64>, moves: u64) -> Option<f64> {
    from.zip(to)
        .filter(|_| moves > 0)
        .map(|(from, to)| 1e6 * (to - from) / moves as f64)
}

/// The server's resident memory in KiB (`VmRSS` of `/proc/PID/status`).
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs the load, riding out a node that dies ([`Resilience::default`]:
/// 30 s of trying, every game read back after the run), and reports.
///
/// # Errors
///
/// When the server cannot be reached at all.
pub async fn run(config: LoadConfig) -> Result<LoadReport, ClientError> {
    run_with(config, Resilience::default()).await
}

/// Runs the load with `resilience` and reports.
///
/// # Errors
///
/// When the server cannot be reached at all.
pub async fn run_with(
    config: LoadConfig,
    resilience: Resilience,
) -> Result<LoadReport, ClientError> {
    let host = config
        .url
        .trim_start_matches("ws://")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    // One game first: fail fast if the server is not there.
    post_json(
        &host,
        "/api/games",
        &json!({"opponent": "local", "time_control": "-"}),
    )
    .await?;
    let disk_sync_before = probe_disk(&config);
    let rss_before = config.server_pid.and_then(rss_kib);
    let tally = Arc::new(Tally::default());
    let start = Instant::now();
    let measure_from = start + config.ramp + Duration::from_secs(2);
    let end = measure_from + config.duration;
    let plan = Arc::new(Plan {
        host: host.clone(),
        rate: config.rate,
        max_plies: config.max_plies,
        reconnect_for: resilience.reconnect_for,
        move_messages: config.move_messages,
        measure_from,
        end,
    });
    let mut tasks = Vec::with_capacity(config.games);
    for i in 0..config.games {
        let delay = config.ramp.mul_f64(i as f64 / config.games.max(1) as f64);
        let (plan, tally) = (plan.clone(), tally.clone());
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            // The slot's first game is resigned after a random number of
            // plies, its later ones after `max_plies`: the games' ends, and
            // the new games that replace them, come spread over the run as
            // on a server, not all within the ramp every `max_plies` plies.
            let mut plies = rand::rng().random_range(1..=plan.max_plies.max(1));
            while Instant::now() < plan.end {
                let result = play_game(&plan, &tally, plies).await;
                plies = plan.max_plies;
                if let Err(e) = result {
                    // The first few, to stderr: what broke a game off.
                    if Tally::count(&tally.failed) < SAID_FAILURES {
                        eprintln!("loadtest: a game broke off: {e}");
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }));
    }
    if config.sign_ins > 0.0 {
        tasks.push(tokio::spawn(sign_in_load(
            host.clone(),
            config.sign_ins,
            tally.clone(),
            measure_from,
            end,
        )));
    }
    tokio::time::sleep_until(measure_from).await;
    let disk_probe = config
        .disk
        .as_deref()
        .and_then(|dir| crate::disk::Probe::start(dir, measure_from.into_std()).ok());
    let cpu_from = (
        cpu_seconds(None),
        config.server_pid.and_then(|p| cpu_seconds(Some(p))),
    );
    tokio::time::sleep_until(measure_from + config.duration / 2).await;
    let rss_after = config.server_pid.and_then(rss_kib);
    for task in tasks {
        let _ = task.await;
    }
    let cpu_to = (
        cpu_seconds(None),
        config.server_pid.and_then(|p| cpu_seconds(Some(p))),
    );
    let disk_during = disk_probe.map(crate::disk::Probe::finish);
    let timed = std::mem::take(&mut *tally.rtts.lock().await);
    let by_second = crate::seconds::by_second(
        &timed,
        disk_during.as_ref().map_or(&[][..], |d| &d.syncs[..]),
    );
    let mut rtts: Vec<u32> = timed.into_iter().map(|(_, us)| us).collect();
    rtts.sort_unstable();
    let at = |q: f64| crate::seconds::quantile_ms(&rtts, q);
    let moves = rtts.len() as u64;
    let after_close = match config.unload_wait {
        Some(wait) => Some(unloading(&host, wait, config.server_pid).await),
        None => None,
    };
    let games = std::mem::take(&mut *tally.games.lock().await);
    let games_played = games.len() as u64;
    let stored = if resilience.check_stored {
        let window = resilience.reconnect_for.max(CHECK_AT_LEAST);
        Some(check_stored(&host, games, window).await)
    } else {
        None
    };
    let disk_sync_after = probe_disk(&config);
    let mut sign_ins = std::mem::take(&mut *tally.sign_ins.lock().await);
    sign_ins.sort_unstable();
    let sign_in_p50_ms = sign_ins
        .get(sign_ins.len() / 2)
        .map_or(0.0, |us| f64::from(*us) / 1000.0);
    Ok(LoadReport {
        games: config.games,
        sockets: 2 * config.games,
        moves,
        moves_per_second: moves as f64 / config.duration.as_secs_f64(),
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        max_ms: at(1.0),
        by_second,
        lost: Tally::read(&tally.lost),
        duplicated: Tally::read(&tally.duplicated),
        unacknowledged: Tally::read(&tally.unacknowledged),
        errors: Tally::read(&tally.errors),
        busy: Tally::read(&tally.busy),
        reconnects: Tally::read(&tally.reconnects),
        recovered: Tally::read(&tally.recovered),
        resent: Tally::read(&tally.resent),
        games_played,
        failed_games: Tally::read(&tally.failed),
        stored,
        rss_before_kib: rss_before,
        rss_after_kib: rss_after,
        kib_per_game: rss_before
            .zip(rss_after)
            .map(|(b, a)| (a.saturating_sub(b)) as f64 / config.games.max(1) as f64),
        sign_ins: sign_ins.len() as u64,
        sign_in_failures: Tally::read(&tally.sign_in_failures),
        sign_in_p50_ms,
        disk_sync_before,
        disk_sync_during: disk_during.as_ref().map(crate::disk::During::summary),
        disk_probe_realtime: disk_during.as_ref().map(|d| d.realtime),
        disk_sync_after,
        after_close,
        load_cpu_us_per_move: per_move(cpu_from.0, cpu_to.0, moves),
        server_cpu_us_per_move: per_move(cpu_from.1, cpu_to.1, moves),
    })
}

/// Syncs of the server's disk: 200 of them, when `config` names its
/// directory (a failure to measure leaves the figure out).
fn probe_disk(config: &LoadConfig) -> Option<crate::disk::DiskSync> {
    let dir = config.disk.as_deref()?;
    crate::disk::sync_latency(dir, DISK_SAMPLES).ok()
}

/// Syncs measured before and after a run.
const DISK_SAMPLES: usize = 200;

/// Signs in `rate` times a second (each sign-in its own task, so a slow
/// one does not hold back the next) with an account made for the run,
/// timing those that fall between `measure_from` and `end`.
async fn sign_in_load(
    host: String,
    rate: f64,
    tally: Arc<Tally>,
    measure_from: Instant,
    end: Instant,
) {
    let name = format!("load{}", rand::rng().random_range(0..1_000_000_000u32));
    let password = "load test password";
    let account = json!({"name": name, "password": password});
    if !matches!(
        post_json(&host, "/api/auth/signup", &account).await,
        Ok((201, _))
    ) {
        Tally::count(&tally.sign_in_failures);
        return;
    }
    let mut every = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    while Instant::now() < end {
        every.tick().await;
        let (host, tally, account) = (host.clone(), tally.clone(), account.clone());
        tokio::spawn(async move {
            let sent = Instant::now();
            let answer = post_json(&host, "/api/auth/signin", &account).await;
            if sent < measure_from || sent > end {
                return;
            }
            match answer {
                Ok((200, _)) => {
                    let us = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
                    tally.sign_ins.lock().await.push(us);
                }
                _ => {
                    Tally::count(&tally.sign_in_failures);
                }
            }
        });
    }
}

#[cfg(test)]
mod gauge_tests {
    use super::gauge;

    #[test]
    fn a_gauge_is_read_by_its_whole_name() {
        let page = "# TYPE rochade_rooms gauge\nrochade_rooms_total 9\nrochade_rooms 3\nrochade_sockets 12\n";
        assert_eq!(gauge(page, "rochade_rooms"), Some(3));
        assert_eq!(gauge(page, "rochade_sockets"), Some(12));
        assert_eq!(gauge(page, "rochade_robot_queue"), None);
    }
}
