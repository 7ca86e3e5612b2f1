//! `GET /api/account` and `POST /api/token/test`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::ApiError;
use super::auth::Bearer;
use crate::accounts::scope;
use crate::rooms::Shared;
use crate::storage::User;

/// The most tokens one `POST /api/token/test` may ask about.
const MOST_TOKENS: usize = 1000;

/// An account as lichess describes it (`id` is the name in lower case).
pub fn describe(user: &User) -> Value {
    let mut account = json!({
        "id": user.name.to_ascii_lowercase(),
        "username": user.name,
        "createdAt": user.created,
        "perfs": {},
        "disabled": user.disabled,
    });
    if user.bot {
        account["title"] = json!("BOT");
    }
    account
}

/// `GET /api/account`: the token's account, with its ratings.
pub async fn me(
    State(shared): State<Arc<Shared>>,
    Bearer(owner): Bearer,
) -> Result<Response, ApiError> {
    let account = super::users::profile(&shared, &owner.user).await?;
    Ok(axum::Json(account).into_response())
}

/// `POST /api/token/test`: for up to 1,000 comma-separated tokens in the
/// body, each one's account and scopes, or `null`.
pub async fn test_tokens(
    State(shared): State<Arc<Shared>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::new(StatusCode::BAD_REQUEST, "the body is not UTF-8 text"))?;
    let tokens: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() > MOST_TOKENS {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("at most {MOST_TOKENS} tokens, not {}", tokens.len()),
        ));
    }
    let mut answer = Map::new();
    for token in tokens {
        let found = shared.accounts.token_owner(token).await?;
        let value = found.map_or(Value::Null, |owner| {
            json!({
                "userId": owner.user.name.to_ascii_lowercase(),
                "scopes": scope::join(&owner.scopes),
                "expires": null,
            })
        });
        answer.insert(token.to_owned(), value);
    }
    Ok(axum::Json(Value::Object(answer)).into_response())
}
