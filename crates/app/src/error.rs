//! The one place where errors become HTTP answers: every domain error maps to an `ApiError`
//! (one `From` per error type, in the submodule of its domain, so handlers use `?`), and every
//! `ApiError` answers `{"message": "...", "errors": {"field": ["..."]}}`. A message a domain
//! error does not word itself (its Display is for logs) is worded there.
//!
//! A message a shopper reads is a Fluent id with its arguments (`l10n::Text`, in
//! `crates/adapters/l10n/locales`), rendered in the request's language when the answer is
//! written ([`crate::language::localize_errors`]); staff answers stay English words.

mod accounts;
mod aftersale;
mod api;
mod blocklist;
mod catalog;
mod chat;
mod delivery;
mod disputes;
mod extractors;
mod message;
mod orders;
mod promo;
mod proofs;
mod reviews;
mod stripe;
mod values;

pub use api::{ApiError, ErrorBody, FieldErrors};
pub use extractors::{api_method_not_allowed, extractor_configs, multipart_error};
pub use message::Msg;
pub(crate) use orders::promo_rejection;
pub use orders::IDEMPOTENCY_KEY_FIELD;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::api::*;
    use super::extractors::{field_of, invalid_fields};
    use super::orders::*;
    use ::accounts::{LoginError, ResetPasswordError, SendCodeError, VerifyCodeError};
    use ::catalog::AdminError;
    use ::chat::ChatError;
    use ::orders::gateways::{DiscordLinkError, PaymentError, RobloxLookupError};
    use ::orders::{ConfirmError, OrderError, ReleaseError};
    use ::proofs::{ProofError, PublishError};
    use actix_web::body::to_bytes;
    use actix_web::http::{header, StatusCode};
    use actix_web::ResponseError;
    use delivery::QueueError;
    use std::time::Duration;
    use stripe_adapter::WebhookError;

    const CANNOT_CANCEL: &str = "This order can no longer be cancelled.";
    const CANCEL_UNAVAILABLE: &str =
        "The payment could not be cancelled right now. Try again in a moment.";
    const MAIL_UNAVAILABLE: &str =
        "We could not send the e-mail right now. Please try again in a moment.";
    const TOO_MANY_CODES: &str = "Too many wrong codes. Ask for a new code.";
    const ROBLOX_FAILED: &str = "Error while connecting to Roblox.";
    const DISCORD_NO_USER_ID: &str = "Discord login failed: No user ID returned.";
    const DISCORD_CODE_REFUSED: &str =
        "Discord login failed: the sign-in expired. Please link Discord again.";
    const DISCORD_FAILED: &str = "Error while connecting to Discord.";
    const DISCORD_UNUSABLE: &str = "Discord login failed: Discord sent an account name or \
         picture the shop cannot use. Please try again, or ask us for help in the live chat.";

    async fn body(error: ApiError) -> (StatusCode, serde_json::Value, Option<String>) {
        let response = error.error_response();
        let retry = response
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_owned());
        let status = response.status();
        let bytes = to_bytes(response.into_body()).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap(), retry)
    }

    #[actix_web::test]
    async fn a_field_error_answers_422_with_the_message_under_the_field() {
        let (status, json, _) = body(ApiError::field(
            "email",
            "This e-mail is already registered.",
        ))
        .await;
        assert_eq!(status, 422);
        assert_eq!(json["message"], "This e-mail is already registered.");
        assert_eq!(
            json["errors"]["email"][0],
            "This e-mail is already registered."
        );
    }

    #[actix_web::test]
    async fn too_many_requests_says_when_and_sets_retry_after() {
        let (status, json, retry) =
            body(ApiError::too_many(Duration::from_secs(14 * 60 + 1))).await;
        assert_eq!(status, 429);
        assert_eq!(
            json["message"],
            "Too many attempts. Try again in 15 minutes."
        );
        assert_eq!(retry.as_deref(), Some("841"));
        let (_, json, _) = body(ApiError::too_many(Duration::from_secs(30))).await;
        assert_eq!(
            json["message"],
            "Too many attempts. Try again in 30 seconds."
        );
    }

    #[actix_web::test]
    async fn an_internal_error_tells_the_client_nothing() {
        let cause = anyhow::anyhow!("password for db is hunter2").context("failed to load");
        let (status, json, _) = body(ApiError::Internal(cause)).await;
        assert_eq!(status, 500);
        assert_eq!(
            json["message"],
            "Something went wrong on our side. Please try again."
        );
        assert_eq!(json["errors"], serde_json::json!({}));
    }

    /// Every kind of answer names its kind in `code`, beside the message.
    #[actix_web::test]
    async fn every_error_body_carries_its_code() {
        let usd = cart_pricing::Conversion::base(cart_pricing::CurrencyCode::USD);
        let cart =
            cart_pricing::PricedCart::new(vec![], None, cart_pricing::PaymentMethod::Card, &usd);
        let cases: Vec<(ApiError, &str)> = vec![
            (ApiError::BadRequest("x".into()), "bad_request"),
            (ApiError::Unauthorized("x".into()), "unauthorized"),
            (ApiError::Forbidden("x".into()), "forbidden"),
            (ApiError::NotFound("x".into()), "not_found"),
            (ApiError::MethodNotAllowed("x".into()), "method_not_allowed"),
            (ApiError::Conflict("x".into()), "conflict"),
            (
                ApiError::CurrencyUnavailable("x".into()),
                "currency_unavailable",
            ),
            (
                ApiError::ConflictRetry {
                    message: "x".into(),
                    retry_after_secs: 1,
                },
                "in_progress",
            ),
            (ApiError::PayloadTooLarge("x".into()), "payload_too_large"),
            (
                ApiError::UnsupportedMediaType("x".into()),
                "unsupported_media_type",
            ),
            (
                ApiError::CartConflict {
                    message: "x".into(),
                    detail: CartConflict::Problems(vec!["y".into()]),
                },
                "cart_unavailable",
            ),
            (
                ApiError::CartConflict {
                    message: "x".into(),
                    detail: CartConflict::FreshCart(Box::new(
                        dto::checkout::PricedCartResponse::from(&cart),
                    )),
                },
                "cart_changed",
            ),
            (ApiError::PromoRejected("x".into()), "promo_rejected"),
            (ApiError::field("email", "x"), "invalid_fields"),
            (ApiError::too_many(Duration::from_secs(5)), "rate_limited"),
            (ApiError::BadGateway("x".into()), "provider_failed"),
            (
                ApiError::Unavailable {
                    message: "x".into(),
                    cause: anyhow::anyhow!("down"),
                },
                "service_unavailable",
            ),
            (ApiError::internal(anyhow::anyhow!("bug")), "internal"),
        ];
        for (error, code) in cases {
            let (status, json, _) = body(error).await;
            assert_eq!(json["code"], code, "{status}: {json}");
            assert!(json["message"].is_string(), "{json}");
        }
    }

    #[test]
    fn field_errors_keep_every_message_and_lead_with_the_first() {
        let mut errors = FieldErrors::new();
        errors.add("email", "Please enter a valid e-mail address.");
        errors.add("password", "The password must be at least 8 characters.");
        match errors.finish().unwrap_err() {
            ApiError::Validation { message, errors } => {
                assert!(message
                    .to_string()
                    .starts_with("Please enter a valid e-mail address."));
                assert_eq!(errors.len(), 2);
            }
            other => panic!("{other:?}"),
        }
        assert!(FieldErrors::new().finish().is_ok());
    }

    /// One row per variant of every domain error mapped above: the status, the message and
    /// the field the 422 names (if any), and `Retry-After` for a 429.
    #[actix_web::test]
    async fn every_domain_error_maps_to_one_answer() {
        use ::orders::{OrderId, OrderStatus, TransitionError};
        use std::time::Duration;

        /// The error, its status, its message, the field a 422 names, its `Retry-After`.
        type Row = (
            ApiError,
            u16,
            &'static str,
            Option<&'static str>,
            Option<&'static str>,
        );
        let order = OrderId::new(7);
        let refused = TransitionError {
            from: OrderStatus::Paid,
            to: OrderStatus::Cancelled,
        };
        let cause = || anyhow::anyhow!("the database is gone");
        let internal = "Something went wrong on our side. Please try again.";
        let invalid = ::catalog::InvalidProduct(vec![
            ::catalog::FieldError::new("name", "The name field is required."),
            ::catalog::FieldError::new("price", "The price must be a number."),
        ]);
        #[rustfmt::skip]
        let table: Vec<Row> = vec![
            // catalog admin
            (AdminError::Invalid(invalid).into(), 422, "The name field is required. (and more errors)", Some("price"), None),
            (AdminError::NotFound(::catalog::ProductId::new(3)).into(), 404, "Product not found.", None, None),
            (AdminError::Unknown(cause()).into(), 500, internal, None, None),
            // orders
            (OrderError::NotFound(order).into(), 404, "Order not found.", None, None),
            (OrderError::Unknown(cause()).into(), 500, internal, None, None),
            // the delivery queue
            (QueueError::NotFound(order).into(), 404, "Order not found.", None, None),
            (QueueError::AlreadyClaimed { by: "Ann".into() }.into(), 409, "Already claimed by Ann.", None, None),
            (QueueError::NotYours { by: "Ann".into() }.into(), 409, "Only Ann can release this order.", None, None),
            (QueueError::Refused(refused).into(), 409, "An order that is Paid cannot become Cancelled.", None, None),
            (QueueError::NotPaid(OrderStatus::Pending).into(), 409, "Only paid orders can be claimed; this one is Pending.", None, None),
            (QueueError::UnknownProof(9).into(), 422, "Proof 9 does not exist.", Some("proof_id"), None),
            (QueueError::Unknown(cause()).into(), 500, internal, None, None),
            // payment confirmations, releases and the provider's page
            (ConfirmError::NotFound(order).into(), 404, "Order not found.", None, None),
            (ConfirmError::ReferenceMismatch(order).into(), 400, SESSION_MISMATCH, None, None),
            (ConfirmError::Refused(refused).into(), 409, "An order that is Paid cannot become Cancelled.", None, None),
            (ConfirmError::Unknown(cause()).into(), 500, internal, None, None),
            (ReleaseError::NotFound(order).into(), 404, "Order not found.", None, None),
            (ReleaseError::ReferenceMismatch(order).into(), 400, SESSION_MISMATCH, None, None),
            (ReleaseError::Refused(refused).into(), 409, CANNOT_CANCEL, None, None),
            (ReleaseError::UnderReview(order).into(), 409, CANNOT_CANCEL, None, None),
            (ReleaseError::Unknown(cause()).into(), 500, internal, None, None),
            (PaymentError::Unavailable("timeout".into()).into(), 503, CANCEL_UNAVAILABLE, None, None),
            (PaymentError::Rejected { status: 400, message: "no".into() }.into(), 503, CANCEL_UNAVAILABLE, None, None),
            // the help chat
            (ChatError::NotFound(::chat::ChatId::random()).into(), 404, "Chat not found.", None, None),
            (ChatError::Refused(::chat::Refused { action: ::chat::ChatAction::Accept, status: ::chat::ChatStatus::Connected }).into(), 409, "Another agent has already joined this chat.", None, None),
            (ChatError::Refused(::chat::Refused { action: ::chat::ChatAction::Send, status: ::chat::ChatStatus::Closed }).into(), 409, "This conversation has ended.", None, None),
            (ChatError::Unknown(cause()).into(), 500, internal, None, None),
            // proofs
            (ProofError::NotFound(::proofs::ProofId::new(4)).into(), 404, "Proof not found.", None, None),
            (ProofError::Unknown(cause()).into(), 500, internal, None, None),
            (PublishError::NoImages.into(), 422, "Please provide items and at least one image.", Some("images"), None),
            (PublishError::TooManyImages.into(), 422, "A proof may have at most 10 images.", Some("images"), None),
            (PublishError::Image { index: 1, reason: ::proofs::ImageRejected::TooLarge }.into(), 422, "Image 2: Each image may be at most 5 MB and 40 megapixels.", Some("images"), None),
            (PublishError::Unknown(cause()).into(), 500, internal, None, None),
            // accounts
            (LoginError::InvalidCredentials.into(), 401, "Invalid email or password.", None, None),
            (LoginError::TooManyAttempts { retry_after: Duration::from_secs(90) }.into(), 429, "Too many attempts. Try again in 2 minutes.", None, Some("90")),
            (LoginError::Unknown(cause()).into(), 500, internal, None, None),
            (SendCodeError::TooSoon { retry_after: Duration::from_secs(42) }.into(), 429, "Please wait 42 seconds before asking for a new code.", None, Some("42")),
            (SendCodeError::TooManySends { retry_after: Duration::from_secs(30) }.into(), 429, "Too many attempts. Try again in 30 seconds.", None, Some("30")),
            (SendCodeError::Mail(::accounts::MailError(cause())).into(), 503, MAIL_UNAVAILABLE, None, None),
            (SendCodeError::Unknown(cause()).into(), 500, internal, None, None),
            (VerifyCodeError::InvalidCode.into(), 422, "Invalid code. Please try again.", Some("code"), None),
            (VerifyCodeError::Expired.into(), 422, "This code has expired. Ask for a new one.", Some("code"), None),
            (VerifyCodeError::EmailTaken.into(), 422, "This e-mail is already registered.", Some("email"), None),
            (VerifyCodeError::TooManyAttempts { retry_after: None }.into(), 429, TOO_MANY_CODES, None, Some("60")),
            (VerifyCodeError::TooManyAttempts { retry_after: Some(Duration::from_secs(5)) }.into(), 429, TOO_MANY_CODES, None, Some("5")),
            (VerifyCodeError::Unknown(cause()).into(), 500, internal, None, None),
            (ResetPasswordError::InvalidToken.into(), 422, "This reset link is invalid or has expired.", Some("token"), None),
            (ResetPasswordError::Unknown(cause()).into(), 500, internal, None, None),
            // outside systems
            (RobloxLookupError::Unavailable("timeout".into()).into(), 502, ROBLOX_FAILED, None, None),
            (RobloxLookupError::Unknown(cause()).into(), 502, ROBLOX_FAILED, None, None),
            (DiscordLinkError::MissingUserId.into(), 400, DISCORD_NO_USER_ID, None, None),
            (DiscordLinkError::InvalidCode.into(), 400, DISCORD_CODE_REFUSED, None, None),
            (DiscordLinkError::UnusableIdentity("avatar").into(), 400, DISCORD_UNUSABLE, None, None),
            (DiscordLinkError::Unavailable("timeout".into()).into(), 502, DISCORD_FAILED, None, None),
            (DiscordLinkError::Unknown(cause()).into(), 502, DISCORD_FAILED, None, None),
            (WebhookError::BadSignature.into(), 400, "Webhook refused: no valid signature.", None, None),
        ];
        for (error, status, message, field, retry_after) in table {
            let shown = format!("{error:?}");
            let (got_status, json, got_retry) = body(error).await;
            assert_eq!(got_status.as_u16(), status, "{shown}");
            assert_eq!(json["message"], message, "{shown}");
            match field {
                Some(field) => assert!(json["errors"][field].is_array(), "{shown}: {json}"),
                None => assert_eq!(json["errors"], serde_json::json!({}), "{shown}"),
            }
            assert_eq!(got_retry.as_deref(), retry_after, "{shown}");
        }
    }

    #[test]
    fn serde_messages_name_the_field() {
        assert_eq!(
            field_of("missing field `email` at line 1 column 2").as_deref(),
            Some("email")
        );
        match invalid_fields("missing field `password_confirmation` at line 1") {
            ApiError::Validation { errors, .. } => {
                assert_eq!(
                    errors["password_confirmation"][0],
                    "The password confirmation field is required."
                );
            }
            other => panic!("{other:?}"),
        }
        // a query string naming a parameter twice (`?key=a&key=b`)
        match invalid_fields("duplicate field `key`") {
            ApiError::Validation { message, errors } => {
                assert_eq!(message, "The key field is given more than once.");
                assert_eq!(errors["key"][0], message);
            }
            other => panic!("{other:?}"),
        }
    }
}
