import { ApiError } from '@/lib/api-client';

/**
 * The message for the whole form: the server's (or the api client's explanation of a failure
 * that came without one, such as no connection), else `fallback`.
 */
export function formErrorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
