import { beforeEach, describe, expect, it } from 'vitest';

import {
  DISCORD_RETURN_KEY,
  forgetDiscordReturn,
  isSafeReturnPath,
  rememberDiscordReturn,
  rememberedDiscordReturn,
} from './discord-return';

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('the path /discord/callback returns to', () => {
  it.each(['/product/12', '/product/12?ref=drop', '/'])('accepts %s', (path) => {
    expect(isSafeReturnPath(path)).toBe(true);
  });

  it.each([
    '//evil.example/product/12',
    '/\\evil.example',
    'https://evil.example/product/12',
    'javascript:alert(1)',
    'product/12',
    '',
    '/product/12\n//evil.example',
    null,
  ])('refuses %j', (path) => {
    expect(isSafeReturnPath(path)).toBe(false);
  });

  it('is kept for this tab, read without being forgotten, then forgotten', () => {
    rememberDiscordReturn('/product/12');
    expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBe('/product/12');
    expect(rememberedDiscordReturn()).toBe('/product/12');
    expect(rememberedDiscordReturn()).toBe('/product/12');
    forgetDiscordReturn();
    expect(rememberedDiscordReturn()).toBeNull();
    expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBeNull();
  });

  it('ignores an unsafe value found in storage, and never stores one', () => {
    window.sessionStorage.setItem(DISCORD_RETURN_KEY, '//evil.example');
    expect(rememberedDiscordReturn()).toBeNull();
    rememberDiscordReturn('https://evil.example');
    expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBeNull();
  });
});
