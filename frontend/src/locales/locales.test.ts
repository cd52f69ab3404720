import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parser as Parser } from 'i18next-parser';
import { describe, expect, it } from 'vitest';

import { LANGUAGES } from '@/config/languages';

/**
 * The message files (issue 36): every key of English in every language, each plural in the
 * forms the language needs (`Intl.PluralRules`), no key English does not have, the same
 * placeholders and tags, and no key the source never uses (read by i18next-parser).
 */

type Messages = { [key: string]: string | Messages };

const LOCALES = 'src/locales';
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** "a.b_one" for every leaf of a message file. */
function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [inner, text] of flatten(value, path)) flat.set(inner, text);
  }
  return flat;
}

function messagesOf(language: string): Map<string, Map<string, string>> {
  const folder = join(LOCALES, language);
  return new Map(
    readdirSync(folder)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [
        file.replace(/\.json$/, ''),
        flatten(JSON.parse(readFileSync(join(folder, file), 'utf8')) as Messages),
      ]),
  );
}

/** The keys without their plural endings, each with the forms it has (none: not a plural). */
function baseKeys(flat: Map<string, string>): Map<string, Set<string>> {
  const bases = new Map<string, Set<string>>();
  for (const key of flat.keys()) {
    const form = PLURAL.exec(key)?.[1];
    const base = form ? key.replace(PLURAL, '') : key;
    const forms = bases.get(base) ?? new Set<string>();
    if (form) forms.add(form);
    bases.set(base, forms);
  }
  return bases;
}

/** The placeholders ({{name}}) and tags (<time>) of a message, in order of first use. */
function markers(text: string): string[] {
  return [...new Set(text.match(/\{\{\s*[\w.]+|<\/?\w+\s*\/?>/g) ?? [])].sort();
}

const english = messagesOf('en');

describe('the message files', () => {
  it('are one folder per language of src/config/languages.ts', () => {
    const folders = readdirSync(LOCALES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(LANGUAGES.map(({ code }) => code).sort());
  });

  describe.each(LANGUAGES.map(({ code }) => code).filter((code) => code !== 'en'))('%s', (code) => {
    const messages = messagesOf(code);
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;

    it('has the files of English', () => {
      expect([...messages.keys()].sort()).toEqual([...english.keys()].sort());
    });

    it.each([...english.keys()])('%s: has every key, in the plural forms of the language', (ns) => {
      const wanted = new Map<string, string[]>();
      for (const [base, forms] of baseKeys(english.get(ns) ?? new Map())) {
        wanted.set(base, forms.size > 0 ? [...categories].sort() : []);
      }
      const found = new Map<string, string[]>();
      for (const [base, forms] of baseKeys(messages.get(ns) ?? new Map())) {
        found.set(base, [...forms].sort());
      }
      const missing = [...wanted]
        .filter(([base, forms]) => JSON.stringify(found.get(base)) !== JSON.stringify(forms))
        .map(([base, forms]) => (forms.length > 0 ? `${base}_{${forms.join(',')}}` : base));
      const extra = [...found.keys()].filter((base) => !wanted.has(base));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it.each([...english.keys()])('%s: has the placeholders and tags of English', (ns) => {
      const theirs = messages.get(ns) ?? new Map<string, string>();
      const differing = [...(english.get(ns) ?? new Map<string, string>())].flatMap(
        ([key, text]) => {
          const base = key.replace(PLURAL, '');
          const translated = [...theirs].filter(([other]) => other.replace(PLURAL, '') === base);
          return translated
            .filter(([, other]) => {
              // a plural's {{count}} may be left out where the word says it ("one", "un")
              const wanted = markers(text).filter((marker) => marker !== '{{count');
              const got = markers(other).filter((marker) => marker !== '{{count');
              return JSON.stringify(wanted) !== JSON.stringify(got);
            })
            .map(([other]) => other);
        },
      );
      expect(differing).toEqual([]);
    });
  });
});

/** Every source file that may name a key: the app's, less its tests. */
function sourceFiles(folder = 'src'): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the keys', () => {
  const parser = new Parser({
    lexers: {
      ts: [{ lexer: 'JavascriptLexer', functions: ['t'] }],
      tsx: [{ lexer: 'JsxLexer', functions: ['t'] }],
    },
  });
  // "pages:order.title": each key with its namespace (`useTranslation('pages')`, else `translation`)
  const used = new Set(
    sourceFiles().flatMap((file) =>
      parser
        .parse(readFileSync(file, 'utf8'), file)
        .map(({ key, namespace }) => `${namespace ?? 'translation'}:${key}`),
    ),
  );
  const known = new Set(
    [...english].flatMap(([ns, flat]) => [...baseKeys(flat).keys()].map((key) => `${ns}:${key}`)),
  );

  it.each([...english.keys()])('in the English file %s are each used in the source', (ns) => {
    const unused = [...baseKeys(english.get(ns) ?? new Map()).keys()].filter(
      (key) => !used.has(`${ns}:${key}`),
    );
    expect(unused).toEqual([]);
  });

  it('used in the source are each in the English files of their namespace', () => {
    expect([...used].filter((key) => !known.has(key))).toEqual([]);
  });
});
