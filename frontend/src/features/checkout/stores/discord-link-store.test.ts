import { describe, expect, it } from 'vitest';

import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';

const store = () => useDiscordLinkStore.getState();

function savedLayout() {
  return ['discord_id', 'discord_username', 'discord_avatar', 'discord_link_version'].map((key) => [
    key,
    window.localStorage.getItem(key),
  ]);
}

describe('the Discord link store', () => {
  it('reads a link saved in the four keys with the v2 marker', () => {
    window.localStorage.setItem('discord_id', '42');
    window.localStorage.setItem('discord_username', 'savedfan');
    window.localStorage.setItem('discord_avatar', 'https://cdn.example/a.png');
    window.localStorage.setItem('discord_link_version', 'v2');
    store().hydrate();
    expect(store().identity).toEqual({
      discord_id: '42',
      username: 'savedfan',
      avatar: 'https://cdn.example/a.png',
    });
  });

  it('writes the same four keys and marker back, and nothing else', () => {
    window.localStorage.clear();
    store().hydrate();
    store().setIdentity({ discord_id: '7', username: 'newfan', avatar: null });
    expect(savedLayout()).toEqual([
      ['discord_id', '7'],
      ['discord_username', 'newfan'],
      ['discord_avatar', null],
      ['discord_link_version', 'v2'],
    ]);
    expect(Object.keys(window.localStorage)).toHaveLength(3);

    store().setIdentity({
      discord_id: '7',
      username: 'newfan',
      avatar: 'https://cdn.example/b.png',
    });
    expect(window.localStorage.getItem('discord_avatar')).toBe('https://cdn.example/b.png');

    store().setIdentity(null);
    expect(store().identity).toBeNull();
    expect(savedLayout().every(([, value]) => value === null)).toBe(true);
  });

  it('writes the saved copy again when the same account is set', () => {
    store().setIdentity({ discord_id: '8', username: 'samefan', avatar: null });
    window.localStorage.clear();
    store().setIdentity({ discord_id: '8', username: 'samefan', avatar: null });
    expect(window.localStorage.getItem('discord_id')).toBe('8');
    expect(window.localStorage.getItem('discord_link_version')).toBe('v2');
  });
});
