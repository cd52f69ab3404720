mod buyer;
mod checkout;
mod guild_access;
mod hold;
mod limits;
mod order;
mod reservation;
mod staff;
mod status;

pub use buyer::{Buyer, Email, InvalidEmail};
pub use checkout::{
    CheckoutRequest, Confirmation, PaymentNotice, PlacedOrder, Release, RequestedItem,
};
pub use guild_access::{AccessToken, GuildAccess};
pub use hold::{HoldReason, NewHold, RiskHold};
pub use limits::{
    frees_up_in, AccountCap, AccountCapReached, CapHolder, CheckoutLimits, DropHolders,
    DropHolding, HeldBy, HeldUnits, OrderHolder, PendingCapReached, PendingCaps, PendingCount,
};
pub use order::{
    Amounts, Dispute, DisputeOutcome, KeyedOrder, NewOrder, Order, OrderId, OrderLine, OrderPromo,
    Paid, Payment, PaymentProvider, ProviderEvent,
};
pub use reservation::{drop_caps, stock_problems, takes_a_drop, CartItem, Reservation};
pub use staff::StaffMember;
pub use status::{Lifecycle, OrderStatus, TransitionError};
