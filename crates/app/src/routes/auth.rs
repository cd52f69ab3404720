//! The account calls (docs/product.md, Calls): session check, login, logout, sign-up with an e-mail code,
//! password reset, and the current user.

use accounts::{
    Email, ForgotPasswordError, Password, ResetPasswordError, ResetToken, UserName,
    VerificationCode,
};
use actix_session::Session;
use actix_web::{web, HttpRequest, HttpResponse};
use std::convert::Infallible;

use crate::{
    auth::{AccountsService, CurrentUser, MaybeUser, RequireUser, LOGGED_IN_AT_KEY, USER_ID_KEY},
    client_ip::ClientIp,
    error::ErrorBody,
    error::{ApiError, FieldErrors},
    language::RequestLanguage,
    limits::RateLimits,
};
use accounts::Clock as _;
use dto::account::{
    AuthCheck, CodeSent, ForgotRequest, LoggedIn, LoginRequest, Message, ResetRequest,
    SignupRequest, UserResponse,
};

/// The caller's key for the per-address limits (`server.trusted_proxies` decides whether
/// `X-Forwarded-For` is read; an IPv6 client counts as its /64, [`ClientIp::network_key`]).
fn client_key(request: &HttpRequest) -> String {
    ClientIp::of(request).network_key()
}

/// A required field, parsed; `field` names it in the messages.
fn required<T, E: Into<crate::error::Msg>>(
    errors: &mut FieldErrors,
    field: &str,
    raw: &str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Option<T> {
    if raw.trim().is_empty() {
        errors.add(
            field,
            l10n::Text::new("error-field-required").with("field", field),
        );
        return None;
    }
    errors.check_value(field, parse(raw))
}

/// A new password and its confirmation.
fn parse_new_password(
    errors: &mut FieldErrors,
    password: &str,
    confirmation: &str,
) -> Option<Password> {
    let parsed = required(errors, "password", password, Password::parse);
    if !password.trim().is_empty() && password != confirmation {
        errors.add(
            "password_confirmation",
            l10n::Text::new("error-passwords-differ"),
        );
    }
    parsed
}

/// The sign-up form's name, e-mail and new password.
fn parse_signup(
    errors: &mut FieldErrors,
    body: &SignupRequest,
) -> Option<(UserName, Email, Password)> {
    let name = required(errors, "name", &body.name, UserName::parse);
    let email = required(errors, "email", &body.email, Email::parse);
    let password = parse_new_password(errors, &body.password, &body.password_confirmation);
    Some((name?, email?, password?))
}

/// Logs the user in on this session: a new session id (so one fixed before login is worthless),
/// other keys kept, and the time of login (sessions have an absolute lifetime). Answers the
/// user with `message`.
fn log_in(
    session: &Session,
    user: CurrentUser,
    accounts: &AccountsService,
    message: String,
) -> Result<HttpResponse, ApiError> {
    let failed = |e| ApiError::internal(anyhow::anyhow!("failed to store the session: {e}"));
    session.renew();
    session.insert(USER_ID_KEY, user.id).map_err(failed)?;
    let now = accounts.clock().now().timestamp();
    session.insert(LOGGED_IN_AT_KEY, now).map_err(failed)?;
    tracing::info!(user = user.id, "logged in");
    Ok(HttpResponse::Ok().json(LoggedIn {
        message,
        user: UserResponse::from(&user),
    }))
}

/// `GET /api/auth/check`: never 401; a guest is `loggedIn: false, user: null`.
#[utoipa::path(
    get,
    path = "/api/auth/check",
    tag = "accounts",
    responses((status = 200, description = "The session's state.", body = AuthCheck)),
    security((), ("session_cookie" = [])),
)]
pub async fn check(MaybeUser(user): MaybeUser) -> HttpResponse {
    HttpResponse::Ok().json(AuthCheck::of(user.as_ref().map(UserResponse::from)))
}

/// `GET /api/me`: the logged-in user.
#[utoipa::path(
    get,
    path = "/api/me",
    tag = "accounts",
    responses(
        (status = 200, description = "The logged-in user.", body = UserResponse),
        (status = 401, description = "Not logged in.", body = ErrorBody),
    ),
    security(("session_cookie" = [])),
)]
pub async fn me(RequireUser(user): RequireUser) -> HttpResponse {
    HttpResponse::Ok().json(UserResponse::from(&user))
}

/// `POST /api/login`: a new session for the user (the session cookie is set).
#[utoipa::path(
    post,
    path = "/api/login",
    tag = "accounts",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Logged in; `Set-Cookie` carries the new session.", body = LoggedIn,
            headers(("Set-Cookie" = String, description = "The session cookie."))),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "Invalid email or password.", body = ErrorBody),
        (status = 403, description = "Cross-site request refused.", body = ErrorBody),
        (status = 413, description = "The body is too large.", body = ErrorBody),
        (status = 415, description = "The body is not JSON.", body = ErrorBody),
        (status = 422, description = "A field is missing or invalid.", body = ErrorBody),
        (status = 429, description = "Too many attempts for this address or client.", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn login(
    request: HttpRequest,
    session: Session,
    accounts: web::Data<AccountsService>,
    body: web::Json<LoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let email = required(&mut errors, "email", &body.email, Email::parse);
    required(&mut errors, "password", &body.password, |_| {
        Ok::<_, Infallible>(())
    });
    let email = errors.finish_with(|| email)?;
    let user = accounts
        .login(&email, &body.password, &client_key(&request))
        .await?;
    let message = l10n::text(RequestLanguage::of(&request).0, "site-logged-in");
    log_in(&session, user.into(), &accounts, message)
}

/// `POST /api/logout`: ends the session (logged in or not).
#[utoipa::path(
    post,
    path = "/api/logout",
    tag = "accounts",
    responses(
        (status = 200, description = "Logged out.", body = Message),
        (status = 403, description = "Cross-site request refused.", body = ErrorBody),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn logout(session: Session, language: RequestLanguage) -> HttpResponse {
    session.purge();
    HttpResponse::Ok().json(Message {
        message: l10n::text(language.0, "site-logged-out"),
    })
}

/// Answers the same for an address that already has an account as for a new one (its owner
/// gets a mail instead of a code). The password is checked here so the form says at once what
/// is wrong with it, but it is not kept: the account takes the one sent with the right code.
#[utoipa::path(
    post,
    path = "/api/send-verification-code",
    tag = "accounts",
    request_body(content = SignupRequest, description = "The sign-up form (without `code`)."),
    responses(
        (status = 200, description = "A code was mailed (or, for a registered address, a note to its owner).", body = CodeSent),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 403, description = "Cross-site request refused.", body = ErrorBody),
        (status = 413, description = "The body is too large.", body = ErrorBody),
        (status = 415, description = "The body is not JSON.", body = ErrorBody),
        (status = 422, description = "A field is missing or invalid.", body = ErrorBody),
        (status = 429, description = "A code was sent moments ago, or too many were sent.", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
        (status = 503, description = "The mail could not be sent; try again.", body = ErrorBody),
    ),
    security(()),
)]
pub async fn send_verification_code(
    request: HttpRequest,
    accounts: web::Data<AccountsService>,
    body: web::Json<SignupRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let signup = parse_signup(&mut errors, &body);
    let (name, email, _) = errors.finish_with(|| signup)?;
    let resend_after = accounts
        .send_code(
            name,
            email.clone(),
            &client_key(&request),
            RequestLanguage::of(&request).0,
        )
        .await?;
    Ok(HttpResponse::Ok().json(CodeSent {
        message: l10n::Text::new("site-code-sent")
            .with("email", email.as_str())
            .render(RequestLanguage::of(&request).0),
        resend_after: resend_after.as_secs(),
    }))
}

/// Creates the account with the name and password sent here, with the right code.
#[utoipa::path(
    post,
    path = "/api/verify-code",
    tag = "accounts",
    request_body(content = SignupRequest, description = "The sign-up form with the mailed code."),
    responses(
        (status = 200, description = "The account exists and is logged in; `Set-Cookie` carries the new session.", body = LoggedIn,
            headers(("Set-Cookie" = String, description = "The session cookie."))),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 403, description = "Cross-site request refused.", body = ErrorBody),
        (status = 413, description = "The body is too large.", body = ErrorBody),
        (status = 415, description = "The body is not JSON.", body = ErrorBody),
        (status = 422, description = "A field is missing or invalid, the code is wrong or expired, or the e-mail is already registered.", body = ErrorBody),
        (status = 429, description = "Too many wrong codes.", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security((), ("session_cookie" = [])),
)]
pub async fn verify_code(
    request: HttpRequest,
    session: Session,
    accounts: web::Data<AccountsService>,
    body: web::Json<SignupRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let signup = parse_signup(&mut errors, &body);
    let code = required(&mut errors, "code", &body.code, |code| {
        VerificationCode::parse(code).map_err(|_| l10n::Text::new("error-code-invalid"))
    });
    let ((name, email, password), code) = errors.finish_with(|| signup.zip(code))?;
    let user = accounts
        .verify_code(
            &email,
            &code,
            name,
            password,
            &client_key(&request),
            RequestLanguage::of(&request).0,
        )
        .await?;
    let message = l10n::text(RequestLanguage::of(&request).0, "site-verified");
    log_in(&session, user.into(), &accounts, message)
}

/// Answers the same, in the same time, whether or not the address has an account and whether
/// or not its own limits let a mail go: the lookup, the limits, the token and the mail happen
/// after the answer, on a task of their own. Only the client address's limit answers 429.
#[utoipa::path(
    post,
    path = "/api/forgot-password",
    tag = "accounts",
    request_body = ForgotRequest,
    responses(
        (status = 200, description = "The same answer whether or not the address has an account.", body = Message),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 403, description = "Cross-site request refused.", body = ErrorBody),
        (status = 413, description = "The body is too large.", body = ErrorBody),
        (status = 415, description = "The body is not JSON.", body = ErrorBody),
        (status = 422, description = "The e-mail is missing or invalid.", body = ErrorBody),
        (status = 429, description = "Too many reset requests from this client.", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait."))),
    ),
    security(()),
)]
pub async fn forgot_password(
    request: HttpRequest,
    accounts: web::Data<AccountsService>,
    rate_limits: web::Data<RateLimits>,
    rounds: web::Data<crate::rounds::Rounds>,
    body: web::Json<ForgotRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let email = required(&mut errors, "email", &body.email, Email::parse);
    let email = errors.finish_with(|| email)?;
    rate_limits
        .check(
            "reset-ip",
            &client_key(&request),
            accounts.limits().resets_per_ip,
        )
        .await?;
    let accounts = accounts.clone();
    let language = RequestLanguage::of(&request).0;
    rounds.detach(async move {
        match accounts.forgot_password(&email, language).await {
            Ok(()) => {}
            Err(ForgotPasswordError::Mail(cause)) => {
                tracing::error!(error = ?cause, "could not send a password reset mail");
            }
            Err(ForgotPasswordError::Unknown(cause)) => {
                tracing::error!(error = ?cause, "password reset request failed");
            }
        }
    });
    Ok(HttpResponse::Ok().json(Message {
        message: l10n::text(language, "site-reset-link-sent"),
    }))
}

/// `POST /api/reset-password`: a new password with a mailed link's token. It does not log in.
#[utoipa::path(
    post,
    path = "/api/reset-password",
    tag = "accounts",
    request_body = ResetRequest,
    responses(
        (status = 200, description = "The password was changed.", body = Message),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 403, description = "Cross-site request refused.", body = ErrorBody),
        (status = 413, description = "The body is too large.", body = ErrorBody),
        (status = 415, description = "The body is not JSON.", body = ErrorBody),
        (status = 422, description = "The link is invalid or expired (`token`), or the new password is invalid.", body = ErrorBody),
    ),
    security(()),
)]
pub async fn reset_password(
    language: RequestLanguage,
    accounts: web::Data<AccountsService>,
    body: web::Json<ResetRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut errors = FieldErrors::new();
    let password = parse_new_password(&mut errors, &body.password, &body.password_confirmation);
    let email = Email::parse(&body.email).ok();
    if body.token.trim().is_empty() || email.is_none() {
        errors.add("token", ResetPasswordError::InvalidToken.to_string());
    }
    let (email, password) = errors.finish_with(|| Some((email?, password?)))?;
    accounts
        .reset_password(&email, &ResetToken::from_link(&body.token), password)
        .await?;
    Ok(HttpResponse::Ok().json(Message {
        message: l10n::text(language.0, "site-password-reset"),
    }))
}
