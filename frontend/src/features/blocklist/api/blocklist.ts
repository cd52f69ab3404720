import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { BlockEntry, Blocklist, NewBlock } from '@/features/blocklist/types';

export const blocklistQueryKey = queryKeys.admin.blocklist;

/** GET /api/admin/blocklist: newest first (super_admin). */
export function getBlocklist({ signal }: { signal?: AbortSignal } = {}): Promise<Blocklist> {
  return api.get('/admin/blocklist', { signal });
}

export function getBlocklistQueryOptions() {
  return queryOptions({
    queryKey: blocklistQueryKey,
    queryFn: ({ signal }) => getBlocklist({ signal }),
    meta: { userScoped: true },
  });
}

export function useBlocklist() {
  return useQuery(getBlocklistQueryOptions());
}

/** POST /api/admin/blocklist: 201 with the entry; 422 per field; 409 when blocked already. */
export function addBlock(body: NewBlock): Promise<BlockEntry> {
  return api.post('/admin/blocklist', { body });
}

/** DELETE /api/admin/blocklist/{id}: 204. */
export function removeBlock(id: number): Promise<undefined> {
  return api.delete('/admin/blocklist/{id}', { params: { path: { id } } });
}

/** POST /api/admin/blocklist/{id}/confirm: 200 with the entry, now active. */
export function confirmBlock(id: number): Promise<BlockEntry> {
  return api.post('/admin/blocklist/{id}/confirm', { params: { path: { id } } });
}

/** Confirms a flagged entry; its variables are the entry, which the toast names. */
export function useConfirmBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: BlockEntry) => confirmBlock(entry.id),
    onSuccess: (confirmed, entry) => {
      queryClient.setQueryData<Blocklist>(blocklistQueryKey, (current) =>
        current
          ? {
              ...current,
              entries: current.entries.map((known) =>
                known.id === confirmed.id ? confirmed : known,
              ),
            }
          : current,
      );
      toast.success(`${entry.kind_label} ${entry.value} is blocked now.`);
    },
    onError: (error) => {
      console.error('Confirming a blocklist entry failed.', error);
      toast.error(errorMessage(error));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: blocklistQueryKey }),
  });
}

export function useAddBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBlock,
    onSuccess: (entry) => toast.success(`${entry.kind_label} ${entry.value} is blocked.`),
    onError: (error) => {
      console.error('Adding a blocklist entry failed.', error);
      toast.error(errorMessage(error));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: blocklistQueryKey }),
  });
}

/** Removes an entry; its variables are the entry, which the toast names. */
export function useRemoveBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: BlockEntry) => removeBlock(entry.id),
    onSuccess: (_, removed) => {
      queryClient.setQueryData<Blocklist>(blocklistQueryKey, (current) =>
        current
          ? {
              entries: current.entries.filter((entry) => entry.id !== removed.id),
              total: Math.max(0, current.total - 1),
            }
          : current,
      );
      toast.success(`${removed.kind_label} ${removed.value} is no longer blocked.`);
    },
    onError: (error) => {
      console.error('Removing a blocklist entry failed.', error);
      toast.error(errorMessage(error));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: blocklistQueryKey }),
  });
}
