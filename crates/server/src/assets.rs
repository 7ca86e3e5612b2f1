//! The game page: the bundle in `web/dist` (index.html and assets/),
//! embedded in the binary so that `rochade serve` needs nothing beside it.

use axum::body::Body;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

/// The built page.
#[derive(Embed)]
#[folder = "../../web/dist/"]
#[allow_missing = true]
struct Page;

/// The bundle's names carry no content hash, so browsers keep the files
/// but ask again each time; an unchanged file costs a `304`.
const REVALIDATE: &str = "no-cache";

/// Whether the binary carries the page.
pub fn has_page() -> bool {
    Page::get("index.html").is_some()
}

/// A file of the bundle with its content type, cache header and ETag
/// (the content's SHA-256); `304` when the browser has it already.
fn file(path: &str, headers: &HeaderMap) -> Response {
    match Page::get(path) {
        Some(file) => {
            let etag = format!("\"{}\"", hex(&file.metadata.sha256_hash()));
            let cached = headers
                .get(header::IF_NONE_MATCH)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
            let mime = mime_guess::from_path(path).first_or_octet_stream();
            let head = [
                (header::CONTENT_TYPE, mime.as_ref().to_owned()),
                (header::CACHE_CONTROL, REVALIDATE.to_owned()),
                (header::ETAG, etag),
            ];
            if cached {
                (StatusCode::NOT_MODIFIED, head).into_response()
            } else {
                (head, Body::from(file.data.into_owned())).into_response()
            }
        }
        None => (StatusCode::NOT_FOUND, format!("no file {path}")).into_response(),
    }
}

/// `index.html`, for `/`, `/g/{id}` and `/j/{invite}`.
pub async fn index(headers: HeaderMap) -> Response {
    if !has_page() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "this binary was built without the page: build web/ (npm run build) and rebuild",
        )
            .into_response();
    }
    file("index.html", &headers)
}

/// `/assets/{*path}`.
pub async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    file(&format!("assets/{path}"), &headers)
}

/// Lower-case hex digits of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
