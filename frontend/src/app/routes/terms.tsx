import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

export function TermsRoute() {
  const { t } = useTranslation('info');
  const invite = useDiscordInvite();
  const refunds = <Link to={paths.refundPolicy.getHref()} />;
  return (
    <ContentLayout title={t('terms.title')} intro={t('terms.intro')}>
      <h2>{t('terms.whoTitle')}</h2>
      <p>{t('terms.who')}</p>

      <h2>{t('terms.canBuyTitle')}</h2>
      <p>{t('terms.canBuy')}</p>

      <h2>{t('terms.whatTitle')}</h2>
      <p>{t('terms.what')}</p>
      <p>{t('terms.dupe')}</p>

      <h2>{t('terms.pricesTitle')}</h2>
      <ul>
        <li>{t('terms.pricesCurrency')}</li>
        <li>{t('terms.pricesCard')}</li>
        <li>{t('terms.pricesPromo')}</li>
        <li>{t('terms.pricesChange')}</li>
      </ul>

      <h2>{t('terms.deliveryTitle')}</h2>
      <p>
        {invite ? (
          <Trans
            t={t}
            i18nKey="terms.deliveryDiscord"
            components={{ time: <DeliveryTime />, server: <ExternalLink href={invite} /> }}
          />
        ) : (
          <Trans t={t} i18nKey="terms.delivery" components={{ time: <DeliveryTime /> }} />
        )}
      </p>
      <p>{t('terms.details')}</p>

      <h2>{t('terms.refundsTitle')}</h2>
      <p>
        <Trans t={t} i18nKey="terms.refunds" components={{ refunds }} />
      </p>

      <h2>{t('terms.fairTitle')}</h2>
      <p>{t('terms.fair')}</p>

      <h2>{t('terms.robloxTitle')}</h2>
      <p>{t('terms.roblox')}</p>

      <h2>{t('terms.liabilityTitle')}</h2>
      <p>{t('terms.liability')}</p>

      <h2>{t('terms.changesTitle')}</h2>
      <p>
        {t('terms.changes')}{' '}
        {invite ? (
          <Trans
            t={t}
            i18nKey="terms.contactDiscord"
            components={{ server: <ExternalLink href={invite} /> }}
          />
        ) : (
          <Trans
            t={t}
            i18nKey="terms.contactChat"
            components={{ chat: <HelpChatButton>{''}</HelpChatButton> }}
          />
        )}
      </p>
    </ContentLayout>
  );
}
