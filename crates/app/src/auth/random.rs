use rand::{rngs::OsRng, Rng, RngCore};

/// The operating system's secure random numbers.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsRandom;

impl accounts::Randomness for OsRandom {
    fn six_digits(&self) -> u32 {
        OsRng.gen_range(0..1_000_000)
    }

    fn bytes32(&self) -> [u8; 32] {
        let mut bytes = [0; 32];
        OsRng.fill_bytes(&mut bytes);
        bytes
    }
}
