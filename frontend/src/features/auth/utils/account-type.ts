import type { AccountType } from '@/features/auth/types';

/** 'Admin', 'Super Admin', any other type capitalised ('Customer'), as docs/product.md's Screens show them. */
export function accountTypeLabel(type: AccountType | string): string {
  if (type === 'admin') return 'Admin';
  if (type === 'super_admin') return 'Super Admin';
  return type ? type.charAt(0).toUpperCase() + type.slice(1) : '';
}
