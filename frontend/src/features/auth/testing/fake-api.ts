import type { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';

import { sessionQueryKey } from '@/features/auth/api/get-session';
import type { Session, User } from '@/features/auth/types';
import { createTestQueryClient, jsonResponse } from '@/testing/test-utils';

/** Test-only helpers for the accounts pages: a fake /api at the fetch level, and users. */

let nextUserId = 1;

export function makeUser(overrides: Partial<User> = {}): User {
  const id = overrides.id ?? nextUserId++;
  return {
    id,
    name: 'Ann Gardener',
    email: `ann${id}@example.com`,
    account_type: 'customer',
    ...overrides,
  };
}

/** A query client that already knows who is logged in (null: nobody). */
export function queryClientWithSession(user: User | null): QueryClient {
  const client = createTestQueryClient();
  const session: Session = user ? { loggedIn: true, user } : { loggedIn: false, user: null };
  client.setQueryData(sessionQueryKey, session);
  return client;
}

export type ApiCall = { method: string; path: string; body: unknown };
type Handler = (body: unknown) => Response | Promise<Response>;

/**
 * Stubs fetch with handlers keyed "METHOD /path" (the path after /api), e.g.
 * `{ 'POST /login': () => jsonResponse({...}) }`. Anything else answers 404. Returns the calls.
 */
export function fakeApi(handlers: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = url.replace(/^\/api/, '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path, body });
      const handler = handlers[`${method} ${path}`];
      return handler ? handler(body) : jsonResponse({ message: 'Not found.', errors: {} }, 404);
    }),
  );
  return calls;
}

/** A 422 in the API's shape. */
export function validationError(errors: Record<string, string[]>, message = 'Invalid data.') {
  return jsonResponse({ message, errors }, 422);
}
