import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import './content-layout.css';

type ContentLayoutProps = {
  title: string;
  /** One or two sentences under the title. */
  intro?: ReactNode;
  children: ReactNode;
};

/** The frame of the text pages: a title band and a readable column. */
export function ContentLayout({ title, intro, children }: ContentLayoutProps) {
  const { t } = useTranslation();
  return (
    <>
      <title>{t('common.pageTitle', { title })}</title>
      <header className="content-header">
        <div className="container">
          <div className="content-header__inner">
            <h1>{title}</h1>
            {intro ? <p className="content-header__intro">{intro}</p> : null}
          </div>
        </div>
      </header>
      <div className="container">
        <div className="content-body prose">{children}</div>
      </div>
    </>
  );
}
