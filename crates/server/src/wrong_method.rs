//! A request whose method its path does not take. The router answers it
//! `405` with an `Allow` header and no body; these layers put into the
//! body what every other refusal says there, so that a program reading
//! only the body learns what it did wrong: the page's routes with an
//! [`ActionError`] ([`ErrorCode::MethodNotAllowed`]), the lichess API's
//! with lichess's `{"error": "…"}` ([`crate::api::ApiError`]).

use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;
use crate::error::{ActionError, ErrorCode};

/// What a refused `method` is told, given the `Allow` header of the
/// router's answer.
///
/// ```
/// use axum::http::Method;
/// use rochade_server::wrong_method::told;
/// assert_eq!(
///     told(&Method::DELETE, "GET,HEAD"),
///     "this path does not take DELETE: it takes GET, HEAD"
/// );
/// ```
pub fn told(method: &Method, allow: &str) -> String {
    let allowed: Vec<&str> = allow
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .collect();
    if allowed.is_empty() {
        format!("this path does not take {method}")
    } else {
        format!(
            "this path does not take {method}: it takes {}",
            allowed.join(", ")
        )
    }
}

/// Runs the request; a `405` answer gets `said(message)` for its body,
/// with the router's status and `Allow` header kept.
async fn refused(request: Request, next: Next, said: fn(String) -> Response) -> Response {
    let method = request.method().clone();
    let answer = next.run(request).await;
    if answer.status() != StatusCode::METHOD_NOT_ALLOWED {
        return answer;
    }
    let allow = answer.headers().get(header::ALLOW).cloned();
    let text = allow.as_ref().and_then(|a| a.to_str().ok()).unwrap_or("");
    let mut body = said(told(&method, text));
    *body.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    if let Some(allow) = allow {
        body.headers_mut().insert(header::ALLOW, allow);
    }
    body
}

/// The layer of the page's routes: `{"error": {"code":
/// "method_not_allowed", "message": …}}`.
pub async fn page(request: Request, next: Next) -> Response {
    refused(request, next, |m| {
        ActionError::new(ErrorCode::MethodNotAllowed, m).into_response()
    })
    .await
}

/// The layer of the lichess API's routes: `{"error": …}`.
pub async fn api(request: Request, next: Next) -> Response {
    refused(request, next, |m| {
        ApiError::new(StatusCode::METHOD_NOT_ALLOWED, m).into_response()
    })
    .await
}
