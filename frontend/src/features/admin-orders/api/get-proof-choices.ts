import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas } from '@/types/api';

/** A proof of delivery, as much of it as choosing one for an order needs. */
export type ProofChoice = Pick<Schemas['Proof'], 'id' | 'items'>;

/** GET /api/proofs, newest first: what "Mark delivered" can link. */
export function getProofChoices({ signal }: { signal?: AbortSignal } = {}): Promise<ProofChoice[]> {
  return api
    .get('/proofs', { signal })
    .then((proofs) => proofs.map(({ id, items }) => ({ id, items })));
}

export function getProofChoicesQueryOptions() {
  return queryOptions({
    // Its own key: the proofs page caches the full proofs under ['proofs'].
    queryKey: queryKeys.admin.proofChoices,
    queryFn: ({ signal }) => getProofChoices({ signal }),
    staleTime: 0,
  });
}

export function useProofChoices({ enabled }: { enabled: boolean }) {
  return useQuery({ ...getProofChoicesQueryOptions(), enabled });
}
