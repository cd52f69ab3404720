import { readdirSync, readFileSync } from 'node:fs';

import { expect, test, type Page } from './fixtures';

import {
  expectNoHorizontalScroll,
  fetchProducts,
  fillDetails,
  linkDiscord,
  openCheckoutWith,
  payByCardOnDevPage,
  plainProduct,
  unlimitedProduct,
  saveScreenshot,
  shopUrl,
} from './helpers';

/**
 * The storefront in each language (issue 36): home, product, cart, checkout and the help chat,
 * then success and the order page of an order paid on the dev payment page, log in, register and
 * the terms, at 375 and 1280 px, show none of the English sentences whose translation differs,
 * fit the screen, and say the language in <html lang>. The language is chosen with the navbar's
 * switcher on the first page (the `lang` cookie keeps it), or set in that cookie before the
 * payment returns to /success. Screenshots of pt-BR and de at both widths in e2e-artifacts/.
 */

type Messages = { [key: string]: string | Messages };

function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [inner, text] of flatten(value, path)) flat.set(inner, text);
  }
  return flat;
}

/** Every message of a language: `translation`'s keys as they are, the others' as `ns:key`. */
function messagesOf(code: string): Map<string, string> {
  const folder = new URL(`../src/locales/${code}/`, import.meta.url);
  const all = new Map<string, string>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    const namespace = file.replace(/\.json$/, '');
    const messages = JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Messages;
    for (const [key, text] of flatten(messages)) {
      all.set(namespace === 'translation' ? key : `${namespace}:${key}`, text);
    }
  }
  return all;
}

const english = messagesOf('en');

/**
 * The English sentences a page in `code` must not show: of each message whose translation
 * differs, the fragments between its placeholders and tags of two words or more (a single word
 * such as "Total" may be a product's own).
 */
function englishSentences(code: string): string[] {
  const theirs = messagesOf(code);
  const fragments = new Set<string>();
  for (const [key, text] of english) {
    if (theirs.get(key) === text) continue;
    for (const part of text.split(/\{\{[^}]+\}\}|<\/?\w+\s*\/?>/)) {
      const fragment = part.replace(/^[\s\-:,.()]+|[\s:,.()]+$/g, '');
      if (fragment.split(/\s+/).length >= 2 && fragment.length >= 8) fragments.add(fragment);
    }
  }
  return [...fragments];
}

/**
 * What a shopper sees or hears on the page: its text and the names given in attributes; less
 * the help chat's messages, which the server writes (the assistant's greeting and answers).
 */
async function pageWords(page: Page): Promise<string> {
  return page.evaluate(() => {
    const fromServer = Array.from(
      document.querySelectorAll<HTMLElement>('[role="log"] .message__text'),
    );
    fromServer.forEach((element) => (element.style.display = 'none'));
    const text = document.body.innerText;
    fromServer.forEach((element) => (element.style.display = ''));
    const attributes = Array.from(
      document.querySelectorAll('[aria-label], [placeholder], [title], img[alt]'),
    ).flatMap((element) =>
      ['aria-label', 'placeholder', 'title', 'alt'].map((name) => element.getAttribute(name) ?? ''),
    );
    return [document.title, text, ...attributes].join('\n');
  });
}

async function expectNoEnglish(page: Page, code: string, where: string): Promise<void> {
  const words = await pageWords(page);
  const english = englishSentences(code).filter((sentence) => words.includes(sentence));
  expect(english, `English on the ${where} page in ${code}`).toEqual([]);
  // what sticks out past the right edge, named in the failure (long words: German, Portuguese)
  const sticking = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .filter((element) => {
        for (let up = element.parentElement; up; up = up.parentElement) {
          const style = getComputedStyle(up);
          if (style.position === 'fixed' || style.overflowX !== 'visible') return false;
        }
        return getComputedStyle(element).position !== 'fixed';
      })
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className}: ${element.innerText?.slice(0, 40)}`,
      ),
  );
  await expectNoHorizontalScroll(page).catch((error: unknown) => {
    throw new Error(`${String(error)}\nSticking out: ${sticking.join(' | ')}`);
  });
  await expect(page.locator('html')).toHaveAttribute('lang', code);
}

const LANGUAGES = ['es', 'pt-BR', 'fr', 'de'] as const;
const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];
const SHOTS: readonly string[] = ['pt-BR', 'de'];

for (const code of LANGUAGES) {
  const words = messagesOf(code);
  const t = (key: string) => words.get(key) ?? key;

  for (const viewport of VIEWPORTS) {
    test(`the storefront in ${code} at ${viewport.width} px`, async ({
      page,
      request,
    }, testInfo) => {
      test.slow(); // five pages and their screenshots
      await page.setViewportSize(viewport);
      const shot = async (name: string, fullPage = true) => {
        if (SHOTS.includes(code)) {
          await saveScreenshot(page, testInfo, `lang-${code}-${name}-${viewport.width}`, {
            fullPage,
          });
        }
      };
      const plain = plainProduct(await fetchProducts(request));

      await page.goto('/');
      await page.getByRole('combobox', { name: 'Language' }).selectOption(code);
      await expect(page.getByRole('heading', { level: 1, name: t('home.title') })).toBeVisible();
      const cookies = await page.context().cookies();
      expect(cookies.find((cookie) => cookie.name === 'lang')?.value).toBe(code);
      await expect(page.getByRole('list', { name: t('home.products') })).toBeVisible();
      await expectNoEnglish(page, code, 'home');
      await shot('home');

      await page.goto(`/product/${plain.id}`);
      await expect(page.getByRole('heading', { level: 1, name: plain.name })).toBeVisible();
      await expectNoEnglish(page, code, 'product');
      await shot('product');

      await page.getByRole('button', { name: t('product.addToCart'), exact: true }).click();
      const drawer = page.getByRole('dialog', { name: t('cart.title') });
      await expect(drawer).toBeVisible();
      await expectNoEnglish(page, code, 'cart');
      await shot('cart', false);

      await drawer.getByRole('button', { name: t('cart.checkout') }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: t('checkout.title') }),
      ).toBeVisible();
      await page.getByRole('button', { name: t('checkout.completePayment') }).click();
      await expect(page.getByText(t('checkout.required.email'))).toBeVisible();
      await expectNoEnglish(page, code, 'checkout');
      await shot('checkout');

      // the help chat's button steps aside on the checkout page: ask from the home page
      await page.goto('/');
      await page.getByRole('button', { name: t('chat.launcher') }).click();
      const chat = page.getByRole('dialog', { name: t('chat.title') });
      await expect(chat.getByRole('textbox', { name: t('chat.message') })).toBeVisible();
      // the assistant's greeting (the server's words) is in
      await expect(chat.getByRole('log').locator('.message__text').first()).toBeVisible();
      await expectNoEnglish(page, code, 'help chat');
      await shot('chat', false);
    });
  }
}

/** An order of one `productId`, paid on the dev payment page; returns on /success in `code`. */
async function payAnOrder(
  page: Page,
  request: Parameters<typeof openCheckoutWith>[1],
  productId: number,
  code: string,
): Promise<number> {
  // the checkout in English (its helpers' words), the way back from the payment in `code`
  await openCheckoutWith(page, request, [[productId, 1]]);
  await linkDiscord(page);
  await fillDetails(page, 'LinguaFan_7');
  const orderId = await payByCardOnDevPage(page);
  await page.context().addCookies([{ name: 'lang', value: code, url: shopUrl() }]);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));
  return orderId;
}

for (const code of LANGUAGES) {
  const words = messagesOf(code);
  const t = (key: string) => words.get(key) ?? key;
  const orderTitle = (id: number) => t('pages:order.title').replace('{{id}}', String(id));

  for (const viewport of VIEWPORTS) {
    test(`the order, accounts and the terms in ${code} at ${viewport.width} px`, async ({
      page,
      request,
    }, testInfo) => {
      test.slow(); // a checkout, five pages and their screenshots
      await page.setViewportSize(viewport);
      const shot = async (name: string) => {
        if (SHOTS.includes(code)) {
          await saveScreenshot(page, testInfo, `lang-${code}-${name}-${viewport.width}`);
        }
      };
      // of unlimited stock: eight orders here leave the others' stock as it was
      const plain = unlimitedProduct(await fetchProducts(request));
      const orderId = await payAnOrder(page, request, plain.id, code);

      await expect(
        page.getByRole('heading', { level: 1, name: t('pages:success.title') }),
      ).toBeVisible();
      await expect(
        page.getByRole('heading', { level: 2, name: orderTitle(orderId) }),
      ).toBeVisible();
      await expect(page.getByTestId('order-page-status')).toHaveText(t('pages:order.status.paid'));
      await expectNoEnglish(page, code, 'success');
      await shot('success');

      await page.getByRole('link', { name: t('pages:success.followOrder') }).click();
      await expect(page).toHaveURL(new RegExp(`/orders/${orderId}\\?key=[0-9a-f]{32}$`));
      await expect(
        page.getByRole('heading', { level: 1, name: orderTitle(orderId) }),
      ).toBeVisible();
      await expect(page.getByTestId('queue-position')).toBeVisible();
      await expect(page.getByRole('list', { name: t('pages:timeline.label') })).toBeVisible();
      await expect(page.getByTestId('order-amount-paid')).toBeVisible();
      await expectNoEnglish(page, code, 'order');
      await shot('order');

      await page.goto('/login');
      await expect(
        page.getByRole('heading', { level: 1, name: t('pages:auth.login.title') }),
      ).toBeVisible();
      await expectNoEnglish(page, code, 'login');
      await shot('login');

      await page
        .getByRole('main')
        .getByRole('link', { name: t('pages:auth.login.register') })
        .click();
      await expect(
        page.getByRole('heading', { level: 1, name: t('pages:auth.register.title') }),
      ).toBeVisible();
      await expectNoEnglish(page, code, 'register');
      await shot('register');

      await page.goto('/terms');
      await expect(
        page.getByRole('heading', { level: 1, name: t('info:terms.title') }),
      ).toBeVisible();
      await expect(page.getByRole('heading', { name: t('info:terms.changesTitle') })).toBeVisible();
      await expectNoEnglish(page, code, 'terms');
      await shot('terms');
    });
  }
}
