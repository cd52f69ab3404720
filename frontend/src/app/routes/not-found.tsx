import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { SproutIcon } from '@/components/ui/icons';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';

import './not-found.css';

export function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <div className="container not-found">
      <title>{t('notFound.pageTitle')}</title>
      <StateMessage
        icon={<SproutIcon size={28} />}
        headingLevel={1}
        title={t('notFound.title')}
        description={t('notFound.description')}
        action={
          <Link to={paths.home.getHref()} className={buttonClassName()}>
            {t('notFound.back')}
          </Link>
        }
      />
    </div>
  );
}
