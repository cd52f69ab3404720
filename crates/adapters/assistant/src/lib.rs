//! The help chat assistants.
