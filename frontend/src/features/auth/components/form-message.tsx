import type { ReactNode } from 'react';

import { AlertIcon, CheckCircleIcon } from '@/components/ui/icons';

import './auth-card.css';

type FormMessageProps = {
  tone: 'error' | 'success';
  children: ReactNode;
};

/** The outcome of a form: an error (announced at once) or a success note. */
export function FormMessage({ tone, children }: FormMessageProps) {
  return (
    <div
      className={`form-message form-message--${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
    >
      {tone === 'error' ? <AlertIcon size={20} /> : <CheckCircleIcon size={20} />}
      <div className="form-message__text">{children}</div>
    </div>
  );
}
