import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas } from '@/types/api';

/** A proof of delivery, as much of it as choosing one for an order and showing it there needs. */
export type ProofChoice = Pick<Schemas['Proof'], 'id' | 'items' | 'images'>;

/** GET /api/proofs, newest first: what "Mark delivered" can link, and the delivered orders show. */
export function getProofChoices({ signal }: { signal?: AbortSignal } = {}): Promise<ProofChoice[]> {
  return api.get('/proofs', { signal }).then((proofs) =>
    // (the spec's client sent the pictures as a JSON text; the server sends a list)
    proofs.map(({ id, items, images }) => ({
      id,
      items,
      images: Array.isArray(images) ? images : [],
    })),
  );
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
