//! The yardstick of `just bench`: a bare actix-web handler serving the product list's bytes with
//! nothing else (no middleware, no snapshot, no negotiation): `bare_products PORT BODY ETAG
//! ENCODING` answers `GET /api/products` with the file BODY as it is (Content-Encoding ENCODING
//! unless "identity"), and 304 when If-None-Match is ETAG.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use actix_web::{http::header, web, App, HttpRequest, HttpResponse, HttpServer};

struct Bare {
    body: web::Bytes,
    etag: header::HeaderValue,
    encoding: Option<header::HeaderValue>,
}

async fn products(request: HttpRequest, bare: web::Data<Bare>) -> HttpResponse {
    if request.headers().get(header::IF_NONE_MATCH) == Some(&bare.etag) {
        return HttpResponse::NotModified()
            .insert_header((header::ETAG, bare.etag.clone()))
            .finish();
    }
    let mut response = HttpResponse::Ok();
    response.insert_header((header::ETAG, bare.etag.clone()));
    if let Some(encoding) = &bare.encoding {
        response.insert_header((header::CONTENT_ENCODING, encoding.clone()));
    }
    response
        .content_type("application/json")
        .body(bare.body.clone())
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, port, body, etag, encoding] = &args[..] else {
        panic!("usage: bare_products PORT BODY_FILE ETAG ENCODING");
    };
    let bare = web::Data::new(Bare {
        body: web::Bytes::from(std::fs::read(body)?),
        etag: header::HeaderValue::from_str(etag).expect("an ETag"),
        encoding: (encoding != "identity")
            .then(|| header::HeaderValue::from_str(encoding).expect("an encoding")),
    });
    HttpServer::new(move || {
        App::new()
            .app_data(bare.clone())
            .route("/api/products", web::get().to(products))
    })
    .bind(("127.0.0.1", port.parse::<u16>().expect("a port")))?
    .run()
    .await
}
