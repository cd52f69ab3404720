//! Why a change of the blocklist was refused.

use orders::BlockKind;

/// Why a blocklist change did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BlocklistError {
    /// 422: a field is missing or malformed.
    #[error("{message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// 409: the same kind and value are blocked already.
    #[error("This {} is on the blocklist already.", .0.label().to_lowercase())]
    Duplicate(BlockKind),
    /// 404.
    #[error("Blocklist entry not found.")]
    NotFound(i64),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}
