import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { LeafLogo } from '@/components/ui/icons';

import './auth-card.css';

type AuthCardProps = {
  title: string;
  /** One sentence under the title. */
  description?: ReactNode;
  children: ReactNode;
  /** Links to the neighbouring forms ("No account yet? Register"). */
  footer?: ReactNode;
};

/** The frame of every accounts page: a centred card with the brand, a title and the form. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  const { t } = useTranslation();
  return (
    <div className="container auth-page">
      <title>{t('common.pageTitle', { title })}</title>
      <section className="auth-card" aria-labelledby="auth-card-title">
        <div className="auth-card__header">
          <LeafLogo size={44} />
          <h1 id="auth-card-title" className="auth-card__title">
            {title}
          </h1>
          {description ? <p className="auth-card__description">{description}</p> : null}
        </div>
        {children}
        {footer ? <div className="auth-card__footer">{footer}</div> : null}
      </section>
    </div>
  );
}
