import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

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
 * (RequireLogin); every other page stays where it is. A plain call, not a query mutation: the
 * navbar is in the storefront's entry chunk, and no other storefront page needs mutations'
 * code before an action (the entry's budget, issue 36).
 */
export function useLogout(): {
  isPending: boolean;
  mutate: (then?: { onSuccess?: () => void }) => void;
} {
  const queryClient = useQueryClient();
  const [isPending, setPending] = useState(false);
  const mutate = (then: { onSuccess?: () => void } = {}) => {
    setPending(true);
    logout()
      .then(
        () => {
          setSession(queryClient, null);
          toast.success('You are logged out.');
          then.onSuccess?.();
        },
        (error: unknown) => {
          console.error('Logout failed:', error);
          toast.error(errorMessage(error));
        },
      )
      .finally(() => setPending(false));
  };
  return { isPending, mutate };
}
