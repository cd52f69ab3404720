/** The cookie the currency switcher keeps the shopper's choice in (issue 36). */
export const CURRENCY_COOKIE = 'currency';

const EURO_AREA = 'AT BE CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK';

/**
 * The currency a region pays in, for the currencies the shop may offer (`currency.offered`):
 * a shopper who has not chosen one sees prices in their region's currency when it is offered.
 * A region missing here, or whose currency is not offered, sees the base currency.
 */
export const REGION_CURRENCIES: Readonly<Record<string, string>> = {
  US: 'USD',
  BR: 'BRL',
  MX: 'MXN',
  GB: 'GBP',
  CA: 'CAD',
  AU: 'AUD',
  PL: 'PLN',
  PH: 'PHP',
  ...Object.fromEntries(EURO_AREA.split(' ').map((region) => [region, 'EUR'])),
};

/**
 * A language whose tag names no region, and whose speakers mostly pay in one currency: German
 * and French readers in the euro area, Portuguese (Brazil's variant is the shop's), Polish,
 * Filipino. Spanish is left out: its speakers pay in euros, pesos and more.
 */
export const LANGUAGE_CURRENCIES: Readonly<Record<string, string>> = {
  de: 'EUR',
  fr: 'EUR',
  pt: 'BRL',
  pl: 'PLN',
  fil: 'PHP',
  tl: 'PHP',
};
