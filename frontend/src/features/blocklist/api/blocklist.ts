import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
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

export function useConfirmBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmBlock,
    onSuccess: (confirmed) =>
      queryClient.setQueryData<Blocklist>(blocklistQueryKey, (current) =>
        current
          ? {
              ...current,
              entries: current.entries.map((entry) =>
                entry.id === confirmed.id ? confirmed : entry,
              ),
            }
          : current,
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: blocklistQueryKey }),
  });
}

export function useAddBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBlock,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: blocklistQueryKey }),
  });
}

export function useRemoveBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeBlock,
    onSuccess: (_, id) =>
      queryClient.setQueryData<Blocklist>(blocklistQueryKey, (current) =>
        current
          ? {
              entries: current.entries.filter((entry) => entry.id !== id),
              total: Math.max(0, current.total - 1),
            }
          : current,
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: blocklistQueryKey }),
  });
}
