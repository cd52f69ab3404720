//! Running the catalog: creating, editing, archiving, deleting and ordering products, their
//! pictures, and their stock. Only super_admins get here (the app's guard decides).

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;

use shared::{Actor, Clock, Unheard};

use crate::{
    sort_for_storefront, CatalogError, FieldError, InvalidProduct, Product, ProductDraft,
    ProductFields, ProductForm, ProductId, ProductRepository, Stock, StockNotices,
};

/// What happened to a product taken out of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    /// It has orders: hidden from the storefront, kept for orders and statistics.
    Archived,
    /// It had no orders: gone.
    Deleted,
}

/// A change of stock by a number of units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StockChange {
    /// Adds units; unlimited stock becomes this many.
    Plus(u32),
    /// Takes units away, never below zero; refused for unlimited stock.
    Minus(u32),
}

/// The writes the admin makes to the catalog. Each is one transaction: all of it or nothing,
/// the audit log's entry for it (by `actor`, with the values before and after) included.
#[cfg_attr(test, mockall::automock)]
pub trait ProductWrites: Send + Sync + 'static {
    /// Stores a new product (and its bundle components) and returns it with its new id.
    fn create(
        &self,
        draft: ProductDraft,
        actor: &Actor,
    ) -> impl Future<Output = Result<Product, CatalogError>> + Send;

    /// Replaces every field of the product (components too; `archived` stays as it is).
    /// `CatalogError::NotFound` when there is no such product. With `refuse_if_held`, refuses
    /// with `CatalogError::DropHeld` (nothing written) when a pending, paid, delivered or
    /// disputed order holds units of it, judged under the product's lock so no order placed
    /// meanwhile slips past.
    fn update(
        &self,
        id: ProductId,
        draft: ProductDraft,
        refuse_if_held: bool,
        actor: &Actor,
    ) -> impl Future<Output = Result<Product, CatalogError>> + Send;

    /// Deletes the product when no order or reservation names it, archives it otherwise —
    /// decided and done in one transaction. `CatalogError::NotFound` when there is none.
    fn remove(
        &self,
        id: ProductId,
        actor: &Actor,
    ) -> impl Future<Output = Result<Removal, CatalogError>> + Send;

    /// Sets each product's sort order. `CatalogError::NotFound(id)` for the first id that does
    /// not exist, and then nothing changed.
    fn reorder(
        &self,
        positions: Vec<(ProductId, i32)>,
        actor: &Actor,
    ) -> impl Future<Output = Result<(), CatalogError>> + Send;

    /// Sets the stock. `CatalogError::NotFound` when there is no such product.
    fn set_stock(
        &self,
        id: ProductId,
        stock: Stock,
        actor: &Actor,
    ) -> impl Future<Output = Result<Product, CatalogError>> + Send;

    /// Changes the stock in one conditional statement, so concurrent changes never lose one
    /// another and never go below zero. `CatalogError::NotFound` when there is no such product;
    /// `CatalogError::UnlimitedStock` for a minus on unlimited stock (nothing written, no audit).
    fn change_stock(
        &self,
        id: ProductId,
        change: StockChange,
        actor: &Actor,
    ) -> impl Future<Output = Result<Product, CatalogError>> + Send;

    /// The bundles that contain this product.
    fn bundles_containing(
        &self,
        id: ProductId,
    ) -> impl Future<Output = Result<Vec<ProductId>, CatalogError>> + Send;

    /// Every image path a product uses, archived ones included.
    fn image_paths_in_use(&self) -> impl Future<Output = Result<Vec<String>, CatalogError>> + Send;
}

/// Product pictures go through the shared image port; the app builds it to fit 300x300.
pub use shared::{ImageRejected, ImageStore, PreparedImage};

/// Why an admin write did not happen.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// 422, one message per bad field; nothing was written.
    #[error("{0}")]
    Invalid(InvalidProduct),
    #[error("Product not found.")]
    NotFound(ProductId),
    /// 409: orders hold units of this drop, so its release cannot move to the future.
    #[error("Orders already hold units of this drop: its release time cannot move to the future.")]
    DropHeld(ProductId),
    #[error(transparent)]
    Unknown(anyhow::Error),
}

impl From<CatalogError> for AdminError {
    fn from(error: CatalogError) -> Self {
        match error {
            CatalogError::NotFound(id) => AdminError::NotFound(id),
            CatalogError::DropHeld(id) => AdminError::DropHeld(id),
            CatalogError::UnlimitedStock(_) => invalid("type", error.to_string()),
            CatalogError::Unknown(e) => AdminError::Unknown(e),
        }
    }
}

fn invalid(field: &'static str, message: impl Into<String>) -> AdminError {
    AdminError::Invalid(InvalidProduct(vec![FieldError::new(field, message)]))
}

/// The catalog's admin side over its store and its pictures.
#[derive(Clone)]
pub struct CatalogAdmin<R, I> {
    repository: R,
    images: I,
    /// Held from saving a picture until its product is stored, and while unused pictures are
    /// removed, so a clean-up never removes a picture a write is about to use.
    picture_writes: Arc<tokio::sync::Mutex<()>>,
    /// Whether a release time lies in the future.
    clock: Arc<dyn Clock>,
    notices: Arc<dyn StockNotices>,
}

impl<R: std::fmt::Debug, I: std::fmt::Debug> std::fmt::Debug for CatalogAdmin<R, I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CatalogAdmin")
            .field("repository", &self.repository)
            .field("images", &self.images)
            .finish_non_exhaustive()
    }
}

impl<R: ProductRepository + ProductWrites, I: ImageStore> CatalogAdmin<R, I> {
    pub fn new(repository: R, images: I, clock: impl Clock) -> Self {
        CatalogAdmin {
            repository,
            images,
            picture_writes: Arc::new(tokio::sync::Mutex::new(())),
            clock: Arc::new(clock),
            notices: Arc::new(Unheard),
        }
    }

    /// Tells `notices` of every change that committed.
    pub fn with_notices(mut self, notices: Arc<dyn StockNotices>) -> Self {
        self.notices = notices;
        self
    }

    /// Tells of the change `written` made, when it committed.
    async fn told<T, E>(&self, written: Result<T, E>) -> Result<T, E> {
        if written.is_ok() {
            self.notices.stock_changed().await;
        }
        written
    }

    /// Every product, archived ones included, in storefront order.
    #[tracing::instrument(skip(self))]
    pub async fn products(&self) -> Result<Vec<Product>, CatalogError> {
        let mut products = self.repository.all_products().await?;
        sort_for_storefront(&mut products);
        Ok(products)
    }

    /// The ids of the bundles (the inventory page leaves them out), ascending.
    #[tracing::instrument(skip(self))]
    pub async fn bundle_ids(&self) -> Result<Vec<ProductId>, CatalogError> {
        let mut ids: Vec<ProductId> = self
            .repository
            .all_products()
            .await?
            .into_iter()
            .filter(Product::is_bundle)
            .map(|p| p.id)
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// Creates a product from the form and an optional picture.
    #[tracing::instrument(skip_all)]
    pub async fn create(
        &self,
        form: ProductForm,
        upload: Option<Vec<u8>>,
        actor: &Actor,
    ) -> Result<Product, AdminError> {
        let (fields, picture) = self.check(None, &form, upload).await?;
        let _writing = self.picture_writes.lock().await;
        let image = match picture {
            Some(picture) => Some(
                self.images
                    .save(picture)
                    .await
                    .map_err(AdminError::Unknown)?,
            ),
            None => None,
        };
        let stored = self
            .told(
                self.repository
                    .create(draft(fields, image.clone(), None), actor)
                    .await,
            )
            .await;
        if stored.is_err() && image.is_some() {
            self.remove_unused_pictures().await;
        }
        Ok(stored?)
    }

    /// Replaces a product's values from the form; without a new picture the old one stays.
    #[tracing::instrument(skip(self, form, upload, actor))]
    pub async fn update(
        &self,
        id: ProductId,
        form: ProductForm,
        upload: Option<Vec<u8>>,
        actor: &Actor,
    ) -> Result<Product, AdminError> {
        let current = self.repository.product(id).await?;
        let (fields, picture) = self.check(Some(&current), &form, upload).await?;
        let _writing = self.picture_writes.lock().await;
        let image = match picture {
            Some(picture) => Some(
                self.images
                    .save(picture)
                    .await
                    .map_err(AdminError::Unknown)?,
            ),
            None => current.image.clone(),
        };
        let picture_changed = image != current.image;
        let draft = draft(fields, image, Some(&current));
        // Once orders hold a drop's units, its release may come sooner or go, never move ahead.
        let moves_ahead = draft.release_at != current.release_at
            && draft.release_at.is_some_and(|at| at > self.clock.now());
        let stored = self
            .told(self.repository.update(id, draft, moves_ahead, actor).await)
            .await;
        if picture_changed {
            // The old picture (or, after a failure, the new one) may be unused now.
            self.remove_unused_pictures().await;
        }
        Ok(stored?)
    }

    /// Archives a product that has orders, deletes one that has none.
    #[tracing::instrument(skip(self, actor))]
    pub async fn remove(&self, id: ProductId, actor: &Actor) -> Result<Removal, AdminError> {
        let _writing = self.picture_writes.lock().await;
        let removal = self.told(self.repository.remove(id, actor).await).await?;
        if removal == Removal::Deleted {
            self.remove_unused_pictures().await;
        }
        Ok(removal)
    }

    /// Gives each listed product its position; all of them or none.
    #[tracing::instrument(skip(self, positions, actor), fields(count = positions.len()))]
    pub async fn reorder(
        &self,
        positions: Vec<(ProductId, i32)>,
        actor: &Actor,
    ) -> Result<(), AdminError> {
        let mut seen = BTreeSet::new();
        for (id, _) in &positions {
            if !seen.insert(*id) {
                return Err(invalid(
                    "updates",
                    format!("Product {id} is listed more than once."),
                ));
            }
        }
        match self
            .told(self.repository.reorder(positions, actor).await)
            .await
        {
            Err(CatalogError::NotFound(id)) => {
                Err(invalid("updates", format!("Product {id} does not exist.")))
            }
            other => Ok(other?),
        }
    }

    /// Sets the stock to a count.
    #[tracing::instrument(skip(self, actor))]
    pub async fn set_stock(
        &self,
        id: ProductId,
        count: u32,
        actor: &Actor,
    ) -> Result<Product, AdminError> {
        let stored = self.repository.set_stock(id, Stock::Finite(count), actor);
        Ok(self.told(stored.await).await?)
    }

    /// Adds or takes away units, never below zero.
    #[tracing::instrument(skip(self, actor))]
    pub async fn change_stock(
        &self,
        id: ProductId,
        change: StockChange,
        actor: &Actor,
    ) -> Result<Product, AdminError> {
        Ok(self
            .told(self.repository.change_stock(id, change, actor).await)
            .await?)
    }

    /// Parses the form, checks the bundle's components and prepares the picture, reporting
    /// every problem at once.
    async fn check(
        &self,
        current: Option<&Product>,
        form: &ProductForm,
        upload: Option<Vec<u8>>,
    ) -> Result<(ProductFields, Option<PreparedImage>), AdminError> {
        let parsed = form.parse();
        let mut errors = match &parsed {
            Ok(fields) => self.check_components(current, &fields.related_ids).await?,
            Err(InvalidProduct(errors)) => errors.clone(),
        };
        let picture = match upload {
            Some(bytes) => match self.images.prepare(bytes).await {
                Ok(picture) => Some(picture),
                Err(rejected) => {
                    errors.push(FieldError::new("image", rejected.to_string()));
                    None
                }
            },
            None => None,
        };
        match parsed {
            Ok(fields) if errors.is_empty() => Ok((fields, picture)),
            _ => Err(AdminError::Invalid(InvalidProduct(errors))),
        }
    }

    /// A bundle's components must exist, be on sale, not be the bundle itself and not be
    /// bundles themselves; and a product inside a bundle cannot become a bundle.
    async fn check_components(
        &self,
        current: Option<&Product>,
        related: &[ProductId],
    ) -> Result<Vec<FieldError>, AdminError> {
        let mut errors = Vec::new();
        if related.is_empty() {
            return Ok(errors);
        }
        let field = "related_ids";
        if let Some(product) = current {
            if related.contains(&product.id) {
                errors.push(FieldError::new(field, "A bundle cannot contain itself."));
            }
            let containing = self.repository.bundles_containing(product.id).await?;
            if let Some(bundle) = containing.first() {
                errors.push(FieldError::new(
                    field,
                    format!(
                        "This product is part of bundle {bundle}, so it cannot be a bundle itself."
                    ),
                ));
            }
        }
        for id in related {
            if current.is_some_and(|p| p.id == *id) {
                continue;
            }
            match self.repository.product(*id).await {
                Ok(component) if component.archived => errors.push(FieldError::new(
                    field,
                    format!("Product {id} ({}) is archived.", component.name),
                )),
                Ok(component) if component.is_bundle() => errors.push(FieldError::new(
                    field,
                    format!(
                        "Product {id} ({}) is a bundle; a bundle cannot contain bundles.",
                        component.name
                    ),
                )),
                Ok(_) => {}
                Err(CatalogError::NotFound(_)) => errors.push(FieldError::new(
                    field,
                    format!("Product {id} does not exist."),
                )),
                Err(error) => return Err(error.into()),
            }
        }
        Ok(errors)
    }

    /// Removes pictures no product uses; a failure is logged, never shown (the write itself is
    /// done or refused already). Call with `picture_writes` held.
    async fn remove_unused_pictures(&self) {
        let in_use = match self.repository.image_paths_in_use().await {
            Ok(paths) => paths,
            Err(error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "could not list product images in use"
                );
                return;
            }
        };
        match self.images.remove_unused(in_use, self.clock.now()).await {
            Ok(removed) => tracing::debug!(removed, "removed unused product images"),
            Err(error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "could not remove unused product images"
                )
            }
        }
    }
}

/// The stored values from the form's; what an update's form left out comes from `current`.
fn draft(fields: ProductFields, image: Option<String>, current: Option<&Product>) -> ProductDraft {
    ProductDraft {
        release_at: fields
            .release_at
            .applied_to(current.and_then(|p| p.release_at)),
        max_per_account: fields
            .max_per_account
            .applied_to(current.and_then(|p| p.max_per_account)),
        name: fields.name,
        description: fields.description,
        price: fields.price,
        category: fields.category,
        image,
        stock: fields.stock,
        weight: fields.weight,
        mutation: fields.mutation,
        savings: fields.savings,
        sort_order: fields.sort_order,
        delete_after_out_of_stock: fields.delete_after_out_of_stock,
        related_ids: fields.related_ids,
        dupe_warning: fields.dupe_warning,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::fixtures;
    use shared::clock::SystemClock;
    use shared::MockImageStore as MockProductImages;

    // One mock for both ports of the store.
    mockall::mock! {
        Store {}
        impl ProductRepository for Store {
            fn all_products(&self) -> impl Future<Output = Result<Vec<Product>, CatalogError>> + Send;
            fn product(&self, id: ProductId) -> impl Future<Output = Result<Product, CatalogError>> + Send;
            fn count_products(&self) -> impl Future<Output = Result<u64, CatalogError>> + Send;
            fn insert_with_ids(&self, products: Vec<(ProductId, ProductDraft)>) -> impl Future<Output = Result<(), CatalogError>> + Send;
        }
        impl ProductWrites for Store {
            fn create(&self, draft: ProductDraft, actor: &Actor) -> impl Future<Output = Result<Product, CatalogError>> + Send;
            fn update(&self, id: ProductId, draft: ProductDraft, refuse_if_held: bool, actor: &Actor) -> impl Future<Output = Result<Product, CatalogError>> + Send;
            fn remove(&self, id: ProductId, actor: &Actor) -> impl Future<Output = Result<Removal, CatalogError>> + Send;
            fn reorder(&self, positions: Vec<(ProductId, i32)>, actor: &Actor) -> impl Future<Output = Result<(), CatalogError>> + Send;
            fn set_stock(&self, id: ProductId, stock: Stock, actor: &Actor) -> impl Future<Output = Result<Product, CatalogError>> + Send;
            fn change_stock(&self, id: ProductId, change: StockChange, actor: &Actor) -> impl Future<Output = Result<Product, CatalogError>> + Send;
            fn bundles_containing(&self, id: ProductId) -> impl Future<Output = Result<Vec<ProductId>, CatalogError>> + Send;
            fn image_paths_in_use(&self) -> impl Future<Output = Result<Vec<String>, CatalogError>> + Send;
        }
    }

    fn form(related: &[&str]) -> ProductForm {
        ProductForm {
            name: Some("Owl".into()),
            price: Some("4.99".into()),
            category: Some("Pets".into()),
            stock: Some("3".into()),
            related_ids: related.iter().map(|s| (*s).to_owned()).collect(),
            ..ProductForm::default()
        }
    }

    fn bundle(id: i64, components: &[i64]) -> Product {
        Product {
            related_ids: components.iter().copied().map(ProductId::new).collect(),
            ..fixtures::product(id, "5.00")
        }
    }

    /// A store whose products are `known`; `create` answers the draft as product 100.
    fn store_with(known: Vec<Product>) -> MockStore {
        let mut store = MockStore::new();
        store.expect_product().returning(move |id| {
            let found = known.iter().find(|p| p.id == id).cloned();
            Box::pin(async move { found.ok_or(CatalogError::NotFound(id)) })
        });
        store
            .expect_bundles_containing()
            .returning(|_| Box::pin(async { Ok(vec![]) }));
        store
    }

    fn stored(id: i64, draft: &ProductDraft) -> Product {
        Product {
            id: ProductId::new(id),
            name: draft.name.clone(),
            image: draft.image.clone(),
            related_ids: draft.related_ids.clone(),
            stock: draft.stock,
            ..fixtures::product(id, "4.99")
        }
    }

    fn images(
        saved: Arc<Mutex<Vec<String>>>,
        removed: Arc<Mutex<Vec<Vec<String>>>>,
    ) -> MockProductImages {
        let mut images = MockProductImages::new();
        images.expect_prepare().returning(|bytes| {
            Box::pin(async move {
                if bytes.starts_with(b"PNG") {
                    Ok(PreparedImage::new(bytes))
                } else {
                    Err(ImageRejected::UnsupportedFormat)
                }
            })
        });
        images.expect_save().returning(move |image| {
            let path = format!("/media/products/{}.png", image.bytes().len());
            saved.lock().unwrap().push(path.clone());
            Box::pin(async move { Ok(path) })
        });
        images.expect_remove_unused().returning(move |in_use, _| {
            removed.lock().unwrap().push(in_use);
            Box::pin(async { Ok(1) })
        });
        images
    }

    fn messages(error: AdminError) -> Vec<(&'static str, String)> {
        match error {
            AdminError::Invalid(InvalidProduct(errors)) => {
                errors.into_iter().map(|e| (e.field, e.message)).collect()
            }
            other => panic!("expected a 422, got {other:?}"),
        }
    }

    /// The super_admin acting in these tests.
    fn ada() -> Actor {
        Actor::staff(shared::UserId::new(1), "Ada", "203.0.113.7")
    }

    fn no_pictures() -> MockProductImages {
        images(Arc::default(), Arc::default())
    }

    #[tokio::test]
    async fn create_saves_the_picture_then_the_product_with_its_stock() {
        let saved = Arc::new(Mutex::new(vec![]));
        let mut store = store_with(vec![]);
        store
            .expect_create()
            .withf(|d, actor| {
                d.image.as_deref() == Some("/media/products/6.png")
                    && d.stock == Stock::Finite(3)
                    && *actor == ada()
            })
            .returning(|d, _| {
                let p = stored(100, &d);
                Box::pin(async move { Ok(p) })
            });
        let admin = CatalogAdmin::new(store, images(saved.clone(), Arc::default()), SystemClock);
        let product = admin
            .create(form(&[]), Some(b"PNG123".to_vec()), &ada())
            .await
            .unwrap();
        assert_eq!(product.id, ProductId::new(100));
        assert_eq!(saved.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_refused_picture_and_bad_fields_are_reported_together_and_nothing_is_saved() {
        let saved = Arc::new(Mutex::new(vec![]));
        let mut store = store_with(vec![]);
        store.expect_create().never();
        let admin = CatalogAdmin::new(store, images(saved.clone(), Arc::default()), SystemClock);
        let bad = ProductForm {
            price: Some("free".into()),
            ..form(&[])
        };
        let errors = messages(
            admin
                .create(bad, Some(b"hello".to_vec()), &ada())
                .await
                .unwrap_err(),
        );
        let fields: Vec<&str> = errors.iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, vec!["price", "image"]);
        assert_eq!(
            errors[1].1,
            "The image must be a PNG, JPEG, WebP or GIF file."
        );
        assert!(saved.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn components_must_exist_be_on_sale_and_not_be_bundles() {
        let archived = Product {
            archived: true,
            ..fixtures::product(2, "1.00")
        };
        let mut store = store_with(vec![
            fixtures::product(1, "1.00"),
            archived,
            bundle(3, &[1]),
        ]);
        store.expect_create().never();
        let admin = CatalogAdmin::new(store, no_pictures(), SystemClock);
        let errors = messages(
            admin
                .create(form(&["1", "2", "3", "99"]), None, &ada())
                .await
                .unwrap_err(),
        );
        let texts: Vec<&str> = errors.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "Product 2 (Product 2) is archived.",
                "Product 3 (Product 3) is a bundle; a bundle cannot contain bundles.",
                "Product 99 does not exist.",
            ]
        );
        assert!(errors.iter().all(|(f, _)| *f == "related_ids"));
    }

    #[tokio::test]
    async fn a_bundle_cannot_contain_itself_nor_can_a_component_become_a_bundle() {
        let mut store = MockStore::new();
        let owl = fixtures::product(5, "1.00");
        let other = fixtures::product(6, "1.00");
        store.expect_product().returning(move |id| {
            let found = [owl.clone(), other.clone()]
                .into_iter()
                .find(|p| p.id == id);
            Box::pin(async move { found.ok_or(CatalogError::NotFound(id)) })
        });
        store
            .expect_bundles_containing()
            .returning(|_| Box::pin(async { Ok(vec![ProductId::new(9)]) }));
        store.expect_update().never();
        let admin = CatalogAdmin::new(store, no_pictures(), SystemClock);
        let errors = messages(
            admin
                .update(ProductId::new(5), form(&["5", "6"]), None, &ada())
                .await
                .unwrap_err(),
        );
        assert_eq!(
            errors.iter().map(|(_, m)| m.as_str()).collect::<Vec<_>>(),
            vec![
                "A bundle cannot contain itself.",
                "This product is part of bundle 9, so it cannot be a bundle itself.",
            ]
        );
    }

    #[tokio::test]
    async fn update_keeps_the_old_picture_without_a_new_one_and_removes_nothing() {
        let removed = Arc::new(Mutex::new(vec![]));
        let current = Product {
            image: Some("/media/products/old.png".into()),
            ..fixtures::product(5, "1.00")
        };
        let mut store = store_with(vec![current]);
        store
            .expect_update()
            .withf(|_, d, _, _| d.image.as_deref() == Some("/media/products/old.png"))
            .returning(|id, d, _, _| {
                let p = stored(id.get(), &d);
                Box::pin(async move { Ok(p) })
            });
        let admin = CatalogAdmin::new(store, images(Arc::default(), removed.clone()), SystemClock);
        let product = admin
            .update(ProductId::new(5), form(&[]), None, &ada())
            .await
            .unwrap();
        assert_eq!(product.image.as_deref(), Some("/media/products/old.png"));
        assert!(removed.lock().unwrap().is_empty());
    }

    fn at(text: &str) -> chrono::DateTime<chrono::Utc> {
        chrono::DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&chrono::Utc)
    }

    /// An admin over a store holding a drop released at 03:00, at 03:10; the store's update
    /// answers what `held` says when asked to refuse.
    fn drop_admin(held: bool) -> CatalogAdmin<MockStore, MockProductImages> {
        let current = Product {
            release_at: Some(at("2026-11-27T03:00:00Z")),
            max_per_account: Some(1),
            ..fixtures::product(5, "1.00")
        };
        let mut store = store_with(vec![current]);
        store
            .expect_update()
            .returning(move |id, d, refuse_if_held, _| {
                let p = Product {
                    release_at: d.release_at,
                    max_per_account: d.max_per_account,
                    ..stored(id.get(), &d)
                };
                Box::pin(async move {
                    if refuse_if_held && held {
                        Err(CatalogError::DropHeld(id))
                    } else {
                        Ok(p)
                    }
                })
            });
        CatalogAdmin::new(
            store,
            no_pictures(),
            shared::FixedClock(at("2026-11-27T03:10:00Z")),
        )
    }

    #[tokio::test]
    async fn a_held_drop_cannot_move_its_release_to_the_future_but_may_move_it_sooner() {
        let later = ProductForm {
            release_at: Some("2026-11-27T04:00:00Z".into()),
            ..form(&[])
        };
        let refused = drop_admin(true)
            .update(ProductId::new(5), later.clone(), None, &ada())
            .await
            .unwrap_err();
        assert!(matches!(refused, AdminError::DropHeld(_)), "{refused:?}");
        // without orders holding units it moves
        let moved = drop_admin(false)
            .update(ProductId::new(5), later, None, &ada())
            .await
            .unwrap();
        assert_eq!(moved.release_at, Some(at("2026-11-27T04:00:00Z")));
        // to a time already past, or cleared: never refused
        for (text, expected) in [
            ("2026-11-27T03:05:00Z", Some(at("2026-11-27T03:05:00Z"))),
            ("", None),
        ] {
            let form = ProductForm {
                release_at: Some(text.into()),
                ..form(&[])
            };
            let product = drop_admin(true)
                .update(ProductId::new(5), form, None, &ada())
                .await
                .unwrap();
            assert_eq!(product.release_at, expected);
        }
        // a form without the fields keeps both
        let kept = drop_admin(true)
            .update(ProductId::new(5), form(&[]), None, &ada())
            .await
            .unwrap();
        assert_eq!(kept.release_at, Some(at("2026-11-27T03:00:00Z")));
        assert_eq!(kept.max_per_account, Some(1));
    }

    #[tokio::test]
    async fn a_new_picture_replaces_the_old_one_which_is_then_cleaned_up() {
        let removed = Arc::new(Mutex::new(vec![]));
        let current = Product {
            image: Some("/media/products/old.png".into()),
            ..fixtures::product(5, "1.00")
        };
        let mut store = store_with(vec![current]);
        store.expect_update().returning(|id, d, _, _| {
            let p = stored(id.get(), &d);
            Box::pin(async move { Ok(p) })
        });
        store
            .expect_image_paths_in_use()
            .returning(|| Box::pin(async { Ok(vec!["/media/products/4.png".to_owned()]) }));
        let admin = CatalogAdmin::new(store, images(Arc::default(), removed.clone()), SystemClock);
        let product = admin
            .update(ProductId::new(5), form(&[]), Some(b"PNG!".to_vec()), &ada())
            .await
            .unwrap();
        assert_eq!(product.image.as_deref(), Some("/media/products/4.png"));
        assert_eq!(
            *removed.lock().unwrap(),
            vec![vec!["/media/products/4.png".to_owned()]]
        );
    }

    #[tokio::test]
    async fn a_failed_create_removes_the_picture_it_saved() {
        let removed = Arc::new(Mutex::new(vec![]));
        let mut store = store_with(vec![]);
        store.expect_create().returning(|_, _| {
            Box::pin(async { Err(CatalogError::Unknown(anyhow::anyhow!("disk full"))) })
        });
        store
            .expect_image_paths_in_use()
            .returning(|| Box::pin(async { Ok(vec![]) }));
        let admin = CatalogAdmin::new(store, images(Arc::default(), removed.clone()), SystemClock);
        let result = admin.create(form(&[]), Some(b"PNG".to_vec()), &ada()).await;
        assert!(matches!(result, Err(AdminError::Unknown(_))));
        assert_eq!(*removed.lock().unwrap(), vec![Vec::<String>::new()]);
    }

    #[tokio::test]
    async fn deleting_cleans_up_pictures_but_archiving_keeps_them() {
        let removed = Arc::new(Mutex::new(vec![]));
        let mut store = MockStore::new();
        store.expect_remove().returning(|id, _| {
            Box::pin(async move {
                Ok(if id.get() == 1 {
                    Removal::Deleted
                } else {
                    Removal::Archived
                })
            })
        });
        store
            .expect_image_paths_in_use()
            .times(1)
            .returning(|| Box::pin(async { Ok(vec![]) }));
        let admin = CatalogAdmin::new(store, images(Arc::default(), removed.clone()), SystemClock);
        assert_eq!(
            admin.remove(ProductId::new(1), &ada()).await.unwrap(),
            Removal::Deleted
        );
        assert_eq!(
            admin.remove(ProductId::new(2), &ada()).await.unwrap(),
            Removal::Archived
        );
        assert_eq!(removed.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn reorder_refuses_duplicates_and_unknown_ids_as_422() {
        let mut store = MockStore::new();
        store.expect_reorder().returning(|positions, _| {
            Box::pin(async move {
                match positions.iter().find(|(id, _)| id.get() == 99) {
                    Some((id, _)) => Err(CatalogError::NotFound(*id)),
                    None => Ok(()),
                }
            })
        });
        let admin = CatalogAdmin::new(store, no_pictures(), SystemClock);
        let twice = vec![(ProductId::new(1), 0), (ProductId::new(1), 1)];
        assert_eq!(
            messages(admin.reorder(twice, &ada()).await.unwrap_err()),
            vec![("updates", "Product 1 is listed more than once.".to_owned())]
        );
        let unknown = vec![(ProductId::new(1), 0), (ProductId::new(99), 1)];
        assert_eq!(
            messages(admin.reorder(unknown, &ada()).await.unwrap_err()),
            vec![("updates", "Product 99 does not exist.".to_owned())]
        );
        admin
            .reorder(vec![(ProductId::new(1), 0)], &ada())
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn the_admin_list_includes_archived_products_in_storefront_order_and_bundle_ids() {
        let mut store = MockStore::new();
        store.expect_all_products().returning(|| {
            Box::pin(async {
                Ok(vec![
                    fixtures::product(1, "9.00"),
                    Product {
                        archived: true,
                        ..fixtures::product(2, "1.00")
                    },
                    bundle(3, &[1]),
                ])
            })
        });
        let admin = CatalogAdmin::new(store, no_pictures(), SystemClock);
        let ids: Vec<i64> = admin
            .products()
            .await
            .unwrap()
            .iter()
            .map(|p| p.id.get())
            .collect();
        assert_eq!(ids, vec![2, 3, 1]);
        assert_eq!(admin.bundle_ids().await.unwrap(), vec![ProductId::new(3)]);
    }

    #[tokio::test]
    async fn stock_writes_carry_the_actor_to_the_store() {
        let mut store = MockStore::new();
        store
            .expect_set_stock()
            .withf(|id, stock, actor| {
                id.get() == 4 && *stock == Stock::Finite(12) && *actor == ada()
            })
            .times(1)
            .returning(|id, stock, _| {
                let p = Product {
                    stock,
                    ..fixtures::product(id.get(), "1.00")
                };
                Box::pin(async move { Ok(p) })
            });
        store
            .expect_change_stock()
            .withf(|_, change, actor| *change == StockChange::Minus(2) && *actor == ada())
            .times(1)
            .returning(|id, _, _| Box::pin(async move { Err(CatalogError::NotFound(id)) }));
        let admin = CatalogAdmin::new(store, no_pictures(), SystemClock);
        let set = admin
            .set_stock(ProductId::new(4), 12, &ada())
            .await
            .unwrap();
        assert_eq!(set.stock, Stock::Finite(12));
        assert!(matches!(
            admin
                .change_stock(ProductId::new(4), StockChange::Minus(2), &ada())
                .await,
            Err(AdminError::NotFound(_))
        ));
    }
}
