import { describe, expect, it } from 'vitest';

import {
  capLabel,
  countdownLabel,
  isUpcomingDrop,
  releaseTimeLabel,
  secondsUntil,
  timeZoneName,
} from '@/lib/drop';

describe('drops', () => {
  it('words a cap per account, on the drop and on a bundle that holds it', () => {
    const dragon = { name: 'Dragon', max_per_account: 1 };
    expect(capLabel(dragon)).toBe('Limit 1 per account');
    expect(capLabel(dragon, { held: true })).toBe('Holds Dragon: limit 1 per account');
  });

  it('counts m:ss under an hour, h:mm:ss under a day, then days', () => {
    expect(countdownLabel(299)).toBe('4:59');
    expect(countdownLabel(5)).toBe('0:05');
    expect(countdownLabel(3599)).toBe('59:59');
    expect(countdownLabel(3600)).toBe('1:00:00');
    expect(countdownLabel(7_499)).toBe('2:04:59');
    expect(countdownLabel(86_399)).toBe('23:59:59');
    expect(countdownLabel(86_400)).toBe('1 day');
    expect(countdownLabel(86_400 + 5 * 3600 + 59)).toBe('1 day 5 hours');
    expect(countdownLabel(3 * 86_400)).toBe('3 days');
  });

  it('rounds the seconds left up, and stops at 0', () => {
    const at = '2026-11-27T03:00:00Z';
    const release = Date.parse(at);
    expect(secondsUntil(at, release - 299_001)).toBe(300);
    expect(secondsUntil(at, release - 299_000)).toBe(299);
    expect(secondsUntil(at, release - 1)).toBe(1);
    expect(secondsUntil(at, release)).toBe(0);
    expect(secondsUntil(at, release + 60_000)).toBe(0);
  });

  it('says when it drops in the reader’s time, with the zone’s name', () => {
    const at = '2026-11-27T03:00:00Z';
    expect(releaseTimeLabel(at, { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toBe(
      'Fri 27 Nov, 04:00 CET',
    );
    expect(releaseTimeLabel(at, { locale: 'en-GB', timeZone: 'UTC' })).toBe(
      'Fri 27 Nov, 03:00 UTC',
    );
    expect(timeZoneName(new Date(at), { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toBe('CET');
    expect(
      timeZoneName(new Date('2026-07-01T12:00:00Z'), {
        locale: 'en-GB',
        timeZone: 'Europe/Berlin',
      }),
    ).toBe('CEST');
  });

  it('is upcoming only while the server says it is not released', () => {
    expect(isUpcomingDrop({ released: false, release_at: '2026-11-27T03:00:00Z' })).toBe(true);
    expect(isUpcomingDrop({ released: true, release_at: '2026-11-27T03:00:00Z' })).toBe(false);
    // a cart line saved before drops existed
    expect(isUpcomingDrop({})).toBe(false);
  });
});
