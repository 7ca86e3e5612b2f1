//! `rochade serve`: the game server, and `rochade loadtest` against it.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context as _;
use rochade_server::{EngineChoice, ServeConfig};

/// Arguments of `rochade serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The database: a SQLite file (created and migrated on first start),
    /// or a PostgreSQL URL (`postgres://user:password@host:port/name`,
    /// migrated on start) for several nodes sharing one database.
    #[arg(long, default_value = "rochade.sqlite")]
    db: PathBuf,
    /// An external UCI engine for the robot's levels (e.g. /usr/games/stockfish).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// Changes one of the limits on what a visitor may ask, as NAME=VALUE
    /// (e.g. `--limit robot_think=3s --limit games_per_minute=60`); the
    /// names, defaults and units are in docs/security.md.
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    limits: Vec<String>,
    /// A directory of Syzygy tables (any set, 3–7 pieces; may be given more
    /// than once): correspondence players may then claim the win or the
    /// draw the tables give (ICCF 5.1.3, 5.2.4).
    #[arg(long, value_name = "DIR")]
    syzygy: Vec<PathBuf>,
    /// An SMTP relay (`smtp://host:port`, plain SMTP; the relay does TLS)
    /// for e-mail digests of correspondence notices: at most one an hour
    /// per player who gave an address.
    #[arg(long, value_name = "URL")]
    smtp: Option<String>,
    /// The digests' From address.
    #[arg(
        long,
        value_name = "ADDRESS",
        default_value = "Rochade <rochade@localhost>"
    )]
    smtp_from: String,
    /// The server's public address, for links in e-mails (default: the
    /// listening address).
    #[arg(long, value_name = "URL")]
    site: Option<String>,
    /// For tests only: standard input moves the server's time forward
    /// (lines `advance 10d`, each answered `now MS`), so that a test plays
    /// a year of correspondence in seconds. Never for play.
    #[arg(long, hide = true)]
    test_clock: bool,
    /// How the server's log lines are written to standard error: `text`
    /// for people, `json` (one object a line) for a log collector. Which
    /// lines: the `RUST_LOG` variable (default `info`).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    log: LogFormat,
    /// One node of several sharing one database (PostgreSQL): the Redis
    /// server the nodes talk through (`redis://host:port`). Each game is
    /// owned by one node at a time; a node that dies has its games taken
    /// over by the others (docs/deploy.md).
    #[arg(long, value_name = "URL", requires = "node")]
    redis: Option<String>,
    /// This node's name among several (with `--redis`): unique, kept
    /// across restarts.
    #[arg(long, value_name = "NAME", requires = "redis")]
    node: Option<String>,
    /// Every connection comes through a proxy that opens it with a PROXY
    /// protocol header (HAProxy's `send-proxy-v2`, nginx's
    /// `proxy_protocol`): per-address limits count the clients it names;
    /// a connection without one is closed (docs/deploy.md).
    #[arg(long)]
    proxy_protocol: bool,
    /// Threads for the sockets and rooms (default: one a core the process
    /// may use). With 1, all of them run on one thread, which is cheaper
    /// on one core than a pool of one; storage and the robot have threads
    /// of their own either way.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

/// The form of the log lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Lines for people.
    Text,
    /// One JSON object a line.
    Json,
}

/// Sends the server's `tracing` events to standard error in `format`,
/// filtered by `RUST_LOG` (default `info`).
fn start_log(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours only for a terminal: a log file or a collector gets plain text.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    // Only the first call in a process takes effect; a second is harmless.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// Serves until SIGTERM or Ctrl-C, then drains and stops.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    start_log(args.log);
    let mut config = ServeConfig::new(args.addr, args.db.clone());
    if let Some(path) = &args.engine {
        config.engine = EngineChoice::external(path)?;
    }
    for pair in &args.limits {
        config.limits.set_pair(pair)?;
    }
    config.syzygy.clone_from(&args.syzygy);
    config.test_clock = args.test_clock;
    config.proxy_protocol = args.proxy_protocol;
    if let (Some(redis), Some(node)) = (&args.redis, &args.node) {
        config.cluster = Some(rochade_server::cluster::ClusterConfig {
            node: node.clone(),
            redis: redis.clone(),
        });
    }
    if let Some(url) = &args.smtp {
        config.mail = Some(rochade_server::notify::mail::MailConfig {
            url: url.clone(),
            from: args.smtp_from.clone(),
            site: args
                .site
                .clone()
                .unwrap_or_else(|| format!("http://{}", args.addr)),
        });
    }
    let runtime = server_runtime(args.threads).context("starting the async runtime")?;
    runtime.block_on(rochade_server::serve(config, stop_signal()))?;
    Ok(())
}

/// How often (in tasks run) the single-threaded runtime looks first at
/// the tasks woken from other threads: rooms whose commit the writer
/// thread has just answered. tokio's default, 31, served them only between
/// 31 tasks woken on the runtime's own thread (sockets, rooms' commands),
/// about six a move: at 8,000 moves a second fewer commits were answered
/// than made, and 8 % of the acts waited over 50 ms in their rooms while
/// no commit took that long. At 4, none or almost none did, and the p99
/// halved (docs/performance.md).
const REMOTE_EVERY: u32 = 4;

/// The server's async runtime with `threads` workers (default: one a core
/// the process may use). One thread is a single-threaded runtime: a worker
/// pool of one would pay for stealing work from nobody.
fn server_runtime(threads: Option<u16>) -> std::io::Result<tokio::runtime::Runtime> {
    let threads = threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        usize::from,
    );
    if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .global_queue_interval(REMOTE_EVERY)
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()
    }
}

/// Completes on Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Arguments of `rochade loadtest`.
#[derive(Debug, clap::Args)]
pub struct LoadtestArgs {
    /// The server to load, e.g. ws://127.0.0.1:8080.
    #[arg(long, default_value = "ws://127.0.0.1:8080")]
    url: String,
    /// Concurrent games (two sockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Moves per second per game.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Seconds to measure once every game has started.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Seconds over which the games are started.
    #[arg(long, default_value_t = 20)]
    ramp: u64,
    /// Plies after which a game is resigned and replaced.
    #[arg(long, default_value_t = 80)]
    max_plies: usize,
    /// The server's process id, to report its memory per game (Linux).
    #[arg(long)]
    server_pid: Option<u32>,
    /// Password sign-ins a second beside the games (the server's limits
    /// sign_ins_per_account and sign_ins_per_address must allow them).
    #[arg(long, default_value_t = 0.0)]
    sign_ins: f64,
    /// Instead of games: the memory N page sockets on one seat cost, or N
    /// NDJSON game streams of the Board API (--watch; needs --server-pid
    /// and --db, the server's database, for the API token; raise the
    /// server's sockets_per_seat and connections_per_address).
    #[arg(long)]
    watchers: Option<usize>,
    /// The server's database (with --watchers); its directory is also
    /// where the disk's own sync latency is measured before and after a
    /// run (see --disk).
    #[arg(long)]
    db: Option<std::path::PathBuf>,
    /// A directory on the server's disk where the disk's own sync
    /// latency is measured before and after the run (default: --db's
    /// directory; none: not measured).
    #[arg(long, value_name = "DIR")]
    disk: Option<std::path::PathBuf>,
    /// With --watchers: `sockets` or `streams` (measure each in a fresh
    /// server: memory a closed watcher frees stays with the process).
    #[arg(long, default_value = "streams")]
    watch: String,
    /// After the games, with their sockets closed: watch the server's
    /// `/metrics` for up to this many seconds until its rooms have
    /// unloaded (the server's `unload_after`, 30 s by default), and report
    /// the rooms and memory left.
    #[arg(long, value_name = "SECONDS")]
    unload_wait: Option<u64>,
    /// Seconds a game keeps trying after a socket breaks or the server
    /// answers busy (reconnecting through --url, sending a move again only
    /// when the state says it was not stored); 0: the first failure ends
    /// the game and the games are not read back after the run.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    reconnect_for: u64,
    /// The players' sockets take the whole state after every move instead
    /// of move messages (as clients did before them).
    #[arg(long)]
    whole_states: bool,
}

/// Two fresh accounts in a game; what `--watchers` needs to watch it.
async fn watched_game(
    host: &str,
    db: &std::path::Path,
) -> anyhow::Result<(String, String, String)> {
    use rochade_loadtest::client::request;
    let suffix = rochade_server::setup::random_code(6);
    let names = [format!("watch_a_{suffix}"), format!("watch_b_{suffix}")];
    let mut sessions = Vec::new();
    for name in &names {
        let body = serde_json::json!({"name": name, "password": "load test password"});
        let up = request(host, "POST", "/api/auth/signup", Some(&body), None).await?;
        sessions.push(
            up.session
                .context("signing up (raise sign_ups_per_address)")?,
        );
    }
    let terms = serde_json::json!({"time_control": "-", "color": "white"});
    let path = format!("/api/account/challenge/{}", names[1]);
    let made = request(host, "POST", &path, Some(&terms), Some(&sessions[0])).await?;
    let id = made.json["id"].as_str().context("a challenge")?;
    let path = format!("/api/account/challenge/{id}/accept");
    request(host, "POST", &path, None, Some(&sessions[1])).await?;
    let games = request(host, "GET", "/api/account/games", None, Some(&sessions[0])).await?;
    let game = &games.json["games"][0];
    let id = game["gameId"].as_str().context("a game")?.to_owned();
    let url = game["url"].as_str().context("a seat")?;
    let seat = url.split_once('#').context("a seat token")?.1.to_owned();
    let storage = rochade_server::SqliteStorage::open(db)?;
    let token =
        rochade_server::accounts::admin::create_token(&storage, &names[0], "board:play", "")?;
    Ok((id, seat, token))
}

/// `--watchers`: prints what a page socket and an NDJSON stream cost.
fn watchers(args: &LoadtestArgs, n: usize) -> anyhow::Result<()> {
    let pid = args.server_pid.context("--watchers needs --server-pid")?;
    let db = args.db.as_deref().context("--watchers needs --db")?;
    let host = args
        .url
        .trim_start_matches("ws://")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let report = runtime.block_on(async {
        let (game, seat_token, api_token) = watched_game(&host, db).await?;
        let kind = match args.watch.as_str() {
            "sockets" => rochade_loadtest::watchers::Kind::Sockets,
            "streams" => rochade_loadtest::watchers::Kind::Streams,
            other => anyhow::bail!("--watch: `sockets` or `streams`, not `{other}`"),
        };
        let config = rochade_loadtest::watchers::WatchConfig {
            kind,
            host: host.clone(),
            server_pid: pid,
            watchers: n,
            game,
            seat_token,
            api_token,
        };
        anyhow::Ok(rochade_loadtest::watchers::watchers(&config).await?)
    })?;
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}

/// Runs the load and prints the report as JSON.
pub fn loadtest(args: &LoadtestArgs) -> anyhow::Result<()> {
    if let Some(n) = args.watchers {
        return watchers(args, n);
    }
    let config = rochade_loadtest::LoadConfig {
        url: args.url.clone(),
        games: args.games,
        rate: args.rate,
        duration: std::time::Duration::from_secs(args.seconds),
        ramp: std::time::Duration::from_secs(args.ramp),
        max_plies: args.max_plies,
        server_pid: args.server_pid,
        sign_ins: args.sign_ins,
        disk: args.disk.clone().or_else(|| {
            args.db
                .as_deref()
                .and_then(std::path::Path::parent)
                .map(|d| {
                    if d.as_os_str().is_empty() {
                        ".".into()
                    } else {
                        d.to_path_buf()
                    }
                })
        }),
        unload_wait: args.unload_wait.map(std::time::Duration::from_secs),
        move_messages: !args.whole_states,
    };
    let resilience = if args.reconnect_for == 0 {
        rochade_loadtest::Resilience::none()
    } else {
        rochade_loadtest::Resilience {
            reconnect_for: std::time::Duration::from_secs(args.reconnect_for),
            check_stored: true,
        }
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let report = runtime
        .block_on(rochade_loadtest::run_with(config, resilience))
        .context("load test")?;
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
