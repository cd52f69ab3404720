import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { Schemas } from '@/types/api';

/** One order in the profile; `status_label` is the status as the server names it ('Paid', …). */
export type Order = Schemas['ProfileOrder'];

/** The logged-in user with their orders, newest first. */
export type Profile = Schemas['ProfileUser'];

/** GET /api/profile: the logged-in user with their orders (401 without a session). */
export async function getProfile({ signal }: { signal?: AbortSignal } = {}): Promise<Profile> {
  const { user } = await api.get('/profile', { signal });
  return user;
}

export function getProfileQueryOptions(userId: number) {
  return queryOptions({
    queryKey: queryKeys.profile.user(userId),
    queryFn: ({ signal }) => getProfile({ signal }),
    // Dropped whenever the session changes (see USER_SCOPED in features/auth).
    meta: { userScoped: true },
    staleTime: 0,
  });
}

export function useProfile(userId: number) {
  return useQuery(getProfileQueryOptions(userId));
}

/** `PATCH /api/profile`: the account's language (its mails are written in it). */
export function saveLanguage(language: string): Promise<unknown> {
  return api.patch('/profile', { body: { language } });
}
