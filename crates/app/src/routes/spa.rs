use std::path::{Component, Path, PathBuf};

use actix_files::NamedFile;
use actix_web::{
    http::{header, Method},
    web, HttpRequest, HttpResponse,
};

/// The built frontend's directory.
pub struct StaticDir(pub PathBuf);

/// The built frontend: files that exist are served as they are; any other GET is a client
/// route and gets `index.html`. Vite's hashed files under `/assets/` never change, so browsers
/// keep them for a year; `index.html` is revalidated on every visit so a deploy shows at once.
pub async fn serve(request: HttpRequest, dir: web::Data<StaticDir>) -> HttpResponse {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed().finish();
    }
    let requested = request.path().trim_start_matches('/');
    let (file, cache) = match safe_join(&dir.0, requested).filter(|p| p.is_file()) {
        Some(path) if requested.starts_with("assets/") => {
            (path, "public, max-age=31536000, immutable")
        }
        Some(path) if !requested.ends_with("index.html") => (path, "public, max-age=3600"),
        _ => (dir.0.join("index.html"), "no-cache"),
    };
    match NamedFile::open_async(&file).await {
        Ok(named) => {
            let mut response = named.into_response(&request);
            response.headers_mut().insert(
                header::CACHE_CONTROL,
                header::HeaderValue::from_static(cache),
            );
            response
        }
        Err(_) => HttpResponse::ServiceUnavailable()
            .content_type("text/plain; charset=utf-8")
            .body("The shop's frontend is not built yet: run `just build` (or `just run`)."),
    }
}

/// `dir/requested`, or None when the request tries to leave `dir`.
fn safe_join(dir: &Path, requested: &str) -> Option<PathBuf> {
    let relative = Path::new(requested);
    relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| dir.join(relative))
        .filter(|_| !requested.is_empty())
}

#[cfg(test)]
mod tests {
    use super::safe_join;
    use std::path::Path;

    #[test]
    fn a_request_cannot_leave_the_static_directory() {
        let dir = Path::new("/srv/dist");
        assert_eq!(
            safe_join(dir, "assets/app.js"),
            Some(dir.join("assets/app.js"))
        );
        assert_eq!(safe_join(dir, "../secret"), None);
        assert_eq!(safe_join(dir, "assets/../../secret"), None);
        assert_eq!(safe_join(dir, ""), None);
    }
}
