//! The staff's calls: catalog, stock, promo codes, orders queue, refunds, blocklist, reviews,
//! chats, proofs and sales statistics.

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(paths(), components(schemas()))]
pub struct AdminDoc;
