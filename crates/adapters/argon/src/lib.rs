//! The accounts domain's `PasswordHasher` port with argon2id: what the shop stores of a password,
//! and the check of a login against it (docs/architecture.md, "Which crate owns which rule").

use accounts::PasswordHash;
use anyhow::{anyhow, Context};
use argon2::{
    password_hash::{PasswordHasher as _, PasswordVerifier as _, SaltString},
    Algorithm, Argon2, Params, Version,
};
use rand::{rngs::OsRng, RngCore};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// argon2id with m = 19456 KiB, t = 2, p = 1 (OWASP's minimum), on tokio's blocking threads so
/// a login never stalls an async worker.
///
/// At most twice as many hashes run at once as the machine has cores (each holds 19 MiB); the
/// rest wait for a permit, so a flood of logins queues instead of exhausting memory and the
/// blocking thread pool.
#[derive(Debug, Clone)]
pub struct Argon2Hasher {
    decoy: PasswordHash,
    permits: Arc<Semaphore>,
}

/// Twice the cores this process may use.
fn default_permits() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get() * 2)
}

fn argon2() -> anyhow::Result<Argon2<'static>> {
    let params = Params::new(19_456, 2, 1, None).map_err(|e| anyhow!("argon2 parameters: {e}"))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

fn hash_blocking(password: &str) -> anyhow::Result<PasswordHash> {
    let mut salt = [0_u8; 16];
    OsRng.fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| anyhow!("argon2 salt: {e}"))?;
    let hash = argon2()?
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow!("argon2 hashing failed: {e}"))?;
    Ok(PasswordHash::new(hash.to_string()))
}

fn verify_blocking(password: &str, hash: &PasswordHash) -> anyhow::Result<bool> {
    let Ok(parsed) = argon2::PasswordHash::new(hash.as_str()) else {
        return Ok(false);
    };
    Ok(argon2()?
        .verify_password(password.as_bytes(), &parsed)
        .is_ok())
}

impl Argon2Hasher {
    /// Hashes a random password once, as the decoy for unknown addresses.
    pub async fn new() -> anyhow::Result<Self> {
        Self::with_permits(default_permits()).await
    }

    /// At most `permits` hashes at once.
    pub async fn with_permits(permits: usize) -> anyhow::Result<Self> {
        let mut random = [0_u8; 32];
        OsRng.fill_bytes(&mut random);
        let decoy = tokio::task::spawn_blocking(move || hash_blocking(&hex::encode(random)))
            .await
            .context("the hashing thread failed")??;
        Ok(Argon2Hasher {
            decoy,
            permits: Arc::new(Semaphore::new(permits.max(1))),
        })
    }

    /// Runs `work` on a blocking thread once a permit is free.
    async fn limited<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> anyhow::Result<T> {
        let _permit = self
            .permits
            .acquire()
            .await
            .context("the hashing permits were closed")?;
        tokio::task::spawn_blocking(work)
            .await
            .context("the hashing thread failed")
    }
}

impl accounts::PasswordHasher for Argon2Hasher {
    async fn hash(&self, password: String) -> anyhow::Result<PasswordHash> {
        self.limited(move || hash_blocking(&password)).await?
    }

    async fn verify(&self, password: String, hash: PasswordHash) -> anyhow::Result<bool> {
        self.limited(move || verify_blocking(&password, &hash))
            .await?
    }

    fn decoy_hash(&self) -> PasswordHash {
        self.decoy.clone()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use accounts::PasswordHasher;

    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_with_the_shops_cost_and_verify() {
        let hasher = Argon2Hasher::new().await.unwrap();
        let hash = hasher.hash("correct horse".into()).await.unwrap();
        assert!(hash.as_str().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(hasher
            .verify("correct horse".into(), hash.clone())
            .await
            .unwrap());
        assert!(!hasher
            .verify("wrong horse".into(), hash.clone())
            .await
            .unwrap());
        assert!(!hasher
            .verify("x".into(), PasswordHash::new("garbage".into()))
            .await
            .unwrap());
        assert!(!hasher
            .verify("correct horse".into(), hasher.decoy_hash())
            .await
            .unwrap());
        let again = hasher.hash("correct horse".into()).await.unwrap();
        assert_ne!(hash, again, "every hash has its own salt");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_hashes_run_at_once_than_there_are_permits() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::{Condvar, Mutex};
        let hasher = Argon2Hasher::with_permits(3).await.unwrap();
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        // the jobs inside stay until the test opens the door: no pause decides who overlaps
        let door = Arc::new((Mutex::new(false), Condvar::new()));
        let jobs: Vec<_> = (0..20)
            .map(|_| {
                let (hasher, running, most) = (hasher.clone(), running.clone(), most.clone());
                let door = door.clone();
                tokio::spawn(async move {
                    hasher
                        .limited(move || {
                            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            let (open, opened) = &*door;
                            let mut open = open.lock().unwrap();
                            while !*open {
                                open = opened.wait(open).unwrap();
                            }
                            running.fetch_sub(1, Ordering::SeqCst);
                        })
                        .await
                        .unwrap();
                })
            })
            .collect();
        // three jobs get in and hold every permit; the other seventeen wait for one
        while running.load(Ordering::SeqCst) < 3 {
            tokio::task::yield_now().await;
        }
        assert_eq!(hasher.permits.available_permits(), 0);
        *door.0.lock().unwrap() = true;
        door.1.notify_all();
        for job in jobs {
            job.await.unwrap();
        }
        assert_eq!(
            most.load(Ordering::SeqCst),
            3,
            "three at a time, never more"
        );
        // and real hashing goes through the same gate
        let hashes = (0..6).map(|_| {
            let hasher = hasher.clone();
            tokio::spawn(async move { hasher.hash("correct horse".into()).await.unwrap() })
        });
        for job in hashes.collect::<Vec<_>>() {
            job.await.unwrap();
        }
        assert_eq!(hasher.permits.available_permits(), 3);
    }

    #[test]
    fn the_default_is_twice_the_cores() {
        let cores = std::thread::available_parallelism().unwrap().get();
        assert_eq!(default_permits(), cores * 2);
    }
}
