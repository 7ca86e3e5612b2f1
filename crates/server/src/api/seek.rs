//! `POST /api/board/seek`: a seek in the lobby from the Board API. As on
//! lichess, the response is a stream that says nothing (an empty line
//! every 6 s): the seek stays open while it is read, and goes when the
//! reader hangs up or someone accepts it (the game then starts with
//! `gameStart` on both players' event streams, and this stream ends).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use super::ApiError;
use super::auth::Bearer;
use super::form::Fields;
use super::stream::{KEEP_ALIVE, ndjson};
use crate::accounts::scope::Scope;
use crate::challenges::flow::Terms;
use crate::challenges::{ColorChoice, control_of};
use crate::limits::ClientAddr;
use crate::lobby::http::{Opened, seek as open_seek};
use crate::rooms::Shared;

/// The fields of a seek.
const SEEK_FIELDS: &[&str] = &[
    "rated",
    "time",
    "increment",
    "days",
    "variant",
    "color",
    "ratingRange",
];

/// Reads `ratingRange` (`1500-1800`).
fn rating_range(text: Option<&str>) -> Result<Option<(i64, i64)>, ApiError> {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let bad = || {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("ratingRange: `{text}` is not LOW-HIGH, as 1500-1800"),
        )
    };
    let (low, high) = text.split_once('-').ok_or_else(bad)?;
    let (low, high): (i64, i64) = (
        low.trim().parse().map_err(|_| bad())?,
        high.trim().parse().map_err(|_| bad())?,
    );
    if low > high {
        return Err(bad());
    }
    Ok(Some((low, high)))
}

/// Minutes (`3`, `0.5`) as whole seconds.
fn minutes(text: Option<&str>) -> Result<Option<u64>, ApiError> {
    let Some(text) = text else { return Ok(None) };
    let minutes: f64 = text.parse().map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("time: `{text}` is not a number of minutes"),
        )
    })?;
    if !(0.0..=180.0).contains(&minutes) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("time: {minutes} minutes is not 0 to 180"),
        ));
    }
    Ok(Some((minutes * 60.0).round() as u64))
}

/// `POST /api/board/seek`.
pub async fn seek(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    ClientAddr(from): ClientAddr,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    bearer.require(Scope::BoardPlay)?;
    let fields = Fields::read(&headers, &body, SEEK_FIELDS)?;
    let chess960 = super::challenge::chess960_asked(&fields)?;
    let limit = minutes(fields.text("time"))?;
    let increment = fields.number("increment")?;
    let days = fields.number("days")?;
    if limit.is_none() && days.is_none() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "time (minutes) and increment, or days, are required",
        ));
    }
    let control = control_of(limit, increment.or(limit.map(|_| 0)), days)?;
    crate::setup::checked_control(&control.to_string(), &shared.limits)?;
    let range = rating_range(fields.text("ratingRange"))?;
    let color = ColorChoice::parse(fields.text("color"))?;
    let rated_game = fields.boolean("rated")?.unwrap_or(false);
    let terms = Terms {
        control,
        rated: rated_game,
        color,
        chess960,
    };
    let holder = shared.seeks.holder();
    let id = match open_seek(&shared, &bearer.0.user, terms, range, holder, from).await? {
        Opened::Open(id) => id,
        // Paired at once: the game starts on the event streams.
        Opened::Paired(_) => return Ok(ndjson(|_| async {})),
    };
    let mut changes = shared.seeks.watch();
    Ok(ndjson(move |lines| async move {
        let mut beat = tokio::time::interval(KEEP_ALIVE);
        beat.tick().await;
        loop {
            let alive = tokio::select! {
                _ = lines.closed() => false,
                _ = beat.tick() => lines.keep_alive().await,
                changed = changes.changed() => {
                    changed.is_ok() && shared.seeks.perf_of(&id).is_some()
                }
            };
            if !alive {
                break;
            }
        }
        shared.seeks.release(holder);
    }))
}
