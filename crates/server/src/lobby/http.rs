//! The page's side of playing people, authorized by its session cookie
//! (JSON bodies only, same-origin: the groundwork's defences apply):
//! challenges made and answered, the lobby's seeks read and accepted, the
//! account's open games with the link to each seat.

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use shakmaty::Color;

use crate::accounts::http::signed_in_user;
use crate::challenges::ColorChoice;
use crate::challenges::flow::{self, Terms};
use crate::error::{ActionError, ErrorCode};
use crate::limits::ClientAddr;
use crate::ratings::current_rating;
use crate::room::Command;
use crate::rooms::Shared;
use crate::setup::Player;
use crate::storage::User;

/// The terms of a game as the page asks for it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameTerms {
    /// The time control (`5+3`, `3d/move`, …).
    pub time_control: String,
    /// `white`, `black` or `random` (the default).
    #[serde(default)]
    pub color: Option<String>,
    /// Rated (default: casual).
    #[serde(default)]
    pub rated: bool,
    /// A Chess960 game.
    #[serde(default)]
    pub chess960: bool,
}

impl GameTerms {
    /// The terms checked against the server's limits.
    ///
    /// # Errors
    ///
    /// `bad_request` naming the field.
    pub fn checked(&self, shared: &Shared) -> Result<Terms, ActionError> {
        let control = crate::setup::checked_control(&self.time_control, &shared.limits)?;
        Ok(Terms {
            control,
            rated: self.rated,
            color: ColorChoice::parse(self.color.as_deref())?,
            chess960: self.chess960,
        })
    }
}

/// The link to the seat of account `user` in game `id`.
///
/// # Errors
///
/// `not_found` when the game is gone or `user` does not play it.
pub async fn seat_link(shared: &Arc<Shared>, id: &str, user: i64) -> Result<Value, ActionError> {
    let described = shared.ask(id, |reply| Command::Describe { reply }).await?;
    let color = described
        .setup
        .player_color(user)
        .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("you do not play {id}")))?;
    let token = described.setup.token(color);
    Ok(json!({
        "game": id,
        "color": if color == Color::White { "white" } else { "black" },
        "url": format!("/g/{id}#{token}"),
    }))
}

/// `POST /api/account/challenge/{name}`: challenges the account `name`.
pub async fn challenge(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(name): Path<String>,
    bytes: Bytes,
) -> Result<Response, ActionError> {
    let me = signed_in_user(&shared, &headers).await?;
    let terms: GameTerms = crate::json::body(&bytes, "challenge")?;
    let json = flow::issue(&shared, &me, &name, terms.checked(&shared)?).await?;
    Ok((StatusCode::CREATED, axum::Json(json)).into_response())
}

/// What a challenge's answer may say.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    /// Why it is declined (lichess's keys).
    #[serde(default)]
    reason: Option<String>,
}

/// `POST /api/account/challenge/{id}/{accept|decline|cancel}`.
pub async fn answer(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    ClientAddr(from): ClientAddr,
    Path((id, what)): Path<(String, String)>,
    bytes: Bytes,
) -> Result<Response, ActionError> {
    let me = signed_in_user(&shared, &headers).await?;
    let answer: Answer = crate::json::body(&bytes, &what)?;
    match what.as_str() {
        "accept" => {
            let game = flow::accept(&shared, me.id, &id, from).await?;
            Ok(axum::Json(seat_link(&shared, &game, me.id).await?).into_response())
        }
        "decline" => {
            let reason = answer.reason.as_deref().unwrap_or("generic");
            flow::decline(&shared, me.id, &id, reason).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        "cancel" => {
            flow::cancel(&shared, me.id, &id).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ActionError::new(
            ErrorCode::NotFound,
            format!("`{what}`: a challenge is accepted, declined or cancelled"),
        )),
    }
}

/// `GET /api/account/challenges`: the open challenges to and from the
/// signed-in account.
pub async fn challenges(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    let me = signed_in_user(&shared, &headers).await?;
    Ok(axum::Json(challenges_json(&shared, me.id).await?).into_response())
}

/// `{"in": [...], "out": [...]}`: the open challenges of `user`.
///
/// # Errors
///
/// `internal` when the database fails.
pub async fn challenges_json(shared: &Shared, user: i64) -> Result<Value, ActionError> {
    let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
    for c in crate::challenges::of(shared, user).await? {
        if c.dest.id == user {
            incoming.push(c.to_json("created"));
        } else {
            outgoing.push(c.to_json("created"));
        }
    }
    Ok(json!({"in": incoming, "out": outgoing}))
}

/// `GET /api/account/games`: the signed-in account's unfinished games,
/// "your move" first, each with the link to its seat.
pub async fn games(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    let me = signed_in_user(&shared, &headers).await?;
    Ok(axum::Json(json!({"games": games_json(&shared, &me).await?})).into_response())
}

/// The unfinished games of `user`, "your move" first.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn games_json(shared: &Arc<Shared>, user: &User) -> Result<Vec<Value>, ActionError> {
    let mut games = Vec::new();
    for (setup, state, color) in crate::api::events::playing_games(shared, user.id).await? {
        let news = crate::api::games::game_event("gameStart", &setup, &state, color);
        let mut game = news["game"].clone();
        game["url"] = json!(format!("/g/{}#{}", setup.id, setup.token(color)));
        game["timeControl"] = json!(setup.time_control);
        game["rules"] = json!(setup.rules.as_str());
        // The moment the running flag falls if nobody moves (Unix ms; leave
        // included): a correspondence game's deadline.
        if let Some(flag_in) = state["clock"]["flag_in"].as_u64() {
            game["deadline"] = json!(shared.clock.now_ms().saturating_add(flag_in));
        }
        games.push(game);
    }
    games.sort_by_key(|g| g["isMyTurn"] != true);
    Ok(games)
}

/// `GET /api/lobby`: the open seeks.
pub async fn lobby(State(shared): State<Arc<Shared>>) -> Response {
    axum::Json(json!({"seeks": shared.seeks.list()})).into_response()
}

/// `POST /api/lobby/seeks/{id}/accept`: the signed-in account accepts a
/// seek; the link to its seat in the new game.
pub async fn accept_seek(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    ClientAddr(from): ClientAddr,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let me = signed_in_user(&shared, &headers).await?;
    let game = take_seek(&shared, &me, &id, from).await?;
    Ok(axum::Json(seat_link(&shared, &game, me.id).await?).into_response())
}

/// What opening a seek came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    /// The seek is open in the lobby: its id.
    Open(String),
    /// A compatible seek was open already: the game between the two.
    Paired(String),
}

/// The account `user` seeks a game on `terms`, opponents rated within
/// `range`; the seek is held by the connection `holder`. When a
/// compatible seek is open already (see [`super::Seeks::partner`]) the two
/// are paired at once, as lichess pairs seeks.
///
/// # Errors
///
/// `too_many_requests` past the open seeks allowed; what starting the game
/// may refuse.
pub async fn seek(
    shared: &Arc<Shared>,
    user: &User,
    terms: Terms,
    range: Option<(i64, i64)>,
    holder: u64,
    from: IpAddr,
) -> Result<Opened, ActionError> {
    let perf = crate::ratings::Perf::of(&terms.control, terms.chess960);
    let owner = crate::ratings::rated(shared, flow::player(user), perf).await?;
    let seek = super::Seek {
        id: String::new(),
        owner,
        control: terms.control,
        rated: terms.rated,
        color: terms.color,
        chess960: terms.chess960,
        range,
        holder,
        node: None,
        made: tokio::time::Instant::now(),
    };
    if let Some(partner) = shared.seeks.partner(&seek) {
        // Taken by someone else meanwhile: open ours instead.
        if let Ok(game) = take_seek(shared, user, &partner, from).await {
            return Ok(Opened::Paired(game));
        }
    }
    Ok(Opened::Open(shared.seeks.add(seek)?))
}

/// The account `taker` takes seek `id`: the game is created (by the node
/// that holds the seek) and both players hear `gameStart`; its id.
///
/// # Errors
///
/// `not_found` for no such seek; `not_allowed` for one's own or a rating
/// out of its range; `busy` when the seek's node does not answer.
pub async fn take_seek(
    shared: &Arc<Shared>,
    taker: &User,
    id: &str,
    from: IpAddr,
) -> Result<String, ActionError> {
    let no_seek = || ActionError::new(ErrorCode::NotFound, format!("no seek {id}"));
    let perf = shared.seeks.perf_of(id).ok_or_else(no_seek)?;
    let rating = current_rating(shared, taker.id, perf).await?.shown();
    match shared.seeks.node_of(id).ok_or_else(no_seek)? {
        None => take_here(shared, flow::player(taker), rating, id, from).await,
        Some(node) => {
            let cluster = shared.cluster.get().ok_or_else(no_seek)?;
            let taker = flow::player(taker);
            crate::cluster::seeks::take(cluster, &node, id, taker, rating, from).await
        }
    }
}

/// `taker`, rated `rating` in its category, takes seek `id` held by this
/// node; the game's id.
///
/// # Errors
///
/// As [`take_seek`].
pub async fn take_here(
    shared: &Arc<Shared>,
    taker: Player,
    rating: i64,
    id: &str,
    from: IpAddr,
) -> Result<String, ActionError> {
    let seek = shared.seeks.take(id, taker.id, rating)?;
    let owner_color = match seek.color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => Color::from_white(rand::random::<bool>()),
    };
    let (owner, taker) = (Some(seek.owner.clone()), Some(taker));
    let players = match owner_color {
        Color::White => [owner, taker],
        Color::Black => [taker, owner],
    };
    let setup = flow::between(shared, players, &seek.control, seek.rated, seek.chess960)?;
    flow::start(shared, setup, from).await
}

/// The account `owner` withdraws its seek `id`, wherever it is held.
///
/// # Errors
///
/// `not_found` when `owner` has no such seek; `busy` when the seek's node
/// does not answer.
pub async fn cancel_seek(shared: &Arc<Shared>, owner: i64, id: &str) -> Result<(), ActionError> {
    match shared.seeks.node_of(id) {
        Some(Some(node)) if let Some(cluster) = shared.cluster.get() => {
            crate::cluster::seeks::cancel(cluster, &node, id, owner).await
        }
        _ => shared.seeks.cancel(id, owner),
    }
}
