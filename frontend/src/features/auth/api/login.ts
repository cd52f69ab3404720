import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { User } from '@/features/auth/types';
import { setSession } from './get-session';

export type LoginInput = { email: string; password: string };
export type LoginResponse = { message: string; user: User };

/** POST /api/login. 401 for any wrong address or password, 422 per field, 429 when rate limited. */
export function login(input: LoginInput): Promise<LoginResponse> {
  return api.post<LoginResponse>('/login', input);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => setSession(queryClient, user),
  });
}
