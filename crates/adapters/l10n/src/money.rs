//! Money written the way a language writes it: the currency's symbol where the language puts
//! it ("$57.43", "R$ 57,43", "57,43 €"), its separators, and the currency's decimals (none for
//! a zero-decimal currency). The words come from CLDR through ICU4X's currency formatter, not
//! from code here; the symbol is the one the language uses for that currency (Portuguese
//! writes US dollars "US$", English writes reais "R$").

use fixed_decimal::Decimal as FixedDecimal;
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_experimental::dimension::currency::options::CurrencyFormatterOptions;
use icu_experimental::dimension::currency::CurrencyType;
use shared::Language;

/// `minor` minor units of the currency `code` (ISO 4217, "BRL"), which has `minor_units`
/// decimals, as `language` writes an amount of it. A code ICU does not know (or any failure of
/// its data, logged as a bug) is written as the code and the plain amount: "XYZ 57.43".
pub fn money(language: Language, code: &str, minor: i64, minor_units: u32) -> String {
    let amount = plain_amount(minor, minor_units);
    let formatted = CurrencyType::try_from_str(code)
        .ok()
        .zip(amount.parse::<FixedDecimal>().ok())
        .and_then(|(currency, value)| {
            let preferences = (&locale(language)).into();
            CurrencyFormatter::try_new_symbol(
                preferences,
                currency,
                CurrencyFormatterOptions::default(),
            )
            .ok()
            .map(|formatter| formatter.format_fixed_decimal(&value).to_string())
        });
    formatted.unwrap_or_else(|| {
        tracing::error!(code, %language, "no way to write money in this currency");
        format!("{code} {amount}")
    })
}

/// The language as ICU4X names it (for its formatters).
fn locale(language: Language) -> icu_locale_core::Locale {
    language
        .code()
        .parse()
        .unwrap_or(icu_locale_core::Locale::UNKNOWN)
}

/// The amount in major units with `minor_units` decimals, as a decimal string: "-57.43".
fn plain_amount(minor: i64, minor_units: u32) -> String {
    let magnitude = i128::from(minor).unsigned_abs();
    let sign = if minor < 0 { "-" } else { "" };
    let Some(scale) = 10u128.checked_pow(minor_units).filter(|_| minor_units > 0) else {
        return format!("{sign}{magnitude}");
    };
    let width = usize::try_from(minor_units).unwrap_or(usize::MAX);
    format!("{sign}{}.{:0width$}", magnitude / scale, magnitude % scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ICU writes the space between a symbol and the number as a no-break space (U+00A0) and
    /// French groups thousands with a narrow no-break space (U+202F).
    #[test]
    fn each_language_writes_money_its_own_way() {
        let cases = [
            (Language::English, "USD", 5743, 2, "$57.43"),
            (Language::English, "BRL", 5743, 2, "R$57.43"),
            (
                Language::BrazilianPortuguese,
                "BRL",
                5743,
                2,
                "R$\u{a0}57,43",
            ),
            (
                Language::BrazilianPortuguese,
                "USD",
                1075,
                2,
                "US$\u{a0}10,75",
            ),
            (Language::German, "EUR", 5743, 2, "57,43\u{a0}€"),
            (Language::German, "USD", 5743, 2, "57,43\u{a0}$"),
            (
                Language::French,
                "EUR",
                123_456,
                2,
                "1\u{202f}234,56\u{a0}€",
            ),
            (Language::Spanish, "MXN", 5743, 2, "57,43\u{a0}MX$"),
            (Language::English, "JPY", 1234, 0, "¥1,234"),
            (Language::English, "USD", -240, 2, "-$2.40"),
            (Language::English, "USD", 5, 2, "$0.05"),
        ];
        for (language, code, minor, units, expected) in cases {
            assert_eq!(
                money(language, code, minor, units),
                expected,
                "{language} {code} {minor}"
            );
        }
    }

    #[test]
    fn a_code_icu_cannot_read_is_written_as_the_code_and_the_amount() {
        assert_eq!(money(Language::English, "12", 5743, 2), "12 57.43");
    }

    #[test]
    fn the_plain_amount_keeps_the_currency_s_decimals() {
        assert_eq!(plain_amount(5743, 2), "57.43");
        assert_eq!(plain_amount(-5, 2), "-0.05");
        assert_eq!(plain_amount(1234, 0), "1234");
        assert_eq!(plain_amount(1, 3), "0.001");
        assert_eq!(plain_amount(i64::MIN, 2), "-92233720368547758.08");
    }
}
