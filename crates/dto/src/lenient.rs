//! JSON read without failing the body, so that a handler reports every problem at once in its
//! own words (the 422 shape) instead of serde's first one.

use serde::de::{Deserialize, DeserializeOwned, Deserializer, Error, IntoDeserializer};
use serde_json::Value;

/// A field as the client sent it: left out or `null`, a `T`, or something else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Lenient<T> {
    /// Left out or `null` (a struct's field takes it with `#[serde(default)]`).
    #[default]
    Absent,
    Given(T),
    /// A value that is not a `T`: the handler names the field.
    Invalid,
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if value.is_null() {
            return Ok(Lenient::Absent);
        }
        Ok(T::deserialize(value).map_or(Lenient::Invalid, Lenient::Given))
    }
}

/// A word of a query string, read into the enum `T` by its wire name, trimmed: blank (or, with
/// `#[serde(default)]`, left out) is `Absent`, a name of `T` is `Given`, anything else `Invalid`,
/// which the handler answers in its own words.
pub fn word<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    deserializer: D,
) -> Result<Lenient<T>, D::Error> {
    let text = String::deserialize(deserializer)?;
    let text = text.trim();
    if text.is_empty() {
        return Ok(Lenient::Absent);
    }
    let word: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        text.into_deserializer();
    Ok(T::deserialize(word).map_or(Lenient::Invalid, Lenient::Given))
}

/// A field of a change (PATCH): left out, cleared, a `T`, or something else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Patch<T> {
    /// Left out: the field stays as it is (a struct's field takes it with `#[serde(default)]`).
    #[default]
    Missing,
    /// `null`, or a string of nothing but spaces.
    Cleared,
    Set(T),
    /// A value that is not a `T`: the handler names the field.
    Invalid,
}

impl<T> Patch<T> {
    /// `None` when the field was left out, so that a change reads only the fields it was given.
    pub fn given(self) -> Option<Self> {
        (!matches!(self, Patch::Missing)).then_some(self)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Patch<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if value.is_null() || value.as_str().is_some_and(|text| text.trim().is_empty()) {
            return Ok(Patch::Cleared);
        }
        Ok(T::deserialize(value).map_or(Patch::Invalid, Patch::Set))
    }
}

/// A body that is a JSON object of `T`'s fields, or `None` when it is anything else (an array,
/// a number...), which the handler answers in its own words.
#[derive(Debug)]
pub struct Object<T>(pub Option<T>);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if !value.is_object() {
            return Ok(Object(None));
        }
        T::deserialize(value)
            .map(|fields| Object(Some(fields)))
            .map_err(D::Error::custom)
    }
}

/// A whole number as a form sends it: a JSON number without a fraction, or digits in a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WholeNumber(pub i64);

impl<'de> Deserialize<'de> for WholeNumber {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        value
            .as_i64()
            .or_else(|| {
                value
                    .as_f64()
                    .filter(|f| f.fract() == 0.0)
                    .map(|f| f as i64)
            })
            .or_else(|| value.as_str().and_then(|text| text.trim().parse().ok()))
            .map(WholeNumber)
            .ok_or_else(|| D::Error::custom("not a whole number"))
    }
}

/// A count: a JSON number of 0 or more without a fraction part written, or digits in a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count(pub u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        value
            .as_u64()
            .or_else(|| value.as_str().and_then(|text| text.trim().parse().ok()))
            .map(Count)
            .ok_or_else(|| D::Error::custom("not a count"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Body {
        #[serde(default)]
        id: Lenient<i64>,
    }

    fn read(json: &str) -> Lenient<i64> {
        serde_json::from_str::<Body>(json).unwrap().id
    }

    #[test]
    fn left_out_null_a_value_and_anything_else_are_told_apart_without_failing_the_body() {
        assert_eq!(read("{}"), Lenient::Absent);
        assert_eq!(read(r#"{"id": null}"#), Lenient::Absent);
        assert_eq!(read(r#"{"id": 7}"#), Lenient::Given(7));
        for other in [r#""7""#, "7.5", "[7]", "{}", "true", "99999999999999999999"] {
            assert_eq!(
                read(&format!(r#"{{"id": {other}}}"#)),
                Lenient::Invalid,
                "{other}"
            );
        }
    }

    #[derive(Debug, serde::Deserialize)]
    struct Change {
        #[serde(default)]
        max: Patch<WholeNumber>,
        #[serde(default)]
        on: Patch<bool>,
    }

    #[test]
    fn a_change_tells_left_out_cleared_a_value_and_anything_else_apart() {
        let read = |json: &str| serde_json::from_str::<Change>(json).unwrap().max;
        assert_eq!(read("{}"), Patch::Missing);
        assert_eq!(read("{}").given(), None);
        for cleared in ["null", r#""""#, r#""  ""#] {
            assert_eq!(read(&format!(r#"{{"max": {cleared}}}"#)), Patch::Cleared);
        }
        for (given, number) in [("7", 7), ("7.0", 7), (r#"" 7 ""#, 7), ("-3", -3)] {
            let read = read(&format!(r#"{{"max": {given}}}"#));
            assert_eq!(read, Patch::Set(WholeNumber(number)), "{given}");
        }
        for other in ["7.5", r#""seven""#, "[7]", "{}", "true"] {
            assert_eq!(
                read(&format!(r#"{{"max": {other}}}"#)),
                Patch::Invalid,
                "{other}"
            );
        }
        let on = |json: &str| serde_json::from_str::<Change>(json).unwrap().on;
        assert_eq!(on(r#"{"on": false}"#), Patch::Set(false));
        assert_eq!(on(r#"{"on": "true"}"#), Patch::Invalid);
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Filter {
        Paid,
        AllOrders,
    }

    #[derive(serde::Deserialize)]
    struct Query {
        #[serde(default, deserialize_with = "word")]
        filter: Lenient<Filter>,
    }

    #[test]
    fn a_word_is_trimmed_blank_is_absent_and_an_unknown_one_is_told_apart() {
        let read = |json: &str| serde_json::from_str::<Query>(json).unwrap().filter;
        assert_eq!(read("{}"), Lenient::Absent);
        assert_eq!(read(r#"{"filter": "  "}"#), Lenient::Absent);
        assert_eq!(
            read(r#"{"filter": " paid "}"#),
            Lenient::Given(Filter::Paid)
        );
        assert_eq!(
            read(r#"{"filter": "all_orders"}"#),
            Lenient::Given(Filter::AllOrders)
        );
        for other in ["Paid", "pending", "paid,all_orders"] {
            assert_eq!(
                read(&format!(r#"{{"filter": "{other}"}}"#)),
                Lenient::Invalid
            );
        }
    }

    #[test]
    fn a_count_is_a_number_without_a_fraction_or_digits_in_a_string() {
        let read = |json: &str| serde_json::from_str::<Count>(json).ok();
        assert_eq!(read("12"), Some(Count(12)));
        assert_eq!(read(r#"" 12 ""#), Some(Count(12)));
        for other in ["-1", "1.5", "12.0", r#""x""#, r#""""#, "null", "[1]"] {
            assert_eq!(read(other), None, "{other}");
        }
    }

    #[test]
    fn a_body_that_is_not_an_object_is_told_apart_and_an_object_is_read() {
        let read = |json: &str| serde_json::from_str::<Object<Change>>(json).unwrap().0;
        for other in ["[]", "[7, true]", "7", r#""text""#, "null", "true"] {
            assert!(read(other).is_none(), "{other}");
        }
        let change = read(r#"{"max": 3, "on": true, "other": 1}"#).unwrap();
        assert_eq!(
            (change.max, change.on),
            (Patch::Set(WholeNumber(3)), Patch::Set(true))
        );
    }
}
