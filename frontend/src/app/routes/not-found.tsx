import { Link } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { SproutIcon } from '@/components/ui/icons';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';

import './not-found.css';

export function NotFoundRoute() {
  return (
    <div className="container not-found">
      <title>Page not found · Garden Shop</title>
      <StateMessage
        icon={<SproutIcon size={28} />}
        headingLevel={1}
        title="Page not found"
        description="Nothing grows at this address. The page may have moved, or the link has a typo."
        action={
          <Link to={paths.home.getHref()} className={buttonClassName()}>
            Back to the shop
          </Link>
        }
      />
    </div>
  );
}
