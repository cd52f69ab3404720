//! The staff's calls: catalog, stock, promo codes, orders queue, refunds, blocklist, reviews,
//! chats, proofs, sales statistics and the audit log.

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    paths(crate::routes::audit::list),
    components(schemas(
        crate::routes::audit::AuditPage,
        crate::routes::audit::AuditEntryJson,
        crate::routes::audit::AuditActorJson,
    ))
)]
pub struct AdminDoc;
