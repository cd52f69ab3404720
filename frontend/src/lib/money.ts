import { currentLanguage } from '@/lib/i18n/format';

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "$24.99" — always a dollar sign and two decimals. */
export function formatPrice(amount: number): string {
  return usd.format(toCents(amount) / 100);
}

/** Whole cents, so sums of prices do not drift (0.1 + 0.2). */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount in major units of `currency` (a number, or a decimal string as the API sends
 * `amount_paid`) written the way `locale` writes money: "R$ 57,43" in pt-BR, "57,43 €" in de,
 * "¥5,300" for a zero-decimal currency. The currency's own decimals (from `Intl`).
 */
export function formatMoney(
  amount: number | string,
  currency: string,
  locale: string = currentLanguage(),
  { whole = false }: { whole?: boolean } = {},
): string {
  const key = `${locale}|${currency}|${whole}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    });
    moneyFormats.set(key, format);
  }
  return format.format(typeof amount === 'string' ? Number(amount) : amount);
}
