mod buyer;
mod checkout;
mod limits;
mod order;
mod reservation;
mod status;

pub use buyer::{Buyer, Email, InvalidEmail};
pub use checkout::{
    CheckoutRequest, Confirmation, PaymentNotice, PlacedOrder, Release, RequestedItem,
};
pub use limits::{
    frees_up_in, CheckoutLimits, HeldBy, OrderHolder, PendingCapReached, PendingCaps,
};
pub use order::{
    Amounts, NewOrder, Order, OrderId, OrderLine, OrderPromo, Payment, PaymentProvider,
    ProviderEvent,
};
pub use reservation::{stock_problems, CartItem, Reservation};
pub use status::{Lifecycle, OrderStatus, TransitionError};
