import { ApiError } from '@/lib/api-client';

/** The first message of each field of a 422 answer: { email: 'This e-mail is already registered.' }. */
export function firstFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const first: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    if (messages[0]) first[field] = messages[0];
  }
  return first;
}

/**
 * The message for the whole form: the server's (or the api client's explanation of a failure
 * that came without one, such as no connection), else `fallback`.
 */
export function formErrorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
