//! The order's link key. `key = HMAC-SHA256(secret, "order-link:v1:{id}")`, its first 128 bits
//! in hex. Indistinguishable from random to anyone without the server's secret, it never has to
//! be stored in plain: the mail loop derives it again when it writes the receipt (which is sent
//! when the payment arrives, long after checkout answered), and the orders table keeps only its
//! SHA-256 (`orders.access_key_hash`), against which a presented key is compared in constant
//! time. A database leak reveals no key; the stored hash keeps old links working if the secret
//! is ever rotated.

use std::fmt;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::OrderId;

/// The key of an order's link, 32 hex characters (128 bits). Its `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessKey(String);

impl AccessKey {
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The SHA-256 of the key, hex: what the orders table keeps.
    pub fn hash(&self) -> String {
        hex::encode(Sha256::digest(self.0.as_bytes()))
    }

    /// Whether `presented` is the key whose hash is `stored`, compared in constant time.
    pub fn matches(stored: &str, presented: &str) -> bool {
        let presented = hex::encode(Sha256::digest(presented.trim().as_bytes()));
        let (a, b) = (stored.as_bytes(), presented.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

impl fmt::Debug for AccessKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessKey(…)")
    }
}

/// Derives each order's link key from the server's secret.
#[derive(Clone)]
pub struct OrderKeys {
    secret: Vec<u8>,
}

impl fmt::Debug for OrderKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OrderKeys(…)")
    }
}

impl OrderKeys {
    /// `secret`: at least 32 bytes only the server knows.
    pub fn new(secret: &[u8]) -> Result<Self, &'static str> {
        if secret.len() < 32 {
            return Err("the order link secret needs at least 32 bytes");
        }
        Ok(OrderKeys {
            secret: secret.to_vec(),
        })
    }

    pub fn key_for(&self, id: OrderId) -> AccessKey {
        #[allow(clippy::expect_used)] // HMAC takes a key of any length
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC accepts any key length");
        mac.update(format!("order-link:v1:{}", id.get()).as_bytes());
        let tag = mac.finalize().into_bytes();
        AccessKey(hex::encode(&tag[..16]))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn keys() -> OrderKeys {
        OrderKeys::new(&[7u8; 64]).unwrap()
    }

    #[test]
    fn a_key_is_128_bits_of_hex_and_differs_per_order_and_secret() {
        let one = keys().key_for(OrderId::new(1));
        assert_eq!(one.expose().len(), 32);
        assert!(one.expose().chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(one, keys().key_for(OrderId::new(2)));
        assert_eq!(
            one,
            keys().key_for(OrderId::new(1)),
            "derived again, the same"
        );
        let other = OrderKeys::new(&[8u8; 64]).unwrap();
        assert_ne!(one, other.key_for(OrderId::new(1)));
        assert!(OrderKeys::new(&[1u8; 16]).is_err());
        assert_eq!(format!("{one:?}"), "AccessKey(…)");
    }

    #[test]
    fn only_the_right_key_matches_its_stored_hash() {
        let key = keys().key_for(OrderId::new(5));
        let stored = key.hash();
        assert_eq!(stored.len(), 64);
        assert!(AccessKey::matches(&stored, key.expose()));
        assert!(!AccessKey::matches(
            &stored,
            keys().key_for(OrderId::new(6)).expose()
        ));
        assert!(!AccessKey::matches(&stored, ""));
        assert!(!AccessKey::matches(&stored, &stored));
    }
}
