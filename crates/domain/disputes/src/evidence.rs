//! The delivery record of an order, and the evidence made of it.

use chrono::{DateTime, Utc};
use orders::OrderId;

/// One product of the order as it was bought.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RecordLine {
    pub name: String,
    pub quantity: u32,
    /// The unit price in the order's currency, as text with two decimals (`"4.99"`).
    pub unit_price: String,
}

/// A proof picture staff posted for the order (as stored: JPEG, PNG or WebP bytes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProofImage {
    pub posted_at: DateTime<Utc>,
    pub content_type: String,
    /// Where the shop keeps it (the media store's path); `bytes` are read from there.
    pub path: String,
    pub bytes: Vec<u8>,
}

/// One message the shop sent the buyer about the order, or posted where the buyer reads it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Communication {
    pub at: DateTime<Utc>,
    /// Where it went: `"e-mail"`, `"Discord ticket"`, `"order page"`.
    pub channel: String,
    /// The subject of a mail, or who posted (`"Garden Shop staff"`).
    pub title: String,
    /// The text as sent (plain text).
    pub body: String,
    /// A buyer's mail: its kind (`receipt`, `claimed`, `delivered`, `refunded`), so that its
    /// text can be worded as it was sent; `None` for a post.
    pub mail_kind: Option<String>,
}

/// The refund policy as the buyer was shown it at checkout.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RefundPolicyShown {
    /// The policy's version (`"2026-11-01"`).
    pub version: String,
    /// Where it is published (`https://shop.example/refunds`).
    pub url: String,
    /// The policy's text of that version (plain text, paragraphs separated by blank lines).
    pub text: String,
    /// When the checkout that showed it was placed.
    pub shown_at: DateTime<Utc>,
    /// Whether the order recorded the version its checkout showed (orders placed before the
    /// checkout linked the policy beside Complete Payment did not).
    pub recorded: bool,
}

/// Everything the shop recorded about one order's sale and delivery: what evidence is made of.
/// Times are UTC; addresses are the client addresses the shop saw (IPv4 or IPv6 text).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeliveryRecord {
    pub order_id: OrderId,
    /// The shop's name as the buyer saw it ("Garden Shop").
    pub shop_name: String,
    pub lines: Vec<RecordLine>,
    /// The total charged, as text with two decimals, and its currency (`"USD"`).
    pub total: String,
    pub currency: String,
    pub roblox_username: String,
    pub roblox_user_id: Option<i64>,
    /// The Discord account verified by OAuth, when linked.
    pub discord_username: Option<String>,
    pub discord_id: Option<String>,
    pub email: Option<String>,
    /// The address the checkout came from.
    pub checkout_ip: Option<String>,
    pub placed_at: DateTime<Utc>,
    pub paid_at: Option<DateTime<Utc>>,
    pub claimed_at: Option<DateTime<Utc>>,
    /// The member of staff who delivered (display name).
    pub staff_name: Option<String>,
    /// When the private server link was first shown to the buyer, and the link as shown.
    pub server_link_shown_at: Option<DateTime<Utc>>,
    pub server_link: Option<String>,
    /// The buyer's "I'm in the game" press, and the address it came from.
    pub ready_at: Option<DateTime<Utc>>,
    pub ready_ip: Option<String>,
    pub delivered_at: Option<DateTime<Utc>>,
    /// The buyer's "I got my items", and the address it came from.
    pub received_at: Option<DateTime<Utc>>,
    pub received_ip: Option<String>,
    pub refund_policy: RefundPolicyShown,
    pub proofs: Vec<ProofImage>,
    pub communications: Vec<Communication>,
    /// What staff added for the bank's reader (up to 1,000 characters).
    pub staff_note: Option<String>,
}

impl DeliveryRecord {
    /// A digest of everything the evidence is built from (pictures included): two records
    /// with the same fingerprint give the same evidence, so files built from one serve the
    /// other. Stable within one build of the shop (every instance of a cluster runs the same);
    /// after an upgrade a fingerprint may differ, which only builds the files again.
    pub fn fingerprint(&self) -> String {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        self.hash(&mut hasher);
        format!("{:016x}", hasher.finish())
    }
}

/// The provider's text fields of dispute evidence (Stripe's names).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EvidenceText {
    pub customer_name: String,
    pub customer_email_address: Option<String>,
    pub customer_purchase_ip: Option<String>,
    pub product_description: String,
    /// The delivery's date, `YYYY-MM-DD`.
    pub service_date: Option<String>,
    pub access_activity_log: String,
    pub refund_policy_disclosure: String,
    pub uncategorized_text: String,
}

impl EvidenceText {
    /// The text fields' names, as the provider calls them (what a buyer's privacy export says
    /// was sent).
    pub const FIELDS: [&'static str; 8] = [
        "customer_name",
        "customer_email_address",
        "customer_purchase_ip",
        "product_description",
        "service_date",
        "access_activity_log",
        "refund_policy_disclosure",
        "uncategorized_text",
    ];

    /// Every field sent with staged or submitted evidence: the text fields and the files.
    pub fn sent_fields() -> Vec<&'static str> {
        Self::FIELDS
            .into_iter()
            .chain(EvidenceFile::ALL.map(EvidenceFile::field))
            .collect()
    }
}

#[cfg(test)]
mod fields_tests {
    use super::*;

    #[test]
    fn the_field_names_are_every_field_of_the_text() {
        // a field added to the struct fails to compile here until it is named
        let EvidenceText {
            customer_name: _,
            customer_email_address: _,
            customer_purchase_ip: _,
            product_description: _,
            service_date: _,
            access_activity_log: _,
            refund_policy_disclosure: _,
            uncategorized_text: _,
        } = EvidenceText::default();
        assert_eq!(EvidenceText::FIELDS.len(), 8);
        assert_eq!(EvidenceText::sent_fields().len(), 11);
        assert!(EvidenceText::sent_fields().contains(&"service_documentation"));
    }
}

/// Which of the three evidence files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvidenceFile {
    /// The delivery record: timeline, accounts, proof pictures.
    ServiceDocumentation,
    /// The mails and posts the shop sent about the order.
    CustomerCommunication,
    /// The refund policy of the version shown.
    RefundPolicy,
}

impl EvidenceFile {
    pub const ALL: [EvidenceFile; 3] = [
        EvidenceFile::ServiceDocumentation,
        EvidenceFile::CustomerCommunication,
        EvidenceFile::RefundPolicy,
    ];

    /// Stripe's evidence field name, also the file's name in the API.
    pub fn field(self) -> &'static str {
        match self {
            EvidenceFile::ServiceDocumentation => "service_documentation",
            EvidenceFile::CustomerCommunication => "customer_communication",
            EvidenceFile::RefundPolicy => "refund_policy",
        }
    }

    pub fn parse(field: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|file| file.field() == field)
    }
}

/// The three PDF files of the evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceFiles {
    pub service_documentation: Vec<u8>,
    pub customer_communication: Vec<u8>,
    pub refund_policy: Vec<u8>,
}

impl EvidenceFiles {
    pub fn get(&self, file: EvidenceFile) -> &[u8] {
        match file {
            EvidenceFile::ServiceDocumentation => &self.service_documentation,
            EvidenceFile::CustomerCommunication => &self.customer_communication,
            EvidenceFile::RefundPolicy => &self.refund_policy,
        }
    }

    /// The three together, in bytes (Stripe takes at most 4.5 MB of evidence files).
    pub fn total_len(&self) -> usize {
        EvidenceFile::ALL
            .iter()
            .map(|file| self.get(*file).len())
            .sum()
    }
}

/// The provider's ids of the three uploaded files (Stripe's `file_...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagedFiles {
    pub service_documentation: String,
    pub customer_communication: String,
    pub refund_policy: String,
}

/// A dispute as the provider reports it in its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisputeFacts {
    /// The provider's dispute id (Stripe's `du_...` / `dp_...`).
    pub id: String,
    /// The amount disputed in the currency's minor unit (cents), and the currency (`"usd"`).
    pub amount_minor: i64,
    pub currency: String,
    /// The bank's reason (`fraudulent`, `product_not_received`, ...).
    pub reason: Option<String>,
    /// The provider's status (`needs_response`, `under_review`, `won`, `lost`, ...).
    pub status: String,
    /// When the evidence must be in (Stripe's `evidence_details.due_by`).
    pub due_by: Option<DateTime<Utc>>,
    /// Whether the evidence was submitted already (Stripe's `evidence_details.submission_count`
    /// above 0).
    pub submitted: bool,
}
