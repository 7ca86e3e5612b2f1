//! The page's notification settings (session cookie, JSON):
//! `GET /api/account/notifications` answers `{"email": "a@b.cz" | null,
//! "lang": "en"}`; `POST` with the same sets them (the address is checked
//! as at sign-up; `null` or `""`: no e-mail; `lang` one of `en`, `sk`, `cs`).

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
    Ok(axum::Json(json!({"email": email, "lang": lang})).into_response())
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
    let lang = asked.lang.clone();
    let stored = email.clone();
    shared
        .stored(move |s| s.set_notifications(user.id, stored.as_deref(), &lang))
        .await?;
    Ok(axum::Json(json!({"email": email, "lang": asked.lang})).into_response())
}
