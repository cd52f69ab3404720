import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** POST /api/forgot-password: the same answer whether or not the address has an account. */
export function forgotPassword(input: { email: string }): Promise<{ message: string }> {
  return api.post<{ message: string }>('/forgot-password', input);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
