import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Schemas } from '@/types/api';

export type ResetPasswordInput = Schemas['ResetRequest'];

/**
 * POST /api/reset-password. 422 with errors.token when the link is unknown, used or expired,
 * and per field for the password rules.
 */
export function resetPassword(input: ResetPasswordInput): Promise<Schemas['Message']> {
  return api.post('/reset-password', { body: input });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
