import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, errorMessage } from '@/lib/api-client';

import type { Schemas } from '@/types/api';

import { setSession } from './get-session';

/** POST /api/logout: ends the session on the server (harmless without one). */
export function logout(): Promise<Schemas['Message']> {
  return api.post('/logout');
}

/**
 * Logs out and says so. Pages that need a login send the visitor to /login by themselves
 * (RequireLogin); every other page stays where it is.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      setSession(queryClient, null);
      toast.success('You are logged out.');
    },
    onError: (error) => {
      console.error('Logout failed:', error);
      toast.error(errorMessage(error));
    },
  });
}
