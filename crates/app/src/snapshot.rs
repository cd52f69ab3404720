use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use actix_web::{http::header::HeaderValue, web::Bytes};
use catalog::{CatalogError, CatalogService, Product, ProductId};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use shared::Clock;

use crate::events::ShopEvents;
use dto::ProductResponse;

/// The storefront's reads of the catalog, defined here (and named by `services`) so the
/// snapshot stays below the services whose changes it hears (`notices`).
pub type ShopCatalog = catalog::Catalog<store::Store>;

/// The storefront's product list, serialised once per change, so the 5-second polling of every
/// open tab is answered from memory (and mostly with 304).
#[derive(Debug, Clone)]
pub struct ProductList {
    /// A strong validator of the identity body: the quoted hash of the body.
    pub etag: String,
    /// The same list in each content coding the server offers, compressed once per change,
    /// each with its own strong validator (a validator names one representation).
    pub encoded: [Encoded; 3],
    /// The products the body was made from (the help chat's assistant answers from them).
    pub products: Arc<Vec<Product>>,
    /// The time its `released` flags were judged at.
    pub made_at: DateTime<Utc>,
}

/// One representation of the list: its content coding, bytes and strong ETag, with the header
/// values made once so an answer copies no string.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub coding: Coding,
    pub body: Bytes,
    pub etag: HeaderValue,
}

/// The content codings the list is kept in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Identity,
    Gzip,
    Brotli,
}

impl Coding {
    /// The `Content-Encoding` token (and `Accept-Encoding` name).
    pub fn token(self) -> &'static str {
        match self {
            Coding::Identity => "identity",
            Coding::Gzip => "gzip",
            Coding::Brotli => "br",
        }
    }

    fn index(self) -> usize {
        match self {
            Coding::Identity => 0,
            Coding::Gzip => 1,
            Coding::Brotli => 2,
        }
    }
}

impl ProductList {
    fn new(
        body: Vec<u8>,
        products: Vec<Product>,
        made_at: DateTime<Utc>,
    ) -> Result<Self, CatalogError> {
        let etag = etag_of(&body);
        let hash = etag.trim_matches('"').to_owned();
        let gzip = gzip(&body)?;
        let br = brotli(&body)?;
        let body = Bytes::from(body);
        let representation = |coding: Coding, body: Bytes| -> Result<Encoded, CatalogError> {
            let tag = match coding {
                Coding::Identity => etag.clone(),
                other => format!("\"{hash}-{}\"", other.token()),
            };
            let etag = HeaderValue::from_str(&tag).map_err(|e| {
                CatalogError::Unknown(anyhow::Error::new(e).context("an ETag that is no header"))
            })?;
            Ok(Encoded { coding, body, etag })
        };
        Ok(ProductList {
            encoded: [
                representation(Coding::Identity, body)?,
                representation(Coding::Gzip, Bytes::from(gzip))?,
                representation(Coding::Brotli, Bytes::from(br))?,
            ],
            etag,
            products: Arc::new(products),
            made_at,
        })
    }

    /// The representation in `coding`.
    pub fn in_coding(&self, coding: Coding) -> &Encoded {
        &self.encoded[coding.index()]
    }
}

fn compression_failed(error: std::io::Error) -> CatalogError {
    CatalogError::Unknown(anyhow::Error::new(error).context("failed to compress the products"))
}

fn gzip(body: &[u8]) -> Result<Vec<u8>, CatalogError> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::best(),
    );
    encoder.write_all(body).map_err(compression_failed)?;
    encoder.finish().map_err(compression_failed)
}

fn brotli(body: &[u8]) -> Result<Vec<u8>, CatalogError> {
    let mut out = Vec::with_capacity(body.len() / 4);
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: brotli_window_bits(body.len()),
        size_hint: body.len(),
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).map_err(compression_failed)?;
    Ok(out)
}

/// The smallest brotli window that still holds the whole body (what brotli's own one-shot
/// encoder picks when it knows the input's size), so the output is the same as with a larger
/// one. Quality 11 sizes its match finder by the window: brotli's default 22 bits allocate
/// ~33 MiB (and clear it) to compress a list of a few KB.
fn brotli_window_bits(len: usize) -> i32 {
    const MIN: i32 = 10;
    const MAX: i32 = 24;
    let mut bits = MIN;
    // A window of `bits` reaches back (1 << bits) - 16 bytes.
    while bits < MAX && (1usize << bits) - 16 < len {
        bits += 1;
    }
    bits
}

#[derive(Debug, Clone)]
pub struct ProductSnapshot {
    current: Arc<RwLock<Arc<ProductList>>>,
    /// Held from the read of the catalog to the install of its list, so refreshes happen one at
    /// a time and an older read can never replace a newer one. It guards the number of the last
    /// refresh request the installed list covers.
    refreshing: Arc<tokio::sync::Mutex<u64>>,
    /// Refresh requests so far; each caller takes the next number once its write is done.
    requested: Arc<AtomicU64>,
    /// Moves on every finished read of the catalog (changed or not).
    generation: Arc<AtomicU64>,
    /// Products as checkout last read them from the database after a refused sale, and the
    /// generation they were read in: checkout's hint goes by them until the next read.
    learned: Arc<Mutex<Learned>>,
    /// The shop's clock: whether each drop is `released` in the list.
    clock: ShopClock,
}

/// The clock the snapshot judges releases by.
#[derive(Clone)]
struct ShopClock(Arc<dyn Clock>);

impl std::fmt::Debug for ShopClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShopClock")
    }
}

impl ShopClock {
    fn now(&self) -> DateTime<Utc> {
        self.0.now()
    }
}

#[derive(Debug, Default)]
struct Learned {
    generation: u64,
    products: HashMap<ProductId, Product>,
}

impl ProductSnapshot {
    pub async fn load(
        catalog: &impl CatalogService,
        clock: impl Clock,
    ) -> Result<Self, CatalogError> {
        let clock = ShopClock(Arc::new(clock));
        let now = clock.now();
        let (body, products) = Self::read(catalog, now).await?;
        let list = Self::encode(body, products, now).await?;
        Ok(ProductSnapshot {
            clock,
            current: Arc::new(RwLock::new(Arc::new(list))),
            refreshing: Arc::new(tokio::sync::Mutex::new(0)),
            requested: Arc::new(AtomicU64::new(0)),
            generation: Arc::new(AtomicU64::new(0)),
            learned: Arc::new(Mutex::new(Learned::default())),
        })
    }

    pub fn current(&self) -> Arc<ProductList> {
        match self.current.read() {
            Ok(guard) => Arc::clone(&guard),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Re-reads the catalog; call after every product write. Returns whether this call changed
    /// the list. An unchanged list is not compressed again.
    ///
    /// Calls that arrive while a refresh runs share the next one: a read that starts after a
    /// caller took its number sees that caller's write, so ten sales in a rush cost one or two
    /// reads and compressions instead of ten in a row (a caller whose number a finished read
    /// already covers returns at once, `false`: that read's caller published the change).
    pub async fn refresh(&self, catalog: &impl CatalogService) -> Result<bool, CatalogError> {
        let ticket = self.requested.fetch_add(1, Ordering::SeqCst) + 1;
        let mut covered = self.refreshing.lock().await;
        if *covered >= ticket {
            return Ok(false);
        }
        // every number taken before this read starts is covered by it
        let upto = self.requested.load(Ordering::SeqCst);
        let now = self.clock.now();
        let (body, products) = Self::read(catalog, now).await?;
        self.generation.fetch_add(1, Ordering::SeqCst);
        if self.current().etag == etag_of(&body) {
            *covered = upto;
            return Ok(false);
        }
        let fresh = Self::encode(body, products, now).await?;
        let mut guard = match self.current.write() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        *guard = Arc::new(fresh);
        *covered = upto;
        Ok(true)
    }

    /// The products with these ids and the components of the bundles among them, as the list
    /// shows them, or as checkout learned them since the list's last read.
    pub fn hint_products(&self, ids: &[ProductId]) -> Vec<Product> {
        let list = self.current();
        let learned = self.lock_learned();
        let fresh = learned.generation == self.generation.load(Ordering::SeqCst);
        let seen = |product: &Product| {
            fresh
                .then(|| learned.products.get(&product.id))
                .flatten()
                .unwrap_or(product)
                .clone()
        };
        let wanted: Vec<Product> = list
            .products
            .iter()
            .filter(|product| ids.contains(&product.id))
            .map(seen)
            .collect();
        let components: Vec<ProductId> = wanted
            .iter()
            .flat_map(|product| product.related_ids.iter().copied())
            .filter(|id| !ids.contains(id))
            .collect();
        let mut products = wanted;
        products.extend(
            list.products
                .iter()
                .filter(|product| components.contains(&product.id))
                .map(seen),
        );
        products
    }

    /// Drops what checkout learned: the list is known to be the truth again.
    pub fn forget_learned(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    /// Where the hint stands (see [`orders::StockHint::version`]).
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// Checkout read `products` from the database after the list stood at `generation`.
    pub fn learn(&self, generation: u64, products: &[Product]) {
        let mut learned = self.lock_learned();
        if self.generation.load(Ordering::SeqCst) != generation {
            return;
        }
        if learned.generation != generation {
            *learned = Learned {
                generation,
                products: HashMap::new(),
            };
        }
        for product in products {
            learned.products.insert(product.id, product.clone());
        }
    }

    fn lock_learned(&self) -> std::sync::MutexGuard<'_, Learned> {
        match self.learned.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// The next release after `now` among the listed drops, if any.
    pub fn next_release(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.current()
            .products
            .iter()
            .filter_map(|product| product.release_at)
            .filter(|at| *at > now)
            .min()
    }

    /// Whether a listed drop's release came after the list was made and by `now`: the list
    /// still shows it as not released.
    pub fn release_due(&self, now: DateTime<Utc>) -> bool {
        let list = self.current();
        list.products
            .iter()
            .filter_map(|product| product.release_at)
            .any(|at| at > list.made_at && at <= now)
    }

    /// The shop's clock, which decides `released`.
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    async fn read(
        catalog: &impl CatalogService,
        now: DateTime<Utc>,
    ) -> Result<(Vec<u8>, Vec<Product>), CatalogError> {
        let products = catalog.storefront().await?;
        let dtos: Vec<ProductResponse> = products
            .iter()
            .map(|product| ProductResponse::at(product, now))
            .collect();
        let body = serde_json::to_vec(&dtos).map_err(|e| {
            CatalogError::Unknown(anyhow::Error::new(e).context("failed to serialise the products"))
        })?;
        Ok((body, products))
    }

    /// Compressing an 11 KB list at the best levels takes milliseconds: off the async workers.
    async fn encode(
        body: Vec<u8>,
        products: Vec<Product>,
        made_at: DateTime<Utc>,
    ) -> Result<ProductList, CatalogError> {
        tokio::task::spawn_blocking(move || ProductList::new(body, products, made_at))
            .await
            .map_err(|e| {
                CatalogError::Unknown(anyhow::Error::new(e).context("the compression task failed"))
            })?
    }
}

/// The quoted hash of a list body: its strong validator.
fn etag_of(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    format!("\"{}\"", hex::encode(&digest[..16]))
}

/// The one hook after any change to what the storefront lists: a reservation, a release, a
/// sale, an admin's edit of stock or of a product. It re-reads the catalog into the snapshot,
/// so the storefront never shows stock that is gone, and publishes the change (server push):
/// every instance refreshes its own snapshot when it hears it, and open storefronts refetch.
#[derive(Debug, Clone)]
pub struct StockChanged {
    snapshot: ProductSnapshot,
    catalog: ShopCatalog,
    events: ShopEvents,
    announcer: Arc<Announcer>,
}

/// Publishes `products` at once after a quiet spell, then at most once per `every` across the
/// instances: the spell runs from the last `products` event this instance published or heard
/// (every instance hears every event), one publication runs or waits at a time per instance,
/// and a change meanwhile is carried by it, unless an event heard meanwhile carried this
/// instance's list already. So the last change of a rush is always published, with the list
/// as it is then, and a rush of sales on three instances is about one event per spell.
#[derive(Debug)]
struct Announcer {
    every: std::time::Duration,
    /// A publication is running or waiting out its spell.
    running: std::sync::atomic::AtomicBool,
    /// The list changed since the last publication that carried it.
    dirty: std::sync::atomic::AtomicBool,
    /// When the last `products` event was published here or heard from any instance.
    last: Mutex<Option<tokio::time::Instant>>,
}

impl Announcer {
    fn last(&self) -> Option<tokio::time::Instant> {
        *self
            .last
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn mark(&self) {
        *self
            .last
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(tokio::time::Instant::now());
    }
}

impl StockChanged {
    pub fn new(
        snapshot: ProductSnapshot,
        catalog: ShopCatalog,
        events: ShopEvents,
        products_every: std::time::Duration,
    ) -> Self {
        StockChanged {
            snapshot,
            catalog,
            events,
            announcer: Arc::new(Announcer {
                every: products_every,
                running: std::sync::atomic::AtomicBool::new(false),
                dirty: std::sync::atomic::AtomicBool::new(false),
                last: Mutex::new(None),
            }),
        }
    }

    /// Tells every instance and open storefront that the list changed, without waiting: at
    /// once after a quiet spell, else at the end of the running publication's spell. With no
    /// spell (`events.products_every_ms` 0) every change is published before this returns.
    async fn announce(&self) {
        let announcer = &self.announcer;
        if announcer.every.is_zero() {
            let version = self.snapshot.current().etag.clone();
            self.events.products_changed(&version).await;
            return;
        }
        announcer.dirty.store(true, Ordering::SeqCst);
        if announcer.running.swap(true, Ordering::SeqCst) {
            return;
        }
        let this = self.clone();
        tokio::spawn(async move {
            let announcer = &this.announcer;
            loop {
                // the spell since the last event, this instance's or another's
                if let Some(until) = announcer.last().map(|last| last + announcer.every) {
                    if tokio::time::Instant::now() < until {
                        tokio::time::sleep_until(until).await;
                        continue;
                    }
                }
                if announcer.dirty.swap(false, Ordering::SeqCst) {
                    let version = this.snapshot.current().etag.clone();
                    announcer.mark();
                    this.events.products_changed(&version).await;
                    continue;
                }
                announcer.running.store(false, Ordering::SeqCst);
                // a change that came between the look and the store: take it up again, unless
                // its own call already started a publication
                if !announcer.dirty.load(Ordering::SeqCst)
                    || announcer.running.swap(true, Ordering::SeqCst)
                {
                    return;
                }
            }
        });
    }

    /// Refreshes the snapshot now and, when the list changed, tells every instance and open
    /// storefront. A failure is logged, never turned into a failed write: the periodic refresh
    /// catches up.
    pub async fn on_stock_changed(&self) {
        if let Err(error) = self.refresh().await {
            tracing::warn!(error = ?error, "could not refresh the product snapshot after a stock change");
        }
    }

    /// An instance (this one too) published the list as `version`: refreshes unless this
    /// snapshot is there; the spell of the next publication starts now, and a change of this
    /// instance's that the event carried need not be published again. A list this call's own
    /// read installed, other than `version`, is published (it may hold a write of this
    /// instance's whose own refresh it covered, see [`Self::refresh`]).
    pub async fn heard(&self, version: &str) {
        self.announcer.mark();
        if self.snapshot.current().etag == version {
            // the catalog is what this list shows: what checkout learned before is older
            self.snapshot.forget_learned();
            self.announcer.dirty.store(false, Ordering::SeqCst);
            // a list installed (and its publication asked for) since the look above is not
            // the one the event carried: it is published after all
            if self.snapshot.current().etag != version {
                self.announce_later();
            }
            return;
        }
        match self.snapshot.refresh(&self.catalog).await {
            Ok(changed) => {
                if self.snapshot.current().etag == version {
                    self.announcer.dirty.store(false, Ordering::SeqCst);
                } else if changed {
                    self.announce_later();
                }
            }
            Err(error) => {
                tracing::warn!(error = ?error, "could not refresh the product snapshot after an event");
            }
        }
    }

    /// [`Self::announce`] from a task of its own: `heard` runs while an event is passed on
    /// (in process, under the event bus's ordering lock, which a publication takes too).
    fn announce_later(&self) {
        let this = self.clone();
        tokio::spawn(async move { this.announce().await });
    }

    /// The next release after `now` among the listed drops, if any.
    pub fn next_release(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.snapshot.next_release(now)
    }

    /// Whether a listed drop's release has come but the list does not show it yet.
    pub fn release_due(&self, now: DateTime<Utc>) -> bool {
        self.snapshot.release_due(now)
    }

    /// The shop's clock.
    pub fn now(&self) -> DateTime<Utc> {
        self.snapshot.now()
    }

    /// A drop's release has come: the list shows it on sale, and the instance that claims the
    /// release's announcement (`claim`: how many releases it claimed) tells every instance and
    /// open storefront, once, whatever the number of instances that wake for it.
    pub async fn release<F>(&self, claim: F) -> Result<(), CatalogError>
    where
        F: std::future::Future<Output = anyhow::Result<u64>>,
    {
        self.snapshot.refresh(&self.catalog).await?;
        let claimed = claim.await.map_err(CatalogError::Unknown)?;
        if claimed > 0 {
            tracing::info!(claimed, "drop released");
            self.announce().await;
        }
        Ok(())
    }

    /// Re-reads the catalog and, when the list changed, tells every instance and open
    /// storefront; returns whether the list changed. Whoever's read installs a change publishes
    /// it: a write's refresh that a concurrent read already covered (the periodic refresh's,
    /// an event's) returns `false` and publishes nothing, so that read must. Unpublished, a
    /// page made before the install (its bootstrap's list older, its `events` number newer
    /// than the change) and every open storefront (which polls only while its stream is down)
    /// would keep the old list until some later change.
    pub async fn refresh(&self) -> Result<bool, CatalogError> {
        let changed = self.snapshot.refresh(&self.catalog).await?;
        if changed {
            self.announce().await;
        }
        Ok(changed)
    }
}

/// Checkout asks the snapshot first: what the storefront shows as sold out is refused without
/// a database round trip (the database still decides every sale).
impl orders::StockHint for StockChanged {
    fn products(&self, ids: &[ProductId]) -> Vec<Product> {
        self.snapshot.hint_products(ids)
    }

    fn version(&self) -> u64 {
        self.snapshot.generation()
    }

    fn learned(&self, version: u64, products: &[Product]) {
        self.snapshot.learn(version, products);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::atomic::{AtomicUsize, Ordering};

    use cart_pricing::Money;
    use catalog::{Product, ProductId, Stock};

    use super::*;

    fn product(name: &str) -> Product {
        Product {
            max_per_account: None,
            release_at: None,
            id: ProductId::new(1),
            name: name.into(),
            description: String::new(),
            price: Money::parse("1").unwrap(),
            category: "Pets".into(),
            image: None,
            stock: Stock::Unlimited,
            weight: None,
            mutation: None,
            savings: None,
            sort_order: None,
            delete_after_out_of_stock: false,
            related_ids: vec![],
            dupe_warning: false,
            archived: false,
        }
    }

    #[test]
    fn the_brotli_window_holds_the_whole_body_and_no_more() {
        assert_eq!(brotli_window_bits(0), 10);
        assert_eq!(brotli_window_bits(1008), 10);
        assert_eq!(brotli_window_bits(1009), 11);
        assert_eq!(brotli_window_bits(11_000), 14);
        assert_eq!(brotli_window_bits(usize::MAX), 24);
        for len in [0, 1, 1008, 1009, 11_000, 70_000] {
            let pattern = b"{\"name\":\"Raccoon\"},";
            let body: Vec<u8> = (0..len)
                .map(|i| pattern[i % pattern.len()] ^ (i / 97) as u8)
                .collect();
            let compressed = brotli(&body).unwrap();
            let mut decompressed = Vec::new();
            brotli::BrotliDecompress(&mut &compressed[..], &mut decompressed).unwrap();
            assert_eq!(decompressed, body, "{len} bytes round-trip");
        }
    }

    /// Each read sees a newer catalog ("v0", "v1", ...); the read numbered `held` (if any)
    /// waits until the test lets it end, so the test decides what happens while it runs.
    struct Reads {
        reads: AtomicUsize,
        held: Option<usize>,
        release: tokio::sync::Notify,
    }

    impl Reads {
        fn new(held: Option<usize>) -> Self {
            Reads {
                reads: AtomicUsize::new(0),
                held,
                release: tokio::sync::Notify::new(),
            }
        }

        fn count(&self) -> usize {
            self.reads.load(Ordering::SeqCst)
        }
    }

    impl CatalogService for Reads {
        async fn storefront(&self) -> Result<Vec<Product>, CatalogError> {
            let read = self.reads.fetch_add(1, Ordering::SeqCst);
            if self.held == Some(read) {
                self.release.notified().await;
            }
            Ok(vec![product(&format!("v{read}"))])
        }

        async fn visible_product(&self, id: ProductId) -> Result<Product, CatalogError> {
            Err(CatalogError::NotFound(id))
        }
    }

    fn installed(snapshot: &ProductSnapshot) -> String {
        String::from_utf8(snapshot.current().in_coding(Coding::Identity).body.to_vec()).unwrap()
    }

    /// The first refresh's read (read 1, after the load's read 0) is held while a second
    /// refresh is asked for: unserialised, the second would read "v2" and install it, and the
    /// held read would then install the older "v1" over it.
    #[tokio::test]
    async fn an_older_read_never_replaces_a_newer_one() {
        let catalog = Reads::new(Some(1));
        let snapshot = ProductSnapshot::load(&catalog, shared::clock::SystemClock)
            .await
            .unwrap();
        let mut slow = std::pin::pin!(snapshot.refresh(&catalog));
        assert!(futures::poll!(&mut slow).is_pending());
        assert_eq!(catalog.count(), 2, "the first refresh is reading");
        let mut fast = std::pin::pin!(snapshot.refresh(&catalog));
        assert!(futures::poll!(&mut fast).is_pending());
        assert_eq!(
            catalog.count(),
            2,
            "the second waits: no read while one runs"
        );

        catalog.release.notify_one();
        let (slow, fast) = tokio::join!(slow, fast);
        slow.unwrap();
        fast.unwrap();

        let body = installed(&snapshot);
        assert!(
            body.contains("\"v2\""),
            "the newest read is installed: {body}"
        );
    }

    #[tokio::test]
    async fn refreshes_asked_for_while_one_runs_share_the_next_read() {
        let catalog = Reads::new(Some(1));
        let snapshot = ProductSnapshot::load(&catalog, shared::clock::SystemClock)
            .await
            .unwrap();
        // ten writes land while the first refresh reads
        let mut first = std::pin::pin!(snapshot.refresh(&catalog));
        assert!(futures::poll!(&mut first).is_pending());
        assert_eq!(catalog.count(), 2, "the first refresh is reading");
        let mut rest = std::pin::pin!(futures::future::join_all(
            (0..10).map(|_| snapshot.refresh(&catalog))
        ));
        assert!(futures::poll!(&mut rest).is_pending());
        assert_eq!(catalog.count(), 2, "the ten wait for it");

        catalog.release.notify_one();
        let (first, rest) = tokio::join!(first, rest);
        assert!(first.unwrap());
        let changed: Vec<bool> = rest.into_iter().map(Result::unwrap).collect();
        // one more read covers all ten, and exactly one of them reports the change
        assert_eq!(catalog.count(), 3, "load + first + one shared");
        assert_eq!(changed.iter().filter(|changed| **changed).count(), 1);
        let body = installed(&snapshot);
        assert!(body.contains("\"v2\""), "{body}");

        // a refresh asked for later reads again
        assert!(snapshot.refresh(&catalog).await.unwrap());
        assert_eq!(catalog.count(), 4);
    }

    /// A write's refresh asked for while another refresh waits for the running read (here the
    /// periodic one) is covered by that one's read: the writer's call installs nothing and
    /// publishes nothing, so the call whose read installed the change must publish it, or open
    /// storefronts (polling only while their stream is down) and a page made before the
    /// install would keep the old list.
    #[tokio::test]
    async fn a_change_installed_by_a_read_that_covered_the_write_is_published() {
        use sea_orm::ConnectionTrait;

        let db = store::testing::TestDatabase::create(store::Backend::Sqlite).await;
        let store = store::Store::new(db.connection.clone(), shared::clock::SystemClock);
        let catalog = ShopCatalog::new(store.clone());
        let snapshot = ProductSnapshot::load(&catalog, shared::clock::SystemClock)
            .await
            .unwrap();
        let events = ShopEvents::new(store.clone(), 16).await.unwrap();
        let stock = StockChanged::new(
            snapshot.clone(),
            catalog,
            events.clone(),
            std::time::Duration::ZERO,
        );
        let mut published = events.subscribe();

        // a read runs; the periodic refresh waits for it
        let running = snapshot.refreshing.lock().await;
        let mut periodic = std::pin::pin!(stock.refresh());
        assert!(futures::poll!(&mut periodic).is_pending());
        // a write lands and asks for its refresh, behind the periodic one
        db.connection
            .execute_unprepared(
                "INSERT INTO products (name, description, price_cents, category, \
                 delete_after_out_of_stock, dupe_warning, archived, created_at, updated_at) \
                 VALUES ('Snail', '', 100, 'Pets', false, false, false, CURRENT_TIMESTAMP, \
                 CURRENT_TIMESTAMP)",
            )
            .await
            .unwrap();
        let mut written = std::pin::pin!(stock.on_stock_changed());
        assert!(futures::poll!(&mut written).is_pending());
        drop(running);
        let (changed, ()) = tokio::join!(periodic, written);
        assert!(changed.unwrap(), "the periodic read installed the write");
        assert!(installed(&snapshot).contains("Snail"));

        let event = published.try_recv().expect("the change was published");
        assert_eq!(event.event.topic, crate::events::topic::PRODUCTS);
        let data: serde_json::Value = serde_json::from_str(&event.event.data).unwrap();
        assert_eq!(
            data["version"].as_str(),
            Some(snapshot.current().etag.as_str())
        );
        assert!(published.try_recv().is_err(), "published once");
    }

    #[tokio::test]
    async fn what_checkout_learned_counts_until_the_next_read_of_the_catalog() {
        let catalog = Reads::new(None);
        let snapshot = ProductSnapshot::load(&catalog, shared::clock::SystemClock)
            .await
            .unwrap();
        let id = ProductId::new(1);
        assert_eq!(snapshot.hint_products(&[id])[0].stock, Stock::Unlimited);
        let sold_out = Product {
            stock: Stock::Finite(0),
            ..product("v0")
        };

        // read before the list moved on: ignored
        let before = snapshot.generation();
        snapshot.refresh(&catalog).await.unwrap();
        snapshot.learn(before, std::slice::from_ref(&sold_out));
        assert_eq!(snapshot.hint_products(&[id])[0].stock, Stock::Unlimited);

        // read since the last read: the hint goes by it, the list does not change
        snapshot.learn(snapshot.generation(), std::slice::from_ref(&sold_out));
        assert_eq!(snapshot.hint_products(&[id])[0].stock, Stock::Finite(0));
        assert_eq!(snapshot.hint_products(&[ProductId::new(2)]), vec![]);
        let body = snapshot.current().in_coding(Coding::Identity).body.clone();
        assert!(!String::from_utf8_lossy(&body).contains("\"stock\":0"));

        // the next read of the catalog, changed or not, is the truth again
        snapshot.refresh(&catalog).await.unwrap();
        assert_eq!(snapshot.hint_products(&[id])[0].stock, Stock::Unlimited);
    }
}
