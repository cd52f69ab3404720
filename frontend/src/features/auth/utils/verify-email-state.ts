import type { Registration } from '@/features/auth/types';

/** What /register hands to /verify-email in the router state. */
export type VerifyEmailState = {
  registration: Registration;
  /** Seconds before a new code may be asked for (the server's resend_after). */
  resendAfter: number;
};

export const DEFAULT_RESEND_AFTER_SECONDS = 60;

function isRegistration(value: unknown): value is Registration {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['name', 'email', 'password', 'password_confirmation'].every(
    (field) => typeof record[field] === 'string' && record[field] !== '',
  );
}

/** The registration carried to /verify-email, or null when the page was opened directly. */
export function readVerifyEmailState(state: unknown): VerifyEmailState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { registration, resendAfter } = state as Record<string, unknown>;
  if (!isRegistration(registration)) return null;
  return {
    registration,
    resendAfter:
      typeof resendAfter === 'number' && resendAfter >= 0
        ? resendAfter
        : DEFAULT_RESEND_AFTER_SECONDS,
  };
}
