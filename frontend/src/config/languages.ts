/**
 * The languages the storefront speaks (issue 36), each by its BCP 47 code and its own name (the
 * switcher shows it). Adding a language: a folder `src/locales/<code>/` with the same files as
 * `src/locales/en/`, and one line here (docs/architecture.md, Languages). The server's list is
 * `shared::Language` (crates/domain/shared/src/language.rs): the codes match it.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'pt-BR', name: 'Português (Brasil)' },
  { code: 'fr', name: 'Français' },
  { code: 'de', name: 'Deutsch' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** The language of whoever the shop knows nothing about. */
export const DEFAULT_LANGUAGE: LanguageCode = 'en';

/** The cookie the switcher keeps the choice in; the server reads it too (crates/app/src/language.rs). */
export const LANGUAGE_COOKIE = 'lang';
