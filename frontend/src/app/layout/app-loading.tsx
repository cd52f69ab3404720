import { LeafLogo } from '@/components/ui/icons';

import './app-loading.css';

/** The first paint while the page's code downloads: the brand, gently pulsing. */
export function AppLoading() {
  return (
    <div className="app-loading" role="status" aria-label="Loading Garden Shop">
      <LeafLogo size={56} />
    </div>
  );
}
