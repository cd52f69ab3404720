//! Publishing, listing and removing proofs.

use shared::{Actor, Clock, ImageStore};

use crate::{
    NewProof, Proof, ProofError, ProofId, ProofItems, ProofRepository, PublishError, MAX_IMAGES,
};

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
        match self.images.remove_unused(in_use, self.clock.now()).await {
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
    use crate::{ImageRejected, MockProofRepository, PreparedImage, ProofItemsError};
    use chrono::TimeZone;
    use chrono::{DateTime, Utc};
    use shared::{MockClock, MockImageStore as MockProofImages};
    use std::sync::{Arc, Mutex};

    fn staff() -> Actor {
        Actor::staff(shared::UserId::new(1), "Bo", "127.0.0.1")
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
        images.expect_remove_unused().returning(move |in_use, _| {
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
