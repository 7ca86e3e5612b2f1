//! `rochade bench dashboard`: how long a correspondence player with many
//! running games waits for the list of them (`GET /api/account/games`, what
//! the page's games list and dashboard read), on a database holding many
//! other games; and how long the server takes to start over them (one row
//! read per unfinished game, no replay, every deadline into the scheduler).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use rochade_server::accounts::admin;
use rochade_server::glance::Glance;
use rochade_server::limits::Limits;
use rochade_server::record::Record;
use rochade_server::room::finish;
use rochade_server::setup::{GameSetup, Player};
use rochade_server::storage::{SqliteStorage, Storage, WriteOp, wall_ms};
use rochade_server::{ServeConfig, Server};

/// Other accounts the games are spread over.
const OTHERS: usize = 1000;
/// Games written per commit while filling the database.
const BATCH: usize = 5000;
/// The bench player's password.
const PASSWORD: &str = "a long secret 1";

/// A player as a game names them.
fn player(user: &rochade_server::storage::User) -> Player {
    Player {
        id: user.id,
        name: user.name.clone(),
        bot: false,
        rating: None,
    }
}

/// Fills `db` with `games` unfinished correspondence games (`10/40d`),
/// `mine` of them played by the account `Keres`; without `glances`, as
/// games were stored before glances (each list entry then loads its room).
fn fill(db: &Path, games: usize, mine: usize, glances: bool) -> anyhow::Result<()> {
    let storage = SqliteStorage::open(db).with_context(|| format!("opening {}", db.display()))?;
    let keres = admin::add_user(&storage, "Keres", Some(PASSWORD), false)?;
    let others = (0..OTHERS)
        .map(|i| admin::add_user(&storage, &format!("player{i}"), None, false))
        .collect::<Result<Vec<_>, _>>()?;
    let limits = Limits::default();
    let low_time = u64::try_from(limits.low_time.as_millis()).unwrap_or(u64::MAX);
    let now = wall_ms();
    let mut ops = Vec::with_capacity(BATCH);
    for i in 0..games {
        let other = player(&others[i % OTHERS]);
        let players = if i < mine {
            if i % 2 == 0 {
                [Some(player(&keres)), Some(other)]
            } else {
                [Some(other), Some(player(&keres))]
            }
        } else {
            [Some(other), Some(player(&others[(i + 1) % OTHERS]))]
        };
        let setup = GameSetup::between(players, "10/40d", true, None, &limits)?;
        let record = Record::new(setup.clone())?;
        ops.push(WriteOp::Create {
            setup: Box::new(setup),
            epoch: now,
            wake_at: finish::wake_at(&record, 0, &limits, &[low_time]),
            glance: glances.then(|| Glance::of(&record, 0).to_json()),
        });
        if ops.len() == BATCH {
            storage.write(&ops, now)?;
            ops.clear();
        }
    }
    storage.write(&ops, now)?;
    Ok(())
}

/// The `p`-th percentile of sorted `times`.
fn percentile(times: &[Duration], p: f64) -> Duration {
    let at = ((times.len() as f64 - 1.0) * p).round() as usize;
    times[at.min(times.len() - 1)]
}

/// Runs the bench: `games` in the database, `mine` of them the player's,
/// the list asked `requests` times; `glances` as the server stores games
/// (false: as before glances, for comparison).
///
/// # Errors
///
/// When the database, the server or a request fails, or the list does not
/// have the player's games.
pub fn run(games: usize, mine: usize, requests: usize, glances: bool) -> anyhow::Result<()> {
    if mine > games || requests == 0 {
        bail!("--mine must be at most --games, and --requests at least 1");
    }
    let dir = std::env::temp_dir().join(format!("rochade-bench-dashboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("dashboard.sqlite");
    let started = Instant::now();
    fill(&db, games, mine, glances)?;
    let filled = started.elapsed();
    let runtime = tokio::runtime::Runtime::new()?;
    let result = runtime.block_on(async {
        let config = ServeConfig::new("127.0.0.1:0".parse()?, db.clone());
        let started = Instant::now();
        let server = Server::bind(config).await?;
        let start = started.elapsed();
        let host = server.local_addr().context("bound")?.to_string();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        let body = serde_json::json!({"name": "Keres", "password": PASSWORD});
        let signed =
            rochade_loadtest::client::request(&host, "POST", "/api/auth/signin", Some(&body), None)
                .await?;
        let session = signed.session.context("signed in")?;
        let mut times = Vec::with_capacity(requests);
        for i in 0..=requests {
            let asked = Instant::now();
            let answer = rochade_loadtest::client::request(
                &host,
                "GET",
                "/api/account/games",
                None,
                Some(&session),
            )
            .await?;
            let took = asked.elapsed();
            let listed = answer.json["games"].as_array().map_or(0, Vec::len);
            if answer.status != 200 || listed != mine {
                bail!(
                    "the list answered {} with {listed} games, not {mine}",
                    answer.status
                );
            }
            // The first request warms the connection pools up.
            if i > 0 {
                times.push(took);
            }
        }
        let _ = stop.send(());
        let _ = serving.await;
        times.sort();
        Ok::<_, anyhow::Error>((start, times))
    });
    let _ = std::fs::remove_dir_all(&dir);
    let (start, times) = result?;
    println!(
        "games in the database:      {games} unfinished (10/40d), {mine} of them the player's{}",
        if glances {
            ""
        } else {
            ", stored without glances"
        }
    );
    println!("filling the database:       {:.1} s", filled.as_secs_f64());
    println!(
        "server start over them:     {:.0} ms",
        start.as_secs_f64() * 1000.0
    );
    println!(
        "GET /api/account/games:     p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} requests)",
        percentile(&times, 0.5).as_secs_f64() * 1000.0,
        percentile(&times, 0.9).as_secs_f64() * 1000.0,
        percentile(&times, 0.99).as_secs_f64() * 1000.0,
        times.last().map_or(0.0, |t| t.as_secs_f64() * 1000.0),
        times.len()
    );
    Ok(())
}
