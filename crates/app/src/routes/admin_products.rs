//! /api/admin/products...: the super_admin runs the catalog. Every write refreshes the
//! storefront's snapshot before it answers.

use super::path_id::Id;
use actix_multipart::Multipart;
use actix_web::{web, HttpRequest, HttpResponse};
use catalog::{ProductForm, ProductId, Removal, StockChange, MAX_STOCK};
use futures::StreamExt;

use crate::auth::{AppClock, RequireSuperAdmin};
use crate::client_ip::ClientIp;
use crate::error::{multipart_error, ApiError};
use crate::services::CatalogAdminService;
use dto::admin_products::{
    AdminProductResponse, ChangeInventory, ProductFormDoc, ProductRemoved, ReorderBody,
    SetInventory, StockChangeKind,
};
use dto::lenient::{Count, Lenient, Object};
use dto::staff::{Confirmation, SuperAdminJson, SuperAdminMultipart, SuperAdminOnly};
use shared::Clock;

/// Longest text field read from the form, in bytes.
const MAX_TEXT_BYTES: usize = 64 * 1024;
/// Most parts a product form may have.
const MAX_PARTS: usize = 200;

/// GET /api/admin/products: every product, archived ones included, in storefront order.
#[utoipa::path(
    get,
    path = "/api/admin/products",
    operation_id = "admin_list_products",
    tag = "staff: catalog",
    summary = "Every product, archived ones included",
    description = "Every product in storefront order, archived ones included (super_admin).",
    responses(
        (status = 200, description = "The products.", body = Vec<AdminProductResponse>,
            headers(("Cache-Control" = String, description = "`no-store`"))),
        SuperAdminOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn list(
    _admin: RequireSuperAdmin,
    catalog_admin: web::Data<CatalogAdminService>,
    clock: web::Data<AppClock>,
) -> Result<HttpResponse, ApiError> {
    let products = catalog_admin.products().await?;
    let now = clock.now();
    let body: Vec<AdminProductResponse> = products
        .iter()
        .map(|product| AdminProductResponse::at(product, now))
        .collect();
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(body))
}

/// GET /api/admin/products/standalone: the bundles' ids (the inventory page leaves them out).
#[utoipa::path(
    get,
    path = "/api/admin/products/standalone",
    operation_id = "admin_list_bundle_ids",
    tag = "staff: catalog",
    summary = "The bundles' ids",
    description = "The ids of the products that are bundles (they have `related_ids`), \
                   ascending; the inventory page leaves them out (super_admin).",
    responses(
        (status = 200, description = "The bundles' ids.", body = Vec<i64>, example = json!([4, 9])),
        SuperAdminOnly,
    ),
    security(("session_cookie" = [])),
)]
pub async fn standalone(
    _admin: RequireSuperAdmin,
    catalog_admin: web::Data<CatalogAdminService>,
) -> Result<HttpResponse, ApiError> {
    let ids: Vec<i64> = catalog_admin
        .bundle_ids()
        .await?
        .iter()
        .map(ProductId::get)
        .collect();
    Ok(HttpResponse::Ok().json(ids))
}

/// Reads a field, keeping at most `keep` bytes and reading (and dropping) the rest up to
/// `limit`; beyond `limit` the request is refused with `over`.
pub(super) async fn read_field(
    field: &mut actix_multipart::Field,
    keep: usize,
    limit: usize,
    over: impl Fn() -> ApiError,
) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    let mut seen = 0usize;
    while let Some(chunk) = field.next().await {
        let chunk = chunk.map_err(multipart_error)?;
        seen += chunk.len();
        if seen > limit {
            return Err(over());
        }
        let room = keep.saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
    }
    Ok(bytes)
}

/// The product form as sent: its text fields, `related_ids[]` repeated, and the `image` file.
async fn read_product_form(
    req: &HttpRequest,
    payload: web::Payload,
) -> Result<(ProductForm, Option<Vec<u8>>), ApiError> {
    let mut multipart = Multipart::new(req.headers(), payload);
    let mut form = ProductForm::default();
    let mut image = None;
    let mut parts = 0;
    while let Some(field) = multipart.next().await {
        let mut field = field.map_err(multipart_error)?;
        parts += 1;
        if parts > MAX_PARTS {
            return Err(ApiError::BadRequest("The form has too many fields.".into()));
        }
        let name = field.name().unwrap_or_default().to_owned();
        if name == "image" {
            if let Some(bytes) = read_image(&mut field).await? {
                image = Some(bytes);
            }
            continue;
        }
        let text = read_text(&mut field, &name).await?;
        set_text(&mut form, &name, text);
    }
    Ok((form, image))
}

/// The `image` part: the picture, or `None` for an empty part.
async fn read_image(field: &mut actix_multipart::Field) -> Result<Option<Vec<u8>>, ApiError> {
    // One byte over the limit is enough for the picture check to refuse it; the rest
    // is read and dropped (up to a bound) so the answer can name every bad field.
    let bytes = read_field(
        field,
        media::MAX_INPUT_BYTES + 1,
        4 * media::MAX_INPUT_BYTES,
        || ApiError::PayloadTooLarge("The image may be at most 5 MB and 40 megapixels.".into()),
    )
    .await?;
    // a file input left empty sends an empty part: no new picture
    Ok((!bytes.is_empty()).then_some(bytes))
}

/// A text part, at most [`MAX_TEXT_BYTES`]; 422 under its name when longer or not UTF-8.
async fn read_text(field: &mut actix_multipart::Field, name: &str) -> Result<String, ApiError> {
    let bytes = read_field(field, MAX_TEXT_BYTES, MAX_TEXT_BYTES, || {
        ApiError::field(name, "This field is too long.")
    })
    .await?;
    String::from_utf8(bytes).map_err(|_| ApiError::field(name, "This field must be text."))
}

/// Keeps a text part's value in the form field of its name.
fn set_text(form: &mut ProductForm, name: &str, text: String) {
    let slot = match name {
        "name" => &mut form.name,
        "price" => &mut form.price,
        "category" => &mut form.category,
        "description" => &mut form.description,
        "stock" => &mut form.stock,
        "weight" => &mut form.weight,
        "sort_order" => &mut form.sort_order,
        "mutation" => &mut form.mutation,
        "savings" => &mut form.savings,
        "delete_after_out_of_stock" => &mut form.delete_after_out_of_stock,
        "dupe_warning" => &mut form.dupe_warning,
        "release_at" => &mut form.release_at,
        "max_per_account" => &mut form.max_per_account,
        "related_ids[]" | "related_ids" => {
            form.related_ids.push(text);
            return;
        }
        // `_method=PUT` and anything else the form carries
        _ => return,
    };
    *slot = Some(text);
}

/// POST /api/admin/products (multipart): 201 with the new product; 422 per field.
#[utoipa::path(
    post,
    path = "/api/admin/products",
    operation_id = "admin_create_product",
    tag = "staff: catalog",
    summary = "Create a product",
    description = "Creates a product from the form and an optional picture; the storefront \
                   shows it at once (super_admin).",
    request_body(content = ProductFormDoc, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "The new product.", body = AdminProductResponse),
        SuperAdminMultipart,
        (status = 400, description = "The multipart body cannot be read, or it has more than 200 parts.", body = crate::error::ErrorBody),
        (status = 413, description = "The picture is far over its limit (more than 20 MB).", body = crate::error::ErrorBody),
        (status = 422, description = "Field problems, all at once: a required field missing, a bad number, \
            a bundle's product that does not exist or is a bundle, a picture that is not an image or too large.",
            body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn create(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    req: HttpRequest,
    payload: web::Payload,
    catalog_admin: web::Data<CatalogAdminService>,
    clock: web::Data<AppClock>,
) -> Result<HttpResponse, ApiError> {
    let (form, image) = read_product_form(&req, payload).await?;
    let product = catalog_admin.create(form, image, &admin.actor(ip)).await?;
    Ok(HttpResponse::Created().json(AdminProductResponse::at(&product, clock.now())))
}

/// POST /api/admin/products/{id} with `_method=PUT`, or PUT: 200 with the product. Without a
/// new image the old one stays.
#[utoipa::path(
    method(put, post),
    path = "/api/admin/products/{id}",
    operation_id = "admin_update_product",
    tag = "staff: catalog",
    summary = "Update a product",
    description = "Replaces every value from the form; without a new picture the old one stays \
                   (super_admin). Forms that can only POST send it with POST (and \
                   `_method=PUT`, which is ignored): the same call.",
    params(("id" = i64, Path, description = "The product's id.", minimum = 1)),
    request_body(content = ProductFormDoc, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The product as saved.", body = AdminProductResponse),
        SuperAdminMultipart,
        (status = 400, description = "The multipart body cannot be read, or it has more than 200 parts.", body = crate::error::ErrorBody),
        (status = 404, description = "No product has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 413, description = "The picture is far over its limit (more than 20 MB).", body = crate::error::ErrorBody),
        (status = 409, description = "Orders already hold units of this drop and `release_at` would move to the future; nothing changed.", body = crate::error::ErrorBody),
        (status = 422, description = "Field problems, all at once (as for a new product; a product that is \
            part of a bundle cannot become a bundle).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn update(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    req: HttpRequest,
    payload: web::Payload,
    catalog_admin: web::Data<CatalogAdminService>,
    clock: web::Data<AppClock>,
    Id(id): Id<ProductId>,
) -> Result<HttpResponse, ApiError> {
    let (form, image) = read_product_form(&req, payload).await?;
    let product = catalog_admin
        .update(id, form, image, &admin.actor(ip))
        .await?;
    Ok(HttpResponse::Ok().json(AdminProductResponse::at(&product, clock.now())))
}

/// DELETE /api/admin/products/{id}: archives a product that has orders, deletes one without.
#[utoipa::path(
    delete,
    path = "/api/admin/products/{id}",
    operation_id = "admin_remove_product",
    tag = "staff: catalog",
    summary = "Remove a product",
    description = "Archives a product that has orders (it leaves the storefront, its orders \
                   keep it), deletes one that has none (super_admin).",
    params(("id" = i64, Path, description = "The product's id.", minimum = 1)),
    responses(
        (status = 200, description = "Archived or deleted.", body = ProductRemoved),
        SuperAdminOnly,
        (status = 404, description = "No product has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn delete(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    catalog_admin: web::Data<CatalogAdminService>,
    Id(id): Id<ProductId>,
) -> Result<HttpResponse, ApiError> {
    let removal = catalog_admin.remove(id, &admin.actor(ip)).await?;
    let (message, archived) = match removal {
        Removal::Archived => ("Product archived.", true),
        Removal::Deleted => ("Product deleted.", false),
    };
    Ok(HttpResponse::Ok().json(ProductRemoved { message, archived }))
}

/// POST /api/admin/products/reorder `{"updates": [{"id", "sort_order"}]}`, in one transaction.
#[utoipa::path(
    post,
    path = "/api/admin/products/reorder",
    operation_id = "admin_reorder_products",
    tag = "staff: catalog",
    summary = "Reorder products",
    description = "Gives each listed product its storefront position, in one transaction \
                   (super_admin).",
    request_body = ReorderBody,
    responses(
        (status = 200, description = "Saved: `Product order saved.`", body = Confirmation),
        SuperAdminJson,
        (status = 422, description = "A missing or mistyped field, a product listed twice, or one that does \
            not exist (under `updates`).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn reorder(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    body: web::Json<ReorderBody>,
    catalog_admin: web::Data<CatalogAdminService>,
) -> Result<HttpResponse, ApiError> {
    let positions = body
        .into_inner()
        .updates
        .into_iter()
        .map(|p| (ProductId::new(p.id), p.sort_order))
        .collect();
    catalog_admin.reorder(positions, &admin.actor(ip)).await?;
    Ok(HttpResponse::Ok().json(Confirmation::new("Product order saved.")))
}

/// The `inventory` of a stock call: a count from `min` to `MAX_STOCK`.
fn inventory(value: Lenient<Count>, min: u32) -> Result<u32, ApiError> {
    let refused = |message: String| Err(ApiError::field("inventory", message));
    match value {
        Lenient::Absent => refused("The inventory field is required.".to_owned()),
        Lenient::Given(Count(n)) if n > u64::from(MAX_STOCK) => {
            refused(format!("The inventory may be at most {MAX_STOCK}."))
        }
        Lenient::Given(Count(n)) if n >= u64::from(min) => {
            Ok(u32::try_from(n).unwrap_or(MAX_STOCK))
        }
        _ => refused(format!(
            "The inventory must be a whole number of {min} or more."
        )),
    }
}

/// POST /api/admin/products/{id}/inventory `{"inventory": 12}`: sets the stock.
#[utoipa::path(
    post,
    path = "/api/admin/products/{id}/inventory",
    operation_id = "admin_set_stock",
    tag = "staff: catalog",
    summary = "Set a product's stock",
    description = "Sets the stock to a count (an unlimited product becomes limited) \
                   (super_admin).",
    params(("id" = i64, Path, description = "The product's id.", minimum = 1)),
    request_body = SetInventory,
    responses(
        (status = 200, description = "The product with its new stock.", body = AdminProductResponse),
        SuperAdminJson,
        (status = 404, description = "No product has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 422, description = "`inventory` missing, not a whole number, below 0 or above 1000000.", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn set_inventory(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    body: web::Json<Object<SetInventory>>,
    catalog_admin: web::Data<CatalogAdminService>,
    clock: web::Data<AppClock>,
    Id(id): Id<ProductId>,
) -> Result<HttpResponse, ApiError> {
    let inventory = inventory(body.into_inner().0.unwrap_or_default().inventory, 0)?;
    let product = catalog_admin
        .set_stock(id, inventory, &admin.actor(ip))
        .await?;
    Ok(HttpResponse::Ok().json(AdminProductResponse::at(&product, clock.now())))
}

/// POST /api/admin/products/{id}/change `{"type": "plus"|"minus", "inventory": 1}`: one atomic
/// change, never below zero.
#[utoipa::path(
    post,
    path = "/api/admin/products/{id}/change",
    operation_id = "admin_change_stock",
    tag = "staff: catalog",
    summary = "Add or take away stock",
    description = "One atomic change of the stock; taking away stops at zero (super_admin).",
    params(("id" = i64, Path, description = "The product's id.", minimum = 1)),
    request_body = ChangeInventory,
    responses(
        (status = 200, description = "The product with its new stock.", body = AdminProductResponse),
        SuperAdminJson,
        (status = 404, description = "No product has this id (or the id is not a positive whole number).", body = crate::error::ErrorBody),
        (status = 422, description = "`type` not `plus` or `minus`, `inventory` not a whole number from 1 to 1000000, or a `minus` on unlimited stock (under `type`; nothing changed, nothing audited).", body = crate::error::ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn change_inventory(
    RequireSuperAdmin(admin): RequireSuperAdmin,
    ip: ClientIp,
    body: web::Json<Object<ChangeInventory>>,
    catalog_admin: web::Data<CatalogAdminService>,
    clock: web::Data<AppClock>,
    Id(id): Id<ProductId>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner().0.unwrap_or_default();
    let amount = match body.inventory {
        Lenient::Absent => 1,
        given => inventory(given, 1)?,
    };
    let change = match body.kind {
        Lenient::Given(StockChangeKind::Plus) => StockChange::Plus(amount),
        Lenient::Given(StockChangeKind::Minus) => StockChange::Minus(amount),
        _ => return Err(ApiError::field("type", "The type must be plus or minus.")),
    };
    let product = catalog_admin
        .change_stock(id, change, &admin.actor(ip))
        .await?;
    Ok(HttpResponse::Ok().json(AdminProductResponse::at(&product, clock.now())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_form_is_the_one_read() {
        let doc =
            serde_json::to_value(<ProductFormDoc as utoipa::PartialSchema>::schema()).unwrap();
        let mut form = ProductForm::default();
        for name in doc["properties"].as_object().unwrap().keys() {
            // the picture is read apart; `_method` is the update's, read by the router
            if name == "image" || name == "_method" {
                continue;
            }
            let before = form.clone();
            set_text(&mut form, name, "1".to_owned());
            assert_ne!(form, before, "{name} is documented but not read");
        }
        // every field the parser fills was documented (a new one fails to compile here)
        let ProductForm {
            name,
            price,
            category,
            description,
            stock,
            weight,
            sort_order,
            mutation,
            savings,
            delete_after_out_of_stock,
            dupe_warning,
            related_ids,
            release_at,
            max_per_account,
        } = form;
        let texts = [
            name,
            price,
            category,
            description,
            stock,
            weight,
            sort_order,
            mutation,
            savings,
            delete_after_out_of_stock,
            dupe_warning,
            release_at,
            max_per_account,
        ];
        assert!(texts.iter().all(Option::is_some), "{texts:?}");
        assert_eq!(related_ids, ["1"]);
    }
}
