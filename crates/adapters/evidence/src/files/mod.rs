//! The three evidence files, one module each.

pub(crate) mod customer_communication;
pub(crate) mod refund_policy;
pub(crate) mod service_documentation;
