//! What a session holds about its user, as far as the stores need to know.

use std::collections::HashMap;

/// The session key holding the logged-in user's id (a JSON number); the database session store
/// copies it into the row's `user_id` column, the Redis one into the user's set of sessions.
pub const USER_ID_KEY: &str = "user_id";

/// The user a session's state holds, if any.
pub fn session_user(state: &HashMap<String, String>) -> Option<i64> {
    state
        .get(USER_ID_KEY)
        .and_then(|value| serde_json::from_str(value).ok())
}
