import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';

/** The way back to the products page every admin page offers. */
export function BackToProducts() {
  return (
    <Link to={paths.adminProducts.getHref()} className={buttonClassName({ variant: 'secondary' })}>
      <ArrowLeftIcon size={18} />
      Products
    </Link>
  );
}

type AdminPageHeaderProps = {
  title: string;
  /** What the page is for, under its title. */
  intro: ReactNode;
  /** The page's tools beside the title; the way back to the products page without any. */
  tools?: ReactNode;
};

/** An admin page's title, its introduction and its tools (or the way back to the products). */
export function AdminPageHeader({ title, intro, tools }: AdminPageHeaderProps) {
  return (
    <header className="admin-page__header">
      <div>
        <h1 className="admin-page__title">{title}</h1>
        <p className="admin-page__intro">{intro}</p>
      </div>
      {tools ?? <BackToProducts />}
    </header>
  );
}
