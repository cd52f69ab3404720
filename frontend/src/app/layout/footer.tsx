import { Link } from 'react-router';

import { LeafLogo } from '@/components/ui/icons';
import { paths } from '@/config/paths';

import './footer.css';

const SHOP_LINKS = [
  { label: 'About Us', href: paths.about.getHref() },
  { label: 'How it works', href: paths.howItWorks.getHref() },
  { label: 'FAQ', href: paths.faq.getHref() },
  { label: 'Proofs of Delivery', href: paths.proofs.getHref() },
];

const HELP_LINKS = [
  { label: 'Privacy Policy', href: paths.privacyPolicy.getHref() },
  { label: 'Terms of Service', href: paths.terms.getHref() },
  { label: 'Refund Policy', href: paths.refundPolicy.getHref() },
];

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="footer">
      <div className="container footer__grid">
        <div className="footer__about">
          <Link to={paths.home.getHref()} className="footer__brand">
            <LeafLogo size={30} />
            <span>Garden Shop</span>
          </Link>
          <p>
            Pets, Sheckles, bundles and exclusives for Grow a Garden, delivered by hand in game by
            our staff.
          </p>
        </div>
        <nav aria-labelledby="footer-shop-title">
          <h2 id="footer-shop-title" className="footer__title">
            Our Shop
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
            Help
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
        <p>© {year} Garden Shop. Not affiliated with Roblox Corporation.</p>
      </div>
    </footer>
  );
}
