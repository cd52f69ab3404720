import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { AlertIcon, LeafLogo } from '@/components/ui/icons';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';

import './route-error.css';

/** Shown when a page fails to load or crashes; the shell itself may be broken, so it stands alone. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);

  return (
    <div className="route-error">
      <title>{t('routeError.pageTitle')}</title>
      <Link to={paths.home.getHref()} className="route-error__brand">
        <LeafLogo size={34} />
        <span>Garden Shop</span>
      </Link>
      <StateMessage
        tone="danger"
        role="alert"
        icon={<AlertIcon size={28} />}
        title={t('routeError.title')}
        description={t('routeError.description')}
        action={
          <div className="route-error__actions">
            <button
              type="button"
              className={buttonClassName()}
              onClick={() => window.location.reload()}
            >
              {t('routeError.reload')}
            </button>
            <Link to={paths.home.getHref()} className={buttonClassName({ variant: 'secondary' })}>
              {t('routeError.home')}
            </Link>
          </div>
        }
      />
    </div>
  );
}
