import { Trans, useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { DISCORD_AUTHORIZE_URL } from '@/features/checkout/api/link-discord';
import { useLinkedDiscord } from '@/features/checkout/hooks/use-linked-discord';
import { rememberDiscordReturn } from '@/features/checkout/utils/discord-return';

import './link-discord-before-drop.css';

/**
 * On an upcoming drop's page: asks a shopper without a linked Discord account to link one now,
 * so the checkout is quick when the drop opens (and nothing when one is linked). Discord's answer
 * then returns to this page (not the checkout), to wait for the countdown. `invite`: the shop's
 * Discord invite, linked where the words name the server.
 */
export function LinkDiscordBeforeDrop({ invite }: { invite: string | null }) {
  const { t } = useTranslation();
  const { identity } = useLinkedDiscord();
  const location = useLocation();
  if (identity) return null;
  return (
    <div className="drop-discord">
      <p>
        {invite ? (
          <Trans
            i18nKey="checkout.discord.beforeDropWithServer"
            components={{ server: <ExternalLink href={invite} /> }}
          />
        ) : (
          t('checkout.discord.beforeDrop')
        )}
      </p>
      <a
        href={DISCORD_AUTHORIZE_URL}
        onClick={() => rememberDiscordReturn(location.pathname)}
        className={buttonClassName({ variant: 'secondary', size: 'sm' })}
      >
        {t('checkout.discord.link')}
      </a>
    </div>
  );
}
