import { create } from 'zustand';
import { persist, type PersistStorage } from 'zustand/middleware';

import type { DiscordIdentity } from '@/features/checkout/types';

/**
 * The linked Discord account as this browser remembers it, for display only: the server's
 * session holds the verified identity and is the truth (GET /api/discord/identity).
 * Kept in localStorage under the spec's keys (§3), through zustand's `persist` like the cart.
 */
export const DISCORD_STORAGE_KEYS = {
  id: 'discord_id',
  username: 'discord_username',
  avatar: 'discord_avatar',
  linkVersion: 'discord_link_version',
} as const;

/** Data saved under any other marker (or none) comes from an older way of linking: wiped. */
export const DISCORD_LINK_VERSION = 'v2';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function wipe(store: Storage): void {
  Object.values(DISCORD_STORAGE_KEYS).forEach((key) => store.removeItem(key));
}

/** Reads the saved identity; anything not marked 'v2' is removed first. */
export function loadDiscordIdentity(): DiscordIdentity | null {
  const store = storage();
  if (!store) return null;
  if (store.getItem(DISCORD_STORAGE_KEYS.linkVersion) !== DISCORD_LINK_VERSION) {
    wipe(store);
    return null;
  }
  const discordId = store.getItem(DISCORD_STORAGE_KEYS.id);
  const username = store.getItem(DISCORD_STORAGE_KEYS.username);
  if (!discordId || !username) {
    wipe(store);
    return null;
  }
  return {
    discord_id: discordId,
    username,
    avatar: store.getItem(DISCORD_STORAGE_KEYS.avatar) || null,
  };
}

function saveDiscordIdentity(identity: DiscordIdentity | null): void {
  const store = storage();
  if (!store) return;
  try {
    if (!identity) {
      wipe(store);
      return;
    }
    store.setItem(DISCORD_STORAGE_KEYS.id, identity.discord_id);
    store.setItem(DISCORD_STORAGE_KEYS.username, identity.username);
    if (identity.avatar) store.setItem(DISCORD_STORAGE_KEYS.avatar, identity.avatar);
    else store.removeItem(DISCORD_STORAGE_KEYS.avatar);
    store.setItem(DISCORD_STORAGE_KEYS.linkVersion, DISCORD_LINK_VERSION);
  } catch (err) {
    // A full quota or private mode: the link still works for this visit, through the session.
    console.warn('Could not save the Discord link to localStorage:', err);
  }
}

type DiscordLinkState = {
  identity: DiscordIdentity | null;
  /** Re-reads localStorage (and wipes data older than 'v2'). */
  hydrate: () => void;
  /** Remembers the identity (null forgets it), in memory and in localStorage. */
  setIdentity: (identity: DiscordIdentity | null) => void;
};

type SavedLink = Pick<DiscordLinkState, 'identity'>;

/**
 * How `persist` keeps the link: the four keys and the 'v2' marker it always used (not zustand's
 * { state, version } wrapper under one key), so links saved before stay linked.
 */
const discordLinkStorage: PersistStorage<SavedLink> = {
  getItem: () => ({ state: { identity: loadDiscordIdentity() } }),
  setItem: (_name, { state }) => saveDiscordIdentity(state.identity),
  removeItem: () => saveDiscordIdentity(null),
};

function sameIdentity(a: DiscordIdentity | null, b: DiscordIdentity | null): boolean {
  return a?.discord_id === b?.discord_id && a?.username === b?.username && a?.avatar === b?.avatar;
}

export const useDiscordLinkStore = create<DiscordLinkState>()(
  persist(
    (set, get, store) => ({
      identity: null,
      hydrate: () => void store.persist.rehydrate(),
      setIdentity: (identity) => {
        if (!sameIdentity(get().identity, identity)) set({ identity });
        // the same account: nothing changes on screen, but the saved copy is written again
        else saveDiscordIdentity(identity);
      },
    }),
    {
      // Not a key of its own: the storage above writes the four keys.
      name: 'discord_link',
      storage: discordLinkStorage,
      partialize: ({ identity }) => ({ identity }),
      // Read when the checkout code first loads (the storage is synchronous), so a linked
      // account shows without a flash.
    },
  ),
);
