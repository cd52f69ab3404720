import { useTranslation } from 'react-i18next';
import { create } from 'zustand';

import { CURRENCY_COOKIE, LANGUAGE_CURRENCIES, REGION_CURRENCIES } from '@/config/currencies';
import { readCookie, rememberChoice } from '@/lib/cookies';
import type { Currency } from '@/lib/currency';

/**
 * The currency prices are shown and paid in (issue 36): the shopper's choice (the `currency`
 * cookie, set by the navbar's switcher), else their region's when the shop offers it, else the
 * base currency. Only currencies `GET /api/site` offers now count: a choice the shop withdrew
 * (stale rates) falls back like no choice.
 */

/** The base currency before `/api/site` answers, and for a site that names no currencies. */
const BASE_UNTIL_KNOWN: Currency = { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' };

type Choice = { chosen: string | undefined; offered: readonly Currency[] };

/** The shopper's choice (from the cookie) and what the shop offers now. */
export const useCurrencyChoice = create<Choice>(() => ({
  chosen: typeof document === 'undefined' ? undefined : readCookie(CURRENCY_COOKIE),
  offered: [],
}));

/** Shows every price in `code` from now on, and keeps the choice for a year. */
export function chooseCurrency(code: string): void {
  rememberChoice(CURRENCY_COOKIE, code);
  useCurrencyChoice.setState({ chosen: code });
}

/** The currencies `GET /api/site` offers now (the app passes them on as they arrive). */
export function offerCurrencies(offered: readonly Currency[]): void {
  useCurrencyChoice.setState({ offered });
}

/** The currency a region or language pays in, from the most telling tag first. */
function regionalCode(tags: readonly string[]): string | undefined {
  for (const tag of tags) {
    const region = /^[a-z]{2,3}[-_]([a-z]{2})\b/i.exec(tag)?.[1]?.toUpperCase();
    if (region && REGION_CURRENCIES[region]) return REGION_CURRENCIES[region];
  }
  for (const tag of tags) {
    const language = tag.split(/[-_]/)[0]?.toLowerCase() ?? '';
    if (LANGUAGE_CURRENCIES[language]) return LANGUAGE_CURRENCIES[language];
  }
  return undefined;
}

/**
 * The currency to show among `offered` (base first): `choice` when offered, else the one of
 * the language shown and the browser's languages (in that order) when offered, else the base.
 */
export function resolveCurrency(
  offered: readonly Currency[],
  choice: string | undefined,
  tags: readonly string[],
): Currency {
  const find = (code: string | undefined) =>
    code === undefined ? undefined : offered.find((currency) => currency.code === code);
  return find(choice) ?? find(regionalCode(tags)) ?? offered[0] ?? BASE_UNTIL_KNOWN;
}

function languageTags(language: string | undefined): string[] {
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? []);
  return language ? [language, ...browser] : [...browser];
}

/** The currency prices are shown in, and the ones the shopper may pick; re-renders on a change. */
export function useCurrency(): { currency: Currency; offered: readonly Currency[] } {
  const chosen = useCurrencyChoice((choice) => choice.chosen);
  const offered = useCurrencyChoice((choice) => choice.offered);
  const { i18n } = useTranslation();
  return {
    currency: resolveCurrency(offered, chosen, languageTags(i18n.resolvedLanguage)),
    offered,
  };
}
