import type { ReactNode } from 'react';

import { ShieldIcon } from '@/components/ui/icons';
import { StateMessage } from '@/components/ui/state-message';
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
  const { isSuperAdmin, isStaff, isChecking } = useUser();
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
      />
    </div>
  );
}
