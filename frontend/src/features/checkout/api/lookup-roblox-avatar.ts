import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export type RobloxAvatar = { username: string; avatar_url: string };

/** POST /api/roblox/avatar: the account's canonical name and headshot; 404 when unknown. */
export function lookupRobloxAvatar(username: string): Promise<RobloxAvatar> {
  return api.post<RobloxAvatar>('/roblox/avatar', { username });
}

export function useLookupRobloxAvatar() {
  return useMutation({ mutationFn: lookupRobloxAvatar });
}
