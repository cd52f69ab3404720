use std::sync::Arc;

use catalog::Catalog;
use media::MediaStore;
use store::Store;

use crate::auth::{AccountsService, AppClock};
use crate::checkout::Kit;
use crate::help_chat::HelpChat;
use crate::settings::SiteSettings;
use crate::snapshot::ProductSnapshot;

/// What every handler may use; shared by all workers.
pub struct AppState {
    pub store: Store,
    pub catalog: Catalog<Store>,
    pub products: ProductSnapshot,
    /// The super_admin's writes to the catalog and its pictures.
    pub catalog_admin: CatalogAdminService,
    pub media: MediaStore,
    pub site: SiteSettings,
    /// Registration, login, password reset.
    pub accounts: Arc<AccountsService>,
    /// Checkout, payment providers, Discord, Roblox, promo codes.
    pub checkout: Kit,
    /// The help chat: service, poll cache, staff notifications.
    pub chat: Arc<HelpChat>,
    /// Proofs of delivery.
    pub proofs: ProofService,
}

pub type ProofService = proofs::ProofService<Store, media::MediaImages, AppClock>;

pub type CatalogAdminService = catalog::CatalogAdmin<Store, media::MediaImages>;
