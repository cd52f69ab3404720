//! The domain services as the app wires them, each over the shop's store and clock (the
//! accounts service, checkout and the help chat have their own modules). The
//! composition root (`wiring`) builds one of each; handlers take the one they need as
//! `web::Data<…>`.

use store::Store;

use crate::auth::AppClock;

/// The storefront's reads of the catalog.
pub use crate::snapshot::ShopCatalog;

/// The super_admin's writes to the catalog and its pictures.
pub type CatalogAdminService = catalog::CatalogAdmin<Store, media::MediaImages>;

/// Proofs of delivery.
pub type ProofService = proofs::ProofService<Store, media::MediaImages, AppClock>;

/// The Sales Dashboard's numbers.
pub type SalesService = sales::SalesStatistics<Store, AppClock>;

/// The staff's delivery queue.
pub type DeliveryQueueService = delivery::DeliveryQueue<Store, AppClock>;

/// The line between an order's buyer and staff on the order page.
pub type OrderMessagesService = delivery::OrderMessages<Store, Store, AppClock>;

/// Refunds through the payment provider, the provider's refunds and disputes, risky payments
/// and fraud warnings.
pub type AfterSaleService = aftersale::AfterSale<Store, AppClock, crate::dispute_gateway::ShopRisk>;

/// The super_admin's blocklist.
pub type BlocklistService = blocklist::BlocklistAdmin<Store, AppClock>;
/// After the sale: the buyer's order page by link and the mail to the buyer.
pub type TrackingService = delivery::OrderTracking<Store, crate::auth::CountingMailer, AppClock>;

/// The staff audit log, read by super_admins (the writes append to it themselves).
pub type AuditService = shared::AuditTrail<Store>;

/// The dashboard's delivery figures.
pub type DeliveryTimesService = delivery::DeliveryTimes<Store, AppClock>;

/// A shopper's own data, for its export.
pub type PrivacyService = accounts::Privacy<Store, AppClock>;

/// Verified reviews.
pub type ReviewService = reviews::Reviews<Store, AppClock>;
