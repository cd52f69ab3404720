import { vi } from 'vitest';

import { jsonResponse } from '@/testing/test-utils';

/** One call the page made: the path after /api without its query, the query, and the body. */
export type StubCall = {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON, the FormData as sent, or undefined. */
  body: unknown;
  /** The request's headers as sent. */
  headers: Headers;
};

type Handler = (call: StubCall) => Response | Promise<Response>;

/**
 * Stubs fetch with handlers keyed "METHOD /path" (the path after /api, without the query),
 * e.g. `{ 'GET /chat/status': ({ query }) => jsonResponse(...) }`. Anything else answers 404.
 * Returns the calls, in order. Handlers may be swapped later through the returned `handlers`.
 */
export function stubApi(initial: Record<string, Handler>) {
  const calls: StubCall[] = [];
  const handlers: Record<string, Handler> = { ...initial };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://shop.test');
      const method = init.method ?? 'GET';
      const path = url.pathname.replace(/^\/api/, '');
      const body =
        typeof init.body === 'string'
          ? (JSON.parse(init.body) as unknown)
          : (init.body ?? undefined);
      const headers = new Headers(init.headers);
      const call = { method, path, query: url.searchParams, body, headers };
      calls.push(call);
      const handler = handlers[`${method} ${path}`];
      return handler ? handler(call) : jsonResponse({ message: 'Not found.', errors: {} }, 404);
    }),
  );
  const callsTo = (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key);
  return { calls, handlers, callsTo };
}
