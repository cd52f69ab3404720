//! What several handlers take together, read as one extractor: each handler names the bundle
//! once instead of every service in it.

use actix_web::{web, FromRequest, HttpRequest};

/// The service `T` registered as `web::Data<T>`; 500 when the wiring did not register it.
pub(crate) fn data<T: 'static>(req: &HttpRequest) -> Result<web::Data<T>, actix_web::Error> {
    web::Data::<T>::extract(req).into_inner()
}
