//! What a session holds about its user.

/// The session key holding the logged-in user's id (a JSON number); the session stores copy it
/// into the database row's `user_id` column or the user's set of sessions in Redis.
pub use sessions::USER_ID_KEY;

/// The session key holding when the user logged in (Unix seconds): sessions have an absolute
/// lifetime.
pub const LOGGED_IN_AT_KEY: &str = "logged_in_at";
