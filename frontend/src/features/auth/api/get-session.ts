import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { Session, User } from '@/features/auth/types';
import type { Schemas } from '@/types/api';

export const LOGGED_OUT: Session = { loggedIn: false, user: null };

/**
 * GET /api/auth/check. A failed check means logged out (docs/product.md, Behaviour): it resolves to LOGGED_OUT
 * instead of throwing, so the app never waits on retries before its first render.
 */
export async function getSession({ signal }: { signal?: AbortSignal } = {}): Promise<Session> {
  try {
    return toSession(await api.get('/auth/check', { signal }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.error('Session check failed; continuing logged out.', error);
    return LOGGED_OUT;
  }
}

/** The answer of GET /api/auth/check as the app keeps it: logged in only with a user. */
export function toSession(answer: Schemas['AuthCheck']): Session {
  return answer.loggedIn && answer.user ? { loggedIn: true, user: answer.user } : LOGGED_OUT;
}

export const sessionQueryKey = queryKeys.session;

export function getSessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => getSession({ signal }),
    // Re-checked when the tab regains focus after a minute, so a session ended elsewhere shows.
    staleTime: 60_000,
  });
}

export function useSession() {
  return useQuery(getSessionQueryOptions());
}

/**
 * Marks on a query whose answer belongs to the logged-in user (profile, orders, admin data):
 * `useQuery({ ..., meta: USER_SCOPED })`. Such queries are dropped whenever the session changes,
 * so nobody ever sees the previous user's data.
 */
export const USER_SCOPED = { userScoped: true } as const;

/** After login, verification or logout: the new session, and no data of the previous one. */
export function setSession(queryClient: QueryClient, user: User | null): void {
  queryClient.removeQueries({ predicate: (query) => query.meta?.userScoped === true });
  queryClient.setQueryData<Session>(sessionQueryKey, user ? { loggedIn: true, user } : LOGGED_OUT);
}
