//! What the framework refuses before a handler runs, said as the app's
//! own refusals say it. The router answers a method its path does not
//! take with a `405`, an `Allow` header and no body; the extractors answer
//! a path parameter that is not UTF-8, a body over the size limit or a
//! socket request without its upgrade headers with a line of plain text.
//! These layers put what went wrong into a JSON body, so that a program
//! (the page's own calls included) reads every refusal one way: the page's
//! routes with an [`ActionError`], the lichess API's with lichess's
//! `{"error": "…"}` ([`crate::api::ApiError`]). The status stays, and so
//! does the `Allow` header (the router adds it after these layers, which
//! run inside its method dispatch).

use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;
use crate::error::{ActionError, ErrorCode};

/// The most of a framework's refusal text that is kept.
const TEXT: usize = 4096;

/// What a refused `method` is told.
///
/// ```
/// use axum::http::Method;
/// use rochade_server::refusals::told;
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

/// The code of a framework's refusal with `status`.
///
/// ```
/// use axum::http::StatusCode;
/// use rochade_server::ErrorCode;
/// use rochade_server::refusals::code_of;
/// assert_eq!(code_of(StatusCode::METHOD_NOT_ALLOWED), ErrorCode::MethodNotAllowed);
/// assert_eq!(code_of(StatusCode::PAYLOAD_TOO_LARGE), ErrorCode::TooLarge);
/// assert_eq!(code_of(StatusCode::BAD_REQUEST), ErrorCode::BadRequest);
/// ```
pub fn code_of(status: StatusCode) -> ErrorCode {
    match status {
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::TooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::UnsupportedMediaType,
        _ => ErrorCode::BadRequest,
    }
}

/// Runs the request; a framework's refusal (a `405`, or a 4xx in plain
/// text) gets `said(status, message)` for its body, its status kept.
async fn refused(
    request: Request,
    next: Next,
    said: fn(StatusCode, String) -> Response,
) -> Response {
    let method = request.method().clone();
    let answer = next.run(request).await;
    let status = answer.status();
    let plain = answer
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|k| k.to_str().ok())
        .is_some_and(|k| k.starts_with("text/plain"));
    if !(status == StatusCode::METHOD_NOT_ALLOWED || (status.is_client_error() && plain)) {
        return answer;
    }
    let message = if status == StatusCode::METHOD_NOT_ALLOWED {
        told(&method)
    } else {
        let bytes = axum::body::to_bytes(answer.into_body(), TEXT)
            .await
            .unwrap_or_default();
        String::from_utf8_lossy(&bytes).trim().to_owned()
    };
    let mut body = said(status, message);
    *body.status_mut() = status;
    body
}

/// The layer of the page's routes: `{"error": {"code": …, "message": …}}`.
pub async fn page(request: Request, next: Next) -> Response {
    refused(request, next, |status, m| {
        ActionError::new(code_of(status), m).into_response()
    })
    .await
}

/// The layer of the lichess API's routes: `{"error": …}`.
pub async fn api(request: Request, next: Next) -> Response {
    refused(request, next, |status, m| {
        ApiError::new(status, m).into_response()
    })
    .await
}
