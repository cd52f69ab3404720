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

/** Price times quantity, exact to the cent. */
export function lineTotal(price: number, qty: number): number {
  return (toCents(price) * qty) / 100;
}

/** Sum of line totals, exact to the cent. */
export function sumLines(lines: ReadonlyArray<{ price: number; qty: number }>): number {
  return lines.reduce((cents, line) => cents + toCents(line.price) * line.qty, 0) / 100;
}

/**
 * The whole-dollar saving shown as "Save $X": the original price (`savings`) minus the price,
 * rounded. null when there is nothing to show (no original price, or no real saving).
 */
export function roundedSaving(price: number, savings: number | null): number | null {
  if (savings === null || savings === 0) return null;
  const saving = Math.round(savings - price);
  return saving > 0 ? saving : null;
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
): string {
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    moneyFormats.set(key, format);
  }
  return format.format(typeof amount === 'string' ? Number(amount) : amount);
}
