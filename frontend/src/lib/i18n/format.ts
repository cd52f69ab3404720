import i18next from 'i18next';

/** The language the shop is shown in now (for `Intl`), English before i18next starts. */
export function currentLanguage(): string {
  return i18next.resolvedLanguage ?? i18next.language ?? 'en';
}

type DurationPart = { unit: 'day' | 'hour' | 'minute'; value: number };

/**
 * A duration in words in `locale` ("1 day 5 hours", "1 Tag, 5 Stunden"), each part through
 * `Intl.NumberFormat`'s units and joined by `Intl.ListFormat`; parts of 0 are left out (all
 * of them 0: the last part's 0).
 */
export function formatDuration(
  parts: readonly DurationPart[],
  locale: string = currentLanguage(),
): string {
  const shown = parts.filter((part) => part.value > 0);
  const words = (shown.length > 0 ? shown : parts.slice(-1)).map(({ unit, value }) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value),
  );
  return new Intl.ListFormat(locale, { type: 'unit', style: 'narrow' }).format(words);
}
