import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export type Order = {
  id: number;
  total: number;
  status: string;
  /** 'Pending', 'Paid', 'Delivered', … as the server names the status; may be missing. */
  status_label?: string | null;
  /** ISO 8601, e.g. "2026-11-21T10:00:00Z". */
  created_at: string;
};

export type Profile = {
  id: number;
  name: string;
  email: string;
  account_type: string;
  orders: Order[];
};

/** GET /api/profile: the logged-in user with their orders (401 without a session). */
export async function getProfile({ signal }: { signal?: AbortSignal } = {}): Promise<Profile> {
  const { user } = await api.get<{ user: Profile }>('/profile', { signal });
  return user;
}

/** Keyed by the user's id, so one user's orders can never show for another. */
export function getProfileQueryOptions(userId: number) {
  return queryOptions({
    queryKey: ['profile', userId],
    queryFn: ({ signal }) => getProfile({ signal }),
    // Dropped whenever the session changes (see USER_SCOPED in features/auth).
    meta: { userScoped: true },
    staleTime: 0,
  });
}

export function useProfile(userId: number) {
  return useQuery(getProfileQueryOptions(userId));
}
