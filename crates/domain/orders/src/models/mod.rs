mod buyer;
mod checkout;
mod limits;
mod order;
mod reservation;
mod staff;
mod status;

pub use buyer::{Buyer, Email, InvalidEmail};
pub use checkout::{
    CheckoutRequest, Confirmation, PaymentNotice, PlacedOrder, Release, RequestedItem,
};
pub use limits::{
    frees_up_in, AccountCap, AccountCapReached, CheckoutLimits, HeldBy, OrderHolder,
    PendingCapReached, PendingCaps,
};
pub use order::{
    Amounts, Dispute, DisputeOutcome, NewOrder, Order, OrderId, OrderLine, OrderPromo, Payment,
    PaymentProvider, ProviderEvent,
};
pub use reservation::{stock_problems, CartItem, Reservation};
pub use staff::StaffMember;
pub use status::{Lifecycle, OrderStatus, TransitionError};
