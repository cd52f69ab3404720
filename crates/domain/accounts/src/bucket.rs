//! The rate limit buckets of this crate (the stored key is `bucket:key`): the service counts
//! in them, an account's erasure forgets its own.

pub const LOGIN_ADDRESS: &str = "login-address";
pub const LOGIN_IP: &str = "login-ip";
pub const CODE_ADDRESS: &str = "signup-code-address";
pub const CODE_IP: &str = "signup-code-ip";
pub const CODE_CHECK_IP: &str = "signup-verify-ip";
pub const RESET_ADDRESS: &str = "reset-address";
