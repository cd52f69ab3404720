//! Proofs of delivery: what was delivered and the pictures that show it. Staff publish them;
//! everyone can read them, newest first.

use std::fmt;
use std::future::Future;

use chrono::{DateTime, Utc};
use shared::Actor;

/// Most pictures on one proof.
pub const MAX_IMAGES: usize = 10;
/// Longest items text, in characters.
pub const MAX_ITEMS_CHARS: usize = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProofId(i64);

impl ProofId {
    pub fn new(id: i64) -> Self {
        ProofId(id)
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for ProofId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What was delivered ("2x Raccoon, 1 Kitsune"): trimmed, 1 to 500 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofItems(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ProofItemsError {
    #[error("Please provide items and at least one image.")]
    Empty,
    #[error("The items may be at most 500 characters long.")]
    TooLong,
}

impl ProofItems {
    pub fn parse(text: &str) -> Result<Self, ProofItemsError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ProofItemsError::Empty);
        }
        if text.chars().count() > MAX_ITEMS_CHARS {
            return Err(ProofItemsError::TooLong);
        }
        Ok(ProofItems(text.to_owned()))
    }
}

impl AsRef<str> for ProofItems {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// A published proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    pub id: ProofId,
    pub items: String,
    /// Public paths of the pictures (`/media/proofs/….png`), in the order given.
    pub images: Vec<String>,
    pub created_at: DateTime<Utc>,
}

/// A proof about to be stored; the store assigns the id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewProof {
    pub items: ProofItems,
    pub images: Vec<String>,
    pub created_at: DateTime<Utc>,
}

pub use shared::{Clock, ImageRejected, ImageStore, PreparedImage, SystemClock};

/// How the proof form words a refused picture (the product form words it as
/// [`ImageRejected`]'s own message).
pub fn rejection_message(reason: ImageRejected) -> &'static str {
    match reason {
        ImageRejected::TooLarge => "Each image may be at most 5 MB and 40 megapixels.",
        ImageRejected::UnsupportedFormat => "Only PNG, JPEG, WebP and GIF images are accepted.",
        ImageRejected::Undecodable => "The image could not be read.",
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("Please provide items and at least one image.")]
    NoImages,
    #[error("A proof may have at most 10 images.")]
    TooManyImages,
    /// The picture at `index` (0-based, in upload order) was refused; nothing was stored.
    #[error("Image {}: {}", index + 1, rejection_message(*reason))]
    Image { index: usize, reason: ImageRejected },
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    #[error("Proof not found.")]
    NotFound(ProofId),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// Where proofs are kept.
#[cfg_attr(test, mockall::automock)]
pub trait ProofRepository: Send + Sync + 'static {
    /// Every proof, newest first. Fails only with `ProofError::Unknown`.
    fn list(&self) -> impl Future<Output = Result<Vec<Proof>, ProofError>> + Send;

    /// Stores the proof and its image paths in order, all or nothing, with the audit log's
    /// entry by `actor`.
    fn insert(
        &self,
        proof: NewProof,
        actor: &Actor,
    ) -> impl Future<Output = Result<Proof, ProofError>> + Send;

    /// Deletes the proof, with the audit log's entry by `actor`. `ProofError::NotFound` when
    /// there is none (and nothing is written).
    fn delete(
        &self,
        id: ProofId,
        actor: &Actor,
    ) -> impl Future<Output = Result<(), ProofError>> + Send;

    /// Every image path any proof still uses.
    fn image_paths_in_use(&self) -> impl Future<Output = Result<Vec<String>, ProofError>> + Send;
}

/// Publishing, listing and removing proofs.
#[derive(Debug, Clone)]
pub struct ProofService<R, I, C> {
    repository: R,
    images: I,
    clock: C,
}

impl<R: ProofRepository, I: ImageStore, C: Clock> ProofService<R, I, C> {
    pub fn new(repository: R, images: I, clock: C) -> Self {
        ProofService {
            repository,
            images,
            clock,
        }
    }

    /// Every proof, newest first.
    #[tracing::instrument(skip(self))]
    pub async fn list(&self) -> Result<Vec<Proof>, ProofError> {
        self.repository.list().await
    }

    /// Publishes a proof with 1 to 10 pictures. Every picture is checked before any is saved,
    /// so a refused one leaves nothing behind; if storing the proof fails, a clean-up of
    /// pictures no proof uses follows (an image store may spare freshly saved files for a
    /// while, so an upload in flight never loses its pictures; those go at a later clean-up).
    #[tracing::instrument(skip(self, items, uploads, actor), fields(images = uploads.len()))]
    pub async fn publish(
        &self,
        items: ProofItems,
        uploads: Vec<Vec<u8>>,
        actor: &Actor,
    ) -> Result<Proof, PublishError> {
        if uploads.is_empty() {
            return Err(PublishError::NoImages);
        }
        if uploads.len() > MAX_IMAGES {
            return Err(PublishError::TooManyImages);
        }
        let mut prepared = Vec::with_capacity(uploads.len());
        for (index, upload) in uploads.into_iter().enumerate() {
            let image = self
                .images
                .prepare(upload)
                .await
                .map_err(|reason| PublishError::Image { index, reason })?;
            prepared.push(image);
        }
        let mut paths = Vec::with_capacity(prepared.len());
        for image in prepared {
            match self.images.save(image).await {
                Ok(path) => paths.push(path),
                Err(error) => {
                    self.clean_up().await;
                    return Err(error.into());
                }
            }
        }
        let proof = NewProof {
            items,
            images: paths,
            created_at: self.clock.now(),
        };
        match self.repository.insert(proof, actor).await {
            Ok(proof) => Ok(proof),
            Err(error) => {
                self.clean_up().await;
                Err(match error {
                    ProofError::Unknown(e) => PublishError::Unknown(e),
                    other => PublishError::Unknown(anyhow::anyhow!(other)),
                })
            }
        }
    }

    /// Deletes a proof and the pictures no other proof uses.
    #[tracing::instrument(skip(self, actor))]
    pub async fn delete(&self, id: ProofId, actor: &Actor) -> Result<(), ProofError> {
        self.repository.delete(id, actor).await?;
        self.clean_up().await;
        Ok(())
    }

    /// Removes pictures no proof uses; a failure is logged, never shown: the proof itself is
    /// already stored or gone.
    async fn clean_up(&self) {
        let in_use = match self.repository.image_paths_in_use().await {
            Ok(paths) => paths,
            Err(error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "could not list proof images in use"
                );
                return;
            }
        };
        match self.images.remove_unused(in_use).await {
            Ok(removed) => tracing::debug!(removed, "removed unused proof images"),
            Err(error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "could not remove unused proof images"
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use shared::{MockClock, MockImageStore as MockProofImages};
    use std::sync::{Arc, Mutex};

    fn staff() -> Actor {
        Actor::staff(1, "Bo", "127.0.0.1")
    }

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 9, 30, 0).unwrap()
    }

    fn clock() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        clock
    }

    /// Accepts uploads starting with "img", saves them under a path made from their bytes.
    fn images(removed_with: Arc<Mutex<Vec<Vec<String>>>>) -> MockProofImages {
        let mut images = MockProofImages::new();
        images.expect_prepare().returning(|upload| {
            Box::pin(async move {
                if upload.starts_with(b"img") {
                    Ok(PreparedImage::new(upload))
                } else {
                    Err(ImageRejected::UnsupportedFormat)
                }
            })
        });
        images.expect_save().returning(|image| {
            let path = format!(
                "/media/proofs/{}.png",
                String::from_utf8_lossy(image.bytes())
            );
            Box::pin(async move { Ok(path) })
        });
        images.expect_remove_unused().returning(move |in_use| {
            removed_with.lock().unwrap().push(in_use);
            Box::pin(async { Ok(0) })
        });
        images
    }

    fn items(text: &str) -> ProofItems {
        ProofItems::parse(text).unwrap()
    }

    #[test]
    fn items_are_trimmed_and_bounded() {
        assert_eq!(
            ProofItems::parse("  2x Raccoon ").unwrap().as_ref(),
            "2x Raccoon"
        );
        assert_eq!(ProofItems::parse("   "), Err(ProofItemsError::Empty));
        assert!(ProofItems::parse(&"é".repeat(500)).is_ok());
        assert_eq!(
            ProofItems::parse(&"a".repeat(501)),
            Err(ProofItemsError::TooLong)
        );
    }

    #[tokio::test]
    async fn a_proof_is_published_with_its_images_in_order() {
        let mut repo = MockProofRepository::new();
        repo.expect_insert()
            .withf(|p, _| {
                p.items.as_ref() == "Raccoon"
                    && p.images == ["/media/proofs/img1.png", "/media/proofs/img2.png"]
                    && p.created_at == now()
            })
            .returning(|p, _| {
                Box::pin(async move {
                    Ok(Proof {
                        id: ProofId::new(1),
                        items: p.items.as_ref().to_owned(),
                        images: p.images,
                        created_at: p.created_at,
                    })
                })
            });
        let service = ProofService::new(repo, images(Default::default()), clock());
        let proof = service
            .publish(
                items("Raccoon"),
                vec![b"img1".to_vec(), b"img2".to_vec()],
                &staff(),
            )
            .await
            .unwrap();
        assert_eq!(proof.images.len(), 2);
    }

    #[tokio::test]
    async fn no_images_or_more_than_ten_are_refused() {
        let service =
            ProofService::new(MockProofRepository::new(), MockProofImages::new(), clock());
        assert!(matches!(
            service.publish(items("x"), vec![], &staff()).await,
            Err(PublishError::NoImages)
        ));
        assert!(matches!(
            service
                .publish(items("x"), vec![b"img".to_vec(); 11], &staff())
                .await,
            Err(PublishError::TooManyImages)
        ));
    }

    #[tokio::test]
    async fn a_refused_image_stores_nothing_at_all() {
        let mut images = MockProofImages::new();
        images.expect_prepare().returning(|upload| {
            Box::pin(async move {
                if upload.starts_with(b"img") {
                    Ok(PreparedImage::new(upload))
                } else {
                    Err(ImageRejected::UnsupportedFormat)
                }
            })
        });
        images.expect_save().never();
        let mut repo = MockProofRepository::new();
        repo.expect_insert().never();
        let service = ProofService::new(repo, images, clock());
        let result = service
            .publish(
                items("x"),
                vec![b"img1".to_vec(), b"hello text".to_vec()],
                &staff(),
            )
            .await;
        assert!(matches!(
            result,
            Err(PublishError::Image {
                index: 1,
                reason: ImageRejected::UnsupportedFormat
            })
        ));
    }

    #[tokio::test]
    async fn a_failed_insert_cleans_up_pictures_no_proof_uses() {
        let removed = Arc::new(Mutex::new(vec![]));
        let mut repo = MockProofRepository::new();
        repo.expect_insert()
            .returning(|_, _| Box::pin(async { Err(anyhow::anyhow!("database down").into()) }));
        repo.expect_image_paths_in_use()
            .returning(|| Box::pin(async { Ok(vec!["/media/proofs/old.png".into()]) }));
        let service = ProofService::new(repo, images(removed.clone()), clock());
        let result = service
            .publish(items("x"), vec![b"img1".to_vec()], &staff())
            .await;
        assert!(matches!(result, Err(PublishError::Unknown(_))));
        assert_eq!(
            *removed.lock().unwrap(),
            vec![vec!["/media/proofs/old.png".to_owned()]]
        );
    }

    #[tokio::test]
    async fn deleting_a_proof_removes_pictures_no_other_proof_uses() {
        let removed = Arc::new(Mutex::new(vec![]));
        let mut repo = MockProofRepository::new();
        repo.expect_delete()
            .withf(|id, _| id.get() == 4)
            .returning(|_, _| Box::pin(async { Ok(()) }));
        repo.expect_image_paths_in_use()
            .returning(|| Box::pin(async { Ok(vec!["/media/proofs/kept.png".into()]) }));
        let service = ProofService::new(repo, images(removed.clone()), clock());
        service.delete(ProofId::new(4), &staff()).await.unwrap();
        assert_eq!(
            *removed.lock().unwrap(),
            vec![vec!["/media/proofs/kept.png".to_owned()]]
        );
    }

    #[tokio::test]
    async fn deleting_an_unknown_proof_is_not_found_and_removes_nothing() {
        let mut repo = MockProofRepository::new();
        repo.expect_delete()
            .returning(|id, _| Box::pin(async move { Err(ProofError::NotFound(id)) }));
        let mut images = MockProofImages::new();
        images.expect_remove_unused().never();
        let service = ProofService::new(repo, images, clock());
        assert!(matches!(
            service.delete(ProofId::new(9), &staff()).await,
            Err(ProofError::NotFound(_))
        ));
    }
}
