//! The HTTP API: create a game, use an invitation, read a game's state and
//! record, check a time control.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::{ActionError, ErrorCode};
use crate::limits::ClientAddr;
use crate::room::Command;
use crate::rooms::Shared;
use crate::setup::{GameSetup, Mode, NewGame, Player, Side};
use crate::state;

/// The links of a friend game, one per colour.
#[derive(Debug, Serialize)]
struct Links {
    /// White's link.
    white: String,
    /// Black's link.
    black: String,
}

/// The answer to `POST /api/games`.
#[derive(Debug, Serialize)]
struct Created {
    /// The game id.
    game: String,
    /// The creator's seat.
    color: &'static str,
    /// The creator's token.
    token: String,
    /// The invitation code of a friend game.
    invite: Option<String>,
    /// Friend games: one secret link per colour.
    links: Option<Links>,
}

/// The signed-in account of the page's session cookie, as a game
/// remembers its players.
async fn signed_in(shared: &Shared, headers: &HeaderMap) -> Result<Option<Player>, ActionError> {
    let user = crate::accounts::http::session_account(shared, headers).await?;
    Ok(user.as_ref().map(crate::challenges::flow::player))
}

/// `POST /api/games`. A signed-in creator's seat is recorded under their
/// name (robot and friend games; a board shared by two people in one
/// place has no one owner).
pub async fn create(
    State(shared): State<Arc<Shared>>,
    ClientAddr(from): ClientAddr,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ActionError> {
    let bad = |e: String| ActionError::new(ErrorCode::BadRequest, format!("game request: {e}"));
    let value = crate::json::strict_slice(&body).map_err(bad)?;
    let request: NewGame = crate::json::typed(value).map_err(bad)?;
    let mut setup = GameSetup::from_request(&request, &shared.limits)?;
    if let (Some(side), Some(player)) = (setup.creator, signed_in(&shared, &headers).await?) {
        match side {
            Side::White => setup.white_player = Some(player),
            Side::Black => setup.black_player = Some(player),
        }
        setup = crate::ratings::with_ratings(&shared, setup).await?;
    }
    shared.create(setup.clone(), from).await?;
    let (color, token) = match setup.creator {
        None => ("both", setup.white_token.clone()),
        Some(Side::White) => ("white", setup.white_token.clone()),
        Some(Side::Black) => ("black", setup.black_token.clone()),
    };
    let links = (setup.mode == Mode::Friend).then(|| Links {
        white: format!("/g/{}#{}", setup.id, setup.white_token),
        black: format!("/g/{}#{}", setup.id, setup.black_token),
    });
    let created = Created {
        game: setup.id,
        color,
        token,
        invite: setup.invite,
        links,
    };
    Ok((StatusCode::CREATED, axum::Json(created)).into_response())
}

/// `POST /api/invites/{invite}`: takes the free seat (under the name of
/// the signed-in account, if any).
pub async fn invite(
    State(shared): State<Arc<Shared>>,
    Path(invite): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    let player = signed_in(&shared, &headers).await?;
    let code = invite.clone();
    let game = shared
        .stored(move |s| s.find_invite(&code))
        .await?
        .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("no invitation {invite}")))?;
    let (color, token) = shared
        .ask(&game, |reply| Command::TakeSeat {
            player: player.clone(),
            reply,
        })
        .await??;
    Ok(
        axum::Json(serde_json::json!({"game": game, "token": token, "color": color}))
            .into_response(),
    )
}

/// `GET /api/games/{id}`: the state as a spectator sees it.
pub async fn game(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let json = shared.ask(&id, |reply| Command::State { reply }).await?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        state::with_you(&json, "spectator"),
    )
        .into_response())
}

/// `GET /api/games/{id}/pgn[?notation=numeric]` (also lichess's
/// `/game/export/{id}`): the record with each move's clock and time.
pub async fn pgn(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    Query(query): Query<PgnQuery>,
) -> Result<Response, ActionError> {
    let numeric = match query.notation.as_deref() {
        None | Some("san") => false,
        Some("numeric") => true,
        Some(other) => {
            return Err(ActionError::new(
                ErrorCode::BadRequest,
                format!("notation: `{other}` is not san or numeric"),
            ));
        }
    };
    let text = shared
        .ask(&id, |reply| Command::Pgn { numeric, reply })
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn"),
            (
                header::CONTENT_DISPOSITION,
                &format!("attachment; filename=\"rochade-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// The query of a game's PGN: `?notation=numeric` for ICCF numeric
/// notation (A.18).
#[derive(Debug, serde::Deserialize)]
pub struct PgnQuery {
    /// `san` (the default) or `numeric`.
    #[serde(default)]
    notation: Option<String>,
}

/// `GET /healthz`: the process answers (for the proxy's liveness check).
pub async fn health() -> &'static str {
    "ok"
}

/// `GET /readyz`: whether the node should be sent players: `503` while
/// it stops (its rooms are closing), while its database refuses writes
/// (the last group commit failed) or, one node of several, while Redis
/// does not answer it or its lease is not settled
/// ([`crate::cluster::lease::Held::serves`]); with the reason.
pub async fn ready(State(shared): State<Arc<Shared>>) -> Response {
    use std::sync::atomic::Ordering;
    let unready = if *shared.shutdown.borrow() {
        Some("stopping")
    } else if crate::metrics::METRICS.failing.load(Ordering::Relaxed) {
        Some("the database refuses writes")
    } else if shared.cluster.get().is_some_and(|c| !c.connected()) {
        Some("redis does not answer: the other nodes cannot reach this one")
    } else if shared
        .cluster
        .get()
        .is_some_and(|c| !c.lease().serves(crate::storage::wall_ms()))
    {
        Some("this node's lease is not settled (just started, or no heartbeat stored for a while)")
    } else {
        None
    };
    match unready {
        None => "ready".into_response(),
        Some(why) => (axum::http::StatusCode::SERVICE_UNAVAILABLE, why).into_response(),
    }
}

/// `GET /metrics`: the counters in the Prometheus text format
/// ([`crate::metrics`]).
pub async fn metrics(State(shared): State<Arc<Shared>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        crate::metrics::render(shared.live(), shared.robots.busy(), shared.seeks.count()),
    )
        .into_response()
}

/// The query of `/api/timecontrol`.
#[derive(Debug, serde::Deserialize)]
pub struct ControlQuery {
    /// The time control text.
    #[serde(default)]
    tc: String,
}

/// `GET /api/timecontrol?tc=5%2B3`: the control as `rochade timecontrol`
/// prints it.
pub async fn timecontrol(
    State(shared): State<Arc<Shared>>,
    axum::extract::Query(query): axum::extract::Query<ControlQuery>,
) -> Result<Response, ActionError> {
    crate::setup::checked_control(&query.tc, &shared.limits)?;
    let report = crate::timecontrol::report(
        &query.tc,
        rochade_laws::RuleSet::Fide,
        rochade_laws::clock::Syntax::Auto,
    )
    .map_err(|e| {
        ActionError::new(
            ErrorCode::BadRequest,
            format!("time control `{}`: {e}", query.tc),
        )
    })?;
    Ok(axum::Json(report).into_response())
}
