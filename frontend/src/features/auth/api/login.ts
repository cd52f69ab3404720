import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api } from '@/lib/api-client';

import type { Schemas } from '@/types/api';
import { setSession } from './get-session';

export type LoginInput = Schemas['LoginRequest'];
export type LoginResponse = Schemas['LoggedIn'];

/** POST /api/login. 401 for any wrong address or password, 422 per field, 429 when rate limited. */
export function login(input: LoginInput): Promise<LoginResponse> {
  return api.post('/login', { body: input });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => {
      setSession(queryClient, user);
      toast.success(`Welcome back, ${user.name}!`);
    },
  });
}
