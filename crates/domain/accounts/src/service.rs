use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

use crate::{
    AccountMail, AttemptKind, AttemptLog, Clock, Email, ForgotPasswordError, LoginError, Mailer,
    NewUser, Password, PasswordHasher, PendingSignup, Randomness, RepoError, ResetPasswordError,
    ResetToken, Role, SendCodeError, UpsertUserError, User, UserId, UserName, UserStore,
    VerificationCode, VerifyCodeError,
};

/// The numbers behind the account rules.
#[derive(Debug, Clone)]
pub struct Limits {
    /// How long a sign-up code stays valid.
    pub code_ttl: Duration,
    /// How long before another code may be sent to the same address.
    pub resend_after: Duration,
    /// Wrong codes allowed per sent code.
    pub code_attempts: u32,
    /// How long a reset link stays valid.
    pub reset_ttl: Duration,
    /// The window every rate limit counts in.
    pub window: Duration,
    pub failed_logins_per_address: u32,
    pub failed_logins_per_ip: u32,
    pub codes_sent_per_address: u32,
    pub codes_sent_per_ip: u32,
    pub wrong_codes_per_ip: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            code_ttl: Duration::from_secs(15 * 60),
            resend_after: Duration::from_secs(60),
            code_attempts: 5,
            reset_ttl: Duration::from_secs(60 * 60),
            window: Duration::from_secs(15 * 60),
            failed_logins_per_address: 5,
            failed_logins_per_ip: 30,
            codes_sent_per_address: 5,
            codes_sent_per_ip: 20,
            wrong_codes_per_ip: 30,
        }
    }
}

/// The accounts service, generic over its ports.
pub struct Accounts<S, A, M, C, R, H> {
    store: S,
    attempts: A,
    mailer: M,
    clock: C,
    random: R,
    hasher: H,
    limits: Limits,
}

fn delta(duration: Duration) -> TimeDelta {
    TimeDelta::from_std(duration).unwrap_or(TimeDelta::MAX)
}

/// From `now` until `later` in whole seconds, rounded up, at least one.
fn until(now: DateTime<Utc>, later: DateTime<Utc>) -> Duration {
    let wait = (later - now).to_std().unwrap_or_default();
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    Duration::from_secs(secs.max(1))
}

impl<S, A, M, C, R, H> Accounts<S, A, M, C, R, H>
where
    S: UserStore,
    A: AttemptLog,
    M: Mailer,
    C: Clock,
    R: Randomness,
    H: PasswordHasher,
{
    pub fn new(store: S, attempts: A, mailer: M, clock: C, random: R, hasher: H) -> Self {
        Accounts {
            store,
            attempts,
            mailer,
            clock,
            random,
            hasher,
            limits: Limits::default(),
        }
    }

    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn clock(&self) -> &C {
        &self.clock
    }

    pub fn hasher(&self) -> &H {
        &self.hasher
    }

    /// The account with this id, if it still exists.
    pub async fn user(&self, id: UserId) -> Result<Option<User>, RepoError> {
        self.store.user_by_id(id).await
    }

    /// The account with this address, if any.
    pub async fn user_by_email(&self, email: &Email) -> Result<Option<User>, RepoError> {
        self.store.user_by_email(email).await
    }

    /// `Err(retry_after)` when `limit` attempts of this kind and key fall in the window.
    async fn check_limit(
        &self,
        kind: AttemptKind,
        key: &str,
        limit: u32,
        now: DateTime<Utc>,
    ) -> Result<Result<(), Duration>, RepoError> {
        let window = delta(self.limits.window);
        let attempts = self
            .attempts
            .attempts_since(kind, key, now - window)
            .await?;
        if attempts.count < limit {
            return Ok(Ok(()));
        }
        let oldest = attempts.oldest.unwrap_or(now);
        Ok(Err(until(now, oldest + window)))
    }

    async fn record(
        &self,
        kind: AttemptKind,
        key: &str,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let forget_before = now - delta(self.limits.window);
        self.attempts
            .record_attempt(kind, key, now, forget_before)
            .await
    }

    /// Checks the address and password. Every failure looks the same to the caller, and an
    /// unknown address costs as much time as a wrong password.
    #[tracing::instrument(skip(self, password, ip), fields(email = %email))]
    pub async fn login(&self, email: &Email, password: &str, ip: &str) -> Result<User, LoginError> {
        let now = self.clock.now();
        let limits = &self.limits;
        for (kind, key, limit) in [
            (
                AttemptKind::FailedLoginByAddress,
                email.as_str(),
                limits.failed_logins_per_address,
            ),
            (
                AttemptKind::FailedLoginByIp,
                ip,
                limits.failed_logins_per_ip,
            ),
        ] {
            if let Err(retry_after) = self.check_limit(kind, key, limit, now).await? {
                return Err(LoginError::TooManyAttempts { retry_after });
            }
        }

        let user = self.store.user_by_email(email).await?;
        let hash = user
            .as_ref()
            .map_or_else(|| self.hasher.decoy_hash(), |u| u.password_hash.clone());
        let matches = self.hasher.verify(password.to_owned(), hash).await?;
        match user {
            Some(user) if matches => {
                self.attempts
                    .clear_attempts(AttemptKind::FailedLoginByAddress, email.as_str())
                    .await?;
                Ok(user)
            }
            _ => {
                self.record(AttemptKind::FailedLoginByAddress, email.as_str(), now)
                    .await?;
                self.record(AttemptKind::FailedLoginByIp, ip, now).await?;
                Err(LoginError::InvalidCredentials)
            }
        }
    }

    /// Starts (or restarts) a sign-up: stores it with a new code and mails the code. Returns
    /// how long before another code may be asked for.
    ///
    /// When the mail cannot be sent the sign-up stays and a new code may be asked for at once.
    #[tracing::instrument(skip(self, name, password, ip), fields(email = %email))]
    pub async fn send_code(
        &self,
        name: UserName,
        email: Email,
        password: Password,
        ip: &str,
    ) -> Result<Duration, SendCodeError> {
        let now = self.clock.now();
        if self.store.user_by_email(&email).await?.is_some() {
            return Err(SendCodeError::EmailTaken);
        }
        if let Some(pending) = self.store.pending_signup(&email).await? {
            if pending.resend_at > now {
                return Err(SendCodeError::TooSoon {
                    retry_after: until(now, pending.resend_at),
                });
            }
        }
        let limits = &self.limits;
        for (kind, key, limit) in [
            (
                AttemptKind::CodeSentToAddress,
                email.as_str(),
                limits.codes_sent_per_address,
            ),
            (AttemptKind::CodeSentByIp, ip, limits.codes_sent_per_ip),
        ] {
            if let Err(retry_after) = self.check_limit(kind, key, limit, now).await? {
                return Err(SendCodeError::TooManySends { retry_after });
            }
        }

        let code = VerificationCode::from_number(self.random.six_digits());
        let password_hash = self.hasher.hash(password.expose().to_owned()).await?;
        let pending = PendingSignup {
            email: email.clone(),
            name: name.clone(),
            password_hash,
            code_hash: code.hash(),
            attempts: 0,
            expires_at: now + delta(limits.code_ttl),
            resend_at: now + delta(limits.resend_after),
        };
        self.store.save_pending_signup(pending.clone()).await?;
        let mail = AccountMail::SignupCode {
            to: email.clone(),
            name,
            code,
        };
        if let Err(error) = self.mailer.send(mail).await {
            self.store
                .save_pending_signup(PendingSignup {
                    resend_at: now,
                    ..pending
                })
                .await?;
            return Err(SendCodeError::Mail(error));
        }
        self.record(AttemptKind::CodeSentToAddress, email.as_str(), now)
            .await?;
        self.record(AttemptKind::CodeSentByIp, ip, now).await?;
        Ok(limits.resend_after)
    }

    /// Confirms a sign-up with its code and creates the customer account.
    ///
    /// Every try counts, so a burst of parallel guesses cannot get past the limit; once the
    /// limit is used up even the right code is refused until a new one is sent.
    #[tracing::instrument(skip(self, code, ip), fields(email = %email))]
    pub async fn verify_code(
        &self,
        email: &Email,
        code: &VerificationCode,
        ip: &str,
    ) -> Result<User, VerifyCodeError> {
        let now = self.clock.now();
        if let Err(retry_after) = self
            .check_limit(
                AttemptKind::WrongCodeByIp,
                ip,
                self.limits.wrong_codes_per_ip,
                now,
            )
            .await?
        {
            return Err(VerifyCodeError::TooManyAttempts {
                retry_after: Some(retry_after),
            });
        }
        let Some(pending) = self.store.pending_signup(email).await? else {
            return Err(VerifyCodeError::Expired);
        };
        if pending.expires_at <= now {
            return Err(VerifyCodeError::Expired);
        }
        let tries = self.store.add_code_attempt(email).await?;
        if tries > self.limits.code_attempts {
            return Err(VerifyCodeError::TooManyAttempts { retry_after: None });
        }
        if !pending.code_hash.matches(&code.hash()) {
            self.record(AttemptKind::WrongCodeByIp, ip, now).await?;
            return Err(VerifyCodeError::InvalidCode);
        }
        let user = self
            .store
            .complete_signup(NewUser {
                name: pending.name,
                email: pending.email,
                role: Role::Customer,
                password_hash: pending.password_hash,
            })
            .await?;
        tracing::info!(user = %user.id, "account created");
        Ok(user)
    }

    /// Mails a reset link when the address has an account; does nothing visible otherwise.
    /// Callers answer the same either way.
    #[tracing::instrument(skip(self), fields(email = %email))]
    pub async fn forgot_password(&self, email: &Email) -> Result<(), ForgotPasswordError> {
        let now = self.clock.now();
        let token = ResetToken::from_bytes(self.random.bytes32());
        let Some(user) = self.store.user_by_email(email).await? else {
            return Ok(());
        };
        self.store
            .save_reset_token(user.id, token.hash(), now + delta(self.limits.reset_ttl))
            .await?;
        self.mailer
            .send(AccountMail::PasswordReset {
                to: user.email,
                name: user.name,
                token,
            })
            .await
            .map_err(ForgotPasswordError::Mail)
    }

    /// Sets a new password with a reset token: it must exist, be unused, unexpired and belong
    /// to this address. The token is used up.
    #[tracing::instrument(skip(self, token, password), fields(email = %email))]
    pub async fn reset_password(
        &self,
        email: &Email,
        token: &ResetToken,
        password: Password,
    ) -> Result<(), ResetPasswordError> {
        let now = self.clock.now();
        let hash = token.hash();
        let Some(record) = self.store.reset_token(&hash).await? else {
            return Err(ResetPasswordError::InvalidToken);
        };
        if record.used || record.expires_at <= now || record.email != *email {
            return Err(ResetPasswordError::InvalidToken);
        }
        let password_hash = self.hasher.hash(password.expose().to_owned()).await?;
        if !self
            .store
            .redeem_reset_token(&hash, record.user_id, password_hash, now)
            .await?
        {
            return Err(ResetPasswordError::InvalidToken);
        }
        tracing::info!(user = %record.user_id, "password reset");
        Ok(())
    }

    /// Creates an account with this role, or sets the role, name and password of the existing
    /// one: how staff accounts are made.
    #[tracing::instrument(skip(self, name, password), fields(email = %email, role = %role))]
    pub async fn upsert_user(
        &self,
        email: Email,
        name: UserName,
        role: Role,
        password: Password,
    ) -> Result<User, UpsertUserError> {
        let password_hash = self.hasher.hash(password.expose().to_owned()).await?;
        Ok(self
            .store
            .upsert_user(NewUser {
                name,
                email,
                role,
                password_hash,
            })
            .await?)
    }
}

#[cfg(test)]
mod tests;
