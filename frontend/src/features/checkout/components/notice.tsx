import type { ReactNode } from 'react';

import { AlertIcon, CheckCircleIcon } from '@/components/ui/icons';

import './notice.css';

type NoticeProps = {
  tone: 'error' | 'success' | 'info';
  title?: ReactNode;
  children?: ReactNode;
  /** Errors are announced at once; other notes politely. */
  role?: 'alert' | 'status';
};

/**
 * A boxed message on the checkout (a validation error, the stock alert, a linked account…), or
 * on a drop's page (the Discord link's outcome).
 */
export function Notice({ tone, title, children, role }: NoticeProps) {
  return (
    <div
      className={`checkout-notice checkout-notice--${tone}`}
      role={role ?? (tone === 'error' ? 'alert' : 'status')}
    >
      {tone === 'error' ? <AlertIcon size={20} /> : <CheckCircleIcon size={20} />}
      <div className="checkout-notice__text">
        {title ? <p className="checkout-notice__title">{title}</p> : null}
        {children}
      </div>
    </div>
  );
}
