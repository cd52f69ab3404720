import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { ApiError, api, errorMessage } from '@/lib/api-client';

import { privateServerQueryKey } from '@/features/admin-orders/api/get-private-server';
import type { PrivateServer, PrivateServerRequest } from '@/features/admin-orders/types';

/**
 * PUT /api/admin/private-server: 200 with the saved link; 422 with `errors.url` unless it is an
 * https roblox.com link of at most 300 characters.
 */
export function savePrivateServer(url: string): Promise<PrivateServer> {
  const body: PrivateServerRequest = { url };
  return api.put('/admin/private-server', { body });
}

/** Saves the link; a 422 is left to the form, which shows it under the field. */
export function useSavePrivateServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePrivateServer,
    onSuccess: (saved) => {
      queryClient.setQueryData(privateServerQueryKey, saved);
      toast.success('Your private server link is saved.');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) return;
      console.error('Saving the private server link failed.', error);
      toast.error(errorMessage(error));
    },
  });
}
