import { useTranslation } from 'react-i18next';

import { Switcher } from '@/app/layout/switcher';
import { chooseCurrency, useCurrency } from '@/lib/currency-choice';
import { currentLanguage } from '@/lib/i18n/format';

/** "BRL (R$)": the code, and the sign the shopper's language writes for it. */
function optionLabel(code: string, locale: string): string {
  const sign = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: code,
    currencyDisplay: 'narrowSymbol',
  })
    .formatToParts(0)
    .find((part) => part.type === 'currency')?.value;
  return sign && sign !== code ? `${code} (${sign})` : code;
}

/**
 * The currency every price is shown and paid in, on every page (issue 36): the choice is kept
 * in the `currency` cookie and every price re-renders in it at once. Shown only when the shop
 * offers more than its base currency (rates known and fresh).
 */
export function CurrencySwitcher() {
  const { t } = useTranslation();
  const { currency, offered } = useCurrency();
  if (offered.length < 2) return null;
  const locale = currentLanguage();
  return (
    <Switcher
      label={t('nav.currency')}
      code={currency.code}
      value={currency.code}
      options={offered.map(({ code }) => ({ value: code, name: optionLabel(code, locale) }))}
      onChange={chooseCurrency}
    />
  );
}
