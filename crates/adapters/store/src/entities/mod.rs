pub mod bundle_items;
pub mod products;
pub mod auth_attempts;
pub mod password_reset_tokens;
pub mod pending_signups;
pub mod sessions;
pub mod users;
