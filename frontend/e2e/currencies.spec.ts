import { expect, test, type APIRequestContext, type Page } from './fixtures';

import {
  expectNoHorizontalScroll,
  fetchProducts,
  fillDetails,
  linkDiscord,
  openCheckoutWith,
  payByCardOnDevPage,
  plainProduct,
  unlimitedProduct,
  required,
  saveScreenshot,
} from './helpers';

/**
 * Prices and payment in the shopper's currency (issue 36): the switcher on every page, the
 * `currency` cookie, the default from the browser's language and region; every price, the cart
 * and checkout in it; the order placed and paid in it (the server re-prices the cart from the
 * stored rate: a total it does not agree with would answer 409, not the payment page).
 */

type SiteCurrency = { code: string; rate: string; minor_units: number; rounding: string };

/** The shop's currencies once its first rates round has stored the sample's (the event, not the clock). */
async function offeredCurrencies(request: APIRequestContext): Promise<SiteCurrency[]> {
  let currencies: SiteCurrency[] = [];
  await expect
    .poll(
      async () => {
        const site = await request.get('/api/site').then((answer) => answer.json());
        currencies = site.currencies as SiteCurrency[];
        return currencies.map(({ code }) => code);
      },
      { message: 'the sample rates offered', intervals: [100] },
    )
    .toContain('BRL');
  return currencies;
}

/** A unit price of record in minor units of `currency` ("minor" rounding), half-up, exact. */
function unitMinor(price: number, currency: SiteCurrency): bigint {
  const [whole, decimals = ''] = currency.rate.split('.');
  const rate = BigInt(whole + decimals);
  const scale = 10n ** BigInt(decimals.length);
  const n = BigInt(Math.round(price * 100)) * rate * 10n ** BigInt(currency.minor_units);
  const d = 100n * scale;
  return (2n * n + d) / (2n * d);
}

/** "R$ 26,65" with Intl's no-break space as a plain one. */
const plain = (text: string | null) => (text ?? '').replace(/\u00a0|\u202f/g, ' ').trim();

const currencySwitcher = (page: Page, name = 'Currency') =>
  page.getByRole('banner').getByRole('combobox', { name });

test('a shopper picks reais: prices, cart and checkout in BRL, and the order is paid in BRL', async ({
  page,
  request,
}, testInfo) => {
  test.slow();
  const currencies = await offeredCurrencies(request);
  const brl = required(
    currencies.find(({ code }) => code === 'BRL'),
    'BRL in the sample rates',
  );
  expect(brl.rounding, 'the test computes minor rounding').toBe('minor');
  // of unlimited stock: the two bought here leave the others' stock as it was
  const product = unlimitedProduct(await fetchProducts(request));
  const unit = unitMinor(product.price, brl);
  const reais = (minor: bigint) =>
    `R$${(Number(minor) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

  await page.goto(`/product/${product.id}`);
  // an English browser in the United States sees dollars until it picks another currency
  await expect(currencySwitcher(page)).toHaveValue('USD');
  await currencySwitcher(page).selectOption('BRL');
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'currency')?.value).toBe('BRL');
  await expect(page.locator('main').getByText(reais(unit), { exact: true }).first()).toBeVisible();

  await openCheckoutWith(page, request, [[product.id, 2]]);
  await expect(currencySwitcher(page)).toHaveValue('BRL');
  // each unit converted first, then times two: what the server will charge
  await expect(page.getByTestId('checkout-subtotal')).toHaveText(reais(unit * 2n));
  const total = plain(await page.getByTestId('checkout-total').textContent());
  expect(total).toMatch(/^R\$\d[\d,]*\.\d\d$/);
  await linkDiscord(page);
  await fillDetails(page);
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'currency-checkout-brl-1280', { fullPage: false });

  // no 409: the browser's total in reais is the server's
  const orderId = await payByCardOnDevPage(page);
  // the payment page charges reais, as Stripe's would for a session in BRL
  await expect(page.locator('[data-charged]')).toHaveText(
    `BRL ${total.slice(2).replace(/,/g, '')} (${brl.rate} per $1)`,
  );
  // this browser's session placed it
  const order = await page.request.get(`/api/orders/${orderId}`).then((answer) => answer.json());
  expect(order.currency).toBe('BRL');
  expect(order.rate).toBe(brl.rate);
  expect(reais(BigInt(Math.round(order.amount_paid * 100)))).toBe(total);
  expect(order.items[0].unit_price_paid).toBe(Number(unit) / 100);
});

test.describe('a Brazilian browser', () => {
  test.use({ locale: 'pt-BR' });

  for (const width of [375, 1280]) {
    test(`sees reais by default and keeps another choice (${width} px)`, async ({
      page,
      request,
    }, testInfo) => {
      await offeredCurrencies(request);
      await page.setViewportSize({ width, height: 900 });
      const product = plainProduct(await fetchProducts(request));
      await page.goto(`/product/${product.id}`);
      const switcher = currencySwitcher(page, 'Moeda');
      await expect(switcher).toHaveValue('BRL');
      const price = page.locator('main .product-price__current').first();
      await expect(price).toHaveText(/^R\$\s\d+,\d\d$/);
      await expectNoHorizontalScroll(page);
      await saveScreenshot(page, testInfo, `currency-product-pt-BR-${width}`, { fullPage: false });

      await switcher.selectOption('EUR');
      // Portuguese writes euros sign first: "€ 4,67"
      await expect(price).toHaveText(/^€\s\d+,\d\d$/);
      await page.reload();
      await expect(currencySwitcher(page, 'Moeda')).toHaveValue('EUR');
      await expect(page.locator('main .product-price__current').first()).toHaveText(
        /^€\s\d+,\d\d$/,
      );
    });
  }
});
