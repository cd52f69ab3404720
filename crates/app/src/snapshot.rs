use std::sync::{Arc, RwLock};

use actix_web::web::Bytes;
use catalog::{CatalogError, CatalogService};
use sha2::{Digest, Sha256};

use crate::routes::products::ProductResponse;

/// The storefront's product list, serialised once per change, so the 5-second polling of every
/// open tab is answered from memory (and mostly with 304).
#[derive(Debug, Clone)]
pub struct ProductList {
    pub body: Bytes,
    /// A strong validator: the quoted hash of the body.
    pub etag: String,
}

impl ProductList {
    fn new(body: Vec<u8>) -> Self {
        let digest = Sha256::digest(&body);
        let etag = format!("\"{}\"", hex::encode(&digest[..16]));
        ProductList {
            body: Bytes::from(body),
            etag,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ProductSnapshot {
    current: Arc<RwLock<Arc<ProductList>>>,
}

impl ProductSnapshot {
    pub async fn load(catalog: &impl CatalogService) -> Result<Self, CatalogError> {
        let list = Self::build(catalog).await?;
        Ok(ProductSnapshot {
            current: Arc::new(RwLock::new(Arc::new(list))),
        })
    }

    pub fn current(&self) -> Arc<ProductList> {
        match self.current.read() {
            Ok(guard) => Arc::clone(&guard),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Re-reads the catalog; call after every product write. Returns whether the list changed.
    pub async fn refresh(&self, catalog: &impl CatalogService) -> Result<bool, CatalogError> {
        let fresh = Self::build(catalog).await?;
        let mut guard = match self.current.write() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let changed = guard.etag != fresh.etag;
        if changed {
            *guard = Arc::new(fresh);
        }
        Ok(changed)
    }

    async fn build(catalog: &impl CatalogService) -> Result<ProductList, CatalogError> {
        let products: Vec<ProductResponse> = catalog
            .storefront()
            .await?
            .iter()
            .map(ProductResponse::from)
            .collect();
        let body = serde_json::to_vec(&products).map_err(|e| {
            CatalogError::Unknown(anyhow::Error::new(e).context("failed to serialise the products"))
        })?;
        Ok(ProductList::new(body))
    }
}
