//! Who may see an order: one rule for its page, what a buyer does there and its event stream.

use std::future::Future;

use shared::UserId;

use crate::{Order, OrderError};

/// Who asks to see an order, as their request names them.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// The orders placed in their browser session.
    pub session_orders: Vec<i64>,
    /// Their logged-in account.
    pub user: Option<UserId>,
    /// The key of an order's link they present.
    pub key: Option<String>,
}

/// The longest key worth checking (a link's key is 32 characters).
const MAX_KEY_LEN: usize = 128;

impl Viewer {
    /// Whether they may see `order` as its buyer: it was placed in their session or belongs to
    /// their account.
    pub fn owns(&self, order: &Order) -> bool {
        self.session_orders.contains(&order.id.get())
            || self
                .user
                .is_some_and(|user| order.buyer.user_id == Some(user))
    }

    /// Whether they may see `order`: as its buyer, or with the key of its link, which
    /// `key_opens` compares with the stored hash (asked only when the key is needed).
    pub async fn may_see<'a, Opens, Fut>(
        &'a self,
        order: &Order,
        key_opens: Opens,
    ) -> Result<bool, OrderError>
    where
        Opens: FnOnce(&'a str) -> Fut,
        Fut: Future<Output = Result<bool, OrderError>>,
    {
        if self.owns(order) {
            return Ok(true);
        }
        match self.key.as_deref() {
            Some(key) if !key.is_empty() && key.len() <= MAX_KEY_LEN => key_opens(key).await,
            _ => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::testing::TestOrder;
    use crate::{OrderStatus, PaymentProvider};

    fn order(owner: Option<i64>) -> Order {
        let at = Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap();
        let mut order = TestOrder::new(PaymentProvider::Stripe, OrderStatus::Pending, at).build();
        order.buyer.user_id = owner.map(UserId::new);
        order
    }

    async fn sees(viewer: &Viewer, order: &Order) -> bool {
        let opens = |key: &str| {
            let right = key == "right-key";
            async move { Ok(right) }
        };
        viewer.may_see(order, opens).await.unwrap()
    }

    #[tokio::test]
    async fn its_session_its_owner_or_the_key_of_its_link_sees_an_order_and_no_one_else() {
        let (guest, owned) = (order(None), order(Some(5)));
        let session = Viewer {
            session_orders: vec![3, 9],
            ..Viewer::default()
        };
        assert!(session.owns(&guest) && sees(&session, &guest).await);
        let owner = Viewer {
            user: Some(UserId::new(5)),
            ..Viewer::default()
        };
        assert!(owner.owns(&owned) && !owner.owns(&guest));
        let other = Viewer {
            session_orders: vec![3],
            user: Some(UserId::new(6)),
            ..Viewer::default()
        };
        assert!(!sees(&other, &owned).await && !sees(&Viewer::default(), &guest).await);
        let with_key = |key: &str| Viewer {
            key: Some(key.to_owned()),
            ..Viewer::default()
        };
        assert!(sees(&with_key("right-key"), &guest).await);
        assert!(
            !with_key("right-key").owns(&guest),
            "a key opens the page, not the account"
        );
        for wrong in ["wrong-key", ""] {
            assert!(!sees(&with_key(wrong), &guest).await, "{wrong:?}");
        }
    }

    #[tokio::test]
    async fn a_key_too_long_to_be_one_is_not_looked_up() {
        let viewer = Viewer {
            key: Some("k".repeat(MAX_KEY_LEN + 1)),
            ..Viewer::default()
        };
        let guest = order(None);
        let asked = viewer.may_see(&guest, |_| async { panic!("looked up") });
        assert!(!asked.await.unwrap());
    }
}
