import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Schemas, WithRequired } from '@/types/api';

export type RobloxAvatar = WithRequired<Schemas['RobloxAvatar'], 'avatar_url'>;

/** POST /api/roblox/avatar: the account's canonical name and headshot; 404 when unknown. */
export function lookupRobloxAvatar(username: string): Promise<RobloxAvatar> {
  return api.post('/roblox/avatar', { body: { username } }) as Promise<RobloxAvatar>;
}

export function useLookupRobloxAvatar() {
  return useMutation({ mutationFn: lookupRobloxAvatar });
}
