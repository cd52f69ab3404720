import i18next from 'i18next';

import { currentLanguage, formatDuration } from '@/lib/i18n/format';

/**
 * Drops (issue 25): a product listed before it goes on sale at `release_at`. The server decides
 * when it is on sale (`released`), never this browser's clock: a countdown that reaches zero
 * waits for the server's `products` event to bring `released: true`.
 */

/** The fields a drop is told by (saved cart lines from before drops have none of them). */
type DropFields = { released?: boolean; release_at?: string | null };

/** A drop's cap of units per account (the server counts it per Discord account, shop account and browser). */
type CapFields = { name: string; max_per_account: number };

/**
 * The words for a drop's cap: on its own page and cart line "Limit 1 per account"; on a bundle
 * that holds it (`held`) "Holds Dragon: limit 1 per account".
 */
export function capLabel(drop: CapFields, { held = false }: { held?: boolean } = {}): string {
  return held
    ? i18next.t('drop.heldCap', { name: drop.name, count: drop.max_per_account })
    : i18next.t('drop.cap', { count: drop.max_per_account });
}

/** Listed but not yet on sale. */
export function isUpcomingDrop(product: DropFields): boolean {
  return product.released === false;
}

/** The whole seconds left until `releaseAt`, rounded up (0 once it is reached). */
export function secondsUntil(releaseAt: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(releaseAt) - now) / 1000));
}

const pad = (value: number) => String(value).padStart(2, '0');

/** "4:59" under an hour, "2:04:59" under a day, then "3 days" or "1 day 5 hours" (in the shop's language). */
export function countdownLabel(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) {
    return formatDuration([
      { unit: 'day', value: days },
      { unit: 'hour', value: hours },
    ]);
  }
  if (hours > 0) return `${hours}:${pad(minutes)}:${pad(rest)}`;
  return `${minutes}:${pad(rest)}`;
}

type ZoneOptions = {
  /** The shop's language by default. */
  locale?: string;
  /** The reader's by default. */
  timeZone?: string;
};

/** "Fri 27 Nov, 03:00 CET": the moment in the reader's time, with the zone's name. */
export function releaseTimeLabel(
  releaseAt: string,
  { locale = currentLanguage(), timeZone }: ZoneOptions = {},
): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  }).format(new Date(releaseAt));
}

/** The short name of the reader's time zone at `at` ("CET", "CEST", "GMT+1"). */
export function timeZoneName(at: Date, { locale, timeZone }: ZoneOptions = {}): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZoneName: 'short', timeZone }).formatToParts(
    at,
  );
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
}
