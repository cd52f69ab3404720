import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

export function AboutRoute() {
  const { t } = useTranslation('info');
  const invite = useDiscordInvite();
  return (
    <ContentLayout title={t('about.title')} intro={t('about.intro')}>
      <h2>{t('about.whatTitle')}</h2>
      <p>{t('about.what')}</p>

      <h2>{t('about.fastTitle')}</h2>
      <p className="callout">
        <Trans t={t} i18nKey="about.fast" components={{ time: <DeliveryTime /> }} />
      </p>
      <p>
        {t('about.follow')}{' '}
        {invite ? (
          <Trans
            t={t}
            i18nKey="about.joinDiscord"
            components={{ server: <ExternalLink href={invite} /> }}
          />
        ) : (
          <Trans
            t={t}
            i18nKey="about.askChat"
            components={{ chat: <HelpChatButton>{''}</HelpChatButton> }}
          />
        )}{' '}
        <Trans
          t={t}
          i18nKey="about.seeHow"
          components={{ how: <Link to={paths.howItWorks.getHref()} /> }}
        />
      </p>

      <h2>{t('about.trustTitle')}</h2>
      <ul>
        <li>{t('about.trustStripe')}</li>
        <li>{t('about.trustPassword')}</li>
        <li>
          <Trans
            t={t}
            i18nKey="about.trustRules"
            components={{ refunds: <Link to={paths.refundPolicy.getHref()} /> }}
          />
        </li>
        <li>{t('about.trustDupe')}</li>
      </ul>

      <h2>{t('about.robloxTitle')}</h2>
      <p>{t('about.roblox')}</p>

      <p>
        <Link to={paths.home.getHref()} className={buttonClassName()}>
          {t('about.browse')}
        </Link>
      </p>
    </ContentLayout>
  );
}
