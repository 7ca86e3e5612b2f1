//! The page's notification settings (session cookie, JSON):
//! `GET /api/account/notifications` answers `{"email": "a@b.cz" | null,
//! "lang": "en", "low_time_hours": [24], "own_low_time": false}`; `POST`
//! with the same sets them (the address is checked as at sign-up; `null`
//! or `""`: no e-mail; `lang` one of `en`, `sk`, `cs`; `low_time_hours`:
//! up to three thresholds of 1 to 720 hours at which the player hears
//! their time runs low, `[]` for the server's, absent to leave them).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::accounts::http::signed_in_user;
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;

/// The languages notices are written in.
const LANGUAGES: [&str; 3] = ["en", "sk", "cs"];

/// The body of a change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    /// The address, or none.
    #[serde(default)]
    email: Option<String>,
    /// The language.
    lang: String,
    /// Thresholds for "time running low", in hours.
    #[serde(default)]
    low_time_hours: Option<Vec<u64>>,
}

/// The answer: the settings as they are now.
fn settings_json(shared: &Shared, user: i64, email: Option<&str>, lang: &str) -> serde_json::Value {
    let low = shared.thresholds.of(Some(user));
    let own = shared.thresholds.is_set(user);
    json!({
        "email": email,
        "lang": lang,
        "low_time_hours": super::thresholds::hours(&low),
        "own_low_time": own,
    })
}

/// `GET /api/account/notifications`.
///
/// # Errors
///
/// `unauthorized` without a session.
pub async fn show(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let (email, lang) = shared.stored(move |s| s.notifications(user.id)).await?;
    Ok(axum::Json(settings_json(&shared, user.id, email.as_deref(), &lang)).into_response())
}

/// `POST /api/account/notifications`.
///
/// # Errors
///
/// `unauthorized` without a session; `bad_request` naming the field.
pub async fn set(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    let asked: Settings = crate::json::body(&body, "notifications")?;
    if !LANGUAGES.contains(&asked.lang.as_str()) {
        return Err(bad(format!("lang: `{}` is not en, sk or cs", asked.lang)));
    }
    let email = crate::accounts::checked_email(asked.email).map_err(|e| bad(e.to_string()))?;
    let low = asked
        .low_time_hours
        .as_deref()
        .map(super::thresholds::checked_hours)
        .transpose()
        .map_err(|e| bad(format!("low_time_hours: {e}")))?;
    let lang = asked.lang.clone();
    let stored = email.clone();
    let thresholds = low.clone();
    shared
        .stored(move |s| {
            s.set_notifications(user.id, stored.as_deref(), &lang)?;
            match &thresholds {
                Some(t) if t.is_empty() => s.set_low_times(user.id, None),
                Some(t) => s.set_low_times(user.id, Some(t)),
                None => Ok(()),
            }
        })
        .await?;
    if let Some(t) = low {
        shared.thresholds.set(user.id, Some(t));
    }
    Ok(axum::Json(settings_json(
        &shared,
        user.id,
        email.as_deref(),
        &asked.lang,
    ))
    .into_response())
}
