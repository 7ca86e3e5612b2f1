//! The page's account endpoints: sign up, sign in, sign out, change the
//! password, and who is signed in. The session is a cookie that is
//! `HttpOnly` (no script reads it), `SameSite=Lax` (no cross-site request
//! carries it, with the JSON-only rule of [`crate::defences`] for the
//! rest) and `Secure` when the request came over TLS.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::AccountError;
use crate::error::{ActionError, ErrorCode};
use crate::limits::ClientAddr;
use crate::rooms::Shared;
use crate::storage::User;

/// The session cookie's name.
pub const COOKIE: &str = "rochade_session";

/// A year, the cookie's life (a session ends on sign-out or a new password).
const COOKIE_SECONDS: u64 = 365 * 24 * 3600;

impl From<AccountError> for ActionError {
    fn from(e: AccountError) -> ActionError {
        let code = match &e {
            AccountError::Name(_)
            | AccountError::Password(_)
            | AccountError::Email(_)
            | AccountError::Scope(_) => ErrorCode::BadRequest,
            AccountError::Taken(_) => ErrorCode::NameTaken,
            AccountError::Credentials => ErrorCode::Unauthorized,
            AccountError::TooManyAttempts => ErrorCode::TooManyRequests,
            AccountError::NoSuchUser(_) => ErrorCode::NotFound,
            AccountError::Storage(_) => ErrorCode::Internal,
        };
        ActionError::new(code, e.to_string())
    }
}

/// Reads a JSON body strictly (each key once, no unknown fields).
fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, ActionError> {
    let bad = |e: String| ActionError::new(ErrorCode::BadRequest, e);
    let value = crate::json::strict_slice(bytes).map_err(bad)?;
    crate::json::typed(value).map_err(bad)
}

/// The session secret in the request's cookies.
pub fn session_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_owned())
}

/// Whether the request came over TLS (through a proxy that says so).
fn over_tls(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// The `Set-Cookie` value that stores `secret` (or, with `None`, removes it).
fn cookie(secret: Option<&str>, tls: bool) -> HeaderValue {
    let (value, age) = match secret {
        Some(secret) => (secret, COOKIE_SECONDS),
        None => ("", 0),
    };
    let secure = if tls { "; Secure" } else { "" };
    let text = format!("{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={age}{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The account as the page sees it.
fn me(user: &User) -> serde_json::Value {
    serde_json::json!({"name": user.name, "bot": user.bot})
}

/// The answer to a sign-up or sign-in: the account and the cookie.
fn signed_in(status: StatusCode, user: &User, secret: &str, headers: &HeaderMap) -> Response {
    let mut response = (status, axum::Json(me(user))).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(Some(secret), over_tls(headers)));
    response
}

/// The body of `POST /api/auth/signup`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SignUp {
    /// 2–20 of `[A-Za-z0-9_-]`.
    name: String,
    /// 8–256 characters.
    password: String,
    /// For notifications, optional.
    #[serde(default)]
    email: Option<String>,
}

/// `POST /api/auth/signup`: makes an account and signs it in.
pub async fn sign_up(
    State(shared): State<Arc<Shared>>,
    ClientAddr(from): ClientAddr,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ActionError> {
    let request: SignUp = body(&bytes)?;
    if !shared.accounts.allow_sign_up(from) {
        return Err(AccountError::TooManyAttempts.into());
    }
    let (user, secret) = shared
        .accounts
        .sign_up(&request.name, request.password, request.email)
        .await?;
    Ok(signed_in(StatusCode::CREATED, &user, &secret, &headers))
}

/// The body of `POST /api/auth/signin`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SignIn {
    /// The user name, in any case.
    name: String,
    /// The password.
    password: String,
}

/// `POST /api/auth/signin`.
pub async fn sign_in(
    State(shared): State<Arc<Shared>>,
    ClientAddr(from): ClientAddr,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ActionError> {
    let request: SignIn = body(&bytes)?;
    let (user, secret) = shared
        .accounts
        .sign_in(&request.name, request.password, from)
        .await?;
    Ok(signed_in(StatusCode::OK, &user, &secret, &headers))
}

/// `POST /api/auth/signout`: ends the session and removes the cookie.
pub async fn sign_out(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    if let Some(secret) = session_of(&headers) {
        shared.accounts.sign_out(&secret).await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(None, over_tls(&headers)));
    Ok(response)
}

/// The body of `POST /api/auth/password`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChangePassword {
    /// The password now.
    current: String,
    /// The new one.
    new: String,
}

/// `POST /api/auth/password`: a new password; other sessions end.
pub async fn change_password(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ActionError> {
    let request: ChangePassword = body(&bytes)?;
    let secret = session_of(&headers)
        .ok_or_else(|| ActionError::new(ErrorCode::Unauthorized, "not signed in"))?;
    shared
        .accounts
        .change_password(&secret, request.current, request.new)
        .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The account signed in with the session cookie of `headers`, if any.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn session_account(
    shared: &Shared,
    headers: &HeaderMap,
) -> Result<Option<User>, ActionError> {
    match session_of(headers) {
        Some(secret) => Ok(shared.accounts.session_user(&secret).await?),
        None => Ok(None),
    }
}

/// The account signed in with the session cookie of `headers`.
///
/// # Errors
///
/// `unauthorized` when nobody is signed in.
pub async fn signed_in_user(shared: &Shared, headers: &HeaderMap) -> Result<User, ActionError> {
    session_account(shared, headers)
        .await?
        .ok_or_else(|| ActionError::new(ErrorCode::Unauthorized, "not signed in"))
}

/// `GET /api/auth/me`: who is signed in (401 when nobody).
pub async fn whoami(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    Ok(axum::Json(me(&user)).into_response())
}
