import { Badge, type BadgeTone } from '@/components/ui/badge';

import type { AccountType } from '@/features/auth/types';
import { accountTypeLabel } from '@/features/auth/utils/account-type';

const TONES: Record<AccountType, BadgeTone> = {
  customer: 'brand',
  admin: 'warning',
  super_admin: 'special',
};

type AccountTypeBadgeProps = {
  accountType: AccountType;
  className?: string;
};

/** 'Customer', 'Admin' or 'Super Admin', each in its own colour. */
export function AccountTypeBadge({ accountType, className }: AccountTypeBadgeProps) {
  return (
    <Badge tone={TONES[accountType] ?? 'neutral'} className={className}>
      {accountTypeLabel(accountType)}
    </Badge>
  );
}
