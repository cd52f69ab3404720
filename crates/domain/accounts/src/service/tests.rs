#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use chrono::TimeZone;
use mockall::predicate::eq;

use super::*;
use crate::ports::{
    MockAttemptLog, MockClock, MockMailer, MockPasswordHasher, MockRandomness, MockUserStore,
};
use crate::{Attempts, MailError, PasswordHash, ResetTokenRecord, TokenHash};

type Service = Accounts<
    MockUserStore,
    MockAttemptLog,
    MockMailer,
    MockClock,
    MockRandomness,
    MockPasswordHasher,
>;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap()
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

/// An attempt log that has seen `count` attempts of every kind, the oldest `age` ago, and
/// keeps what is recorded.
fn attempts(
    count: u32,
    age: TimeDelta,
    recorded: Arc<Mutex<Vec<(AttemptKind, String)>>>,
) -> MockAttemptLog {
    let mut log = MockAttemptLog::new();
    log.expect_attempts_since().returning(move |_, _, _| {
        Box::pin(async move {
            Ok(Attempts {
                count,
                oldest: (count > 0).then(|| now() - age),
            })
        })
    });
    let keep = recorded.clone();
    log.expect_record_attempt()
        .returning(move |kind, key, at, forget| {
            assert_eq!(at, now());
            assert_eq!(forget, now() - minutes(15));
            keep.lock().unwrap().push((kind, key.to_owned()));
            Box::pin(async { Ok(()) })
        });
    log.expect_clear_attempts().returning(move |kind, key| {
        recorded
            .lock()
            .unwrap()
            .push((kind, format!("cleared {key}")));
        Box::pin(async { Ok(()) })
    });
    log
}

fn fresh_log() -> MockAttemptLog {
    attempts(0, minutes(0), Arc::default())
}

fn service(store: MockUserStore, log: MockAttemptLog, mailer: MockMailer) -> Service {
    Accounts::new(store, log, mailer, clock_at(now()), random(), hasher())
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

// ---- login

#[tokio::test]
async fn login_with_the_right_password_returns_the_user_and_forgets_failures() {
    let recorded = Arc::default();
    let accounts = service(
        store_with(Some(user(1, "ann@example.com", "correct horse"))),
        attempts(4, minutes(1), Arc::clone(&recorded)),
        no_mail(),
    );
    let found = accounts
        .login(&email("Ann@Example.com"), "correct horse", "10.0.0.1")
        .await
        .unwrap();
    assert_eq!(found.id, UserId::new(1));
    assert_eq!(
        *recorded.lock().unwrap(),
        vec![(
            AttemptKind::FailedLoginByAddress,
            "cleared ann@example.com".to_owned()
        )]
    );
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_address_fail_alike_and_both_count() {
    for known in [Some(user(1, "ann@example.com", "correct horse")), None] {
        let recorded = Arc::default();
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
        let accounts = Accounts::new(
            store_with(known),
            attempts(0, minutes(0), Arc::clone(&recorded)),
            no_mail(),
            clock_at(now()),
            random(),
            hasher,
        );
        let error = accounts
            .login(&email("ann@example.com"), "wrong", "10.0.0.1")
            .await
            .unwrap_err();
        assert!(matches!(error, LoginError::InvalidCredentials));
        assert_eq!(
            *recorded.lock().unwrap(),
            vec![
                (
                    AttemptKind::FailedLoginByAddress,
                    "ann@example.com".to_owned()
                ),
                (AttemptKind::FailedLoginByIp, "10.0.0.1".to_owned()),
            ]
        );
    }
}

#[tokio::test]
async fn the_sixth_login_in_15_minutes_is_refused_until_the_oldest_failure_ages_out() {
    let mut log = MockAttemptLog::new();
    log.expect_attempts_since()
        .with(
            eq(AttemptKind::FailedLoginByAddress),
            eq("ann@example.com"),
            eq(now() - minutes(15)),
        )
        .returning(|_, _, _| {
            Box::pin(async {
                Ok(Attempts {
                    count: 5,
                    oldest: Some(now() - minutes(10)),
                })
            })
        });
    log.expect_record_attempt().never();
    let mut store = MockUserStore::new();
    store.expect_user_by_email().never();
    let accounts = service(store, log, no_mail());
    let error = accounts
        .login(&email("ann@example.com"), "correct horse", "10.0.0.1")
        .await
        .unwrap_err();
    match error {
        LoginError::TooManyAttempts { retry_after } => {
            assert_eq!(retry_after, Duration::from_secs(5 * 60));
        }
        other => panic!("expected a rate limit, got {other:?}"),
    }
}

#[tokio::test]
async fn thirty_failures_from_one_ip_block_every_address_from_it() {
    let mut log = MockAttemptLog::new();
    log.expect_attempts_since().returning(|kind, _, _| {
        let count = if kind == AttemptKind::FailedLoginByIp {
            30
        } else {
            0
        };
        Box::pin(async move {
            Ok(Attempts {
                count,
                oldest: Some(now() - minutes(14)),
            })
        })
    });
    let accounts = service(MockUserStore::new(), log, no_mail());
    let error = accounts
        .login(&email("bob@example.com"), "whatever1", "10.0.0.9")
        .await
        .unwrap_err();
    assert!(
        matches!(error, LoginError::TooManyAttempts { retry_after } if retry_after == Duration::from_secs(60))
    );
}

#[tokio::test]
async fn four_failures_still_allow_a_fifth_try() {
    let accounts = service(
        store_with(Some(user(1, "ann@example.com", "correct horse"))),
        attempts(4, minutes(3), Arc::default()),
        no_mail(),
    );
    assert!(accounts
        .login(&email("ann@example.com"), "correct horse", "10.0.0.1")
        .await
        .is_ok());
}

// ---- sign-up codes

fn signup_store(
    pending: Option<PendingSignup>,
    saved: Arc<Mutex<Vec<PendingSignup>>>,
) -> MockUserStore {
    let mut store = store_with(None);
    store.expect_pending_signup().returning(move |_| {
        let pending = pending.clone();
        Box::pin(async move { Ok(pending) })
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
        password_hash: PasswordHash::new("hashed:correct horse".into()),
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
            Password::parse("correct horse").unwrap(),
            "10.0.0.1",
        )
        .await
}

#[tokio::test]
async fn a_sign_up_stores_hashes_only_and_mails_the_code() {
    let saved = Arc::default();
    let recorded = Arc::default();
    let mut mailer = MockMailer::new();
    mailer
        .expect_send()
        .times(1)
        .withf(|mail| {
            matches!(mail, AccountMail::SignupCode { to, code, .. }
                if to.as_str() == "ann@example.com" && code.expose() == "000042")
        })
        .returning(|_| Box::pin(async { Ok(()) }));
    let accounts = service(
        signup_store(None, Arc::clone(&saved)),
        attempts(0, minutes(0), Arc::clone(&recorded)),
        mailer,
    );
    assert_eq!(send(&accounts).await.unwrap(), Duration::from_secs(60));

    let saved = saved.lock().unwrap();
    assert_eq!(saved.len(), 1);
    let signup = &saved[0];
    assert_eq!(signup.code_hash, TokenHash::of("000042"));
    assert_ne!(signup.code_hash.as_str(), "000042");
    assert_eq!(signup.password_hash.as_str(), "hashed:correct horse");
    assert_eq!(signup.attempts, 0);
    assert_eq!(signup.expires_at, now() + minutes(15));
    assert_eq!(signup.resend_at, now() + minutes(1));
    assert_eq!(
        *recorded.lock().unwrap(),
        vec![
            (AttemptKind::CodeSentToAddress, "ann@example.com".to_owned()),
            (AttemptKind::CodeSentByIp, "10.0.0.1".to_owned()),
        ]
    );
}

#[tokio::test]
async fn a_registered_address_cannot_sign_up_again() {
    let mut store = store_with(Some(user(1, "ann@example.com", "x")));
    store.expect_save_pending_signup().never();
    let accounts = service(store, fresh_log(), no_mail());
    assert!(matches!(
        send(&accounts).await,
        Err(SendCodeError::EmailTaken)
    ));
}

#[tokio::test]
async fn a_new_code_waits_60_seconds_then_replaces_the_old_one() {
    let saved = Arc::default();
    let too_soon = service(
        signup_store(
            Some(pending(2, minutes(14), TimeDelta::seconds(20))),
            Arc::clone(&saved),
        ),
        fresh_log(),
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
            Some(pending(3, minutes(14), TimeDelta::seconds(0))),
            Arc::clone(&saved),
        ),
        fresh_log(),
        mailer,
    );
    send(&later).await.unwrap();
    let saved = saved.lock().unwrap();
    assert_eq!(saved[0].attempts, 0, "a new code gets fresh attempts");
    assert_eq!(saved[0].expires_at, now() + minutes(15));
}

#[tokio::test]
async fn codes_sent_are_limited_per_address_and_ip() {
    let accounts = service(
        signup_store(None, Arc::default()),
        attempts(20, minutes(5), Arc::default()),
        no_mail(),
    );
    assert!(matches!(
        send(&accounts).await,
        Err(SendCodeError::TooManySends { retry_after }) if retry_after == Duration::from_secs(600)
    ));
}

#[tokio::test]
async fn when_the_mail_fails_the_sign_up_stays_and_a_new_code_may_be_asked_at_once() {
    let saved = Arc::default();
    let recorded = Arc::default();
    let mut mailer = MockMailer::new();
    mailer
        .expect_send()
        .returning(|_| Box::pin(async { Err(MailError(anyhow::anyhow!("connection refused"))) }));
    let accounts = service(
        signup_store(None, Arc::clone(&saved)),
        attempts(0, minutes(0), Arc::clone(&recorded)),
        mailer,
    );
    assert!(matches!(send(&accounts).await, Err(SendCodeError::Mail(_))));
    let saved = saved.lock().unwrap();
    assert_eq!(saved.len(), 2);
    assert_eq!(saved[1].resend_at, now(), "resend is open again");
    assert_eq!(saved[1].code_hash, saved[0].code_hash);
    assert!(
        recorded.lock().unwrap().is_empty(),
        "a failed send does not count"
    );
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
    accounts
        .verify_code(
            &email("ann@example.com"),
            &VerificationCode::parse(code).unwrap(),
            "10.0.0.1",
        )
        .await
}

#[tokio::test]
async fn the_right_code_creates_a_customer_from_the_pending_sign_up() {
    let mut store = verify_store(Some(pending(0, minutes(1), minutes(0))), 1);
    store
        .expect_complete_signup()
        .times(1)
        .withf(|new| {
            new.role == Role::Customer
                && new.email.as_str() == "ann@example.com"
                && new.password_hash.as_str() == "hashed:correct horse"
                && new.name.as_str() == "Ann"
        })
        .returning(|new| {
            Box::pin(async move {
                Ok(User {
                    id: UserId::new(7),
                    name: new.name,
                    email: new.email,
                    role: new.role,
                    password_hash: new.password_hash,
                })
            })
        });
    let accounts = service(store, fresh_log(), no_mail());
    assert_eq!(
        verify(&accounts, "000042").await.unwrap().id,
        UserId::new(7)
    );
}

#[tokio::test]
async fn a_wrong_code_is_counted_and_refused() {
    let recorded = Arc::default();
    let mut store = verify_store(Some(pending(0, minutes(1), minutes(0))), 1);
    store.expect_complete_signup().never();
    let accounts = service(
        store,
        attempts(0, minutes(0), Arc::clone(&recorded)),
        no_mail(),
    );
    assert!(matches!(
        verify(&accounts, "123456").await,
        Err(VerifyCodeError::InvalidCode)
    ));
    assert_eq!(
        *recorded.lock().unwrap(),
        vec![(AttemptKind::WrongCodeByIp, "10.0.0.1".to_owned())]
    );
}

#[tokio::test]
async fn the_fifth_try_may_still_succeed_but_the_sixth_is_refused_even_with_the_right_code() {
    let mut store = verify_store(Some(pending(4, minutes(1), minutes(0))), 5);
    store.expect_complete_signup().times(1).returning(|new| {
        Box::pin(async move {
            Ok(User {
                id: UserId::new(7),
                name: new.name,
                email: new.email,
                role: new.role,
                password_hash: new.password_hash,
            })
        })
    });
    assert!(verify(&service(store, fresh_log(), no_mail()), "000042")
        .await
        .is_ok());

    let mut store = verify_store(Some(pending(5, minutes(1), minutes(0))), 6);
    store.expect_complete_signup().never();
    assert!(matches!(
        verify(&service(store, fresh_log(), no_mail()), "000042").await,
        Err(VerifyCodeError::TooManyAttempts { retry_after: None })
    ));
}

#[tokio::test]
async fn an_expired_or_missing_sign_up_asks_for_a_new_code() {
    let mut store = verify_store(Some(pending(0, minutes(0), minutes(0))), 1);
    store.expect_add_code_attempt().never();
    store.expect_complete_signup().never();
    assert!(matches!(
        verify(&service(store, fresh_log(), no_mail()), "000042").await,
        Err(VerifyCodeError::Expired)
    ));
    let store = verify_store(None, 1);
    assert!(matches!(
        verify(&service(store, fresh_log(), no_mail()), "000042").await,
        Err(VerifyCodeError::Expired)
    ));
}

#[tokio::test]
async fn many_wrong_codes_from_one_ip_are_refused_across_addresses() {
    let mut store = MockUserStore::new();
    store.expect_pending_signup().never();
    let accounts = service(store, attempts(30, minutes(15), Arc::default()), no_mail());
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
        verify(&service(store, fresh_log(), no_mail()), "000042").await,
        Err(VerifyCodeError::EmailTaken)
    ));
}

// ---- password reset

#[tokio::test]
async fn forgot_password_mails_a_token_whose_hash_is_kept_for_60_minutes() {
    let mut store = store_with(Some(user(3, "ann@example.com", "old password")));
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
            matches!(mail, AccountMail::PasswordReset { token, to, .. }
                if *token == expected && to.as_str() == "ann@example.com")
        })
        .returning(|_| Box::pin(async { Ok(()) }));
    service(store, fresh_log(), mailer)
        .forgot_password(&email("ann@example.com"))
        .await
        .unwrap();
}

#[tokio::test]
async fn forgot_password_for_an_unknown_address_sends_and_stores_nothing() {
    let mut store = store_with(None);
    store.expect_save_reset_token().never();
    service(store, fresh_log(), no_mail())
        .forgot_password(&email("nobody@example.com"))
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

#[tokio::test]
async fn a_valid_token_sets_the_new_password_once() {
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
    reset(&service(store, fresh_log(), no_mail()))
        .await
        .unwrap();
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
            reset(&service(store, fresh_log(), no_mail())).await,
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
        reset(&service(store, fresh_log(), no_mail())).await,
        Err(ResetPasswordError::InvalidToken)
    ));
}

#[tokio::test]
async fn staff_accounts_are_created_or_updated_with_a_hashed_password() {
    let mut store = MockUserStore::new();
    store
        .expect_upsert_user()
        .times(1)
        .withf(|new| {
            new.role == Role::SuperAdmin && new.password_hash.as_str() == "hashed:staff password"
        })
        .returning(|new| {
            Box::pin(async move {
                Ok(User {
                    id: UserId::new(1),
                    name: new.name,
                    email: new.email,
                    role: new.role,
                    password_hash: new.password_hash,
                })
            })
        });
    let user = service(store, fresh_log(), no_mail())
        .upsert_user(
            email("boss@example.com"),
            UserName::parse("Boss").unwrap(),
            Role::SuperAdmin,
            Password::parse("staff password").unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(user.role, Role::SuperAdmin);
}
