import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

import { ApiError } from '@/lib/api-client';

const MAX_RETRIES = 2;

export const queryConfig = {
  queries: {
    staleTime: 30_000,
    // A 4xx will not get better by asking again; network hiccups and 5xx might.
    retry: (failureCount, error) => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
      return failureCount < MAX_RETRIES;
    },
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig });
}
