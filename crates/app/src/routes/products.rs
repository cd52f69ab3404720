use super::path_id::Id;
use actix_web::{
    http::header::{self, HeaderMap, HeaderValue},
    web, HttpRequest, HttpResponse,
};
use catalog::{CatalogService, ProductId};

use dto::ProductResponse;
use shared::Clock;

use crate::auth::AppClock;

use crate::{
    error::ApiError,
    error::ErrorBody,
    services::ShopCatalog,
    snapshot::{Coding, ProductSnapshot},
};

/// `GET /api/products`. The storefront's products from the in-memory snapshot: the representation the browser
/// accepts best (brotli, gzip or identity, all compressed once per change), each with its own
/// strong ETag, and a bodiless 304 when `If-None-Match` names the list as it is. Nothing here
/// formats or copies a string: the bodies and header values are the snapshot's.
#[utoipa::path(
    get,
    path = "/api/products",
    tag = "storefront",
    params(
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` this call sent: 304 when the list is still the same."),
        ("Accept-Encoding" = Option<String>, Header, description = "`br` and `gzip` are offered; identity otherwise."),
    ),
    responses(
        (status = 200, description = "Every product the storefront lists, in its order.", body = Vec<ProductResponse>,
            headers(
                ("ETag" = String, description = "A strong validator of this representation."),
                ("Vary" = String, description = "`accept-encoding`"),
                ("Cache-Control" = String, description = "`no-cache`: revalidate with `If-None-Match`."),
                ("Content-Encoding" = String, description = "`br` or `gzip` when the body is compressed; absent for identity."),
            )),
        (status = 304, description = "Not modified: the list is the one `If-None-Match` names; no body.",
            headers(
                ("ETag" = String, description = "The validator that matched."),
                ("Vary" = String, description = "`accept-encoding`"),
                ("Cache-Control" = String, description = "`no-cache`"),
            )),
    ),
)]
pub async fn list(request: HttpRequest, products: web::Data<ProductSnapshot>) -> HttpResponse {
    answer(request.headers(), &products)
}

/// The answer of `GET /api/products` to a request with these headers (the handler above, and
/// the fast lane that answers it before the middleware: `public_get::ProductListLane`).
pub(crate) fn answer(headers: &HeaderMap, products: &ProductSnapshot) -> HttpResponse {
    let list = products.current();
    let chosen = list.in_coding(negotiate(headers.get_all(header::ACCEPT_ENCODING)));
    // Any representation's tag revalidates: they all name the same list.
    let matched = headers
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .find_map(|tag| {
            if tag == "*" {
                Some(chosen)
            } else {
                list.encoded
                    .iter()
                    .find(|encoded| encoded.etag.as_bytes() == tag.as_bytes())
            }
        });
    let mut response = match matched {
        Some(_) => HttpResponse::NotModified(),
        None => HttpResponse::Ok(),
    };
    let representation = matched.unwrap_or(chosen);
    response
        .insert_header((header::ETAG, representation.etag.clone()))
        .insert_header((header::CACHE_CONTROL, NO_CACHE))
        .insert_header((header::VARY, ACCEPT_ENCODING));
    if matched.is_some() {
        return response.finish();
    }
    if representation.coding != Coding::Identity {
        response.insert_header((
            header::CONTENT_ENCODING,
            HeaderValue::from_static(representation.coding.token()),
        ));
    }
    response
        .insert_header((header::CONTENT_TYPE, APPLICATION_JSON))
        .body(representation.body.clone())
}

const NO_CACHE: HeaderValue = HeaderValue::from_static("no-cache");
const ACCEPT_ENCODING: HeaderValue = HeaderValue::from_static("accept-encoding");
const APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");

/// The best coding an `Accept-Encoding` allows: the highest quality, brotli before gzip before
/// identity when equal; identity when the header is missing or allows neither.
pub(crate) fn negotiate<'a>(values: impl Iterator<Item = &'a HeaderValue>) -> Coding {
    // quality in thousandths; None = not mentioned
    let (mut br, mut gzip, mut any) = (None::<u16>, None::<u16>, None::<u16>);
    for value in values.filter_map(|value| value.to_str().ok()) {
        for item in value.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let quality = parts
                .find_map(|param| {
                    let (key, value) = param.split_once('=')?;
                    key.trim()
                        .eq_ignore_ascii_case("q")
                        .then(|| quality(value.trim()))
                })
                .unwrap_or(1000);
            if name.eq_ignore_ascii_case("br") {
                br = Some(quality);
            } else if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
                gzip = Some(quality);
            } else if name == "*" {
                any = Some(quality);
            }
        }
    }
    let br = br.or(any).unwrap_or(0);
    let gzip = gzip.or(any).unwrap_or(0);
    if br > 0 && br >= gzip {
        Coding::Brotli
    } else if gzip > 0 {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

/// A `q` value ("0", "0.5", "1.000") in thousandths; anything unreadable counts as 0.
fn quality(raw: &str) -> u16 {
    let (whole, fraction) = raw.split_once('.').unwrap_or((raw, ""));
    let mut digits = fraction
        .bytes()
        .take(3)
        .chain(std::iter::repeat(b'0'))
        .take(3);
    let thousandths = digits.try_fold(0u16, |acc, digit| {
        digit
            .is_ascii_digit()
            .then(|| acc * 10 + u16::from(digit - b'0'))
    });
    match (whole, thousandths) {
        ("1", Some(_)) => 1000,
        ("0" | "", Some(thousandths)) => thousandths,
        _ => 0,
    }
}

/// `GET /api/products/{id}`: one product the storefront lists.
#[utoipa::path(
    get,
    path = "/api/products/{id}",
    tag = "storefront",
    params(("id" = i64, Path, description = "The product's id; anything that is not a positive integer is a product that is not there (404).", minimum = 1)),
    responses(
        (status = 200, description = "The product.", body = ProductResponse,
            headers(("Cache-Control" = String, description = "`no-cache`"))),
        (status = 404, description = "No such product, or it is hidden.", body = ErrorBody),
    ),
)]
pub async fn show(
    catalog: web::Data<ShopCatalog>,
    clock: web::Data<AppClock>,
    Id(id): Id<ProductId>,
) -> Result<HttpResponse, ApiError> {
    let product = catalog.visible_product(id).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ProductResponse::at(&product, clock.now())))
}

/// `GET /api/products/{id}/related-ids`: the ids of the products shown with this one.
#[utoipa::path(
    get,
    path = "/api/products/{id}/related-ids",
    tag = "storefront",
    params(("id" = i64, Path, description = "The product's id; anything that is not a positive integer is a product that is not there (404).", minimum = 1)),
    responses(
        (status = 200, description = "The related products' ids.", body = Vec<i64>,
            headers(("Cache-Control" = String, description = "`no-cache`"))),
        (status = 404, description = "No such product, or it is hidden.", body = ErrorBody),
    ),
)]
pub async fn related_ids(
    catalog: web::Data<ShopCatalog>,
    Id(id): Id<ProductId>,
) -> Result<HttpResponse, ApiError> {
    let product = catalog.visible_product(id).await?;
    let ids: Vec<i64> = product.related_ids.iter().map(ProductId::get).collect();
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ids))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(raw: &str) -> Coding {
        let value = HeaderValue::from_str(raw).unwrap_or(HeaderValue::from_static(""));
        negotiate(std::iter::once(&value))
    }

    #[test]
    fn the_best_accepted_coding_is_chosen() {
        assert_eq!(negotiate(std::iter::empty()), Coding::Identity);
        assert_eq!(pick("gzip, deflate, br, zstd"), Coding::Brotli);
        assert_eq!(pick("gzip"), Coding::Gzip);
        assert_eq!(pick("GZIP;q=0.8, identity"), Coding::Gzip);
        assert_eq!(pick("br;q=0.5, gzip;q=0.9"), Coding::Gzip);
        assert_eq!(pick("br;q=0, gzip;q=0"), Coding::Identity);
        assert_eq!(pick("br;q=0.000, gzip;q=0.001"), Coding::Gzip);
        assert_eq!(pick("*"), Coding::Brotli);
        assert_eq!(pick("*;q=0.5, br;q=0"), Coding::Gzip);
        assert_eq!(pick("identity"), Coding::Identity);
        assert_eq!(pick("deflate, zstd"), Coding::Identity);
        assert_eq!(pick("br;q=nonsense, gzip;q=1.0"), Coding::Gzip);
    }

    #[test]
    fn quality_values_are_read_in_thousandths() {
        assert_eq!(quality("1"), 1000);
        assert_eq!(quality("1.000"), 1000);
        assert_eq!(quality("0.5"), 500);
        assert_eq!(quality("0.05"), 50);
        assert_eq!(quality("0"), 0);
        assert_eq!(quality("2"), 0);
        assert_eq!(quality("0.x"), 0);
        assert_eq!(quality("0. "), 0);
        assert_eq!(quality("0.!"), 0);
    }
}
