import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

import { ExternalLinkIcon, LeafLogo } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { AccountTypeBadge } from '@/features/auth/components/account-type-badge';
import { useUser } from '@/features/auth/hooks/use-user';
import { CartButton } from '@/features/cart/components/cart-button';
import { CurrencySwitcher } from '@/app/layout/currency-switcher';
import { LanguageSwitcher } from '@/app/layout/language-switcher';
import { useSite } from '@/features/site/api/get-site';

import './navbar.css';

type NavbarProps = {
  cartButtonRef: RefObject<HTMLButtonElement | null>;
};

/**
 * Keeps `--navbar-height` on the root element equal to the sticky header's height (one or two rows
 * of links), so what is placed just under it (the phone's toasts) never covers it.
 */
function useNavbarHeightVariable() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const header = ref.current;
    if (!header || typeof ResizeObserver === 'undefined') return undefined;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.setProperty('--navbar-height', `${header.getBoundingClientRect().height}px`);
    });
    observer.observe(header);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--navbar-height');
    };
  }, []);
  return ref;
}

/** Reviews: an outside reviews site when set; the shop's own verified reviews otherwise. */
function ReviewsLink() {
  const { t } = useTranslation();
  const site = useSite();
  const reviewsUrl = site.data?.reviews_url?.trim();
  return (
    <>
      {reviewsUrl ? (
        <li>
          <a className="navbar__link" href={reviewsUrl} target="_blank" rel="noopener noreferrer">
            {t('nav.reviews')}
            <ExternalLinkIcon size={14} />
            <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
          </a>
        </li>
      ) : site.data ? (
        <li>
          <NavLink className="navbar__link" to={paths.reviews.getHref()}>
            {t('nav.reviews')}
          </NavLink>
        </li>
      ) : null}
    </>
  );
}

/** Profile and Logout when signed in; Login and Register otherwise. */
function AccountLinks() {
  const { t } = useTranslation();
  const { user } = useUser();
  const logout = useLogout();
  return user ? (
    <>
      <li>
        <NavLink className="navbar__link" to={paths.profile.getHref()}>
          {t('nav.profile')}
          <AccountTypeBadge className="navbar__role" accountType={user.account_type} />
        </NavLink>
      </li>
      <li>
        <button
          type="button"
          className="navbar__link navbar__link--strong navbar__button"
          disabled={logout.isPending}
          onClick={() => logout.mutate()}
        >
          {t('nav.logout')}
        </button>
      </li>
    </>
  ) : (
    <>
      <li>
        <NavLink className="navbar__link" to={paths.login.getHref()}>
          {t('nav.login')}
        </NavLink>
      </li>
      <li>
        <NavLink className="navbar__link navbar__link--strong" to={paths.register.getHref()}>
          {t('nav.register')}
        </NavLink>
      </li>
    </>
  );
}

export function Navbar({ cartButtonRef }: NavbarProps) {
  const headerRef = useNavbarHeightVariable();
  const { isStaff, isSuperAdmin } = useUser();
  const { t } = useTranslation();

  return (
    <header ref={headerRef} className="navbar">
      <div className="container navbar__inner">
        <Link to={paths.home.getHref()} className="navbar__brand">
          <LeafLogo size={34} />
          <span>Garden Shop</span>
        </Link>
        <nav className="navbar__nav" aria-label={t('nav.main')}>
          <ul className="navbar__links">
            <ReviewsLink />
            {isSuperAdmin ? (
              <li>
                <NavLink className="navbar__link" to={paths.adminProducts.getHref()}>
                  {t('nav.admin')} <span className="navbar__long">{t('nav.panel')}</span>
                </NavLink>
              </li>
            ) : null}
            {isStaff ? (
              <li>
                <NavLink className="navbar__link" to={paths.adminOrders.getHref()}>
                  {t('nav.orders')}
                </NavLink>
              </li>
            ) : null}
            <AccountLinks />
          </ul>
        </nav>
        <div className="navbar__cart">
          <LanguageSwitcher />
          <CurrencySwitcher />
          <CartButton ref={cartButtonRef} />
        </div>
      </div>
    </header>
  );
}
