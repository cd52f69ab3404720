import { useTranslation } from 'react-i18next';

import { LeafLogo } from '@/components/ui/icons';

import './app-loading.css';

/** The first paint while the page's code downloads: the brand, gently pulsing. */
export function AppLoading() {
  const { t } = useTranslation();
  return (
    <div className="app-loading" role="status" aria-label={t('common.loadingShop')}>
      <LeafLogo size={56} />
    </div>
  );
}
