//! A tournament's downloads, for anyone:
//!
//! - `GET /api/tournaments/{id}/trf`: the FIDE Tournament Report File
//!   (TRF16), as bbpPairings and JaVaFo read it (`rochade trf check`
//!   re-pairs it); none for an arena, which has no rounds.
//! - `GET /api/tournaments/{id}/pgn`: every game, in round and board
//!   order, read from storage (no game's room is loaded for it).
//! - `GET /api/tournaments/{id}/standings`: the standings as CSV (place,
//!   number, name, rating, points, each tie-break).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::http::load;
use super::report::{Purpose, trf_of};
use super::runner::outcomes_of;
use super::standings::standings_json;
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;

/// A download named `file` of type `kind`.
fn download(kind: &'static str, file: String, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// `GET /api/tournaments/{id}/trf`.
///
/// # Errors
///
/// `not_found` for no such tournament.
pub async fn trf(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let tournament = load(&shared, &id).await?;
    if let super::System::Arena { .. } = tournament.system {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "trf: an arena has no rounds, and TRF16 writes rounds; download its PGN or its \
             standings",
        ));
    }
    let games = outcomes_of(&shared, &id).await?;
    let text = trf_of(&tournament, &games, Purpose::Standings)
        .write()
        .map_err(|e| ActionError::new(ErrorCode::NotAllowed, format!("trf: {e}")))?;
    Ok(download(
        "text/plain; charset=utf-8",
        format!("rochade-{id}.trf"),
        text,
    ))
}

/// `GET /api/tournaments/{id}/pgn`.
///
/// # Errors
///
/// `not_found` for no such tournament; what reading a game refuses.
pub async fn pgn(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let tournament = load(&shared, &id).await?;
    let knockout = tournament.ko.games.iter().map(|g| g.game.clone());
    let arena = tournament.arena.games.iter().map(|g| g.game.clone());
    let games = tournament
        .rounds
        .iter()
        .flat_map(|r| &r.boards)
        .filter_map(|b| b.game.clone())
        .chain(knockout)
        .chain(arena);
    // Read from storage, not through rooms: an event of thousands of
    // games must not load them all.
    let text = crate::pgn::of_stored(&shared, games.collect::<Vec<_>>()).await?;
    Ok(download(
        "application/x-chess-pgn",
        format!("rochade-{id}.pgn"),
        text,
    ))
}

/// A CSV field, quoted when it must be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// `GET /api/tournaments/{id}/standings`.
///
/// # Errors
///
/// `not_found` for no such tournament.
pub async fn standings(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let tournament = load(&shared, &id).await?;
    let games = outcomes_of(&shared, &id).await?;
    let table = standings_json(&tournament, &games);
    let mut csv = String::from("place,number,name,rating,points");
    for code in table["tiebreaks"].as_array().into_iter().flatten() {
        csv.push(',');
        csv.push_str(code.as_str().unwrap_or_default());
    }
    csv.push('\n');
    for row in table["rows"].as_array().into_iter().flatten() {
        let mut line = vec![
            row["rank"].to_string(),
            row["number"].to_string(),
            field(row["name"].as_str().unwrap_or_default()),
            row["rating"]
                .as_u64()
                .map(|r| r.to_string())
                .unwrap_or_default(),
            row["points"].to_string(),
        ];
        for v in row["tiebreaks"].as_array().into_iter().flatten() {
            line.push(v.as_str().unwrap_or_default().to_owned());
        }
        csv.push_str(&line.join(","));
        csv.push('\n');
    }
    Ok(download(
        "text/csv; charset=utf-8",
        format!("rochade-{id}-standings.csv"),
        csv,
    ))
}
