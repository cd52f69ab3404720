//! The shop's public settings (`GET /api/site`) as the API sends them.

use serde::Serialize;
use utoipa::ToSchema;

/// What the browser needs to know about this shop's configuration.
#[derive(Debug, Serialize, ToSchema)]
pub struct Site<'a> {
    /// The shop's name.
    #[schema(example = "Garden Shop")]
    pub name: &'a str,
    /// Where the shop's reviews are read (may be empty).
    pub reviews_url: &'a str,
    /// Whether checkout offers PayPal.
    pub paypal_enabled: bool,
    /// The shop's Discord server invite; null when it has none (the pages then point to the
    /// help chat).
    #[schema(required = true, example = "https://discord.gg/garden")]
    pub discord_invite_url: Option<&'a str>,
    /// The promise: "usually delivered in under N minutes" (the last 7 days' 75th percentile of
    /// paid → delivered rounded up to 5 minutes, or the setting while fewer than 10 orders
    /// were delivered in them).
    #[schema(example = 10)]
    pub delivery_minutes: u32,
    /// The days after its payment an erased buyer's order keeps what a dispute needs
    /// (`disputes.evidence_retention_days`), as the privacy policy says.
    #[schema(example = 120)]
    pub evidence_retention_days: u32,
}

/// The shop's refund policy (`GET /api/refund-policy`): its one source, with its version.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefundPolicy {
    /// The day the policy took effect; every order records the version its checkout linked.
    #[schema(example = "2026-11-01")]
    pub version: &'static str,
    /// The sentence above the sections.
    pub intro: &'static str,
    pub sections: Vec<RefundPolicySection>,
}

/// One section of the refund policy.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefundPolicySection {
    #[schema(example = "Completed purchases")]
    pub heading: &'static str,
    pub text: &'static str,
}
