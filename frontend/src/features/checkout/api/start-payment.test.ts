import { describe, expect, it } from 'vitest';

import { isUnanswered, retryDelay } from '@/features/checkout/api/start-payment';
import { ApiError } from '@/lib/api-client';

function error(status: number, retryAfter: number | null = null): ApiError {
  return new ApiError(status, 'x', {}, undefined, retryAfter);
}

describe('a press sent again by itself', () => {
  it('waits 0.3 s, 0.6 s, 1.2 s… up to 3 s without a Retry-After', () => {
    expect([0, 1, 2, 3, 4].map((attempt) => retryDelay(attempt, error(500)))).toEqual([
      300, 600, 1200, 2400, 3000,
    ]);
  });

  it('waits as the shop asks, from 1 to 5 s', () => {
    expect(retryDelay(0, error(409, 2))).toBe(2000);
    expect(retryDelay(0, error(409, 0))).toBe(1000);
    expect(retryDelay(0, error(409, 60))).toBe(5000);
  });

  it('is sent again only while the shop may not have answered', () => {
    expect(isUnanswered(error(0))).toBe(true);
    expect(isUnanswered(error(500))).toBe(true);
    expect(isUnanswered(error(409, 1))).toBe(true);
    expect(isUnanswered(error(502))).toBe(false);
    expect(isUnanswered(error(409))).toBe(false);
    expect(isUnanswered(error(422))).toBe(false);
    expect(isUnanswered(new Error('x'))).toBe(false);
  });
});
