import type { LexerConfig } from 'i18next-parser';

// i18next-parser's types leave out its runtime export `parser` (the parser of one file), which
// src/locales/locales.test.ts reads the source's keys with.
declare module 'i18next-parser' {
  export class parser {
    constructor(options?: { lexers?: Record<string, LexerConfig[]> });
    parse(content: string, filename: string): { key: string; namespace?: string }[];
  }
}
