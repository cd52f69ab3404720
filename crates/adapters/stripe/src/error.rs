//! Stripe's failures sorted into what a caller can act on ([`PaymentError`]), whether the call
//! went through async-stripe or through our own reqwest client.

use anyhow::anyhow;
use orders::gateways::PaymentError;
use serde::Deserialize;
use shared::upstream::excerpt;
use stripe::StripeError;

/// Whether a failed answer's status says "try again later": a timeout (408), a rate limit
/// (429) or Stripe failing on its side (5xx). Any other 4xx is our request being wrong.
fn worth_retrying(status: u16) -> bool {
    status == 408 || status == 429 || status >= 500
}

/// A failed answer with HTTP `status` and Stripe's `message` for it.
fn status_error(status: u16, message: String) -> PaymentError {
    if worth_retrying(status) {
        PaymentError::Unavailable(format!("Stripe answered {status}: {message}"))
    } else {
        PaymentError::Rejected { status, message }
    }
}

/// Stripe's error message, its type when it has none, and the parameter it names: kept as a
/// bounded single line (Stripe's message is free text of any length).
fn describe(message: Option<&str>, kind: &str, param: Option<&str>) -> String {
    let mut described = message.unwrap_or(kind).to_owned();
    if let Some(param) = param {
        described.push_str(&format!(" (param: {param})"));
    }
    excerpt(&described)
}

/// A failure of a call made through async-stripe.
pub(crate) fn payment_error(err: StripeError) -> PaymentError {
    match err {
        StripeError::Stripe(api, status) => status_error(
            status,
            describe(
                api.message.as_deref(),
                api.type_.as_str(),
                api.param.as_deref(),
            ),
        ),
        StripeError::ClientError(msg) => PaymentError::Unavailable(excerpt(&msg)),
        StripeError::Timeout => PaymentError::Unavailable("Stripe did not answer in time".into()),
        StripeError::JSONDeserialize(msg) => {
            PaymentError::Unknown(anyhow!("unreadable answer from Stripe: {}", excerpt(&msg)))
        }
        StripeError::ConfigError(msg) => {
            PaymentError::Unknown(anyhow!("Stripe client misconfigured: {msg}"))
        }
    }
}

/// A call made through our own reqwest client that got no answer: Stripe could not be
/// reached, or did not answer (or finish answering) in time.
pub(crate) fn transport_error(err: reqwest::Error) -> PaymentError {
    if err.is_timeout() {
        PaymentError::Unavailable("Stripe did not answer in time".into())
    } else {
        // without the URL: it is ours, and the error's own words are what matter
        PaymentError::Unavailable(format!(
            "Stripe could not be reached: {}",
            excerpt(&err.without_url().to_string())
        ))
    }
}

/// Stripe's error body: `{"error": {"type": ..., "message": ..., "param": ...}}`.
#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    param: Option<String>,
}

/// A failed answer to a call made through our own reqwest client: HTTP `status` and the body
/// as sent, read as Stripe's error shape when it is one and cut to an excerpt when it is not.
pub(crate) fn answer_error(status: u16, body: &str) -> PaymentError {
    let message = match serde_json::from_str::<ErrorBody>(body) {
        Ok(ErrorBody { error }) => describe(
            error.message.as_deref(),
            &error.kind,
            error.param.as_deref(),
        ),
        Err(_) => excerpt(body),
    };
    status_error(status, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_rate_limits_and_stripes_own_failures_are_worth_retrying() {
        for status in [408, 429, 500, 502, 503] {
            assert!(
                matches!(answer_error(status, ""), PaymentError::Unavailable(_)),
                "{status}"
            );
        }
        for status in [400, 401, 402, 403, 404, 409] {
            assert!(
                matches!(answer_error(status, ""), PaymentError::Rejected { .. }),
                "{status}"
            );
        }
    }

    #[test]
    fn a_rejection_carries_stripes_message_and_parameter() {
        let body = r#"{"error": {"type": "invalid_request_error", "message": "No such dispute: 'dp_9'", "param": "dispute"}}"#;
        match answer_error(404, body) {
            PaymentError::Rejected { status, message } => {
                assert_eq!(status, 404);
                assert_eq!(message, "No such dispute: 'dp_9' (param: dispute)");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_answer_that_is_not_stripes_error_shape_is_kept_as_a_short_line() {
        let page = format!("<html>\n{}</html>", "x".repeat(10_000));
        match answer_error(403, &page) {
            PaymentError::Rejected { message, .. } => {
                assert!(message.starts_with("<html> xxx"), "{message}");
                assert!(message.chars().count() <= shared::upstream::EXCERPT_CHARS + 1);
            }
            other => panic!("{other:?}"),
        }
    }
}
