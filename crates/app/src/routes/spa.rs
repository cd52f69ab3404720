use std::path::{Component, Path, PathBuf};

use crate::snapshot::{ProductList, ProductSnapshot};

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
pub async fn serve(
    request: HttpRequest,
    dir: web::Data<StaticDir>,
    products: web::Data<ProductSnapshot>,
) -> HttpResponse {
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
    let is_index = cache == "no-cache";
    if let Some(link) = is_index
        .then(|| preload_for(&request, &products.current()))
        .flatten()
    {
        if let Ok(html) = tokio::fs::read_to_string(&file).await {
            if let Some(at) = html.find("</head>") {
                let mut page = String::with_capacity(html.len() + link.len());
                page.push_str(&html[..at]);
                page.push_str(&link);
                page.push_str(&html[at..]);
                return HttpResponse::Ok()
                    .insert_header((header::CACHE_CONTROL, cache))
                    .content_type("text/html; charset=utf-8")
                    .body(page);
            }
        }
    }
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

/// How wide the storefront draws product pictures: the same strings as the frontend's
/// `PICTURE_SIZES` (`features/catalog/utils/picture-sources.ts`), so the browser uses the
/// preloaded picture instead of fetching another.
const CARD_SIZES: &str = "(min-width: 1100px) 200px, (min-width: 900px) 20vw, \
                          (min-width: 640px) 28vw, (min-width: 340px) 42vw, 80vw";
const DETAIL_SIZES: &str = "(min-width: 768px) 420px, 84vw";
/// The widths of a product picture's WebP copies (`media::WEBP_WIDTHS`).
const WIDTHS: [u32; 3] = media::WEBP_WIDTHS;

/// The page's largest picture, for the browser to fetch with the HTML instead of after the
/// scripts and the product list: the first product's on the home page (unfiltered), the
/// product's own on its page. None for every other page and for pictures that are not stored
/// product pictures.
fn preload_for(request: &HttpRequest, list: &ProductList) -> Option<String> {
    let path = request.path();
    let (product, sizes) = if path == "/" && request.query_string().is_empty() {
        (list.products.first()?, CARD_SIZES)
    } else {
        let id: i64 = path.strip_prefix("/product/")?.parse().ok()?;
        let product = list.products.iter().find(|p| p.id.get() == id)?;
        (product, DETAIL_SIZES)
    };
    let stem = product
        .image
        .as_deref()?
        .strip_prefix("/media/products/")?
        .strip_suffix(".png")?;
    if stem.is_empty() || !stem.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let srcset: Vec<String> = WIDTHS
        .iter()
        .map(|w| format!("/media/products/{stem}-{w}.webp {w}w"))
        .collect();
    Some(format!(
        "<link rel=\"preload\" as=\"image\" href=\"/media/products/{stem}-300.webp\" \
         imagesrcset=\"{}\" imagesizes=\"{sizes}\" fetchpriority=\"high\">",
        srcset.join(", ")
    ))
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
