use shared::UserId;

/// A member of staff, as the delivery queue and the blocklist name them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffMember {
    pub id: UserId,
    pub name: String,
}
