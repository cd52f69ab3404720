//! The blocklist: e-mail addresses, Discord accounts, Roblox usernames and client addresses the
//! shop does not sell to, as the super_admin keeps it. What an entry names and the check
//! checkout makes are `orders::BlockKind` and `orders::Blocklist`.

mod blocklist;

pub use blocklist::{
    BlockEntry, BlockStatus, BlocklistAdmin, BlocklistError, BlocklistLimits, BlocklistRepository,
    NewBlock,
};
pub use orders::{canonical_email, normalise_ip, BlockKind, Blocklist, BuyerIdentities};
