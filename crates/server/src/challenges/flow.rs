//! What a challenge does, whoever asks: made, accepted (the game is
//! created and both players hear `gameStart`), declined with a reason,
//! cancelled. The lichess-compatible API (a token) and the page (its
//! session) both come here, so both follow the same rules.

use std::net::IpAddr;
use std::sync::Arc;

use rochade_laws::clock::TimeControl;
use serde_json::{Value, json};
use shakmaty::Color;

use super::{Challenge, ColorChoice};
use crate::api::games::game_event;
use crate::error::{ActionError, ErrorCode};
use crate::ratings::{Perf, rated, with_ratings};
use crate::room::Command;
use crate::rooms::Shared;
use crate::setup::{GameSetup, Player};
use crate::storage::User;

/// A player as a game remembers them.
pub fn player(user: &User) -> Player {
    Player {
        id: user.id,
        name: user.name.clone(),
        bot: user.bot,
        rating: None,
    }
}

/// What a challenge asks for.
#[derive(Debug, Clone)]
pub struct Terms {
    /// The time control.
    pub control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// A Chess960 game.
    pub chess960: bool,
}

/// `challenger` challenges the account named `dest`: the challenge as
/// lichess describes it, told to both.
///
/// # Errors
///
/// `not_found` for no such (enabled) account; `bad_request` for oneself;
/// `too_many_requests` when the challenger has too many open.
pub async fn issue(
    shared: &Shared,
    challenger: &User,
    dest: &str,
    terms: Terms,
) -> Result<Value, ActionError> {
    let lookup = dest.to_owned();
    let dest = shared
        .stored(move |s| s.user(&lookup))
        .await?
        .filter(|u| !u.disabled)
        .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("No such user: {dest}")))?;
    if dest.id == challenger.id {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            "you cannot challenge yourself",
        ));
    }
    let perf = Perf::of(&terms.control, terms.chess960);
    let challenge = Challenge::new(
        rated(shared, player(challenger), perf).await?,
        rated(shared, player(&dest), perf).await?,
        terms.rated,
        terms.control,
        terms.color,
        terms.chess960,
    );
    let json = challenge.to_json("created");
    super::add(shared, &challenge).await?;
    let news = json!({"type": "challenge", "challenge": json});
    shared.hub.tell(dest.id, news.clone());
    shared.hub.tell(challenger.id, news);
    Ok(json)
}

/// The account `me` accepts challenge `id` (made to them); the new game's
/// id.
///
/// # Errors
///
/// `not_found` when there is no such challenge to `me`.
pub async fn accept(
    shared: &Arc<Shared>,
    me: i64,
    id: &str,
    from: IpAddr,
) -> Result<String, ActionError> {
    let challenge = super::take(shared, id, |c| c.dest.id == me).await?;
    let (challenger, dest) = (
        Some(challenge.challenger.clone()),
        Some(challenge.dest.clone()),
    );
    let players = match challenge.challenger_color {
        Color::White => [challenger, dest],
        Color::Black => [dest, challenger],
    };
    let setup = between(
        shared,
        players,
        &challenge.control,
        challenge.rated,
        challenge.chess960,
    )?;
    start(shared, setup, from).await
}

/// The setup of a game between `players` (White, Black) with `control`,
/// rated or not, Chess960 (its start drawn now) or not.
///
/// # Errors
///
/// `bad_request` for a control over the server's limits.
pub fn between(
    shared: &Shared,
    players: [Option<Player>; 2],
    control: &TimeControl,
    rated: bool,
    chess960: bool,
) -> Result<GameSetup, ActionError> {
    let mut setup = GameSetup::between(players, &control.to_string(), rated, None, &shared.limits)?;
    if chess960 {
        setup.chess960 = Some(rand::random_range(0..960));
    }
    Ok(setup)
}

/// The account `me` declines challenge `id` with `reason` (lichess's
/// keys: `generic`, `later`, `tooFast`, `tooSlow`, `timeControl`, `rated`,
/// `casual`, `standard`, `variant`, `noBot`, `onlyBot`); the challenger
/// hears it.
///
/// # Errors
///
/// `not_found` when there is no such challenge to `me`; `bad_request`
/// for an unknown reason.
pub async fn decline(shared: &Shared, me: i64, id: &str, reason: &str) -> Result<(), ActionError> {
    const REASONS: [&str; 11] = [
        "generic",
        "later",
        "tooFast",
        "tooSlow",
        "timeControl",
        "rated",
        "casual",
        "standard",
        "variant",
        "noBot",
        "onlyBot",
    ];
    if !REASONS.contains(&reason) {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("reason: `{reason}` is not one of {}", REASONS.join(", ")),
        ));
    }
    let challenge = super::take(shared, id, |c| c.dest.id == me).await?;
    let mut json = challenge.to_json("declined");
    json["declineReasonKey"] = json!(reason);
    json["declineReason"] = json!(format!("The challenge was declined ({reason})."));
    let news = json!({"type": "challengeDeclined", "challenge": json});
    shared.hub.tell(challenge.challenger.id, news.clone());
    shared.hub.tell(me, news);
    Ok(())
}

/// The account `me` cancels its challenge `id`; the challenged player
/// hears it.
///
/// # Errors
///
/// `not_found` when `me` made no such challenge.
pub async fn cancel(shared: &Shared, me: i64, id: &str) -> Result<(), ActionError> {
    let challenge = super::take(shared, id, |c| c.challenger.id == me).await?;
    let news = json!({"type": "challengeCanceled", "challenge": challenge.to_json("canceled")});
    shared.hub.tell(challenge.dest.id, news.clone());
    shared.hub.tell(me, news);
    Ok(())
}

/// Stores a game between accounts (with their ratings now) and tells its
/// players; the game's id.
///
/// # Errors
///
/// When the game cannot be created (limits, storage).
pub async fn start(
    shared: &Arc<Shared>,
    setup: GameSetup,
    from: IpAddr,
) -> Result<String, ActionError> {
    let id = setup.id.clone();
    let setup = with_ratings(shared, setup).await?;
    shared.create(setup, from).await?;
    let described = shared.ask(&id, |reply| Command::Describe { reply }).await?;
    let state: Value = serde_json::from_str(&described.state)
        .map_err(|e| ActionError::new(ErrorCode::Internal, e.to_string()))?;
    for color in Color::ALL {
        if let Some(player) = described.setup.player(color) {
            shared.hub.tell(
                player.id,
                game_event("gameStart", &described.setup, &state, color),
            );
        }
    }
    Ok(id)
}
