//! Ids in paths, parsed in one place: a handler takes `Id<ProductId>` (or another [`PathId`])
//! and gets the id the route's `{id}` segment names, or the request is answered 404 with the
//! thing's own "not found" words before the handler runs. A segment that is not an id names
//! nothing, so it is a 404 like an id no row has, never a 400.

use std::future::{ready, Ready};

use actix_web::{dev::Payload, FromRequest, HttpRequest};
use catalog::ProductId;
use chat::ChatId;
use orders::OrderId;
use promo::PromoId;

use l10n::Text;

use crate::error::{ApiError, Msg};

/// What an id in a path names, and what a 404 says when the segment names nothing.
pub(crate) trait PathId: Sized {
    /// The 404's words when the segment is no such id.
    fn not_found() -> Msg;
    /// The id the segment is, if it is one.
    fn from_segment(segment: &str) -> Option<Self>;
}

/// A numeric id: a positive whole number.
pub(crate) fn positive(segment: &str) -> Option<i64> {
    segment.parse::<i64>().ok().filter(|id| *id > 0)
}

/// The id in the route's `{id}` segment.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Id<T>(pub T);

impl<T: PathId> FromRequest for Id<T> {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let segment = req.match_info().get("id").unwrap_or_default();
        ready(
            T::from_segment(segment)
                .map(Id)
                .ok_or_else(|| ApiError::NotFound(T::not_found())),
        )
    }
}

/// The words of a missing chat, the same for every route that names one.
pub(crate) fn chat_not_found() -> Msg {
    Text::new("error-chat-not-found").into()
}

/// The words of a missing order, the same for every route that names one.
pub(crate) fn order_not_found() -> Msg {
    Text::new("error-order-not-found").into()
}

impl PathId for ProductId {
    fn not_found() -> Msg {
        Text::new("error-product-not-found").into()
    }
    fn from_segment(segment: &str) -> Option<Self> {
        positive(segment).map(ProductId::new)
    }
}

impl PathId for OrderId {
    fn not_found() -> Msg {
        order_not_found()
    }
    fn from_segment(segment: &str) -> Option<Self> {
        positive(segment).map(OrderId::new)
    }
}

impl PathId for PromoId {
    fn not_found() -> Msg {
        "Promo code not found.".into()
    }
    fn from_segment(segment: &str) -> Option<Self> {
        positive(segment).map(PromoId::new)
    }
}

impl PathId for ChatId {
    fn not_found() -> Msg {
        chat_not_found()
    }
    fn from_segment(segment: &str) -> Option<Self> {
        segment.parse().ok()
    }
}

/// A blocklist entry's id.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BlockEntryId(pub i64);

impl PathId for BlockEntryId {
    fn not_found() -> Msg {
        "Blocklist entry not found.".into()
    }
    fn from_segment(segment: &str) -> Option<Self> {
        positive(segment).map(BlockEntryId)
    }
}

/// A review's id.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReviewId(pub i64);

impl PathId for ReviewId {
    fn not_found() -> Msg {
        Text::new("error-review-not-found").into()
    }
    fn from_segment(segment: &str) -> Option<Self> {
        positive(segment).map(ReviewId)
    }
}

#[cfg(test)]
mod tests {
    use actix_web::{test, web, App, HttpResponse};

    use super::*;

    async fn product(id: Id<ProductId>) -> HttpResponse {
        HttpResponse::Ok().body(id.0.get().to_string())
    }

    #[actix_web::test]
    async fn a_positive_whole_number_is_an_id_and_anything_else_a_404_in_the_things_words() {
        let app =
            test::init_service(App::new().route("/products/{id}", web::get().to(product))).await;
        let ok = test::call_service(
            &app,
            test::TestRequest::get().uri("/products/42").to_request(),
        )
        .await;
        assert_eq!(ok.status(), 200);
        assert_eq!(test::read_body(ok).await, "42");
        for bad in ["0", "-3", "abc", "1.5", "99999999999999999999", "%20"] {
            let uri = format!("/products/{bad}");
            let answer =
                test::call_service(&app, test::TestRequest::get().uri(&uri).to_request()).await;
            assert_eq!(answer.status(), 404, "{bad}");
            let body: serde_json::Value = test::read_body_json(answer).await;
            assert_eq!(body["message"], "Product not found.", "{bad}");
        }
    }
}
