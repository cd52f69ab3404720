use accounts::PasswordHash;
use anyhow::{anyhow, Context};
use argon2::{
    password_hash::{PasswordHasher as _, PasswordVerifier as _, SaltString},
    Algorithm, Argon2, Params, Version,
};
use rand::{rngs::OsRng, RngCore};

/// argon2id with m = 19456 KiB, t = 2, p = 1 (OWASP's minimum), on tokio's blocking threads so
/// a login never stalls an async worker.
#[derive(Debug, Clone)]
pub struct Argon2Hasher {
    decoy: PasswordHash,
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
        let mut random = [0_u8; 32];
        OsRng.fill_bytes(&mut random);
        let decoy = tokio::task::spawn_blocking(move || hash_blocking(&hex::encode(random)))
            .await
            .context("the hashing thread failed")??;
        Ok(Argon2Hasher { decoy })
    }
}

impl accounts::PasswordHasher for Argon2Hasher {
    async fn hash(&self, password: String) -> anyhow::Result<PasswordHash> {
        tokio::task::spawn_blocking(move || hash_blocking(&password))
            .await
            .context("the hashing thread failed")?
    }

    async fn verify(&self, password: String, hash: PasswordHash) -> anyhow::Result<bool> {
        tokio::task::spawn_blocking(move || verify_blocking(&password, &hash))
            .await
            .context("the hashing thread failed")?
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
}
