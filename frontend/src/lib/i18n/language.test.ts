import { describe, expect, it } from 'vitest';

import { detectLanguage, matchLanguage, rememberLanguage } from './language';

describe('matchLanguage', () => {
  it.each([
    ['en', 'en'],
    ['pt-br', 'pt-BR'],
    ['PT-BR', 'pt-BR'],
    ['es-MX', 'es'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['de-AT', 'de'],
    ['fr_CA', 'fr'],
    [' fr ', 'fr'],
  ])('matches %s to %s, as the server does', (tag, code) => {
    expect(matchLanguage(tag)).toBe(code);
  });

  it.each(['it', 'ja', 'klingon', ''])('speaks no %s', (tag) => {
    expect(matchLanguage(tag)).toBeUndefined();
  });
});

describe('detectLanguage', () => {
  it('takes the choice in the lang cookie first', () => {
    expect(detectLanguage('theme=dark; lang=de', ['es-MX', 'en'])).toBe('de');
    expect(detectLanguage('lang=pt-BR', ['en'])).toBe('pt-BR');
  });

  it('takes the first of the browser languages the shop speaks without a choice', () => {
    expect(detectLanguage('', ['it-IT', 'pt-PT', 'fr'])).toBe('pt-BR');
    expect(detectLanguage('lang=klingon', ['ja', 'es-MX', 'de'])).toBe('es');
  });

  it('falls back to English', () => {
    expect(detectLanguage('', ['ja', 'it'])).toBe('en');
    expect(detectLanguage('', [])).toBe('en');
  });

  it('reads the cookie the switcher writes', () => {
    rememberLanguage('fr');
    expect(document.cookie).toContain('lang=fr');
    expect(detectLanguage(document.cookie, ['de'])).toBe('fr');
  });
});
