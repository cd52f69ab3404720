//! The product form as the admin sends it (every value text, as typed), parsed into the values
//! a product is made of. Every field is checked; all problems are reported at once.

use std::collections::BTreeSet;
use std::fmt;

use cart_pricing::{Money, MoneyError};
use chrono::{DateTime, Utc};

use crate::{ProductId, Stock, MAX_PER_ACCOUNT};

/// Longest name, category and mutation (the columns' size).
pub const MAX_SHORT_TEXT: usize = 200;
/// Longest description.
pub const MAX_DESCRIPTION: usize = 5_000;
/// Largest stock the form accepts.
pub const MAX_STOCK: u32 = 1_000_000;
/// Heaviest weight the form accepts, in kilograms.
pub const MAX_WEIGHT: f64 = 1_000_000.0;

/// One problem with one field of the form, in words for the admin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The form's field name (`name`, `price`, `related_ids`, `image`...).
    pub field: &'static str,
    pub message: String,
}

impl FieldError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        FieldError {
            field,
            message: message.into(),
        }
    }
}

/// Every problem found with a product write; never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidProduct(pub Vec<FieldError>);

impl fmt::Display for InvalidProduct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.first() {
            Some(first) => f.write_str(&first.message),
            None => f.write_str("The product is not valid."),
        }
    }
}

/// The form's values as sent; `None` for a field that was not sent at all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductForm {
    pub name: Option<String>,
    pub price: Option<String>,
    pub category: Option<String>,
    pub description: Option<String>,
    /// Empty: unlimited.
    pub stock: Option<String>,
    pub weight: Option<String>,
    pub sort_order: Option<String>,
    pub mutation: Option<String>,
    pub savings: Option<String>,
    /// `1`/`0` (also `true`/`false`, `on`/`off`).
    pub delete_after_out_of_stock: Option<String>,
    pub dupe_warning: Option<String>,
    /// One value per bundled product; empty values are ignored.
    pub related_ids: Vec<String>,
    /// RFC 3339 with an offset (`2026-11-27T03:00:00Z`); empty: no release time. Not sent: an
    /// update keeps the product's.
    pub release_at: Option<String>,
    /// 1 to 20; empty: no cap. Not sent: an update keeps the product's.
    pub max_per_account: Option<String>,
}

/// A value an update may leave as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change<T> {
    /// Not sent: the product keeps its value (a new product gets none).
    Keep,
    Set(T),
}

impl<T> Change<T> {
    /// The value after the change, from the value before it.
    pub fn applied_to(self, current: T) -> T {
        match self {
            Change::Keep => current,
            Change::Set(value) => value,
        }
    }
}

/// A product's values after parsing: everything but the image and the id.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductFields {
    pub name: String,
    pub description: String,
    pub price: Money,
    pub category: String,
    pub stock: Stock,
    pub weight: Option<f64>,
    pub mutation: Option<String>,
    pub savings: Option<Money>,
    pub sort_order: Option<i32>,
    pub delete_after_out_of_stock: bool,
    pub related_ids: Vec<ProductId>,
    pub dupe_warning: bool,
    pub release_at: Change<Option<DateTime<Utc>>>,
    pub max_per_account: Change<Option<u32>>,
}

fn trimmed(value: &Option<String>) -> &str {
    value.as_deref().map(str::trim).unwrap_or("")
}

fn money_message(label: &str, error: MoneyError) -> String {
    match error {
        MoneyError::TooPrecise => format!("The {label} may have at most two decimals."),
        MoneyError::TooLarge => format!("The {label} is too large."),
        MoneyError::Negative | MoneyError::NotANumber => {
            format!("The {label} must be a number of 0 or more, e.g. 4.99.")
        }
    }
}

struct Parser {
    errors: Vec<FieldError>,
}

impl Parser {
    fn fail(&mut self, field: &'static str, message: impl Into<String>) {
        self.errors.push(FieldError::new(field, message));
    }

    fn required_text(&mut self, field: &'static str, value: &Option<String>) -> String {
        let text = trimmed(value);
        if text.is_empty() {
            self.fail(field, format!("The {field} field is required."));
        }
        self.optional_text(field, value, MAX_SHORT_TEXT)
            .unwrap_or_default()
    }

    fn optional_text(
        &mut self,
        field: &'static str,
        value: &Option<String>,
        max: usize,
    ) -> Option<String> {
        let text = trimmed(value);
        if text.chars().count() > max {
            self.fail(
                field,
                format!("The {field} may be at most {max} characters."),
            );
        }
        (!text.is_empty()).then(|| text.to_owned())
    }

    /// A value that may be left empty, parsed; `parse` says what is wrong with one.
    fn optional<T>(
        &mut self,
        field: &'static str,
        value: &Option<String>,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Option<T> {
        match trimmed(value) {
            "" => None,
            text => parse(text)
                .map_err(|message| self.fail(field, message))
                .ok(),
        }
    }

    /// A value an update keeps when it is not sent, and clears when it is sent empty.
    fn change<T>(
        &mut self,
        field: &'static str,
        value: &Option<String>,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Change<Option<T>> {
        match value {
            None => Change::Keep,
            Some(_) => Change::Set(self.optional(field, value, parse)),
        }
    }

    /// The bundled products' ids, each once; empty values are ignored.
    fn related_ids(&mut self, values: &[String]) -> Vec<ProductId> {
        let mut seen = BTreeSet::new();
        let mut ids = Vec::new();
        for raw in values
            .iter()
            .map(|raw| raw.trim())
            .filter(|raw| !raw.is_empty())
        {
            match raw.parse::<i64>() {
                Ok(id) if id > 0 && seen.insert(id) => ids.push(ProductId::new(id)),
                Ok(id) if id > 0 => self.fail(
                    "related_ids",
                    format!("Product {id} is listed more than once."),
                ),
                _ => self.fail("related_ids", format!("\"{raw}\" is not a product id.")),
            }
        }
        ids
    }

    fn flag(&mut self, field: &'static str, label: &str, value: &Option<String>) -> bool {
        match trimmed(value).to_ascii_lowercase().as_str() {
            "" | "0" | "false" | "off" | "no" => false,
            "1" | "true" | "on" | "yes" => true,
            _ => {
                self.fail(field, format!("The {label} flag must be 1 or 0."));
                false
            }
        }
    }
}

impl ProductForm {
    /// The product's values, or every problem with them.
    pub fn parse(&self) -> Result<ProductFields, InvalidProduct> {
        let mut p = Parser { errors: vec![] };
        let name = p.required_text("name", &self.name);
        let category = p.required_text("category", &self.category);
        let description = p.optional_text("description", &self.description, MAX_DESCRIPTION);
        let mutation = p.optional_text("mutation", &self.mutation, MAX_SHORT_TEXT);
        let price = p.optional("price", &self.price, |text| {
            Money::parse(text).map_err(|e| money_message("price", e))
        });
        if trimmed(&self.price).is_empty() {
            p.fail("price", "The price field is required.");
        }
        let savings = p.optional("savings", &self.savings, |text| {
            Money::parse(text).map_err(|e| money_message("original price", e))
        });
        let stock = p.optional("stock", &self.stock, |text| match text.parse::<u32>() {
            Ok(n) if n <= MAX_STOCK => Ok(Stock::Finite(n)),
            Ok(_) => Err(format!("The stock may be at most {MAX_STOCK}.")),
            Err(_) => {
                Err("The stock must be a whole number of 0 or more (empty = unlimited).".into())
            }
        });
        let weight = p.optional("weight", &self.weight, |text| {
            text.parse::<f64>()
                .ok()
                .filter(|w| w.is_finite() && (0.0..=MAX_WEIGHT).contains(w))
                .ok_or_else(|| {
                    "The weight must be a number of kilograms of 0 or more, e.g. 2.5.".into()
                })
        });
        let sort_order = p.optional("sort_order", &self.sort_order, |text| {
            text.parse::<i32>()
                .map_err(|_| "The position must be a whole number.".into())
        });
        let delete_after_out_of_stock = p.flag(
            "delete_after_out_of_stock",
            "delete after out of stock",
            &self.delete_after_out_of_stock,
        );
        let dupe_warning = p.flag("dupe_warning", "dupe warning", &self.dupe_warning);
        let release_at = p.change("release_at", &self.release_at, |text| {
            DateTime::parse_from_rfc3339(text)
                .map(|at| at.with_timezone(&Utc))
                .map_err(|_| {
                    "The release time must be a date and time with its zone, e.g. \
                     2026-12-01T18:00:00Z (empty = on sale at once)."
                        .into()
                })
        });
        let max_per_account = p.change("max_per_account", &self.max_per_account, |text| {
            text.parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_PER_ACCOUNT).contains(n))
                .ok_or_else(|| {
                    format!(
                        "The limit per account must be a whole number from 1 to \
                         {MAX_PER_ACCOUNT} (empty = no limit)."
                    )
                })
        });
        let related_ids = p.related_ids(&self.related_ids);
        match (price, p.errors.is_empty()) {
            (Some(price), true) => Ok(ProductFields {
                name,
                description: description.unwrap_or_default(),
                price,
                category,
                stock: stock.unwrap_or(Stock::Unlimited),
                weight,
                mutation,
                savings,
                sort_order,
                delete_after_out_of_stock,
                related_ids,
                dupe_warning,
                release_at,
                max_per_account,
            }),
            _ => Err(InvalidProduct(p.errors)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> ProductForm {
        ProductForm {
            name: Some(" Owl ".into()),
            price: Some("4.99".into()),
            category: Some("Pets".into()),
            description: Some("A wise bird".into()),
            stock: Some("".into()),
            weight: Some("".into()),
            sort_order: Some("".into()),
            mutation: Some("".into()),
            savings: Some("".into()),
            delete_after_out_of_stock: Some("0".into()),
            dupe_warning: Some("1".into()),
            related_ids: vec![],
            release_at: None,
            max_per_account: None,
        }
    }

    #[test]
    fn a_release_time_and_a_cap_parse_and_empty_clears_them() {
        let fields = ProductForm {
            release_at: Some("2026-12-01T19:00:00+01:00".into()),
            max_per_account: Some(" 3 ".into()),
            ..form()
        }
        .parse()
        .unwrap();
        assert_eq!(
            fields.release_at,
            Change::Set(Some(
                DateTime::parse_from_rfc3339("2026-12-01T18:00:00Z")
                    .unwrap()
                    .with_timezone(&Utc)
            ))
        );
        assert_eq!(fields.max_per_account, Change::Set(Some(3)));
        let cleared = ProductForm {
            release_at: Some("".into()),
            max_per_account: Some("".into()),
            ..form()
        }
        .parse()
        .unwrap();
        assert_eq!(cleared.release_at, Change::Set(None));
        assert_eq!(cleared.max_per_account, Change::Set(None));
        let kept = form().parse().unwrap();
        assert_eq!(kept.release_at, Change::Keep);
        assert_eq!(kept.max_per_account, Change::Keep);
    }

    #[test]
    fn a_bad_release_time_or_cap_is_reported_on_its_field() {
        for (release, cap) in [("tomorrow", "0"), ("2026-12-01 18:00", "21"), ("", "two")] {
            let error = ProductForm {
                release_at: Some(release.into()),
                max_per_account: Some(cap.into()),
                ..form()
            }
            .parse()
            .unwrap_err();
            let fields = fields_of(error);
            assert!(fields.contains(&"max_per_account"), "{cap}");
            assert_eq!(
                fields.contains(&"release_at"),
                !release.is_empty(),
                "{release}"
            );
        }
    }

    fn fields_of(error: InvalidProduct) -> Vec<&'static str> {
        error.0.iter().map(|e| e.field).collect()
    }

    #[test]
    fn a_filled_form_parses_with_empty_meaning_none_and_unlimited() {
        let fields = form().parse().unwrap();
        assert_eq!(fields.name, "Owl");
        assert_eq!(fields.price.cents(), 499);
        assert_eq!(fields.stock, Stock::Unlimited);
        assert_eq!(fields.weight, None);
        assert_eq!(fields.mutation, None);
        assert_eq!(fields.savings, None);
        assert_eq!(fields.sort_order, None);
        assert!(fields.dupe_warning);
        assert!(!fields.delete_after_out_of_stock);
    }

    #[test]
    fn numbers_and_related_ids_parse() {
        let fields = ProductForm {
            stock: Some("12".into()),
            weight: Some("2.5".into()),
            sort_order: Some("-3".into()),
            savings: Some("9.99".into()),
            mutation: Some("Shiny".into()),
            related_ids: vec!["4".into(), "".into(), " 7 ".into()],
            ..form()
        }
        .parse()
        .unwrap();
        assert_eq!(fields.stock, Stock::Finite(12));
        assert_eq!(fields.weight, Some(2.5));
        assert_eq!(fields.sort_order, Some(-3));
        assert_eq!(fields.savings.unwrap().cents(), 999);
        assert_eq!(fields.mutation.as_deref(), Some("Shiny"));
        assert_eq!(
            fields.related_ids,
            vec![ProductId::new(4), ProductId::new(7)]
        );
    }

    #[test]
    fn every_bad_field_is_reported_at_once() {
        let error = ProductForm {
            name: Some("  ".into()),
            price: Some("abc".into()),
            category: None,
            stock: Some("-1".into()),
            weight: Some("heavy".into()),
            sort_order: Some("1.5".into()),
            savings: Some("1.999".into()),
            delete_after_out_of_stock: Some("maybe".into()),
            related_ids: vec!["x".into(), "3".into(), "3".into()],
            ..form()
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            fields_of(error.clone()),
            vec![
                "name",
                "category",
                "price",
                "savings",
                "stock",
                "weight",
                "sort_order",
                "delete_after_out_of_stock",
                "related_ids",
                "related_ids"
            ]
        );
        assert_eq!(error.to_string(), "The name field is required.");
    }

    #[test]
    fn a_missing_price_and_over_long_texts_are_refused() {
        let error = ProductForm {
            price: None,
            name: Some("x".repeat(201)),
            description: Some("y".repeat(5_001)),
            ..form()
        }
        .parse()
        .unwrap_err();
        let messages: Vec<String> = error.0.iter().map(|e| e.message.clone()).collect();
        assert!(messages.contains(&"The price field is required.".to_owned()));
        assert!(messages.contains(&"The name may be at most 200 characters.".to_owned()));
        assert!(messages.contains(&"The description may be at most 5000 characters.".to_owned()));
    }

    #[test]
    fn stock_has_an_upper_bound_and_weight_must_be_finite() {
        let error = ProductForm {
            stock: Some("1000001".into()),
            weight: Some("NaN".into()),
            ..form()
        }
        .parse()
        .unwrap_err();
        assert_eq!(fields_of(error), vec!["stock", "weight"]);
    }
}
