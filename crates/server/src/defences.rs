//! What keeps other sites' pages from using the server through a visitor's
//! browser, as layers of [`crate::app`] that cover every route (404s,
//! assets and errors included):
//!
//! - every response carries the [`SECURITY_HEADERS`]: a
//!   [`CONTENT_SECURITY_POLICY`] that allows only the page's own scripts,
//!   styles, images and sockets and no framing, `nosniff`, no referrer;
//! - a request that writes (`POST`, `PUT`, `PATCH`, `DELETE`) must say its
//!   body is `application/json` ([`json_only`]), which an HTML form of
//!   another site cannot; a request without a body and without a
//!   `Content-Type` passes only when its `Origin` is the server's own;
//! - a game socket opened from a page ([`same_origin`]) must come from the
//!   server's own origin or one of [`Limits::origins`].

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ActionError, ErrorCode};
use crate::limits::Limits;

/// The page's content policy: its own scripts and style sheets only (no
/// inline script or style markup; the board moves pieces through the
/// CSSOM, which the policy does not govern), images from itself and
/// `data:` (the board's pieces are SVG `data:` URIs in the style sheet),
/// connections (`fetch`, and WebSockets to the same host) to itself, no
/// plug-ins, no framing by any site, no `<base>`, forms only to itself.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
    frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// The headers every response carries.
pub const SECURITY_HEADERS: [(HeaderName, &str); 5] = [
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    // For browsers older than `frame-ancestors`.
    (header::X_FRAME_OPTIONS, "DENY"),
    (
        HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    ),
];

/// Adds the [`SECURITY_HEADERS`] a response does not set itself.
///
/// # Examples
///
/// ```
/// use axum::http::HeaderMap;
/// let mut headers = HeaderMap::new();
/// rochade_server::defences::secure(&mut headers);
/// assert_eq!(headers["x-content-type-options"], "nosniff");
/// assert!(headers["content-security-policy"].to_str()?.contains("frame-ancestors 'none'"));
/// # Ok::<(), axum::http::header::ToStrError>(())
/// ```
pub fn secure(headers: &mut HeaderMap) {
    for (name, value) in SECURITY_HEADERS {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
}

/// The layer that puts the [`SECURITY_HEADERS`] on every response
/// (`axum::middleware::map_response`).
pub async fn security_headers(mut response: Response) -> Response {
    secure(response.headers_mut());
    response
}

/// Whether a `Content-Type` value is JSON: `application/json`, with any
/// parameters (`; charset=utf-8`), in any case.
///
/// # Examples
///
/// ```
/// use rochade_server::defences::is_json;
/// assert!(is_json("application/json"));
/// assert!(is_json("Application/JSON; charset=UTF-8"));
/// assert!(!is_json("text/plain"));
/// assert!(!is_json("application/x-www-form-urlencoded"));
/// ```
pub fn is_json(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("application/json")
}

/// Whether a page at `origin` (`scheme://host[:port]`, as browsers send it
/// in `Origin`) may use the server reached as `host` (the `Host` header):
/// the origin's `host[:port]` is `host`, whatever the scheme (a proxy may
/// end TLS in front of the server), or the origin is one of `allowed`
/// ([`Limits::origins`]). Names compare without regard to case.
///
/// # Examples
///
/// ```
/// use rochade_server::defences::origin_allowed;
/// let allowed = ["https://chess.example.org".to_owned()];
/// assert!(origin_allowed("http://127.0.0.1:8080", Some("127.0.0.1:8080"), &[]));
/// assert!(origin_allowed("https://Chess.Example.org", Some("127.0.0.1:8080"), &allowed));
/// assert!(!origin_allowed("http://evil.example", Some("127.0.0.1:8080"), &allowed));
/// assert!(!origin_allowed("null", Some("127.0.0.1:8080"), &[]));
/// ```
pub fn origin_allowed(origin: &str, host: Option<&str>, allowed: &[String]) -> bool {
    if allowed.iter().any(|a| a.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    let web = scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
    web && !authority.is_empty() && host.is_some_and(|host| authority.eq_ignore_ascii_case(host))
}

/// Whether the request's `Origin` is allowed ([`origin_allowed`]); `None`
/// when it has none (or one that is not text).
fn request_origin_allowed(request: &Request, limits: &Limits) -> Option<bool> {
    let origin = request.headers().get(header::ORIGIN)?;
    let Ok(origin) = origin.to_str() else {
        return Some(false);
    };
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()));
    Some(origin_allowed(origin, host, &limits.origins))
}

/// Whether a request has no body: no `Transfer-Encoding` and no (or a
/// zero) `Content-Length`.
fn bodyless(headers: &HeaderMap) -> bool {
    !headers.contains_key(header::TRANSFER_ENCODING)
        && headers
            .get(header::CONTENT_LENGTH)
            .is_none_or(|length| length.as_bytes() == b"0")
}

/// The layer that refuses writing requests that are not JSON (`415`,
/// [`ErrorCode::UnsupportedMediaType`]) before any handler runs.
///
/// A request with no `Content-Type` and no body passes when its `Origin`
/// is the server's own: the page takes an invitation with such a `POST`,
/// and no other site can send one (a form always has a `Content-Type`,
/// and a script's request carries its page's `Origin`).
pub async fn json_only(
    State(limits): State<Arc<Limits>>,
    request: Request,
    next: Next,
) -> Response {
    let writes = [Method::POST, Method::PUT, Method::PATCH, Method::DELETE];
    if !writes.contains(request.method()) {
        return next.run(request).await;
    }
    let accepted = match request.headers().get(header::CONTENT_TYPE) {
        Some(kind) => kind.to_str().is_ok_and(is_json),
        None => {
            bodyless(request.headers()) && request_origin_allowed(&request, &limits) == Some(true)
        }
    };
    if accepted {
        next.run(request).await
    } else {
        ActionError::new(
            ErrorCode::UnsupportedMediaType,
            "the body must be JSON, sent as Content-Type: application/json",
        )
        .into_response()
    }
}

/// The layer of the game socket's route: a request from a page (with an
/// `Origin`) must come from the server's own origin or one of
/// [`Limits::origins`], else `403` ([`ErrorCode::ForbiddenOrigin`]) and no
/// upgrade. Programs that send no `Origin` pass.
pub async fn same_origin(
    State(limits): State<Arc<Limits>>,
    request: Request,
    next: Next,
) -> Response {
    match request_origin_allowed(&request, &limits) {
        None | Some(true) => next.run(request).await,
        Some(false) => ActionError::new(
            ErrorCode::ForbiddenOrigin,
            "pages of other sites may not open game sockets here",
        )
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_by_host_and_port_whatever_the_scheme() {
        let host = Some("chess.example.org:8080");
        assert!(origin_allowed("http://chess.example.org:8080", host, &[]));
        assert!(origin_allowed("https://CHESS.example.org:8080", host, &[]));
        assert!(!origin_allowed("http://chess.example.org", host, &[]));
        assert!(!origin_allowed("http://chess.example.org:8081", host, &[]));
        assert!(!origin_allowed(
            "http://chess.example.org:8080.evil.example",
            host,
            &[]
        ));
        assert!(!origin_allowed("ftp://chess.example.org:8080", host, &[]));
        assert!(!origin_allowed("http://", Some(""), &[]));
        assert!(!origin_allowed("http://chess.example.org:8080", None, &[]));
        let listed = ["https://play.example.net".to_owned()];
        assert!(origin_allowed("https://play.example.net", host, &listed));
        assert!(!origin_allowed("http://play.example.net", host, &listed));
        assert!(!origin_allowed(
            "https://play.example.net.evil.example",
            host,
            &listed
        ));
    }

    #[test]
    fn only_json_content_types_are_json() {
        for kind in [
            "application/json",
            "application/json; charset=utf-8",
            " APPLICATION/Json ;charset=UTF-8",
        ] {
            assert!(is_json(kind), "{kind}");
        }
        for kind in [
            "",
            "text/plain",
            "text/plain; charset=application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
            "application/json-seq",
            "application/problem+json",
        ] {
            assert!(!is_json(kind), "{kind}");
        }
    }

    #[test]
    fn bodies_are_absent_only_without_length_or_encoding() {
        let mut headers = HeaderMap::new();
        assert!(bodyless(&headers));
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from_static("0"));
        assert!(bodyless(&headers));
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from_static("2"));
        assert!(!bodyless(&headers));
        headers.remove(header::CONTENT_LENGTH);
        headers.insert(
            header::TRANSFER_ENCODING,
            HeaderValue::from_static("chunked"),
        );
        assert!(!bodyless(&headers));
    }
}
