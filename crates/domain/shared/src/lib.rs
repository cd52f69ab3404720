//! The shared kernel: ideas every domain crate uses the same way.
//!
//! - [`limits`]: rate limits counted atomically in a store every instance shares.

pub mod limits;

pub use limits::{
    admit, forget, give_back, seconds_until, LimitError, MemoryLimiter, RateLimiter, Refused, Rule,
    WindowHits,
};
