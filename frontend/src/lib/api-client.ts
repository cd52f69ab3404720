import { env } from '@/config/env';
import type { ApiErrorBody } from '@/types/api';

/** Any failed call: a non-2xx answer, or no answer at all (status 0). */
export class ApiError extends Error {
  readonly status: number;
  /** Per-field messages of a 422, e.g. { email: ["The email is taken."] }. */
  readonly errors: Record<string, string[]>;
  /** The whole JSON body of the answer, for the extra keys some errors carry (e.g. a 409's). */
  readonly body: unknown;
  /** The answer's `Retry-After` in seconds (a 429, or a 409 whose state is on its way), or null. */
  readonly retryAfter: number | null;

  constructor(
    status: number,
    message: string,
    errors: Record<string, string[]> = {},
    body: unknown = undefined,
    retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.body = body;
    this.retryAfter = retryAfter;
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

const NETWORK_ERROR_MESSAGE = 'We could not reach the shop. Check your connection and try again.';

type RequestOptions = Omit<RequestInit, 'body'> & {
  /** Sent as JSON unless it is FormData. */
  body?: unknown;
};

async function request<T>(
  path: string,
  { body, headers, ...init }: RequestOptions = {},
): Promise<T> {
  const isForm = body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(`${env.API_URL}${path}`, {
      credentials: 'include',
      ...init,
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }

  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

async function toApiError(response: Response): Promise<ApiError> {
  const fallback = `Something went wrong (error ${response.status}). Please try again.`;
  const seconds = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
  const retryAfter = Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
  try {
    const body = (await response.json()) as Partial<ApiErrorBody>;
    return new ApiError(
      response.status,
      typeof body.message === 'string' && body.message ? body.message : fallback,
      body.errors ?? {},
      body,
      retryAfter,
    );
  } catch {
    return new ApiError(response.status, fallback, {}, undefined, retryAfter);
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body' | 'method'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body' | 'method'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body' | 'method'>) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  /** `options.body`, when given, is sent as JSON (e.g. a password confirming the deletion). */
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method'>) =>
    request<T>(path, { ...options, method: 'DELETE' }),
};

/** The message to show a shopper for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

/**
 * The first message of each field of a 422's `errors`: { email: ['Taken.', …] } becomes
 * { email: 'Taken.' }. A list field's messages ("related_ids.1", "images[]") are filed under the
 * field itself ("related_ids", "images"); the first message of a field wins.
 */
export function firstFieldMessages(errors: Record<string, string[]>): Record<string, string> {
  const first: Record<string, string> = {};
  for (const [key, messages] of Object.entries(errors)) {
    const field = key.replace(/(\[\]|\.\d+)$/, '');
    const message = messages[0];
    if (message && !(field in first)) first[field] = message;
  }
  return first;
}

/** The field messages of a failed call when it was a 422 (see `firstFieldMessages`), else {}. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  return firstFieldMessages(error.errors);
}
