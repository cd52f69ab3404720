//! The refund policy: its one source, with its version. The storefront's page reads it from
//! `GET /api/refund-policy`, the checkout links it beside Complete Payment and every order
//! records the version it was placed under; a dispute's evidence prints the version shown.

/// The policy's version: the day it took effect. Change it with any change of the text.
pub const VERSION: &str = "2026-11-01";

/// The sentence above the sections.
pub const INTRO: &str =
    "Our items are digital and delivered by hand, so refunds work differently from a regular shop.";

/// The sections: a heading, then its paragraph.
pub const SECTIONS: [(&str, &str); 6] = [
    (
        "Completed purchases",
        "We do not offer refunds for completed purchases. Once your items have been delivered \
         in game, the order is final. This also applies when you change your mind after \
         delivery, when you no longer play, or when the game's developers later change how an \
         item works.",
    ),
    (
        "When you do get a refund",
        "If your order was not delivered because of an error on our side, for example we ran \
         out of the item after you paid or our staff could not complete the delivery, we refund \
         the full amount you paid to the card you used.",
    ),
    (
        "Your part: correct details",
        "You must give us a correct Roblox username, e-mail address and Discord account at \
         checkout, and join the private server from your order page when asked. We are not able \
         to refund an order that could not be delivered because the details were wrong, or \
         because you did not join to receive it.",
    ),
    (
        "Items with a dupe warning",
        "Some pets may be falsely flagged as a dupe by the game after delivery. We warn you \
         before you add them to your cart, and a flag placed by the game after delivery is not \
         a reason for a refund.",
    ),
    (
        "How to ask for a refund",
        "Contact us (the ways are below) with your order number and the e-mail address you \
         used at checkout, and tell us what went wrong. Staff check the delivery record and \
         answer you there.",
    ),
    (
        "Where the money goes",
        "Approved refunds are sent to the original card. Your bank may take 5 to 10 business \
         days to show the money back on your statement.",
    ),
];

/// The policy as plain text: the intro, then each section as "Heading. Paragraph", separated
/// by blank lines.
pub fn text() -> String {
    std::iter::once(INTRO.to_owned())
        .chain(
            SECTIONS
                .iter()
                .map(|(heading, body)| format!("{heading}. {body}")),
        )
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The policy as the disputes service prints it, its page at `public_url`.
pub fn for_disputes(public_url: &str) -> disputes::RefundPolicy {
    disputes::RefundPolicy {
        version: VERSION.to_owned(),
        url: format!("{}/refund-policy", public_url.trim_end_matches('/')),
        text: text(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_holds_every_section_once_with_its_heading() {
        let text = text();
        assert!(text.starts_with(INTRO));
        for (heading, body) in SECTIONS {
            assert_eq!(text.matches(&format!("{heading}. {body}")).count(), 1);
        }
        assert_eq!(text.split("\n\n").count(), SECTIONS.len() + 1);
    }

    #[test]
    fn the_version_is_a_date() {
        assert!(chrono::NaiveDate::parse_from_str(VERSION, "%Y-%m-%d").is_ok());
    }
}
