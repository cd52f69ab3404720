import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, errorMessage } from '@/lib/api-client';

import { privateServerQueryKey } from '@/features/admin-orders/api/get-private-server';
import type { PrivateServer } from '@/features/admin-orders/types';

/** DELETE /api/admin/private-server: 204; claiming needs a link again afterwards. */
export function removePrivateServer(): Promise<undefined> {
  return api.delete('/admin/private-server');
}

export function useRemovePrivateServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePrivateServer,
    onSuccess: () => {
      queryClient.setQueryData<PrivateServer>(privateServerQueryKey, { url: null });
      toast.success('Your private server link is removed.');
    },
    onError: (error) => {
      console.error('Removing the private server link failed.', error);
      toast.error(errorMessage(error));
    },
  });
}
