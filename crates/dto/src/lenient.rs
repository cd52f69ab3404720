//! A JSON field read without failing its body, so that a handler reports every problem at once
//! in its own words (the 422 shape) instead of serde's first one.

use serde::de::{Deserialize, DeserializeOwned, Deserializer};

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
        let value = serde_json::Value::deserialize(deserializer)?;
        if value.is_null() {
            return Ok(Lenient::Absent);
        }
        Ok(T::deserialize(value).map_or(Lenient::Invalid, Lenient::Given))
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
}
