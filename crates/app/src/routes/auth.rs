//! The account calls of spec §7: session check, login, logout, sign-up with an e-mail code,
//! password reset, and the current user.

use accounts::{
    Email, ForgotPasswordError, Password, ResetPasswordError, ResetToken, UserName,
    VerificationCode, VerifyCodeError,
};
use actix_session::Session;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::{
    auth::{AccountsService, CurrentUser, MaybeUser, RequireUser, LOGGED_IN_AT_KEY, USER_ID_KEY},
    client_ip::ClientIp,
    error::{ApiError, FieldErrors},
    limits::RateLimits,
};
use accounts::Clock as _;

/// A user as every account call shows it.
#[derive(Debug, Serialize)]
pub struct UserResponse {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub account_type: &'static str,
}

impl From<&CurrentUser> for UserResponse {
    fn from(user: &CurrentUser) -> Self {
        UserResponse {
            id: user.id,
            name: user.name.clone(),
            email: user.email.clone(),
            account_type: user.role.as_str(),
        }
    }
}

const FORGOT_ANSWER: &str =
    "If an account exists for that e-mail, we have sent a password reset link.";

/// The caller's address for the per-IP limits (`server.trusted_proxies` decides whether
/// `X-Forwarded-For` is read).
fn client_ip(request: &HttpRequest) -> String {
    ClientIp::of(request).to_string()
}

fn required(errors: &mut FieldErrors, field: &str, value: &str, label: &str) -> bool {
    if value.trim().is_empty() {
        errors.add(field, format!("The {label} field is required."));
        false
    } else {
        true
    }
}

fn parse_email(errors: &mut FieldErrors, raw: &str) -> Option<Email> {
    if required(errors, "email", raw, "email") {
        errors.check("email", Email::parse(raw))
    } else {
        None
    }
}

/// A new password and its confirmation.
fn parse_new_password(
    errors: &mut FieldErrors,
    password: &str,
    confirmation: &str,
) -> Option<Password> {
    if !required(errors, "password", password, "password") {
        return None;
    }
    let parsed = errors.check("password", Password::parse(password));
    if password != confirmation {
        errors.add("password_confirmation", "The passwords do not match.");
    }
    parsed
}

fn parse_name(errors: &mut FieldErrors, raw: &str) -> Option<UserName> {
    if required(errors, "name", raw, "name") {
        errors.check("name", UserName::parse(raw))
    } else {
        None
    }
}

/// Logs the user in on this session: a new session id (so one fixed before login is worthless),
/// other keys kept, and the time of login (sessions have an absolute lifetime).
fn log_in(
    session: &Session,
    user: &CurrentUser,
    accounts: &AccountsService,
) -> Result<(), ApiError> {
    let failed = |e| ApiError::internal(anyhow::anyhow!("failed to store the session: {e}"));
    session.renew();
    session.insert(USER_ID_KEY, user.id).map_err(failed)?;
    let now = accounts.clock().now().timestamp();
    session.insert(LOGGED_IN_AT_KEY, now).map_err(failed)
}

pub async fn check(MaybeUser(user): MaybeUser) -> HttpResponse {
    HttpResponse::Ok().json(json!({
        "loggedIn": user.is_some(),
        "user": user.as_ref().map(UserResponse::from),
    }))
}

pub async fn me(RequireUser(user): RequireUser) -> HttpResponse {
    HttpResponse::Ok().json(UserResponse::from(&user))
}

#[derive(Debug, Deserialize)]
pub struct LoginRequest {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
}

pub async fn login(
    request: HttpRequest,
    session: Session,
    accounts: web::Data<AccountsService>,
    body: web::Json<LoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let email = parse_email(&mut errors, &body.email);
    required(&mut errors, "password", &body.password, "password");
    errors.finish()?;
    let Some(email) = email else {
        return Err(ApiError::internal(anyhow::anyhow!(
            "a checked e-mail went missing"
        )));
    };
    let user = accounts
        .login(&email, &body.password, &client_ip(&request))
        .await?;
    let user = CurrentUser::from(user);
    log_in(&session, &user, &accounts)?;
    tracing::info!(user = user.id, "logged in");
    Ok(HttpResponse::Ok()
        .json(json!({ "message": "Logged in.", "user": UserResponse::from(&user) })))
}

pub async fn logout(session: Session) -> HttpResponse {
    session.purge();
    HttpResponse::Ok().json(json!({ "message": "Logged out." }))
}

#[derive(Debug, Deserialize)]
pub struct SignupRequest {
    #[serde(default)]
    name: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password_confirmation: String,
    #[serde(default)]
    code: String,
}

/// Answers the same for an address that already has an account as for a new one (its owner
/// gets a mail instead of a code). The password is checked here so the form says at once what
/// is wrong with it, but it is not kept: the account takes the one sent with the right code.
pub async fn send_verification_code(
    request: HttpRequest,
    accounts: web::Data<AccountsService>,
    body: web::Json<SignupRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let name = parse_name(&mut errors, &body.name);
    let email = parse_email(&mut errors, &body.email);
    let password = parse_new_password(&mut errors, &body.password, &body.password_confirmation);
    errors.finish()?;
    let (Some(name), Some(email), Some(_)) = (name, email, password) else {
        return Err(ApiError::internal(anyhow::anyhow!(
            "checked fields went missing"
        )));
    };
    let resend_after = accounts
        .send_code(name, email.clone(), &client_ip(&request))
        .await?;
    Ok(HttpResponse::Ok().json(json!({
        "message": format!("We sent a 6-digit code to {email}."),
        "resend_after": resend_after.as_secs(),
    })))
}

/// Creates the account with the name and password sent here, with the right code.
pub async fn verify_code(
    request: HttpRequest,
    session: Session,
    accounts: web::Data<AccountsService>,
    body: web::Json<SignupRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let name = parse_name(&mut errors, &body.name);
    let email = parse_email(&mut errors, &body.email);
    let password = parse_new_password(&mut errors, &body.password, &body.password_confirmation);
    let code = if required(&mut errors, "code", &body.code, "code") {
        VerificationCode::parse(&body.code)
            .map_err(|_| errors.add("code", VerifyCodeError::InvalidCode.to_string()))
            .ok()
    } else {
        None
    };
    errors.finish()?;
    let (Some(name), Some(email), Some(password), Some(code)) = (name, email, password, code)
    else {
        return Err(ApiError::internal(anyhow::anyhow!(
            "checked fields went missing"
        )));
    };
    let user = accounts
        .verify_code(&email, &code, name, password, &client_ip(&request))
        .await?;
    let user = CurrentUser::from(user);
    log_in(&session, &user, &accounts)?;
    Ok(HttpResponse::Ok().json(json!({
        "message": "Verified and logged in!",
        "user": UserResponse::from(&user),
    })))
}

#[derive(Debug, Deserialize)]
pub struct ForgotRequest {
    #[serde(default)]
    email: String,
}

/// Answers the same, in the same time, whether or not the address has an account and whether
/// or not its own limits let a mail go: the lookup, the limits, the token and the mail happen
/// after the answer, on a task of their own. Only the client address's limit answers 429.
pub async fn forgot_password(
    request: HttpRequest,
    accounts: web::Data<AccountsService>,
    rate_limits: web::Data<RateLimits>,
    body: web::Json<ForgotRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let email = parse_email(&mut errors, &body.email);
    errors.finish()?;
    let Some(email) = email else {
        return Err(ApiError::internal(anyhow::anyhow!(
            "a checked e-mail went missing"
        )));
    };
    rate_limits
        .check(
            "reset-ip",
            &client_ip(&request),
            accounts.limits().resets_per_ip,
        )
        .await?;
    let accounts = accounts.clone();
    actix_web::rt::spawn(async move {
        match accounts.forgot_password(&email).await {
            Ok(()) => {}
            Err(ForgotPasswordError::Mail(cause)) => {
                tracing::error!(error = ?cause, "could not send a password reset mail");
            }
            Err(ForgotPasswordError::Unknown(cause)) => {
                tracing::error!(error = ?cause, "password reset request failed");
            }
        }
    });
    Ok(HttpResponse::Ok().json(json!({ "message": FORGOT_ANSWER })))
}

#[derive(Debug, Deserialize)]
pub struct ResetRequest {
    #[serde(default)]
    token: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password_confirmation: String,
}

pub async fn reset_password(
    accounts: web::Data<AccountsService>,
    body: web::Json<ResetRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let password = parse_new_password(&mut errors, &body.password, &body.password_confirmation);
    let email = Email::parse(&body.email).ok();
    if body.token.trim().is_empty() || email.is_none() {
        errors.add("token", ResetPasswordError::InvalidToken.to_string());
    }
    errors.finish()?;
    let (Some(email), Some(password)) = (email, password) else {
        return Err(ApiError::internal(anyhow::anyhow!(
            "checked fields went missing"
        )));
    };
    accounts
        .reset_password(&email, &ResetToken::from_link(&body.token), password)
        .await?;
    Ok(HttpResponse::Ok().json(json!({
        "message": "Your password has been reset. You can now log in."
    })))
}
