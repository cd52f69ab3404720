import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LeafLogo } from '@/components/ui/icons';
import { paths } from '@/config/paths';

import './footer.css';

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  const SHOP_LINKS = [
    { label: t('footer.about'), href: paths.about.getHref() },
    { label: t('footer.howItWorks'), href: paths.howItWorks.getHref() },
    { label: t('footer.faq'), href: paths.faq.getHref() },
    { label: t('footer.proofs'), href: paths.proofs.getHref() },
  ];
  const HELP_LINKS = [
    { label: t('footer.privacy'), href: paths.privacyPolicy.getHref() },
    { label: t('footer.terms'), href: paths.terms.getHref() },
    { label: t('footer.refunds'), href: paths.refundPolicy.getHref() },
  ];
  return (
    <footer className="footer">
      <div className="container footer__grid">
        <div className="footer__about">
          <Link to={paths.home.getHref()} className="footer__brand">
            <LeafLogo size={30} />
            <span>Garden Shop</span>
          </Link>
          <p>{t('footer.blurb')}</p>
        </div>
        <nav aria-labelledby="footer-shop-title">
          <h2 id="footer-shop-title" className="footer__title">
            {t('footer.ourShop')}
          </h2>
          <ul className="footer__links">
            {SHOP_LINKS.map((link) => (
              <li key={link.href}>
                <Link to={link.href}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-help-title">
          <h2 id="footer-help-title" className="footer__title">
            {t('footer.help')}
          </h2>
          <ul className="footer__links">
            {HELP_LINKS.map((link) => (
              <li key={link.href}>
                <Link to={link.href}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="container footer__bottom">
        <p>{t('footer.copyright', { year })}</p>
      </div>
    </footer>
  );
}
