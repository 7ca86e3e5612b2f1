//! `rochade serve`: the game server.
//!
//! An axum app ([`app`]) with the page embedded, an HTTP API and one
//! WebSocket per browser (docs/protocol.md). Each live game is a room task
//! that owns the game and its clock; every accepted action is stored
//! (SQLite, group commit) before it is broadcast, and a restart resumes
//! every unfinished game with the clocks stopped while the server was down.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use rochade_server::{ServeConfig, serve};
//! let config = ServeConfig::new("127.0.0.1:8080".parse()?, "rochade.sqlite".into());
//! serve(config, async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

pub mod accounts;
pub mod api;
pub mod assets;
pub mod challenges;
pub mod clock;
pub mod cluster;
pub mod correspondence;
pub mod defences;
pub mod director;
pub mod error;
pub mod event;
pub mod flood;
pub mod glance;
pub mod http;
pub mod hub;
pub mod json;
pub mod json_out;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod net;
pub mod notify;
pub mod pgn;
pub mod protocol;
pub mod proxy_protocol;
pub mod ratings;
pub mod record;
pub mod refusals;
pub mod replay;
pub mod robot;
pub mod room;
pub mod rooms;
pub mod schedule;
pub mod setup;
pub mod simuls;
pub mod state;
pub mod storage;
pub mod timecontrol;
pub mod tournaments;
pub mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::middleware;
use axum::routing::{get, post};
use tokio::sync::watch;

pub use error::{ActionError, ErrorCode};
pub use robot::EngineChoice;
pub use rooms::Shared;
pub use storage::{SqlStorage, SqliteStorage, Storage, StorageError};

/// The whole app: pages, API and WebSocket, behind the [`defences`]
/// (security headers on every response, JSON-only writes, the socket's
/// `Origin` check).
pub fn app(shared: Arc<Shared>) -> Router {
    let limits = shared.limits.clone();
    Router::new()
        // The page.
        .route("/", get(assets::index))
        .route("/g/{id}", get(assets::index))
        .route("/j/{invite}", get(assets::index))
        .route("/@/{name}", get(assets::index))
        .route("/correspondence", get(assets::index))
        .route("/director", get(assets::index))
        .route("/tournaments", get(assets::index))
        .route("/tournaments/{id}", get(assets::index))
        .route("/simuls", get(assets::index))
        .route("/simuls/{id}", get(assets::index))
        .route("/assets/{*path}", get(assets::asset))
        // The API.
        .route("/api/games", post(http::create))
        .route("/api/invites/{invite}", post(http::invite))
        .route("/api/games/{id}", get(http::game))
        .route("/api/games/{id}/pgn", get(http::pgn))
        .route("/api/games/{id}/replay", get(replay::replay))
        .route("/api/timecontrol", get(http::timecontrol))
        .route("/healthz", get(http::health))
        .route("/readyz", get(http::ready))
        .route("/metrics", get(http::metrics))
        // Accounts (the page's session cookie).
        .route("/api/auth/signup", post(accounts::http::sign_up))
        .route("/api/auth/signin", post(accounts::http::sign_in))
        .route("/api/auth/signout", post(accounts::http::sign_out))
        .route("/api/auth/password", post(accounts::http::change_password))
        .route("/api/auth/me", get(accounts::http::whoami))
        // Playing people from the page (its session cookie).
        .route("/api/account/games", get(lobby::http::games))
        .route("/api/account/challenges", get(lobby::http::challenges))
        .route(
            "/api/account/challenge/{name}",
            post(lobby::http::challenge),
        )
        .route(
            "/api/account/challenge/{id}/{what}",
            post(lobby::http::answer),
        )
        .route(
            "/api/account/notifications",
            get(notify::settings::show).post(notify::settings::set),
        )
        .route(
            "/api/account/leave",
            get(correspondence::http::show).post(correspondence::http::book),
        )
        .route(
            "/api/account/notes/{game}",
            get(correspondence::notes::show).post(correspondence::notes::save),
        )
        // Tournaments and their directors (ICCF 14).
        .route(
            "/api/tournaments",
            get(tournaments::http::list).post(tournaments::create::create),
        )
        .route("/api/tournaments/{id}", get(tournaments::http::show))
        .route(
            "/api/tournaments/{id}/players",
            post(tournaments::http::add_player),
        )
        .route(
            "/api/tournaments/{id}/start",
            post(tournaments::http::start),
        )
        .route(
            "/api/tournaments/{id}/withdraw",
            post(tournaments::http::withdraw),
        )
        .route("/api/tournaments/{id}/warn", post(tournaments::http::warn))
        .route(
            "/api/tournaments/{id}/leave",
            post(tournaments::http::grant_leave),
        )
        .route("/api/tournaments/{id}/join", post(tournaments::entry::join))
        .route("/api/tournaments/{id}/quit", post(tournaments::entry::quit))
        .route(
            "/api/tournaments/{id}/pause",
            post(tournaments::arbiter::pause),
        )
        .route(
            "/api/tournaments/{id}/pair",
            post(tournaments::arbiter::pair),
        )
        .route(
            "/api/tournaments/{id}/result",
            post(tournaments::arbiter::result),
        )
        .route("/api/tournaments/{id}/bye", post(tournaments::arbiter::bye))
        .route(
            "/api/tournaments/{id}/cancel",
            post(tournaments::call_off::cancel),
        )
        .route(
            "/api/tournaments/{id}/reschedule",
            post(tournaments::reschedule::reschedule),
        )
        .route(
            "/api/tournaments/{id}/settings",
            post(tournaments::settings::change),
        )
        .route("/api/tournaments/{id}/trf", get(tournaments::export::trf))
        .route("/api/tournaments/{id}/pgn", get(tournaments::export::pgn))
        .route(
            "/api/tournaments/{id}/standings",
            get(tournaments::export::standings),
        )
        // Simultaneous exhibitions.
        .route(
            "/api/simuls",
            get(simuls::http::list).post(simuls::http::create),
        )
        .route("/api/simuls/{id}", get(simuls::http::show))
        .route("/api/simuls/{id}/pgn", get(simuls::http::pgn))
        .route("/api/simuls/{id}/apply", post(simuls::http::apply))
        .route("/api/simuls/{id}/withdraw", post(simuls::http::withdraw))
        .route("/api/simuls/{id}/accept", post(simuls::http::accept))
        .route("/api/simuls/{id}/reject", post(simuls::http::reject))
        .route("/api/simuls/{id}/start", post(simuls::http::start))
        .route("/api/simuls/{id}/cancel", post(simuls::http::cancel))
        .route("/api/games/{id}/decide", post(director::http::decide))
        .route("/api/requests", post(director::http::file))
        .route("/api/requests/{id}/answer", post(director::http::answer))
        .route("/api/account/decisions", get(director::http::mine))
        .route("/api/director", get(director::attention::show))
        .route("/api/lobby", get(lobby::http::lobby))
        .route(
            "/api/lobby/seeks/{id}/accept",
            post(lobby::http::accept_seek),
        )
        // The lobby and the account, live.
        .route(
            "/ws/lobby",
            get(lobby::socket::upgrade).route_layer(middleware::from_fn_with_state(
                limits.clone(),
                defences::same_origin,
            )),
        )
        // A tournament's page, live.
        .route(
            "/ws/tournaments/{id}",
            get(tournaments::watch::upgrade).route_layer(middleware::from_fn_with_state(
                limits.clone(),
                defences::same_origin,
            )),
        )
        // Live games.
        .route(
            "/ws/{id}",
            get(ws::upgrade).route_layer(middleware::from_fn_with_state(
                limits.clone(),
                defences::same_origin,
            )),
        )
        // The framework's refusals (a method the path does not take, a
        // body too large, a path that is not UTF-8) said as JSON.
        .layer(middleware::from_fn(refusals::page))
        // Every route above, the fallback (404) included.
        .layer(middleware::from_fn_with_state(limits, defences::json_only))
        // The lichess-compatible API: bearer tokens, never cookies, so
        // lichess's form and text bodies (crate::api).
        .merge(api::routes())
        // The headers outermost, so that they are on the refusals too.
        .layer(middleware::map_response(defences::security_headers))
        .with_state(shared)
}

/// How `rochade serve` runs.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The SQLite file.
    pub db: PathBuf,
    /// The robot's engine.
    pub engine: EngineChoice,
    /// What one visitor may ask of the server.
    pub limits: limits::Limits,
    /// Directories of Syzygy tables for tablebase claims (ICCF 5.1.3,
    /// 5.2.4); none: such claims are refused.
    pub syzygy: Vec<PathBuf>,
    /// The SMTP relay for e-mail digests; none: notices stay on the page.
    pub mail: Option<notify::mail::MailConfig>,
    /// Tests only: the server's time also moves when standard input says
    /// (`advance 10d`; see [`clock::follow_stdin`]), so that a test can
    /// play through a year of correspondence in seconds against the real
    /// binary.
    pub test_clock: bool,
    /// One node of several (`--node`, `--redis`); none: a single server.
    pub cluster: Option<cluster::ClusterConfig>,
    /// Every connection comes through a proxy that opens it with a PROXY
    /// protocol header naming the client (`--proxy-protocol`;
    /// [`proxy_protocol`]): per-address limits count the clients, and a
    /// connection without the header is closed.
    pub proxy_protocol: bool,
}

impl ServeConfig {
    /// Serve at `addr` with the database `db` and the built-in engine.
    pub fn new(addr: SocketAddr, db: PathBuf) -> ServeConfig {
        ServeConfig {
            addr,
            db,
            engine: EngineChoice::Builtin,
            limits: limits::Limits::default(),
            syzygy: Vec::new(),
            mail: None,
            test_clock: false,
            cluster: None,
            proxy_protocol: false,
        }
    }
}

/// A failure to start or run the server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened.
    #[error("database {path}: {source}")]
    Storage {
        /// The file.
        path: PathBuf,
        /// Why.
        source: StorageError,
    },
    /// The Syzygy tables could not be opened.
    #[error("tablebases: {0}")]
    Tablebase(#[from] rochade_tablebase::OpenError),
    /// The mail relay cannot be used.
    #[error("mail: {0}")]
    Mail(#[from] notify::mail::MailError),
    /// The other nodes could not be joined.
    #[error("cluster: {0}")]
    Cluster(#[from] cluster::ClusterError),
    /// Stored games could not be resumed.
    #[error("resuming games: {0}")]
    Resume(ActionError),
    /// The address could not be used.
    #[error("listening on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// A server bound to its address, games resumed, not yet serving.
#[derive(Debug)]
pub struct Server {
    /// The listening socket.
    listener: tokio::net::TcpListener,
    /// Shared handles.
    shared: Arc<Shared>,
    /// Tells rooms and sockets to stop.
    shutdown: watch::Sender<bool>,
    /// Games resumed at start.
    resumed: usize,
    /// Connections open with a PROXY protocol header.
    proxy_protocol: bool,
}

impl Server {
    /// Opens the database, resumes unfinished games and binds the address.
    ///
    /// # Errors
    ///
    /// [`ServeError`] when the database, the stored games or the address fail.
    pub async fn bind(config: ServeConfig) -> Result<Server, ServeError> {
        let db = config.db.to_string_lossy();
        let mut storage = SqlStorage::connect(&db).map_err(|source| ServeError::Storage {
            path: storage::shown(&db).into(),
            source,
        })?;
        if config.cluster.is_some() {
            storage = storage.of_several_nodes();
        }
        let (shutdown, shutdown_rx) = watch::channel(false);
        let shared = Shared::new(
            Arc::new(storage),
            config.engine.clone(),
            config.limits.clone(),
            shutdown_rx,
        );
        if let Some(cluster) = &config.cluster {
            cluster::Cluster::join(cluster, &shared).await?;
        }
        if let Some((first, rest)) = config.syzygy.split_first() {
            let mut tables = rochade_tablebase::Tablebase::open(first)?;
            for dir in rest {
                tables.add_directory(dir)?;
            }
            let _ = shared.tablebase.set(Arc::new(tables));
        }
        if let Some(mail) = config.mail.clone() {
            notify::mail::start(
                mail,
                shared.storage.clone(),
                shared.clock.clone(),
                shared.limits.digest_every,
                shared.shutdown.clone(),
                shared.leads_handle(),
            )?;
        }
        let resumed = shared.resume_all().await.map_err(ServeError::Resume)?;
        tokio::spawn(tournaments::runner::run(shared.clone()));
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| ServeError::Listen {
                addr: config.addr,
                source,
            })?;
        Ok(Server {
            listener,
            shared,
            shutdown,
            resumed,
            proxy_protocol: config.proxy_protocol,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// The shared handles (rooms, storage).
    pub fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// How many unfinished games were resumed at start.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Serves until `stop` completes, each connection within the limits
    /// (see [`net`]: read and idle timeouts, connections per address);
    /// then stops taking connections, closes the sockets, lets open
    /// requests and the rooms finish what they are doing (at most
    /// [`net::DRAIN`] for the requests) and records the moment of the stop
    /// (6.12: the clocks stop there); a node of several then hands its
    /// games over to the others ([`cluster::lease::hand_over`]).
    ///
    /// # Errors
    ///
    /// None so far: a failing listener is retried (see [`net::serve`]).
    pub async fn run(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let shutdown = self.shutdown;
        let signal = async move {
            stop.await;
            let _ = shutdown.send(true);
        };
        let app = app(self.shared.clone());
        net::serve(
            self.listener,
            app,
            self.shared.limits.clone(),
            self.proxy_protocol,
            signal,
        )
        .await;
        let _ = self.shared.writer.write(Vec::new()).await;
        if let Some(cluster) = self.shared.cluster.get() {
            cluster::lease::hand_over(&self.shared, cluster).await;
        }
        Ok(())
    }
}

/// Opens the database, resumes unfinished games and serves until `stop`
/// completes (see [`Server::run`]).
///
/// # Errors
///
/// [`ServeError`] when the database, the stored games or the address fail.
pub async fn serve(
    config: ServeConfig,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let test_clock = config.test_clock;
    let server = Server::bind(config).await?;
    if test_clock {
        tokio::spawn(clock::follow_stdin(server.shared().clock.clone()));
    }
    if let Some(addr) = server.local_addr() {
        eprintln!(
            "rochade serve: listening on http://{addr} ({} unfinished games resumed)",
            server.resumed()
        );
    }
    server.run(stop).await?;
    eprintln!("rochade serve: stopped");
    Ok(())
}
