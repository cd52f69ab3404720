import type { ReactNode } from 'react';

import { useSession } from '@/features/auth/api/get-session';

type SessionGateProps = {
  children: ReactNode;
  /** Shown until GET /api/auth/check answers. */
  fallback: ReactNode;
};

/**
 * The app renders only after the session check (docs/product.md, Behaviour), so no page ever flashes the wrong
 * navbar or redirects before it knows who is there. A failed check counts as logged out.
 */
export function SessionGate({ children, fallback }: SessionGateProps) {
  const session = useSession();
  return session.isPending ? fallback : children;
}
