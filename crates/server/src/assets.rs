//! The game page: the bundle in `web/dist` (index.html and assets/),
//! embedded in the binary so that `rochade serve` needs nothing beside it.

use axum::body::Body;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

/// The built page.
#[derive(Embed)]
#[folder = "$CARGO_MANIFEST_DIR/../../web/dist/"]
#[allow_missing = true]
struct Page;

/// Hashed bundle files never change under one name.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The page itself is looked at again on every visit.
const REVALIDATE: &str = "no-cache";

/// Whether the binary carries the page.
pub fn has_page() -> bool {
    Page::get("index.html").is_some()
}

/// A file of the bundle with its content type and cache header.
fn file(path: &str, cache: &'static str) -> Response {
    match Page::get(path) {
        Some(file) => {
            let mime = mime_guess::from_path(path).first_or_octet_stream();
            (
                [
                    (header::CONTENT_TYPE, mime.as_ref().to_owned()),
                    (header::CACHE_CONTROL, cache.to_owned()),
                ],
                Body::from(file.data.into_owned()),
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, format!("no file {path}")).into_response(),
    }
}

/// `index.html`, for `/`, `/g/{id}` and `/j/{invite}`.
pub async fn index() -> Response {
    if !has_page() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "this binary was built without the page: build web/ (npm run build) and rebuild",
        )
            .into_response();
    }
    file("index.html", REVALIDATE)
}

/// `/assets/{*path}`.
pub async fn asset(Path(path): Path<String>) -> Response {
    file(&format!("assets/{path}"), IMMUTABLE)
}
