import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas } from '@/types/api';

/** A buyer's dispute of a payment, as GET /api/admin/disputes sends it. */
export type Dispute = Schemas['Dispute'];

/** A delivered order that got an early fraud warning, as GET /api/admin/fraud-warnings sends it. */
export type WarnedOrder = Schemas['FraudWarnedOrder'];

/** The three evidence files, by the name Stripe gives each. */
export const EVIDENCE_FILES = [
  { file: 'service_documentation', label: 'Delivery record' },
  { file: 'customer_communication', label: 'Messages' },
  { file: 'refund_policy', label: 'Refund policy' },
] as const;

/** The server's limit for the note to the bank. */
export const NOTE_MAX = 1000;

export const disputesQueryKey = queryKeys.admin.disputes;

/** GET /api/admin/disputes: newest first (super_admin). */
export function getDisputes({ signal }: { signal?: AbortSignal } = {}): Promise<Dispute[]> {
  return api.get('/admin/disputes', { signal });
}

export function useDisputes() {
  return useQuery(
    queryOptions({
      queryKey: disputesQueryKey,
      queryFn: ({ signal }) => getDisputes({ signal }),
      meta: { userScoped: true },
    }),
  );
}

/** The address of one evidence PDF, opened by the browser with the session cookie. */
export function evidenceHref(disputeId: string, file: string): string {
  return `/api/admin/disputes/${encodeURIComponent(disputeId)}/evidence/${file}`;
}

function replaced(queryClient: ReturnType<typeof useQueryClient>, changed: Dispute) {
  queryClient.setQueryData<Dispute[]>(disputesQueryKey, (current) =>
    current?.map((dispute) => (dispute.dispute_id === changed.dispute_id ? changed : dispute)),
  );
}

/** POST /api/admin/disputes/{id}/submit {note}: 200 with the dispute; 409, 422, 502. */
export function useSubmitDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ disputeId, note }: { disputeId: string; note: string }): Promise<Dispute> =>
      api.post('/admin/disputes/{dispute_id}/submit', {
        params: { path: { dispute_id: disputeId } },
        body: { note: note || null },
      }),
    onSuccess: (changed) => {
      replaced(queryClient, changed);
      toast.success(`Evidence for order #${changed.order_id ?? '?'} submitted to the bank.`);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: disputesQueryKey }),
  });
}

/** POST /api/admin/disputes/{id}/accept: 200 with the dispute; 409, 502. */
export function useAcceptDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (disputeId: string): Promise<Dispute> =>
      api.post('/admin/disputes/{dispute_id}/accept', {
        params: { path: { dispute_id: disputeId } },
      }),
    onSuccess: (changed) => {
      replaced(queryClient, changed);
      toast.success(`Dispute of order #${changed.order_id ?? '?'} accepted.`);
    },
    onError: (error) => toast.error(errorMessage(error)),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: disputesQueryKey }),
  });
}

/** GET /api/admin/fraud-warnings: delivered orders warned of fraud, newest first (super_admin). */
export function useFraudWarnings() {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.admin.fraudWarnings,
      queryFn: ({ signal }): Promise<WarnedOrder[]> => api.get('/admin/fraud-warnings', { signal }),
      meta: { userScoped: true },
    }),
  );
}

/** The address of one evidence PDF prepared for a warned order. */
export function warnedEvidenceHref(orderId: number, file: string): string {
  return `/api/admin/fraud-warnings/${orderId}/evidence/${file}`;
}
