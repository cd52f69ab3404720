import {
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  LANGUAGES,
  type LanguageCode,
} from '@/config/languages';
import { readCookie, rememberChoice } from '@/lib/cookies';

/**
 * The shop's language for a BCP 47 tag, matched as the server matches a browser's list
 * (`shared::Language::matching`): the exact code in any case, else its primary language
 * (`es-MX` → `es`, `pt` and `pt-PT` → `pt-BR`, `de-AT` → `de`); `undefined` for a language the
 * shop does not speak.
 */
export function matchLanguage(tag: string): LanguageCode | undefined {
  const trimmed = tag.trim();
  const exact = LANGUAGES.find(({ code }) => code.toLowerCase() === trimmed.toLowerCase());
  if (exact) return exact.code;
  const primary = trimmed.split(/[-_]/)[0]?.toLowerCase();
  return LANGUAGES.find(({ code }) => code.split('-')[0]?.toLowerCase() === primary)?.code;
}

/** The value of the `lang` cookie, when it names a language the shop speaks. */
function chosenLanguage(cookie: string): LanguageCode | undefined {
  const chosen = readCookie(LANGUAGE_COOKIE, cookie);
  return LANGUAGES.find(({ code }) => code === chosen)?.code;
}

/**
 * The viewer's language: their choice (the `lang` cookie), else the first of their browser's
 * languages the shop speaks, else English — the order the server follows for its own messages.
 */
export function detectLanguage(
  cookie: string = document.cookie,
  browserLanguages: readonly string[] = navigator.languages,
): LanguageCode {
  return (
    chosenLanguage(cookie) ??
    browserLanguages.map(matchLanguage).find((code) => code !== undefined) ??
    DEFAULT_LANGUAGE
  );
}

/** Keeps the viewer's choice for a year, for every page and the API (path=/, SameSite=Lax). */
export function rememberLanguage(code: LanguageCode): void {
  rememberChoice(LANGUAGE_COOKIE, code);
}
