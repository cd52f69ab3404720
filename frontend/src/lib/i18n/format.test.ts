import { afterEach, describe, expect, it } from 'vitest';

import { releaseTimeLabel } from '@/lib/drop';
import { currentLanguage } from '@/lib/i18n/format';

const original = Object.getOwnPropertyDescriptor(window.navigator, 'languages');

function browserLanguages(languages: string[]) {
  Object.defineProperty(window.navigator, 'languages', { value: languages, configurable: true });
}

afterEach(() => {
  if (original) Object.defineProperty(window.navigator, 'languages', original);
  else Reflect.deleteProperty(window.navigator, 'languages');
});

describe('the locale things are formatted in', () => {
  it('is the shop’s language in the reader’s region when their browser names one', () => {
    browserLanguages(['de-DE', 'en-GB']);
    expect(currentLanguage()).toBe('en-GB');
    // a British reader in Berlin reads the zone's name, as en-GB writes it
    expect(releaseTimeLabel('2026-11-27T02:00:00Z', { timeZone: 'Europe/Berlin' })).toBe(
      'Fri 27 Nov, 03:00 CET',
    );
  });

  it('is the shop’s language alone when the browser names no region of it', () => {
    browserLanguages(['fr-FR', 'en']);
    expect(currentLanguage()).toBe('en');
  });
});
