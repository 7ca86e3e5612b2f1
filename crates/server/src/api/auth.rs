//! Who a request of the API is: the account of its personal API token,
//! and what the token may do.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{StatusCode, header};

use super::ApiError;
use crate::accounts::TokenOwner;
use crate::accounts::scope::Scope;
use crate::rooms::Shared;

/// The owner of the request's bearer token (`Authorization: Bearer …`);
/// a request without a valid one is answered `401 {"error":"No such token"}`.
#[derive(Debug, Clone)]
pub struct Bearer(pub TokenOwner);

impl Bearer {
    /// Refuses a token without `scope`: `403 {"error":"Missing scope: …"}`.
    ///
    /// # Errors
    ///
    /// [`ApiError`] with 403 naming the scope.
    pub fn require(&self, scope: Scope) -> Result<(), ApiError> {
        if self.0.scopes.contains(&scope) {
            Ok(())
        } else {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("Missing scope: {scope}"),
            ))
        }
    }
}

/// The token of `Authorization: Bearer TOKEN`, if the header is so.
pub fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

impl FromRequestParts<Arc<Shared>> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        shared: &Arc<Shared>,
    ) -> Result<Bearer, ApiError> {
        let none = || ApiError::new(StatusCode::UNAUTHORIZED, "No such token");
        let token = bearer_token(parts).ok_or_else(none)?;
        let owner = shared.accounts.token_owner(token).await?.ok_or_else(none)?;
        Ok(Bearer(owner))
    }
}
