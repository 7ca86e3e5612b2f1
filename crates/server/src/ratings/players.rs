//! Ratings put on players when a challenge or a game begins, as lichess
//! shows them beside the names.

use std::sync::Arc;

use shakmaty::Color;

use super::{Perf, Rating};
use crate::error::ActionError;
use crate::rooms::Shared;
use crate::setup::{GameSetup, Player, ShownRating};
use crate::storage::wall_ms;

/// The rating of the account `user` in `perf` as of now (a new player's
/// when it has none).
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn current_rating(shared: &Shared, user: i64, perf: Perf) -> Result<Rating, ActionError> {
    let ratings = shared.stored(move |s| s.ratings(user)).await?;
    Ok(ratings
        .into_iter()
        .find(|(p, _)| *p == perf)
        .map_or_else(Rating::initial, |(_, r)| r.as_of(wall_ms())))
}

/// `player` with their rating in `perf`.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn rated(shared: &Shared, mut player: Player, perf: Perf) -> Result<Player, ActionError> {
    let rating = current_rating(shared, player.id, perf).await?;
    player.rating = Some(ShownRating {
        rating: rating.shown(),
        provisional: rating.provisional(),
    });
    Ok(player)
}

/// `setup` with each account's rating in the game's category.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn with_ratings(
    shared: &Arc<Shared>,
    mut setup: GameSetup,
) -> Result<GameSetup, ActionError> {
    let perf = setup.perf();
    for color in Color::ALL {
        let slot = match color {
            Color::White => &mut setup.white_player,
            Color::Black => &mut setup.black_player,
        };
        if let Some(player) = slot.take() {
            *slot = Some(rated(shared, player, perf).await?);
        }
    }
    Ok(setup)
}
