import i18next, { type InitOptions, type Resource, type ResourceKey } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

import { LANGUAGES, type LanguageCode } from '@/config/languages';

import { detectLanguage, rememberLanguage } from './language';

/**
 * Each language's message files, one chunk each, fetched when that language is first shown:
 * the entry chunk carries none of them (issue 36, its size budget: `npm run check:size`).
 */
const messageFiles = import.meta.glob<ResourceKey>('/src/locales/*/*.json', { import: 'default' });

function loadMessages(language: string, namespace: string): Promise<ResourceKey> {
  const load = messageFiles[`/src/locales/${language}/${namespace}.json`];
  if (!load) return Promise.reject(new Error(`No messages for ${language}/${namespace}.`));
  return load();
}

/** What the app and the tests share: the languages, and no fallback (every key is in every language, src/locales/locales.test.ts). */
export const baseOptions = {
  supportedLngs: LANGUAGES.map(({ code }) => code),
  fallbackLng: false,
  load: 'currentOnly',
  ns: ['translation'],
  defaultNS: 'translation',
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
} satisfies InitOptions;

/** `<html lang>` follows the language shown. */
function followLanguage(language: string): void {
  document.documentElement.lang = language;
}

/**
 * Starts i18next in the viewer's language (`detectLanguage`), its messages fetched first: the
 * app renders when this settles.
 */
export async function startI18n(language: LanguageCode = detectLanguage()): Promise<void> {
  i18next.on('languageChanged', followLanguage);
  await i18next
    .use(resourcesToBackend(loadMessages))
    .use(initReactI18next)
    .init({ ...baseOptions, lng: language });
}

/**
 * Starts i18next at once with the messages given (the tests: English, and the other languages
 * for the tests that switch).
 */
export function startI18nWith(resources: Resource, language: LanguageCode): void {
  i18next.on('languageChanged', followLanguage);
  void i18next
    .use(initReactI18next)
    .init({ ...baseOptions, lng: language, resources, initAsync: false });
}

/**
 * Fetches the message files of `namespaces` in the language shown (a page's own words, beside
 * the `translation` every page uses), before the page that needs them renders; later language
 * changes fetch them too.
 */
export async function loadNamespaces(...namespaces: string[]): Promise<void> {
  await i18next.loadNamespaces(namespaces);
}

/**
 * Shows the shop in `language` from now on: kept in the `lang` cookie (so the server's messages
 * follow), its messages fetched if they are not yet, every component re-rendered.
 */
export async function chooseLanguage(language: LanguageCode): Promise<void> {
  rememberLanguage(language);
  await i18next.changeLanguage(language);
}
