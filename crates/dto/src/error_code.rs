//! The machine-readable `code` every error body carries beside its `message`: stable words a
//! client may branch on (or pick its own wording by) while the message is for people.

use serde::Serialize;
use utoipa::ToSchema;

/// What kind of error an answer is. New codes may be added; a client treats a code it does
/// not know by the answer's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: the body or a parameter cannot be read at all.
    BadRequest,
    /// 401: not logged in, or the credentials do not match.
    Unauthorized,
    /// 403: the wrong role, a blocked buyer or a cross-site request.
    Forbidden,
    /// 404: nothing has this id or address (or it is not the caller's to see).
    NotFound,
    /// 405: the path exists with other methods (`Allow` names them).
    MethodNotAllowed,
    /// 409: the request conflicts with the current state.
    Conflict,
    /// 409 with `Retry-After`: another request is still at what this one needs.
    InProgress,
    /// 409 at checkout: some lines cannot be bought as they are (`problems` names them).
    CartUnavailable,
    /// 409 at checkout: the total differs from the server's (`cart` is the cart priced anew).
    CartChanged,
    /// 413: the body is too large.
    PayloadTooLarge,
    /// 415: the body is not of a type the call reads.
    UnsupportedMediaType,
    /// 422: fields are missing or invalid (`errors` names each).
    InvalidFields,
    /// 422: the promo code does not apply (`reason` says why).
    PromoRejected,
    /// 422 at checkout: the shop does not offer the currency asked for right now (unknown, or
    /// its rate is too old); `errors.currency` says so.
    CurrencyUnavailable,
    /// 429: too many calls; `Retry-After` says when to try again.
    RateLimited,
    /// 502: an outside service (payment provider, Discord, Roblox) failed or refused.
    ProviderFailed,
    /// 503: an outside system the call needs (the mail server) is down.
    ServiceUnavailable,
    /// 503: the shop cannot reach its database.
    DatabaseUnavailable,
    /// 503: the shop cannot reach its session store.
    SessionsUnavailable,
    /// 503 of `GET /api/health/ready`: a check failed (`errors` names each).
    NotReady,
    /// 500: something went wrong on the shop's side (`request_id` names the log line).
    Internal,
}
