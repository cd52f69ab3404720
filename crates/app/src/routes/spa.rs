use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use crate::auth::page_user;
use crate::error::ApiError;
use crate::events::ShopEvents;
use crate::routes::products::negotiate;
use crate::snapshot::{Coding, ProductList, ProductSnapshot};
use dto::account::{AuthCheck, UserResponse};
use paypal::PayPalCheckout;

use actix_files::NamedFile;
use actix_web::{
    http::{header, Method},
    web, HttpRequest, HttpResponse,
};
use serde::Deserialize;

/// The built frontend's directory.
pub struct StaticDir(pub PathBuf);

/// The built frontend: files that exist are served as they are, except the build's own
/// (source maps, `.vite/`: 404, see [`is_build_internal`]); any other GET is a client
/// route and gets `index.html`. Vite's hashed files under `/assets/` never change, so browsers
/// keep them for a year; `index.html` is revalidated on every visit so a deploy shows at once.
pub async fn serve(
    request: HttpRequest,
    dir: web::Data<StaticDir>,
    products: web::Data<ProductSnapshot>,
    events: web::Data<ShopEvents>,
    currencies: web::Data<crate::currencies::Currencies>,
    paypal: web::Data<Option<PayPalCheckout>>,
) -> HttpResponse {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed().finish();
    }
    let requested = request.path().trim_start_matches('/');
    if is_build_internal(requested) {
        return ApiError::NotFound(l10n::Text::new("error-not-found").into()).into_response();
    }
    let (file, cache) = match safe_join(&dir.0, requested).filter(|p| p.is_file()) {
        Some(path) if requested.starts_with("assets/") => {
            (path, "public, max-age=31536000, immutable")
        }
        Some(path) if !requested.ends_with("index.html") => (path, "public, max-age=3600"),
        _ => (dir.0.join("index.html"), "no-cache"),
    };
    if cache == "no-cache" {
        // the event number first: everything up to it is already in the list read after it
        let fresh_as_of = events.last_id();
        let page = PageData {
            list: &products.current(),
            fresh_as_of,
            currencies: super::site::offered_currencies(&currencies, paypal.get_ref().as_ref()),
        };
        return index_page(&request, &dir.0, &file, page).await;
    }
    let compressed = match requested.starts_with("assets/") {
        true => precompressed(&request, &file).await,
        false => None,
    };
    let opened = match compressed {
        Some(named) => Ok(named),
        None => NamedFile::open_async(&file).await,
    };
    match opened {
        Ok(named) => {
            let mut response = named.into_response(&request);
            if requested.starts_with("assets/") {
                response.headers_mut().insert(
                    header::VARY,
                    header::HeaderValue::from_static("accept-encoding"),
                );
            }
            response.headers_mut().insert(
                header::CACHE_CONTROL,
                header::HeaderValue::from_static(cache),
            );
            response
        }
        Err(_) => not_built(),
    }
}

/// The build's own compressed copy of an asset (`file.br`, `file.gz`, written by Vite at the
/// best level), in the best coding the browser accepts, sent as the asset with its
/// `Content-Encoding` (the response compression then leaves it alone). None when the browser
/// accepts neither or the build made no copy (small files): the file is sent as it is.
async fn precompressed(request: &HttpRequest, file: &Path) -> Option<NamedFile> {
    let (suffix, encoding) = match negotiate(request.headers().get_all(header::ACCEPT_ENCODING)) {
        Coding::Brotli => ("br", header::ContentEncoding::Brotli),
        Coding::Gzip => ("gz", header::ContentEncoding::Gzip),
        Coding::Identity => return None,
    };
    let mut copy = file.as_os_str().to_owned();
    copy.push(".");
    copy.push(suffix);
    let named = NamedFile::open_async(PathBuf::from(copy)).await.ok()?;
    let name = file.file_name()?.to_string_lossy().into_owned();
    Some(
        named
            .set_content_disposition(header::ContentDisposition {
                disposition: header::DispositionType::Inline,
                parameters: vec![header::DispositionParam::Filename(name)],
            })
            .set_content_type(actix_files::file_extension_to_mime(
                file.extension()
                    .and_then(|e| e.to_str())
                    .unwrap_or_default(),
            ))
            .set_content_encoding(encoding),
    )
}

fn not_built() -> HttpResponse {
    HttpResponse::ServiceUnavailable()
        .content_type("text/plain; charset=utf-8")
        .body("The shop's frontend is not built yet: run `just build` (or `just run`).")
}

/// `index.html` with what the first render needs written into its head: the preload of the
/// page's largest picture and the answers the app would otherwise ask for before drawing
/// anything (see [`bootstrap_for`]). The page holds the visitor's session, so it is `private`
/// and revalidated on every visit.
async fn index_page(
    request: &HttpRequest,
    dir: &Path,
    file: &Path,
    data: PageData<'_>,
) -> HttpResponse {
    let Ok(html) = tokio::fs::read_to_string(file).await else {
        return not_built();
    };
    let mut head = preload_for(request, data.list).unwrap_or_default();
    if let Some(module) = page_module(request.path()) {
        head.push_str(&chunk_preloads(dir, module).await);
    }
    head.push_str(&bootstrap_for(request, &data).await);
    let at = html.find("</head>").unwrap_or(0);
    let mut page = String::with_capacity(html.len() + head.len());
    page.push_str(&html[..at]);
    page.push_str(&head);
    page.push_str(&html[at..]);
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .insert_header((header::VARY, "Cookie"))
        .content_type("text/html; charset=utf-8")
        .body(page)
}

/// What the page carries beside the visitor's session: the product list, the number of the
/// last event it holds, and the currencies offered now.
struct PageData<'a> {
    list: &'a ProductList,
    fresh_as_of: i64,
    currencies: Vec<dto::site::SiteCurrency>,
}

/// The element the app reads before its first render (`frontend/src/app/bootstrap.ts`): the
/// answer of `GET /api/auth/check` for this request's session (read here, briefly: the page
/// passes by the session middleware, `auth::page_user`), and on the storefront's pages
/// (`/` and `/product/{id}`) the answer of `GET /api/products`, so the first page draws without
/// a round trip; and on every page the currencies `GET /api/site` offers, so the first render
/// shows prices in the shopper's currency, not the base's first. A session that cannot be read is left out (the app then asks the API, which
/// answers the error). `events` is the number of the last event this instance had passed on
/// before the page was made: the app's event stream resumes from it, so whatever changes while
/// the page loads still arrives and nothing is refetched when the stream comes up. `<` is
/// escaped, so no product text can end the element.
async fn bootstrap_for(request: &HttpRequest, data: &PageData<'_>) -> String {
    let mut json = format!("{{\"events\":{}", data.fresh_as_of);
    match serde_json::to_string(&data.currencies) {
        Ok(currencies) => {
            json.push_str(",\"currencies\":");
            json.push_str(&currencies);
        }
        Err(error) => tracing::warn!(%error, "failed to encode the currencies for the page"),
    }
    if let Some(user) = page_user(request).await {
        match serde_json::to_string(&AuthCheck::of(user.as_ref().map(UserResponse::from))) {
            Ok(session) => {
                json.push_str(",\"session\":");
                json.push_str(&session);
            }
            Err(error) => tracing::warn!(%error, "failed to encode the session for the page"),
        }
    }
    let path = request.path();
    if path == "/" || path.starts_with("/product/") {
        json.push_str(",\"products\":");
        json.push_str(&String::from_utf8_lossy(
            &data.list.in_coding(Coding::Identity).body,
        ));
    }
    json.push('}');
    format!(
        "<script id=\"shop-bootstrap\" type=\"application/json\">{}</script>",
        json.replace('<', "\\u003c")
    )
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

/// The module of the page a storefront address shows, as Vite's manifest names it: the pages
/// whose code is fetched with the HTML instead of after the scripts have run.
fn page_module(path: &str) -> Option<&'static str> {
    if path == "/" {
        Some("src/app/routes/home.tsx")
    } else if path.starts_with("/product/") {
        Some("src/app/routes/product.tsx")
    } else {
        None
    }
}

/// One chunk of Vite's build manifest (`dist/.vite/manifest.json`).
#[derive(Debug, Deserialize)]
struct Chunk {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    css: Vec<String>,
    #[serde(default, rename = "isEntry")]
    is_entry: bool,
}

/// Preloads of a lazily loaded page's code: its chunk, the chunks it imports and their styles,
/// less what the entry already loads. Without them the browser learns of the page's chunk only
/// once the entry has run (one more round trip before the first render). Empty when the build
/// has no manifest or does not know the module.
async fn chunk_preloads(dir: &Path, module: &str) -> String {
    let Ok(text) = tokio::fs::read(dir.join(".vite/manifest.json")).await else {
        return String::new();
    };
    let manifest: HashMap<String, Chunk> = match serde_json::from_slice(&text) {
        Ok(manifest) => manifest,
        Err(error) => {
            tracing::warn!(%error, "the frontend's build manifest is unreadable");
            return String::new();
        }
    };
    let closure = |roots: Vec<&str>| {
        let mut seen = HashSet::new();
        let mut order = Vec::new();
        let mut stack = roots;
        while let Some(key) = stack.pop() {
            if let Some(chunk) = manifest.get(key).filter(|_| seen.insert(key)) {
                order.push(chunk);
                stack.extend(chunk.imports.iter().rev().map(String::as_str));
            }
        }
        order
    };
    let entries = manifest
        .iter()
        .filter(|(_, chunk)| chunk.is_entry)
        .map(|(key, _)| key.as_str())
        .collect();
    let loaded: HashSet<&str> = closure(entries)
        .into_iter()
        .map(|chunk| chunk.file.as_str())
        .collect();
    let safe = |file: &str| {
        file.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b))
    };
    let mut links = String::new();
    for chunk in closure(vec![module]) {
        if loaded.contains(chunk.file.as_str()) {
            continue;
        }
        if safe(&chunk.file) {
            links.push_str(&format!(
                "<link rel=\"modulepreload\" crossorigin href=\"/{}\">",
                chunk.file
            ));
        }
        for css in chunk.css.iter().filter(|css| safe(css)) {
            links.push_str(&format!(
                "<link rel=\"preload\" as=\"style\" crossorigin href=\"/{css}\">"
            ));
        }
    }
    links
}

/// `dir/requested`, or None when the request tries to leave `dir`.
/// Files of the build that are for the server and the developers, not for browsers: source maps
/// (`*.map`, the source code with its comments) and anything under a hidden folder such as
/// `.vite/` (the manifest the server reads to preload chunks). They answer 404, never the file
/// and never `index.html`. `.well-known/` stays public: its files are meant to be read.
fn is_build_internal(requested: &str) -> bool {
    let lowercase = requested.to_ascii_lowercase();
    lowercase.ends_with(".map")
        || lowercase
            .split('/')
            .any(|segment| segment.starts_with('.') && segment != ".well-known")
}

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
    use super::{is_build_internal, safe_join};
    use std::path::Path;

    #[test]
    fn source_maps_and_the_build_manifest_are_not_for_browsers() {
        for internal in [
            "assets/index-4f3a9c.js.map",
            "assets/INDEX.CSS.MAP",
            ".vite/manifest.json",
            ".vite/",
            "assets/.hidden",
        ] {
            assert!(is_build_internal(internal), "{internal}");
        }
        for public in [
            "",
            "assets/index-4f3a9c.js",
            "favicon.svg",
            "product/3",
            ".well-known/security.txt",
            "maps",
        ] {
            assert!(!is_build_internal(public), "{public}");
        }
    }

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
