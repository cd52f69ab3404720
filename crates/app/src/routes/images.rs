use actix_files::NamedFile;
use actix_web::{http::header, web, HttpRequest, HttpResponse};

use media::MediaStore;

use crate::error::ApiError;

/// Stored images, and WebP copies of product pictures (`products/{hash}-{150|300|600}.webp`).
/// Their names are content hashes, so a name never changes its bytes: browsers may keep them
/// for a year.
pub async fn serve(
    request: HttpRequest,
    path: web::Path<String>,
    media: web::Data<MediaStore>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::NotFound("Image not found.".into());
    let file = if path.ends_with(".webp") {
        // A product picture's WebP copy, made from its PNG on the first request.
        let (store, tail) = (media.get_ref().clone(), path.into_inner());
        match tokio::task::spawn_blocking(move || store.webp_file(&tail)).await {
            Ok(Ok(file)) => file,
            Ok(Err(error)) => {
                tracing::warn!(error = %error, "could not make a webp copy");
                None
            }
            Err(error) => {
                tracing::error!(error = %error, "the image worker failed");
                None
            }
        }
    } else {
        media.resolve(&path)
    }
    .ok_or_else(not_found)?;
    let named = NamedFile::open_async(&file)
        .await
        .map_err(|_| not_found())?;
    let mut response = named
        .use_etag(true)
        .use_last_modified(true)
        .into_response(&request);
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    Ok(response)
}
