//! The account calls' requests and answers (docs/product.md, Calls).

use accounts::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A user as every account call shows it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = User)]
pub struct UserResponse {
    #[schema(example = 7)]
    pub id: i64,
    #[schema(example = "Ann")]
    pub name: String,
    #[schema(example = "ann@example.com")]
    pub email: String,
    pub account_type: AccountType,
}

/// What the user may do: shoppers are customers, staff are admins, super_admins also run the
/// shop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountType {
    Customer,
    Admin,
    SuperAdmin,
}

impl From<Role> for AccountType {
    fn from(role: Role) -> Self {
        match role {
            Role::Customer => AccountType::Customer,
            Role::Admin => AccountType::Admin,
            Role::SuperAdmin => AccountType::SuperAdmin,
        }
    }
}

/// Whether the session is logged in, and as whom.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthCheck {
    #[serde(rename = "loggedIn")]
    pub logged_in: bool,
    /// null for a guest.
    #[schema(required = true)]
    pub user: Option<UserResponse>,
}

/// A message to show, and the user now logged in.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoggedIn {
    #[schema(example = "Logged in.")]
    pub message: String,
    pub user: UserResponse,
}

/// A message to show.
#[derive(Debug, Serialize, ToSchema)]
pub struct Message {
    pub message: String,
}

/// The code is on its way.
#[derive(Debug, Serialize, ToSchema)]
pub struct CodeSent {
    #[schema(example = "We sent a 6-digit code to ann@example.com.")]
    pub message: String,
    /// Seconds before another code may be asked for.
    #[schema(example = 60)]
    pub resend_after: u64,
}

impl AuthCheck {
    /// The answer for a session holding `user` (None: a guest).
    pub fn of(user: Option<UserResponse>) -> Self {
        Self {
            logged_in: user.is_some(),
            user,
        }
    }
}

/// An e-mail and password. Missing fields are answered 422 like empty ones.
#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    #[serde(default)]
    #[schema(
        required = true,
        format = "email",
        max_length = 254,
        example = "ann@example.com"
    )]
    pub email: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, example = "correct horse battery")]
    pub password: String,
}

/// Sign-up: the new account's name, e-mail and password (twice); `POST /api/verify-code` also
/// needs the code that was mailed. Missing fields are answered 422 like empty ones.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SignupRequest {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100, example = "Ann")]
    pub name: String,
    #[serde(default)]
    #[schema(
        required = true,
        format = "email",
        max_length = 254,
        example = "ann@example.com"
    )]
    pub email: String,
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 8,
        max_length = 128,
        example = "correct horse battery"
    )]
    pub password: String,
    /// The password again.
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 8,
        max_length = 128,
        example = "correct horse battery"
    )]
    pub password_confirmation: String,
    /// The 6-digit code from the mail (`POST /api/verify-code` only; ignored by
    /// `POST /api/send-verification-code`).
    #[serde(default)]
    #[schema(pattern = "^[0-9]{6}$", example = "042917")]
    pub code: String,
}

/// The address to send a reset link to.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ForgotRequest {
    #[serde(default)]
    #[schema(
        required = true,
        format = "email",
        max_length = 254,
        example = "ann@example.com"
    )]
    pub email: String,
}

/// The reset link's token and e-mail, and the new password (twice).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ResetRequest {
    /// The token from the mailed link.
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub token: String,
    /// The address the link was sent to (in the link).
    #[serde(default)]
    #[schema(
        required = true,
        format = "email",
        max_length = 254,
        example = "ann@example.com"
    )]
    pub email: String,
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 8,
        max_length = 128,
        example = "correct horse battery"
    )]
    pub password: String,
    /// The password again.
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 8,
        max_length = 128,
        example = "correct horse battery"
    )]
    pub password_confirmation: String,
}
