import { env } from '@/config/env';
import type { ApiErrorBody } from '@/types/api';
import type { paths } from '@/types/api.gen';

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

/**
 * The server's paths as the client names them: the OpenAPI document's, without the `/api` that
 * `env.API_URL` already holds (`/api/orders/{id}` is `/orders/{id}`).
 */
type ApiPaths = {
  [P in keyof paths as P extends `/api${infer Rest}` ? Rest : never]: paths[P];
};

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths that answer `M`, e.g. `PathsWith<'delete'>` holds '/admin/blocklist/{id}'. */
export type PathsWith<M extends Method> = {
  [P in keyof ApiPaths]: ApiPaths[P] extends Record<M, object> ? P : never;
}[keyof ApiPaths];

type Operation<P extends keyof ApiPaths, M extends Method> =
  ApiPaths[P] extends Record<M, infer Op> ? Op : never;

/** The keys of `T` a value must have (those whose type does not allow undefined). */
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];

/** The path and query parameters of an operation, as the document declares them. */
type Params<Op> = Op extends { parameters: infer P extends { path?: unknown; query?: unknown } }
  ? Pick<P, 'path' | 'query'>
  : never;

/** The body of an operation: its JSON, or a FormData where the document says multipart. */
type Body<Op> = Op extends { requestBody?: { content: infer C } }
  ? C extends { 'application/json': infer Json }
    ? Json
    : C extends { 'multipart/form-data': unknown }
      ? FormData
      : never
  : never;

type ParamsOption<Op> = [RequiredKeys<Params<Op>>] extends [never]
  ? { params?: Params<Op> }
  : { params: Params<Op> };

type BodyOption<Op> = [Body<Op>] extends [never]
  ? { body?: never }
  : Op extends { requestBody: object }
    ? { body: Body<Op> }
    : { body?: Body<Op> };

/** What a call takes besides its path: fetch's options, the parameters and the body it declares. */
export type CallOptions<Op> = Omit<RequestInit, 'body' | 'method'> &
  ParamsOption<Op> &
  BodyOption<Op>;

type CallArgs<Op> = [RequiredKeys<CallOptions<Op>>] extends [never]
  ? [options?: CallOptions<Op>]
  : [options: CallOptions<Op>];

/** The JSON of an operation's 2xx answer; undefined for one without a body (204). */
export type Answer<Op> = Op extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201 | 202 | 204
        ? R[S] extends { content: { 'application/json': infer Json } }
          ? Json
          : undefined
        : never;
    }[keyof R]
  : never;

/** `/orders/{id}` with `{ id: 7 }` is `/orders/7`; each value is URI-encoded. */
function fillPath(template: string, values: Record<string, unknown> = {}): string {
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(values[name])),
  );
}

/** `?a=1&b=x` from the parameters that have a value, in their order; '' when none has. */
function queryString(values: Record<string, unknown> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `?${search}` : '';
}

function call<M extends Method>(method: M) {
  return <P extends PathsWith<M>>(
    path: P,
    ...[options]: CallArgs<Operation<P, M>>
  ): Promise<Answer<Operation<P, M>>> => {
    const { params, ...init } = (options ?? {}) as RequestOptions & {
      params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
    };
    const url = fillPath(path, params?.path) + queryString(params?.query);
    return request(url, { ...init, method: method.toUpperCase() });
  };
}

/**
 * The API, typed by the server's OpenAPI document (src/types/api.gen.ts): a path, its
 * parameters, its body and its answer come from the document, never from the caller.
 * `api.get('/orders/{id}', { params: { path: { id }, query: { key } }, signal })`.
 */
export const api = {
  get: call('get'),
  post: call('post'),
  put: call('put'),
  patch: call('patch'),
  delete: call('delete'),
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
