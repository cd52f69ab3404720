import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas } from '@/types/api';

export type RefundPolicy = Schemas['RefundPolicy'];

/** The refund policy from its one source on the server, with its version. */
export function getRefundPolicy({ signal }: { signal?: AbortSignal } = {}): Promise<RefundPolicy> {
  return api.get('/refund-policy', { signal });
}

export function useRefundPolicy() {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.refundPolicy,
      queryFn: ({ signal }) => getRefundPolicy({ signal }),
      staleTime: Infinity,
    }),
  );
}
