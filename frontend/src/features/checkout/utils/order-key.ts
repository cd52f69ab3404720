import type { TFunction } from 'i18next';

/**
 * The key of an order's link, kept for this tab only (sessionStorage) between the checkout's
 * answer and /success, so /success can link the order's page. Never in localStorage: the key
 * opens the order to whoever holds it.
 */
const storageKey = (orderId: number) => `order-key:${orderId}`;

export function rememberOrderKey(orderId: number, key: string): void {
  try {
    sessionStorage.setItem(storageKey(orderId), key);
  } catch {
    // storage refused (private mode): /success links the page without the key, which this
    // browser's session still opens
  }
}

export function rememberedOrderKey(orderId: number): string | null {
  try {
    return sessionStorage.getItem(storageKey(orderId));
  } catch {
    return null;
  }
}

/** "3 orders before yours", from the 1-based place in the delivery queue, in `t`'s language. */
export function queueText(t: TFunction<'pages'>, position: number): string {
  const before = Math.max(0, position - 1);
  if (before === 0) return t('timeline.next');
  return t('timeline.before', { count: before });
}
