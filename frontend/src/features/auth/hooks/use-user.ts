import { useSession } from '@/features/auth/api/get-session';
import type { AccountType, User } from '@/features/auth/types';

export type CurrentUser = {
  /** The logged-in user, or null when logged out (or while the first check runs). */
  user: User | null;
  accountType: AccountType | null;
  isLoggedIn: boolean;
  /** admin or super_admin: proofs, live chats, the orders queue. */
  isStaff: boolean;
  /** super_admin: products, promo codes, inventory, statistics. */
  isSuperAdmin: boolean;
  /**
   * True only until the first session check answers. The app renders after that check
   * (SessionGate), so pages see it only in isolation, e.g. in tests.
   */
  isChecking: boolean;
};

/**
 * Who is logged in, from GET /api/auth/check (cached, shared by every caller). This is what
 * the UI adapts to; the server enforces every role on its own.
 *
 *   const { user, isLoggedIn, isSuperAdmin } = useUser();
 */
export function useUser(): CurrentUser {
  const session = useSession();
  const user = session.data?.user ?? null;
  const accountType = user?.account_type ?? null;
  return {
    user,
    accountType,
    isLoggedIn: user !== null,
    isStaff: accountType === 'admin' || accountType === 'super_admin',
    isSuperAdmin: accountType === 'super_admin',
    isChecking: session.isPending,
  };
}
