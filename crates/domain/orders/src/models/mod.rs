mod buyer;
mod order;
mod reservation;
mod status;

pub use buyer::{Buyer, Email, InvalidEmail};
pub use order::{
    Amounts, NewOrder, Order, OrderId, OrderLine, OrderPromo, Payment, PaymentProvider,
    ProviderEvent,
};
pub use reservation::{stock_problems, CartItem, Reservation};
pub use status::{Lifecycle, OrderStatus, TransitionError};
