import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Schemas, WithRequired } from '@/types/api';

/** A verified review; `name` is the Roblox name's first letters, e.g. "Bu***". */
export type Review = Schemas['ReviewResponse'];

export type ReviewSummary = WithRequired<Schemas['ReviewsResponse'], 'average'>;

/** GET /api/reviews[?product_id=]: newest first, hidden ones left out. */
export function getReviews(productId?: number, signal?: AbortSignal): Promise<ReviewSummary> {
  const query = productId ? `?product_id=${productId}` : '';
  return api.get<ReviewSummary>(`/reviews${query}`, { signal });
}

export function useReviews(productId?: number) {
  return useQuery({
    queryKey: ['reviews', productId ?? 'all'],
    queryFn: ({ signal }) => getReviews(productId, signal),
    staleTime: 60_000,
  });
}

/** POST /api/orders/{id}/review?key=…: 201 once, 409 a second time, 422 before delivery. */
export function useLeaveReview(orderId: number, key: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: { rating: number; text: string }) =>
      api.post<Review>(
        `/orders/${orderId}/review${key ? `?key=${encodeURIComponent(key)}` : ''}`,
        review,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reviews'] }),
  });
}

/**
 * POST /api/admin/reviews/{id}/hide `{reason}` (staff): the review is kept, with who hid it and
 * why, and leaves every list. 422 `errors.reason` when blank or too long, 404 when unknown.
 */
export function useHideReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      api.post<{ id: number; hidden: true }>(`/admin/reviews/${id}/hide`, { reason }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reviews'] }),
  });
}
