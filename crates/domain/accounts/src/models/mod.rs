mod secrets;
mod user;

pub use secrets::{PendingSignup, ResetToken, ResetTokenRecord, TokenHash, VerificationCode};
pub use user::{
    Email, InvalidEmail, InvalidName, InvalidPassword, NewUser, Password, PasswordHash, Role,
    UnknownRole, User, UserId, UserName,
};
