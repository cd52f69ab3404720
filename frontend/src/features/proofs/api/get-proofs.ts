import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { Proof } from '@/features/proofs/types';
import { normalizeProof } from '@/features/proofs/utils/normalize-proof';

/** GET /api/proofs: every proof of delivery, newest first (public). */
export async function getProofs({ signal }: { signal?: AbortSignal } = {}): Promise<Proof[]> {
  const proofs = await api.get('/proofs', { signal });
  return proofs.map(normalizeProof);
}

export const proofKeys = {
  all: queryKeys.proofs,
};

export function getProofsQueryOptions() {
  return queryOptions({
    queryKey: proofKeys.all,
    queryFn: ({ signal }) => getProofs({ signal }),
  });
}

export function useProofs() {
  return useQuery(getProofsQueryOptions());
}
