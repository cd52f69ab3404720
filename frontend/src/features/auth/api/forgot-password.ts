import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Schemas } from '@/types/api';

/** POST /api/forgot-password: the same answer whether or not the address has an account. */
export function forgotPassword(input: Schemas['ForgotRequest']): Promise<Schemas['Message']> {
  return api.post('/forgot-password', { body: input });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
