import type { ReactNode } from 'react';
import { Navigate } from 'react-router';

import { paths } from '@/config/paths';

import { useUser } from '@/features/auth/hooks/use-user';

/** Pages for visitors only (/login, /register): a logged-in visitor goes to the shop (docs/product.md, Roles and access). */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { isLoggedIn } = useUser();
  return isLoggedIn ? <Navigate to={paths.home.getHref()} replace /> : children;
}

type RequireLoginProps = {
  children: ReactNode;
  /** Shown while the first session check runs. */
  fallback?: ReactNode;
};

/** Pages for logged-in users (/profile): anybody else goes to /login (docs/product.md, Screens). */
export function RequireLogin({ children, fallback = null }: RequireLoginProps) {
  const { isLoggedIn, isChecking } = useUser();
  if (isChecking) return fallback;
  return isLoggedIn ? children : <Navigate to={paths.login.getHref()} replace />;
}
