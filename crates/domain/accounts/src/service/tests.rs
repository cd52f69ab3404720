#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use chrono::TimeZone;
use mockall::predicate::eq;
use shared::{Actor, MemoryLimiter};

use super::*;
use crate::ports::{
    MockClock, MockMailer, MockPasswordHasher, MockRandomness, MockUserSessions, MockUserStore,
};
use crate::{MailError, PasswordHash, ResetTokenRecord, TokenHash};

/// The service on mocks (and the in-memory limiter).
struct Mocks;

impl crate::AccountPorts for Mocks {
    type Store = MockUserStore;
    type Limiter = MemoryLimiter;
    type Mailer = MockMailer;
    type Clock = MockClock;
    type Random = MockRandomness;
    type Hasher = MockPasswordHasher;
    type Sessions = MockUserSessions;
}

type Service = Accounts<Mocks>;

/// 10:00:05, five seconds into a 15-minute window.
fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 5).unwrap()
}

fn minutes(n: i64) -> TimeDelta {
    TimeDelta::minutes(n)
}

fn email(raw: &str) -> Email {
    Email::parse(raw).unwrap()
}

fn user(id: i64, address: &str, password: &str) -> User {
    User {
        id: UserId::new(id),
        name: UserName::parse("Ann").unwrap(),
        email: email(address),
        role: Role::Customer,
        password_hash: PasswordHash::new(format!("hashed:{password}")),
        language: None,
    }
}

/// A stand-in for argon2: `hashed:<password>`, and a decoy that matches nothing.
fn hasher() -> MockPasswordHasher {
    let mut hasher = MockPasswordHasher::new();
    hasher
        .expect_hash()
        .returning(|p| Box::pin(async move { Ok(PasswordHash::new(format!("hashed:{p}"))) }));
    hasher
        .expect_verify()
        .returning(|p, h| Box::pin(async move { Ok(h.as_str() == format!("hashed:{p}")) }));
    hasher
        .expect_decoy_hash()
        .returning(|| PasswordHash::new("decoy".into()));
    hasher
}

fn clock_at(at: DateTime<Utc>) -> MockClock {
    let mut clock = MockClock::new();
    clock.expect_now().return_const(at);
    clock
}

fn random() -> MockRandomness {
    let mut random = MockRandomness::new();
    random.expect_six_digits().return_const(42_u32);
    random.expect_bytes32().return_const([9_u8; 32]);
    random
}

/// Sessions that must not be touched.
fn no_sessions() -> MockUserSessions {
    let mut sessions = MockUserSessions::new();
    sessions.expect_end_all().never();
    sessions
}

fn service(store: MockUserStore, mailer: MockMailer) -> Service {
    service_with(store, mailer, MemoryLimiter::new(), no_sessions())
}

fn service_with(
    store: MockUserStore,
    mailer: MockMailer,
    limiter: MemoryLimiter,
    sessions: MockUserSessions,
) -> Service {
    Service::new(
        store,
        limiter,
        mailer,
        clock_at(now()),
        random(),
        hasher(),
        sessions,
    )
}

fn store_with(known: Option<User>) -> MockUserStore {
    let mut store = MockUserStore::new();
    store.expect_user_by_email().returning(move |_| {
        let known = known.clone();
        Box::pin(async move { Ok(known) })
    });
    store
}

fn no_mail() -> MockMailer {
    let mut mailer = MockMailer::new();
    mailer.expect_send().never();
    mailer
}

/// A limiter that has already counted `count` requests of `bucket:key` in this window.
async fn limiter_with(bucket: &str, key: &str, count: u32) -> MemoryLimiter {
    let limiter = MemoryLimiter::new();
    let rule = Rule::new(u32::MAX, FIFTEEN_MINUTES);
    for _ in 0..count {
        admit(&limiter, bucket, key, rule, now())
            .await
            .unwrap()
            .unwrap();
    }
    limiter
}

// ---- login

async fn login(accounts: &Service, address: &str, password: &str) -> Result<User, LoginError> {
    accounts.login(&email(address), password, "10.0.0.1").await
}

#[tokio::test]
async fn login_with_the_right_password_returns_the_user_and_forgets_the_addresss_count() {
    let limiter = limiter_with(bucket::LOGIN_ADDRESS, "ann@example.com", 4).await;
    let accounts = service_with(
        store_with(Some(user(1, "ann@example.com", "correct horse"))),
        no_mail(),
        limiter,
        no_sessions(),
    );
    let found = login(&accounts, "Ann@Example.com", "correct horse")
        .await
        .unwrap();
    assert_eq!(found.id, UserId::new(1));
    // the count is forgotten: five more tries pass the address limit
    for _ in 0..5 {
        assert!(matches!(
            login(&accounts, "ann@example.com", "wrong").await,
            Err(LoginError::InvalidCredentials)
        ));
    }
    assert!(matches!(
        login(&accounts, "ann@example.com", "correct horse").await,
        Err(LoginError::TooManyAttempts { .. })
    ));
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_address_fail_alike() {
    for known in [Some(user(1, "ann@example.com", "correct horse")), None] {
        let mut hasher = hasher();
        hasher.checkpoint();
        let was_known = known.is_some();
        hasher.expect_verify().times(1).returning(move |_, h| {
            // an unknown address is checked against the decoy: the same argon2 work
            assert_eq!(h.as_str() == "decoy", !was_known);
            Box::pin(async { Ok(false) })
        });
        hasher
            .expect_decoy_hash()
            .returning(|| PasswordHash::new("decoy".into()));
        let accounts = Service::new(
            store_with(known),
            MemoryLimiter::new(),
            no_mail(),
            clock_at(now()),
            random(),
            hasher,
            no_sessions(),
        );
        assert!(matches!(
            login(&accounts, "ann@example.com", "wrong").await,
            Err(LoginError::InvalidCredentials)
        ));
    }
}

#[tokio::test]
async fn the_sixth_login_in_the_window_is_refused_before_any_password_is_checked() {
    let mut hasher = MockPasswordHasher::new();
    hasher
        .expect_verify()
        .times(5)
        .returning(|_, _| Box::pin(async { Ok(false) }));
    hasher
        .expect_decoy_hash()
        .returning(|| PasswordHash::new("decoy".into()));
    let accounts = Service::new(
        store_with(Some(user(1, "ann@example.com", "correct horse"))),
        MemoryLimiter::new(),
        no_mail(),
        clock_at(now()),
        random(),
        hasher,
        no_sessions(),
    );
    for _ in 0..5 {
        assert!(matches!(
            login(&accounts, "ann@example.com", "wrong").await,
            Err(LoginError::InvalidCredentials)
        ));
    }
    match login(&accounts, "ann@example.com", "correct horse").await {
        Err(LoginError::TooManyAttempts { retry_after }) => {
            // until the 15-minute window that started at 10:00:00 ends
            assert_eq!(retry_after, Duration::from_secs(15 * 60 - 5));
        }
        other => panic!("expected a rate limit, got {other:?}"),
    }
}

#[tokio::test]
async fn thirty_attempts_from_one_ip_block_every_address_from_it() {
    let limiter = limiter_with(bucket::LOGIN_IP, "10.0.0.9", 30).await;
    let mut store = MockUserStore::new();
    store.expect_user_by_email().never();
    let accounts = service_with(store, no_mail(), limiter, no_sessions());
    let error = accounts
        .login(&email("bob@example.com"), "whatever1", "10.0.0.9")
        .await
        .unwrap_err();
    assert!(matches!(error, LoginError::TooManyAttempts { .. }));
}

// ---- sign-up codes

fn signup_store(
    known: Option<User>,
    pending: Option<PendingSignup>,
    saved: Arc<Mutex<Vec<PendingSignup>>>,
) -> MockUserStore {
    let mut store = store_with(known);
    store.expect_pending_signup().returning(move |_| {
        let pending = pending.clone();
        Box::pin(async move { Ok(pending) })
    });
    let claimed = Arc::clone(&saved);
    store.expect_claim_signup().returning(move |signup, at| {
        assert_eq!(at, now());
        claimed.lock().unwrap().push(signup);
        Box::pin(async { Ok(true) })
    });
    store.expect_save_pending_signup().returning(move |signup| {
        saved.lock().unwrap().push(signup);
        Box::pin(async { Ok(()) })
    });
    store
}

fn pending(attempts: u32, expires_in: TimeDelta, resend_in: TimeDelta) -> PendingSignup {
    PendingSignup {
        email: email("ann@example.com"),
        name: UserName::parse("Ann").unwrap(),
        code_hash: VerificationCode::from_number(42).hash(),
        attempts,
        expires_at: now() + expires_in,
        resend_at: now() + resend_in,
    }
}

async fn send(accounts: &Service) -> Result<Duration, SendCodeError> {
    accounts
        .send_code(
            UserName::parse("Ann").unwrap(),
            email("ann@example.com"),
            "10.0.0.1",
            Language::Spanish,
        )
        .await
}

#[tokio::test]
async fn a_sign_up_stores_the_codes_hash_only_and_mails_the_code() {
    let saved = Arc::default();
    let mut mailer = MockMailer::new();
    mailer
        .expect_send()
        .times(1)
        .withf(|mail| {
            matches!(mail, AccountMail::SignupCode { to, code, language, .. }
                if to.as_str() == "ann@example.com" && code.expose() == "000042"
                    && *language == Language::Spanish)
        })
        .returning(|_| Box::pin(async { Ok(()) }));
    let accounts = service(signup_store(None, None, Arc::clone(&saved)), mailer);
    assert_eq!(send(&accounts).await.unwrap(), Duration::from_secs(60));

    let saved = saved.lock().unwrap();
    assert_eq!(saved.len(), 1);
    let signup = &saved[0];
    assert_eq!(signup.code_hash, TokenHash::of("000042"));
    assert_ne!(signup.code_hash.as_str(), "000042");
    assert_eq!(signup.attempts, 0);
    assert_eq!(signup.expires_at, now() + minutes(15));
    assert_eq!(signup.resend_at, now() + minutes(1));
}

#[tokio::test]
async fn a_registered_address_is_answered_alike_and_its_owner_is_told() {
    let saved = Arc::default();
    let mut mailer = MockMailer::new();
    mailer
        .expect_send()
        .times(1)
        .withf(|mail| {
            // the owner never chose a language: the asking request's
            matches!(mail, AccountMail::SignupAttempt { to, name, language }
                if to.as_str() == "ann@example.com" && name.as_str() == "Ann"
                    && *language == Language::Spanish)
        })
        .returning(|_| Box::pin(async { Ok(()) }));
    let accounts = service(
        signup_store(
            Some(user(1, "ann@example.com", "x")),
            None,
            Arc::clone(&saved),
        ),
        mailer,
    );
    assert_eq!(send(&accounts).await.unwrap(), Duration::from_secs(60));
    assert_eq!(saved.lock().unwrap().len(), 1, "the same 60-second wait");
}

#[tokio::test]
async fn a_new_code_waits_60_seconds_then_replaces_the_old_one() {
    let saved = Arc::default();
    let too_soon = service(
        signup_store(
            None,
            Some(pending(2, minutes(14), TimeDelta::seconds(20))),
            Arc::clone(&saved),
        ),
        no_mail(),
    );
    assert!(matches!(
        send(&too_soon).await,
        Err(SendCodeError::TooSoon { retry_after }) if retry_after == Duration::from_secs(20)
    ));
    assert!(saved.lock().unwrap().is_empty());

    let mut mailer = MockMailer::new();
    mailer
        .expect_send()
        .times(1)
        .returning(|_| Box::pin(async { Ok(()) }));
    let later = service(
        signup_store(
            None,
            Some(pending(3, minutes(14), TimeDelta::seconds(0))),
            Arc::clone(&saved),
        ),
        mailer,
    );
    send(&later).await.unwrap();
    let saved = saved.lock().unwrap();
    assert_eq!(saved[0].attempts, 0, "a new code gets fresh attempts");
    assert_eq!(saved[0].expires_at, now() + minutes(15));
}

#[tokio::test]
async fn a_parallel_request_that_lost_the_claim_is_told_to_wait_and_sends_nothing() {
    let mut store = store_with(None);
    let mut first = true;
    store.expect_pending_signup().returning(move |_| {
        // nothing before the claim; the winner's sign-up after it
        let found = (!first).then(|| pending(0, minutes(15), TimeDelta::seconds(60)));
        first = false;
        Box::pin(async move { Ok(found) })
    });
    store
        .expect_claim_signup()
        .times(1)
        .returning(|_, _| Box::pin(async { Ok(false) }));
    let accounts = service(store, no_mail());
    assert!(matches!(
        send(&accounts).await,
        Err(SendCodeError::TooSoon { retry_after }) if retry_after == Duration::from_secs(60)
    ));
}

#[tokio::test]
async fn code_requests_are_limited_per_ip_and_per_address() {
    for (bucket, key, count) in [
        (bucket::CODE_IP, "10.0.0.1", 20),
        (bucket::CODE_ADDRESS, "ann@example.com", 5),
    ] {
        let limiter = limiter_with(bucket, key, count).await;
        let mut store = signup_store(None, None, Arc::default());
        store.checkpoint();
        store
            .expect_pending_signup()
            .returning(|_| Box::pin(async { Ok(None) }));
        store.expect_claim_signup().never();
        let accounts = service_with(store, no_mail(), limiter, no_sessions());
        assert!(matches!(
            send(&accounts).await,
            Err(SendCodeError::TooManySends { retry_after }) if retry_after == Duration::from_secs(15 * 60 - 5)
        ));
    }
}

#[tokio::test]
async fn when_the_mail_fails_the_sign_up_stays_and_a_new_code_may_be_asked_at_once() {
    let saved = Arc::default();
    let mut mailer = MockMailer::new();
    mailer
        .expect_send()
        .returning(|_| Box::pin(async { Err(MailError(anyhow::anyhow!("connection refused"))) }));
    let accounts = service(signup_store(None, None, Arc::clone(&saved)), mailer);
    assert!(matches!(send(&accounts).await, Err(SendCodeError::Mail(_))));
    let saved = saved.lock().unwrap();
    assert_eq!(saved.len(), 2);
    assert_eq!(saved[1].resend_at, now(), "resend is open again");
    assert_eq!(saved[1].code_hash, saved[0].code_hash);
}

// ---- verification

fn verify_store(pending: Option<PendingSignup>, tries: u32) -> MockUserStore {
    let mut store = MockUserStore::new();
    store.expect_pending_signup().returning(move |_| {
        let pending = pending.clone();
        Box::pin(async move { Ok(pending) })
    });
    store
        .expect_add_code_attempt()
        .returning(move |_| Box::pin(async move { Ok(tries) }));
    store
}

async fn verify(accounts: &Service, code: &str) -> Result<User, VerifyCodeError> {
    verify_as(accounts, code, "Ann", "correct horse").await
}

async fn verify_as(
    accounts: &Service,
    code: &str,
    name: &str,
    password: &str,
) -> Result<User, VerifyCodeError> {
    accounts
        .verify_code(
            &email("ann@example.com"),
            &VerificationCode::parse(code).unwrap(),
            UserName::parse(name).unwrap(),
            Password::parse(password).unwrap(),
            "10.0.0.1",
            Language::German,
        )
        .await
}

fn created(new: NewUser) -> Result<User, RepoError> {
    Ok(User {
        id: UserId::new(7),
        name: new.name,
        email: new.email,
        role: new.role,
        password_hash: new.password_hash,
        language: new.language,
    })
}

#[tokio::test]
async fn the_right_code_creates_a_customer_with_the_name_and_password_sent_with_it() {
    let mut store = verify_store(Some(pending(0, minutes(1), minutes(0))), 1);
    store
        .expect_complete_signup()
        .times(1)
        .withf(|new| {
            new.role == Role::Customer
                && new.email.as_str() == "ann@example.com"
                && new.password_hash.as_str() == "hashed:owners password"
                && new.name.as_str() == "Ann Owner"
                && new.language == Some(Language::German)
        })
        .returning(|new| Box::pin(async move { created(new) }));
    let accounts = service(store, no_mail());
    let user = verify_as(&accounts, "000042", "Ann Owner", "owners password")
        .await
        .unwrap();
    assert_eq!(user.id, UserId::new(7));
}

#[tokio::test]
async fn a_wrong_code_is_refused_without_hashing_the_password() {
    let mut store = verify_store(Some(pending(0, minutes(1), minutes(0))), 1);
    store.expect_complete_signup().never();
    let mut hasher = MockPasswordHasher::new();
    hasher.expect_hash().never();
    let accounts = Service::new(
        store,
        MemoryLimiter::new(),
        no_mail(),
        clock_at(now()),
        random(),
        hasher,
        no_sessions(),
    );
    assert!(matches!(
        verify(&accounts, "123456").await,
        Err(VerifyCodeError::InvalidCode)
    ));
}

#[tokio::test]
async fn the_fifth_try_may_still_succeed_but_the_sixth_is_refused_even_with_the_right_code() {
    let mut store = verify_store(Some(pending(4, minutes(1), minutes(0))), 5);
    store
        .expect_complete_signup()
        .times(1)
        .returning(|new| Box::pin(async move { created(new) }));
    assert!(verify(&service(store, no_mail()), "000042").await.is_ok());

    let mut store = verify_store(Some(pending(5, minutes(1), minutes(0))), 6);
    store.expect_complete_signup().never();
    assert!(matches!(
        verify(&service(store, no_mail()), "000042").await,
        Err(VerifyCodeError::TooManyAttempts { retry_after: None })
    ));
}

#[tokio::test]
async fn an_expired_or_missing_sign_up_asks_for_a_new_code() {
    let mut store = verify_store(Some(pending(0, minutes(0), minutes(0))), 1);
    store.expect_add_code_attempt().never();
    store.expect_complete_signup().never();
    assert!(matches!(
        verify(&service(store, no_mail()), "000042").await,
        Err(VerifyCodeError::Expired)
    ));
    let store = verify_store(None, 1);
    assert!(matches!(
        verify(&service(store, no_mail()), "000042").await,
        Err(VerifyCodeError::Expired)
    ));
}

#[tokio::test]
async fn many_code_checks_from_one_ip_are_refused_across_addresses() {
    let limiter = limiter_with(bucket::CODE_CHECK_IP, "10.0.0.1", 30).await;
    let mut store = MockUserStore::new();
    store.expect_pending_signup().never();
    let accounts = service_with(store, no_mail(), limiter, no_sessions());
    assert!(matches!(
        verify(&accounts, "000042").await,
        Err(VerifyCodeError::TooManyAttempts {
            retry_after: Some(_)
        })
    ));
}

#[tokio::test]
async fn an_address_registered_meanwhile_is_reported_taken() {
    let mut store = verify_store(Some(pending(0, minutes(1), minutes(0))), 1);
    store
        .expect_complete_signup()
        .returning(|_| Box::pin(async { Err(RepoError::Duplicate) }));
    assert!(matches!(
        verify(&service(store, no_mail()), "000042").await,
        Err(VerifyCodeError::EmailTaken)
    ));
}

// ---- password reset

fn reset_store(claimed: bool) -> MockUserStore {
    let chose_french = User {
        language: Some(Language::French),
        ..user(3, "ann@example.com", "old password")
    };
    let mut store = store_with(Some(chose_french));
    store
        .expect_claim_reset_mail()
        .with(eq(UserId::new(3)), eq(now()), eq(now() - minutes(1)))
        .returning(move |_, _, _| Box::pin(async move { Ok(claimed) }));
    store
}

#[tokio::test]
async fn forgot_password_mails_a_token_whose_hash_is_kept_for_60_minutes() {
    let mut store = reset_store(true);
    let expected = ResetToken::from_bytes([9; 32]);
    let hash = expected.hash();
    store
        .expect_save_reset_token()
        .times(1)
        .with(eq(UserId::new(3)), eq(hash), eq(now() + minutes(60)))
        .returning(|_, _, _| Box::pin(async { Ok(()) }));
    let mut mailer = MockMailer::new();
    mailer
        .expect_send()
        .times(1)
        .withf(move |mail| {
            // the account's language, not the asking request's
            matches!(mail, AccountMail::PasswordReset { token, to, language, .. }
                if *token == expected && to.as_str() == "ann@example.com"
                    && *language == Language::French)
        })
        .returning(|_| Box::pin(async { Ok(()) }));
    service(store, mailer)
        .forgot_password(&email("ann@example.com"), Language::English)
        .await
        .unwrap();
}

#[tokio::test]
async fn forgot_password_sends_nothing_within_a_minute_of_the_last_link_or_past_5_an_hour() {
    let mut store = reset_store(false);
    store.expect_save_reset_token().never();
    service(store, no_mail())
        .forgot_password(&email("ann@example.com"), Language::English)
        .await
        .unwrap();

    let limiter = limiter_with(bucket::RESET_ADDRESS, "3", 5).await;
    let mut store = reset_store(true);
    store.expect_save_reset_token().never();
    service_with(store, no_mail(), limiter, no_sessions())
        .forgot_password(&email("ann@example.com"), Language::English)
        .await
        .unwrap();
}

#[tokio::test]
async fn forgot_password_for_an_unknown_address_sends_and_stores_nothing() {
    let mut store = store_with(None);
    store.expect_claim_reset_mail().never();
    store.expect_save_reset_token().never();
    service(store, no_mail())
        .forgot_password(&email("nobody@example.com"), Language::English)
        .await
        .unwrap();
}

fn token_store(record: Option<ResetTokenRecord>) -> MockUserStore {
    let mut store = MockUserStore::new();
    store.expect_reset_token().returning(move |_| {
        let record = record.clone();
        Box::pin(async move { Ok(record) })
    });
    store
}

fn record(used: bool, expires_in: TimeDelta, address: &str) -> ResetTokenRecord {
    ResetTokenRecord {
        user_id: UserId::new(3),
        email: email(address),
        expires_at: now() + expires_in,
        used,
    }
}

async fn reset(accounts: &Service) -> Result<(), ResetPasswordError> {
    accounts
        .reset_password(
            &email("ann@example.com"),
            &ResetToken::from_bytes([9; 32]),
            Password::parse("new password").unwrap(),
        )
        .await
}

fn ends_sessions_of(id: i64) -> MockUserSessions {
    let mut sessions = MockUserSessions::new();
    sessions
        .expect_end_all()
        .times(1)
        .with(eq(UserId::new(id)))
        .returning(|_| Box::pin(async { Ok(2) }));
    sessions
}

#[tokio::test]
async fn a_valid_token_sets_the_new_password_once_and_ends_every_session() {
    let mut store = token_store(Some(record(false, minutes(59), "ann@example.com")));
    store
        .expect_redeem_reset_token()
        .times(1)
        .withf(|hash, user, password, at| {
            *hash == ResetToken::from_bytes([9; 32]).hash()
                && *user == UserId::new(3)
                && password.as_str() == "hashed:new password"
                && *at == now()
        })
        .returning(|_, _, _, _| Box::pin(async { Ok(true) }));
    let accounts = service_with(store, no_mail(), MemoryLimiter::new(), ends_sessions_of(3));
    reset(&accounts).await.unwrap();
}

#[tokio::test]
async fn used_expired_unknown_and_other_addresses_tokens_are_refused() {
    for record in [
        Some(record(true, minutes(59), "ann@example.com")),
        Some(record(false, minutes(0), "ann@example.com")),
        Some(record(false, minutes(59), "bob@example.com")),
        None,
    ] {
        let mut store = token_store(record);
        store.expect_redeem_reset_token().never();
        assert!(matches!(
            reset(&service(store, no_mail())).await,
            Err(ResetPasswordError::InvalidToken)
        ));
    }
}

#[tokio::test]
async fn a_token_redeemed_by_a_parallel_request_is_refused() {
    let mut store = token_store(Some(record(false, minutes(59), "ann@example.com")));
    store
        .expect_redeem_reset_token()
        .returning(|_, _, _, _| Box::pin(async { Ok(false) }));
    assert!(matches!(
        reset(&service(store, no_mail())).await,
        Err(ResetPasswordError::InvalidToken)
    ));
}

fn upsert_store(existing: Option<User>) -> MockUserStore {
    let mut store = store_with(existing);
    store
        .expect_upsert_user()
        .times(1)
        .withf(|new, actor| {
            new.role == Role::SuperAdmin
                && new.password_hash.as_str() == "hashed:staff password"
                && *actor == Some(Actor::command_line())
        })
        .returning(|new, _| {
            Box::pin(async move {
                Ok(User {
                    id: UserId::new(1),
                    name: new.name,
                    email: new.email,
                    role: new.role,
                    password_hash: new.password_hash,
                    language: new.language,
                })
            })
        });
    store
}

async fn upsert(accounts: &Service) -> User {
    accounts
        .upsert_user(
            email("boss@example.com"),
            UserName::parse("Boss").unwrap(),
            Role::SuperAdmin,
            Password::parse("staff password").unwrap(),
            Some(&Actor::command_line()),
        )
        .await
        .unwrap()
}

#[tokio::test]
async fn staff_accounts_are_created_with_a_hashed_password() {
    let user = upsert(&service(upsert_store(None), no_mail())).await;
    assert_eq!(user.role, Role::SuperAdmin);
}

#[tokio::test]
async fn changing_an_existing_accounts_role_or_password_ends_its_sessions() {
    let accounts = service_with(
        upsert_store(Some(user(1, "boss@example.com", "old"))),
        no_mail(),
        MemoryLimiter::new(),
        ends_sessions_of(1),
    );
    upsert(&accounts).await;
}

// ---- sessions

#[test]
fn staff_sessions_end_after_12_hours_and_customers_after_30_days() {
    let accounts = service(MockUserStore::new(), no_mail());
    let hours = |n: i64| now() - TimeDelta::hours(n);
    for role in [Role::Admin, Role::SuperAdmin] {
        assert!(accounts.session_is_current(role, hours(11)));
        assert!(!accounts.session_is_current(role, hours(12)));
    }
    assert!(accounts.session_is_current(Role::Customer, hours(12)));
    assert!(accounts.session_is_current(Role::Customer, hours(29 * 24)));
    assert!(!accounts.session_is_current(Role::Customer, hours(30 * 24)));
}

mod delete_own_account {
    use super::*;

    const IP: &str = "10.0.0.1";
    use crate::erasure::MockAccountEraser;
    use crate::{DeleteAccountError, Erased, Erasure};

    fn store_by_id(known: User) -> MockUserStore {
        let mut store = MockUserStore::new();
        store.expect_user_by_id().returning(move |_| {
            let known = known.clone();
            Box::pin(async move { Ok(Some(known)) })
        });
        store
    }

    fn eraser(answer: Erased) -> MockAccountEraser {
        let mut eraser = MockAccountEraser::new();
        eraser
            .expect_erase()
            .with(eq(Erasure {
                user: UserId::new(7),
                email: "deleted-7@deleted.invalid".to_owned(),
                name: "deleted".to_owned(),
                limit_buckets: vec![
                    "login-address:ann@example.com".to_owned(),
                    "signup-code-address:ann@example.com".to_owned(),
                    "reset-address:7".to_owned(),
                ],
                at: now(),
                evidence_paid_since: now() - chrono::TimeDelta::days(120),
            }))
            .times(1)
            .returning(move |_| Box::pin(async move { Ok(answer) }));
        eraser
    }

    fn untouched() -> MockAccountEraser {
        let mut eraser = MockAccountEraser::new();
        eraser.expect_erase().never();
        eraser
    }

    #[tokio::test]
    async fn the_owner_with_the_password_erases_the_account_and_its_sessions_end() {
        let mut sessions = MockUserSessions::new();
        sessions
            .expect_end_all()
            .with(eq(UserId::new(7)))
            .times(1)
            .returning(|_| Box::pin(async { Ok(2) }));
        let accounts = service_with(
            store_by_id(user(7, "ann@example.com", "secret pass")),
            no_mail(),
            MemoryLimiter::new(),
            sessions,
        );
        accounts
            .delete_own_account(UserId::new(7), "secret pass", IP, &eraser(Erased::Done))
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_wrong_password_or_a_staff_account_erases_nothing() {
        let accounts = service(
            store_by_id(user(7, "ann@example.com", "secret pass")),
            no_mail(),
        );
        let wrong = accounts
            .delete_own_account(UserId::new(7), "guess", IP, &untouched())
            .await;
        assert!(matches!(wrong, Err(DeleteAccountError::WrongPassword)));

        let mut admin = user(7, "boss@example.com", "secret pass");
        admin.role = Role::Admin;
        let accounts = service(store_by_id(admin), no_mail());
        let staff = accounts
            .delete_own_account(UserId::new(7), "secret pass", IP, &untouched())
            .await;
        assert!(matches!(staff, Err(DeleteAccountError::Staff)));
    }

    /// The account, known by id (the session) and by address (the login form).
    fn store_both_ways(known: User) -> MockUserStore {
        let mut store = store_by_id(known.clone());
        store.expect_user_by_email().returning(move |_| {
            let known = known.clone();
            Box::pin(async move { Ok(Some(known)) })
        });
        store
    }

    #[tokio::test]
    async fn wrong_passwords_on_delete_use_up_the_login_attempts_of_the_address() {
        let accounts = service(
            store_both_ways(user(7, "ann@example.com", "secret pass")),
            no_mail(),
        );
        for _ in 0..5 {
            let wrong = accounts
                .delete_own_account(UserId::new(7), "guess", IP, &untouched())
                .await;
            assert!(matches!(wrong, Err(DeleteAccountError::WrongPassword)));
        }
        let locked = accounts
            .delete_own_account(UserId::new(7), "secret pass", IP, &untouched())
            .await;
        assert!(matches!(
            locked,
            Err(DeleteAccountError::TooManyAttempts { .. })
        ));
        let login = accounts
            .login(&email("ann@example.com"), "secret pass", "10.0.0.2")
            .await;
        assert!(matches!(login, Err(LoginError::TooManyAttempts { .. })));
    }

    #[tokio::test]
    async fn wrong_logins_lock_the_delete_and_a_full_client_address_too() {
        let accounts = service(
            store_both_ways(user(7, "ann@example.com", "secret pass")),
            no_mail(),
        );
        for _ in 0..5 {
            let wrong = accounts.login(&email("ann@example.com"), "guess", IP).await;
            assert!(matches!(wrong, Err(LoginError::InvalidCredentials)));
        }
        let locked = accounts
            .delete_own_account(UserId::new(7), "secret pass", "10.0.0.2", &untouched())
            .await;
        assert!(matches!(
            locked,
            Err(DeleteAccountError::TooManyAttempts { .. })
        ));

        let limiter = limiter_with(bucket::LOGIN_IP, IP, 30).await;
        let accounts = service_with(
            store_by_id(user(7, "ann@example.com", "secret pass")),
            no_mail(),
            limiter,
            no_sessions(),
        );
        let locked = accounts
            .delete_own_account(UserId::new(7), "secret pass", IP, &untouched())
            .await;
        assert!(matches!(
            locked,
            Err(DeleteAccountError::TooManyAttempts { .. })
        ));
    }

    #[tokio::test]
    async fn open_orders_keep_the_account_and_its_sessions() {
        let accounts = service(
            store_by_id(user(7, "ann@example.com", "secret pass")),
            no_mail(),
        );
        let refused = accounts
            .delete_own_account(
                UserId::new(7),
                "secret pass",
                IP,
                &eraser(Erased::OpenOrders(2)),
            )
            .await;
        assert!(matches!(refused, Err(DeleteAccountError::OpenOrders(2))));
    }
}
