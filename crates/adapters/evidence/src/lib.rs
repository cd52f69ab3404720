//! The dispute evidence as PDF files, for the bank's reviewer: the delivery record with its
//! proof pictures (`service_documentation`), the messages sent to the buyer
//! (`customer_communication`) and the refund policy shown at checkout (`refund_policy`).
//!
//! A4 pages drawn with printpdf, text in DejaVu Sans embedded as a subset (see `fonts`), proof
//! pictures downscaled and stored as JPEG. The three files stay under `BUDGET` bytes together,
//! below the provider's 4.5 MB, by leaving out the pictures that do not fit and saying so.

mod files;
mod fonts;
mod page;
mod pictures;

use disputes::{DeliveryRecord, EvidenceError, EvidenceFiles};

use crate::files::{customer_communication, refund_policy, service_documentation};
use crate::fonts::Fonts;
use crate::pictures::Selection;

/// The most the three files may weigh together, in bytes; Stripe takes 4.5 MB, the rest is
/// margin.
pub const BUDGET: usize = 4_000_000;

/// What the notes about left-out or unreadable pictures and their pages may add to the
/// delivery record beyond its text without pictures.
const NOTES_ALLOWANCE: usize = 16_000;

/// Renders the evidence files with printpdf.
pub struct PdfEvidence {
    fonts: Fonts,
}

impl PdfEvidence {
    /// Reads the embedded fonts once; fails only if the font files in the crate are broken.
    pub fn new() -> Result<Self, EvidenceError> {
        Ok(PdfEvidence {
            fonts: Fonts::load()?,
        })
    }
}

impl PdfEvidence {
    /// The three files of `record` (CPU work: seconds for an order with many pictures; the
    /// app runs it on a blocking thread as its `disputes::EvidenceRenderer`).
    #[tracing::instrument(skip_all, fields(order_id = %record.order_id, proofs = record.proofs.len()))]
    pub fn render(&self, record: &DeliveryRecord) -> Result<EvidenceFiles, EvidenceError> {
        let customer_communication = customer_communication::render(&self.fonts, record);
        let refund_policy = refund_policy::render(&self.fonts, record);
        let without_pictures =
            service_documentation::render(&self.fonts, record, &Selection::default());
        let room = BUDGET.saturating_sub(
            customer_communication.len()
                + refund_policy.len()
                + without_pictures.len()
                + NOTES_ALLOWANCE,
        );
        let mut pictures = Selection::fitting(&record.proofs, room);
        let mut service_documentation =
            service_documentation::render(&self.fonts, record, &pictures);
        // The pictures were measured before they went in; should the file still come out too
        // large, drop pictures until it fits rather than send what the provider refuses.
        while service_documentation.len() + customer_communication.len() + refund_policy.len()
            > BUDGET
            && pictures.leave_out_last()
        {
            tracing::warn!(
                "the delivery record came out larger than measured; leaving out one more picture"
            );
            service_documentation = service_documentation::render(&self.fonts, record, &pictures);
        }
        Ok(EvidenceFiles {
            service_documentation,
            customer_communication,
            refund_policy,
        })
    }
}
