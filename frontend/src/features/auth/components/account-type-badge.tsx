import { useTranslation } from 'react-i18next';

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

/** 'Customer' (in the shopper's language), 'Admin' or 'Super Admin' (staff: English), each in its own colour. */
export function AccountTypeBadge({ accountType, className }: AccountTypeBadgeProps) {
  const { t } = useTranslation('pages');
  return (
    <Badge tone={TONES[accountType] ?? 'neutral'} className={className}>
      {accountType === 'customer' ? t('profile.customer') : accountTypeLabel(accountType)}
    </Badge>
  );
}
