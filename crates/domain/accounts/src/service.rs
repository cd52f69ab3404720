use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use shared::{
    admit, forget, give_back, seconds_until, Actor, Language, RateLimiter, Refused, Rule,
};

use crate::bucket;
use crate::{
    AccountMail, Clock, Email, ForgotPasswordError, LoginError, Mailer, NewUser, Password,
    PasswordHasher, PendingSignup, Randomness, RepoError, ResetPasswordError, ResetToken, Role,
    SendCodeError, UpsertUserError, User, UserId, UserName, UserSessions, UserStore,
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
    /// Login attempts per address; a successful login forgets the address's count.
    pub logins_per_address: Rule,
    /// Login attempts per client address.
    pub logins_per_ip: Rule,
    /// Sign-up code requests per e-mail address.
    pub codes_per_address: Rule,
    /// Sign-up code requests per client address.
    pub codes_per_ip: Rule,
    /// Code checks per client address.
    pub code_checks_per_ip: Rule,
    /// How long before another reset link may be mailed to the same account.
    pub reset_resend_after: Duration,
    /// Reset links mailed per account.
    pub resets_per_address: Rule,
    /// Forgot-password requests per client address.
    pub resets_per_ip: Rule,
    /// How long after logging in a staff session (admin, super_admin) ends, however busy.
    pub staff_session_max_age: Duration,
    /// The same for customers.
    pub customer_session_max_age: Duration,
    /// How long after its payment an erased buyer's order keeps what a dispute's evidence
    /// needs (and as long as a dispute of it is open): the banks take disputes for about 120
    /// days.
    pub evidence_retention: Duration,
}

const FIFTEEN_MINUTES: Duration = Duration::from_secs(15 * 60);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            code_ttl: FIFTEEN_MINUTES,
            resend_after: Duration::from_secs(60),
            code_attempts: 5,
            reset_ttl: Duration::from_secs(60 * 60),
            logins_per_address: Rule::new(5, FIFTEEN_MINUTES),
            logins_per_ip: Rule::new(30, FIFTEEN_MINUTES),
            codes_per_address: Rule::new(5, FIFTEEN_MINUTES),
            codes_per_ip: Rule::new(20, FIFTEEN_MINUTES),
            code_checks_per_ip: Rule::new(30, FIFTEEN_MINUTES),
            reset_resend_after: Duration::from_secs(60),
            resets_per_address: Rule::per_hour(5),
            resets_per_ip: Rule::per_hour(20),
            staff_session_max_age: Duration::from_secs(12 * 60 * 60),
            customer_session_max_age: Duration::from_secs(30 * 24 * 60 * 60),
            evidence_retention: Duration::from_secs(120 * 24 * 60 * 60),
        }
    }
}

/// What a counted password check found.
enum PasswordCheck {
    Matches,
    /// A wrong password, or no such account.
    Wrong,
    /// The client address or the e-mail address has used up its attempts.
    TooManyAttempts {
        retry_after: Duration,
    },
}

/// The ports the accounts service runs on, named once: the app's set, or a test's mocks.
pub trait AccountPorts: 'static {
    type Store: UserStore;
    type Limiter: RateLimiter;
    type Mailer: Mailer;
    type Clock: Clock;
    type Random: Randomness;
    type Hasher: PasswordHasher;
    type Sessions: UserSessions;
}

/// The accounts service, over its ports.
pub struct Accounts<P: AccountPorts> {
    store: P::Store,
    limiter: P::Limiter,
    mailer: P::Mailer,
    clock: P::Clock,
    random: P::Random,
    hasher: P::Hasher,
    sessions: P::Sessions,
    limits: Limits,
}

fn delta(duration: Duration) -> TimeDelta {
    TimeDelta::from_std(duration).unwrap_or(TimeDelta::MAX)
}

impl<P: AccountPorts> Accounts<P> {
    pub fn new(
        store: P::Store,
        limiter: P::Limiter,
        mailer: P::Mailer,
        clock: P::Clock,
        random: P::Random,
        hasher: P::Hasher,
        sessions: P::Sessions,
    ) -> Self {
        Accounts {
            store,
            limiter,
            mailer,
            clock,
            random,
            hasher,
            sessions,
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

    pub fn clock(&self) -> &P::Clock {
        &self.clock
    }

    pub fn hasher(&self) -> &P::Hasher {
        &self.hasher
    }

    /// The account with this id, if it still exists.
    pub async fn user(&self, id: UserId) -> Result<Option<User>, RepoError> {
        self.store.user_by_id(id).await
    }

    /// The language the account's mail is written in, as the shopper chose it.
    #[tracing::instrument(skip(self))]
    pub async fn set_language(&self, id: UserId, language: Language) -> Result<(), RepoError> {
        self.store.set_language(id, language).await
    }

    /// The account with this address, if any.
    pub async fn user_by_email(&self, email: &Email) -> Result<Option<User>, RepoError> {
        self.store.user_by_email(email).await
    }

    /// Whether a session of a user with this role, logged in at `logged_in_at`, is still within
    /// its absolute lifetime (staff 12 hours, customers 30 days by default).
    pub fn session_is_current(&self, role: Role, logged_in_at: DateTime<Utc>) -> bool {
        let max_age = if role.is_staff() {
            self.limits.staff_session_max_age
        } else {
            self.limits.customer_session_max_age
        };
        self.clock.now() - logged_in_at < delta(max_age)
    }

    /// Counts one request of `key` in `bucket` under `rule`, in one step of the shared store.
    async fn admit(
        &self,
        bucket: &str,
        key: &str,
        rule: Rule,
        now: DateTime<Utc>,
    ) -> Result<Result<(), Refused>, shared::LimitError> {
        admit(&self.limiter, bucket, key, rule, now).await
    }

    /// Checks the address and password (see [`Self::check_password`]). Every failure looks
    /// the same to the caller, and an unknown address costs as much time as a wrong password.
    #[tracing::instrument(skip_all)]
    pub async fn login(&self, email: &Email, password: &str, ip: &str) -> Result<User, LoginError> {
        let (check, user) = self
            .check_password(email, password, ip, || self.store.user_by_email(email))
            .await?;
        match check {
            PasswordCheck::TooManyAttempts { retry_after } => {
                Err(LoginError::TooManyAttempts { retry_after })
            }
            PasswordCheck::Matches => user.ok_or(LoginError::InvalidCredentials),
            PasswordCheck::Wrong => Err(LoginError::InvalidCredentials),
        }
    }

    /// Every password check of the shop (login, deleting the account, any later one) goes
    /// through here, so they share one set of counters: the client address's and the e-mail
    /// address's login limits. Both are counted before the account is read or any password
    /// hashed, so parallel guesses cannot pass them, and wrong passwords anywhere lock the
    /// others too. A match gives the client address its attempt back (a shop behind one NAT,
    /// or a proxy not in trusted_proxies, must not lock out its own customers) and forgets the
    /// e-mail address's count. `account` reads the account of `email` (returned with the
    /// answer); without one a decoy hash is checked.
    async fn check_password<F>(
        &self,
        email: &Email,
        password: &str,
        ip: &str,
        account: impl FnOnce() -> F,
    ) -> Result<(PasswordCheck, Option<User>), anyhow::Error>
    where
        F: std::future::Future<Output = Result<Option<User>, RepoError>>,
    {
        let now = self.clock.now();
        let limits = &self.limits;
        let unknown = |shared::LimitError::Unknown(cause)| cause;
        for (bucket, key, rule) in [
            (bucket::LOGIN_IP, ip, limits.logins_per_ip),
            (
                bucket::LOGIN_ADDRESS,
                email.as_str(),
                limits.logins_per_address,
            ),
        ] {
            if let Err(refused) = self.admit(bucket, key, rule, now).await.map_err(unknown)? {
                let check = PasswordCheck::TooManyAttempts {
                    retry_after: refused.retry_after,
                };
                return Ok((check, None));
            }
        }
        let user = account().await.map_err(|error| match error {
            RepoError::Duplicate => anyhow::anyhow!("unexpected duplicate record"),
            RepoError::Unknown(cause) => cause,
        })?;
        let hash = user
            .as_ref()
            .map_or_else(|| self.hasher.decoy_hash(), |u| u.password_hash.clone());
        let matches = self.hasher.verify(password.to_owned(), hash).await?;
        if !(matches && user.is_some()) {
            return Ok((PasswordCheck::Wrong, user));
        }
        give_back(
            &self.limiter,
            bucket::LOGIN_IP,
            ip,
            limits.logins_per_ip,
            now,
        )
        .await
        .map_err(unknown)?;
        forget(
            &self.limiter,
            bucket::LOGIN_ADDRESS,
            email.as_str(),
            limits.logins_per_address,
            now,
        )
        .await
        .map_err(unknown)?;
        Ok((PasswordCheck::Matches, user))
    }

    /// Starts (or restarts) a sign-up: stores it with a new code and mails the code. Returns
    /// how long before another code may be asked for.
    ///
    /// An address that already has an account is answered the same, with the same work; its
    /// owner gets a mail saying someone tried to register with it instead of a code.
    /// At most one code per address goes out per `resend_after`, however many requests arrive
    /// at once. When the mail cannot be sent the sign-up stays and a new code may be asked for
    /// at once.
    #[tracing::instrument(skip_all)]
    pub async fn send_code(
        &self,
        name: UserName,
        email: Email,
        ip: &str,
        language: Language,
    ) -> Result<Duration, SendCodeError> {
        let now = self.clock.now();
        let too_soon = |resend_at: DateTime<Utc>| SendCodeError::TooSoon {
            retry_after: seconds_until(now, resend_at),
        };
        // Asking again too early is answered before it counts against the limits.
        if let Some(pending) = self.store.pending_signup(&email).await? {
            if pending.resend_at > now {
                return Err(too_soon(pending.resend_at));
            }
        }
        let limits = &self.limits;
        for (bucket, key, rule) in [
            (bucket::CODE_IP, ip, limits.codes_per_ip),
            (
                bucket::CODE_ADDRESS,
                email.as_str(),
                limits.codes_per_address,
            ),
        ] {
            if let Err(refused) = self.admit(bucket, key, rule, now).await? {
                return Err(SendCodeError::TooManySends {
                    retry_after: refused.retry_after,
                });
            }
        }

        let owner = self.store.user_by_email(&email).await?;
        let code = VerificationCode::from_number(self.random.six_digits());
        let pending = PendingSignup {
            email: email.clone(),
            name: name.clone(),
            code_hash: code.hash(),
            attempts: 0,
            expires_at: now + delta(limits.code_ttl),
            resend_at: now + delta(limits.resend_after),
        };
        if !self.store.claim_signup(pending.clone(), now).await? {
            // a parallel request sent a code just now
            let resend_at = self
                .store
                .pending_signup(&email)
                .await?
                .map_or(pending.resend_at, |p| p.resend_at);
            return Err(too_soon(resend_at));
        }
        let mail = match owner {
            Some(owner) => AccountMail::SignupAttempt {
                to: email,
                name: owner.name,
                language: owner.language.unwrap_or(language),
            },
            None => AccountMail::SignupCode {
                to: email,
                name,
                code,
                language,
            },
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
        Ok(limits.resend_after)
    }

    /// Confirms a sign-up with its code and creates the customer account with the name and
    /// password sent with the code (whoever reads the inbox decides them).
    ///
    /// Every try counts, so a burst of parallel guesses cannot get past the limit; once the
    /// limit is used up even the right code is refused until a new one is sent. The password
    /// is hashed only for the right code.
    #[tracing::instrument(skip_all)]
    pub async fn verify_code(
        &self,
        email: &Email,
        code: &VerificationCode,
        name: UserName,
        password: Password,
        ip: &str,
        language: Language,
    ) -> Result<User, VerifyCodeError> {
        let now = self.clock.now();
        if let Err(refused) = self
            .admit(
                bucket::CODE_CHECK_IP,
                ip,
                self.limits.code_checks_per_ip,
                now,
            )
            .await?
        {
            return Err(VerifyCodeError::TooManyAttempts {
                retry_after: Some(refused.retry_after),
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
            return Err(VerifyCodeError::InvalidCode);
        }
        let password_hash = self.hasher.hash(password.expose().to_owned()).await?;
        let user = self
            .store
            .complete_signup(NewUser {
                name,
                email: pending.email,
                role: Role::Customer,
                password_hash,
                language: Some(language),
            })
            .await?;
        tracing::info!(user = %user.id, "account created");
        Ok(user)
    }

    /// Mails a reset link when the address has an account; does nothing visible otherwise.
    /// Callers answer the same either way. At most one link per account goes out per
    /// `reset_resend_after` and `resets_per_address` per window; past those nothing is sent.
    /// A new link voids the older ones.
    #[tracing::instrument(skip_all)]
    pub async fn forgot_password(
        &self,
        email: &Email,
        language: Language,
    ) -> Result<(), ForgotPasswordError> {
        let now = self.clock.now();
        let token = ResetToken::from_bytes(self.random.bytes32());
        let Some(user) = self.store.user_by_email(email).await? else {
            return Ok(());
        };
        let last_before = now - delta(self.limits.reset_resend_after);
        if !self
            .store
            .claim_reset_mail(user.id, now, last_before)
            .await?
        {
            tracing::debug!(user = %user.id, "a reset link went out moments ago");
            return Ok(());
        }
        let key = user.id.to_string();
        let rule = self.limits.resets_per_address;
        if self
            .admit(bucket::RESET_ADDRESS, &key, rule, now)
            .await?
            .is_err()
        {
            tracing::info!(user = %user.id, "too many reset links for one account");
            return Ok(());
        }
        self.store
            .save_reset_token(user.id, token.hash(), now + delta(self.limits.reset_ttl))
            .await?;
        self.mailer
            .send(AccountMail::PasswordReset {
                to: user.email,
                name: user.name,
                token,
                language: user.language.unwrap_or(language),
            })
            .await
            .map_err(ForgotPasswordError::Mail)
    }

    /// Sets a new password with a reset token: it must exist, be unused, unexpired and belong
    /// to this address. The token is used up and every session of the user ends.
    #[tracing::instrument(skip_all)]
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
        let ended = self.sessions.end_all(record.user_id).await?;
        tracing::info!(user = %record.user_id, sessions_ended = ended, "password reset");
        Ok(())
    }

    /// Creates an account with this role, or sets the role, name and password of the existing
    /// one (ending its sessions): how staff accounts are made. The audit log records it as done
    /// by `actor` (the command line); `None` only for the demo seed.
    #[tracing::instrument(skip_all, fields(role = %role))]
    pub async fn upsert_user(
        &self,
        email: Email,
        name: UserName,
        role: Role,
        password: Password,
        actor: Option<&Actor>,
    ) -> Result<User, UpsertUserError> {
        let password_hash = self.hasher.hash(password.expose().to_owned()).await?;
        let existed = self.store.user_by_email(&email).await?.is_some();
        let user = self
            .store
            .upsert_user(
                NewUser {
                    name,
                    email,
                    role,
                    password_hash,
                    language: None,
                },
                actor.cloned(),
            )
            .await?;
        if existed {
            let ended = self.sessions.end_all(user.id).await?;
            tracing::info!(user = %user.id, sessions_ended = ended, "account changed");
        }
        Ok(user)
    }
}

impl<P: AccountPorts> Accounts<P> {
    /// A shopper deletes their own account, confirming with their password: the account, its
    /// chats, reset tokens and rate limit counts go, its orders stay for the books without the
    /// buyer's identity ([`crate::Erasure`]), and every session of it ends. Refused for staff
    /// and while an order still waits for payment or delivery. The password is checked in the
    /// login's counters (the account's e-mail address and `ip`), so wrong passwords here lock
    /// the login too, and the reverse.
    #[tracing::instrument(skip_all, fields(user = %id))]
    pub async fn delete_own_account(
        &self,
        id: UserId,
        password: &str,
        ip: &str,
        eraser: &impl crate::AccountEraser,
    ) -> Result<(), crate::DeleteAccountError> {
        use crate::{DeleteAccountError, Erased, Erasure};
        let user = self
            .store
            .user_by_id(id)
            .await?
            .ok_or(DeleteAccountError::NotFound)?;
        let known = || std::future::ready(Ok(Some(user.clone())));
        let (check, _) = self
            .check_password(&user.email, password, ip, known)
            .await?;
        match check {
            PasswordCheck::Matches => {}
            PasswordCheck::Wrong => return Err(DeleteAccountError::WrongPassword),
            PasswordCheck::TooManyAttempts { retry_after } => {
                return Err(DeleteAccountError::TooManyAttempts { retry_after })
            }
        }
        if user.role.is_staff() {
            return Err(DeleteAccountError::Staff);
        }
        match eraser
            .erase(Erasure::of(
                id,
                &user.email,
                self.clock.now(),
                delta(self.limits.evidence_retention),
            ))
            .await?
        {
            Erased::Done => {}
            Erased::OpenOrders(n) => return Err(DeleteAccountError::OpenOrders(n)),
            Erased::NotFound => return Err(DeleteAccountError::NotFound),
        }
        let ended = self.sessions.end_all(id).await?;
        tracing::info!(sessions_ended = ended, "account deleted by its owner");
        Ok(())
    }

    /// [`Self::delete_own_account`] with the store as the eraser (the store the shop wires
    /// keeps both the accounts and what names them).
    pub async fn delete_account(
        &self,
        id: UserId,
        password: &str,
        ip: &str,
    ) -> Result<(), crate::DeleteAccountError>
    where
        P::Store: crate::AccountEraser,
    {
        self.delete_own_account(id, password, ip, &self.store).await
    }
}

#[cfg(test)]
mod tests;
