import { useSyncExternalStore } from 'react';

import { secondsUntil } from '@/lib/drop';

/*
 * One clock for every countdown on the page: it ticks on each whole second while at least one
 * component shows a countdown, and stops when none does.
 */
let now = Date.now();
let tickTimer: ReturnType<typeof setTimeout> | undefined;
const tickListeners = new Set<() => void>();

function tick() {
  now = Date.now();
  tickListeners.forEach((listener) => listener());
  tickTimer = setTimeout(tick, 1000 - (now % 1000));
}

function subscribeClock(listener: () => void): () => void {
  tickListeners.add(listener);
  if (tickListeners.size === 1) tick();
  return () => {
    tickListeners.delete(listener);
    if (tickListeners.size === 0) {
      clearTimeout(tickTimer);
      tickTimer = undefined;
    }
  };
}

/** The seconds left until `releaseAt` (null: none), re-rendering each second. */
export function useSecondsUntil(releaseAt: string | null): number | null {
  const current = useSyncExternalStore(subscribeClock, () => now);
  return releaseAt === null ? null : secondsUntil(releaseAt, current);
}
