//! Promo codes and the rules for redeeming them.
