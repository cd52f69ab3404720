import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas, WithRequired } from '@/types/api';

/** A verified review; `name` is the Roblox name's first letters, e.g. "Bu***". */
export type Review = Schemas['ReviewResponse'];

export type ReviewSummary = WithRequired<Schemas['ReviewsResponse'], 'average'>;

/** GET /api/reviews[?product_id=]: newest first, hidden ones left out. */
export function getReviews(productId?: number, signal?: AbortSignal): Promise<ReviewSummary> {
  return api.get('/reviews', {
    params: { query: { product_id: productId || undefined } },
    signal,
  }) as Promise<ReviewSummary>;
}

export function useReviews(productId?: number) {
  return useQuery({
    queryKey: queryKeys.reviews.list(productId),
    queryFn: ({ signal }) => getReviews(productId, signal),
    staleTime: 60_000,
  });
}

/** POST /api/orders/{id}/review?key=…: 201 once, 409 a second time, 422 before delivery. */
export function useLeaveReview(orderId: number, key: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: { rating: number; text: string }) =>
      api.post('/orders/{id}/review', {
        params: { path: { id: orderId }, query: { key: key || undefined } },
        body: review,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reviews.all }),
  });
}

export const REVIEW_HIDDEN = 'Review hidden.';

/**
 * POST /api/admin/reviews/{id}/hide `{reason}` (staff): the review is kept, with who hid it and
 * why, and leaves every list. 422 `errors.reason` when blank or too long, 404 when unknown.
 */
export function useHideReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      api.post('/admin/reviews/{id}/hide', { params: { path: { id } }, body: { reason } }),
    onSuccess: () => {
      toast.success(REVIEW_HIDDEN);
      return queryClient.invalidateQueries({ queryKey: queryKeys.reviews.all });
    },
  });
}
