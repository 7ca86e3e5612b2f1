//! A request whose method its path does not take. The router answers it
//! `405` with an `Allow` header and no body; these layers put into the
//! body what every other refusal says there, so that a program reading
//! only the body learns what it did wrong (the `Allow` header still names
//! the methods the path takes): the page's routes with an
//! [`ActionError`] ([`ErrorCode::MethodNotAllowed`]), the lichess API's
//! with lichess's `{"error": "…"}` ([`crate::api::ApiError`]).

use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;
use crate::error::{ActionError, ErrorCode};

/// What a refused `method` is told. (The layers run inside the router's
/// method dispatch, which adds the `Allow` header to the answer after
/// them: the header, not the message, lists the methods.)
///
/// ```
/// use axum::http::Method;
/// use rochade_server::wrong_method::told;
/// assert_eq!(
///     told(&Method::DELETE),
///     "this path does not take DELETE: the answer's Allow header names the methods it takes"
/// );
/// ```
pub fn told(method: &Method) -> String {
    format!(
        "this path does not take {method}: the answer's Allow header names the methods it takes"
    )
}

/// Runs the request; a `405` answer gets `said(message)` for its body,
/// with the router's status kept.
async fn refused(request: Request, next: Next, said: fn(String) -> Response) -> Response {
    let method = request.method().clone();
    let answer = next.run(request).await;
    if answer.status() != StatusCode::METHOD_NOT_ALLOWED {
        return answer;
    }
    let mut body = said(told(&method));
    *body.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    if let Some(allow) = answer.headers().get(header::ALLOW) {
        body.headers_mut().insert(header::ALLOW, allow.clone());
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
