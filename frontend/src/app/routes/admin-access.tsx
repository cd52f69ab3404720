import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';

import { Button, buttonClassName } from '@/components/ui/button';
import { ShieldIcon } from '@/components/ui/icons';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { useUser } from '@/features/auth/hooks/use-user';

export const SUPER_ADMINS_ONLY = 'Access denied. Super Admins only.';
export const STAFF_ONLY = 'Access denied. Staff only.';

type RequireRoleProps = {
  /** super_admin: products, inventory, statistics. staff: admin or super_admin (orders queue). */
  role: 'super_admin' | 'staff';
  children: ReactNode;
};

/**
 * Shows an admin page only to the role it is for; everybody else reads the spec's refusal.
 * The UI only adapts: the server refuses every admin call on its own (401/403).
 */
export function RequireRole({ role, children }: RequireRoleProps) {
  const { isSuperAdmin, isStaff, isChecking, isLoggedIn } = useUser();
  const logout = useLogout();
  const navigate = useNavigate();
  if (isChecking) return null;
  const allowed = role === 'super_admin' ? isSuperAdmin : isStaff;
  if (allowed) return children;
  return (
    <div className="container admin-denied">
      <StateMessage
        role="alert"
        tone="danger"
        headingLevel={1}
        icon={<ShieldIcon size={28} />}
        title={role === 'super_admin' ? SUPER_ADMINS_ONLY : STAFF_ONLY}
        description="Log in with an account that has access, or go back to the shop."
        action={
          <div className="admin-denied__actions">
            {isLoggedIn ? (
              // /login sends a logged-in visitor home: this account logs out first
              <Button
                loading={logout.isPending}
                onClick={() =>
                  logout.mutate({ onSuccess: () => void navigate(paths.login.getHref()) })
                }
              >
                Log in as someone else
              </Button>
            ) : (
              <Link to={paths.login.getHref()} className={buttonClassName()}>
                Log in
              </Link>
            )}
            <Link to={paths.home.getHref()} className={buttonClassName({ variant: 'secondary' })}>
              Back to the shop
            </Link>
          </div>
        }
      />
    </div>
  );
}
