pub mod bundle_items;
pub mod products;
