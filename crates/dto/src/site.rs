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
    /// The steps a buyer takes after paying, in order (the FAQ and How it works show them;
    /// each order's page shows its own, marked).
    pub delivery_steps: Vec<DeliveryStep>,
    /// The languages the storefront speaks (BCP 47), English first.
    #[schema(example = json!(["en", "es", "pt-BR", "fr", "de"]))]
    pub languages: Vec<&'static str>,
    /// The currencies a shopper may see prices and pay in now, the base currency (the one
    /// prices are in) first. Without fresh rates, the base currency only.
    pub currencies: Vec<SiteCurrency>,
}

/// A currency the shop offers now, and how the browser converts a price of record into it:
/// each unit price times `rate`, rounded by `rounding`; line totals summed; the promo's
/// percent half-up; the fee with its fixed part converted and rounded (docs/api.md).
#[derive(Debug, Serialize, ToSchema)]
pub struct SiteCurrency {
    #[schema(example = "BRL")]
    pub code: String,
    /// Units of this currency one unit of the base currency buys, as a decimal string ("1" for
    /// the base).
    #[schema(example = "5.34144")]
    pub rate: String,
    /// The day of the rate (the reference rates' date); null for the base without any rates.
    #[schema(example = "2026-11-27", format = Date)]
    pub as_of: Option<String>,
    /// The currency's decimals: 2, or 0 for a zero-decimal currency.
    #[schema(example = 2)]
    pub minor_units: u32,
    /// "minor" (half-up to the minor unit) or a price ending such as "0.99" (the nearest price
    /// ending so, ties up, never below it).
    #[schema(example = "minor")]
    pub rounding: String,
    /// The payment methods that can pay in this currency, as checkout names them: `card`
    /// always, `paypal` when the shop offers PayPal (`paypal_enabled`) and PayPal accepts the
    /// currency (`paypal.currencies`).
    #[schema(example = json!(["card", "paypal"]))]
    pub methods: Vec<&'static str>,
}

impl SiteCurrency {
    /// `offered`, payable by card, and by PayPal when `paypal` says so.
    pub fn with_methods(offered: &cart_pricing::OfferedCurrency, paypal: bool) -> Self {
        let conversion = &offered.conversion;
        let mut methods = vec!["card"];
        if paypal {
            methods.push("paypal");
        }
        SiteCurrency {
            code: conversion.code.to_string(),
            rate: conversion.rate.normalize().to_string(),
            as_of: offered.as_of.map(|day| day.to_string()),
            minor_units: conversion.minor_units,
            rounding: conversion.rounding.as_str().to_owned(),
            methods,
        }
    }
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

/// The step of the script a buyer takes after paying (the contract; `title` is the words).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeliveryStepKey {
    Discord,
    Wait,
    Join,
    Ready,
    Receive,
    Review,
}

impl From<delivery::ScriptKey> for DeliveryStepKey {
    fn from(key: delivery::ScriptKey) -> Self {
        use delivery::ScriptKey as K;
        match key {
            K::Discord => DeliveryStepKey::Discord,
            K::Wait => DeliveryStepKey::Wait,
            K::Join => DeliveryStepKey::Join,
            K::Ready => DeliveryStepKey::Ready,
            K::Receive => DeliveryStepKey::Receive,
            K::Review => DeliveryStepKey::Review,
        }
    }
}

/// One step of the script from payment to delivery, in its place: `discord` (only where the
/// shop has an invite), `wait`, `join`, `ready`, `receive`, `review`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryStep {
    pub key: DeliveryStepKey,
    /// What to do, short.
    #[schema(example = "Wait for a member of staff")]
    pub title: String,
    /// One sentence on how and why.
    pub detail: String,
    /// Where the step is done outside the shop (the Discord invite), else null.
    #[schema(required = true, example = "https://discord.gg/garden")]
    pub link: Option<String>,
}

impl From<&delivery::ScriptStep> for DeliveryStep {
    fn from(step: &delivery::ScriptStep) -> Self {
        DeliveryStep {
            key: step.key.into(),
            title: step.title.clone(),
            detail: step.detail.clone(),
            link: step.link.clone(),
        }
    }
}

/// One step of an order's script, marked when the order is past it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderStep {
    #[serde(flatten)]
    pub step: DeliveryStep,
    /// The order is past this step; the first step not done is the one it is at.
    pub done: bool,
}

impl From<&delivery::ScriptStep> for OrderStep {
    fn from(step: &delivery::ScriptStep) -> Self {
        OrderStep {
            step: step.into(),
            done: step.done,
        }
    }
}
