import i18next from 'i18next';

/**
 * The locale to format in (`Intl`): the language the shop is shown in now (English before
 * i18next starts), in the reader's own region when their browser names one for it (`en-GB`
 * writes "27 Nov, 03:00 CET" where bare `en` writes "Nov 27, 03:00 AM GMT+1").
 */
export function currentLanguage(): string {
  const language = i18next.resolvedLanguage ?? i18next.language ?? 'en';
  const primary = (tag: string) => (tag.split('-')[0] ?? '').toLowerCase();
  const regional = typeof navigator === 'undefined' ? [] : (navigator.languages ?? []);
  return (
    regional.find((tag) => tag.includes('-') && primary(tag) === primary(language)) ?? language
  );
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
