import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Registration } from '@/features/auth/types';
import type { Schemas } from '@/types/api';
import { setSession } from './get-session';

export type VerifyCodeInput = Registration & { code: string };
export type VerifyCodeResponse = Schemas['LoggedIn'];

/**
 * POST /api/verify-code: creates the account with the name and password sent here (not those of
 * the code request) and logs it in. 422 with errors.code for a wrong or expired code, 429 after
 * too many attempts.
 */
export function verifyCode(input: VerifyCodeInput): Promise<VerifyCodeResponse> {
  return api.post('/verify-code', { body: input });
}

export function useVerifyCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyCode,
    onSuccess: ({ user }) => setSession(queryClient, user),
  });
}
