//! The super_admin's catalog calls (`/api/admin/products…`) as the API reads and sends them.

use catalog::Product;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ProductResponse;
use crate::lenient::{Count, Lenient};

/// A product as the admin sees it: the storefront's fields and whether it is archived.
#[derive(Serialize, ToSchema)]
#[schema(as = AdminProduct)]
pub struct AdminProductResponse {
    #[serde(flatten)]
    product: ProductResponse,
    /// Kept for its orders but off the storefront (a deleted product that had orders).
    archived: bool,
}

/// The product form (`multipart/form-data`) as the admin page sends it. Every value is text on
/// the wire; the types say how each is read. An empty value means "none" (for `stock`:
/// unlimited). All problems are answered at once (422, one entry per field).
#[derive(ToSchema)]
#[schema(as = ProductForm)]
#[allow(dead_code)] // the handler reads the parts one by one; its test holds it to this document
pub struct ProductFormDoc {
    #[schema(min_length = 1, max_length = 200, example = "Golden Raccoon")]
    name: String,
    /// Dollars, at most two decimals, 0 to 10000000.
    #[schema(minimum = 0, maximum = 10_000_000, example = 4.99)]
    price: f64,
    /// Free text, possibly a comma-separated list.
    #[schema(min_length = 1, max_length = 200, example = "Pets")]
    category: String,
    #[schema(nullable = false, max_length = 5000)]
    description: Option<String>,
    /// Units in stock, 0 to 1000000; empty or left out: unlimited.
    #[schema(nullable = false, minimum = 0, maximum = 1_000_000)]
    stock: Option<u32>,
    /// Kilograms, 0 to 1000000.
    #[schema(nullable = false, minimum = 0, maximum = 1_000_000)]
    weight: Option<f64>,
    /// The position on the storefront (smaller first).
    #[schema(nullable = false)]
    sort_order: Option<i32>,
    #[schema(nullable = false, max_length = 200)]
    mutation: Option<String>,
    /// The original price in dollars (the saving shown is `savings - price`).
    #[schema(nullable = false, minimum = 0, maximum = 10_000_000)]
    savings: Option<f64>,
    /// `1`/`0` (also `true`/`false`, `on`/`off`, `yes`/`no`).
    #[schema(nullable = false)]
    delete_after_out_of_stock: Option<bool>,
    /// `1`/`0` (also `true`/`false`, `on`/`off`, `yes`/`no`).
    #[schema(nullable = false)]
    dupe_warning: Option<bool>,
    /// The products of a bundle, one part per id (`related_ids` is read the same way). They
    /// must exist, be on sale and not be bundles themselves.
    #[schema(nullable = false, rename = "related_ids[]")]
    related_ids: Option<Vec<i64>>,
    /// A drop: listed at once, sold from this moment on (RFC 3339 with its offset, stored in
    /// UTC). Empty: on sale at once. Left out of an update: unchanged. Moving it to the future
    /// once orders hold the drop's units answers 409.
    #[schema(nullable = false, format = DateTime, example = "2026-12-01T18:00:00Z")]
    release_at: Option<String>,
    /// Units one buyer (Discord account, shop account, browser) may hold across its pending,
    /// paid, delivered and disputed orders, alone or inside bundles, 1 to 20. Empty: no limit.
    /// Left out of an update: unchanged.
    #[schema(nullable = false, minimum = 1, maximum = 20)]
    max_per_account: Option<u32>,
    /// A PNG, JPEG, GIF or WebP picture, at most 5 MB and 40 megapixels; re-encoded before it
    /// is stored. An empty part means no new picture (an update keeps the old one).
    #[schema(nullable = false, value_type = Option<String>, format = Binary)]
    image: Option<Vec<u8>>,
    /// `PUT` when the form is sent with POST to update; ignored.
    #[schema(nullable = false, rename = "_method")]
    method: Option<String>,
}

impl AdminProductResponse {
    /// The product as the admin sees it at `now` (whether a drop is released yet).
    pub fn at(product: &Product, now: DateTime<Utc>) -> Self {
        AdminProductResponse {
            product: ProductResponse::at(product, now),
            archived: product.archived,
        }
    }
}

/// What became of a removed product.
#[derive(Serialize, ToSchema)]
pub struct ProductRemoved {
    /// true: it had orders and was archived (kept, off the storefront); false: deleted.
    pub archived: bool,
    /// `Product archived.` or `Product deleted.`
    #[schema(example = "Product archived.")]
    pub message: &'static str,
}

/// New storefront positions for some products.
#[derive(Deserialize, ToSchema)]
#[schema(as = ReorderRequest)]
pub struct ReorderBody {
    /// Each product at most once; all are saved or none.
    pub updates: Vec<Position>,
}

/// One product's new position.
#[derive(Deserialize, ToSchema)]
#[schema(as = ProductPosition)]
pub struct Position {
    /// The product's id.
    pub id: i64,
    /// Its position (smaller first).
    pub sort_order: i32,
}

/// The stock to set (`POST /api/admin/products/{id}/inventory`).
// Read leniently, to name the field; a body that is not an object is read as one without it.
#[derive(Default, Deserialize, ToSchema)]
#[schema(as = SetInventoryRequest)]
pub struct SetInventory {
    /// The units in stock (digits in a string are read too).
    #[serde(default)]
    #[schema(required = true, value_type = u32, minimum = 0, maximum = 1_000_000, example = 12)]
    pub inventory: Lenient<Count>,
}

/// A change of stock (`POST /api/admin/products/{id}/change`).
// Read like `SetInventory`.
#[derive(Default, Deserialize, ToSchema)]
#[schema(as = ChangeInventoryRequest)]
pub struct ChangeInventory {
    #[serde(default, rename = "type")]
    #[schema(required = true, value_type = StockChangeKind)]
    pub kind: Lenient<StockChangeKind>,
    /// How many units (digits in a string are read too); 1 when left out or null.
    #[serde(default)]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 1_000_000, example = 1)]
    pub inventory: Lenient<Count>,
}

/// Add or take away units.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StockChangeKind {
    Plus,
    Minus,
}
